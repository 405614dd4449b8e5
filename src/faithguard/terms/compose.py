"""When an unbacked candidate is a description built from backed parts, or a name the request itself gives.

A title list (an index, WordNet) holds names, not descriptions: "a proper road trip", "the given side length",
"a 300-word news article", "Xiaomi in Europe" are absent from every title list, and their absence is no
evidence against anything. Each rule below reads the request's own parse (the shared, cached one) and says
why a candidate is not a name of its own; the detector then leaves it undecided (``known=None``), never
backed. Fixtures: tests/terms/test_compose.py.

1. **Named by the request** - the candidate is the object predicate (spaCy ``oprd``) of a participle that
   modifies an indefinite noun: "a company called 'Drags and Races'", "a destination named Luminara". The user
   introduces the name (it is theirs to define); "the technique called X" presupposes X instead and is
   still checked.
2. **Descriptive modifiers** - dropping leading modifiers that describe rather than name leaves a backed
   phrase: common adjectives ("proper road trip", "small sailboat"), a leading participle ("given side
   length", "requested citation style"), a hyphenated participle ("super-powered character", "well-known
   cliche"; not "velvet-fold", whose last part is a noun), or a measure cut from a number ("300-word news
   article" -> "word news article"). Rare adjectives ("quantoplexic resonance") and nouns ("turbo-jump
   dribble") are name parts and stay.
3. **Backed names joined** - a Title-Cased run joined through a connective whose parts are all backed
   ("Xiaomi in Europe", "Git in Windows", "Lilly and John"): the parts are the names.

An indefinite noun phrase ("write a logic quiz", "construct a SQL query") introduces an instance of a kind
rather than naming a concept (:func:`introduces_instance`): the detector does not let a title list deny it
(it is not name-like), though a coined word inside it is still caught by the lexicon.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

__all__ = [
    "COMMON_ADJ_ZIPF",
    "NON_CONCEPT_ENTITIES",
    "composed_reason",
    "entity_kind",
    "introduces_instance",
    "layout_label",
]

#: An adjective at least this frequent (wordfreq Zipf 3.0, the extractor's line between ordinary vocabulary
#: and term candidates) describes; a rarer one ("quantoplexic", "gastronomic") is part of a name.
COMMON_ADJ_ZIPF = 3.0
_ADJ_TAGS = frozenset({"JJ", "JJR", "JJS"})
_PARTICIPLES = frozenset({"VBN", "VBG"})
#: Connectives a Title-Cased run is joined through (the extractor's joiners, see extract._CONNECTORS).
# look-behind: a match starts at a run's first blank, so a run of blanks is scanned once (issue 16)
_JOINERS = re.compile(r"(?<!\s)\s+(?:and|&|in|of|for|on)\s+", re.IGNORECASE)
_INDEFINITE = frozenset({"a", "an"})
#: English participle endings: a hyphenated modifier ending in one ("fast-paced", "time-consuming") is an
#: adjective phrase even when the tagger calls its last part something else.
_PARTICIPLE_ENDINGS = ("ed", "ing")

Backed = Callable[[str], bool]


def _zipf(word: str) -> float:
    from faithguard.lexical.frequency import zipf

    return zipf(word.lower())


def _span_tokens(doc: Any, start: int, end: int) -> list[Any]:
    """The tokens of ``doc`` wholly inside characters ``[start, end)``: those of the span reaching over them, not a
    walk over every token (a request of a thousand names walked its whole parse for each)."""
    near = doc.char_span(start, end, alignment_mode="expand") if 0 <= start < end else None
    tokens = near if near is not None else doc
    return [t for t in tokens if t.idx >= start and t.idx + len(t.text) <= end]


def _named_by_request(tokens: list[Any]) -> bool:
    """Rule 1: an ``oprd`` of a participle ``acl`` on an indefinite noun ("a company called X")."""
    for tok in tokens:
        if tok.dep_ != "oprd":
            continue
        verb = tok.head
        if verb.tag_ != "VBN" or verb.dep_ != "acl":
            continue
        noun = verb.head
        if any(c.dep_ == "det" and c.lower_ in _INDEFINITE for c in noun.children):
            return True
    return False


def _modifier_units(tokens: list[Any]) -> list[list[Any]]:
    """Tokens grouped into words: a hyphenated compound ("super-powered", "turbo-jump") is one unit."""
    units: list[list[Any]] = []
    for tok in tokens:
        glued = units and (tok.text == "-" or units[-1][-1].text == "-") and not units[-1][-1].whitespace_
        if glued:
            units[-1].append(tok)
        else:
            units.append([tok])
    return units


def _describes(unit: list[Any], first: bool) -> bool:
    """Whether one leading unit describes: a common adjective, or (first only) a participle."""
    words = [t for t in unit if t.text != "-"]
    if not words:
        return False
    last = words[-1]
    if len(unit) > 1:  # hyphenated: "super-powered", "well-known" describe; "turbo-jump", "velvet-fold" name
        participle = last.tag_ in _PARTICIPLES or last.lower_.endswith(_PARTICIPLE_ENDINGS)
        return participle and all(_zipf(w.text) >= COMMON_ADJ_ZIPF for w in words)
    if last.tag_ in _ADJ_TAGS:
        return _zipf(last.text) >= COMMON_ADJ_ZIPF
    return first and last.tag_ in _PARTICIPLES and last.dep_ == "amod" and _zipf(last.text) >= COMMON_ADJ_ZIPF


def _measure_cut(doc: Any, tokens: list[Any]) -> bool:
    """The candidate starts with the noun of a number-hyphen measure ("300-word" -> "word")."""
    first = tokens[0]
    if first.i < 2:
        return False
    hyphen, number = doc[first.i - 1], doc[first.i - 2]
    return hyphen.text == "-" and not hyphen.whitespace_ and number.like_num


def _describes_backed(doc: Any, tokens: list[Any], backed: Backed) -> bool:
    """Rule 2: leading descriptive modifiers over a backed remainder."""
    units = _modifier_units(tokens)
    dropped = 0
    if _measure_cut(doc, tokens):
        dropped = 1
    while dropped < len(units) - 1 and _describes(units[dropped], first=dropped == 0):
        dropped += 1
    if dropped == 0 or dropped >= len(units):
        return False
    rest = units[dropped:]
    text = doc[rest[0][0].i : rest[-1][-1].i + 1].text
    return backed(text)


def _joined_backed(text: str, backed: Backed) -> bool:
    """Rule 3: every part of a connective-joined run is backed."""
    parts = [p.strip() for p in _JOINERS.split(text) if p.strip()]
    return len(parts) >= 2 and all(backed(p) for p in parts)


#: Layout around a line's text: list markers, numbering, heading/emphasis/table marks, Roman numerals.
_LINE_LEAD = re.compile(r"^[\s>#*_|`-]*(?:(?:\d+|[ivxlcIVXLC]+|[A-Za-z])[.)]\s+)?[\s*_`]*")
_LINE_TAIL = re.compile(r"[\s*_`|:.\-]*$")
#: A short label and its colon at the start of a line ("Day 2: "), and a colon after a name (an aside allowed).
_LABEL_VALUE = re.compile(r"^[\s>#*_|`-]*[^:\n]{1,40}:[\s*_`]*")
# look-behind and possessive: a run of marks is read once, from its first mark, not split in two (issue 16)
_LABEL_COLON = re.compile(r"(?<![\s*_`])[\s*_`]*+(?:\([^()\n]{0,30}\))?[\s*_`]*:")
_CELL_OPEN = re.compile(r"\|[\s*_`]*$")
# look-behind: a match starts at a run's first mark, so a run of marks is scanned once (issue 16)
_CELL_CLOSE = re.compile(r"(?<![\s*_`:])[\s*_`:]*\|")


def layout_label(text: str, start: int, end: int) -> bool:
    """Whether the name at ``[start, end)`` of ``text`` is layout, not a claim: a heading or list entry that
    is the whole line ("## Event Details", "1. Planning Stage"), a label before a colon ("Event Date: ...",
    "Class Participation (10%): ..."), the value of a label that ends its line ("Outfit 1: Retro Revival"),
    a whole table cell ("| Start Date |"), a placeholder ("[Event Date]"), a hashtag ("#WomenInSTEM"), or
    capitals ("APPOINTMENT OF EXECUTOR"). An answer that titles its own sections or fills a form does not
    present those words as the name of a real thing."""
    name = text[start:end]
    if start > 0 and text[start - 1] == "#":
        return True
    if start > 0 and end < len(text) and (text[start - 1], text[end]) in (("[", "]"), ("<", ">")):
        return True  # a placeholder to fill in
    letters = [ch for ch in name if ch.isalpha()]
    if len(letters) > 1 and all(ch.isupper() for ch in letters):
        return True
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", end)
    line_end = len(text) if line_end < 0 else line_end
    before = text[line_start:start]
    after = text[end:line_end]
    if _LINE_LEAD.fullmatch(before) is not None and _LINE_TAIL.fullmatch(after) is not None:
        return True  # the whole line
    if _CELL_OPEN.search(before) is not None and _CELL_CLOSE.match(after) is not None:
        return True  # a whole table cell: "| Start Date |"
    if _LABEL_VALUE.fullmatch(before) is not None and _LINE_TAIL.fullmatch(after) is not None:
        return True  # "Outfit Concept 1: Retro Revival" on a line of its own
    return _LINE_LEAD.fullmatch(before) is not None and _LABEL_COLON.match(after) is not None  # "Label: value"


#: spaCy entity labels (OntoNotes) for people, places, products and works. A title list's coverage is measured
#: on concept names; its silence about a person or a product is not evidence (ORG stays: invented "methods"
#: and "technologies" are often tagged ORG by the small model).
NON_CONCEPT_ENTITIES = frozenset({"PERSON", "GPE", "LOC", "FAC", "NORP", "PRODUCT", "WORK_OF_ART", "EVENT", "LAW"})


def entity_kind(doc: Any, start: int, end: int) -> str | None:
    """The label of a named entity in ``doc`` (parsed with NER) that covers most of ``[start, end)``, or None."""
    for ent in doc.ents:
        overlap = min(end, ent.end_char) - max(start, ent.start_char)
        if overlap > 0 and overlap * 2 >= end - start:
            return str(ent.label_)
    return None


def introduces_instance(doc: Any, start: int, end: int) -> bool:
    """Whether the noun phrase at ``[start, end)`` is indefinite ("write a logic quiz", "a SQL query"): it
    introduces one instance of a kind (often a thing to be made), rather than naming a concept, so a title
    list's silence about it is no evidence. The phrase's head is its last token; its determiner is "a"/"an"."""
    tokens = _span_tokens(doc, start, end)
    if not tokens:
        return False
    head = tokens[-1]
    return any(c.dep_ == "det" and c.lower_ in _INDEFINITE for c in head.children)


def composed_reason(doc: Any, start: int, end: int, text: str, backed: Backed) -> str | None:
    """Why the candidate at ``[start, end)`` of the parsed request is not a name of its own, or None.

    ``backed(phrase)`` asks the call's sources whether a phrase is backed (True only when some source backs it).
    """
    tokens = _span_tokens(doc, start, end)
    if not tokens:
        return None
    if _named_by_request(tokens):
        return "named_by_request"
    if _joined_backed(text, backed):
        return "backed_parts"
    if _describes_backed(doc, tokens, backed):
        return "describes_backed"
    return None
