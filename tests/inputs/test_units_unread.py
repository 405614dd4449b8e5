"""A paragraph too short for the caller's unit is not read (issue 16: a history of 2,000 one-line turns parsed every
line), and what the caller keeps is what a full reading gives."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from faithguard.inputs.supply import scan
from faithguard.inputs.units import free_units

_PARAGRAPHS = st.sampled_from(
    [
        "Next part 12.",
        "## Background",
        "Notes:",
        "Here is the draft:",
        "Hi Sam, thanks for the notes on the launch plan.",
        "Please rewrite it in a friendly tone.",
        "1. Council backs bike lanes\n2. Park reopens",
        "The committee met on Tuesday and agreed to fund the new library wing, with work starting in the spring.",
        "Dear team,",
        "Done.",
        "Can you summarize it?",
    ]
)


def _kept(units: list, min_words: int) -> list:
    return [(u.origin, u.start, u.end, u.words) for u in units if not (u.origin == "paragraph" and u.words < min_words)]


@settings(max_examples=60, deadline=None)
@given(
    paragraphs=st.lists(_PARAGRAPHS, min_size=1, max_size=7),
    min_words=st.sampled_from([0, 5, 20]),
    promised=st.booleans(),
)
def test_units_kept_by_the_caller_are_the_same_read_or_not(
    paragraphs: list[str], min_words: int, promised: bool
) -> None:
    sc = scan("\n\n".join(paragraphs))
    full = free_units(sc, promised=promised)
    short = free_units(sc, promised=promised, min_words=min_words)
    assert _kept(short, min_words) == _kept(full, min_words)


_BITS = st.sampled_from(
    [
        "the ",
        "The ",
        "this  ",
        "that\n",
        "Background",
        "background_x",
        "Kelvin",
        "K",
        "(Draft)",
        " ",
        ".",
        "notes",
        "Notes:",
        "é",
        "ı",
    ]
)


@settings(max_examples=300, deadline=None)
@given(
    text=st.lists(_BITS, max_size=16).map("".join),
    name=st.sampled_from(["Background", "Kelvin", "(Draft)", "Notes", "background notes", "ılık", "x"]),
)
def test_definite_mentions_from_the_index_are_those_a_search_finds(text: str, name: str) -> None:
    import re

    from faithguard.inputs.supply import _DefiniteIndex

    pattern = re.compile(rf"\b(?:the|this|that)\s+{re.escape(name)}\b", re.I)
    assert _DefiniteIndex(text).mentions(name) == [m.span() for m in pattern.finditer(text)]
