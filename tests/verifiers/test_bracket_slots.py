"""Blanks to fill named by their form (square brackets with an example slot) are placeholders. Sentences written for
this project."""

from __future__ import annotations

import pytest

from faithguard.verifiers import detect

_ID = "detectable_content:number_placeholders"


def _placeholders(text: str) -> list[int]:
    return [s.params["num_placeholders"] for s in detect(text) if s.verifier == _ID]


@pytest.mark.parametrize(
    ("text", "n"),
    [
        ("Draft a landlord notice and leave at least 5 gaps in square brackets like [tenant name] to fill later.", 5),
        ("Write a thank-you note with 2 square-bracket blanks such as [gift].", 2),
        ("Make a packing list; keep spots in square brackets for at least 4 items (e.g. [jacket]).", 4),
        ("Give me a reusable apology email with square brackets like [date] where details go.", 1),
    ],
)
def test_bracket_slots_are_placeholders(text: str, n: int) -> None:
    assert _placeholders(text) == [n]


@pytest.mark.parametrize(
    "text",
    [
        "Cite sources in square brackets like [1] after each claim.",
        "Please don't use square brackets like [this] anywhere.",
        "Why do editors put [sic] in square brackets inside quotes?",
        "Wrap the title in square brackets.",
    ],
)
def test_other_square_brackets_are_not_placeholders(text: str) -> None:
    assert _placeholders(text) == []
