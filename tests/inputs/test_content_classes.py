"""The WordNet reader and the content classes, on a tiny WordNet-format database written by the test."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from faithguard.inputs.content_kinds import classify_noun
from faithguard.lexical.wordnet_mmap import WordNet, available

# (key, lexfile, lemmas, hypernym keys): a miniature noun hierarchy shaped like WordNet's.
_SYNSETS = [
    ("entity", 3, ["entity"], []),
    ("communication", 3, ["communication"], ["entity"]),
    ("written", 10, ["written_communication"], ["communication"]),
    ("visual", 10, ["visual_communication"], ["communication"]),
    ("message", 10, ["message"], ["communication"]),
    ("statement", 10, ["statement"], ["message"]),
    ("artifact", 6, ["artifact"], ["entity"]),
    ("representation", 6, ["representation"], ["artifact"]),
    ("movie", 10, ["movie"], ["visual"]),
    ("web_site", 10, ["web_site"], ["communication"]),
    ("record", 10, ["record"], ["communication"]),
    ("sound_recording", 6, ["sound_recording"], ["artifact"]),
    ("routine", 10, ["routine"], ["written"]),
    ("essay", 10, ["essay"], ["written"]),
    ("chart", 10, ["chart"], ["visual"]),
    ("gripe", 10, ["gripe"], ["statement"]),
    ("ailment", 26, ["gripe"], ["entity"]),
    ("weather", 19, ["weather"], ["entity"]),
]


def _write_db(folder: Path) -> None:
    offsets: dict[str, int] = {}
    # Two passes: line lengths do not depend on offsets because offsets are fixed-width.
    header = "  1 miniature test database\n"
    pos = len(header)
    bodies: dict[str, str] = {}
    for key, lex, lemmas, hypers in _SYNSETS:
        offsets[key] = pos
        words = " ".join(f"{w} 0" for w in lemmas)
        ptrs = "".join(f" @ {{{h}}} n 0000" for h in hypers)
        bodies[key] = f"{{{key}}} {lex:02d} n {len(lemmas):02x} {words} {len(hypers):03d}{ptrs} | test gloss\n"
        pos += len(bodies[key].replace("{" + key + "}", "00000000").format(**{h: "00000000" for h in hypers}))
    data = header + "".join(b.format(**{k: f"{v:08d}" for k, v in offsets.items()}) for b in bodies.values())
    (folder / "data.noun").write_text(data, encoding="utf-8")
    by_lemma: dict[str, list[int]] = {}
    # ailment's "gripe" is listed first: the most frequent sense of "gripe" is not communication.
    for key in ["ailment"] + [k for k, *_ in _SYNSETS if k != "ailment"]:
        lemmas = next(s[2] for s in _SYNSETS if s[0] == key)
        for lemma in lemmas:
            by_lemma.setdefault(lemma, []).append(offsets[key])
    lines = [
        f"{lemma} n {len(offs)} 1 @ {len(offs)} 0 " + " ".join(f"{o:08d}" for o in offs) + "  "
        for lemma, offs in sorted(by_lemma.items())
    ]
    (folder / "index.noun").write_text(header + "\n".join(lines) + "\n", encoding="utf-8")
    (folder / "noun.exc").write_text("essaies essay\n", encoding="utf-8")


@pytest.fixture(scope="module")
def mini(tmp_path_factory: pytest.TempPathFactory) -> WordNet:
    folder = tmp_path_factory.mktemp("wn")
    _write_db(folder)
    return WordNet(folder)


def test_reader_finds_senses_and_hypernyms(mini: WordNet) -> None:
    assert mini.available
    (essay,) = mini.senses("essays")  # detachment rule
    syn = mini.synset(essay)
    assert syn is not None and syn.lemmas == ("essay",) and syn.lexname == "noun.communication"
    names = {mini.synset(o).lemmas[0] for o in mini.closure(essay)}  # type: ignore[union-attr]
    assert {"written_communication", "communication", "entity"} <= names
    assert mini.senses("essaies") == [essay]  # exception list
    assert mini.senses("zebra") == []


def test_classes_from_spec(mini: WordNet) -> None:
    essay, chart, gripe, weather = (classify_noun(w, mini) for w in ("essay", "chart", "gripe", "weather"))
    assert essay is not None and essay.strength == "strong" and essay.inline
    assert chart is not None and chart.strength == "strong" and not chart.inline
    assert gripe is not None and gripe.strength == "weak"  # only its second sense is a statement
    assert weather is None


def test_missing_database_is_unknown(tmp_path: Path) -> None:
    wn = WordNet(tmp_path)
    assert not wn.available and wn.senses("essay") == [] and classify_noun("essay", wn) is None


@settings(max_examples=60, deadline=None)
@given(st.text(max_size=30))
def test_reader_never_raises_on_odd_words(mini: WordNet, word: str) -> None:
    for result in (classify_noun(word, mini), classify_noun(word)):
        assert result is None or result.strength in ("strong", "weak")
    if not available():
        assert classify_noun(word) is None
