"""The plugin registers its detectors, sources and the ``kb`` command."""

from __future__ import annotations

import argparse

import pytest

from faithguard.detector import Detector, KnowledgeSource
from faithguard.lexical.wordnet_mmap import available as wordnet_available
from faithguard.terms import plugin


def test_plugin_hooks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("FAITHGUARD_KB_INDEX", raising=False)
    monkeypatch.delenv("FAITHGUARD_GLOSSARY", raising=False)
    detectors: list[Detector] = []
    plugin.register_detectors(register=detectors.append)
    assert [(d.name, d.stage, d.order) for d in detectors] == [
        ("unknown_terms", "input", 60),
        ("fabricated_terms", "output", 300),
    ]
    sources: list[KnowledgeSource] = []
    plugin.register_knowledge_sources(register=sources.append)
    assert [s.name for s in sources if s.name != "wordnet"] == ["context", "lexicon"]
    assert ("wordnet" in [s.name for s in sources]) is wordnet_available()
    assert all(isinstance(s, KnowledgeSource) for s in sources)
    parser = argparse.ArgumentParser()
    plugin.register_commands(subparsers=parser.add_subparsers(dest="command"))
    args = parser.parse_args(["kb", "lookup", "x"])
    assert callable(args.handler)


def test_plugin_loads_through_manager() -> None:
    from faithguard.plugins import collect, make_plugin_manager

    pm, failures = make_plugin_manager(load_entrypoints=False)
    registry = collect(pm, failures)
    names = {d.name for d in registry.detectors}
    assert {"unknown_terms", "fabricated_terms"} <= names
    assert not [f for f in registry.failures if "terms" in f.name]
