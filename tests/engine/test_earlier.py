"""A count told of the earlier answer is no constraint (engine/earlier.py). Sentences written for this project."""

from __future__ import annotations

import pytest

from faithguard import Guard
from faithguard.engine.earlier import narrated
from faithguard.nlp import parse


def test_narrated_reads_the_past_of_the_assistant_or_its_answer() -> None:
    told = "Last time you wrote 400 words."
    assert narrated(parse(told), told.index("400"))
    asked = "Write 400 words about the harbour."
    assert not narrated(parse(asked), asked.index("400"))
    other = "A man who ran 100 miles came home."
    assert not narrated(parse(other), other.index("100"))


@pytest.mark.parametrize(
    "text",
    [
        "Could you keep it under 80 words?",
        "What are the top 3 benefits of yoga, in under 50 words?",
        "Is it rude to type in all caps? Either way, please answer in all caps.",
    ],
)
def test_questions_keep_their_forms(text: str) -> None:
    assert [c for c in Guard(judge=None).inspect(text).constraints if c.verifier]


@pytest.mark.parametrize(
    ("text", "verifier"),
    [
        ("Last time you wrote over 400 words; trim the story for my niece.", "length_constraints:number_words"),
        (
            "Your previous reply had 9 bullet points and felt cluttered. Redo the packing tips.",
            "detectable_format:number_bullet_lists",
        ),
    ],
)
def test_a_count_told_of_the_earlier_answer_is_no_constraint(text: str, verifier: str) -> None:
    report = Guard(judge=None).inspect(text)
    assert not [c for c in report.constraints if c.verifier == verifier]


@pytest.mark.parametrize(
    ("text", "verifier"),
    [
        ("Write a tale about a knight who rode 300 miles, in exactly 4 paragraphs.", "creative:paragraphs"),
        ("Describe the sea in fewer than 60 words.", "length_constraints:number_words"),
    ],
)
def test_a_count_of_this_answer_stays(text: str, verifier: str) -> None:
    report = Guard(judge=None).inspect(text)
    assert [c for c in report.constraints if c.verifier == verifier]


@pytest.mark.parametrize(
    ("text", "verifier"),
    [
        ("You should have kept it under 90 words. Describe the comet again.", "length_constraints:number_words"),
        (
            "You used under 70 words last time. Use under 70 words again for the owl fact sheet.",
            "length_constraints:number_words",
        ),
    ],
)
def test_a_count_asked_again_or_under_a_modal_stays(text: str, verifier: str) -> None:
    assert [c for c in Guard(judge=None).inspect(text).constraints if c.verifier == verifier]
