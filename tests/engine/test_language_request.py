"""Every spec of ``engine/data/language_request.json`` against its own fixtures, and the derived name table."""

from __future__ import annotations

import json
from importlib import resources

import pytest

from faithguard.engine.language_request import (
    derive_language_names,
    language_code,
    load_specs,
)
from faithguard.lexical import wordnet


def test_name_table_is_derived_not_typed() -> None:
    shipped = json.loads(resources.files("faithguard.engine").joinpath("data/language_names.json").read_text("utf-8"))
    assert "derive_language_names" in shipped["about"] and "spaCy" in shipped["about"]
    assert derive_language_names() == shipped["names"]


def test_name_lookup() -> None:
    assert language_code("Spanish") == "es" and language_code("haitian  Creole") == "ht"
    assert language_code("Spain") is None and language_code("") is None


def test_verbs_are_text_producing_in_wordnet() -> None:
    """Provenance of the verb lemmas: each has a WordNet verb.communication or verb.creation sense."""
    if not wordnet.available():
        pytest.skip("WordNet not installed")
    wn = wordnet._reader()
    assert wn is not None
    lemmas: set[str] = set()
    for spec in load_specs():
        if spec.subject_lexfile is not None:
            continue  # a copula spec (text_is_in_language): its subject, not its verb, names the text
        for pat in spec.patterns:
            for node in pat:
                attrs = node.get("RIGHT_ATTRS", node)
                lemma = attrs.get("LEMMA")
                if isinstance(lemma, dict):
                    lemmas |= set(lemma["IN"])
                elif isinstance(lemma, str):
                    lemmas.add(lemma)
    assert lemmas
    for lemma in lemmas:
        lexnames = {s.lexname() for s in wn.synsets(lemma, pos="v")}
        assert lexnames & {"verb.communication", "verb.creation"}, lemma
