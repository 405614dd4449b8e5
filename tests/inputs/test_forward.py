"""Forward pointers (``inputs/forward.py``, spec ``forward_pointer``): material promised after the pointer.

Every row was written here for the mechanism (never copied from an evaluation set). Positives promise material
with any noun, or none ("here it is"), and give nothing after it; negatives give it after the pointer in every
shape the check reads (a paragraph, a colon or dash tail, a quote, a code block, a list, an attached document),
or use the words in a sense that points at nothing (a time, a place, a level, an output to create).
"""

from __future__ import annotations

import pytest

from faithguard.detector import CallContext
from faithguard.inputs.missing import MissingContentDetector
from faithguard.models import Message

DET = MissingContentDetector()
PROSE = (
    "The orchard planted forty pear trees along the river path in April, and the volunteers who water them "
    "expect the first small harvest in three years if the summers stay dry."
)

POSITIVE = [
    "Add unit tests for the following module. Use pytest, please.",
    "Is the summary below faithful to the source? Be strict.",
    "Can you tighten my abstract? It is below. Thanks so much!",
    "Here are five names for our hiking club - which sounds friendliest?",
    "Alright, here it is. Why does it fail and what should I change?",
    "Okay, here's the letter my landlord wants me to sign.",
    "My questions are as follows.",
    "Rank the designs below from best to worst and explain your order.",
    "Here's my essay, I spent all weekend on it. Be brutal.",
    "Summarize the article below - it's long, sorry.",
    "Don't rewrite the paragraph below, just tell me if it's too long.",
    "Which of the three headlines below is clearest? We sell handmade soap.",
]

NEGATIVE = [
    # the material follows, in each shape
    "Add unit tests for the following module.\n\n```python\ndef area(r):\n    return 3.14 * r * r\n```",
    f"Is the summary below faithful to the source?\n\n{PROSE}",
    "Can you tighten my abstract? It is below.\n\n" + PROSE,
    "Here are five names for our hiking club: Trail Mix, Peak Pals, Ridge Runners, Summit Seekers, Boot Camp.",
    'Correct the grammar of the following sentence "He go to school every days."',
    "Rank the designs below from best to worst.\n1. A blue logo with a wave\n2. A green leaf mark\n3. A red circle",
    "Answer the following question. Why do cats purr when they are content?",
    "Close your reply with the following sign-off 'Warm regards from the garden team' and nothing else.",
    "Use the words below in a limerick, \u2018lantern\u2019 and \u2018harbour\u2019, and keep it clean.",
    "Here's the thing, my oven runs hot and every cake burns on the bottom. Any tips?",
    "Which of the three headlines below is clearest?\n1. Soap that loves you back\n2. Clean hands\n3. Made by hand",
    "Score the twelve answers below.\n\n" + PROSE,
    # the words point at nothing
    "The following week the team shipped the redesign. Write a short retrospective about such launches.",
    "Why do pipes burst when the temperature drops below freezing?",
    "Here you go with your questions again! Tell me a joke about penguins.",
    "Who was the following president after Lincoln?",
    "I'm here in Porto for a week. What should I eat?",
    "Here I am again with a cooking question: why does risotto need stirring?",
    "Here is where it gets confusing for me, why do leap years skip some centuries?",
    "Here is where it gets tricky for me: how do recursion and the call stack relate?",
    "She follows a strict diet. Suggest three breakfasts for someone like her.",
    "Write the following story in your own voice: a fox who learns to swim.",
    "While writing the following piece, keep sentences short and avoid jargon.",
]


@pytest.mark.parametrize("query", POSITIVE)
def test_pointer_with_nothing_after_is_missing(query: str) -> None:
    found = DET.run(CallContext(query=query)).findings["missing_content"]
    assert found, query


@pytest.mark.parametrize("query", NEGATIVE)
def test_pointer_with_material_or_no_pointer_is_not_missing(query: str) -> None:
    found = DET.run(CallContext(query=query)).findings["missing_content"]
    assert not found, (query, found)


@pytest.mark.parametrize("query", POSITIVE)
def test_attached_documents_supply_it(query: str) -> None:
    assert not DET.run(CallContext(query=query, documents=[PROSE] * 3)).findings["missing_content"]


def test_earlier_turns_do_not_supply_what_a_pointer_promises_next() -> None:
    history = [
        Message(role="user", content="My script crashes at startup."),
        Message(role="assistant", content="Sorry to hear that. Could you share the traceback it prints?"),
    ]
    found = DET.run(CallContext(query="Sure, here it is. What does it mean?", history=history)).findings
    assert found["missing_content"]
    assert "points ahead" in found["missing_content"][0]["explanation"]
