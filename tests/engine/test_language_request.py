"""Every spec of ``engine/data/language_request.json`` against its own fixtures, and the derived name table."""

from __future__ import annotations

import json
from importlib import resources

import pytest

from faithguard.engine import wordnet
from faithguard.engine.language_request import (
    derive_language_names,
    language_code,
    load_specs,
    requested_languages,
)
from faithguard.nlp import parse

ROWS = [(spec.name, "positive", text, code) for spec in load_specs() for text, code in spec.positive] + [
    (spec.name, "negative", text, "") for spec in load_specs() for text in spec.negative
]


def test_every_spec_has_both_polarities_and_a_reason() -> None:
    for spec in load_specs():
        assert spec.why and spec.positive and spec.negative, spec.name


@pytest.mark.parametrize(
    ("name", "polarity", "text", "code"), ROWS, ids=[f"{r[0]}-{r[1]}-{i}" for i, r in enumerate(ROWS)]
)
def test_language_fixture(name: str, polarity: str, text: str, code: str) -> None:
    doc = parse(text)
    asks = [a for a in requested_languages(doc) if a.spec == name]
    detail = (name, text, [(t.text, t.pos_, t.dep_, t.head.i) for t in doc])
    if polarity == "positive":
        assert any(a.code == code for a in asks), detail
    else:
        assert not asks, detail


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
