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


# --- pasted blocks after a colon: counts read once (engine/content.py) -----------------------------------------------
_BLOCK_BITS = st.sampled_from(
    [
        "Summarise this:\n",
        "Word:\n",
        "1. item\n",
        "- point\n",
        "Why?\n",
        "\n",
        "\n\n",
        "  \n",
        "You must stop.\n",
        "The plan grows slowly and the river runs on.\n",
        "Fix it.\n",
        "\r\n",
        "See the plan described below.\n\n",
        "Is it ok? ",
        "the dog sleeps ",
        "Close the door. ",
        "The committee met on a cold morning and talked about the budget, the roads and the library for hours. ",
        "The council says you can park there on Sundays, and the shops open late in the summer months. ",
    ]
)


def _colon_blocks_reference(text: str, doc: object | None) -> list[tuple[int, int]]:
    """The reading before session 19: each block split and searched again, its tokens walked (the definition)."""
    from faithguard.engine.content import _ITEM, _LABEL_LINE, BLOCK_MIN_WORDS, _block_starts, _words

    def addresses(start: int, end: int) -> bool:
        span = doc.char_span(start, end, alignment_mode="expand")  # type: ignore[attr-defined]
        if span is None:
            return False
        for tok in span:
            if tok.lower_ in ("you", "your", "yours", "yourself"):
                return True
            if (
                tok.dep_ == "ROOT"
                and tok.tag_ == "VB"
                and not any(c.dep_ in ("nsubj", "nsubjpass") for c in tok.children)
            ):
                return True
        return False

    for start in _block_starts(text):
        block = text[start:]
        lines = [ln for ln in block.splitlines() if ln.strip()]
        if not lines or _words(block) < BLOCK_MIN_WORDS:
            continue
        if sum(1 for ln in lines if _ITEM.match(ln)) >= 2:
            continue
        if sum(1 for ln in lines if ln.rstrip().endswith("?")) >= max(1, len(lines) // 2):
            continue
        end = len(text)
        paragraphs = list(re.finditer(r"\n[ \t]*\n", block))
        if paragraphs:
            tail = block[paragraphs[-1].end() :]
            if 0 < _words(tail) <= 40 and not _LABEL_LINE.match(tail) and "\n" not in tail.strip():
                end = start + paragraphs[-1].start()
        if doc is not None and addresses(start, end):
            continue
        return [(start, end)]
    return []


_PROSE = st.sampled_from(
    [
        "The committee met on a cold morning and talked about the budget, the roads and the library for hours. ",
        "The council says you can park there on Sundays, and the shops open late in the summer months. ",
        "Rain fell over the valley for three days while the farmers waited for the river to go down again.\n",
    ]
)


@settings(max_examples=150, deadline=None)
@given(
    head=st.lists(_BLOCK_BITS, max_size=8),
    prose=st.lists(_PROSE, max_size=3),
    tail=st.lists(_BLOCK_BITS, max_size=12),
    parsed=st.booleans(),
)
def test_colon_blocks_read_once_give_what_the_walk_gave(
    head: list[str], prose: list[str], tail: list[str], parsed: bool
) -> None:
    from faithguard.engine.content import _colon_blocks
    from faithguard.nlp import parse

    text = "".join(head) + "".join(prose) + "".join(tail)
    doc = parse(text) if parsed else None
    assert [(b.start, b.end) for b in _colon_blocks(text, doc)] == _colon_blocks_reference(text, doc)
