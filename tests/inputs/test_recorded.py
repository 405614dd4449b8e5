"""A spoken event standing for its record (inputs/recorded.py, spec recorded_event, lexname test spoken_event)."""

from __future__ import annotations

import pytest

from faithguard.detector import CallContext
from faithguard.inputs.missing import analyse
from faithguard.nlp import parse


@pytest.mark.parametrize(
    ("query", "missing"),
    [
        ("Recap the seminar for my manager.", True),
        ("What did they agree on during the conference?", True),
        ("Who objected in the debate, and why?", True),
        ("List the decisions from the conference.", True),
        # a named event, an event to come, the user acting, a social event with no record, or the record supplied
        ("What was agreed at the Potsdam Conference?", False),
        ("What should I bring to the seminar next week?", False),
        ("Plan the agenda for the conference.", False),
        ("Summarize the wedding.", False),
    ],
)
def test_spoken_event_record(query: str, missing: bool) -> None:
    assert bool(analyse(CallContext(query=query), parse)) is missing, query


def test_record_supplied_as_document() -> None:
    notes = "Ana: we ship in May. Raj: budget is fixed."
    ctx = CallContext(query="Recap the seminar for my manager.", documents=[notes])
    assert not analyse(ctx, parse)
