"""A relational subject ("the capital *of* Australia") needs a name typed for the relation, not only for the noun.

WordNet types Sydney as a capital (of New South Wales): that is no evidence for the capital of Australia.
Fixtures written for this class (capital and seat-of-government nouns, other WordNet-typed places).
"""

from __future__ import annotations

import pytest
from helpers import judge, status_of

from faithguard.lexical import wordnet

needs_wordnet = pytest.mark.skipif(not wordnet.available(), reason="Debian wordnet-base (or nltk) not installed")


@needs_wordnet
def test_wordnet_gives_the_immediate_whole_of_a_place() -> None:
    assert "australia" in (wordnet.whole_of("Canberra") or ())
    assert wordnet.whole_of("Sydney") == frozenset({"new south wales"})
    assert wordnet.whole_of("Zorblatt") is None


@needs_wordnet
@pytest.mark.parametrize(
    ("query", "answer", "subject", "status"),
    [
        # a capital of a part of the country is no evidence for the country's capital
        ("What is the capital of Canada?", "Toronto is a large and lively city on Lake Ontario.", "capital", "unknown"),
        (
            "Which city is the capital of Australia?",
            "Sydney is known for its harbour and beaches.",
            "city",
            "unknown",
        ),
        # the named place is directly part of the asked one
        ("What is the capital of Spain?", "It is Madrid, in the centre of the country.", "capital", "satisfied"),
        ("Name the capital of France.", "Paris.", "capital", "satisfied"),
    ],
)
def test_a_relational_subject_needs_the_relation(query: str, answer: str, subject: str, status: str) -> None:
    ctx, _ = judge(query, answer)
    assert status_of(ctx, subject) == status


@needs_wordnet
def test_a_plural_subject_in_a_place_keeps_containment() -> None:
    # "rivers of Spain": any river in Spain, however deep the part-of chain
    ctx, _ = judge("Name two rivers of Spain.", "The Ebro and the Tagus.")
    assert status_of(ctx, "rivers") == "satisfied"
