"""Inline enumerations supply one item per marker (``units._inline_enumeration``). Rows written here."""

from __future__ import annotations

import pytest

from faithguard.detector import CallContext
from faithguard.inputs.missing import MissingContentDetector

DET = MissingContentDetector()


@pytest.mark.parametrize(
    "query",
    [
        "Do these two claims agree? (1) 'The bakery opens at seven.' (2) 'Nobody can buy bread before nine.'",
        "Which of these three options is cheapest? a) a monthly pass b) ten single tickets c) a bike",
    ],
)
def test_inline_items_supply_the_count(query: str) -> None:
    found = DET.run(CallContext(query=query)).findings["missing_content"]
    assert not found, (query, found)


@pytest.mark.parametrize(
    "query",
    [
        # markers that do not count up from one, or only one item: not the promised two (unquoted: two quoted claims
        # are two supplied texts whatever their markers, tests/inputs/test_quoted_material.py)
        "Do these two claims agree? (2) The bakery opens at seven. (4) Nobody can buy bread before nine.",
        "Do these two claims agree? (1) 'The bakery opens at seven.'",
    ],
)
def test_no_enumeration_no_items(query: str) -> None:
    assert DET.run(CallContext(query=query)).findings["missing_content"], query
