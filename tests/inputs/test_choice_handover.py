"""A choice among unnamed items ('which of these ...') and a future hand-over with 'give'/'provide' (specs
deictic_pronoun and announced_handover, round 7)."""

from __future__ import annotations

import pytest

from faithguard.detector import CallContext
from faithguard.inputs.missing import analyse
from faithguard.nlp import parse


@pytest.mark.parametrize(
    ("query", "missing"),
    [
        ("Which of these reads better?", True),
        ("Pick the strongest one of them for me.", True),
        ("I'll give you three slogans. Tell me which is catchiest.", True),
        ("We will provide two drafts; rank them by clarity.", True),
        # the choices follow in the sentence, or were named before
        ("Which of these is cheaper, a bus pass or a bike?", False),
        ("I have a red scarf and a blue scarf. Which of these goes with grey?", False),
        ("I'll give you three slogans: Fresh daily. Baked with love. Warm from the oven.", False),
        ("Give me three slogans for a bakery.", False),
    ],
)
def test_choice_and_handover(query: str, missing: bool) -> None:
    assert bool(analyse(CallContext(query=query), parse)) is missing, query
