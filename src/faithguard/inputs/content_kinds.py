"""Which nouns name content a request can point at, read from WordNet instead of a hand list.

The classes are a declarative spec (``specs/content_classes.json``): WordNet synsets whose hyponyms are
content (writing, visual communication, records, messages...). A noun is *strong* when its most
frequent sense falls under a strong class ("the chart", "the invoice"), *weak* when one of its first
few senses falls under a weak class ("the customer's complaint", "my function"). Without WordNet
installed every noun is unclassified: the detector falls back to its own small kind table.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Literal

from faithguard.lexical.wordnet_mmap import WordNet, get_wordnet

__all__ = ["ContentClass", "classify_noun", "known_noun", "load_classes", "names_information"]

Strength = Literal["strong", "weak"]


@dataclass(frozen=True)
class ContentClass:
    """How a noun relates to content: its strength and whether such content can be inline text."""

    strength: Strength
    inline: bool
    #: strong only because most of the noun's uses are communication ("the recipe", "the warning"): content that
    #: may be a few words, and a reference only in a sentence of the request itself, not about a topic
    brief: bool = False


@dataclass(frozen=True)
class _Spec:
    offset: int
    strength: Strength
    senses: int


@dataclass(frozen=True)
class _Classes:
    specs: tuple[_Spec, ...]
    not_inline: frozenset[int]
    inline_anyway: frozenset[int]
    strong_lexnames: frozenset[str] = frozenset()


def _read_spec() -> dict[str, object]:
    text = resources.files("faithguard.inputs").joinpath("specs/content_classes.json").read_text(encoding="utf-8")
    data: dict[str, object] = json.loads(text)
    return data


def load_classes(wn: WordNet) -> _Classes:
    """Resolve the spec's synsets in ``wn`` (synsets missing from this WordNet are skipped)."""
    data = _read_spec()
    specs: list[_Spec] = []
    raw_classes = data.get("classes")
    for item in raw_classes if isinstance(raw_classes, list) else []:
        lemma, sense = item["synset"]
        for off in wn.find_synsets([(str(lemma), int(sense))]):
            strength: Strength = "strong" if item["strength"] == "strong" else "weak"
            specs.append(_Spec(off, strength, int(item.get("senses", 1))))
    raw_ni = data.get("not_inline")
    pairs = raw_ni.get("synsets", []) if isinstance(raw_ni, dict) else []
    unless = raw_ni.get("unless", []) if isinstance(raw_ni, dict) else []
    not_inline = frozenset(wn.find_synsets((str(p[0]), int(p[1])) for p in pairs))
    inline_anyway = frozenset(wn.find_synsets((str(p[0]), int(p[1])) for p in unless))
    raw_lex = data.get("strong_first_lexnames")
    lex = raw_lex.get("lexnames", []) if isinstance(raw_lex, dict) else []
    return _Classes(tuple(specs), not_inline, inline_anyway, frozenset(str(x) for x in lex))


@lru_cache(maxsize=1)
def _default_classes() -> _Classes:
    return load_classes(get_wordnet())


def classify_noun(word: str, wn: WordNet | None = None, *, as_written: bool = False) -> ContentClass | None:
    """The content class of ``word`` (a noun as written), or None when it does not name content.

    ``as_written``: also read a form with its own WordNet entry by that entry alone ("minutes" as a record, not
    "minute"); the caller passes it when a compound modifier has already picked the sense ("the board minutes").
    """
    if wn is None:
        return _classify_default(word.lower(), as_written)
    return _classify(word.lower(), wn, load_classes(wn), as_written)


@lru_cache(maxsize=8192)
def _classify_default(word: str, as_written: bool = False) -> ContentClass | None:
    wn = get_wordnet()
    if not wn.available:
        return None
    return _classify(word, wn, _default_classes(), as_written)


def _filed_as(wn: WordNet, offset: int, classes: _Classes) -> bool:
    """Whether the sense's lexicographer file allows a strong reading (empty spec: any file)."""
    if not classes.strong_lexnames:
        return True
    syn = wn.synset(offset)
    return syn is not None and syn.lexname in classes.strong_lexnames


def _classify(word: str, wn: WordNet, classes: _Classes, as_written: bool = False) -> ContentClass | None:
    if not word.replace("-", "").replace(" ", "").replace("_", "").isalpha():
        return None
    senses = wn.senses(word)
    if not senses:
        return _classify_compound(word, wn, classes)
    closures = [wn.closure(o) for o in senses[:8]]
    # The most frequent sense of every base form ("numbers" is both the Book of Numbers and "number").
    firsts = [wn.closure(offs[0]) for base in wn.base_forms(word) if (offs := wn.lemma_synsets(base))]
    # A form with its own entry whose first sense is a class, not a named individual, is read as written:
    # "minutes" (a record of a meeting) is not "minute"; "numbers" (the Book of Numbers, an instance) stays ambiguous.
    own = wn.lemma_synsets(word.replace(" ", "_")) if as_written else []
    own_syn = wn.synset(own[0]) if own else None
    own_first = wn.closure(own[0]) if own_syn is not None and not own_syn.instance else None
    best: Strength | None = None
    for spec in classes.specs:
        if spec.strength == "strong":
            by_all = bool(firsts) and all(spec.offset in c for c in firsts) and _filed_as(wn, senses[0], classes)
            by_own = own_first is not None and spec.offset in own_first and _filed_as(wn, own[0], classes)
            hit = by_all or by_own
        else:
            hit = any(spec.offset in c for c in closures[: spec.senses])
        if hit:
            if spec.strength == "strong":
                best = "strong"
                break
            best = best or "weak"
    brief = False
    if best != "strong" and _mostly_communication(word, wn, senses[0]):
        best, brief = "strong", True  # "the press release", "the recipe": used as a communication far more than not
    if best is None:
        return None
    inline = not (classes.not_inline & closures[0]) or bool(classes.inline_anyway & closures[0])
    return ContentClass(best, inline, brief)


#: wordfreq Zipf value a word WordNet 3.0 lacks must reach to be read through its parts: in current use (about once
#: per 100 million words), not an invented or misspelt term. Fixtures: tests/inputs/test_generalize.py
#: (spec unknown_compound).
IN_USE_ZIPF = 2.0
#: Each part of a closed compound ("audio|book", "code|base") must be at least this common (Zipf 3: about once per
#: million words), so a split lands on real words, not fragments ("e|book", "pod|cast" stays unread).
PART_ZIPF = 3.0


#: Inflectional endings of verbs and adverbs (English morphology): such a form is never read as a noun compound.
_INFLECTED = ("ed", "ing", "ly")


def _classify_compound(word: str, wn: WordNet, classes: _Classes) -> ContentClass | None:
    """A modern compound WordNet 3.0 lacks ("cover-letter", "audiobook", "codebase"), read through its parts.

    The head (last part) decides when it is content ("audiobook" is a book); otherwise a content modifier makes the
    compound a weak content noun, counted only with a possessive or demonstrative ("my codebase", "this dataset").
    """
    from faithguard.lexical.frequency import zipf

    if zipf(word) < IN_USE_ZIPF or word.endswith(_INFLECTED):
        return None  # rare, or a verb/adverb form WordNet lacks in this spelling ("labelled": not "label" + "led")
    if "-" in word:
        left, _, right = word.rpartition("-")
        splits = [(left, right)] if left and right else []
    else:
        splits = [
            (word[:i], word[i:])
            for i in range(3, len(word) - 2)
            if zipf(word[:i]) >= PART_ZIPF and zipf(word[i:]) >= PART_ZIPF
        ]
    for left, right in splits:
        if not (wn.senses(right) and wn.senses(left.split("-")[-1])):
            continue
        head = _classify(right, wn, classes)
        if head is not None:
            return head
        mod = _classify(left.split("-")[-1], wn, classes)
        if mod is not None:
            return ContentClass("weak", mod.inline)
    return None


@lru_cache(maxsize=1)
def _share_spec() -> tuple[float, tuple[tuple[str, int], ...]]:
    """The spec's ``communication_share`` threshold and the synsets whose hyponyms it never upgrades."""
    raw = _read_spec().get("communication_share")
    spec = raw if isinstance(raw, dict) else {}
    threshold = float(spec.get("threshold", 1.0))
    pairs = spec.get("not_under", [])
    return threshold, tuple((str(p[0]), int(p[1])) for p in pairs) if isinstance(pairs, list) else ()


def _mostly_communication(word: str, wn: WordNet, first: int) -> bool:
    """Whether the noun's first sense is a communication (not under an excluded class) and most of its uses are."""
    from faithguard.lexical.senses import lexfile_share

    syn = wn.synset(first)
    if syn is None or syn.lexname != "noun.communication" or syn.instance:
        return False
    threshold, not_under = _share_spec()
    excluded = wn.find_synsets(not_under)
    # the first sense of every base form ("words" is also the plural of "word", a unit of language)
    firsts = [first, *(offs[0] for base in wn.base_forms(word) if (offs := wn.lemma_synsets(base)))]
    if any(excluded & wn.closure(o) for o in firsts):
        return False
    return lexfile_share(word) >= threshold


@lru_cache(maxsize=1)
def _lexname_tests() -> dict[str, dict[str, object]]:
    raw = _read_spec().get("lexname_tests")
    return {k: v for k, v in raw.items() if isinstance(v, dict)} if isinstance(raw, dict) else {}


def lexname_test(test: str, word: str, wn: WordNet | None = None) -> bool:
    """Whether ``word`` passes the spec's lexname test ``test`` ("pointer", "part" or "owner").

    The noun passes when one of its first ``senses`` senses sits in one of ``lexnames`` and its first sense
    is under one of the ``under`` synsets (when given) and under none of the ``not_under`` synsets. False when
    WordNet is not installed.
    """
    return _lexname_test(test, word.lower()) if wn is None else _run_lexname_test(test, word.lower(), wn)


@lru_cache(maxsize=8192)
def _lexname_test(test: str, word: str) -> bool:
    return _run_lexname_test(test, word, get_wordnet())


def _run_lexname_test(test: str, word: str, wn: WordNet) -> bool:
    spec = _lexname_tests().get(test)
    if spec is None or not wn.available or not word.replace("-", "").isalpha():
        return False
    senses = wn.senses(word)
    if not senses:
        return False
    raw_names, raw_n = spec.get("lexnames", []), spec.get("senses", 1)
    names = {str(n) for n in raw_names} if isinstance(raw_names, list) else set()
    n = int(raw_n) if isinstance(raw_n, int) else 1
    if not any((syn := wn.synset(o)) is not None and syn.lexname in names for o in senses[:n]):
        return False
    raw_in = spec.get("under", [])
    need = [(str(p[0]), int(p[1])) for p in raw_in] if isinstance(raw_in, list) else []
    raw_k = spec.get("under_senses", 1)
    k = int(raw_k) if isinstance(raw_k, int) else 1  # how many first senses may carry the "under" class
    if need and not any(wn.find_synsets(need) & wn.closure(o) for o in senses[:k]):
        return False
    raw_under = spec.get("not_under", [])
    pairs = [(str(p[0]), int(p[1])) for p in raw_under] if isinstance(raw_under, list) else []
    return not (wn.find_synsets(pairs) & wn.closure(senses[0])) if pairs else True


def names_information(word: str) -> bool:
    """Whether a noun can name material: the kind table, a WordNet content class, the ``handed`` lexname test, or
    a word WordNet does not know ("the slide deck"); not a physical thing ("a cheque") or a placeholder noun whose
    senses are neither ("the thing", "the deal")."""
    from faithguard.inputs.vocab import kind_of

    if kind_of(word) is not None or classify_noun(word) is not None or lexname_test("handed", word):
        return True
    return not known_noun(word)


def known_noun(word: str) -> bool:
    """Whether WordNet has a noun sense of ``word`` (any base form its reader finds)."""
    return bool(get_wordnet().senses(word.lower()))
