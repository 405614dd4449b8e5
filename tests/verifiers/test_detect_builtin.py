"""Reconciling the built-in finders: specific readings win, content statements yield no constraint."""

from __future__ import annotations

import pytest

from faithguard.verifiers import detect
from faithguard.verifiers.detect_builtin import SENTENCE_COVERAGE, _describes_own_text
from faithguard.verifiers.spec import make_spec


def _ids(query: str) -> set[str]:
    return {s.verifier for s in detect(query)}


def test_threshold_value() -> None:
    assert 0.5 < SENTENCE_COVERAGE < 1.0


@pytest.mark.parametrize(
    ("query", "kept", "dropped"),
    [
        # A whole-sentence specific instruction explains its sentence: no keyword/ending readings of it.
        ("Use only words with lengths that are prime numbers.", {"words:prime_lengths"}, {"keywords:existence"}),
        (
            "Each paragraph must end with the same word it started with, separate paragraphs with a newline.",
            {"words:paragraph_last_first"},
            {"startend:end_checker"},
        ),
        ("End every line with the word 'night'.", {"creative:per_unit"}, {"startend:end_checker"}),
        # A sentence with two asks keeps the other ask (the specific match covers too little of it).
        (
            "Answer in fewer than 90 words, and make sure that each line of the poem ends with the word 'rain'.",
            {"creative:per_unit", "length_constraints:number_words"},
            set(),
        ),
    ],
)
def test_specific_reading_wins_in_its_sentence(query: str, kept: set[str], dropped: set[str]) -> None:
    ids = _ids(query)
    assert kept <= ids
    assert not (dropped & ids)


@pytest.mark.parametrize(
    ("sentence", "describes"),
    [
        ("My essay has three paragraphs.", True),
        ("I wrote 200 words about owls.", True),
        ("This poem has 14 lines.", True),
        ("The attached draft contains five sentences.", True),
        ("My essay should have three paragraphs.", False),
        ("Write an essay that has three paragraphs.", False),
        ("The poem has 14 lines.", False),  # a description of what to write, not of the user's own text
    ],
)
def test_describes_own_text(sentence: str, describes: bool) -> None:
    spec = make_spec("length_constraints:number_paragraphs", {"num_paragraphs": 3}, sentence)
    assert _describes_own_text(spec) is describes


def test_content_statement_is_not_a_constraint() -> None:
    assert _ids("My essay has three paragraphs. Which one is weakest?") == set()
    assert _ids("Write an essay with exactly three paragraphs.") & {
        "creative:paragraphs",
        "length_constraints:number_paragraphs",
    }


@pytest.mark.parametrize(
    ("query", "verifier", "params"),
    [
        (
            "Tell me about owls. Limit yourself to fifty words.",
            "length_constraints:number_words",
            {"relation": "less than", "num_words": 51},
        ),
        (
            "Describe Rome and sign off with the exact phrase 'Ciao for now.'",
            "startend:end_checker",
            {"end_phrase": "Ciao for now."},
        ),
        ("Output everything as valid JSON.", "detectable_format:json_format", {}),
        (
            "Keep your answer to at most 120 words.",
            "length_constraints:number_words",
            {"relation": "less than", "num_words": 121},
        ),
    ],
)
def test_ifeval_paraphrases(query: str, verifier: str, params: dict[str, object]) -> None:
    assert any(s.verifier == verifier and s.params == params for s in detect(query))


@pytest.mark.parametrize(
    "query",
    [
        "What is the capital of France?",
        "Write a story about a dog who loves the beach.",
        "Summarize the article below in plain words.",
        "I wrote fifty words yesterday; can you check my grammar?",
        "How do I write a JSON parser in Rust?",
        "Explain the word limit rules of the contest.",
    ],
)
def test_no_false_constraints(query: str) -> None:
    assert detect(query) == []


def test_english_case_carries_the_language() -> None:
    ids = {s.verifier for s in detect("Write the whole thing in English, all in lowercase letters.")}
    assert "change_case:english_lowercase" in ids and "language:response_language" not in ids


@pytest.mark.parametrize(
    "query",
    [
        "Rewrite the slogan so that every other letter alternates between lower case and upper case.",
        "Use a mix of upper and lower case letters in the title.",
        "Write each name in lower case, then again with capital letters.",
    ],
)
def test_a_mix_of_cases_is_not_all_lowercase(query: str) -> None:
    assert not {"change_case:english_lowercase", "change_case:english_capital"} & _ids(query)


@pytest.mark.parametrize(
    "query",
    [
        "Reply in lowercase letters only, no upper case at all.",
        "Your whole answer must be lower case; do not use any capital letters.",
        "Write it all in lower case without capital letters.",
        "Answer in lower case; don't use capital letters anywhere.",
    ],
)
def test_lowercase_with_the_other_case_negated_is_still_lowercase(query: str) -> None:
    assert "change_case:english_lowercase" in _ids(query)
