"""A request head the small tagger reads as a preposition or adverb still takes a deictic object (spec
deictic_pronoun): a root with a direct object acts as a verb whatever its tag."""

from __future__ import annotations

import pytest

from faithguard.detector import CallContext
from faithguard.inputs.missing import analyse
from faithguard.nlp import parse


@pytest.mark.parametrize(
    ("query", "missing"),
    [
        ("Unpack that for me.", True),  # the tagger reads "Unpack" as a preposition
        ("Down this road, turn left.", False),  # a real preposition: "this" is its object, no material
        ("Unpack that for me: the quarterly numbers moved because freight costs doubled in March.", False),
    ],
)
def test_misread_head_takes_deictic_object(query: str, missing: bool) -> None:
    assert bool(analyse(CallContext(query=query), parse)) is missing
