"""The core lexical package: one WordNet folder for both readers, unknown without the files, lazy imports."""

from __future__ import annotations

import logging
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from faithguard.lexical import wordnet
from faithguard.lexical.wordnet_mmap import WORDNET_ENV, WordNet, wordnet_dir


def test_the_folder_comes_from_the_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv(WORDNET_ENV, str(tmp_path))
    assert wordnet_dir() == tmp_path
    assert WordNet().folder == tmp_path


def test_an_empty_setting_means_the_default_folder(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(WORDNET_ENV, "")
    assert wordnet_dir() == Path("/usr/share/wordnet")


def test_both_readers_read_the_one_folder(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    (tmp_path / "noun.exc").write_text("mice mouse\n", encoding="utf-8")
    monkeypatch.setenv(WORDNET_ENV, str(tmp_path))
    wordnet.exception_forms.cache_clear()
    try:
        assert wordnet.exception_forms() == {"mice": "mouse"}
    finally:
        wordnet.exception_forms.cache_clear()


def test_without_the_files_every_lookup_is_unknown(tmp_path: Path) -> None:
    wn = WordNet(tmp_path)
    assert not wn.available
    assert wn.senses("river") == []
    assert wn.lemma_synsets("river") == []
    assert not wn.is_verb("run")


def test_importing_the_package_loads_no_heavy_dependency() -> None:
    code = (
        "import sys, faithguard.lexical, faithguard.lexical.frequency, faithguard.lexical.wordnet, "
        "faithguard.lexical.wordnet_mmap, faithguard.lexical.langid\n"
        "print(sorted(m for m in ('nltk', 'wordfreq') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_one_cardinal_reader_for_digits_and_number_words() -> None:
    from faithguard.numwords import cardinal

    assert [cardinal(w) for w in ("14", "three", "Five", "zero")] == [14, 3, 5, 0]
    assert [cardinal(w) for w in ("short", "3rd", "", "twenty-one")] == [None, None, None, None]


def _nltk_reader() -> object:
    if not wordnet.available():
        pytest.skip("WordNet data not installed (apt-get install wordnet-base)")
    return wordnet._reader(wait=True)


def test_threads_reading_synsets_at_once_each_get_their_own() -> None:
    # nltk reads through one shared file handle; unserialised, interleaved seeks returned other lines
    import threading

    reader: Any = _nltk_reader()
    offsets = sorted(
        {
            o
            for name in ("dog", "river", "city", "music", "tree", "house")
            for o in reader._lemma_pos_offset_map[name]["n"]
        }
    )
    wrong: list[object] = []

    def read() -> None:
        for _ in range(300):
            for offset in offsets:
                getattr(reader, "_held", {}).pop(("n", offset), None)  # force a read from the file each time
                reader._synset_offset_cache["n"].pop(offset, None)
                try:
                    synset = reader.synset_from_pos_and_offset("n", offset)
                except Exception as exc:  # the failure under test
                    wrong.append(exc)
                    continue
                if synset is None or synset.offset() != offset:
                    wrong.append(offset)

    threads = [threading.Thread(target=read) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert wrong == []


def test_the_reader_keeps_a_bounded_number_of_synsets(monkeypatch: pytest.MonkeyPatch) -> None:
    reader: Any = _nltk_reader()
    monkeypatch.setattr(wordnet, "SYNSETS_HELD", 5)
    for cache in reader._synset_offset_cache.values():
        cache.clear()  # what earlier tests' readers left in nltk's own cache is not this test's
    names = ["dog", "river", "city", "music", "tree", "house", "cloud", "bridge"]
    got = [reader.synsets(name, "n")[0] for name in names]
    assert [s.name() for s in got] == [f"{name}.n.01" for name in names]  # still right after evictions
    assert len(reader._held) <= 5
    assert not any(reader._synset_offset_cache[pos] for pos in list(reader._synset_offset_cache))


def test_a_synset_read_that_reads_another_synset_does_not_block_itself() -> None:
    # nltk reads a satellite adjective's head synset while reading the satellite: the read lock is re-entered
    import threading

    reader: Any = _nltk_reader()
    for pos in ("a", "s"):
        reader._held.clear()
        reader._synset_offset_cache[pos].clear()
    got: list[str] = []
    worker = threading.Thread(target=lambda: got.extend(s.name() for s in reader.synsets("scarlet", "s")), daemon=True)
    worker.start()
    worker.join(30)
    assert not worker.is_alive() and got


def test_a_wordnet_folder_that_holds_no_database_is_said_in_the_log(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    from faithguard.lexical import wordnet_mmap

    monkeypatch.setenv(wordnet_mmap.WORDNET_ENV, str(tmp_path / "nowhere"))
    wordnet_mmap.get_wordnet.cache_clear()
    try:
        with caplog.at_level(logging.WARNING, logger="faithguard"):
            assert not wordnet_mmap.get_wordnet().available
        assert any("holds no WordNet database" in r.getMessage() for r in caplog.records)
    finally:
        wordnet_mmap.get_wordnet.cache_clear()  # rebuilt over the real folder once monkeypatch restores the variable
