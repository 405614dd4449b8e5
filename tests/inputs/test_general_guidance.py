"""A response to a request whose material is missing that gives general guidance about such material does not
proceed as if it had the item (inputs/followup.py ``_general_guidance``); an inability to read the item notes its
absence (``_absent``). Sentences written for this project."""

from __future__ import annotations

import pytest

from faithguard.inputs.followup import classify_followup


@pytest.mark.parametrize(
    ("response", "reference"),
    [
        (
            "Leases usually run for twelve months, and break clauses typically need two months' notice in writing. "
            "Check the dates against your own copy before you sign anything.",
            "my lease",
        ),
        (
            "A reply along these lines often works: 'Dear [name], thank you for your note about [topic]. I will get "
            "back to you by Friday.' Keep it short and polite.",
            "her email",
        ),
    ],
)
def test_general_guidance_is_not_proceeding(response: str, reference: str) -> None:
    decision, reason = classify_followup(response, (reference,))
    assert decision == "undecided", reason


@pytest.mark.parametrize(
    ("response", "reference"),
    [
        # the item named as read, as a subject or a possessor: proceeding, however hedged
        (
            "Your lease usually would allow subletting, but its clause 4 forbids it, and the break clause typically "
            "applies after six months.",
            "my lease",
        ),
        (
            "The report often repeats itself and generally lacks a conclusion; cut the second section and merge the "
            "tables.",
            "the report",
        ),
        # one mark only: not enough to read the answer as general
        (
            "Charts like that usually show growth when the line climbs to the right, so sales rose over the year.",
            "the chart",
        ),
    ],
)
def test_an_answer_about_the_item_still_proceeds(response: str, reference: str) -> None:
    assert classify_followup(response, (reference,))[0] == "proceeds"


def test_unable_to_read_the_item_notes_its_absence() -> None:
    text = "I can't read the invoice from here - only your question arrived. Could you type out the total and the date?"
    assert classify_followup(text, ("the invoice",))[0] == "asks"


@pytest.mark.parametrize(
    ("response", "reference"),
    [
        (
            "I can't fault the essay: the argument is clear, the sources are strong and the ending lands well.",
            "the essay",
        ),
        (
            "I can't recommend the recipe highly enough: the lemon glaze is perfect and the sponge stays moist.",
            "the recipe",
        ),
    ],
)
def test_a_negated_verb_of_saying_says_something_of_the_item(response: str, reference: str) -> None:
    assert classify_followup(response, (reference,))[0] == "proceeds"


@pytest.mark.parametrize(
    ("response", "only"),
    [
        # asking the user to tell or give, and offering to do the task then, is still only asking
        (
            "Could you paste the invoice here? Let me know the total and the due date as well, and I can draft the "
            "reminder for you straight away.",
            True,
        ),
        (
            "Could you attach the photo of the stain again? If the upload keeps failing, describe the stain's colour "
            "and size instead.",
            True,
        ),
        # a judgement delivered anyway, or instructions of another task, is more than asking
        (
            "Could you paste the invoice? I would say the total is probably about four hundred dollars, due in March.",
            False,
        ),
        (
            "Could you paste the invoice? Meanwhile, whisk two eggs with sugar, fold in the flour and bake the batter "
            "for twenty minutes.",
            False,
        ),
    ],
)
def test_only_asks_reads_requests_and_offers_by_syntax(response: str, only: bool) -> None:
    from faithguard.inputs.followup import only_asks

    assert only_asks(response, ("the invoice", "the photo")) is only, response


@pytest.mark.parametrize(
    ("response", "decision"),
    [
        # asking for the input and offering the task, nothing else: asks
        ("Let me know the balance and the due date, and I can write the reminder.", "asks"),
        ("Happy to help! If you tell me the amounts on it, I'll add them up.", "asks"),
        # a judgement given as well: more than asking
        ("I would say it is overdue. Let me know the due date if you want a reminder drafted.", "proceeds"),
    ],
)
def test_an_answer_that_only_asks_or_offers_asks(response: str, decision: str) -> None:
    assert classify_followup(response, ("the invoice",))[0] == decision


@pytest.mark.parametrize(
    ("sentence", "offers"),
    [
        # an order to the user coordinated with the answer's own offer: the offer is in the second clause
        ("Paste the letter below and I'll tighten the wording.", True),
        ("Send the spreadsheet over and we can check the totals together.", True),
        ("Upload the floor plan, and I will suggest where the sofa fits.", True),
        # an invitation to the user ("you can / could ...") is the user's part as well (review finding)
        ("You can paste the recipe here and I'll scale it for twelve.", True),
        ("You could send the floor plan and I can suggest where the sofa fits.", True),
        # the second clause has no first-person subject, a modal that delivers, or is negated: no offer
        ("Paste the letter below and it will be tightened.", False),
        ("Paste the letter below and I would cut the second paragraph.", False),
        ("Paste the letter below and I can't promise a quick turnaround.", False),
        ("The letter is long and you can cut the second paragraph.", False),
        # a statement that delivers, then an offer: the offer is an extra, not the answer's whole part (review finding)
        ("Your opening is too formal, and I can rewrite it if you want.", False),
        ("The total comes to $42, and I can break it down if you like.", False),
    ],
)
def test_an_offer_may_stand_in_a_coordinated_clause(sentence: str, offers: bool) -> None:
    from faithguard.inputs.followup import _offers
    from faithguard.nlp import parse

    assert _offers(parse(sentence)) is offers, sentence


def test_a_delivered_judgement_with_an_offer_still_proceeds() -> None:
    assert classify_followup("Your opening is too formal, and I can rewrite it if you want.", ("the essay",))[0] == (
        "proceeds"
    )
