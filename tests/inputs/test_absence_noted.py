"""A response that says the missing item itself is absent notes the gap (inputs/followup.py ``_absence_noted``).
Sentences written for this project."""

from __future__ import annotations

import pytest

from faithguard.inputs.followup import classify_followup


@pytest.mark.parametrize(
    ("response", "reference"),
    [
        (
            "No invoice came through on my side, so I can only describe what such reminders usually say to a "
            "client who has not paid on time.",
            "the invoice",
        ),
        (
            "Without the recipe I can only offer the usual advice: check the oven temperature and rest the dough "
            "for longer before baking it.",
            "the recipe",
        ),
        (
            "The contracts aren't in this conversation yet. Once they are here I can compare the termination "
            "clauses line by line for you.",
            "the two contracts",
        ),
        (
            "I can't see the chart you mentioned, but in general a steady slope means steady growth over the "
            "whole period.",
            "the chart",
        ),
        (
            "Neither screenshot loaded for me; in general fewer screens and a guest checkout make a flow feel "
            "shorter to shoppers.",
            "both screenshots",
        ),
    ],
)
def test_an_absence_of_the_item_is_noted(response: str, reference: str) -> None:
    assert classify_followup(response, (reference,))[0] == "asks"


@pytest.mark.parametrize(
    ("response", "reference"),
    [
        (
            "The recipe doesn't need eggs, so it works for vegans; swap the butter for oil and bake it for twenty "
            "minutes at 180 degrees.",
            "the recipe",
        ),
        (
            "I wouldn't change the poem much: the second stanza is moving, and the closing image of the garden "
            "gate lands well.",
            "the poem",
        ),
        (
            "The invoice lists three items, no tax and a due date of March 3, so the reminder should mention the "
            "total of 420 dollars.",
            "the invoice",
        ),
    ],
)
def test_an_answer_about_the_item_proceeds(response: str, reference: str) -> None:
    assert classify_followup(response, (reference,))[0] == "proceeds"


def test_without_a_reference_nothing_is_read() -> None:
    text = "Without the recipe I can only offer the usual advice about ovens, dough and the time it should rest."
    assert classify_followup(text, ())[0] == "proceeds"


@pytest.mark.parametrize(
    ("response", "reference"),
    [
        (
            "Your script doesn't run because the loop never ends; move the counter inside the loop and it will "
            "finish in a second.",
            "my script",
        ),
        (
            "The letter isn't in French, which suits the client; its second paragraph promises delivery by Monday "
            "and the tone is warm.",
            "the letter",
        ),
        (
            "Neither photo shows any damage to the bumper, so the insurer will likely treat it as cosmetic and pay "
            "for the paint only.",
            "both photos",
        ),
    ],
)
def test_a_negation_that_says_something_of_the_item_proceeds(response: str, reference: str) -> None:
    assert classify_followup(response, (reference,))[0] == "proceeds"
