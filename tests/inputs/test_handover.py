"""Items handed over between the chat's parties (spec ``recipient_clause``) and messages replied to by possessive
(spec ``answered_message``). Rows written here for the mechanisms, never copied from an evaluation set."""

from __future__ import annotations

import pytest

from faithguard.detector import CallContext
from faithguard.inputs.missing import MissingContentDetector
from faithguard.models import Message

DET = MissingContentDetector()
FIGURES = "Week 1: 14 orders. Week 2: 19 orders. Week 3: 11 orders. Week 4: 23 orders. Week 5: 17 orders in total."

POSITIVE = [
    "Plot the figures I gave you as a bar chart.",
    "Can you translate the letter my landlord sent me into Spanish?",
    "please summarise what my accountant sent me",
    "Reply to his email for me, keep it short.",
]
NEGATIVE = [
    "What is wrong with the plant my mom gave me?",  # a physical thing, not information
    "Tell me what you think about cats.",  # 'you' thinks: nothing handed over
    "I forgot what my teacher told me about fractions, can you explain them?",  # not what the request acts on
    "Should I reply to my boss tonight or wait until Monday?",  # a person, not a message
    "Guess what my dad bought me for my birthday!",  # a thing bought, not a message (no communication verb)
]


@pytest.mark.parametrize("query", POSITIVE)
def test_handed_item_missing(query: str) -> None:
    assert DET.run(CallContext(query=query)).findings["missing_content"], query


@pytest.mark.parametrize("query", NEGATIVE)
def test_not_a_handed_item(query: str) -> None:
    found = DET.run(CallContext(query=query)).findings["missing_content"]
    assert not found, (query, found)


def test_an_earlier_turn_supplies_what_was_given_before() -> None:
    history = [Message(role="user", content=FIGURES), Message(role="assistant", content="Got them, thanks.")]
    ctx = CallContext(query="Plot the figures I gave you as a bar chart.", history=history)
    assert not DET.run(ctx).findings["missing_content"]


def test_a_compound_phrase_pointed_at_is_one_item() -> None:
    # the pattern pass reads the modifier ("contract") as a noun; the pointed phrase is one item, named by its head
    query = "Okay, here's the contract clause my landlord wants me to sign."
    found = DET.run(CallContext(query=query)).findings["missing_content"]
    assert [f["expected"] for f in found] == [1]
    assert not DET.run(CallContext(query=query, documents=[FIGURES])).findings["missing_content"]
