"""An answer that opens by saying it cannot know, say or find the answer does not proceed as if it had the missing
input (session 19: a RAG bot's correct "I don't know" was a critical misinterpretation; helper 96). Cases written for
the class, none from an evaluation set."""

from __future__ import annotations

import pytest

from faithguard.inputs.followup import classify_followup

REFS = ("the attached invoice",)


@pytest.mark.parametrize(
    "answer",
    [
        "I don't know.",
        "I can't answer that without the invoice itself.",
        "Sorry, I cannot tell from what I have here.",
        "I'm not able to find a due date in what you sent.",
        "I am unable to see any amounts, so I can't total them.",
        "I don't know which supplier issued it.",
        "The message has no invoice in it, so I cannot say what is owed.",
        "I don't know. Nothing in what I was given mentions a due date for the invoice.",
        "I can't tell. The notes you shared say nothing about who the supplier was or what the amounts are.",
    ],
)
def test_a_first_sentence_that_declines_is_no_proceeding(answer: str) -> None:
    decision, why = classify_followup(answer, REFS)
    assert decision == "asks", why


@pytest.mark.parametrize(
    "answer",
    [
        # a negated opinion, a policy in the company's voice, a plain claim: these answer the question
        "I don't think that's right; the invoice total is 240 euros including tax.",
        "We do not issue refunds on invoices older than ninety days, so this one is final.",
        # a decline that then guesses, or goes on past a contrast, proceeds all the same (reviewer 97)
        "I don't know which supplier it was, but the total is probably around 240 euros.",
        "I can't say for sure. The invoice is most likely for the March delivery of office chairs and desks.",
        "I don't know. It lists 240 euros for chairs and is due on the fifth.",  # a pronoun for the item (review 98)
        "I don't know which supplier. However, the total was 240 euros and payment is due Friday.",
        "I do not recommend paying it before checking the line items with the supplier.",
        "The invoice total is 240 euros and it is due on the fifth of next month.",
    ],
)
def test_an_answer_that_does_not_decline_still_proceeds(answer: str) -> None:
    decision, why = classify_followup(answer, REFS)
    assert decision == "proceeds", why
