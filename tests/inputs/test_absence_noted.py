"""A response that says the missing item itself is absent notes the gap (inputs/followup.py ``_absence_noted``).
Sentences written for this project."""

from __future__ import annotations

import pytest

from faithguard.inputs.followup import classify_followup, only_asks


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


# Arrival denied (``_not_arrived``): a denied verb of motion, or a denied verb with a particle of passage, whose
# subject is the item or a noun under "no" / "neither" / "nothing". Sentences written for this project.
ARRIVAL_DENIED = [
    # each longer than the courtesy limit (8 words), so only reading the arrival makes it part of the asking
    ("Sadly no spreadsheet reached us together with the note you wrote this morning.", "the budget spreadsheet"),
    ("Nothing came through on this side apart from the question you typed above.", "the scanned form"),
    ("Your voice memo from this afternoon never reached me here, I am afraid.", "my voice memo"),
    ("The scan you mentioned in your last line didn't make it into the chat.", "the scan"),
    ("Hmm, the slides for your Thursday pitch did not get through to me at all.", "the slides"),
]


@pytest.mark.parametrize(("sentence", "reference"), ARRIVAL_DENIED)
def test_a_denied_arrival_notes_the_gap(sentence: str, reference: str) -> None:
    response = sentence + " Could you send it again so I can go through it properly for you?"
    assert classify_followup(response, (reference,))[0] == "asks"
    # and it counts as asking, so the answer that only says so and asks is only asking
    assert only_asks(response, (reference,))


@pytest.mark.parametrize(
    ("sentence", "reference"),
    [
        # the item goes somewhere of its own, or a verb of motion takes a real object: said of the content
        ("The essay doesn't go into enough detail on the causes, and the ending feels rushed.", "my essay"),
        ("The memo never reaches a conclusion about the budget, which your manager will notice.", "the memo"),
        ("The slides don't come in a logical order; move the timeline before the costs.", "the slides"),
        ("Honestly the essay doesn't flow, and the second half repeats the first.", "my essay"),
        # arrival that is not denied
        ("The spreadsheet arrived fine, and column C adds up to 4,120 dollars for the quarter.", "the spreadsheet"),
    ],
)
def test_a_motion_verb_saying_something_of_the_item_proceeds(sentence: str, reference: str) -> None:
    assert classify_followup(sentence, (reference,))[0] == "proceeds"


def test_a_temporal_still_does_not_carry_on() -> None:
    # "still" of a persisting state is no contrast; a clause opened by concessive "still" carries on
    waits = "The [INSERT POEM] placeholder is still in your message. Swap in the poem and I will give notes."
    assert classify_followup(waits, ("[INSERT POEM]",))[0] == "asks"
    guesses = "There is a placeholder where the poem should be; still, poems like this usually rhyme in couplets."
    assert classify_followup(guesses, ("[INSERT POEM]",))[0] == "proceeds"


@pytest.mark.parametrize(
    ("response", "reference", "decision"),
    [
        # "missing" with an object opened by a determiner says what the item lacks: a claim about its content
        (
            "Your cover letter is missing a closing line and the second paragraph repeats the first, so cut it.",
            "my cover letter",
            "proceeds",
        ),
        ("The recipe seems to be missing the baking time; add 25 minutes at 180 degrees.", "the recipe", "proceeds"),
        # "missing" with no object: the item itself is absent
        ("The cover letter is missing from your message. Could you paste it here?", "my cover letter", "asks"),
        ("Hmm, the recipe seems to be missing. Can you share it again?", "the recipe", "asks"),
    ],
)
def test_transitive_missing_is_about_the_content(response: str, reference: str, decision: str) -> None:
    assert classify_followup(response, (reference,))[0] == decision
