"""The detected-constraint value type and shared detection helpers (numbers, relations, quotes)."""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from faithguard.models import Category
from faithguard.verifiers.text import NUMBER_RE, parse_number

__all__ = [
    "REL",
    "N",
    "VerifiableSpec",
    "leading_quote",
    "make_spec",
    "quoted_items",
    "relation_of",
    "sentence_at",
    "sentence_span",
    "split_list",
]


@dataclass(frozen=True)
class VerifiableSpec:
    """A verifiable constraint found in a query: verifier id, IFEval-style params, source phrase."""

    verifier: str
    params: dict[str, Any] = field(default_factory=dict, hash=False, compare=True)
    text: str = ""
    category: Category = Category.OTHER
    negated: bool = False


#: Verifiers whose constraint is a count of something (Category.QUANTITY).
QUANTITY_VERIFIERS = frozenset(
    {
        "keywords:frequency",
        "keywords:letter_frequency",
        "length_constraints:number_sentences",
        "length_constraints:number_paragraphs",
        "length_constraints:number_words",
        "detectable_content:number_placeholders",
        "detectable_format:number_bullet_lists",
        "detectable_format:number_highlighted_sections",
        "detectable_format:multiple_sections",
        "change_case:capital_word_frequency",
        "creative:lines",
        "creative:verse_form",
        "creative:stanzas",
        "creative:paragraphs",
        "creative:words_per_line",
        "creative:lines_per_stanza",
        "count:word_count_range",
        "count:unique_word_count",
        "count:numbers",
        "count:pronouns",
        "count:conjunctions",
        "count:person_names",
    }
)

N = rf"(?P<n>{NUMBER_RE})"
#: Relation words that may precede a number.
REL = (
    r"(?P<rel>at\s+least|no\s+less\s+than|not\s+less\s+than|no\s+fewer\s+than|"
    # a lower bound said by negating the upper one: "must not be shorter than 80", "nothing shorter than 300"
    r"(?:not|(?:must|should|can|may)n't|nothing)\s+(?:be\s+)?(?:shorter|less|fewer)\s+than|no\s+shorter\s+than|a\s+minimum\s+of|minimum\s+of|"
    r"at\s+minimum|more\s+than|over|greater\s+than|upwards\s+of|less\s+than|fewer\s+than|under|below|"
    r"shorter\s+than|at\s+most|no\s+more\s+than|not\s+more\s+than|a\s+maximum\s+of|maximum\s+of|max(?:imum)?|"
    # an upper bound said by negating the verb of exceeding or the comparative, with "not", a negated modal or
    # "nothing", as the lower bounds above are: "shouldn't exceed 150 words", "nothing longer than 60 words"
    r"up\s+to|(?:not|(?:does|do|must|should|will|can|may)n't)\s+exceed(?:ing)?|"
    r"(?:not|(?:does|do|must|should|will|can)n't)\s+go\s+(?:beyond|over|past)|no\s+longer\s+than|"
    r"(?:not|(?:must|should|can|may)n't|nothing)\s+(?:be\s+)?(?:longer|more)\s+than|exactly|precisely|just|"
    r"only)"
)

_AT_LEAST = {
    "at least",
    "no less than",
    "not less than",
    "no fewer than",
    "a minimum of",
    "minimum of",
    "at minimum",
    "not shorter than",
    "not fewer than",
    "nothing shorter than",
    "nothing less than",
    "nothing fewer than",
    "no shorter than",
}
_MORE = {"more than", "over", "greater than", "upwards of"}
_LESS = {"less than", "fewer than", "under", "below", "shorter than"}
_AT_MOST = {
    "at most",
    "no more than",
    "not more than",
    "a maximum of",
    "maximum of",
    "max",
    "maximum",
    "up to",
    "not exceed",
    "not exceeding",
    # the phrasal verbs of exceeding, negated: "must not go beyond five sentences"
    "not go beyond",
    "not go over",
    "not go past",
    "no longer than",
    "not longer than",
    "nothing longer than",
    "nothing more than",
}


_POST_MAX = re.compile(r"max(?:imum)?\.?|tops|at\s+(?:the\s+)?most")
_POST_MIN = re.compile(r"min(?:imum)?\.?")


def relation_of(rel: str | None, n: int, post: str | None = None) -> tuple[str, int] | None:
    """Map a relation phrase and number to ('at least'|'less than'|'exactly', n) IFEval style."""
    r = re.sub(r"^\w+n't ", "not ", re.sub(r"\s+", " ", (rel or "").lower()).strip())  # "doesn't go beyond"
    r = r.replace("not be ", "not ")  # "must not be longer than", "mustn't be shorter than"
    p = (post or "").lower().strip()
    if p in {"more", "+", "or more", "plus"}:
        return ("at least", n)
    if p in {"less", "fewer", "or less", "or fewer"} or _POST_MAX.fullmatch(p):
        return ("less than", n + 1)
    if _POST_MIN.fullmatch(p):
        return ("at least", n)
    if r in _AT_LEAST:
        return ("at least", n)
    if r in _MORE:
        return ("at least", n + 1)
    if r in _LESS:
        return ("less than", n)
    if r in _AT_MOST:
        return ("less than", n + 1)
    if r in {"exactly", "precisely", "just", "only"}:
        return ("exactly", n)
    return None


def number(text: str | None) -> int | None:
    """Parse a matched number group."""
    return parse_number(text) if text else None


_SENT_END = re.compile(r"(?<=[.!?])\s+|\n+")


@lru_cache(maxsize=8)
def _sentence_breaks(text: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(starts, ends) of the sentence breaks of ``text``, in order: read once per text (the detectors ask for many
    sentences of the same request; scanning from the start each time made n asks cost n^2)."""
    found = [(m.start(), m.end()) for m in _SENT_END.finditer(text)]
    return tuple(a for a, _ in found), tuple(b for _, b in found)


def sentence_span(text: str, start: int, end: int | None = None) -> tuple[int, int]:
    """Character span of the sentence of ``text`` around [start, end), whitespace trimmed."""
    end = start if end is None else end
    starts, ends = _sentence_breaks(text)
    i = bisect.bisect_right(ends, start)  # breaks ending at or before ``start`` lie left of the sentence
    left = ends[i - 1] if i else 0
    j = bisect.bisect_left(starts, end, lo=i)  # the first break starting at or after ``end`` closes it
    right = starts[j] if j < len(starts) else len(text)
    while left < right and text[left].isspace():
        left += 1
    while right > left and text[right - 1].isspace():
        right -= 1
    return left, right


def sentence_at(text: str, start: int, end: int | None = None) -> str:
    """The sentence of ``text`` around character span [start, end), stripped."""
    s, e = sentence_span(text, start, end)
    return text[s:e]


#: A quoted phrase. In single quotes, an apostrophe between two letters belongs to the phrase ('Don't miss it!').
_QUOTED = re.compile(
    r"\"([^\"\n]{1,200})\"|“([^”\n]{1,200})”|(?<!\w)'((?:[^'\n]|(?<=\w)'(?=\w)){1,60})'(?!\w)|‘([^’\n]{1,60})’"
)


def quoted_items(text: str) -> list[str]:
    """Strings in double, curly or single quotes, in order."""
    return [next(g for g in m.groups() if g is not None) for m in _QUOTED.finditer(text)]


def leading_quote(text: str) -> str | None:
    """The phrase quoted at the start of ``text`` (after white space), or None."""
    m = _QUOTED.match(text, len(text) - len(text.lstrip()))
    return next(g for g in m.groups() if g is not None) if m else None


def split_list(text: str) -> list[str]:
    """Split 'a, b, and c' / 'a or b' / "['a', 'b']" into items."""
    cleaned = re.sub(r"[\[\]\"'“”‘’]", "", text)
    parts = re.split(r"\s*,\s*(?:and\s+|or\s+)?|\s+and\s+|\s+or\s+|\s*/\s*", cleaned)
    out = []
    for p in parts:
        p = p.strip().strip(".:;!?").strip()
        if p and p.lower() not in {"etc", "and", "or"}:
            out.append(p)
    return out


def make_spec(verifier: str, params: dict[str, Any], text: str, *, negated: bool = False) -> VerifiableSpec:
    """Build a spec with the category implied by the verifier id."""
    counted = verifier in QUANTITY_VERIFIERS or params.get("relation") == "count"
    category = Category.QUANTITY if counted else Category.OTHER
    return VerifiableSpec(verifier=verifier, params=params, text=text, category=category, negated=negated)
