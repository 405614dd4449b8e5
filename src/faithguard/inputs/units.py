"""Free prose units of a scanned text: what it supplies outside typed blocks, one unit per pasted text.

A colon tail, a list's items, an inline enumeration, a paragraph of content sentences, a letter: each counts as
supplied material for the references the request makes (inputs/missing.py). Which sentences are the request's own
words is read from their opening words in the first paragraph and by syntax in later ones (inputs/orders.py).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence

from faithguard.inputs.orders import asks_for_text, is_instruction, orders_reader, parsed_for_orders, word_count
from faithguard.inputs.supply import FULL_WORDS, PARA_RE, Block, Scan, overlaps, sentence_spans

__all__ = ["free_units"]

#: Words of the request addressing its reader; a sentence right after a colon that has none is material.
_META_RE = re.compile(r"\b(?:you|your|please|thanks|thank)\b", re.I)


#: A paragraph that opens by greeting a named person is a letter or an email ("Hi Sam,", "Dear Ms Patel,"), and so is
#: one greeting a template's addressee field ("Dear [Hiring Manager],", "Hi {first_name},").
#: Fixtures: tests/inputs/test_supplied_material.py.
_SALUTATION_RE = re.compile(
    r"^\s*(?i:hi|hello|hey|dear|good\s+(?:morning|afternoon|evening))\s+"
    r"(?:[A-Z][\w.'’-]*(?:\s+[A-Z][\w'’-]*)?|\[[^\[\]\n]{1,40}\]|\{\{?[^{}\n]{1,40}\}\}?)\s*[,!:]"
)
#: A greeting and an addressee of any case ("Hi all,", "Dear team,"): after a forward pointer, a letter's opening.
#: Fixtures: tests/inputs/test_apposition.py (round 7).
_GREETED_RE = re.compile(r"^\s*(?i:hi|hello|hey|dear|good\s+(?:morning|afternoon|evening))(?:\s+[\w'’-]+){1,2}\s*[,!:]")
#: An enumerated or bulleted line: "1. ...", "b) ...", "- ...".
_ITEM_RE = re.compile(r"(?m)^[ \t]*(?:\d{1,2}[.)]|[A-Ha-h][.)]|[-*•])[ \t]+(?P<body>\S[^\n]*)")


def _list_items(para: str, start: int, exclude: Sequence[tuple[int, int]]) -> list[Block]:
    """The items of an enumerated list in ``para`` that read as content, not as instructions."""
    found = [m for m in _ITEM_RE.finditer(para) if not overlaps(exclude, start + m.start(), start + m.end())]
    # One list holds one kind of line: when most lines read as content, a line that merely opens like an
    # instruction ("Your neighbourhood oven" among slogans) is an item too.
    content = [m for m in found if not is_instruction(m.group("body"))]
    keep = found if 2 * len(content) > len(found) else content
    return [Block("item", None, start + m.start(), start + m.end(), word_count(m.group("body"))) for m in keep]


#: An inline enumeration marker, "(1) ", "(b) " or "2) ", opening a sentence or following a space.
_ENUM_RE = re.compile(r"(?:^|(?<=\s))\(?(?P<label>\d{1,2}|[a-hA-H])\)[ \t]+")


def _inline_enumeration(para: str, start: int, exclude: Sequence[tuple[int, int]]) -> list[Block]:
    """The items of an enumeration run inside a paragraph: "Do they agree? (1) 'Rain is wet.' (2) 'Rain is dry.'".

    The markers outside the request's sentences must count up from 1 (or a) without a gap; each item runs to the
    next marker. Fixtures: tests/inputs/test_enumeration.py.
    """
    marks = [m for m in _ENUM_RE.finditer(para) if not overlaps(exclude, start + m.start(), start + m.end())]
    labels = [m.group("label").lower() for m in marks]
    first = labels[0] if labels else ""
    expect = (
        [str(i) for i in range(1, len(labels) + 1)] if first.isdigit() else [chr(97 + i) for i in range(len(labels))]
    )
    if len(marks) < 2 or labels != expect:
        return []
    ends = [m.start() for m in marks[1:]] + [len(para)]
    return [
        Block("item", None, start + m.start(), start + end, word_count(para[m.end() : end]))
        for m, end in zip(marks, ends, strict=True)
        if word_count(para[m.end() : end])
    ]


#: Separators of an inline list after a colon ("tides, erosion and dunes"); each item is at most this many words.
# look-behind: a match starts at a run's first blank, so a run of blanks is scanned once (issue 16)
_INLINE_SEP_RE = re.compile(r"(?:(?<!\s)\s+)?(?:,|;)\s*(?:and\s+|or\s+)?|(?<!\s)\s+(?:and|or)\s+")
_INLINE_ITEM_WORDS = 6


def _inline_items(tail: str) -> list[int]:
    """Word counts of the items of a one-line inline list after a colon, or [] when the tail is not such a list.

    Every item must be short (at most ``_INLINE_ITEM_WORDS`` words): a sentence with commas is one text.
    Fixtures: tests/inputs/test_generalize.py (spec inline_list_after_colon).
    """
    first = sentence_spans(tail.strip())
    body = tail.strip()[first[0][0] : first[0][1]].strip().rstrip(".") if first else ""
    if not body or "\n" in body:
        return []
    parts = [p for p in _INLINE_SEP_RE.split(body) if p.strip()]
    counts = [word_count(p) for p in parts]
    if sum(counts) >= FULL_WORDS:
        return []  # a long line of items ("X eatType restaurant; X food Indian; ...") is one text, a full document
    return counts if len(counts) >= 2 and all(0 < c <= _INLINE_ITEM_WORDS for c in counts) else []


def _paragraphs(
    masked: str, bounds: list[int], exclude: Sequence[tuple[int, int]]
) -> list[tuple[int, str, bool, list[Block]]]:
    """``(start, text, later, items)`` of each paragraph of ``masked`` that holds something; ``later``: not the
    first; ``items``: its enumerated units (a list or an inline enumeration), read for a paragraph with no colon."""
    out: list[tuple[int, str, bool, list[Block]]] = []
    for start, nxt in itertools.pairwise(bounds):
        para = masked[start:nxt]
        if para.strip():
            items: list[Block] = []
            if ":" not in para:
                items = _list_items(para, start, exclude) or _inline_enumeration(para, start, exclude)
            out.append((start, para, bool(out), items))
    return out


#: Sentences parsed ahead in one batch: well under the shared parse cache (``nlp.PARSE_CACHE_SIZE``, 2,048), so a
#: batch is read before later batches push it out (a text of 3,000 short paragraphs parsed them all ahead, then
#: again one by one: twice the work).
AHEAD_SENTENCES = 512


def _unread(para: str, after_colon: bool, promised: bool, min_words: int) -> bool:
    """Whether :func:`free_units` can pass over ``para`` (no colon, no list) unread: the caller drops a paragraph unit
    of fewer than ``min_words`` words, and this one cannot make more content than that, nor a letter (no greeting) or
    a text after a colon. Its sentences are then not parsed (a history of 2,000 one-line turns parsed each)."""
    if not min_words or after_colon or _SALUTATION_RE.match(para) or (promised and _GREETED_RE.match(para)):
        return False
    return sum(word_count(para[s:e]) for s, e in sentence_spans(para)) < min_words


def _ahead(
    paragraphs: list[tuple[int, str, bool, list[Block]]],
    exclude: Sequence[tuple[int, int]],
    before: int,
    promised: bool,
    min_words: int,
) -> list[tuple[int, list[str]]]:
    """``(paragraph index, sentences)`` of the sentences :func:`free_units` will give a syntactic reader: those of
    paragraphs that have no colon, are not lists and are read (:func:`_unread`), outside ``exclude`` and after
    ``before``; in later paragraphs every one :func:`orders_reader` parses, in the first those
    :func:`asks_for_text` parses (its opening words say nothing)."""
    out: list[tuple[int, list[str]]] = []
    after_colon = False  # possibly after a colon with nothing behind it (free_units' own state, read the same way)
    for k, (start, para, later, items) in enumerate(paragraphs):
        if ":" in para:
            after_colon = word_count(para[para.find(":") + 1 :]) == 0
            continue
        was_after, after_colon = after_colon, False
        if len(items) >= 2 or _unread(para, was_after, promised, min_words):
            continue
        wanted: list[str] = []
        for s, e in sentence_spans(para):
            sent = para[s:e]
            if overlaps(exclude, start + s, start + e) or start + e <= before:
                continue
            if (later or not is_instruction(sent)) and parsed_for_orders(sent.strip()):
                wanted.append(sent.strip())
        if wanted:
            out.append((k, wanted))
    return out


def _parse_batches(ahead: list[tuple[int, list[str]]]) -> dict[int, list[str]]:
    """The sentences to parse at once (:func:`nlp.parse_all`: batched, each sentence its own document, into the shared
    cache) when the reading reaches each paragraph index: batches of about :data:`AHEAD_SENTENCES`."""
    batches: dict[int, list[str]] = {}
    first, size = -1, AHEAD_SENTENCES
    for k, wanted in ahead:
        if size + len(wanted) > AHEAD_SENTENCES:
            first, size = k, 0
            batches[first] = []
        batches[first].extend(wanted)
        size += len(wanted)
    return batches


def _parse_now(sentences: list[str]) -> None:
    from faithguard.errors import ConfigError
    from faithguard.nlp import parse_all

    try:
        parse_all(sentences)
    except ConfigError:
        return  # no spaCy model: the readers read the opening words instead


def free_units(
    result: Scan,
    exclude: Sequence[tuple[int, int]] = (),
    *,
    questions: bool = False,
    promised: bool = False,
    before: int = -1,
    min_words: int = 0,
) -> list[Block]:
    """Untyped blocks of ``result`` plus free prose units (colon tails, content paragraphs).

    Sentences overlapping ``exclude`` (the sentences holding references) never count as content. With
    ``questions`` (the request points to a question it holds: "answer the following question"), a question
    sentence outside the referring sentence is that question, however it opens ("How can you ...?"). With
    ``promised`` (the text after a forward pointer: "the email below"), a paragraph that opens with a greeting and an
    addressee of any case ("Hi all,", "Dear team,") is a whole letter, however its sentences open. Sentences that
    end before ``before`` (where a backward pointer stands: "repeat the request above") are what it points at,
    orders included. With ``min_words`` (the caller drops paragraph units shorter than that), a paragraph that cannot
    make one is not read.
    """
    units = list(result.untyped)
    masked = result.masked
    bounds = [0, *(m.end() for m in PARA_RE.finditer(masked)), len(masked) + 1]
    paragraphs = _paragraphs(masked, bounds, exclude)
    batches = _parse_batches(_ahead(paragraphs, exclude, before, promised, min_words))
    after_colon = False
    for k, (start, para, later, items) in enumerate(paragraphs):
        if k in batches:
            _parse_now(batches[k])
        colon = para.find(":")
        if colon >= 0:
            tail = para[colon + 1 :]
            n = word_count(tail)
            # the request sentence may run on into the first item (no full stop before "1."): clip it at the colon
            head_only = [(a, min(b, start + colon + 1)) for a, b in exclude]
            tail_items = _list_items(tail, start + colon + 1, head_only)
            if len(tail_items) >= 2:
                # "Rank these slogans:\n1. ...\n2. ...": an enumerated tail is one unit per item, not one text
                units.extend(tail_items)
                after_colon = False
            elif n:
                # only the request's own list: the colon closes a sentence that holds a reference
                in_request = overlaps(exclude, start + colon, start + colon + 1)
                inline = _inline_items(tail) if in_request else []
                if len(inline) >= 2:
                    # "the following two topics: tides, and erosion": one short unit per listed item
                    units.extend(Block("colon", None, start + colon + 1, start + len(para), k) for k in inline)
                else:
                    units.append(Block("colon", None, start + colon + 1, start + len(para), n))
                after_colon = False
            else:
                after_colon = True
            continue
        if len(items) >= 2:
            units.extend(items)  # "1. Council backs bike lanes\n2. ...": each enumerated item is one unit
            after_colon = False
            continue
        if _unread(para, after_colon, promised, min_words):
            after_colon = False
            continue
        content = sentences = 0
        for s, e in sentence_spans(para):
            if overlaps(exclude, start + s, start + e):
                continue
            sent = para[s:e]
            asked = questions and sent.rstrip().endswith("?")
            # pointed at from below ("the request above"): whatever it says is the material
            pointed = start + e <= before
            ordered = not pointed and (orders_reader(sent) if later else is_instruction(sent) or asks_for_text(sent))
            if asked or not ordered or (after_colon and not _META_RE.search(sent)):
                content += word_count(sent)
                sentences += 1
        greeted = bool(_SALUTATION_RE.match(para)) and bool(content)
        greeted = greeted or (promised and bool(_GREETED_RE.match(para)))
        if greeted and not overlaps(exclude, start, start + len(para)):
            # "Hi Sam, ... Thanks, Priya": a whole letter or email, greeting and all, however short
            units.append(Block("letter", None, start, start + len(para), word_count(para)))
            after_colon = False
            continue
        if content:
            origin = "after_colon" if after_colon else "paragraph"
            units.append(Block(origin, None, start, start + len(para), content, sentences=max(1, sentences)))
        after_colon = False
    return units
