"""Per-unit constraints: one mechanism (unit, scope, quantity, relation) for the creative-writing class."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from faithguard import Guard
from faithguard.models import Status
from faithguard.verifiers import detect, verify
from faithguard.verifiers.units import PER_UNIT, UNITS, segments

S, V, U = Status.SATISFIED, Status.VIOLATED, Status.UNKNOWN

TWO_QUATRAINS = (
    "Waves roll in slow\nGulls wheel and cry\nThe tide runs low\nBeneath the sky\n\n"
    "The harbour sleeps\nThe lanterns glow\nThe sea still keeps\nIts ebb and flow"
)
NIGHT = "Stars burn quietly in the night\nWe walk together through the night\nNo one is afraid of the night"
FIVE_WORDS = (
    "The moon is very bright\nStars shine above the hills\nWind whispers through old trees\nNight settles on the town"
)


def _per_unit(query: str) -> list[dict[str, Any]]:
    return [s.params for s in detect(query) if s.verifier == PER_UNIT]


@pytest.mark.parametrize(
    ("params", "response", "want"),
    [
        ({"unit": "stanza", "relation": "count", "of": "line", "n": 4}, TWO_QUATRAINS, S),
        ({"unit": "stanza", "relation": "count", "of": "line", "n": 3}, TWO_QUATRAINS, V),
        ({"unit": "line", "relation": "ends_with", "value": "night"}, NIGHT, S),
        ({"unit": "line", "relation": "ends_with", "value": "night"}, NIGHT + "\nThen comes the day", V),
        ({"unit": "line", "relation": "count", "of": "word", "n": 5}, FIVE_WORDS, S),
        ({"unit": "line", "relation": "count", "of": "word", "n": 6}, FIVE_WORDS, V),
        ({"unit": "line", "relation": "count", "of": "word", "n": 4, "comparison": "at least"}, FIVE_WORDS, S),
        ({"unit": "paragraph", "index": 2, "relation": "starts_with", "value": "Roots"}, "Trees.\n\nRoots grip.", S),
        ({"unit": "paragraph", "index": 2, "relation": "starts_with", "value": "Roots"}, "Roots.\n\nTrees grip.", V),
        ({"unit": "paragraph", "index": 3, "relation": "starts_with", "value": "Roots"}, "Trees.\n\nRoots grip.", V),
        (
            {"unit": "stanza", "index": -1, "relation": "ends_with", "kind": "phrase", "value": "we rest"},
            "a b\n\nso we rest",
            S,
        ),
        ({"unit": "sentence", "relation": "contains", "value": "river"}, "The river runs. A river sings.", S),
        ({"unit": "sentence", "relation": "contains", "value": "river"}, "The river runs. A brook sings.", V),
        ({"unit": "bullet", "relation": "starts_with", "kind": "letter", "value": "b"}, "- big\n- bold\n* brave", S),
        ({"unit": "word", "relation": "starts_with", "kind": "letter", "value": "s"}, "Silent sea sings", S),
        ({"unit": "line", "relation": "count", "of": "word", "n": 5}, "", V),
        ({"unit": "line", "relation": "count", "of": "word"}, "a b", U),
        ({"unit": "chapter", "relation": "count", "of": "word", "n": 1}, "a", U),
        ({"unit": "line", "relation": "starts_with", "kind": "letter", "value": "ab"}, "a b", U),
    ],
)
def test_check(params: dict[str, Any], response: str, want: Status) -> None:
    assert verify(PER_UNIT, params, response).status is want


@pytest.mark.parametrize(
    ("query", "want"),
    [
        (
            "Write a poem about the sea in exactly 2 stanzas of 4 lines each.",
            {"unit": "stanza", "of": "line", "n": 4, "relation": "count", "comparison": "exactly", "scope": "each"},
        ),
        (
            "Write a short poem about stars. End every line with the word 'night'.",
            {"unit": "line", "relation": "ends_with", "kind": "word", "value": "night", "scope": "each"},
        ),
        (
            "Write a four-line poem where each line has exactly five words.",
            {"unit": "line", "of": "word", "n": 5, "relation": "count", "comparison": "exactly", "scope": "each"},
        ),
        (
            "Write three paragraphs about trees. Start paragraph 2 with the word 'Roots'.",
            {"unit": "paragraph", "index": 2, "relation": "starts_with", "kind": "word", "value": "Roots"},
        ),
        (
            'Every sentence of the story should contain the word "lantern".',
            {"unit": "sentence", "relation": "contains", "kind": "word", "value": "lantern", "scope": "each"},
        ),
        (
            "Compose a limerick; the last line must end with the word 'cheese'.",
            {"unit": "line", "index": -1, "relation": "ends_with", "kind": "word", "value": "cheese"},
        ),
    ],
)
def test_detected_as_one_per_unit_constraint(query: str, want: dict[str, Any]) -> None:
    assert _per_unit(query) == [want]


def test_no_spurious_whole_response_constraints() -> None:
    ids = {s.verifier for s in detect("End every line with the word 'night'.")}
    assert ids == {PER_UNIT}  # no ban on 'with', no ending of the whole answer, no keyword rule
    ids = {s.verifier: s.params for s in detect("exactly 2 stanzas of 4 lines each")}
    assert "creative:lines" not in ids and ids["creative:stanzas"]["num_stanzas"] == 2


@pytest.mark.parametrize(
    "query",
    [
        "Each line should be vivid.",
        "Start each paragraph with a question.",
        "Every stanza should include an image of water.",
        "Use vivid imagery in every stanza.",
        "Write five lines about the sea.",
    ],
)
def test_no_per_unit_constraint_without_a_definite_value(query: str) -> None:
    assert _per_unit(query) == []


@pytest.fixture(scope="module")
def guard() -> Guard:
    return Guard(load_entrypoints=False, judge=None, detector_timeout=120)


@pytest.mark.parametrize(
    ("query", "good", "bad"),
    [
        ("Write a poem about the sea in exactly 2 stanzas of 4 lines each.", TWO_QUATRAINS, NIGHT),
        ("Write a short poem about stars. End every line with the word 'night'.", NIGHT, FIVE_WORDS),
        (
            "Write a four-line poem where each line has exactly four words.",
            "a b c d\ne f g h\ni j k l\nm n o p",
            FIVE_WORDS,
        ),
        (
            "Write three paragraphs about trees. Start paragraph 2 with the word 'Roots'.",
            "Trees grow.\n\nRoots hold soil.\n\nLeaves fall.",
            "Roots hold soil.\n\nTrees grow.\n\nLeaves fall.",
        ),
    ],
)
def test_creative_cases_through_guard_check(guard: Guard, query: str, good: str, bad: str) -> None:
    def per_unit_status(response: str) -> Status:
        report = guard.check(query, response)
        (c,) = [c for c in report.constraints if c.verifier == PER_UNIT]
        return c.status

    assert per_unit_status(good) is S
    assert per_unit_status(bad) is V


@given(st.sampled_from(UNITS), st.text(max_size=200))
def test_segments_never_crash_and_hold_text(unit: str, text: str) -> None:
    for seg in segments(unit, text):
        assert seg.strip()


@given(st.integers(1, 6), st.integers(1, 6))
def test_count_matches_construction(lines_per_stanza: int, stanzas: int) -> None:
    poem = "\n\n".join("\n".join(f"word{i} word{j}" for j in range(lines_per_stanza)) for i in range(stanzas))
    params = {"unit": "stanza", "relation": "count", "of": "line", "n": lines_per_stanza}
    assert verify(PER_UNIT, params, poem).status is S
    assert verify(PER_UNIT, {**params, "n": lines_per_stanza + 1}, poem).status is V


@given(
    st.fixed_dictionaries(
        {
            "unit": st.sampled_from([*UNITS, "chapter"]),
            "relation": st.sampled_from(["count", "starts_with", "ends_with", "contains", "rhymes"]),
            "of": st.sampled_from(["word", "line", "sentence", "letter", "page"]),
            "n": st.integers(-2, 5),
            "kind": st.sampled_from(["word", "letter", "phrase"]),
            "value": st.text(max_size=6),
        },
        optional={"index": st.integers(-4, 4), "comparison": st.sampled_from(["exactly", "at least", "about"])},
    ),
    st.text(max_size=120),
)
def test_per_unit_never_crashes(params: dict[str, Any], text: str) -> None:
    assert verify(PER_UNIT, params, text).status in (S, V, U)
