"""A pro-form "one" after a modifier, in a sentence that compares, is a second item of the named kind.

Requests and texts written for this project: "does the revised memo contradict the earlier one" needs two memos;
one supplied is one short. Without a comparison ("is this the final one?") the pro-form adds nothing.
"""

from __future__ import annotations

import pytest

from faithguard.detector import CallContext
from faithguard.inputs.missing import MissingContentDetector

_MEMO = "Memo, revised: the spring fair moves to the park, music ends at 9 pm and stalls open at noon on Saturday."
_OLD = "Memo: the spring fair is held in the school hall, music ends at 10 pm and stalls open at 10 am."


def _flagged(query: str, documents: list[str]) -> bool:
    return bool(MissingContentDetector().run(CallContext(query=query, documents=documents)).verdicts)


@pytest.mark.parametrize(
    "query",
    [
        "Does the revised memo contradict the earlier one on music times?",
        "Compare the new memo with the previous one and list what changed.",
        # no comparing verb: "than", "or", "with" set the pro-form beside the memo
        "Is the revised memo clearer than my previous one?",
        "Which reads better, the revised memo or the earlier one?",
        "Merge the revised memo with the one from last week.",
    ],
)
def test_the_second_item_is_missing(query: str) -> None:
    assert _flagged(query, [_MEMO])


def test_both_items_supplied() -> None:
    assert not _flagged("Does the revised memo contradict the earlier one on music times?", [_MEMO, _OLD])


@pytest.mark.parametrize(
    "query",
    [
        "Is the revised memo the final one?",  # no comparison: the pro-form is the same budget
        "Which line of the revised memo is the longest one?",  # "which" picks within the one text
        "Rewrite the revised memo as a friendlier one.",  # "a ... one" is the text to write
    ],
)
def test_no_second_item(query: str) -> None:
    assert not _flagged(query, [_MEMO])
