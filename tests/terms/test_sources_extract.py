"""Candidate extraction and the knowledge sources."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from faithguard.detector import CallContext
from faithguard.errors import ConfigError
from faithguard.models import Message
from faithguard.terms.extract import extract_candidates
from faithguard.terms.normalize import normalize
from faithguard.terms.sources import ContextSource, GlossarySource, IndexSource, LexiconSource, default_sources


def _texts(query: str) -> list[str]:
    return [c.text for c in extract_candidates(query)]


def test_extracts_title_cased_hyphenated_compound() -> None:
    texts = _texts("How does nanorobotics relate to the concept of Nano-Sync Fusion Technology in practice?")
    assert "Nano-Sync Fusion Technology" in texts
    assert "nanorobotics" in [t.lower() for t in texts]
    assert not any(t.lower() in {"the concept", "concept", "practice"} for t in texts)


def test_extracts_quoted_and_noun_compounds() -> None:
    texts = _texts('Compare the "Turbo-jump dribble" with the phenomenon of information cascade flux.')
    assert "Turbo-jump dribble" in texts
    assert "information cascade flux" in texts


def test_drops_ordinary_vocabulary() -> None:
    assert _texts("What is the best way to cook it for my family?") == []
    assert _texts("They said this and that.") == []


def test_title_run_keeps_connectors_and_numbers() -> None:
    texts = _texts("How has the Social Media Working Group Act of 2014 changed things?")
    assert "Social Media Working Group Act of 2014" in texts


def test_coordination_is_not_one_term() -> None:
    texts = [normalize(t) for t in _texts("How does the health and fitness industry use wearable sensor arrays?")]
    assert "health and fitness industry" not in texts


def test_context_source() -> None:
    src = ContextSource()
    ctx = CallContext(query="q", documents=["Our Nano-Sync Fusion Technologies ship in May."])
    assert src.lookup("nano sync fusion technology", ctx) is True
    assert src.lookup("quantum loop weaving", ctx) is None
    assert src.lookup("anything", CallContext(query="q")) is None
    hist = CallContext(query="q", history=[Message(role="user", content="I call it Blue Harbour Mode.")])
    assert src.lookup("Blue Harbour Mode", hist) is True


def test_lexicon_single_words_only() -> None:
    src = LexiconSource()
    ctx = CallContext(query="q")
    assert src.lookup("banana", ctx) is True
    assert src.lookup("Nanosyncology", ctx) is False
    assert src.lookup("Qwzx", ctx) is False
    assert src.lookup("nanorobotics", ctx) is None  # nano + robotics: built from known parts
    assert src.lookup("digitality", ctx) is None  # digital + -ity
    assert src.lookup("information cascade flux", ctx) is None  # known words, unattested phrase
    assert src.lookup("nano-scale", ctx) in (True, None)
    assert src.lookup("2014", ctx) is None
    assert src.lookup("", ctx) is None


def test_glossary_txt_and_json(tmp_path: Path) -> None:
    txt = tmp_path / "g.txt"
    txt.write_text("# my terms\nBlue Harbour Mode\nQuantum Loop Weaving\n", encoding="utf-8")
    ctx = CallContext(query="q")
    g = GlossarySource(txt)
    assert g.enabled
    assert g.lookup("blue harbour modes", ctx) is True
    assert g.lookup("green harbour mode", ctx) is None
    assert GlossarySource(txt, exhaustive=True).lookup("green harbour mode", ctx) is False
    js = tmp_path / "g.json"
    js.write_text(json.dumps({"Orbit Scaffold": "a teaching method that revisits topics"}), encoding="utf-8")
    gj = GlossarySource(js)
    assert gj.lookup("orbit-scaffold", ctx) is True
    assert gj.definition("Orbit Scaffold") == "a teaching method that revisits topics"
    jl = tmp_path / "l.json"
    jl.write_text(json.dumps(["Alpha Mode"]), encoding="utf-8")
    assert GlossarySource(jl).lookup("alpha mode", ctx) is True


def test_glossary_errors_and_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    with pytest.raises(ConfigError):
        GlossarySource(bad)
    scalar = tmp_path / "s.json"
    scalar.write_text("3", encoding="utf-8")
    with pytest.raises(ConfigError):
        GlossarySource(scalar)
    with pytest.raises(ConfigError):
        GlossarySource(tmp_path / "missing.txt")
    monkeypatch.delenv("FAITHGUARD_GLOSSARY", raising=False)
    assert not GlossarySource().enabled
    good = tmp_path / "ok.txt"
    good.write_text("Blue Harbour Mode\n", encoding="utf-8")
    monkeypatch.setenv("FAITHGUARD_GLOSSARY", str(good))
    assert "glossary" in [s.name for s in default_sources()]


def test_index_source(index_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ctx = CallContext(query="q")
    src = IndexSource(index_path)
    assert src.lookup("Information cascades", ctx) is True
    assert src.lookup("Information cascade flux", ctx) is False
    monkeypatch.delenv("FAITHGUARD_KB_INDEX", raising=False)
    assert IndexSource().lookup("anything", ctx) is None
    assert [s.name for s in default_sources() if s.name != "wordnet"] == ["context", "lexicon"]
    monkeypatch.setenv("FAITHGUARD_KB_INDEX", str(index_path))
    assert [s.name for s in default_sources() if s.name != "wordnet"] == ["context", "index", "lexicon"]
