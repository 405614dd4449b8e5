"""The term checks' per-candidate helpers read near the candidate, not the whole text, and give what a whole-text
reading gives (issue 16: a request of a thousand one-word lines took seconds; each helper is pinned to its
definition here)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from faithguard.terms.compose import _span_tokens
from faithguard.terms.detectors import _WORD, _words_before
from faithguard.terms.language import LanguageMap, _long_enough, sentence_pieces

_PIECES = st.sampled_from(["Nano", "-", "Sync", " ", "  ", "o'", "neill", "_", ".", "\n", "é", "x2", "Danke!", "?"])


@settings(max_examples=300, deadline=None)
@given(text=st.lists(_PIECES, max_size=60).map("".join), at=st.integers(0, 400), count=st.integers(1, 3))
def test_the_words_before_a_point_are_those_a_scan_from_the_start_finds(text: str, at: int, count: int) -> None:
    start = min(at, len(text))
    assert [m.span() for m in _words_before(text, start, count)] == [
        m.span() for m in list(_WORD.finditer(text, 0, start))[-count:]
    ]


def test_the_words_before_a_point_far_into_a_long_text() -> None:
    text = "word " * 5_000 + "Alpha Beta Gamma"
    at = text.index("Gamma")
    assert [m.group() for m in _words_before(text, at)] == ["Alpha", "Beta"]


@pytest.fixture(scope="module")
def parsed() -> object:
    from faithguard.nlp import parse

    return parse("The Nano-Sync  Fusion rocks. Ask O'Neill about it, then   stop.\n\nDanke!")


@settings(max_examples=200, deadline=None)
@given(a=st.integers(-3, 80), b=st.integers(-3, 80))
def test_the_tokens_inside_a_span_are_those_a_walk_over_the_parse_finds(parsed: object, a: int, b: int) -> None:
    doc = parsed
    assert _span_tokens(doc, a, b) == [t for t in doc if t.idx >= a and t.idx + len(t.text) <= b]  # type: ignore[attr-defined]


def _reference_other_language(text: str, start: int) -> str | None:
    """The definition: the sentence's own reading when long enough, else the nearest long one before, else after,
    else the whole text's."""
    from bisect import bisect_right

    from faithguard.terms.language import _other_language

    pieces = sentence_pieces(text)
    if not pieces:
        return _other_language(text)
    i = max(0, bisect_right([p[0] for p in pieces], start) - 1)
    order = [i, *range(i - 1, -1, -1), *range(i + 1, len(pieces))]
    long = next((j for j in order if _long_enough(text[pieces[j][0] : pieces[j][1]])), None)
    return _other_language(text) if long is None else _other_language(text[pieces[long][0] : pieces[long][1]])


_SENTENCES = st.sampled_from(
    [
        "Hola.",
        "Danke!",
        "Ok.",
        "Das ist ein sehr gutes Beispiel für einen deutschen Satz.",
        "This is a plain English sentence about rivers and lakes.",
        "Voici une phrase française assez longue pour lire.",
        "Qué?",
        "\n",
    ]
)


@settings(max_examples=60, deadline=None)
@given(sentences=st.lists(_SENTENCES, min_size=1, max_size=8), at=st.integers(0, 500))
def test_a_short_sentence_takes_the_reading_the_nearest_long_one_gives(sentences: list[str], at: int) -> None:
    text = " ".join(sentences)
    start = min(at, max(0, len(text) - 1))
    assert LanguageMap(text).other_language(start) == _reference_other_language(text, start)
