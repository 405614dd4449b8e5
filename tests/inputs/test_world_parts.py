"""A part of a named work ("the green light in The Great Gatsby") and a thing the assistant is asked to make for the
user ("Tell me a joke ... explain the joke") are not missing material (round 7); "the photo of my rash" is the user's
item, "the first law of motion" a thing of the world (session 14)."""

from __future__ import annotations

import pytest

from faithguard.detector import CallContext
from faithguard.inputs.missing import analyse
from faithguard.nlp import parse


@pytest.mark.parametrize(
    ("query", "missing"),
    [
        ("What does the opening speech in Richard III reveal about him?", False),
        ("Explain the symbolism of the letter in The Scarlet Letter.", False),
        ("Explain the symbolism of the letter in my story.", True),
        ("Tell me a riddle and then explain the riddle.", False),
        ("Give us a limerick, then explain the limerick.", False),
        ("Tell me two riddles and then compare the two riddles.", False),
        ("I have two riddles. Compare the two riddles.", True),
        ("Let me share two riddles later. Compare the two riddles.", True),
        # "of" + a determiner and a lowercase noun describes the user's own item (session 14)
        ("Zoom in on the x-ray photo of the fracture and tell me if it looks healed.", True),
        ("Go through the transcript of our standup and list who owes what.", True),
        ("Check the printout of my bank statement for duplicate charges.", True),
        # "of" + a bare noun or a name: a thing of the world
        ("Explain the second law of thermodynamics simply.", False),
        ("Summarize the report of the Warren Commission in a paragraph.", False),
        ("Outline the theory of evolution for a ten-year-old.", False),
        # a counted part keeps the world reading, whatever follows "of"
        ("List the first 5 terms of the geometric series with ratio 3.", False),
        ("Give the two roots of the quadratic x^2 - 5x + 6.", False),
    ],
)
def test_world_parts_and_made_items(query: str, missing: bool) -> None:
    assert bool(analyse(CallContext(query=query), parse)) is missing, query
