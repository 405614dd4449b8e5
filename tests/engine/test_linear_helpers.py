"""Helpers that read a request once instead of once per rule give what the per-rule reading gave (issue 16: a request
of hundreds of counted rules or questions was quadratic)."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from faithguard.engine.tentative import _spots_of

_BITS = st.sampled_from(["3", "33", "three", "3.5", "x3", " ", ".", "_", "-", "word", "Three", "\n", "é"])


@settings(max_examples=400, deadline=None)
@given(
    text=st.lists(_BITS, max_size=20).map("".join),
    form=st.sampled_from(["3", "three", "33", "3.5"]),
    a=st.integers(0, 60),
    b=st.integers(0, 60),
)
def test_a_count_stands_where_the_slice_search_finds_it(text: str, form: str, a: int, b: int) -> None:
    low = text.lower()
    start, end = min(a, b), max(a, b)
    expected = [start + m.start() for m in re.finditer(rf"(?<![\w.]){re.escape(form)}(?![\w.])", low[start:end])]
    assert _spots_of(low, form, start, end) == expected


_SENTENCES = st.sampled_from(["Write a poem.", "Then stop!", "Why?", "Use 3 words", "\n\n", "  ", "Ok."])


@settings(max_examples=60, deadline=None)
@given(parts=st.lists(_SENTENCES, min_size=1, max_size=8), at=st.integers(-2, 120))
def test_the_sentence_at_a_point_is_the_one_a_walk_finds(parts: list[str], at: int) -> None:
    from faithguard.nlp import parse, sentence_at

    doc = parse(" ".join(parts))
    expected = next((s for s in doc.sents if s.start_char <= at < s.end_char), None)
    found = sentence_at(doc, at)
    assert (found.start, found.end) == (expected.start, expected.end) if expected is not None else found is None
