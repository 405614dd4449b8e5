"""Items the request orders the answer to make are the antecedents of later demonstratives.

Requests written for this project. "invent the marks of each pupil ... these three marks" asks for marks the answer
makes; "summarize the report ... these three reports" works on material the user must supply (a communicating
verb), so the later count is still missing.
"""

from __future__ import annotations

import pytest

from faithguard.detector import CallContext
from faithguard.inputs.missing import MissingContentDetector


def _findings(query: str) -> list[dict[str, object]]:
    result = MissingContentDetector().run(CallContext(query=query))
    found = result.findings.get("missing_content")
    return list(found) if isinstance(found, list) else []


@pytest.mark.parametrize(
    "query",
    [
        "Invent three pupils and produce the marks of each pupil. Then compute the mean of these three marks.",
        "Generate the answers of three players to a riddle. Afterwards, rank these three answers by wit.",
    ],
)
def test_items_the_answer_makes_are_not_missing(query: str) -> None:
    assert _findings(query) == []


def test_material_named_by_a_communicating_order_is_still_counted() -> None:
    found = _findings("Summarize the report. Then compare these three reports.")
    assert [f["expected"] for f in found] == [3]
