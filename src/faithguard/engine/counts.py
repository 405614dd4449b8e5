"""Counts in the answer read with their scope: whole-response counts as bounds, tables, measure nouns.

Split from :mod:`faithguard.engine.satisfy`: how a counted constraint meets typed evidence (pipe-table
rows and columns, a count verifier's outcome read as a bound when the request scopes the count to a
part of the answer, :mod:`faithguard.engine.scope`), and which nouns name a measured amount rather than
answer parts (WordNet).
"""

from __future__ import annotations

import re

from faithguard.engine.bridge import Checked
from faithguard.engine.lexicon import number_value
from faithguard.engine.response import ResponseView, norm
from faithguard.engine.scope import RequestScope, bound_verdict
from faithguard.lexical import wordnet
from faithguard.models import Constraint, Status

__all__ = [
    "UNITS",
    "bounded",
    "compare",
    "count_parts",
    "measure_noun",
    "scoped_verifier",
    "table_quantity",
    "table_unit",
    "unit_of",
    "whole",
]

Verdict3 = tuple[Status, str]


def compare(found: int, want: int, rel: str) -> bool:
    """Whether ``found`` meets ``rel`` (one of "==", ">=", "<=", ">", "<") ``want``."""
    return {
        "==": found == want,
        ">=": found >= want,
        "<=": found <= want,
        ">": found > want,
        "<": found < want,
    }[rel]


#: Words naming a part of an answer's form, and the part they count (English words for text structure).
UNITS = {
    "sentence": "sentence",
    "paragraph": "paragraph",
    "stanza": "paragraph",
    "section": "section",
    "word": "word",
    "line": "line",
    "bullet": "item",
    "point": "item",
    "item": "item",
    "step": "item",
}


def unit_of(text: str) -> str | None:
    """The part of the answer's form a count names ("three short paragraphs" -> "paragraph"), the last one named."""
    for w in reversed(re.findall(r"[a-z]+", text.lower())):
        u = UNITS.get(norm(w))
        if u is not None:
            return u
    return None


def count_parts(view: ResponseView, unit: str | None) -> tuple[int, str] | None:
    """Parts counted by structure (sentences, lines, list items...); None when the unit has no structure.

    Sections are the answer's markdown sections when it has at least two (:attr:`ResponseView.sections`),
    else its paragraphs; list items are the main list's (:attr:`ResponseView.list_items`).
    """
    if unit == "sentence":
        return len(view.sentences), "sentences"
    if unit == "section" and len(view.sections) >= 2:
        return len(view.sections), "headed sections"
    if unit in ("paragraph", "section"):
        return len(view.blocks), "paragraphs/stanzas"
    if unit == "word":
        return len(view.words), "words"
    if unit == "line":
        return len(view.lines), "lines"
    if len(view.list_items) >= 2 or unit == "item":
        return len(view.list_items), "list items"  # the main list, at every level (not a second list, not code)
    return None


#: WordNet roots of measure nouns ("10-minute", "5 miles"): a measured amount, not a count of answer parts.
_MEASURE_ROOTS = frozenset({"unit_of_measurement.n.01", "time_unit.n.01"})


def measure_noun(noun: str) -> bool:
    """Whether WordNet has a sense of ``noun`` under a unit of measurement or of time."""
    for synset in wordnet.type_synsets(noun):
        names = {a.name() for a in synset.closure(lambda s: s.hypernyms() + s.instance_hypernyms())}
        if (names | {synset.name()}) & _MEASURE_ROOTS:
            return True
    return False


def whole(c: Constraint, scope: RequestScope | None) -> bool:
    """Whether a whole-response count is exact for ``c`` (see :mod:`faithguard.engine.scope`)."""
    return scope is None or not (scope.several_deliverables or scope.distributive(c.text))


def bounded(status: Status, found: int, want: int, rel: str, reason: str) -> Verdict3:
    """A whole-response count read as a bound on the counted part."""
    decided = bound_verdict(found, want, rel)
    if decided is None:
        return Status.UNKNOWN, f"offline: the count applies to a part of the answer; whole answer: {reason}"
    return (Status.SATISFIED if decided else Status.VIOLATED), f"offline: as a bound on the part, {reason}"


def scoped_verifier(c: Constraint, checked: Checked, scope: RequestScope | None) -> Verdict3:
    """A whole-response count verifier's outcome, read as a bound when the count applies to a part.

    Only an outcome that carries its measure (a count verifier's) is re-read; any other stands.
    """
    status, reason = checked.status, checked.reason
    if status is Status.UNKNOWN or whole(c, scope):
        return status, reason
    if checked.unreadable_count:
        return Status.UNKNOWN, "verifier: the count applies to a part of the answer"
    if checked.count is None:
        return status, reason
    found, rel, want = checked.count
    return bounded(status, found, want, rel, reason)


#: "2 rows", "three tables", "a two-column table": a table unit with a number at most two words before it.
_TABLE_WORD = re.compile(r"\b(tables?|rows?|columns?)\b", re.IGNORECASE)


def table_unit(text: str) -> str | None:
    """'table', 'row' or 'column' when the constraint counts one of them ("2 rows"), else None."""
    for m in _TABLE_WORD.finditer(text):
        before = [w for w in re.split(r"[\s-]+", text[: m.start()]) if w][-3:]
        if any(number_value(w.lower()) is not None for w in before):
            return norm(m.group(1))
    return None


def table_quantity(
    c: Constraint, view: ResponseView, unit: str, want: int, rel: str, scope: RequestScope | None
) -> Verdict3:
    """Count pipe tables, or the rows / columns of the response's only table.

    A table's rows are its body rows, or one more if the asker counts the header; its columns are all
    columns, or one fewer if the first holds row labels. The count decides only when every reading
    agrees; with several tables (or none) rows and columns are unknown.
    """
    if unit == "table":
        found = len(view.tables)
        status = Status.SATISFIED if compare(found, want, rel) else Status.VIOLATED
        reason = f"found {found} tables, asked for {rel} {want} ({c.text!r})"
        if not whole(c, scope):
            return bounded(status, found, want, rel, reason)
        return status, f"offline: {reason}"
    if len(view.tables) != 1 or (scope is not None and scope.distributive(c.text)):
        return Status.UNKNOWN, f"offline: {len(view.tables)} tables in the response; rows and columns of which?"
    rows, cols = view.tables[0]
    readings = (rows, rows + 1) if unit == "row" else (cols, cols - 1)
    outcomes = {compare(n, want, rel) for n in readings}
    if len(outcomes) != 1:
        return Status.UNKNOWN, f"offline: the table has {readings[0]} {unit}s or {readings[1]} (labels), asked {want}"
    status = Status.SATISFIED if outcomes.pop() else Status.VIOLATED
    return status, f"offline: the table has {readings[0]} {unit}s ({readings[1]} counting labels), asked {rel} {want}"
