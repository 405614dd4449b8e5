"""Rule-based entity labels for a parsed request: DATE/TIME by pattern, GPE/LOC/NORP by gazetteer and case.

Replaces spaCy's statistical NER for the query (about half of the parse time). Only the labels the
role rules read are produced: DATE, TIME, GPE, LOC, FAC and NORP.
"""

from __future__ import annotations

import re
from typing import Any

from faithguard.engine.lexicon import words
from faithguard.engine.names import find_name_spans

__all__ = ["date_time_spans", "set_rule_entities"]

_ORD = (
    r"(?:\d{1,2}(?:st|nd|rd|th)|first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth|"
    r"thirteenth|fourteenth|fifteenth|sixteenth|seventeenth|eighteenth|nineteenth|twentieth|twenty-first)"
)
_YEAR = r"(?:1[0-9]{3}|20[0-9]{2})"
_COUNT = r"(?:\d+|a|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|fifty|few)"
_PERIOD = r"(?:years?|decades?|centur(?:y|ies)|months?|weeks?|days?|millennia|millennium)"
_MONTHS = (
    r"(?:January|February|March|April|May|June|July|August|September|October|November|December|"
    r"Jan\.?|Feb\.?|Mar\.?|Apr\.?|Jun\.?|Jul\.?|Aug\.?|Sept?\.?|Oct\.?|Nov\.?|Dec\.?)"
)
_UNIT_AFTER = (
    r"(?!\s*(?:%|percent|\+|words?|characters?|sentences?|letters?|lines?|pages?|tokens?|times?|people|dollars|"
    r"euros|pounds|items?|paragraphs?|points?|km|miles|meters|metres|kg|calories)\b)"
)
_DATE_PATTERNS: tuple[re.Pattern[str], ...] = tuple(
    re.compile(p, re.IGNORECASE)
    for p in (
        rf"\b(?:between|from)\s+{_YEAR}s?\s+(?:and|to|until|till|-)\s+{_YEAR}s?\b",
        rf"\b(?:the\s+)?(?:early\s+|late\s+|mid-?\s*)?{_ORD}(?:\s+and\s+{_ORD})?\s+centur(?:y|ies)\b",
        r"\b(?:the\s+)?(?:early\s+|late\s+|mid-?\s*)?(?:1[0-9]|20)[0-9]0s\b",
        r"\b(?:the\s+)?(?:nineteen|eighteen|seventeen)-?(?:tens|twenties|thirties|forties|fifties|sixties|seventies|"
        r"eighties|nineties)\b",
        rf"\b(?:the\s+)?(?:last|next|past|previous|coming|current|recent|following)\s+(?:{_COUNT}\s+)?{_PERIOD}\b",
        r"\b(?:this|that)\s+(?:year|decade|century|month|week)\b",
        r"\b(?:today|yesterday|tomorrow|nowadays|currently)\b",
        rf"\b{_COUNT}\s+{_PERIOD}\s+(?:ago|from\s+now|later|earlier)\b",
        rf"\b(?:year\s+)?(?<![\d$£€.,]){_YEAR}(?![\d])(?![.,]\d){_UNIT_AFTER}",
        rf"\b{_COUNT}[-\s](?:years?|months?|weeks?|days?)(?:[-\s]old)?\b",
        r"(?-i:\b(?:Winter|Summer|Spring|Autumn)\b)|\b(?:in|during|this|last|next)\s+(?:the\s+)?(?:winter|summer|spring|"
        r"autumn|fall)\b",
    )
)
_MONTH_DATE = re.compile(
    rf"\b{_MONTHS}(?:\s+\d{{1,2}}(?:st|nd|rd|th)?)?(?:,?\s+{_YEAR})?\b|\b\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?"
    rf"{_MONTHS}(?:,?\s+{_YEAR})?\b"
)
_WEEKDAY = re.compile(r"\b(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)s?\b")
_TIME_PATTERNS: tuple[re.Pattern[str], ...] = (
    re.compile(r"\b\d{1,2}(?::\d{2})?\s*(?:a\.?m\.?|p\.?m\.?)(?!\w)", re.IGNORECASE),
    re.compile(r"\b\d{1,2}:\d{2}\b"),
    re.compile(r"\b(?:\d+|a|an|one|two|three|five|ten|fifteen|thirty)\s+(?:minutes?|seconds?|hours?)\b", re.I),
)
_FAC_SUFFIX = words(
    "bridge palace tower square park museum cathedral castle street avenue airport station temple abbey wall canyon "
    "forest reef glacier volcano harbor harbour stadium"
)


def date_time_spans(text: str) -> list[tuple[int, int, str]]:
    """(start, end, 'DATE'|'TIME') for dates, periods, years and clock times written in ``text``."""
    out: list[tuple[int, int, str]] = []
    for pat in _DATE_PATTERNS:
        out += [(m.start(), m.end(), "DATE") for m in pat.finditer(text)]
    for m in _MONTH_DATE.finditer(text):
        word = m.group(0)
        if word.startswith("May") and not re.search(r"\d", word):
            before = text[max(0, m.start() - 12) : m.start()].lower()
            if not re.search(r"\b(?:in|of|since|until|during|by|early|late|mid)\s*$", before):
                continue  # the modal verb, not the month
        out.append((m.start(), m.end(), "DATE"))
    out += [(m.start(), m.end(), "DATE") for m in _WEEKDAY.finditer(text)]
    for pat in _TIME_PATTERNS:
        out += [(m.start(), m.end(), "TIME") for m in pat.finditer(text)]
    return out


def _place_label(name: str, label: str) -> str | None:
    words = name.lower().split()
    if label in ("GPE", "LOC", "NORP"):
        return label
    if len(words) > 1 and words[-1] in _FAC_SUFFIX:
        return "FAC"
    return None


#: ``Doc.user_data`` key marking a Doc whose entities these rules have set (nothing else sets a shared Doc's
#: entities, and the rules read only its text and WordNet, so once WordNet is loaded a second call would set
#: the same ones).
_SET = "faithguard.rule_entities"


def set_rule_entities(doc: Any) -> Any:
    """Set ``doc.ents`` from the rules above (longest span wins on overlap) and return the doc.

    The shared query parse is read by several checks of every call: the entities are set once per Doc.
    """
    from spacy.util import filter_spans

    if doc.user_data.get(_SET):
        return doc
    text = doc.text
    found = date_time_spans(text)
    for a, b, label in find_name_spans(text):
        kept = _place_label(text[a:b], label)
        if kept is not None:
            found.append((a, b, kept))
    spans = []
    for a, b, label in found:
        span = doc.char_span(a, b, label=label, alignment_mode="expand")
        if span is not None and len(span) > 0:
            spans.append(span)
    doc.ents = filter_spans(spans)
    from faithguard.lexical import wordnet

    if wordnet.settled():  # while WordNet loads, place names read differently: set them again next time
        doc.user_data[_SET] = True
    return doc
