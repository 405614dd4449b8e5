"""Markdown's block syntax supplies material (``supply._MD_BLOCK_RE``): a table with its separator row, a
blockquote. Rows written here for the mechanism."""

from __future__ import annotations

import pytest

from faithguard.detector import CallContext
from faithguard.inputs.missing import MissingContentDetector

DET = MissingContentDetector()


@pytest.mark.parametrize(
    "query",
    [
        "Which city in this table is the wettest?\n\n| City | Rain |\n|---|---|\n| Bergen | 2250 |\n| Oslo | 760 |",
        "Is this email too blunt?\n\n> Hi Priya,\n> The report is late again. Send it by noon.\n> Marco",
        "Summarize the review below.\n> The soup was cold, the bread was stale, but the staff were lovely.",
    ],
)
def test_a_markdown_block_supplies_material(query: str) -> None:
    found = DET.run(CallContext(query=query)).findings["missing_content"]
    assert not found, (query, found)


@pytest.mark.parametrize(
    "query",
    [
        # pipes without a separator row are no table; an empty quote marker carries nothing
        "Which city in this table is the wettest?\n| City | Rain |\n| none yet |",
        "Is this email too blunt?\n\n>\n>",
    ],
)
def test_no_markdown_block_no_material(query: str) -> None:
    assert DET.run(CallContext(query=query)).findings["missing_content"], query
