"""Mechanisms that flagged good answers (issue 11), each with answers that must pass and answers that must not.

Fixtures written for this file: material a request points to by a label, a question pasted after the
instruction, a state written as its postal code, a capitalised rule word read as a name, and the object of
an exclusion read by syntax instead of every word of it.
"""

from __future__ import annotations

import pytest
from helpers import judge

from faithguard.engine.content import content_spans, instruction_text
from faithguard.engine.decompose import decompose_text
from faithguard.engine.named import asks_for_one, code_names, excluded_objects
from faithguard.engine.satisfy import _places, check_constraint
from faithguard.lexical import wordnet
from faithguard.models import Category, Constraint, Status, Tier
from faithguard.nlp import parse

# --- material the request points to by its label ---------------------------------------------------------

_LABELLED = (
    "Rewrite the message according to the rule.\n\n"
    "Rule: Every word is written in lower case.\nMessage: The Train Leaves At Noon."
)


@pytest.mark.parametrize(
    ("text", "inside"),
    [
        ("Translate the sentence into Spanish.\nSentence: The red kite circles over the hill.", "red kite"),
        (_LABELLED, "Train Leaves"),
        ("Classify this review.\nReview: The soup was cold and the waiter forgot the bread.", "soup"),
    ],
)
def test_a_label_the_request_refers_to_marks_material(text: str, inside: str) -> None:
    masked = instruction_text(text, content_spans(text, parse(text)))
    assert inside not in masked
    assert masked.startswith(text.split("\n")[0])


@pytest.mark.parametrize(
    "text",
    [
        "Write a poem about autumn.\nNote: keep it under fifty words.",  # label never referred to
        "Write the title and the abstract.\nTitle: it must be under ten words.",  # a modal states a requirement
        "Describe the garden.\nGarden: mention at least three flowers.",  # an imperative states a requirement
    ],
)
def test_a_requirement_line_stays_the_request(text: str) -> None:
    assert instruction_text(text, content_spans(text, parse(text))) == text


def test_a_line_the_request_works_by_is_a_requirement_the_line_it_works_on_is_material() -> None:
    # "according to the rule": the Rule line says how to write, so its lower-case requirement stands;
    # "rewrite the message": the Message line is the material, so its words are no constraint
    d = decompose_text(_LABELLED)
    assert any(c.verifier == "change_case:english_lowercase" for c in d.constraints)
    assert not any("Noon" in c.text for c in d.constraints)


@pytest.mark.parametrize(
    "text",
    [
        "Write the reply in the style below.\nStyle: three short paragraphs, all lowercase, under 100 words.",
        "Summarise it using the format.\nFormat: exactly 3 bullet points.",
    ],
)
def test_a_label_named_in_a_prepositional_phrase_states_requirements(text: str) -> None:
    assert instruction_text(text, content_spans(text, parse(text))) == text
    assert any(c.verifier for c in decompose_text(text).constraints)


# --- a question pasted after the instruction -------------------------------------------------------------

_ASKED = (
    "You will answer the following question from a gardening quiz.\n\n"
    "Why do tomato leaves curl upward during a hot and dry summer?"
)
_ON_TOPIC = (
    "Tomato leaves curl upward to reduce water loss: when the summer is hot and dry, the plant rolls its "
    "leaves to expose less surface to the sun, a protective response that usually fades once watering "
    "becomes regular again."
)
_ELSEWHERE = (
    "The harbour was quiet that morning and the fishermen mended their nets while gulls circled above the "
    "boats, waiting for scraps, and the old keeper walked slowly along the pier with his dog before the "
    "market opened and the first buyers arrived."
)


def _subject(text: str) -> Constraint:
    return Constraint(id="c1", text=text, category=Category.SUBJECT, tier=Tier.MANDATORY)


def test_an_answer_to_the_pasted_question_is_not_off_topic() -> None:
    c = _subject("question")
    assert check_constraint(c, _ON_TOPIC, [c], "", _ASKED)[0] is Status.UNKNOWN
    _ctx, verdicts = judge(_ASKED, _ON_TOPIC)
    assert not [v for v in verdicts if v.kind == "omission"]


def test_an_answer_about_something_else_is_still_off_topic() -> None:
    c = _subject("question")
    assert check_constraint(c, _ELSEWHERE, [c], "", _ASKED)[0] is Status.VIOLATED


# --- a place written as its code ---------------------------------------------------------------------------


def _place(text: str) -> Constraint:
    return Constraint(id="c1", text=text, category=Category.LOCATION, tier=Tier.MANDATORY)


def test_a_state_code_is_met_by_the_state_spelled_out() -> None:
    c = _place("at 12 Elm Road, Maplewood, IL")
    answer = "The office of Elm Road 12, Maplewood, Illinois, opens at nine."
    assert check_constraint(c, answer, [c])[0] is Status.SATISFIED


def test_another_state_still_leaves_the_coded_one_out() -> None:
    c = _place("at 12 Elm Road, Maplewood, IL")
    answer = "The office of Elm Road 12, Maplewood, Ohio, opens at nine."
    status, reason = check_constraint(c, answer, [c])
    assert status is Status.VIOLATED and "IL" in reason


@pytest.mark.parametrize(("word", "named"), [("IL", "illinois"), ("FR", "france")])
def test_codes_read_from_geonames(word: str, named: str) -> None:
    assert named in code_names(word)


@pytest.mark.parametrize("word", ["in", "Il", "ILL", "I1"])
def test_only_two_capitals_are_a_code(word: str) -> None:
    assert code_names(word) == ()


# --- a capitalised rule word is not a name; the object of an exclusion is read by syntax ------------------


def _exclusion(text: str) -> Constraint:
    return Constraint(id="c1", text=text, category=Category.OTHER, tier=Tier.OPTIONAL, negated=True)


def test_a_sentence_initial_verb_is_not_a_name() -> None:
    assert _places("4. Skip the intro: Do not name Madrid") == (["Madrid"], True)
    assert _places("in Spain or Portugal") == (["Spain", "Portugal"], False)


@pytest.mark.parametrize(
    ("text", "objects"),
    [
        ("3. Keep it calm: Do not include prices or opening hours.", ["prices", "opening hours"]),
        ("do not mention dogs", ["dogs"]),
        ("without sugar or honey", ["sugar", "honey"]),
        ("no meat", ["meat"]),
    ],
)
def test_the_excluded_objects_are_read_from_the_parse(text: str, objects: list[str]) -> None:
    assert excluded_objects(text) == objects


def test_an_exclusion_is_not_broken_by_its_own_verb_or_label() -> None:
    c = _exclusion("3. Keep it calm: Do not include prices or opening hours.")
    answer = "We keep it calm here. The shop sells handmade cups. I mention this only once."
    assert check_constraint(c, answer)[0] is not Status.VIOLATED
    c = _exclusion("do not mention dogs")
    assert check_constraint(c, "Cats are calm; people mention them often.")[0] is not Status.VIOLATED


@pytest.mark.skipif(not wordnet.available(), reason="Debian wordnet-base (or nltk) not installed")
def test_the_absence_of_a_kind_word_is_no_evidence_for_an_exclusion() -> None:
    # "dogs", "meat", "prices" have kinds (poodle, beef, list price): an answer can break the exclusion
    # without the word, so the word's absence decides nothing
    assert check_constraint(_exclusion("do not mention dogs"), "A poodle and a beagle played.")[0] is Status.UNKNOWN
    assert check_constraint(_exclusion("no meat"), "Serve it with grilled beef strips.")[0] is Status.UNKNOWN
    # a name has no kinds: its absence is evidence
    c = _exclusion("do not mention Norway")
    assert check_constraint(c, "Sweden and Finland have long winters.")[0] is Status.SATISFIED


def test_an_exclusion_is_broken_by_its_object() -> None:
    c = _exclusion("3. Keep it calm: Do not include prices or opening hours.")
    assert check_constraint(c, "The shop sells cups. Opening hours are nine to five.")[0] is Status.VIOLATED
    c = _exclusion("do not mention dogs")
    assert check_constraint(c, "Cats are calm. Dogs are loud.")[0] is Status.VIOLATED


# --- a verb of the list family with one singular object asks for one thing ---------------------------------

_PROSE = (
    "The lighthouse stands on a black rock above the bay. At night its beam sweeps across the water in slow "
    "circles. Fishermen say the light has never failed in a storm. Its keeper climbs the stairs each evening."
)
_BULLETS = "- Sleep at the same hour.\n- Keep the room dark.\n- Avoid coffee after noon."


def _action_status(query: str, response: str) -> str:
    ctx, _ = judge(query, response)
    return next(str(c.status) for c in ctx.constraints if str(c.category) == "action")


def test_prose_does_not_violate_a_request_for_one_thing() -> None:
    assert _action_status("Provide a description of a lighthouse at night.", _PROSE) == "unknown"
    _ctx, verdicts = judge("Provide a description of a lighthouse at night.", _PROSE)
    assert not [v for v in verdicts if v.kind == "omission"]


@pytest.mark.parametrize(
    ("query", "one"),
    [
        ("Provide a description of a lighthouse at night.", True),
        ("Give an example of a renewable resource.", True),
        ("Provide three tips for sleeping well.", False),
        ("Provide a list of tips for sleeping well.", False),
        ("Give a poem and a story.", False),
        # one object that holds several (WordNet list / collection senses)
        ("Create a list.", False),
        ("Give a numbered list about rivers.", False),
        ("Provide a set of rules for the game.", False),
    ],
)
def test_one_object_is_read_from_the_parse(query: str, one: bool) -> None:
    verb = Constraint(id="c1", text=query.split()[0], category=Category.ACTION, tier=Tier.MANDATORY)
    assert asks_for_one(verb, query) is one


@pytest.mark.parametrize(
    ("query", "response", "status"),
    [
        ("Provide three tips for sleeping well.", _BULLETS, "satisfied"),
        ("Provide three tips for sleeping well.", _PROSE, "violated"),
        ("Provide a list of tips for sleeping well.", _PROSE, "violated"),  # a singular object of plural items
    ],
)
def test_several_objects_are_still_a_list_task(query: str, response: str, status: str) -> None:
    assert _action_status(query, response) == status
