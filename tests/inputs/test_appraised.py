"""A judgement of the user's own work needs that work (inputs/appraised.py, spec appraised_possession)."""

from __future__ import annotations

import pytest

from faithguard.detector import CallContext
from faithguard.inputs.missing import analyse
from faithguard.nlp import parse

#: The user asks for a judgement of a thought, text, act or holding of theirs that the request never shows.
MISSING = [
    "Is my proof right?",
    "Please review our proposal.",
    "Can you evaluate my approach?",
    "What do you think of my strategy?",
    "Verify my calculations.",
]

#: A physical thing or a person, a state, the user acting ("How do I ..."), a subject after the noun, or the work
#: shown after a colon: nothing is missing.
SUPPLIED = [
    "Is my dog healthy if he sleeps all day?",
    "How often should I check my blood pressure?",
    "Evaluate my chances of getting into a good college.",
    "Is my memory normal for my age?",
    "Review my options for a cheap flight to Rome next week.",
    "What do you think of my idea to open a bakery?",
    "I think my team is great.",
    "Check my reasoning: all squares are rectangles, so this square is a rectangle.",
]


@pytest.mark.parametrize("query", MISSING)
def test_judged_work_is_missing(query: str) -> None:
    assert analyse(CallContext(query=query), parse), query


@pytest.mark.parametrize("query", SUPPLIED)
def test_no_judged_work_is_missing(query: str) -> None:
    assert not analyse(CallContext(query=query), parse), query


def test_judged_work_supplied_as_document() -> None:
    ctx = CallContext(query="Can you evaluate my approach?", documents=["Step one: sort the list. Step two: merge."])
    assert not analyse(ctx, parse)


@pytest.mark.parametrize(
    ("query", "missing"),
    [
        # faults of a text the request never shows (spec faults_of_text, lexname test "fault")
        ("Could you fix the misprints?", True),
        ("Please correct the errors.", True),
        ("Spot the punctuation mistakes.", True),
        # a how-to, someone else's doing, a text to write, or faults placed in a named text
        ("How can I avoid typos when I type fast?", False),
        ("Why do students make mistakes in algebra?", False),
        ("Write a sentence with two deliberate typos.", False),
        ("Correct the typos: Teh cat sat on teh mat.", False),
    ],
)
def test_faults_of_an_unseen_text(query: str, missing: bool) -> None:
    assert bool(analyse(CallContext(query=query), parse)) is missing, query
