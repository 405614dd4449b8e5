"""Layout and joiner patterns of terms/compose.py, anchored so a run of blanks is scanned once (issue 16).

Every line here was written for these tests.
"""

from __future__ import annotations

import pytest

from faithguard.terms.compose import _JOINERS, layout_label


def _label(line: str, name: str) -> bool:
    start = line.index(name)
    return layout_label(line, start, start + len(name))


@pytest.mark.parametrize(
    "line",
    [
        "Event Date: June 5",
        "**Event Date** (optional):  June 5",
        "Event Date \t  :  June 5",
        "Event Date" + " " * 3000 + ": June 5",
        "| Event Date |  June 5 |",
        "|  Event Date  \t|",
    ],
)
def test_a_label_or_a_cell_is_layout(line: str) -> None:
    assert _label(line, "Event Date")


@pytest.mark.parametrize(
    "line",
    ["The Event Date changed twice this year", "Event Date" + " " * 3000 + "moved", "| Event Date moved |"],
)
def test_a_name_in_running_text_is_not_layout(line: str) -> None:
    assert not _label(line, "Event Date")


@pytest.mark.parametrize(
    ("text", "parts"),
    [
        ("Fermentation  and   Road Trip", ["Fermentation", "Road Trip"]),
        ("Sailboat\n\nof \t Europe", ["Sailboat", "Europe"]),
        ("Road Trip & Sailboat in Europe", ["Road Trip", "Sailboat", "Europe"]),
        ("Handmade Sailboat", ["Handmade Sailboat"]),
        ("Rock andRoll", ["Rock andRoll"]),
    ],
)
def test_a_title_run_splits_at_its_joiners(text: str, parts: list[str]) -> None:
    assert [p.strip() for p in _JOINERS.split(text) if p.strip()] == parts
