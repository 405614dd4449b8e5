"""'it' as the subject of a result the request asks for ('Make it more formal') stands for material when nothing
before names it and the request is addressed to the assistant (spec deictic_pronoun, round 7)."""

from __future__ import annotations

import pytest

from faithguard.detector import CallContext
from faithguard.inputs.missing import analyse
from faithguard.nlp import parse


@pytest.mark.parametrize(
    ("query", "missing"),
    [
        ("Could you make it friendlier?", True),
        ("please make it look more professional", True),
        ("Make it snow.", False),
        ("How can I make it cheaper?", False),
        ("Write a toast for my brother and make it funny.", False),
        ("Draft a bio for me and make it sound warm.", False),
    ],
)
def test_it_as_the_result_subject(query: str, missing: bool) -> None:
    assert bool(analyse(CallContext(query=query), parse)) is missing, query
