"""The phrase naming material a request lacks, modifiers and clauses included (inputs/described.py), and the
constraints read from it, which describe the input and are never checked against the answer (fixtures here, written
for these rules)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from faithguard import Guard, Status
from faithguard.inputs.described import with_spans
from faithguard.nlp import parse


def _span(query: str, reference: str) -> str | None:
    (found,) = with_spans([{"reference": reference}], query, parse)
    span = found.get("span")
    return None if span is None else query[span[0] : span[1]]


@pytest.mark.parametrize(
    ("query", "reference", "phrase"),
    [
        # the reference's own words, then its modifiers and the clause after its head
        ("Please tidy up the three meeting notes before lunch.", "the three meeting notes", "the three meeting notes"),
        ("Can you shorten this 2-page memo for the board?", "this memo", None),  # words not contiguous: no span
        # the part of the missing whole is named with it
        ("Tighten the 3 paragraphs of my cover letter.", "my cover letter", "the 3 paragraphs of my cover letter"),
        # after the head, only numbers and an "of" chain: a parser hangs the answer's instructions there too
        ("Translate the flyer my neighbour left on Friday into Polish.", "the flyer", "the flyer"),
        (
            "Check section 4 of our tenancy agreement for a break clause.",
            "section 4",
            "section 4 of our tenancy agreement",
        ),
        (
            "Rate the two sketches / the caption for a school contest.",
            "the two sketches / the caption",
            "the two sketches / the caption",
        ),
        (
            "Tidy our team's three old status notes for a newsletter.",
            "status notes",
            "our team's three old status notes",
        ),
    ],
)
def test_the_phrase_around_the_reference(query: str, reference: str, phrase: str | None) -> None:
    assert _span(query, reference) == phrase


@pytest.mark.parametrize(
    "query", ["Old voicemail from my dentist: what should I say back?", "Voicemail from my dentist - reply in Welsh"]
)
def test_a_fragment_headed_by_the_noun_leaves_the_instruction_out(query: str) -> None:
    phrase = _span(query, "voicemail")
    assert phrase is not None and phrase.lower().endswith("voicemail")


def test_words_the_query_does_not_hold_get_no_span() -> None:
    (found,) = with_spans([{"reference": "the policy text"}], "Is this allowed under the rules?", parse)
    assert "span" not in found


QUERY = "Compare the two vendor quotes and tell me which one is cheaper over the full 3-year term."
ANSWER = (
    "To compare total cost, put each quote's one-time and recurring fees side by side, then add them up for every "
    "year of the term and compare the totals."
)


def test_a_count_of_the_missing_material_is_not_an_instruction_the_answer_missed() -> None:
    report = Guard(judge=None).check(QUERY, ANSWER)
    two = next(c for c in report.constraints if c.text == "two")
    assert two.status is Status.UNKNOWN and two.reason == "describes material the request refers to but lacks"
    assert not any("'two'" in v.explanation for v in report.verdicts if v.kind == "omission")


def test_with_the_material_supplied_the_count_is_read_as_usual() -> None:
    quotes = ["Quote A from Northwind: setup 5,000 dollars, then 1,200 a month.", "Quote B from Helix: 1,500 a month."]
    report = Guard(judge=None).check(QUERY, ANSWER, documents=quotes)
    two = next(c for c in report.constraints if c.text == "two")
    assert two.reason != "describes material the request refers to but lacks"


@pytest.mark.parametrize(
    "query",
    [
        "Summarize the 3 paragraphs I pasted.",  # a paragraph count read into a verifier
        "Tighten the 3 paragraphs of my cover letter.",  # the part of the missing letter is missing with it
    ],
)
def test_a_count_read_into_a_verifier_inside_the_phrase_is_unknown_too(query: str) -> None:
    answer = "Could you paste them? They did not come through on my side, so I have nothing to work from yet."
    report = Guard(judge=None).check(query, answer)
    three = next(c for c in report.constraints if c.text == "3")
    assert three.verifier is not None  # the decomposer read "3 paragraphs" as a count for the answer
    assert three.status is Status.UNKNOWN and three.reason == "describes material the request refers to but lacks"


def test_the_answer_s_own_count_is_still_checked() -> None:
    report = Guard(judge=None).check("Critique the 4 sketches from my art class in two sentences.", "Nice work.")
    two = next(c for c in report.constraints if "two sentences" in c.text)
    assert two.reason != "describes material the request refers to but lacks"


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(query=st.text(min_size=0, max_size=120), cut=st.integers(min_value=0, max_value=120), size=st.integers(0, 30))
def test_any_query_and_reference_give_a_span_inside_the_query(query: str, cut: int, size: int) -> None:
    reference = query[cut : cut + size]
    (found,) = with_spans([{"reference": reference}], query, parse)
    if "span" in found:
        start, end = found["span"]
        assert 0 <= start <= end <= len(query)
