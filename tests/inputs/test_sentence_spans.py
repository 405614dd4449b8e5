"""Sentences of the request's scan: the period of an abbreviation ends no sentence before a lower-case word or a
number, nor a title's before a name (inputs/supply.py ``sentence_spans``). Sentences written for this test."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from faithguard.detector import CallContext
from faithguard.inputs.missing import analyse
from faithguard.inputs.supply import sentence_spans
from faithguard.nlp import parse


def _sentences(text: str) -> list[str]:
    return [text[a:b].strip() for a, b in sentence_spans(text)]


@pytest.mark.parametrize(
    ("text", "sentences"),
    [
        # an abbreviation inside a sentence: a title before a name, a lower-case or numbered word after it
        ("Mrs. Okafor marked it down. Fix the intro.", ["Mrs. Okafor marked it down.", "Fix the intro."]),
        ("It was fine. Dr. Lee checked it twice.", ["It was fine.", "Dr. Lee checked it twice."]),
        ("Compare fruit, e.g. apples and pears.", ["Compare fruit, e.g. apples and pears."]),
        ("Meet at 5 p.m. then call the office.", ["Meet at 5 p.m. then call the office."]),
        ("The lease starts Jan. 4 and runs a year.", ["The lease starts Jan. 4 and runs a year."]),
        ("E.g. apples and pears are fruit.", ["E.g. apples and pears are fruit."]),
        # ordinary periods still end sentences, and so does an abbreviation's before a capitalised word, whatever it is
        ("I paid it. Then it failed.", ["I paid it.", "Then it failed."]),
        ("The shop shuts at 6 p.m. Then we go home.", ["The shop shuts at 6 p.m.", "Then we go home."]),
        ("The meeting is at 3 p.m. Tomorrow we fly.", ["The meeting is at 3 p.m.", "Tomorrow we fly."]),
        (
            "We open at 9 a.m. and close at 6 p.m. Rewrite this sentence to sound friendlier.",
            ["We open at 9 a.m. and close at 6 p.m.", "Rewrite this sentence to sound friendlier."],
        ),
        (
            "I work for Acme Inc. Please review my cover letter.",
            ["I work for Acme Inc.", "Please review my cover letter."],
        ),
        # a line break always ends one
        ("Rewrite this.\nMr. Hale will read it.", ["Rewrite this.", "Mr. Hale will read it."]),
        ("Use fruit, e.g.\napples.", ["Use fruit, e.g.", "apples."]),
        ("Ask Mr.\n\nHello there.", ["Ask Mr.", "Hello there."]),
        ("Acme Corp.\nDear Hiring Manager, hello.", ["Acme Corp.", "Dear Hiring Manager, hello."]),
    ],
)
def test_sentence_spans_keep_abbreviations_inside(text: str, sentences: list[str]) -> None:
    assert _sentences(text) == sentences


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("abcMDr. \n?!eg,1")), max_size=80))
def test_sentence_spans_partition_the_text_in_order(text: str) -> None:
    spans = sentence_spans(text)
    assert all(a < b for a, b in spans)
    assert all(b1 <= a2 for (_, b1), (a2, _) in itertools.pairwise(spans))
    assert all(text[a:b].strip() for a, b in spans)


def test_a_title_in_the_users_comment_leaves_the_material_missing() -> None:
    # the comment after the request mentions someone by title: one sentence of the user's talk, not a one-word
    # "Mrs." sentence counted as pasted material
    query = (
        "Here's my personal statement for the nursing course. Is the opening strong enough? "
        "Mrs. Adeyemi said mine rambled a bit last year."
    )
    assert analyse(CallContext(query=query), parse)


def test_a_time_before_the_request_leaves_the_sentence_supplied() -> None:
    # "6 p.m." then a new imperative sentence: the content sentence stays apart from the one that refers to it
    query = "Our bakery opens at 7 a.m. and closes at 5 p.m. Rewrite this sentence so it sounds friendlier."
    assert not analyse(CallContext(query=query), parse)
