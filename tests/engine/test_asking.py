"""A question about a form is not a request for it (engine/asking.py). Sentences written for this project."""

from __future__ import annotations

import pytest

from faithguard import Guard
from faithguard.engine.asking import asks_about
from faithguard.nlp import parse


def _at(text: str, word: str) -> bool:
    return asks_about(parse(text), text.index(word))


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("Is it weird to write emails in all lowercase?", "lowercase"),
        ("Why do recipes list ingredients as bullet points?", "bullet"),
        ("Should the footer say 'Thanks for reading' or nothing at all?", "Thanks"),
        ("Do you think a 300 word limit is too strict for a cover letter?", "300"),
        ("How many paragraphs does a typical op-ed have?", "paragraphs"),
    ],
)
def test_a_question_about_a_form_asks_about_it(text: str, word: str) -> None:
    assert _at(text, word)


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("Can you write the toast in all lowercase?", "lowercase"),
        ("Could it be under 80 words?", "80"),
        ("Would you put the steps in 4 bullet points?", "bullet"),
        ("Answer in French?", "French"),
        ("Describe a lighthouse in 3 sentences.", "3"),
        ("Repeat this request first, then answer it in under 60 words: Why is the sky blue?", "60"),
    ],
)
def test_a_request_is_no_question_about(text: str, word: str) -> None:
    assert not _at(text, word)


def test_the_guard_reads_no_constraint_from_a_question_about_a_form() -> None:
    guard = Guard(judge=None)
    about = guard.inspect("Is it weird to write emails in all lowercase?")
    asked = guard.inspect("Can you write the toast in all lowercase?")
    assert not [c for c in about.constraints if c.verifier == "change_case:english_lowercase"]
    assert [c for c in asked.constraints if c.verifier == "change_case:english_lowercase"]


def test_a_question_mark_of_the_answer_s_own_phrase_is_no_question() -> None:
    text = "Name three board games. Finish with the exact phrase Is that all you need?"
    doc = parse(text)
    at = text.index("Finish")
    assert asks_about(doc, at)  # read alone, the parser makes the phrase the sentence's question
    assert not asks_about(doc, at, ((text.index("Is that"), len(text)),))


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
