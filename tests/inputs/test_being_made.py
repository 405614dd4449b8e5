"""A thing the user is still producing or about to hand on is no material to supply when the request asks advice
about it (session 19, helper 96: "the handover document I'm writing" was a critical missing_content). Cases written
for the class, none from an evaluation set."""

from __future__ import annotations

import pytest

from faithguard import Guard

QUIET = [
    "Which points belong in the farewell note I'm writing for my team?",
    "What should I say in the toast I'm going to give at the reunion?",
    "How long should the toast I'm going to give at my sister's wedding be?",
    "What tone should I use for the complaint letter I need to send to the council?",
    "What font should I use in the report I'm writing for the board?",  # "what font": a question word's noun
    "Any tips for the presentation we will deliver to the board on Friday?",
]
FLAGGED = [
    "Can you proofread the cover letter I'm writing?",  # the assistant acts on it: it is needed
    "Summarise the memo I wrote to the board.",  # written: the user holds it
    "Why do I keep seeing the warning I'm getting?",  # received, not produced
    "How should I improve the essay I'm writing?",  # advice on a particular text needs the text
    "I'd like feedback on the cover letter I'm writing.",  # feedback on it acts on it
    # what is in it, and what is on its way to the assistant (reviewer 97)
    "Find the mistakes in the report I'm writing.",
    "Check the spelling in the letter I'm sending you.",
]


@pytest.fixture(scope="module")
def guard() -> Guard:
    made = Guard(judge=None, load_entrypoints=False)
    yield made  # type: ignore[misc]
    made.close()


@pytest.mark.parametrize("query", QUIET)
def test_advice_about_something_the_user_is_making_needs_no_copy(guard: Guard, query: str) -> None:
    report = guard.inspect(query)
    assert not [v for v in report.verdicts if v.kind == "missing_content"], report.verdicts


@pytest.mark.parametrize("query", FLAGGED)
def test_material_the_assistant_acts_on_or_the_user_holds_is_still_missing(guard: Guard, query: str) -> None:
    report = guard.inspect(query)
    assert [v.kind for v in report.verdicts if v.kind == "missing_content"], report.verdicts
