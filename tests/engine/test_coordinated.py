"""Items an answer enumerates in one sentence (session 19, a new user's walkthrough, helper 94).

Cases written for these classes, none copied from an evaluation set: a place asked of the things an answer names in
one sentence holds only when it holds of each (the place's own name elsewhere in the answer is no evidence); a count
is not failed because names found by capitalisation miss common nouns or a name opening the sentence; a time asked
in one sub-question is judged on the sentences that answer it, not on the dates another sub-question's answer gives.
"""

from __future__ import annotations

import pytest
from helpers import judge

from faithguard.engine.placed import typed_conjuncts
from faithguard.engine.response import view_of
from faithguard.lexical import wordnet

needs_wordnet = pytest.mark.skipif(not wordnet.available(), reason="Debian wordnet-base (or nltk) not installed")


@pytest.mark.parametrize(
    ("answer", "conjuncts"),
    [
        ("Lemons, limes and grapefruit.", [("Lemons", "limes", "grapefruit")]),
        ("Oslo or Bergen. Both are lovely.", [("Oslo", "Bergen")]),
        ("You could try oak, ash, beech, or birch.", [("You could try oak", "ash", "beech", "birch")]),
        ("Take the train, then walk.", []),  # no "and" / "or": no enumeration
        ("The Android app is new.", []),  # "and" inside a word is no conjunction
        ("", []),
    ],
)
def test_coordinations_cut_a_sentence_at_commas_and_conjunctions(answer: str, conjuncts: list[tuple[str, ...]]) -> None:
    assert view_of(answer, parse=False).coordinations() == conjuncts


@needs_wordnet
@pytest.mark.parametrize(
    ("answer", "noun", "typed"),
    [
        ("Oaks, ashes and beeches.", "trees", 3),
        ("Venus and Mars.", "planets", 2),
        ("Alpha, Bravo and Charlie", "rivers", 0),  # a tag line of other words
        ("Paris and Rome are lovely.", "rivers", 0),
    ],
)
def test_typed_conjuncts_count_only_items_of_the_asked_kind(answer: str, noun: str, typed: int) -> None:
    assert typed_conjuncts(view_of(answer, parse=False), noun) == typed


@needs_wordnet
@pytest.mark.parametrize(
    ("query", "answer", "status"),
    [
        ("Name two countries in Europe.", "Norway and Portugal.", "satisfied"),
        # one inside, one GeoNames places elsewhere: violated, also when the answer says the asked place
        ("Name two countries in Europe.", "Norway and Peru.", "violated"),
        ("Name two countries in Europe.", "Kenya and Peru are both in Europe.", "violated"),
        ("Suggest two cities to visit in Japan.", "Kyoto and Lima.", "violated"),
        # names outside the coordination compare or add context: not items (reviewer 97)
        ("Name two countries in Europe.", "Norway and Portugal. Portugal once ruled Brazil.", "satisfied"),
        ("Name a city in Japan.", "Kyoto, which is older than Lima.", "satisfied"),
        # a name late in the last conjunct is not one of the items (review 98's finding of the same class)
        ("Name two countries in Europe.", "Norway and Portugal are in Europe, unlike Brazil.", "satisfied"),
        # no coordination: asked for several, each name of the kind is an item; asked for one, the first (review 98)
        ("Name three countries in Europe.", "Norway is one. Chile is another. Spain is the last.", "violated"),
        ("Name a city in Japan.", "Lima, which is larger than Kyoto.", "violated"),
    ],
)
def test_a_place_asked_of_things_named_in_one_sentence_needs_each(query: str, answer: str, status: str) -> None:
    ctx, _ = judge(query, answer)
    place = next(c for c in ctx.constraints if str(c.category) == "location")
    assert str(place.status) == status, place.reason


@needs_wordnet
@pytest.mark.parametrize(
    ("query", "answer"),
    [
        ("Name three kinds of tree.", "Oak, ash and beech."),  # common nouns: no names at all
        ("Name two oceans.", "Atlantic and Pacific."),  # the first name opens the sentence
    ],
)
def test_a_count_is_not_failed_by_names_capitalisation_missed(query: str, answer: str) -> None:
    ctx, _ = judge(query, answer)
    count = next(c for c in ctx.constraints if str(c.category) == "quantity")
    assert str(count.status) != "violated", count.reason


@needs_wordnet
def test_fewer_items_than_asked_is_still_a_shortfall() -> None:
    ctx, _ = judge("Name four countries in Europe.", "Norway and Portugal.")
    count = next(c for c in ctx.constraints if str(c.category) == "quantity")
    assert str(count.status) == "violated", count.reason


@pytest.mark.parametrize(
    ("query", "answer", "status"),
    [
        # a date in the sentence answering the other question is no evidence either way for this one
        (
            "When did the Berlin Wall fall? Which team won the World Cup in 2014?",
            "The Berlin Wall fell in 1989. Germany won.",
            "unknown",
        ),
        (
            "When was the Eiffel Tower built? Which ship sank in 1912?",
            "The Eiffel Tower was built in 1889. The Titanic.",
            "unknown",
        ),
        # the question's own sentence still decides
        (
            "When did the Berlin Wall fall? Which team won the World Cup in 2014?",
            "The Berlin Wall fell in 1989. Germany won the 2014 World Cup.",
            "satisfied",
        ),
        (
            "Name a novel published in 1925. What is the capital of Peru?",
            "Ulysses appeared in 1922. Lima is the capital of Peru.",
            "violated",
        ),
    ],
)
def test_a_time_asked_in_one_sub_question_is_judged_on_its_own_sentences(query: str, answer: str, status: str) -> None:
    ctx, _ = judge(query, answer)
    when = [c for c in ctx.constraints if str(c.category) == "time"]
    assert len(when) == 1 and str(when[0].status) == status, [(c.text, c.status, c.reason) for c in ctx.constraints]
