from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from faithguard import Guard
from faithguard.engine.parts import answer_kind


@pytest.fixture(scope="module")
def guard() -> Guard:
    return Guard(judge=None)


@pytest.mark.parametrize(
    ("question", "kind"),
    [
        ("And roughly how many people live there?", "number"),
        ("2. When was it built?", "date"),
        ("In what year did it open?", "date"),
        ("Where is it displayed today?", "place"),
        ("Who designed it?", "person"),
        ("Why is the sky blue?", None),
        ("What is the capital of Peru?", None),
    ],
)
def test_answer_kind(question: str, kind: str | None) -> None:
    assert answer_kind(question) == kind


def test_skipped_part_of_a_multi_part_question_is_an_omission(guard: Guard) -> None:
    query = "What is the capital of Australia? And roughly how many people live there?"
    skipped = guard.check(query, "The capital of Australia is Canberra.")
    assert "omission" in [v.kind for v in skipped.verdicts]
    assert all(c.status == "violated" for c in skipped.constraints if c.subquestion == 1 and c.tier != "optional")
    answered = guard.check(query, "The capital of Australia is Canberra, home to about 460,000 people.")
    assert "omission" not in [v.kind for v in answered.verdicts]


def test_joined_wh_questions_are_split(guard: Guard) -> None:
    parts = guard.inspect("When was the Mona Lisa painted, and where is it displayed today?").decomposition.subquestions
    assert [p.text for p in parts] == ["When was the Mona Lisa painted", "where is it displayed today?"]
    assert [p.position for p in parts] == [0.0, 1.0]


@pytest.mark.parametrize(
    ("query", "parts"),
    [
        # no comma: the second wh-word opens a question clause of its own (an auxiliary or a quantity word after it)
        ("Who built the aqueduct and when was it finished?", ["Who built the aqueduct", "when was it finished?"]),
        ("Which lake is deeper and how much does it hold?", ["Which lake is deeper", "how much does it hold?"]),
        # a free relative ("what they ate") is no question of its own
        ("What is the link between what they ate and what they wore?", None),
    ],
)
def test_wh_questions_joined_by_a_bare_and_are_split(guard: Guard, query: str, parts: list[str] | None) -> None:
    found = [p.text for p in guard.inspect(query).decomposition.subquestions]
    assert found == (parts if parts is not None else [query])


def test_a_dropped_second_question_leaves_the_answer_short_of_perfect(guard: Guard) -> None:
    report = guard.check("How tall is the tower and how many people visit it each year?", "It is 330 metres tall.")
    assert not report.perfect and report.outcome != "ok"


def test_single_questions_are_not_judged_by_answer_kind(guard: Guard) -> None:
    report = guard.check("How many moons does Mars have?", "Mars has a couple of small moons.")
    assert "omission" not in [v.kind for v in report.verdicts]


@given(st.text(max_size=200))
def test_answer_kind_never_crashes(text: str) -> None:
    assert answer_kind(text) in (None, "number", "date", "place", "person")
