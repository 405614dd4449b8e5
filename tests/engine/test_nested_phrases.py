"""Nested preposition phrases and repeated negations are read in time linear in their number (issue 16), with the
readings the direct definitions give. Sentences written for these tests."""

from __future__ import annotations

from typing import Any

import pytest

from faithguard.engine.decompose import decompose_text
from faithguard.engine.roles import _is_wh_clause, _own
from faithguard.nlp import parse

SENTENCES = [
    "List the rivers in the north of Spain with dams built after 1950 by the state.",
    "Describe a walk from the station to the castle on the hill above the town in winter.",
    "Write about the museums of Paris which open on Sundays during the summer without tickets.",
    "Compare the cost of living in Lisbon with that in Porto for students from abroad.",
]


def _own_by_subtrees(prep: Any) -> list[Any]:
    """A preposition phrase minus every nested phrase's subtree, as the definition says."""
    nested: set[int] = set()
    for t in prep.subtree:
        if t.i != prep.i and (t.dep_ in ("prep", "agent") or _is_wh_clause(t)):
            nested |= {x.i for x in t.subtree}
    return [t for t in prep.subtree if t.i not in nested]


@pytest.mark.parametrize("sentence", SENTENCES)
def test_own_phrase_is_the_subtree_without_nested_phrases(sentence: str) -> None:
    preps = [t for t in parse(sentence) if t.dep_ in ("prep", "agent")]
    assert preps
    for prep in preps:
        assert [t.i for t in _own(prep)] == [t.i for t in _own_by_subtrees(prep)]


def test_a_run_of_negations_or_exclusions_still_yields_the_real_exclusion() -> None:
    negated = [c.text for c in decompose_text("Write a poem, not about the sea.").constraints if c.negated]
    assert negated and any("sea" in text for text in negated)
    run = decompose_text("Write a poem, not about the sea. " + "not " * 400)
    assert any("sea" in c.text for c in run.constraints if c.negated)
    chain = decompose_text("Write a poem without rhymes. " + "without " * 400)
    assert any("rhymes" in c.text for c in chain.constraints if c.negated)
