"""Finding a term's mentions from the answer's word index gives what a search over the whole answer gives (issue 16:
a request's hundreds of terms were each searched through a long answer, seconds per check)."""

from __future__ import annotations

import re

from hypothesis import example, given, settings
from hypothesis import strategies as st

from faithguard.terms.acceptance import find_mentions, mention_pattern
from faithguard.terms.normalize import acronym, contains_term


def _by_search(text: str, term: str) -> list[tuple[int, int]]:
    """The definition: the term's pattern searched through the whole text, plus its acronym."""
    pattern = mention_pattern(term)
    if pattern is None:
        return []
    spans = [(m.start(), m.end()) for m in pattern.finditer(text)]
    acr = acronym(term)
    if acr is not None and len(acr) >= 3:
        spans.extend((m.start(), m.end()) for m in re.finditer(r"\b" + re.escape(acr) + r"s?\b", text))
    return sorted(set(spans))


# letters that fold in unusual ways (dotless and dotted i, long s, the Kelvin sign, sharp s), word joiners, digits
_PIECES = st.sampled_from(
    [
        "city",
        "cities",
        "Nano",
        "sync",
        "NANO-SYNC",
        "ı",
        "İ",
        "I",
        "ſ",
        "s",
        "K",
        "k",
        "ß",
        "ss",
        "_",
        "-",
        " ",
        ".",
        "(x)",
        "2",
        "two",
        "Fusion",
        "technology",
        "NSF",
        "NSFT",
    ]
)


@settings(max_examples=400, deadline=None)
@given(text=st.lists(_PIECES, max_size=14).map("".join), term=st.lists(_PIECES, min_size=1, max_size=4).map("".join))
@example(text="Nano-Sync Fusion Technology (NSFT) and nano_sync", term="Nano-Sync Fusion Technology")
@example(text="ſity cıty CITIES", term="city")
@example(text="Kelvin kelvin", term="kelvin")
@example(text="cities cities", term="cities cities")
def test_mentions_from_the_word_index_are_the_mentions_a_search_finds(text: str, term: str) -> None:
    padded = text + " filler words" * 400  # long enough for the word index (short texts are searched whole)
    assert find_mentions(padded, term) == _by_search(padded, term)
    assert find_mentions(text, term) == _by_search(text, term)


def test_a_term_is_found_in_one_text_asked_many_times() -> None:
    text = "The Nano-Sync Fusion Technology was announced. " * 50 + "Its cities grew."
    for _ in range(3):
        assert contains_term(text, "nano sync fusion technology") and contains_term(text, "city")
        assert not contains_term(text, "quantum foam")
    at = text.index("cities")
    assert find_mentions(text, "city") == [(at, at + 6)]
