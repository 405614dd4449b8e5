"""Tabular data pasted without markdown (inputs/tables.py): rows split by one delimiter are material.
Rows written for this project."""

from __future__ import annotations

import pytest

from faithguard.detector import CallContext
from faithguard.inputs.missing import MissingContentDetector
from faithguard.inputs.tables import delimited_blocks

DET = MissingContentDetector()
ASK = "Going by the spreadsheet (I pasted the part that matters below), which branch sold the most?"


@pytest.mark.parametrize(
    "rows",
    [
        "Branch | Units\nLeeds | 420\nYork | 515\nHull | 390",
        "Leeds, 420\nYork, 515\nHull, 390",
        "Branch\tUnits\nLeeds\t420\nYork\t515",
        "Leeds; 420; north\nYork; 515; north\nHull; 390; east",
    ],
)
def test_rows_without_markdown_are_the_table(rows: str) -> None:
    assert len(delimited_blocks(rows)) == 1
    assert not DET.run(CallContext(query=f"{ASK}\n\n{rows}")).findings.get("missing_content")


def test_without_the_rows_the_table_is_missing() -> None:
    assert DET.run(CallContext(query=ASK)).findings.get("missing_content")


@pytest.mark.parametrize(
    "text",
    [
        # prose lines with commas end like sentences; two rows are too few; cells that are sentences
        "Use rhyme, rhythm and imagery.\nKeep it short, sweet and simple.\nAvoid cliches, filler and hype.",
        "Leeds, 420\nYork, 515",
        "We sold the most units in Leeds this spring, which surprised everyone in the team, | really\n"
        "York did well too, though the weather there was awful for most of the month, | ok\n"
        "Hull lagged behind the other two branches because the shop was closed for repairs, | sadly",
    ],
)
def test_prose_is_not_a_table(text: str) -> None:
    assert delimited_blocks(text) == []
