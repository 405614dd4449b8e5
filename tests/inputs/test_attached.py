"""Attachment claims (``inputs/attached.py``, spec ``attachment_claim``). Rows written here for the mechanism."""

from __future__ import annotations

import pytest

from faithguard.detector import CallContext
from faithguard.inputs.missing import MissingContentDetector
from faithguard.models import Message

DET = MissingContentDetector()
PROSE = (
    "Dear hiring team, I have led the volunteer kitchen at our community centre for four years, planning "
    "weekly menus for eighty guests and training new cooks in food safety and budgeting."
)

POSITIVE = [
    "Cover note attached. Does it sound too stiff?",
    "photo attached - is this mushroom safe to eat??",
    "Please find attached the quarterly figures and tell me what stands out.",
    "We uploaded the floor plan this morning; which room gets the most light?",
    "I pasted the lyrics, what is the song about?",
    "I've attached my CV to this message, is it too long?",
    # the verbs of putting text in place, and "both" for the items just named
    "I've copied the tenancy terms in below. Can I keep a cat?",
    "I put the old rota first and then the new one. Who lost shifts?",
    "Had two offers from movers and pasted both. Which is cheaper overall?",
    # the user's own talk in the claim's paragraph (a question, a first-person sentence) is not the material
    "Had two offers from movers and pasted both. Which one is the better deal once insurance and packing are "
    "counted in?",
    "I've copied the club rules in below. I want to know if guests can use the pool on weekends without a member.",
]
NEGATIVE = [
    "How do I attach a spreadsheet to an email in Outlook?",
    "The mirror is attached to the door with four bolts. Is that enough?",
    "My cousin uploaded a dance video last week. Why do some videos go viral?",
    "Can I upload files bigger than two gigabytes to a shared drive?",
    "He attached two receipts to his complaint. Was that a good idea legally?",
    "I attached my cover letter below.\n\n" + PROSE,
    # negated or empty claims, mentions in quotes, a destination elsewhere
    "Write a cover letter for a florist job. I've attached nothing, just invent the details.",
    "I haven't attached anything yet. What should a good cover letter include?",
    "What does 'see attached' mean in an email, and is it rude?",
    "Should I write 'please find attached' or 'attached please find' to a client?",
    "Is \u201cplease find attached\u201d too formal for a note to my landlord?",
    "I uploaded a draft to the university portal yesterday. How long does marking usually take?",
    "I put the kettle on; which tea goes best with lemon cake?",
    "I've copied my manager on the thread. How should I word a polite reminder?",
    "I've included a risk section in my grant plan. What else do funders usually expect?",
    "I've copied the tenancy terms in below. Can I keep a cat?\n\n" + PROSE,
]


@pytest.mark.parametrize("query", POSITIVE)
def test_claim_with_nothing_carrying_it(query: str) -> None:
    assert DET.run(CallContext(query=query)).findings["missing_content"], query


@pytest.mark.parametrize("query", NEGATIVE)
def test_no_claim_or_carried(query: str) -> None:
    found = DET.run(CallContext(query=query)).findings["missing_content"]
    assert not found, (query, found)


@pytest.mark.parametrize("query", POSITIVE)
def test_a_document_carries_it(query: str) -> None:
    assert not DET.run(CallContext(query=query, documents=[PROSE])).findings["missing_content"]


def test_a_photo_is_not_carried_by_prose() -> None:
    query = "photo attached - is this mushroom safe to eat??\n\n" + PROSE
    assert DET.run(CallContext(query=query)).findings["missing_content"]


def test_an_earlier_upload_may_sit_in_an_earlier_turn() -> None:
    history = [Message(role="user", content=PROSE), Message(role="assistant", content="Thanks, I have it.")]
    query = "i uploaded it earlier, does it sound confident?"
    assert DET.run(CallContext(query=query)).findings["missing_content"]
    assert not DET.run(CallContext(query=query, history=history)).findings["missing_content"]
