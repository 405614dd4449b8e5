"""Where the request names the material it lacks: the whole phrase, its modifiers and "of" chain included.

A missing-content finding names its material in a few words ("the review"); the request's own noun phrase around
them says more of it ("the two 1-star reviews", "clause 7 of my contract"). Those words describe the input, not the
answer: :data:`faithguard.detector.MISSING_INPUT` publishes the phrase's span so that no later check reads them as
instructions the answer missed.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

__all__ = ["with_spans"]

_NOMINAL = frozenset({"NOUN", "PROPN", "PRON", "NUM"})
#: Roles only a noun phrase fills: a head tagged otherwise ("notes" read as a verb) is still a noun there.
_NOMINAL_DEPS = frozenset({"dobj", "nsubj", "nsubjpass", "pobj", "attr", "appos", "conj", "dative"})
#: A finding joins several drivers' words with this separator (missing._resolve).
_JOINED = " / "


def with_spans(findings: list[dict[str, Any]], query: str, parser: Callable[[str], Any] | None) -> list[dict[str, Any]]:
    """``findings`` with a ``span`` ([start, end] in ``query``) on each whose reference the query spells out: the
    phrase around the reference's head (the token of the reference whose own head lies outside it, see
    :func:`_subtree_span`). A finding whose words are not in the query (a system prompt's) is left as is."""
    if not findings or parser is None or not query:
        return findings
    doc = None
    out: list[dict[str, Any]] = []
    lowered = query.lower()
    for finding in findings:
        spans: list[tuple[int, int]] = []
        for part in str(finding.get("reference", "")).split(_JOINED):
            at = _find(lowered, part.strip().lower())
            if at is None:
                continue
            doc = parser(query) if doc is None else doc
            if doc is None:
                return findings
            span = _subtree_span(doc, *at)
            if span is not None:
                spans.append(span)
        if spans:
            finding = {**finding, "span": [min(a for a, _ in spans), max(b for _, b in spans)]}
        out.append(finding)
    return out


def _find(text: str, words: str) -> tuple[int, int] | None:
    """The first whole-word occurrence of ``words`` in ``text`` (both lower-cased)."""
    if not words:
        return None
    m = re.search(r"(?<!\w)" + re.escape(words) + r"(?!\w)", text)
    return (m.start(), m.end()) if m else None


def _subtree_span(doc: Any, start: int, end: int) -> tuple[int, int] | None:
    """The phrase around the head of the tokens in ``[start, end)`` (or around the part it is the whole of: "the 3
    paragraphs of my letter"): everything before the head in its subtree (determiners, numbers, adjectives,
    possessors), and after it only numbers and an "of" chain ("section 4 of our lease"). Other phrases after the
    head are left out: a parser often hangs the answer's instructions there ("the flyer my neighbour left into
    Polish")."""
    inside = [t for t in doc if start <= t.idx < end]
    heads = [t for t in inside if not (start <= t.head.idx < end) or t.head.i == t.i]
    if not heads:
        return None
    head = heads[-1]
    if head.pos_ not in _NOMINAL and head.dep_ not in _NOMINAL_DEPS:
        return start, end  # a label or a pointer: the words themselves
    while head.dep_ == "pobj" and head.head.lower_ == "of" and head.head.head.pos_ in _NOMINAL:
        head = head.head.head  # a part of the material is missing with it: "the 3 paragraphs of my cover letter"
    return min(head.left_edge.idx, start), max(_right_end(head), end)


def _right_end(tok: Any) -> int:
    """Where a noun's own description ends on its right: its numbers and compounds, and an "of" phrase's noun."""
    end: int = tok.idx + len(tok.text)
    for child in tok.children:
        if child.i < tok.i:
            continue
        if child.dep_ in ("nummod", "compound"):
            end = max(end, int(child.idx) + len(child.text))
        elif child.dep_ == "prep" and child.lower_ == "of":
            end = max([end] + [_right_end(p) for p in child.children if p.dep_ == "pobj"])
    return end
