"""A numbered item with no whole named ('Answer question 7') presupposes the numbered set (inputs/numbered.py
``numbered_item_refs``, round 7)."""

from __future__ import annotations

import pytest

from faithguard.detector import CallContext
from faithguard.inputs.missing import analyse
from faithguard.nlp import parse


@pytest.mark.parametrize(
    ("query", "missing"),
    [
        ("Work through problem 9 for me.", True),
        ("What is the right answer to question 12?", True),
        ("What is wrong with line 40?", True),
        ("Describe figure 3.", True),
        # the set is there, a named work's item, a count, a position, or a part of the text being written
        ("Question 1: What is 3 x 4?\nQuestion 2: What is 9 - 5?\nAnswer question 2.", False),
        ("What happens in act 2 of Macbeth?", False),
        ("In Macbeth, what happens in act 2?", False),
        ("Please list 4 little-known facts about owls.", False),
        ("Quote the words between index 2 and 5 of your answer.", False),
        ("Write a story with 4 paragraphs and put paragraph 3 in italics.", False),
    ],
)
def test_numbered_item(query: str, missing: bool) -> None:
    assert bool(analyse(CallContext(query=query), parse)) is missing, query
