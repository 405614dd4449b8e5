"""Unanswered parts of multi-part requests: each wh-question expects a kind of answer.

"What is the capital of Australia? And how many people live there?" answered with
"The capital is Canberra." leaves the second part unanswered: no number anywhere in the
response. Only the answer *kind* is checked (a number, a date, a place, a person), and only
for requests of two or more parts, where later parts are the ones models drop (SLAQ).
"""

from __future__ import annotations

import calendar
import re
from collections.abc import Sequence

from faithguard.engine.response import ResponseView
from faithguard.models import Constraint, Status, SubQuestion, Tier
from faithguard.numwords import CARDINALS, SCALES

__all__ = ["answer_kind", "unanswered_parts"]

_LEAD = r"^\W*(?:\d+[.)]\s*)?(?:and\s+|also\s+|then\s+|finally\s+|additionally,?\s+)?"
_KINDS: tuple[tuple[re.Pattern[str], str], ...] = (
    (
        re.compile(
            _LEAD + r"(?:roughly\s+|approximately\s+|about\s+)?how\s+(?:many|much|long|old|far|tall|big)\b", re.I
        ),
        "number",
    ),
    (re.compile(_LEAD + r"(?:when\b|(?:in\s+)?what\s+(?:year|century|decade)\b)", re.I), "date"),
    (re.compile(_LEAD + r"where\b", re.I), "place"),
    (re.compile(_LEAD + r"(?:who\b|by\s+whom\b)", re.I), "person"),
)
#: Number words come from the one number table (:mod:`faithguard.numwords`: cardinals and scales), plus the
#: closed class of vague quantifiers that also answer "how many" ("several", "a few", "many"); month names
#: from the standard library.
_NUMBER = re.compile(
    r"\d|\b(?:" + "|".join(sorted([*CARDINALS, *SCALES], key=len, reverse=True)) + r"|several|few|many)\b",
    re.I,
)
_DATE = re.compile(
    r"\b(?:1\d{3}|20\d{2})s?\b|\b\d{1,2}(?:st|nd|rd|th)\s+century\b|\bcentury\b|\b(?:"
    + "|".join(m.lower() for m in calendar.month_name if m)
    + r")\b|\b(?:bc|bce|ad|ce)\b|\b(?:ago|today|yesterday|recently)\b",
    re.I,
)


def answer_kind(question: str) -> str | None:
    """The kind of answer a wh-question expects: number, date, place, person, or None."""
    for pattern, kind in _KINDS:
        if pattern.search(question):
            return kind
    return None


def _has(view: ResponseView, kind: str) -> bool | None:
    if kind == "number":
        return _NUMBER.search(view.text) is not None
    if kind == "date":
        return _DATE.search(view.text) is not None
    if not view.names_reliable:
        return None
    if kind == "place":
        return bool(view.named(frozenset({"GPE", "LOC", "FAC"})))
    return bool(view.named(frozenset({"PERSON", "ORG", "NORP"})))


def unanswered_parts(
    subquestions: Sequence[SubQuestion], constraints: Sequence[Constraint], view: ResponseView
) -> dict[str, tuple[Status, str]]:
    """Violations for the still-undecided mandatory/important constraints of parts whose answer kind is absent."""
    if len(subquestions) < 2 or view.empty:
        return {}
    updates: dict[str, tuple[Status, str]] = {}
    for sq in subquestions:
        kind = answer_kind(sq.text)
        if kind is None or _has(view, kind) is not False:
            continue
        reason = f"offline: part {sq.index + 1} ({sq.text[:60]!r}) asks for a {kind}; the response gives none"
        for c in constraints:
            if (
                c.subquestion == sq.index
                and c.status is Status.UNKNOWN
                and not c.negated
                and not c.tentative
                and c.tier in (Tier.MANDATORY, Tier.IMPORTANT)
            ):
                updates[c.id] = (Status.VIOLATED, reason)
    return updates
