"""Where the decomposer reads a verifiable instruction as tentative: read where the request may not ask it of the
answer (issue 11). The syntax readings are :mod:`faithguard.engine.asking`'s; this module locates a spec in the
request (its sentence, its counts, its phrases) and applies them. Used by :mod:`faithguard.engine.decompose`.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from faithguard.engine import bridge
from faithguard.engine.asking import (
    asks_about,
    asks_question,
    orders_production,
    quoted_for_someone,
    rule_for_others,
    rules_passed_on,
    told_of_others,
)
from faithguard.engine.content import quotations
from faithguard.numwords import CARDINALS

_WORD = re.compile(r"[^\W_]+")

__all__ = ["asked_later", "count_spots", "language_unasked", "locate", "others_told", "phrase_spans", "unasked"]


def locate(query: str, needle: str) -> int:
    """Char offset of ``needle`` in ``query`` (case-insensitive), or len(query) when absent."""
    if not needle:
        return len(query)
    pos = query.lower().find(needle.lower())
    if pos < 0:
        pos = query.lower().find(needle.lower()[:24])
    return pos if pos >= 0 else len(query)


def count_spots(query: str, spec: Any, start: int, end: int) -> list[list[int]] | None:
    """Per integer parameter of ``spec``, where that number stands in ``query[start:end]`` (in digits or words; a
    bound stored as N+1 is looked for as N too); None when the spec has no count or a count is not found."""
    numbers = [v for v in spec.params.values() if isinstance(v, int) and not isinstance(v, bool)]
    if not numbers:
        return None
    low = _lowered(query)
    out: list[list[int]] = []
    for value in numbers:
        forms = _number_forms(value) | _number_forms(value - 1)
        spots = [p for f in forms for p in _spots_of(low, f, start, end)]
        if not spots:
            return None
        out.append(spots)
    return out


@lru_cache(maxsize=8)
def _lowered(query: str) -> str:
    """``query.lower()``, one string per request: the spot index below is keyed by it."""
    return query.lower()


#: A character that joins a number to what is next to it ("3.5", "x3"): a count is not part of a longer token.
_JOINED = re.compile(r"[\w.]")


@lru_cache(maxsize=256)
def _occurrences(low: str, form: str) -> tuple[int, ...]:
    """Every place ``form`` starts in ``low``, overlaps included."""
    found: list[int] = []
    at = low.find(form)
    while at >= 0:
        found.append(at)
        at = low.find(form, at + 1)
    return tuple(found)


def _spots_of(low: str, form: str, start: int, end: int) -> list[int]:
    r"""Where ``form`` stands alone in ``low[start:end]``: what ``(?<![\w.])form(?![\w.])`` finds in that slice (the
    slice's edges count as boundaries), from one index of the request per form instead of a search per spec (a
    request of 500 counted rules searched itself 500 times)."""
    if not form:
        return []
    out: list[int] = []
    last = -1
    for p in _occurrences(low, form):
        if p < start:
            continue
        e = p + len(form)
        if e > end:
            break
        if p < last:
            continue  # the search resumes after its last match
        if (p == start or not _JOINED.match(low, p - 1)) and (e == end or not _JOINED.match(low, e)):
            out.append(p)
            last = e
    return out


def spec_fit(query: str, spec: Any, start: int, end: int) -> int:
    """How well ``query[start:end]`` (a constraint's words) states the instruction ``spec`` read from its sentence:
    2 for each of its counts written there as is ("three" for 3), 1 for one written as the bound below it ("exactly
    two" is stored as fewer than 3), and 2 when the unit the verifier counts is named ("sentences" for
    ``number_sentences``). A sentence-wide spec is attached to the constraint that states it, not to the first
    number of the sentence ("Rewrite the 3 paragraphs ... in exactly two sentences"). Fixtures:
    tests/engine/test_spec_attach.py."""
    low = query.lower()[start:end]
    score = 0
    for value in (v for v in spec.params.values() if isinstance(v, int) and not isinstance(v, bool)):
        for n, points in ((value, 2), (value - 1, 1)):
            forms = _number_forms(n)
            if any(re.search(rf"(?<![\w.]){re.escape(f)}(?![\w.])", low) for f in forms):
                score += points
                break
    unit = str(spec.verifier or "").rpartition(":")[2].removeprefix("number_").split("_")[0].rstrip("s")
    if len(unit) > 2 and re.search(rf"\b{re.escape(unit)}", low):
        score += 2
    return score


def _number_forms(n: int) -> set[str]:
    """How ``n`` may be written: in digits or as a cardinal word ("3", "three")."""
    return {str(n)} | {w for w, k in CARDINALS.items() if k == n}


def phrase_spans(query: str, spec: Any) -> tuple[tuple[int, int], ...]:
    """Where the spec's text parameters (an end phrase, a text to repeat, keywords) stand in the query."""
    low = query.lower()
    out: list[tuple[int, int]] = []
    for value in spec.params.values():
        for text in value if isinstance(value, list) else [value]:
            if isinstance(text, str) and text.strip() and (at := low.find(text.lower())) >= 0:
                out.append((at, at + len(text)))
    return tuple(out)


def others_told(query: str, doc: Any) -> tuple[tuple[int, int], ...] | None:
    """The request's quotations when others' words may be told in it: it asks a question of its own and orders
    nothing made (a rule relayed for what is made is asked: "Write a product description. Our SEO guy says 'cozy'
    must appear 3 times."). None otherwise."""
    quotes = tuple(quotations(query))
    if not (asks_question(doc, quotes) and not orders_production(doc, quotes)):
        return None
    # someone's words, not a mark shown in quotes ("markdown '* '"): a word at least
    return tuple((a, b) for a, b in quotes if _WORD.search(query[a:b]))


def language_unasked(doc: Any, at: int, name_at: int, others: tuple[tuple[int, int], ...] | None) -> bool:
    """:func:`unasked` for a language asked at character ``at``, named at ``name_at`` ("Is answering in Spanish
    more polite?", "Write a note reminding my students to answer in French")."""
    if asks_about(doc, at):
        return True
    name = doc.char_span(name_at, name_at + 1, alignment_mode="expand")
    if name is not None and len(name) and rule_for_others(name[0]):
        return True
    return others is not None and told_of_others(doc, at, at + 1)


def _anchors(query: str, doc: Any, spec: Any, start: int, end: int) -> list[Any]:
    """Tokens of ``doc`` that carry the spec's parameters in its stretch: its counts, its phrases (an end phrase,
    keywords: their first word), or the language named; none for a spec with no parameter (all caps, JSON)."""
    spots: list[int] = [x for group in count_spots(query, spec, start, end) or [] for x in group]
    spots += [a for a, _ in phrase_spans(query, spec) if start <= a < end]
    code = spec.params.get("language")
    if isinstance(code, str):
        from faithguard.engine.language_request import language_code

        spots += [t.idx for t in doc if start <= t.idx < end and t.is_title and language_code(t.text) == code]
    out = []
    for at in spots:
        span = doc.char_span(at, at + 1, alignment_mode="expand")
        if span is not None and len(span):
            out.append(span[0])
    return out


def _found_only_in_rules(query: str, doc: Any, spec: Any, start: int, end: int) -> bool:
    """For a form with no parameter to locate it by: whether the detectors find it inside the rules the answer
    passes on to others (:func:`asking.rules_passed_on`) and not in the rest of its stretch, read apart."""
    clauses = rules_passed_on(doc, start, end)
    if not clauses:
        return False
    if not any(s.verifier == spec.verifier for a, b in clauses for s in bridge.detect_specs(query[a:b])):
        return False
    rest, last = [], start
    for a, b in clauses:
        rest.append(query[last:a])
        last = b
    rest.append(query[last:end])
    return not any(s.verifier == spec.verifier for s in bridge.detect_specs(" ".join(rest)))


def unasked(query: str, doc: Any, spec: Any, start: int, others: tuple[tuple[int, int], ...] | None) -> bool:
    """Whether the spec was read where the request may not ask it of the answer (:mod:`asking`): a question about
    the form; a rule the answer passes on to others; or, with ``others`` (the request's quotations, None unless
    the request asks a question and orders nothing made), what someone else does or says, or a quotation brought
    in without asking it. Tentative then."""
    if start >= len(query):
        return False
    end = start + len(spec.text)
    if asks_about(doc, start, phrase_spans(query, spec)):
        return True
    anchors = _anchors(query, doc, spec, start, end)
    if anchors and all(rule_for_others(t) for t in anchors):
        return True  # "Write a memo telling staff that all reports must be under 500 words."
    if not anchors and _found_only_in_rules(query, doc, spec, start, end):
        return True  # "Write a notice telling entrants that submissions must be in JSON format."
    if others is None:
        return False
    # where the spec's counts stand, when it has any: its sentence as the verifiers cut it may run on into the
    # request's own question ("My advisor says it must be 3 pages. Is that common?")
    spots = count_spots(query, spec, start, end)
    where = [(x, x + 1) for group in spots for x in group] if spots else [(start, end)]
    if all(told_of_others(doc, a, b) for a, b in where):
        return True
    if not any(a < end and start < b for a, b in others):
        return False
    from faithguard.nlp import parse

    # the engine's parse has quotations blanked; what frames one is read in the whole request's (shared) parse
    return quoted_for_someone(parse(query), start, end, others)


def asked_later(query: str, spec: Any, end: int) -> tuple[Any, int, int] | None:
    """The same instruction asked after the question it was first read from ("Is it weird to write in all
    lowercase? Anyway, answer me in all lowercase."): the detectors report one reading per instruction, the first,
    so the rest of the request is read again for it. ``(spec, start, end)`` in the whole query, or None."""
    rest = query[end:]
    for later in bridge.detect_specs(rest) if rest.strip() else ():
        if later.verifier == spec.verifier:
            start = end + locate(rest, later.text)
            return later, start, start + len(later.text)
    return None
