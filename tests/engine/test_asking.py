"""A verifiable instruction read from a question about its form is tentative (engine/asking.py): an answer that
takes the form satisfies it, one that does not leaves it unknown, never an omission. Sentences written for this
project."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from faithguard import Guard, Status
from faithguard.engine.asking import asks_about
from faithguard.nlp import parse


def _at(text: str, word: str) -> bool:
    return asks_about(parse(text), text.index(word))


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("Is it weird to write emails in all lowercase?", "Is"),
        ("Why do recipes list ingredients as bullet points?", "Why"),
        ("Should the footer say 'Thanks for reading' or nothing at all?", "Should"),
        ("Do you think a 300 word limit is too strict for a cover letter?", "Do"),
        ("How many paragraphs does a typical op-ed have?", "How"),
        # a question about a form with a clause after the comma: no aside
        ("Why are headlines written in title case, and who decided that?", "Why"),
    ],
)
def test_a_question_about_a_form_asks_about_it(text: str, word: str) -> None:
    assert _at(text, word)


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("Can you write the toast in all lowercase?", "Can"),
        ("Could it be under 80 words?", "Could"),
        ("Would you put the steps in 4 bullet points?", "Would"),
        ("Answer in French?", "Answer"),
        ("Describe a lighthouse in 3 sentences.", "Describe"),
        ("Repeat this request first, then answer it in under 60 words: Why is the sky blue?", "Repeat"),
        # an aside after a comma, a bracket or a dash, with no verb of its own, is asked
        ("What are the main causes of soil erosion, in fewer than 40 words?", "What"),
        ("How do tides work (in two sentences)?", "How"),
        ("Which planets have rings - in a bulleted list?", "Which"),
    ],
)
def test_a_request_is_no_question_about(text: str, word: str) -> None:
    assert not _at(text, word)


def test_a_question_mark_of_the_answer_s_own_phrase_is_no_question() -> None:
    text = "Name three board games. Finish with the exact phrase Is that all you need?"
    doc = parse(text)
    at = text.index("Finish")
    assert asks_about(doc, at)  # read alone, the parser makes the phrase the sentence's question
    assert not asks_about(doc, at, ((text.index("Is that"), len(text)),))


def _lowercase(guard: Guard, query: str) -> list[bool]:
    return [c.tentative for c in guard.inspect(query).constraints if c.verifier == "change_case:english_lowercase"]


def test_the_guard_reads_a_question_about_a_form_as_tentative() -> None:
    guard = Guard(judge=None)
    assert _lowercase(guard, "Is it weird to sign emails in all lowercase?") == [True]
    assert _lowercase(guard, "Can you write the toast in all lowercase?") == [False]


def test_the_same_form_asked_after_the_question_is_asserted() -> None:
    guard = Guard(judge=None)
    query = "Is it weird to sign emails in all lowercase? Either way, write my sign-off in all lowercase."
    assert _lowercase(guard, query) == [False]


def test_a_tentative_constraint_is_satisfied_or_unknown_never_violated() -> None:
    guard = Guard(judge=None)
    query = "Is it odd to text a landlord in all lowercase?"
    fails = guard.check(query, "It is fine, as long as the message is clear and polite.")
    holds = guard.check(query, "it is fine, as long as the message is clear and polite.")
    failed = next(c for c in fails.constraints if c.verifier == "change_case:english_lowercase")
    held = next(c for c in holds.constraints if c.verifier == "change_case:english_lowercase")
    assert failed.tentative and failed.status is Status.UNKNOWN and "tentative" in (failed.reason or "")
    assert held.status is Status.SATISFIED
    assert not [v for v in fails.verdicts if v.kind == "omission"]
    asked = guard.check("Can you text my landlord in all lowercase?", "Dear landlord, the sink leaks.")
    assert next(c for c in asked.constraints if c.verifier == "change_case:english_lowercase").status is (
        Status.VIOLATED
    )


@settings(max_examples=60, deadline=None)
@given(st.text(alphabet=st.sampled_from("ab ?,;:(-)\u2014Is it you can"), max_size=80), st.integers(0, 100))
def test_asks_about_reads_any_text_and_position(text: str, pos: int) -> None:
    doc = parse(text)
    assert asks_about(doc, pos) in (True, False)
