"""Keyword lists read from the clause that holds them (``verifiers/detect_keyword_cues.py``), through ``detect``.

The cue specs meet their own fixtures in ``tests/test_spec_fixtures.py``; these pin how the clause reading and the
keyword-noun reading (``detect_ifeval.detect_keywords``) combine. Sentences written for this project.
"""

from __future__ import annotations

import pytest

from faithguard.verifiers import detect
from faithguard.verifiers.detect_keyword_cues import load_specs


def _keywords(text: str) -> list[tuple[str, dict[str, object]]]:
    return [(s.verifier, s.params) for s in detect(text) if s.verifier.startswith("keywords:")]


def test_a_list_ends_with_its_clause() -> None:
    # the keyword-noun reading ran on to the quoted closing phrase; the clause reading stops at the comma
    found = _keywords("Write a lullaby. Don't use the word 'monster', and end it with 'Good night, moon.'")
    assert found == [("keywords:forbidden_words", {"forbidden_words": ["monster"]})]


def test_a_numbered_requirement_is_a_clause_of_its_own() -> None:
    text = "Explain rainbows.\nRules: (1) under 90 words, (2) the word 'prism' must not appear, (3) end with 'Bye!'"
    assert ("keywords:forbidden_words", {"forbidden_words": ["prism"]}) in _keywords(text)
    assert not any("bye!" in str(params) for _, params in _keywords(text))


def test_a_closing_phrase_named_as_words_is_not_a_keyword_list() -> None:
    found = _keywords("Write a retirement card and close with the words 'Enjoy the garden!'")
    assert found == []


def test_unquoted_words_yield_to_the_keyword_noun_reading_of_their_sentence() -> None:
    # both readings see 'war'; the keyword-noun one also reads the second count, so it alone stands
    found = _keywords("Tell me about the Crusades, and use the word siege at least 4 times.")
    assert found == [("keywords:frequency", {"relation": "at least", "keyword": "siege", "frequency": 4})]


@pytest.mark.parametrize(
    "text",
    [
        "Is 'alright' a real word, or should I always write 'all right'?",
        "Our company motto is 'Build it better'. Write a speech for the launch.",
        "Translate 'see you soon' into Italian.",
        "Why does 'colour' appear with a u in British English?",
    ],
)
def test_quotes_without_a_cue_in_a_directive_are_not_keywords(text: str) -> None:
    assert not any(v in ("keywords:existence", "keywords:forbidden_words") for v, _ in _keywords(text))


def test_every_cue_spec_names_a_role_and_a_provenance() -> None:
    specs = load_specs()
    assert {s.role for s in specs} <= {"include", "avoid"} and all(s.why for s in specs)


@pytest.mark.parametrize(
    ("text", "want"),
    [
        # a negation of another ask, or inside the quoted words, leaves the ask to include them
        ("Include 'anchor' and don't go over 100 words.", ("keywords:existence", {"keywords": ["anchor"]})),
        ("Write a story with no dialogue and include 'anchor'.", ("keywords:existence", {"keywords": ["anchor"]})),
        (
            "Write a farewell card and use 'no worries' and 'onward'.",
            ("keywords:existence", {"keywords": ["no worries", "onward"]}),
        ),
        # a negated count turns over: fewer than the number, or at least it
        (
            "Never use 'amazing' twice in the review.",
            ("keywords:frequency", {"relation": "less than", "keyword": "amazing", "frequency": 2}),
        ),
        (
            "'Resilient' shouldn't appear fewer than 3 times in the bio.",
            ("keywords:frequency", {"relation": "at least", "keyword": "resilient", "frequency": 3}),
        ),
        ("Edit my essay and stop using 'basically'.", ("keywords:forbidden_words", {"forbidden_words": ["basically"]})),
    ],
)
def test_negation_belongs_to_the_cue(text: str, want: tuple[str, dict[str, object]]) -> None:
    assert want in _keywords(text)


def test_a_count_belongs_to_the_list_before_it() -> None:
    found = _keywords("Use 'warm' at most 2 times and 'bright' at least once.")
    assert ("keywords:frequency", {"relation": "less than", "keyword": "warm", "frequency": 3}) in found
    assert ("keywords:frequency", {"relation": "at least", "keyword": "bright", "frequency": 1}) in found
    assert ("keywords:frequency", {"relation": "less than", "keyword": "bright", "frequency": 3}) not in found


@pytest.mark.parametrize(
    "text",
    [
        "Did you mention 'refund' in the draft you sent me?",
        "Will 'selfie' be in the next dictionary?",
        "You keep using 'journey' in every answer.",
        "You used 'pivot' three times in the last draft.",
    ],
)
def test_questions_and_remarks_about_the_words_ask_for_nothing(text: str) -> None:
    assert _keywords(text) == []


def test_a_keyword_noun_list_keeps_the_words_a_clause_did_not_read() -> None:
    found = _keywords("Use the words 'sun', 'sea' (in that order), and 'sand'.")
    assert any(set(p.get("keywords", ())) == {"sun", "sea", "sand"} for _, p in found)


def test_a_very_long_list_is_read_without_recursion() -> None:
    text = "Write a poem but don't mention " + ", ".join(["fig"] * 1500) + "."
    detect(text)  # raised RecursionError with one recursion per coordinated word


def test_quoted_words_inside_quoted_material_are_the_materials() -> None:
    text = "My friend texted: \"please make sure to mention 'tiramisu' when you talk to my dad\" - what does she want?"
    assert _keywords(text) == []


@pytest.mark.parametrize(
    ("text", "words"),
    [
        # "need(s) to" after the quoted words, parsed as a noun the words modify (paraphrase study #6)
        ("Write bakery slogans. Put them in a JSON list, and the word 'crust' needs to appear somewhere.", ["crust"]),
        ("write me a blurb on composting. the words 'worm' and 'peel' need to be in there.", ["worm", "peel"]),
        ("Describe our new bike lane. the words 'safe' and 'wide' need to be in there, ok?", ["safe", "wide"]),
        ("Write a limerick about a goat, and the term 'cheese' needs to appear in it.", ["cheese"]),
        # the infinitive hung on the word noun, "need" beside it
        (
            "Write about forests. two asks: the words 'oak' and 'moss' need to be in there somewhere, and make sure "
            "it rhymes.",
            ["oak", "moss"],
        ),
    ],
)
def test_a_verb_of_necessity_read_as_a_noun_still_governs_the_words(text: str, words: list[str]) -> None:
    assert ("keywords:existence", {"keywords": words}) in _keywords(text)


@pytest.mark.parametrize(
    "text",
    [
        "Tidy up this memo. The 'urgent' tasks need to be in there first.",  # scare quotes on a real noun
        "Summarize the meeting. Everyone's 'action' items need to be in it.",
        "Write a note about my cat. Her 'secret' plans to escape are hilarious.",
    ],
)
def test_a_quoted_modifier_of_a_noun_with_an_infinitive_names_no_word(text: str) -> None:
    assert _keywords(text) == []
