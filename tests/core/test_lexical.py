"""The core lexical package: one WordNet folder for both readers, unknown without the files, lazy imports."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

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
