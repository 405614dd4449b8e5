"""The linear rewrites of IFEval checks and of the sentence split give the results of the patterns they replace
(issue 16): the reference patterns are IFEval's own, run here on short texts, where their cost does not matter."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from faithguard.verifiers.check_ifeval import CHECKS, _bracketed, _titles
from faithguard.verifiers.text import split_sentences

_TEXTS = st.text(alphabet="ab [].<>*-\nPps!?\"'", max_size=80)
_PROSE = st.lists(
    st.sampled_from(
        ["Mr.", "e.g.", "A.", "B", "word", "Word", "...", "x.", "end.", "Yes!", "why?", '"Go."', " ", "\n"]
    ),
    max_size=25,
).map(" ".join)


@settings(max_examples=400, deadline=None)
@given(_TEXTS)
def test_bracketed_counts_what_the_ifeval_pattern_finds(text: str) -> None:
    assert _bracketed(text) == len(re.findall(r"\[.*?\]", text))


@settings(max_examples=400, deadline=None)
@given(_TEXTS)
def test_titles_are_what_the_ifeval_pattern_finds(text: str) -> None:
    assert _titles(text) == re.findall(r"<<[^\n]+>>", text)


@settings(max_examples=400, deadline=None)
@given(_TEXTS)
def test_bullets_and_postscript_decide_as_the_ifeval_patterns(text: str) -> None:
    bullets = CHECKS.items()
    checks = dict(bullets)
    stars = re.findall(r"^\s*\*[^\*].*$", text, flags=re.MULTILINE)
    dashes = re.findall(r"^\s*-.*$", text, flags=re.MULTILINE)
    want = len(stars) + len(dashes)
    outcome = checks["detectable_format:number_bullet_lists"]({"num_bullets": want}, text)
    assert str(outcome.status) in ("satisfied", "Status.SATISFIED")
    found = re.search(r"\s*p\.\s?s\..*$", text.lower(), flags=re.MULTILINE) is not None
    ps = checks["detectable_content:postscript"]({"postscript_marker": "P.S."}, text)
    assert (str(ps.status) in ("satisfied", "Status.SATISFIED")) is found


def _split_reference(text: str) -> list[str]:
    """The sentence split as written before the linear rewrite (the same rules, re-searching the text)."""
    from faithguard.verifiers.text import _ABBREVIATIONS

    sentences: list[str] = []
    start = 0
    for m in re.finditer(r"[.?!]+[\"'”’)\]]*(?=\s+\S)", text):
        end = m.end()
        punct = m.group(0)
        if punct.startswith(".") and not punct.startswith(".."):
            last = re.search(r"([\w.]+)$", text[start : m.start()])
            word = last.group(1).lower() if last else ""
            if word in _ABBREVIATIONS:
                continue
            if len(word) == 1 and word.isalpha() and text[end:].lstrip()[:1].isupper():
                continue
        elif punct.startswith("..") and text[end:].lstrip()[:1].islower():
            continue
        chunk = text[start:end].strip()
        if chunk:
            sentences.append(chunk)
        start = end
    tail = text[start:].strip()
    if tail:
        sentences.append(tail)
    return sentences


def test_a_line_break_before_a_period_still_reads_the_word_before_it() -> None:
    for text in ("We chose plan A\n. Then we left.", "See e.g\n. This one.", "Done\n\n. Next one."):
        assert split_sentences(text) == _split_reference(text)


@settings(max_examples=500, deadline=None)
@given(st.one_of(_PROSE, _TEXTS))
def test_split_sentences_matches_the_reference_split(text: str) -> None:
    assert split_sentences(text) == _split_reference(text)
