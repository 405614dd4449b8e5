"""A noun phrase the reader is to perceive ("as you can see in the table") is the request's cited source, like "as
shown in the table" (inputs/references.py ``_PERCEIVED_BEFORE``). Requests written for this test."""

from __future__ import annotations

import pytest

from faithguard.detector import CallContext
from faithguard.inputs.missing import analyse
from faithguard.nlp import parse


@pytest.mark.parametrize(
    "query",
    [
        "As we can see from the table, the night shift logs fewer incidents. Is the gap significant?",
        "As you'll notice in the table, two suppliers deliver late every month. Which one should we drop?",
        "You can see in the table that enrolment fell twice. What might explain it?",
    ],
)
def test_a_source_the_reader_is_to_see_is_missing_when_absent(query: str) -> None:
    assert analyse(CallContext(query=query), parse), query


@pytest.mark.parametrize(
    "query",
    [
        # no source named; a place, not material; the source is pasted; a verb that is no perception
        "As you can see, I'm new to spreadsheets. What does a pivot table do?",
        "As you can see in the park near us, the oaks are huge. How long do oaks live?",
        "As you can see in the table below, rents rose in spring.\n\n| Month | Rent |\n|---|---|\n| March | 900 |\n"
        "| April | 950 |\n\nWhy might that be?",
        "As we can build on the table, what joinery suits an oak dining table?",
    ],
)
def test_no_perceived_source_or_one_supplied_is_not_missing(query: str) -> None:
    assert not analyse(CallContext(query=query), parse), query
