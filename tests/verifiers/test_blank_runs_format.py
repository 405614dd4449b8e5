"""Highlight, end-phrase and first-word patterns of detect_format, anchored so a run of blanks is scanned once
(issue 16). Each is used as its call site uses it; every request here was written for these tests.
"""

from __future__ import annotations

import pytest

from faithguard.verifiers.detect_format import _DIRECT_COUNT, _JOINED_VERB, _NOTHING_AFTER, _WORD_IS


def _joined_end(text: str, verb: str) -> int:
    # as _detect_highlights reads it: after the first verb, every verb joined to it
    end = text.index(verb) + len(verb)
    while (joined := _JOINED_VERB.match(text, end)) is not None:
        end = joined.end()
    return end


@pytest.mark.parametrize(
    ("text", "last"),
    [
        ("Bold or italicize three terms.", "italicize"),
        ("Bold, and/or highlight three terms.", "highlight"),
        ("Bold ,or emphasize three terms.", "emphasize"),
        ("Bold\n\n or italicize, or highlight three terms.", "highlight"),
    ],
)
def test_joined_highlight_verbs(text: str, last: str) -> None:
    assert _joined_end(text, "Bold") == text.index(last) + len(last)


@pytest.mark.parametrize("text", ["Bold and then list three terms.", "Bold, or not.", "Bold  orange words."])
def test_no_joined_highlight_verb(text: str) -> None:
    assert _joined_end(text, "Bold") == len("Bold")


@pytest.mark.parametrize(
    ("text", "n"),
    [("Bold at least 2 terms.", "2"), ("Bold \t the three terms.", "three"), ("Bold   no more than 4 words.", "4")],
)
def test_a_count_right_after_the_verb(text: str, n: str) -> None:
    direct = _DIRECT_COUNT.match(text, len("Bold"))
    assert direct is not None and direct.group("n") == n


@pytest.mark.parametrize("text", ["Bold\n2 terms.", "Bold important terms.", "Bold" + " " * 3000 + "terms"])
def test_no_count_right_after_the_verb(text: str) -> None:
    assert _DIRECT_COUNT.match(text, len("Bold")) is None


@pytest.mark.parametrize(
    ("phrase", "kept"),
    [
        ("See you soon,  nothing after it.", "See you soon"),
        ("See you soon  -- nothing more.", "See you soon"),
        ("See you soon\u2014no more words after that.", "See you soon"),
        ("See you soon ; and nothing else.", "See you soon"),
        ("Nothing else matters.", "Nothing else matters."),
        ("See you soon, my friend.", "See you soon, my friend."),
    ],
)
def test_a_remark_that_nothing_follows_is_cut_from_the_end_phrase(phrase: str, kept: str) -> None:
    assert _NOTHING_AFTER.sub("", phrase) == kept


@pytest.mark.parametrize(
    ("after", "word"),
    [
        (" should be 'therefore'", "therefore"),
        ("   is   \u201cHowever\u201d", "However"),
        (" must\tbe 'Hence'", "Hence"),
    ],
)
def test_the_first_word_is_named(after: str, word: str) -> None:
    named = _WORD_IS.match(after)
    assert named is not None and named.group("w") == word


@pytest.mark.parametrize("after", [" must be a verb", " should be short", " " * 3000 + "be x"])
def test_no_first_word_is_named(after: str) -> None:
    assert _WORD_IS.match(after) is None
