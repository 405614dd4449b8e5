"""What a pasted text names is its own business: a definite reference inside a long paragraph of material after the
instruction ("the two pilot lines" in a pasted news item) is not content the request relies on (issue 12). Examples
written for these tests."""

from __future__ import annotations

import pytest

from faithguard import Guard
from faithguard.inputs.supply import scan
from faithguard.inputs.units import MATERIAL_PARAGRAPH_WORDS, material_paragraphs

NEWS = (
    "Our town council met on Tuesday to discuss the new bus routes. Members argued for an hour about costs, "
    "and in the end they agreed to run the two pilot lines through the summer before any final vote."
)


@pytest.fixture(scope="module")
def guard() -> Guard:
    return Guard(judge=None)


def _missing(guard: Guard, query: str) -> list[str]:
    return [v.explanation for v in guard.inspect(query).verdicts if v.kind == "missing_content"]


@pytest.mark.parametrize(
    "query",
    [
        "Write a two-sentence summary of this news item.\n\n" + NEWS,
        "Give this abstract a title.\n\nWe study how reefs recover. The three surveyed islands differ in depth, and "
        "the deeper reefs recovered faster than the shallow ones after the heat wave of the previous summer.",
    ],
)
def test_references_inside_pasted_material_are_the_materials_own(guard: Guard, query: str) -> None:
    assert _missing(guard, query) == []


@pytest.mark.parametrize(
    "query",
    [
        "The attached report covers the council meeting.\n\nSummarize it in three bullets.",  # the first paragraph
        "Summarize this.\n\nThe attached file has our sales numbers.",  # a later paragraph too short to be material
        "Here is a news item.\n\n" + NEWS + " Compare it with the attached report.",  # an order inside the paragraph
    ],
)
def test_references_outside_pasted_material_still_count(guard: Guard, query: str) -> None:
    assert _missing(guard, query)


def test_material_paragraphs_need_the_word_bound_and_no_order() -> None:
    assert material_paragraphs(scan("Summarize this news item.\n\n" + NEWS)) != []
    short = " ".join(NEWS.split()[: MATERIAL_PARAGRAPH_WORDS - 1]) + "."
    assert material_paragraphs(scan("Summarize this news item.\n\n" + short)) == []
    assert material_paragraphs(scan(NEWS)) == []  # one paragraph: the request itself
    assert material_paragraphs(scan("Summarize this.\n\n" + NEWS + " Then list its main points, please?")) == []
