"""Detection of verifiable instructions in hand-written queries."""

from __future__ import annotations

from typing import Any

import pytest

from faithguard.models import Category
from faithguard.verifiers import IFEVAL_IDS, VERIFIER_IDS, detect


def _by_id(query: str) -> dict[str, list[dict[str, Any]]]:
    out: dict[str, list[dict[str, Any]]] = {}
    for spec in detect(query):
        out.setdefault(spec.verifier, []).append(spec.params)
    return out


CASES: list[tuple[str, str, dict[str, Any]]] = [
    (
        "Draft a memo about parking, please keep it to at least 250 words.",
        "length_constraints:number_words",
        {"relation": "at least", "num_words": 250},
    ),
    (
        "Describe tides in fewer than eighty words.",
        "length_constraints:number_words",
        {"relation": "less than", "num_words": 80},
    ),
    (
        "Give me a 120-word bio of a chef.",
        "length_constraints:number_words",
        {"relation": "at least", "num_words": 120},
    ),
    (
        "Explain rainbows in no more than 6 sentences.",
        "length_constraints:number_sentences",
        {"relation": "less than", "num_sentences": 7},
    ),
    (
        "Tell a tale that is twelve sentences or more.",
        "length_constraints:number_sentences",
        {"relation": "at least", "num_sentences": 12},
    ),
    (
        "Make sure the term 'lantern' is used at least 4 times.",
        "keywords:frequency",
        {"relation": "at least", "keyword": "lantern", "frequency": 4},
    ),
    (
        "Use the word moss fewer than 3 times.",
        "keywords:frequency",
        {"relation": "less than", "keyword": "moss", "frequency": 3},
    ),
    (
        'Your reply must include the keywords "harbor" and "tide".',
        "keywords:existence",
        {"keywords": ["harbor", "tide"]},
    ),
    (
        "Never use the words cheap or discount in the ad.",
        "keywords:forbidden_words",
        {"forbidden_words": ["cheap", "discount"]},
    ),
    (
        "The letter z should appear at least 5 times.",
        "keywords:letter_frequency",
        {"let_relation": "at least", "letter": "z", "let_frequency": 5},
    ),
    ("Write it only in Spanish, no other language is allowed.", "language:response_language", {"language": "es"}),
    ("Answer entirely in the Japanese language.", "language:response_language", {"language": "ja"}),
    (
        "Use exactly 3 paragraphs separated by the markdown divider ***.",
        "length_constraints:number_paragraphs",
        {"num_paragraphs": 3},
    ),
    (
        'Write 3 paragraphs separated by two new lines; the second paragraph must begin with the word "meanwhile".',
        "length_constraints:nth_paragraph_first_word",
        {"num_paragraphs": 3, "nth_paragraph": 2, "first_word": "meanwhile"},
    ),
    (
        "Include at least 4 placeholders in square brackets like [city].",
        "detectable_content:number_placeholders",
        {"num_placeholders": 4},
    ),
    ("Close with a postscript that starts with P.P.S", "detectable_content:postscript", {"postscript_marker": "P.P.S"}),
    ("Answer with exactly 5 bullet points in markdown.", "detectable_format:number_bullet_lists", {"num_bullets": 5}),
    (
        'Answer with one of: "My answer is yes.", "My answer is no.", "My answer is maybe."',
        "detectable_format:constrained_response",
        {},
    ),
    (
        "Highlight at least 2 sections with markdown, e.g. *important*.",
        "detectable_format:number_highlighted_sections",
        {"num_highlights": 2},
    ),
    (
        "Your plan needs 3 sections; mark each one with PART X.",
        "detectable_format:multiple_sections",
        {"section_spliter": "PART", "num_sections": 3},
    ),
    ("Return the answer as valid JSON only.", "detectable_format:json_format", {}),
    ("Give it a title in double angular brackets, like <<my title>>.", "detectable_format:title", {}),
    ("Give two different answers separated by 6 asterisks ******.", "combination:two_responses", {}),
    (
        'End your answer with the exact phrase "Any other questions?"',
        "startend:end_checker",
        {"end_phrase": "Any other questions?"},
    ),
    (
        "Use at least 3 words in all capital letters.",
        "change_case:capital_word_frequency",
        {"capital_relation": "at least", "capital_frequency": 3},
    ),
    ("Respond in English, using only capital letters in the whole answer.", "change_case:english_capital", {}),
    ("Reply in English with all lowercase letters.", "change_case:english_lowercase", {}),
    ("Please refrain from using any commas.", "punctuation:no_comma", {}),
    ("Surround your whole reply with double quotation marks.", "startend:quotation", {}),
    (
        "Compose a poem of four stanzas. Each line must be exactly seven words long",
        "creative:stanzas",
        {"relation": "exactly", "num_stanzas": 4},
    ),
    (
        "Compose a poem of four stanzas. Each line must be exactly seven words long",
        "creative:per_unit",
        {"relation": "count", "scope": "each", "unit": "line", "of": "word", "n": 7, "comparison": "exactly"},
    ),
    ("Write a 14-line sonnet.", "creative:lines", {"relation": "exactly", "num_lines": 14}),
    (
        "Every line should start with the letter S.",
        "creative:per_unit",
        {"scope": "each", "unit": "line", "relation": "starts_with", "kind": "letter", "value": "S"},
    ),
    ("Use the rhyme scheme ABAB in each stanza.", "creative:rhyme_scheme", {"scheme": "ABAB"}),
    ("Write rhyming couplets about rain.", "creative:rhyme_scheme", {"scheme": "AABB"}),
    ("Add a refrain that comes back after every verse.", "creative:refrain", {"min_repeats": 2}),
]


@pytest.mark.parametrize(("query", "verifier", "params"), CASES)
def test_detects_instruction(query: str, verifier: str, params: dict[str, Any]) -> None:
    found = _by_id(query)
    assert verifier in found, f"{verifier} not found in {found}"
    assert params in found[verifier]


def test_repeat_prompt_extracts_request_before_instruction() -> None:
    q = (
        "Describe a lighthouse at dawn.  First repeat the request word for word without change, "
        "then give your answer. Do not say anything before repeating the request."
    )
    assert _by_id(q)["combination:repeat_prompt"] == [{"prompt_to_repeat": "Describe a lighthouse at dawn."}]


def test_repeat_prompt_extracts_request_below() -> None:
    q = "Repeat the request below exactly, then answer it.  Name three rivers in Peru."
    assert _by_id(q)["combination:repeat_prompt"] == [{"prompt_to_repeat": "Name three rivers in Peru."}]


def test_ranges_become_two_bounds() -> None:
    found = _by_id("The story should have between 10 and 20 sentences.")
    assert {"relation": "at least", "num_sentences": 10} in found["length_constraints:number_sentences"]
    assert {"relation": "less than", "num_sentences": 21} in found["length_constraints:number_sentences"]


@pytest.mark.parametrize(
    "query",
    [
        "Write a story about 3 words that changed history.",
        "Summarize the morphology of the Ukrainian language.",
        "Translate this sentence into French: 'good morning'.",
        "What is 1,000 times 3?",
        "Tell me about the comma as a punctuation mark.",
        "Explain the words people use for snow.",
        "",
        "   ",
    ],
)
def test_no_false_positive(query: str) -> None:
    assert [s.verifier for s in detect(query) if s.verifier in IFEVAL_IDS] == []


def test_spec_fields() -> None:
    specs = {s.verifier: s for s in detect("Do not use any commas. Write at least 300 words.")}
    comma = specs["punctuation:no_comma"]
    assert comma.negated is True and comma.category is Category.OTHER and "commas" in comma.text
    words = specs["length_constraints:number_words"]
    assert words.category is Category.QUANTITY and words.negated is False


def test_ids_cover_ifeval() -> None:
    assert len(IFEVAL_IDS) == 25
    assert set(IFEVAL_IDS) <= set(VERIFIER_IDS)
    assert any(v.startswith("creative:") for v in VERIFIER_IDS)


@pytest.mark.parametrize(
    "query",
    [
        "In no more than 40 words, tell me why leaves change colour.",
        "Using fewer than twenty words, say what a lever does.",
        "In under 3 lines, name a use for copper.",
    ],
)
def test_a_counted_word_noun_is_a_length_not_a_keyword_list(query: str) -> None:
    found = _by_id(query)
    assert "keywords:forbidden_words" not in found and "keywords:existence" not in found


@pytest.mark.parametrize(
    ("query", "verifier", "params"),
    [
        (
            "Do not use the two words 'cheap' and 'easy'.",
            "keywords:forbidden_words",
            {"forbidden_words": ["cheap", "easy"]},
        ),
        ("Include the 3 keywords: ocean, salt, tide.", "keywords:existence", {"keywords": ["ocean", "salt", "tide"]}),
    ],
)
def test_a_counted_keyword_noun_followed_by_its_words_is_a_keyword_list(
    query: str, verifier: str, params: dict[str, Any]
) -> None:
    assert _by_id(query)[verifier] == [params]


def test_keyword_lists_still_read_beside_a_counted_length() -> None:
    found = _by_id("Do not use the words cheap or easy, and keep it under 50 words.")
    assert found["keywords:forbidden_words"] == [{"forbidden_words": ["cheap", "easy"]}]
    assert found["length_constraints:number_words"] == [{"relation": "less than", "num_words": 50}]
