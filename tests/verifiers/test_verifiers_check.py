"""verify() on hand-written responses, one or more cases per verifier."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from faithguard.errors import ConfigError
from faithguard.lexical.langid import identify
from faithguard.models import Status
from faithguard.verifiers import verify
from faithguard.verifiers.rhyme import rhymes
from faithguard.verifiers.text import count_sentences, parse_number

S, V, U = Status.SATISFIED, Status.VIOLATED, Status.UNKNOWN

CASES: list[tuple[str, dict[str, Any], str, Status]] = [
    ("keywords:existence", {"keywords": ["harbor", "tide"]}, "The Harbor waits for the tide.", S),
    ("keywords:existence", {"keywords": ["harbor", "tide"]}, "The harbor waits.", V),
    ("keywords:frequency", {"keyword": "sea", "frequency": 2, "relation": "at least"}, "Sea, sea and more.", S),
    ("keywords:frequency", {"keyword": "sea", "frequency": 2, "relation": "less than"}, "Sea, sea.", V),
    ("keywords:forbidden_words", {"forbidden_words": ["cheap"]}, "It is not Cheap!", V),
    ("keywords:forbidden_words", {"forbidden_words": ["cheap"]}, "It is cheaper than gold.", S),
    ("keywords:letter_frequency", {"letter": "z", "let_frequency": 2, "let_relation": "at least"}, "Zigzag", S),
    ("keywords:letter_frequency", {"letter": "z", "let_frequency": 1, "let_relation": "less than"}, "zero", V),
    (
        "language:response_language",
        {"language": "de"},
        "Das ist ein kurzer Text, und wir schreiben ihn auf Deutsch für die Leser.",
        S,
    ),
    (
        "language:response_language",
        {"language": "de"},
        "This is a short text and we write it in English for the readers.",
        V,
    ),
    ("language:response_language", {"language": "hi"}, "यह एक छोटा पत्र है और इसमें कुछ बातें हैं।", S),
    ("language:response_language", {"language": "ko"}, "안녕하세요. 만나서 반갑습니다.", S),
    ("language:response_language", {"language": "fr"}, "12345 !!!", U),
    (
        "length_constraints:number_sentences",
        {"num_sentences": 3, "relation": "at least"},
        "Dr. Smith came. He sat down! Was it late?",
        S,
    ),
    ("length_constraints:number_sentences", {"num_sentences": 3, "relation": "less than"}, "One. Two. Three.", V),
    ("length_constraints:number_paragraphs", {"num_paragraphs": 2}, "First part.\n***\nSecond part.", S),
    ("length_constraints:number_paragraphs", {"num_paragraphs": 3}, "A\n***\n\n***\nC", V),
    ("length_constraints:number_words", {"num_words": 5, "relation": "less than"}, "Only four words here", S),
    ("length_constraints:number_words", {"num_words": 5, "relation": "at least"}, "Only four words here", V),
    (
        "length_constraints:nth_paragraph_first_word",
        {"num_paragraphs": 2, "nth_paragraph": 2, "first_word": "then"},
        'Start here.\n\n"Then, it ended.',
        S,
    ),
    (
        "length_constraints:nth_paragraph_first_word",
        {"num_paragraphs": 2, "nth_paragraph": 2, "first_word": "then"},
        "Start here.\n\nNow it ended.",
        V,
    ),
    ("detectable_content:number_placeholders", {"num_placeholders": 2}, "Dear [name], see you in [city].", S),
    ("detectable_content:number_placeholders", {"num_placeholders": 2}, "Dear [name].", V),
    ("detectable_content:postscript", {"postscript_marker": "P.S."}, "Body.\n\nP.S. Bring snacks.", S),
    ("detectable_content:postscript", {"postscript_marker": "P.P.S"}, "Body.\n\nP.S. Bring snacks.", V),
    ("detectable_format:number_bullet_lists", {"num_bullets": 2}, "* one\n- two\n**bold** line", S),
    ("detectable_format:number_bullet_lists", {"num_bullets": 3}, "* one\n- two", V),
    ("detectable_format:constrained_response", {}, "Thinking... My answer is maybe.", S),
    ("detectable_format:constrained_response", {}, "Perhaps.", V),
    ("detectable_format:number_highlighted_sections", {"num_highlights": 2}, "*a* and **b** and ** **", S),
    ("detectable_format:number_highlighted_sections", {"num_highlights": 2}, "*a* only", V),
    (
        "detectable_format:multiple_sections",
        {"section_spliter": "Section", "num_sections": 2},
        "Section 1\nfoo\nSection 2\nbar",
        S,
    ),
    (
        "detectable_format:multiple_sections",
        {"section_spliter": "Section", "num_sections": 3},
        "Section 1\nfoo\nSection 2\nbar",
        V,
    ),
    ("detectable_format:json_format", {}, '```json\n{"a": [1, 2]}\n```', S),
    ("detectable_format:json_format", {}, "{'a': 1}", V),
    ("detectable_format:title", {}, "<<Harbor Lights>>\nText", S),
    ("detectable_format:title", {}, "<< >>\nText", V),
    ("combination:two_responses", {}, "First answer.\n******\nSecond answer.", S),
    ("combination:two_responses", {}, "Same.\n******\nSame.", V),
    ("combination:repeat_prompt", {"prompt_to_repeat": "Name a river."}, "name a river. The Nile.", S),
    ("combination:repeat_prompt", {"prompt_to_repeat": "Name a river."}, "Sure! Name a river.", V),
    ("startend:end_checker", {"end_phrase": "Any questions?"}, '"Done. Any questions?"\n', S),
    ("startend:end_checker", {"end_phrase": "Any questions?"}, "Any questions? Bye.", V),
    (
        "change_case:capital_word_frequency",
        {"capital_frequency": 2, "capital_relation": "at least"},
        "I said DON'T go NOW.",
        S,
    ),
    (
        "change_case:capital_word_frequency",
        {"capital_frequency": 2, "capital_relation": "less than"},
        "STOP the CAR now.",
        V,
    ),
    ("change_case:english_capital", {}, "THIS IS ALL IN CAPITAL LETTERS AND IT IS ENGLISH.", S),
    ("change_case:english_capital", {}, "THIS IS mostly CAPS.", V),
    ("change_case:english_lowercase", {}, "all of this is lowercase and it is english.", S),
    ("change_case:english_lowercase", {}, "Not all lowercase.", V),
    ("punctuation:no_comma", {}, "No commas here.", S),
    ("punctuation:no_comma", {}, "One, two.", V),
    ("startend:quotation", {}, '  "Quoted."  ', S),
    ("startend:quotation", {}, '"', V),
    ("creative:lines", {"num_lines": 2, "relation": "exactly"}, "<<Title>>\nLine one\n\nLine two\n", S),
    ("creative:stanzas", {"num_stanzas": 2}, "a\nb\n\nc\nd", S),
    ("creative:stanzas", {"num_stanzas": 3}, "a\nb\n\nc\nd", V),
    ("creative:paragraphs", {"num_paragraphs": 1, "relation": "at least"}, "One paragraph.", S),
    ("creative:per_unit", {"unit": "stanza", "relation": "count", "of": "line", "n": 2}, "a b\nc d\n\ne f\ng h", S),
    ("creative:per_unit", {"unit": "line", "relation": "count", "of": "word", "n": 3}, "the cat sat\non a red mat", V),
    (
        "creative:per_unit",
        {"unit": "line", "relation": "count", "of": "word", "n": 3, "comparison": "at most"},
        "the cat sat\non a mat",
        S,
    ),
    (
        "creative:per_unit",
        {"unit": "line", "relation": "starts_with", "kind": "letter", "value": "s"},
        "Sun rises\nsilver sea",
        S,
    ),
    (
        "creative:per_unit",
        {"unit": "word", "relation": "starts_with", "kind": "letter", "value": "s"},
        "Silent sea, sleepy sun",
        S,
    ),
    (
        "creative:per_unit",
        {"unit": "word", "relation": "starts_with", "kind": "letter", "value": "s"},
        "Silent moon",
        V,
    ),
    (
        "creative:per_unit",
        {"unit": "line", "relation": "ends_with", "kind": "letter", "value": "e"},
        "the blue hue\nonce more",
        S,
    ),
    (
        "creative:per_unit",
        {"unit": "line", "relation": "ends_with", "value": "night"},
        "Into the night\nall through the night!",
        S,
    ),
    ("creative:required_words", {"words": ["moon"]}, "The moonlight.", V),
    ("creative:forbidden_words", {"words": ["moon"]}, "The moonlight.", S),
    ("creative:rhyme_scheme", {"scheme": "AABB"}, "The cat\nsat flat\nthe day\nwent away", S),
    ("creative:rhyme_scheme", {"scheme": "AABB"}, "The cat\nthe dog\nthe day\nwent away", V),
    ("creative:rhyme_scheme", {"scheme": "AA"}, "I see it now\nthe things I know", U),
    ("creative:refrain", {}, "Oh the rain\nfalls down\nOh the rain!", S),
    ("creative:start_phrase", {"start_phrase": "Good question!"}, ' "good question! Tides come from the moon.', S),
    ("creative:start_phrase", {"start_phrase": "Good question!"}, "Tides come from the moon. Good question!", V),
    ("creative:start_phrase", {"start_phrase": "Dear team"}, "Dear", V),
    ("creative:start_phrase", {"start_phrase": "Hi"}, "Hippos are large.", V),
    ("creative:start_phrase", {"start_phrase": "Hi"}, "Hi, hippos are large.", S),
    ("creative:refrain", {}, "One line\nanother line", V),
]


@pytest.mark.parametrize(("verifier", "params", "response", "expected"), CASES)
def test_verify(verifier: str, params: dict[str, Any], response: str, expected: Status) -> None:
    out = verify(verifier, params, response)
    assert out.status is expected, out.reason
    assert out.reason


def test_unknown_verifier_raises_config_error() -> None:
    with pytest.raises(ConfigError, match="unknown verifier"):
        verify("nope:nothing", {}, "x")


def test_bad_params_give_unknown() -> None:
    out = verify("length_constraints:number_words", {"num_words": "many", "relation": "at least"}, "a b")
    assert out.status is Status.UNKNOWN


def test_empty_response_is_judged() -> None:
    assert verify("detectable_format:title", {}, "").status is Status.VIOLATED
    assert verify("punctuation:no_comma", {}, "").status is Status.SATISFIED
    assert verify("language:response_language", {"language": "en"}, "").status is Status.UNKNOWN


def test_markdown_and_unicode() -> None:
    assert verify("keywords:existence", {"keywords": ["café"]}, "**Café** au lait").status is S
    assert (
        verify("length_constraints:number_words", {"num_words": 3, "relation": "at least"}, "naïve façade déjà").status
        is S
    )
    assert json.loads('{"k": "é"}') and verify("detectable_format:json_format", {}, '{"k": "é"}').status is S


@pytest.mark.parametrize(
    ("text", "n"),
    [
        ("one thousand", 1000),
        ("twenty-one", 21),
        ("eighty", 80),
        ("7", 7),
        ("two hundred and five", 205),
        ("thrice", 3),
        ("bogus", None),
    ],
)
def test_parse_number(text: str, n: int | None) -> None:
    assert parse_number(text) == n


def test_sentence_splitter() -> None:
    assert count_sentences("Mr. Brown met Dr. Who. They talked... and left! Why? Because.") == 4
    assert count_sentences("A line\nanother line without stop") == 1
    assert count_sentences("") == 0


def test_langid_and_rhyme_helpers() -> None:
    assert identify("Le chat dort sur la table et il est content.").language == "fr"
    assert identify("Кот спит на столе, и он доволен этим.").language == "ru"
    assert identify("!!!").language is None
    assert rhymes("night", "light") is True
    assert rhymes("cat", "dog") is False


@given(
    words=st.integers(min_value=0, max_value=60),
    want=st.integers(min_value=1, max_value=60),
    relation=st.sampled_from(["less than", "at least"]),
)
def test_a_count_outcome_carries_what_it_measured(words: int, want: int, relation: str) -> None:
    from faithguard.verifiers import RELATION_SYMBOLS

    outcome = verify("length_constraints:number_words", {"relation": relation, "num_words": want}, "tide " * words)
    assert outcome.count is not None
    assert (outcome.count.found, outcome.count.relation, outcome.count.want) == (words, relation, want)
    assert (outcome.status is S) == (words < want if relation == "less than" else words >= want)
    assert relation in RELATION_SYMBOLS


@pytest.mark.parametrize(
    ("verifier", "params", "response"),
    [
        ("length_constraints:number_sentences", {"relation": "at least", "num_sentences": 2}, "One. Two. Three."),
        ("length_constraints:number_paragraphs", {"num_paragraphs": 2}, "One\n***\nTwo"),
        ("creative:stanzas", {"relation": "exactly", "num_stanzas": 2}, "a\nb\n\nc\nd"),
        ("creative:lines", {"relation": "at least", "num_lines": 3}, "a\nb"),
    ],
)
def test_every_whole_response_count_reports_its_measure(verifier: str, params: dict[str, Any], response: str) -> None:

    assert verify(verifier, params, response).count is not None


def test_checks_that_are_not_counts_carry_no_measure() -> None:

    assert verify("keywords:forbidden_words", {"forbidden_words": ["cheap"]}, "fine").count is None
    assert verify("creative:start_phrase", {"start_phrase": "Hi"}, "Hi there").count is None


def test_the_relation_table_is_the_one_the_checkers_accept() -> None:
    from faithguard.verifiers import RELATION_SYMBOLS

    for relation in RELATION_SYMBOLS:  # every relation of the table is a valid parameter
        assert verify("creative:lines", {"relation": relation, "num_lines": 1}, "a").status is not U
