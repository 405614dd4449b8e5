"""End to end through ``Guard().check``: an answer in another language than the one asked is a misinterpretation;
an answer in the asked language, a short one, or a plain English exchange is not flagged."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from faithguard import Guard
from faithguard.detector import CallContext
from faithguard.engine.decompose import OfflineDecomposer
from faithguard.engine.language_request import language_code, requested_languages
from faithguard.models import Category, Constraint, Message, Report, Status, Tier, Verdict
from faithguard.nlp import parse

LANGUAGE = "language:response_language"


@pytest.fixture(scope="module")
def guard() -> Guard:
    g = Guard()
    g.warmup()
    return g


def _language(report: Report) -> list[Constraint]:
    return [c for c in report.constraints if c.verifier == LANGUAGE]


def _misread(report: Report) -> list[Verdict]:
    return [v for v in report.verdicts if str(v.kind) == "misinterpretation"]


def test_answer_in_english_when_spanish_was_asked_is_a_misinterpretation(guard: Guard) -> None:
    r = guard.check(
        "Answer in Spanish: what is the tallest mountain on Earth?", "Mount Everest is the tallest mountain on Earth."
    )
    (lang,) = _language(r)
    assert lang.params == {"language": "es"} and lang.tier is Tier.IMPORTANT and lang.status is Status.VIOLATED
    # the language name is the constraint's parameter, not a subject of its own
    assert not any(c.category is Category.SUBJECT and c.text == "Spanish" for c in r.constraints)
    assert any(lang.id in v.constraint_ids for v in _misread(r))


def test_answer_in_the_asked_language_is_not_flagged(guard: Guard) -> None:
    r = guard.check(
        "Answer in Spanish: what is the tallest mountain on Earth?",
        "El monte Everest es la montaña más alta de la Tierra.",
    )
    (lang,) = _language(r)
    assert lang.status is Status.SATISFIED and not _misread(r)


def test_translation_left_in_the_source_language_is_flagged(guard: Guard) -> None:
    r = guard.check("Translate 'good morning' into French.", "Good morning! Have a great day.")
    (lang,) = _language(r)
    assert lang.params == {"language": "fr"} and lang.status is Status.VIOLATED
    # the quoted source text is material, not a constraint
    assert not any("morning" in c.text for c in r.constraints if c.verifier is None)
    assert _misread(r)


def test_translation_done_is_satisfied(guard: Guard) -> None:
    r = guard.check("Translate 'good morning' into French.", "Bonjour ! Je vous souhaite une très bonne journée.")
    (lang,) = _language(r)
    assert lang.status is Status.SATISFIED and not _misread(r)


def test_a_short_answer_is_unknown_not_violated(guard: Guard) -> None:
    r = guard.check("Translate 'good morning' into French.", "Bonjour !")
    (lang,) = _language(r)
    assert lang.status is Status.UNKNOWN and not _misread(r)


@pytest.mark.parametrize(
    "query",
    [
        "Tell me about the history of the Spanish language.",
        "How do you say 'thank you' in Korean?",
        "Explain the use of the subjunctive in Spanish.",
    ],
)
def test_a_language_as_topic_is_no_language_constraint(guard: Guard, query: str) -> None:
    r = guard.check(query, "Here is an answer written in plain English, as the request was written in English.")
    assert not _language(r) and not _misread(r)


def test_unasked_language_stays_a_misinterpretation(guard: Guard) -> None:
    r = guard.check(
        "Give me a recipe for pancakes.",
        "Mezcla dos huevos, una taza de harina, una taza de leche y una pizca de sal, y fríe capas finas.",
    )
    assert not _language(r) and _misread(r)


_SPANISH = (
    "Para hacer unas tortitas esponjosas, mezcla primero los ingredientes secos en un cuenco grande: la harina, el "
    "azúcar, la levadura y una pizca de sal. En otro recipiente bate los huevos con la leche y la mantequilla "
    "derretida hasta que todo quede bien integrado. "
)
_ENGLISH = (
    "To make fluffy pancakes, first whisk the dry ingredients together in a large bowl: the flour, the sugar, the "
    "baking powder and a pinch of salt. In another bowl, beat the eggs with the milk and the melted butter until "
    "everything is well combined. "
)


def test_a_long_answer_in_an_unasked_language_is_read_from_its_opening(guard: Guard) -> None:
    # the answer's language is read from its first 1,000 characters (verdicts._ANSWER_LANGUAGE_CHARS)
    spanish = guard.check("Give me a recipe for pancakes.", _SPANISH * 8)
    assert len(_SPANISH * 8) > 1000 and _misread(spanish)
    quoted = guard.check("Give me a recipe for pancakes.", _ENGLISH * 5 + "My grandmother wrote it so: " + _SPANISH * 6)
    assert len(_ENGLISH * 5) > 1000 and not _misread(quoted)
    code = "```python\n" + "total = sum(price * qty for price, qty in basket)\n" * 40 + "```\n"
    coded = guard.check("Give me a recipe for pancakes.", code + _SPANISH * 4)
    assert len(code) > 1000 and _misread(coded)  # the code is left out of the sample


@settings(max_examples=60, deadline=None)
@given(st.text(max_size=120))
def test_reading_any_text_yields_only_known_codes(text: str) -> None:
    for ask in requested_languages(parse(text)):
        assert language_code(ask.name) == ask.code
        assert 0 <= ask.name_start < ask.end <= len(text)


@pytest.mark.parametrize(
    ("previous", "followup", "code"),
    [
        ("Answer in Spanish: what is the tallest mountain?", "Now in German.", "de"),
        ("Write a haiku about the sea.", "Do that again in Japanese.", "ja"),
    ],
)
def test_a_follow_up_asking_another_language_replaces_the_carried_one(previous: str, followup: str, code: str) -> None:
    ctx = CallContext(query=followup, history=[Message(role="user", content=previous)])
    constraints = OfflineDecomposer().decompose(ctx).constraints
    assert [c.params for c in constraints if c.verifier == LANGUAGE] == [{"language": code}]
    name = next(c.text for c in constraints if c.verifier == LANGUAGE).split()[-1]
    assert not any(c.text == name for c in constraints if c.verifier is None)


@pytest.mark.parametrize(
    ("previous", "followup"),
    [
        ("What were the main causes of inflation in Japan in 2022?", "and what about in Germany?"),
        ("Describe a typical Italian dinner.", "and what about in French cuisine?"),
    ],
)
def test_a_follow_up_naming_a_place_or_a_cuisine_asks_no_language(previous: str, followup: str) -> None:
    ctx = CallContext(query=followup, history=[Message(role="user", content=previous)])
    assert not any(c.verifier == LANGUAGE for c in OfflineDecomposer().decompose(ctx).constraints)
