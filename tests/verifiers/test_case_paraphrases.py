"""Case instructions in other words than IFEval's. Sentences written for this project."""

from __future__ import annotations

import pytest

from faithguard.verifiers import detect


def _ids(text: str) -> dict[str, dict[str, object]]:
    return {s.verifier: dict(s.params) for s in detect(text)}


@pytest.mark.parametrize(
    "text",
    [
        "Give the rally chant at least 3 words in full caps.",
        "I'd like at least 3 words fully capitalized so they pop.",
        "Sprinkle in at least 3 full-caps words.",
    ],
)
def test_full_caps_words_are_counted_capital_words(text: str) -> None:
    found = _ids(text)
    assert found.get("change_case:capital_word_frequency") == {"capital_relation": "at least", "capital_frequency": 3}
    assert "length_constraints:number_words" not in found


def test_every_letter_capitalized_is_all_caps() -> None:
    assert "change_case:english_capital" in _ids("Write the sign's text with every letter capitalized.")


def test_title_case_is_not_all_caps() -> None:
    assert "change_case:english_capital" not in _ids("Write the title with the first letter of every word capitalized.")


@pytest.mark.parametrize(
    "text",
    [
        "Write the app's welcome line. It has to match the logo, so no capitals at all.",
        "Draft a text to my cousin, no caps pls.",
        "Don't use capitals anywhere in the poem.",
    ],
)
def test_no_capitals_is_lowercase(text: str) -> None:
    assert [s.verifier for s in detect(text)] == ["change_case:english_lowercase"]


@pytest.mark.parametrize(
    "text",
    [
        "List five islands with no capitals of their own.",
        "There are no caps on spending this year; plan a budget.",
        "Don't use all caps in the reply, it reads like shouting.",
        "Never write in all caps when you email a client.",
    ],
)
def test_no_capitals_of_other_senses_and_negated_all_caps_ask_no_case(text: str) -> None:
    assert not [s for s in detect(text) if s.verifier.startswith("change_case:english")]


@pytest.mark.parametrize(
    "text",
    [
        # capitals asked of a part, or told of something else (paraphrase study #6)
        "Write a product blurb, and put the key features in all caps.",
        "Our designer wants every label in title case, but the source strings come in all caps from the CMS. Why?",
    ],
)
def test_capitals_of_a_part_or_of_other_things_are_not_all_caps(text: str) -> None:
    assert "change_case:english_capital" not in _ids(text)


@pytest.mark.parametrize(
    "text",
    [
        "Write your whole answer in all caps.",
        "Give me a packing checklist: exactly six bullets, all in capital letters.",  # every unit, by "all"
        "Write three slogans in all caps.",  # counted units make up the text
        "Write an ad for a local bakery IN ALL CAPS.",  # the phrase hung on the nearest noun by the parser
        "Describe the race for my club, the whole thing in capital letters please.",
        "Tell my team that the server is back, in ALL CAPS like a siren.",  # an afterthought after a comma
    ],
)
def test_capitals_of_the_text_or_of_every_unit_stay_all_caps(text: str) -> None:
    assert "change_case:english_capital" in _ids(text)
