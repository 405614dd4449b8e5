"""Every DependencyMatcher spec of ``inputs/specs/syntax.json`` against its own fixtures (one parametrised test)."""

from __future__ import annotations

import pytest

from faithguard.inputs.syntax import anchors, load_specs
from faithguard.nlp import parse

ROWS = [
    (spec.name, polarity, text, word)
    for spec in load_specs()
    for polarity, rows in (("positive", spec.positive), ("negative", spec.negative))
    for text, word in rows
]


def test_every_spec_has_both_polarities_and_a_reason() -> None:
    for spec in load_specs():
        assert spec.why and spec.positive and spec.negative, spec.name


@pytest.mark.parametrize(
    ("name", "polarity", "text", "word"), ROWS, ids=[f"{r[0]}-{r[1]}-{i}" for i, r in enumerate(ROWS)]
)
def test_syntax_fixture(name: str, polarity: str, text: str, word: str) -> None:
    doc = parse(text)
    offsets = [t.idx for t in doc if t.text == word]
    assert offsets, f"fixture word {word!r} not a token of {text!r}"
    hit = bool(set(offsets) & anchors(doc).get(name, set()))
    assert hit is (polarity == "positive"), (name, text, [(t.text, t.tag_, t.dep_, t.head.i) for t in doc])
