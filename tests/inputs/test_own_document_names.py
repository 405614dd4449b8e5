"""A possessive or demonstrative makes a text with an "of" name the user's own, not a work of the world.

Requests written for this project. "the report of the Warren Commission" names a public work (``_OF_AFTER``), but
"my letter of recommendation" or "our statement of work" is a text the user holds: missing unless supplied.
"""

from __future__ import annotations

import pytest

from faithguard.detector import CallContext
from faithguard.inputs.missing import MissingContentDetector


def _flagged(query: str, documents: list[str] | None = None) -> bool:
    return bool(MissingContentDetector().run(CallContext(query=query, documents=documents or [])).verdicts)


@pytest.mark.parametrize(
    "query",
    [
        "Please tighten my letter of recommendation for Sam.",
        "Can you check our statement of work for gaps?",
        "Shorten this record of the meeting to five lines.",
    ],
)
def test_the_users_own_text_with_an_of_name_is_missing(query: str) -> None:
    assert _flagged(query)


@pytest.mark.parametrize(
    "query",
    [
        "Summarize the report of the Warren Commission.",
        "What does the letter of Paul to the Romans say about faith?",
    ],
)
def test_a_public_work_with_an_of_name_is_not_the_users(query: str) -> None:
    assert not _flagged(query)


def test_the_users_text_supplied_is_not_missing() -> None:
    letter = "Dear hiring team, I am writing to apply for the junior analyst role because I enjoy working with numbers."
    assert not _flagged("Proofread my letter of motivation.", [letter])
