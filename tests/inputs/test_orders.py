"""A sentence of the request's first paragraph that orders a text is the request, not the material it points at.

Sentences written for this project. ``orders.asks_for_text`` reads, by syntax and WordNet's verb and noun files,
a first-paragraph sentence whose opening words say nothing (``is_instruction``): an imperative whose verb
communicates (its most frequent sense), or creates with a text as its object, is an order to the model; everyday
orders and messages to the writer quoted as material are not.
"""

from __future__ import annotations

import pytest

from faithguard.detector import CallContext
from faithguard.inputs.missing import MissingContentDetector
from faithguard.inputs.orders import asks_for_text, is_instruction


@pytest.mark.parametrize(
    "sentence",
    [
        "Draft a short reply that thanks her for the offer.",
        "Sketch a polite note declining the invitation.",
        "Outline the three biggest risks.",
        "Describe the mood in one sentence.",
        "Suggest a friendlier subject line.",
    ],
)
def test_orders_to_produce_a_text(sentence: str) -> None:
    assert not is_instruction(sentence)  # the opening words alone say nothing
    assert asks_for_text(sentence)


@pytest.mark.parametrize(
    "sentence",
    [
        "Shut the gate behind you.",
        "Bake the bread for forty minutes.",
        "Ring me once the train leaves.",
        "The meeting moved to Thursday.",
        "Paint the fence before the rain comes.",
    ],
)
def test_everyday_orders_and_statements_are_not_read_as_ours(sentence: str) -> None:
    assert not asks_for_text(sentence)


@pytest.mark.parametrize(
    "query",
    [
        "Our landlord sent the notice below. Draft a reply asking for two more weeks.",
        "Look over the complaint below. Draft a calm answer for the manager.",
        "My manager forwarded the memo below. Outline what it changes for the night shift.",
        "Fix the grammar in the text below. Make it sound less stiff.",  # the material named by a pronoun
        "Sort the reviews below by mood. Then cut them to one line each.",  # the material named by a pronoun
    ],
)
def test_a_pointer_followed_only_by_orders_has_nothing_below(query: str) -> None:
    assert MissingContentDetector().run(CallContext(query=query)).verdicts


@pytest.mark.parametrize(
    "query",
    [
        "Translate the sentence below into Italian. Shut the gate behind you.",
        "Put the line below into Spanish. Ring me once the train leaves.",
        "Our landlord sent the notice below. Draft a reply asking for two more weeks.\n\n"
        "Dear tenant, the rent rises by 4% from 1 March. Please confirm by the end of the month.",
    ],
)
def test_material_after_the_pointer_is_supplied(query: str) -> None:
    assert not MissingContentDetector().run(CallContext(query=query)).verdicts
