"""The user's own talk right after a forward pointer is not the promised material (inputs/forward.py
``_talk_after``): a question to the reader or a sentence in the user's voice, in the pointer's own paragraph.
Sentences written for this project."""

from __future__ import annotations

import pytest

from faithguard.detector import CallContext
from faithguard.inputs.missing import MissingContentDetector

DET = MissingContentDetector()


def _missing(query: str) -> bool:
    return bool(DET.run(CallContext(query=query)).findings.get("missing_content"))


@pytest.mark.parametrize(
    "query",
    [
        "Here's the error message my printer shows. Why does it keep coming back? I've already restarted it twice "
        "this morning.",
        "Below is the warning my laptop shows at startup. What does it mean? I've only had the machine for a week.",
        # a sentence with its "I" left out opens the talk as a question does
        "Please trim the toast below. Giving it at my brother's retirement party on Friday.",
        "Proofread the bio below. Hoping to post it on the club website tonight.",
        # the parser hangs the predicate adjective on "below" as its object: still the pointer
        "Is the warranty clause below fair to the buyer?",
    ],
)
def test_talk_after_a_pointer_is_not_the_material(query: str) -> None:
    assert _missing(query)


@pytest.mark.parametrize(
    "query",
    [
        # the material in its own paragraph, after a colon, or a pointer to a question that is followed by one
        "Here's the error message my printer shows. Why does it keep coming back?\n\nPaper jam in tray 2 - open "
        "cover B and remove the sheet.",
        "Here's the warning my laptop shows: disk almost full, free up space on drive C to keep updates running.",
        "Answer the following question in two lines. Why do cats purr when they are stroked by people they trust?",
        "Please trim the toast below.\n\nGood evening all, and thank you for coming to see Dan off after forty years.",
        # "below" with an object of its own is a place or a level
        "Is the water below freezing point safe to drink for a dog?",
    ],
)
def test_material_after_a_pointer_still_counts(query: str) -> None:
    assert not _missing(query)
