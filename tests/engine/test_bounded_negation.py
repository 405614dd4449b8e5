"""The tokens under a negation, read from the kept children's subtrees (linear on run-on requests), are the ones the
walk over the head's whole subtree gave. Sentences built from pieces written for this project."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from faithguard.engine.roles import _negation_tokens
from faithguard.nlp import parse


def _by_walk(neg: Any) -> list[Any]:
    head = neg.head
    skip: set[int] = set()
    nominal = head.pos_ in ("NOUN", "PROPN")
    for c in head.children:
        if nominal and c.dep_ in ("conj", "cc") and c.i > neg.i:
            continue
        if c.dep_ in ("conj", "cc", "nsubj", "nsubjpass", "mark", "relcl") or (c.dep_ == "punct" and c.i > neg.i):
            skip |= {t.i for t in c.subtree}
    return [t for t in head.subtree if t.i >= neg.i and t.i not in skip]


_PIECES = [
    "never use square brackets",
    "do not mention Paris or Rome",
    "avoid the word cheap",
    "don't write more than 50 words",
    "and keep it friendly",
    "but never use commas, which annoy my boss",
    "not in French",
]


@settings(max_examples=40, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), min_size=1, max_size=12))
def test_negation_tokens_match_the_walk(pieces: list[str]) -> None:
    doc = parse(" and ".join(pieces) + ".")
    for tok in doc:
        if tok.dep_ == "neg":
            assert [t.i for t in _negation_tokens(tok)] == [t.i for t in _by_walk(tok)]
