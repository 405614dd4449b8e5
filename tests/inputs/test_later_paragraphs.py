"""A paragraph after the request is pasted content unless it gives the reader orders (read by syntax).

Sentences written for this project. ``supply.orders_reader`` reads later paragraphs: an imperative, "please",
"you" with a modal or a short question is the request going on; a statement is content, however it opens
("If you ...", "Your ...", "Also, ..."), which the opening-word reading of the first paragraph took for orders.
"""

from __future__ import annotations

import pytest

from faithguard.detector import CallContext
from faithguard.inputs.missing import analyse
from faithguard.inputs.orders import orders_reader


@pytest.mark.parametrize(
    "sentence",
    [
        "Keep it under a page.",
        "Please use a friendly tone.",
        "You should mention the deadline.",
        "Can it be shorter?",
        # a negated imperative: the tagger reads "Do" as a present tense, the order's verb as its head
        "Don't change the variable names.",
        "Do not add any new sections.",
        # a modal asking "you", its question mark left off
        "can you pull out the three main risks",
        "Could you keep the names as they are",
    ],
)
def test_orders_to_the_reader(sentence: str) -> None:
    assert orders_reader(sentence)


@pytest.mark.parametrize(
    "sentence",
    [
        "If you had asked me in May, I would have said no.",
        "Your package arrived two days late and the box was torn.",
        "Also, the venue has changed to the old town hall.",
        "When the rain started, everyone ran inside.",
        "If you had come earlier, you would have met her.",
        # "do" as a main verb or an emphatic auxiliary in a statement, a modal after its subject
        "I do remember the summer we spent in Leeds, when the river flooded.",
        "We do not sell refurbished phones in this shop.",
        "You can find the forms at the front desk of the library.",
    ],
)
def test_statements_that_open_like_orders_are_content(sentence: str) -> None:
    assert not orders_reader(sentence)


def test_a_referenced_text_in_the_next_paragraph_is_supplied() -> None:
    query = (
        "Proofread the given text.\n\n"
        "If you had came to the party, you would of met my cousin. Your absense was noticed by everyone."
    )
    assert analyse(CallContext(query=query), None) == []


def test_orders_in_the_next_paragraph_supply_nothing() -> None:
    query = "Summarize the attached report.\n\nPlease keep it short and use plain words."
    assert analyse(CallContext(query=query), None)
