"""The union of clause subtrees read once per token (roles._subtrees, linear on chains of nested clauses) is the
plain union. Sentences built from pieces written for this project."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from faithguard.engine.roles import _subtrees
from faithguard.nlp import parse

_PIECES = [
    "Write a note telling the team that the office closes early",
    "and that parking moves to the west lot",
    "which means everyone should arrive by eight",
    "because the guards lock the gate",
    "explain what happened and why it matters",
    "ask whoever organised it when the bus leaves",
]


@settings(max_examples=40, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), min_size=1, max_size=10), st.data())
def test_subtrees_union_matches_the_plain_union(pieces: list[str], data: st.DataObject) -> None:
    doc = parse(" ".join(pieces) + ".")
    picks = data.draw(st.lists(st.integers(0, len(doc) - 1), max_size=12))
    heads = [doc[i] for i in picks]
    assert _subtrees(heads) == {t.i for h in heads for t in h.subtree}
