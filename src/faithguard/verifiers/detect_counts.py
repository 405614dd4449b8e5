"""Find count expressions ('at least 300 words', '17 or more sentences', '40 to 60') in a query."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache

from faithguard.lexical import wordnet_verbs
from faithguard.verifiers.refusal import refused
from faithguard.verifiers.spec import REL, number, relation_of
from faithguard.verifiers.spec import N as _SPEC_N
from faithguard.verifiers.text import _TENS, _UNITS, NUMBER_RE

__all__ = ["CountMatch", "N", "count_unit", "find_counts", "find_times", "precompile"]


@dataclass(frozen=True)
class CountMatch:
    """One count found: relation ('at least' | 'less than' | 'exactly'), number, span."""

    relation: str
    n: int
    start: int
    end: int


_FILL = r"(?:[A-Za-z][\w'-]*\s+){0,3}?"
_NUM = NUMBER_RE


#: Cheap guard before the number alternation: a digit or the first two letters of a number word.
_NUM_START = "(?=\\d|(?i:" + "|".join(sorted({w[:2] for w in (*_UNITS, *_TENS)})) + "))"


#: ``spec.N`` behind the same guard (identical matches, far fewer attempts).
N = _NUM_START + _SPEC_N


def _num(name: str) -> str:
    return rf"{_NUM_START}(?P<{name}>{_NUM})"


#: Bounds that may follow the counted unit (fixtures: tests/verifiers/test_count_paraphrases.py).
_AFTER_BOUND = r"max(?:imum)?\.?|tops|at\s+(?:the\s+)?most|min(?:imum)?\.?"

_Patterns = tuple[re.Pattern[str], re.Pattern[str], tuple[re.Pattern[str], ...], tuple[re.Pattern[str], ...]]


#: The unit regexes the built-in detectors count, declared with :func:`count_unit` (compiled by :func:`precompile`).
_DECLARED: list[str] = []


def count_unit(unit: str) -> str:
    """Declare a unit regex a detector counts (``r"words?"``), so warm-up compiles its patterns; returns it."""
    _DECLARED.append(unit)
    return unit


def precompile() -> None:
    """Compile the count patterns of every declared unit now (~5-40 ms a unit), outside any check's budget."""
    for unit in _DECLARED:
        _patterns(unit)


@lru_cache(maxsize=256)
def _patterns(unit: str) -> _Patterns:
    """(unit prefilter, 'number of X is N', range patterns, relation patterns), compiled once per unit."""
    u = rf"(?:{unit})\b"
    # a bound after the unit: "4 sentences max", "200 words tops", "3 bullets minimum" (not "at least one of ...")
    after = rf"(?:{_AFTER_BOUND})(?![\w-])(?!\s+{_NUM_START}(?:{_NUM})\b)"
    post = rf"(?P<post>or\s+more|or\s+less|or\s+fewer|\+|plus|{after})"
    stated = rf"(?i)\bnumber\s+of\s+{u}[^.?!]{{0,60}}?\b(?:be|is|of)\s+(?:{REL}\s+)?{_num('n')}(?:\s+{post})?"
    ranges = (
        rf"(?i)\b(?:between\s+)?{_num('lo')}\s*(?:to|-|–|and)\s*{_num('hi')}\s+{_FILL}{u}",
        rf"(?i)\b{u}[^.?!]{{0,80}}?\b(?:range\s+of|between|from)\s+{_num('lo')}\s*(?:to|-|–|and)\s*{_num('hi')}",
    )
    relations = (
        rf"(?i)\b{REL}\s+(?:of\s+)?(?:the\s+)?{_num('n')}\s*\+?\s*-?\s*{_FILL}{u}",
        rf"(?i)\b{_num('n')}\s+{post}\s+{_FILL}{u}",
        rf"(?i)\b{_num('n')}\s*-?\s*{_FILL}{u}\s+{post}",
        rf"(?i)\b{_num('n')}\s*(?P<post2>\+)\s*-?\s*{u}",
        rf"(?i)\b(?:a|an|the)\s+{_num('n')}\s*-\s*{u}",
        # the count said after the unit, as a fragment of its own: "as bullets, half a dozen", "Bullet points
        # please. Exactly nine of them." (nothing but "of them" may follow the count in its clause)
        # (a dash may set it off, and a bound or "exactly" may follow it: "Sentences - four at most", "five exactly")
        rf"(?i)\b{u}(?:\s+please)?\s*(?:[,.;:]|\s[-–—]+)\s*(?:please\s*[,.]?\s*)?(?:{REL}\s+)?{_num('n')}"
        rf"(?:\s+of\s+them|\s+(?P<post>{_AFTER_BOUND}|exactly))?(?=\s*(?:[,.;!?)]|$))",
        # the unit said after the count, as a clarifying fragment: "Eight is the max. Sentences, I mean.", "Aim for
        # at least 90. Words, that is.", "No more than 100 - words, not characters."
        rf"(?i)(?:\b{REL}\s+)?{_num('n')}(?:\s+(?:is|'s)\s+(?:the\s+|my\s+)?(?P<post>{_AFTER_BOUND}))?"
        rf"\s*(?:[.!]\s+|\s[-–—]+\s*){u}\s*[,.]",
        # an adjective of falling short before the count: "keep it shy of five sentences", "just short of 80 words"
        # (read through WordNet: lexical.wordnet_verbs.falls_short)
        rf"(?i)\b(?P<lack>[a-z]+)\s+of\s+{_num('n')}\s+{_FILL}{u}",
    )
    return (
        re.compile(rf"(?i){u}"),
        re.compile(stated),
        tuple(re.compile(p) for p in ranges),
        tuple(re.compile(p) for p in relations),
    )


#: Indexes of the relation patterns that read a count said apart from its unit (see :func:`_patterns`).
_ELLIPTICAL = frozenset({5, 6})
#: Index of the relation pattern that reads an adjective of falling short ("shy of five sentences").
_SHORT_OF = 7

#: Every count match contains the unit word and reaches less than this far from it.
_REACH = 240
_SPACE = re.compile(r"\s")


def _windows(text: str, unit_re: re.Pattern[str]) -> list[tuple[int, int]]:
    """Merged spans of text within ``_REACH`` of a unit occurrence, ending on whitespace (so no false \\b)."""
    out: list[tuple[int, int]] = []
    for m in unit_re.finditer(text):
        start = max(0, m.start() - _REACH)
        end = min(len(text), m.end() + _REACH)
        if end < len(text):
            gap = _SPACE.search(text, end)
            end = gap.start() if gap else len(text)
        if out and start <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], end))
        else:
            out.append((start, end))
    return out


def _scan(pattern: re.Pattern[str], text: str, windows: list[tuple[int, int]]) -> list[re.Match[str]]:
    """``pattern.finditer`` restricted to the windows, in text order."""
    return [m for start, end in windows for m in pattern.finditer(text, start, end)]


def find_counts(text: str, unit: str) -> list[CountMatch]:
    """All counts of ``unit`` (a regex such as r'words?') stated in ``text``; ranges give two matches."""
    unit_re, stated, range_patterns, patterns = _patterns(unit)
    windows = _windows(text, unit_re)
    if not windows:
        return []
    found: list[CountMatch] = []
    taken: list[tuple[int, int]] = []

    def add(rel: str, n: int, m: re.Match[str]) -> None:
        found.append(CountMatch(rel, n, m.start(), m.end()))
        taken.append((m.start(), m.end()))

    def free(m: re.Match[str]) -> bool:
        return all(m.end() <= s or m.start() >= e for s, e in taken)

    for m in _scan(stated, text, windows):
        n = number(m.group("n"))
        p = (m.group("post") or "").lower().removeprefix("or ").strip() or None
        rel = relation_of(m.group("rel"), n, p) if n is not None else None
        if rel is not None and free(m):
            add(rel[0], rel[1], m)
    for pat in range_patterns:
        for m in _scan(pat, text, windows):
            lo, hi = number(m.group("lo")), number(m.group("hi"))
            if lo is not None and hi is not None and lo < hi and free(m):
                add("at least", lo, m)
                add("less than", hi + 1, m)
    for i, pat in enumerate(patterns):
        for m in _scan(pat, text, windows):
            if not free(m):
                continue
            n = number(m.group("n"))
            if n is None:
                continue
            groups = m.groupdict()
            rel_word = groups.get("rel")
            post_word = groups.get("post") or groups.get("post2")
            if post_word:
                post_word = re.sub(r"\s+", " ", post_word.lower()).removeprefix("or ")
                post_word = "more" if post_word in {"+", "plus"} else post_word
            if i == _SHORT_OF:
                rel = ("less than", n) if wordnet_verbs.falls_short(m.group("lack")) else None
            else:
                rel = ("at least", n) if i == 4 else relation_of(rel_word, n, post_word)
            if rel is None and i in _ELLIPTICAL and not rel_word and post_word in (None, "exactly"):
                rel = ("exactly", n)  # a bare count said apart from its unit: "as bullets, half a dozen"
            if rel is not None:
                add(rel[0], rel[1], m)
    return _as_asked(text, sorted(found, key=lambda c: c.start))


_OPPOSITE = {"at least": "less than", "less than": "at least"}


def _as_asked(text: str, found: list[CountMatch]) -> list[CountMatch]:
    """Bounds stated of what a verb refuses ("rejects anything shorter than 300 words") turned into the bound asked,
    and those a negated refusal only permits dropped (:mod:`faithguard.verifiers.refusal`); a range's two ends and
    an exact count stay as stated."""
    spans = Counter((c.start, c.end) for c in found)
    out: list[CountMatch] = []
    for c in found:
        reading = refused(text, c.start, c.end) if c.relation in _OPPOSITE and spans[(c.start, c.end)] == 1 else None
        if reading == "flip":
            out.append(CountMatch(_OPPOSITE[c.relation], c.n, c.start, c.end))
        elif reading is None:
            out.append(c)
    return out


_TIMES = (
    rf"(?P<rel>at\s+least|at\s+most|less\s+than|fewer\s+than|more\s+than|no\s+more\s+than|no\s+less\s+than|"
    rf"exactly|over|under|a\s+maximum\s+of|a\s+minimum\s+of|for\s+at\s+least|for\s+more\s+than|up\s+to)?\s*"
    rf"(?:(?P<lo>{_NUM})\s*(?:to|or|-)\s*)?(?P<n>{_NUM})(?:\s*(?P<times>times?))?"
    rf"(?:\s+or\s+(?P<post>more|less|fewer)(?P<times2>\s+times)?)?"
)
_TIMES_RE = re.compile(r"(?i)\b" + _TIMES)


def find_times(text: str) -> list[CountMatch]:
    """Frequencies like 'at least 8 times', 'once or less', '6 or 7 times', 'twice', '10 or more times'."""
    out: list[CountMatch] = []
    for m in _TIMES_RE.finditer(text):
        raw = m.group("n").lower()
        is_adverb = raw in {"once", "twice", "thrice"}
        if not m.group("times") and not m.group("times2") and not is_adverb:
            continue
        n = number(raw)
        if n is None:
            continue
        lo = number(m.group("lo")) if m.group("lo") else None
        if lo is not None and lo < n:
            out.append(CountMatch("at least", lo, m.start(), m.end()))
            out.append(CountMatch("less than", n + 1, m.start(), m.end()))
            continue
        rel_word = (m.group("rel") or "").lower().removeprefix("for ").strip()
        rel = relation_of(rel_word, n, m.group("post"))
        if rel is None:
            rel = ("exactly", n)
        out.append(CountMatch(rel[0], rel[1], m.start(), m.end()))
    return out
