"""A pointer to an item the request itself has the answer make ("create a character ... build this character") is
not material the user holds (inputs/parsed.py ``_made_earlier``). Requests written for this test."""

from __future__ import annotations

import pytest

from faithguard.detector import CallContext
from faithguard.inputs.missing import analyse
from faithguard.nlp import parse


@pytest.mark.parametrize(
    "query",
    [
        "I want to write a bedtime story for my niece. I want to slowly build this story around a lost kitten.",
        "Help me write a short poem for my mum's birthday. I want to build this poem around her garden.",
    ],
)
def test_the_item_being_made_is_not_missing(query: str) -> None:
    assert not analyse(CallContext(query=query), parse), query


@pytest.mark.parametrize(
    "query",
    [
        # made in the past by the user: the item exists and is not here
        "I wrote a bedtime story for my niece last year. I want to improve this story before her birthday.",
        # being written by the user now, refused, or only asked about (review findings)
        "I'm writing a cover letter for a nurse job. I need to tighten this letter before Friday.",
        "I don't want to write a new story. I need to improve this story.",
        "Should I write a story or a poem for the contest? I need to improve this story first.",
    ],
)
def test_an_item_the_user_made_before_is_still_missing(query: str) -> None:
    assert analyse(CallContext(query=query), parse), query
