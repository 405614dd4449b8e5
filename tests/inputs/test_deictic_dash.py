"""A dash or colon right after a deictic pronoun introduces the material in the same sentence (inputs/parsed.py
``_introduces_material``), unless what follows is the request's own order, question or voice."""

from __future__ import annotations

import pytest

from faithguard.detector import CallContext
from faithguard.inputs.missing import analyse
from faithguard.nlp import parse


@pytest.mark.parametrize(
    ("query", "missing"),
    [
        # the words after the dash are the material
        ("Paraphrase this - the ferry leaves at noon and the last bus goes at ten.", False),
        ("Make this friendlier — your parcel was returned because nobody signed for it.", False),
        # the words after the dash are the user's comment or order: the material is still missing
        ("Paraphrase this -- I think it sounds stiff.", True),
        ("Make this friendlier - keep it short.", True),
        ("Paraphrase this.", True),
    ],
)
def test_dash_after_deictic(query: str, missing: bool) -> None:
    assert bool(analyse(CallContext(query=query), parse)) is missing
