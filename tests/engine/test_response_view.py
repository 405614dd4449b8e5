"""The model-free response view: word stems, capitalised names, the gazetteer, and their use in checks."""

from __future__ import annotations

import pytest
from helpers import judge, status_of
from hypothesis import given, settings
from hypothesis import strategies as st

from faithguard.engine.names import find_names
from faithguard.engine.places import contains, is_place
from faithguard.engine.response import view_of
from faithguard.engine.wordforms import stem
from faithguard.lexical.wordnet import exception_forms

#: Irregular forms come from WordNet's exception lists (Debian wordnet-base).
needs_exceptions = pytest.mark.skipif(not exception_forms(), reason="Debian wordnet-base not installed")


def test_stem_is_symmetric_over_regular_inflections() -> None:
    for a, b in [
        ("circumnavigated", "circumnavigate"),
        ("stories", "story"),
        ("used", "use"),
        ("churches", "church"),
        ("stopped", "stops"),
    ]:
        assert stem(a) == stem(b), (a, b)
    assert stem("sing") != stem("s")
    assert stem("Python") == "python"


@needs_exceptions
def test_stem_is_symmetric_over_irregular_inflections() -> None:
    for a, b in [("ran", "running"), ("wrote", "written"), ("children", "child"), ("making", "made")]:
        assert stem(a) == stem(b), (a, b)


@needs_exceptions
def test_has_term_uses_stems_and_irregular_forms() -> None:
    view = view_of("She wrote three novels and the children were sailing home.")
    assert view.has_term("write") and view.has_term("novel") and view.has_term("child") and view.has_term("sail")
    assert not view.has_term("painter")


def test_names_from_capitalisation() -> None:
    names = dict(find_names("Juan Sebastián Elcano and Francis Drake sailed from Spain. Then they met the Dutch."))
    assert names == {"Juan Sebastián Elcano": "PERSON", "Francis Drake": "PERSON", "Spain": "GPE", "Dutch": "NORP"}
    # sentence openers and common words at the start of a sentence are not names
    assert find_names("Exercise is good. It helps. Many people run. Doctors agree.") == ()
    # a list item that is a single capitalised word is a name
    assert [n for n, _ in find_names("1. Raphael\n2. Titian (Venice)\n3. Botticelli")] == [
        "Raphael",
        "Titian",
        "Venice",
        "Botticelli",
    ]
    # connectors, initials and abbreviations stay inside the name; suffixes make places
    found = dict(find_names("We read J. R. R. Tolkien and The Lord of the Rings near Mount Everest and Lake Como."))
    assert found["J. R. R. Tolkien"] == "PERSON" and "The Lord of the Rings" in found
    assert found["Mount Everest"] == "LOC" and found["Lake Como"] == "LOC"
    assert find_names("THIS WHOLE ANSWER IS SHOUTED AT NASA.") == ()


def test_gazetteer_containment() -> None:
    assert contains("japan", "tokyo") and contains("europe", "france") and contains("uk", "glasgow")
    assert contains("asia", "paris") is False  # GeoNames knows both continents
    assert contains("atlantis", "paris") is None  # not a place: cannot decide
    assert is_place("argentina") and not is_place("amazon")


def test_location_satisfied_by_a_city_inside_the_place() -> None:
    q = "What are the main causes of inflation in Japan?"
    ctx, _ = judge(q, "Prices in Tokyo and Osaka rose because energy imports became expensive.")
    assert status_of(ctx, "in Japan") == "satisfied"
    ctx, _ = judge(q, "Prices in Paris rose because energy imports became expensive.")
    assert status_of(ctx, "in Japan") == "violated"


def test_location_unknown_when_containment_is_unknown() -> None:
    # WordNet puts Munich in Bavaria; its part-of chains do not put Seville in Andalusia (unknown, not violated)
    ctx, _ = judge("Recommend three museums in Bavaria.", "The Deutsches Museum in Munich suits science lovers.")
    assert status_of(ctx, "in Bavaria") == "satisfied"
    ctx, _ = judge("Recommend three museums in Andalusia.", "The Museo de Bellas Artes in Seville is a great pick.")
    assert status_of(ctx, "in Andalusia") == "unknown"


@settings(max_examples=80, deadline=None)
@given(st.text(max_size=300))
def test_names_and_stems_never_crash(text: str) -> None:
    for name, label in find_names(text):
        assert name and label in {"PERSON", "GPE", "LOC", "NORP", "DATE"}
    for word in text.split():
        assert isinstance(stem(word), str)
