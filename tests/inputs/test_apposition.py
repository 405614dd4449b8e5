"""The reference's own content right after its noun, as an apposition: a closed quotation or a run of numbers
(inputs/numbered.py ``GIVEN_AFTER``, round 7)."""

from __future__ import annotations

import pytest

from faithguard.detector import CallContext
from faithguard.inputs.missing import analyse
from faithguard.nlp import parse


@pytest.mark.parametrize(
    ("query", "missing"),
    [
        ("Given the tweet 'Worst. Service. Ever.', is this customer angry?", False),
        ('Based on the headline "Rates rise again", what will happen to mortgages?', False),
        ("Using the values 3.5, 7, 12 and 20, compute the mean.", False),
        ("Using the readings 14, 18 and 22, plot a trend.", False),
        # no apposition: the content is still missing
        ("Given the tweet, is the author angry?", True),
        ("Using the values I gave you, compute the mean.", True),
    ],
)
def test_apposition_supplies_the_content(query: str, missing: bool) -> None:
    assert bool(analyse(CallContext(query=query), parse)) is missing, query


@pytest.mark.parametrize(
    ("query", "missing"),
    [
        # a letter after a forward pointer, opening with a greeting to a group, however its sentences open
        ("Shorten the message below.\nHey everyone, the picnic moved to Sunday. Please bring chairs.", False),
        ("Shorten the message below.", True),
        # a label block after "below": the parser may hang the label on "below" as its object
        ("Is the reply below polite?\n\nQ: Can I return shoes?\nA: No. Read the policy.", False),
        ("Is the reply below the line polite?", True),
    ],
)
def test_material_after_a_forward_pointer(query: str, missing: bool) -> None:
    assert bool(analyse(CallContext(query=query), parse)) is missing, query


@pytest.mark.parametrize(
    ("query", "missing"),
    [
        # each content sentence of the request's paragraph is one item of "these N sentences"
        ("Which of these three sentences is passive? The dog bit the man. The man was bitten. The man ran.", False),
        ("Which of these three sentences is passive? The dog bit the man.", True),
        ("Compare the two sentences.", True),
    ],
)
def test_counted_sentences_inline(query: str, missing: bool) -> None:
    assert bool(analyse(CallContext(query=query), parse)) is missing, query
