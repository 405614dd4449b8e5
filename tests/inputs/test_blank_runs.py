"""Patterns of the input readers that open on blanks, anchored so a run of blanks is scanned once (issue 16).

Each pattern is used as its call site uses it (``.match`` right after a word, ``.match`` of a slice, ``.split``,
``.search``); the fixtures show gaps of several blanks still match and the anchors reject nothing a call site
sees. Every sentence here was written for these tests.
"""

from __future__ import annotations

import re

import pytest

from faithguard.inputs.discourse import _first_opening_end, opens_creation
from faithguard.inputs.followup import _ASK_RE
from faithguard.inputs.mention_context import TITLE_AFTER
from faithguard.inputs.missing import _BACKWARD_AFTER
from faithguard.inputs.numbered import GIVEN_AFTER
from faithguard.inputs.parsed import _HANDED_OVER
from faithguard.inputs.references import (
    _AS_WRITTEN_STOP,
    _PLACED_AFTER,
    _TOPIC_AFTER,
    _VERB_COMPLEMENT,
    _WITHIN_GAP,
)
from faithguard.inputs.supply import _TABLE_RULE_RE
from faithguard.inputs.units import _INLINE_SEP_RE


@pytest.mark.parametrize(
    "text",
    [
        "Thanks for the help.\n\n  Write a poem about rain.",
        "Some notes first\n \n\tCompose two haikus about frost.",
        "Hi!   Draft an email to my landlord.",
        "\n" * 3000 + "Write a limerick.",
    ],
)
def test_a_creation_clause_after_a_mark_or_a_blank_line_opens_creation(text: str) -> None:
    assert opens_creation(text, len(text))


@pytest.mark.parametrize(
    "text",
    ["People often write a poem when sad.", "The pen a friend gave me is blue.", " " * 3000 + "write a poem"],
)
def test_a_creation_verb_inside_a_sentence_opens_nothing(text: str) -> None:
    assert not opens_creation(text, len(text))


def test_the_clause_ends_after_its_article_whatever_the_blank_lines_before_it() -> None:
    for gap in ("\n", "\n\n", " \n \n ", ".\n\n\t"):
        text = f"Intro{gap}Write a poem"
        assert _first_opening_end(text) == text.index(" poem")


_WHICH_ASK = next(rx for rx, _ in _ASK_RE if rx.pattern.startswith("^\\W*"))


@pytest.mark.parametrize("text", ["Which article?", "  -- Sure, which document?", "... of course -- which poem?"])
def test_a_which_question_opening_the_reply_asks(text: str) -> None:
    assert _WHICH_ASK.search(text) is not None


@pytest.mark.parametrize("text", ["I wonder which article?", "Sure, which one do you like?"])
def test_a_which_question_later_in_the_reply_is_not_this_ask(text: str) -> None:
    assert _WHICH_ASK.search(text) is None


@pytest.mark.parametrize("after", [' "Dune"', ' : "Dune" by Herbert', "  :  “Dune”", ', "Dune"', " Dune by Herbert"])
def test_a_title_after_the_noun(after: str) -> None:
    assert TITLE_AFTER.match(after) is not None


@pytest.mark.parametrize("after", [" about sand", " :  about sand", " " * 3000 + ":" + " " * 3000 + "x"])
def test_no_title_after_the_noun(after: str) -> None:
    assert TITLE_AFTER.match(after) is None


@pytest.mark.parametrize("after", [' : "Great phone, bad battery"', ",  'works fine' and", " 4, 8, 15 and 16"])
def test_the_noun_s_own_content_follows_it(after: str) -> None:
    assert GIVEN_AFTER.match(after) is not None


@pytest.mark.parametrize("after", [" about the phone", " :  the phone", " " * 3000 + ", " + " " * 3000 + "x"])
def test_no_content_follows_the_noun(after: str) -> None:
    assert GIVEN_AFTER.match(after) is None


def _after_word(pattern: re.Pattern[str], text: str, word: str) -> re.Match[str] | None:
    # The call sites match right after a word of the text (a reference's or a token's end).
    return pattern.match(text, text.index(word) + len(word))


@pytest.mark.parametrize("text", ["Follow the request above.", "Follow the request \n  above.", "the prompt preceding"])
def test_a_pointer_back_after_the_noun(text: str) -> None:
    noun = "request" if "request" in text else "prompt"
    assert _after_word(_BACKWARD_AFTER, text, noun) is not None


@pytest.mark.parametrize("text", ["Follow the request below.", "Follow the request aboveboard."])
def test_no_pointer_back_after_the_noun(text: str) -> None:
    assert _after_word(_BACKWARD_AFTER, text, "request") is None


@pytest.mark.parametrize(
    ("text", "verb"),
    [
        ("Fix the essay I sent.", "sent"),
        ("Fix the essay\n  that we have pasted", "pasted"),
        ("the bio I wrote", "wrote"),
    ],
)
def test_a_clause_hands_the_item_over(text: str, verb: str) -> None:
    noun = "essay" if "essay" in text else "bio"
    clause = _after_word(_HANDED_OVER, text, noun)
    assert clause is not None and clause.group("verb") == verb


@pytest.mark.parametrize("text", ["Fix the essay I sent to Berlin.", "Fix the essay you sent."])
def test_no_clause_hands_the_item_over(text: str) -> None:
    assert _after_word(_HANDED_OVER, text, "essay") is None


@pytest.mark.parametrize("text", ["Use the plan described below.", "Use the plan   above, and", "Use the plan\nbelow"])
def test_a_phrase_placed_by_the_request(text: str) -> None:
    assert _after_word(_PLACED_AFTER, text, "plan") is not None


@pytest.mark.parametrize("text", ["Walk the river below the dam.", "Use the plan belowground."])
def test_a_place_is_not_placed_by_the_request(text: str) -> None:
    noun = "river" if "river" in text else "plan"
    assert _after_word(_PLACED_AFTER, text, noun) is None


def test_a_part_of_gap_between_two_references() -> None:
    text = "List the findings  of \n the report."
    start, end = text.index("findings") + len("findings"), text.index("the report")
    assert _WITHIN_GAP.fullmatch(text, start, end) is not None
    other = "List the findings in the report."
    start, end = other.index("findings") + len("findings"), other.index("the report")
    assert _WITHIN_GAP.fullmatch(other, start, end) is None


def test_what_follows_a_noun_or_a_participle() -> None:
    assert _after_word(_TOPIC_AFTER, "the debate   over nuclear power", "debate") is not None
    assert _after_word(_TOPIC_AFTER, "the debate overall", "debate") is None
    assert _TOPIC_AFTER.match(" \n about jokes") is not None  # a slice after the noun
    assert _after_word(_AS_WRITTEN_STOP, "count the minutes  until the bus", "minutes") is not None
    assert _after_word(_AS_WRITTEN_STOP, "condense the minutes we took", "minutes") is None
    assert _AS_WRITTEN_STOP.match("  of history") is not None
    assert _after_word(_VERB_COMPLEMENT, "my landlord asking \t to fix it", "asking") is not None
    assert _after_word(_VERB_COMPLEMENT, "my landlord asking questions", "asking") is None


@pytest.mark.parametrize("body", ["| a | b |\n|---|---|", "| a | b |\n  |  :--- | --- |", "  a | b\n \t---|---"])
def test_a_table_rule_row(body: str) -> None:
    assert _TABLE_RULE_RE.search(body) is not None


@pytest.mark.parametrize("body", ["| a | b |\n| c | d |", "| a | b |\n| - | - |", " " * 3000 + "|" + " " * 3000])
def test_no_table_rule_row(body: str) -> None:
    assert _TABLE_RULE_RE.search(body) is None


@pytest.mark.parametrize(
    ("body", "parts"),
    [
        ("tides, erosion and dunes", ["tides", "erosion", "dunes"]),
        ("tides ,  erosion ; and dunes", ["tides", "erosion", "dunes"]),
        ("tides, , erosion", ["tides", "erosion"]),
        ("tides\t or \n dunes", ["tides", "dunes"]),
        ("sandy beaches", ["sandy beaches"]),
    ],
)
def test_an_inline_list_splits_at_its_separators(body: str, parts: list[str]) -> None:
    assert [p for p in _INLINE_SEP_RE.split(body) if p.strip()] == parts
