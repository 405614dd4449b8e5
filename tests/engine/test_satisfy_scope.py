"""Counts scoped by the request's syntax (engine/scope.py), typed table evidence, measure nouns, code forms.

Every fixture here was written for its rule; none is copied from an evaluation set.
"""

from __future__ import annotations

import pytest
from helpers import judge, status_of
from hypothesis import given, settings
from hypothesis import strategies as st

from faithguard.engine.counts import measure_noun, table_unit
from faithguard.engine.response import pipe_tables
from faithguard.engine.satisfy import check_constraint
from faithguard.engine.scope import bound_verdict, request_scope
from faithguard.engine.task_forms import software_form
from faithguard.lexical import wordnet
from faithguard.models import Category, Constraint, Status, Tier

needs_wordnet = pytest.mark.skipif(not wordnet.available(), reason="Debian wordnet-base (or nltk) not installed")


@pytest.mark.parametrize(
    ("found", "want", "rel", "expected"),
    [
        (3, 5, "<=", True),  # the whole has at most 5, so the part has
        (7, 5, "<=", None),  # the whole has more: the part may not
        (4, 5, "<", True),
        (5, 5, "<", None),
        (2, 4, ">=", False),  # the whole has fewer: so has the part
        (6, 4, ">=", None),
        (2, 4, "==", False),
        (4, 4, "==", None),  # the whole matches: the part may have fewer
        (4, 4, ">", False),
        (5, 4, ">", None),
    ],
)
def test_bound_verdict_reads_a_whole_count_as_a_bound(found: int, want: int, rel: str, expected: bool | None) -> None:
    assert bound_verdict(found, want, rel) is expected


def test_request_scope_reads_deliverables_and_per_unit_sentences() -> None:
    several = request_scope("Write a limerick of five lines. Then give a moral and a title.")
    assert several.several_deliverables
    single = request_scope("Write a limerick of five lines about a cat.")
    assert not single.several_deliverables
    per = request_scope("Plan a week of meals. Keep each meal description to two sentences.")
    assert per.distributive("two sentences")
    assert not per.distributive("a week of meals")
    # a phrase the decomposer reassembled is found by its words
    assert request_scope("For every chapter, give 2-4 key quotes.").distributive("2 quotes")


def test_enumeration_markers_are_not_counts() -> None:
    scope = request_scope("Use these phases:\n1. Kickoff\n2. Build\n3. Launch\nWrite a plan.")
    assert scope.enumeration_marker("2")
    assert not scope.enumeration_marker("two")
    assert not request_scope("Name 2 rivers. 1. Start with the longest.").enumeration_marker("2")


_LIMERICK_PLUS = (
    "A cat with a hat in the rain\nWent dancing along the lane\nShe slipped on a stone\nAnd sat there alone\n"
    "Then danced all the way home again\n\nMoral: keep dancing.\nTitle: The Rainy Cat"
)


def test_a_line_count_of_one_part_is_not_violated_by_the_other_parts() -> None:
    ctx, _ = judge("Write a limerick of exactly 5 lines. Then give a moral and a title.", _LIMERICK_PLUS)
    assert status_of(ctx, "5 lines") == "unknown"


def test_a_line_count_of_the_whole_answer_still_decides() -> None:
    ctx, _ = judge("Write a limerick of exactly 5 lines.", _LIMERICK_PLUS)
    assert status_of(ctx, "5 lines") == "violated"


def test_a_bound_still_decides_the_sound_direction() -> None:
    short = "A cat in the rain\nWent down the lane\n\nMoral: keep dancing."
    ctx, _ = judge("Write a limerick of exactly 5 lines. Then give a moral and a title.", short)
    assert status_of(ctx, "5 lines") == "violated"  # 3 lines in all: the limerick has fewer than 5


def test_a_per_unit_sentence_count_is_not_checked_on_the_whole_answer() -> None:
    response = "Monday: pasta with tomato sauce. It is quick to make.\nTuesday: rice and beans. It keeps well."
    ctx, _ = judge("Plan two days of meals, keeping each day's description to one sentence.", response)
    assert all(c.status is not Status.VIOLATED for c in ctx.constraints if "one sentence" in c.text)


def test_a_whole_answer_sentence_count_still_decides() -> None:
    ctx, _ = judge("Describe the moon in one sentence.", "The moon is bright. It orbits the Earth. It has craters.")
    assert status_of(ctx, "one sentence") == "violated"


def _quantity(text: str) -> Constraint:
    return Constraint(id="c1", text=text, category=Category.QUANTITY, tier=Tier.IMPORTANT)


_THREE_ITEMS = "1. Buy milk\n2. Call Ana\n3. Pay rent"


def test_a_percentage_is_not_a_count() -> None:
    assert check_constraint(_quantity("50%"), _THREE_ITEMS)[0] is Status.UNKNOWN


def test_a_bare_number_without_a_noun_or_subject_is_not_counted() -> None:
    assert check_constraint(_quantity("2"), _THREE_ITEMS)[0] is Status.UNKNOWN
    assert check_constraint(_quantity("3 tasks"), _THREE_ITEMS)[0] is Status.SATISFIED


@needs_wordnet
@pytest.mark.parametrize(
    ("noun", "measure"), [("minute", True), ("miles", True), ("tasks", False), ("examples", False)]
)
def test_measure_nouns_come_from_wordnet(noun: str, measure: bool) -> None:
    assert measure_noun(noun) is measure


@needs_wordnet
def test_a_measured_amount_is_not_a_count_of_items() -> None:
    assert check_constraint(_quantity("10 minutes"), _THREE_ITEMS)[0] is Status.UNKNOWN


def _action(text: str) -> Constraint:
    return Constraint(id="c1", text=text, category=Category.ACTION, tier=Tier.MANDATORY)


@needs_wordnet
@pytest.mark.parametrize(
    ("text", "software"), [("Write a function", True), ("Write code", True), ("Create a bedtime script", False)]
)
def test_a_code_form_needs_a_software_sense(text: str, software: bool) -> None:
    assert software_form(_action(text), []) is software


_PROSE = (
    "Close your eyes and breathe in slowly. Let the air fill your chest. Hold it for a moment. "
    "Now breathe out and let your shoulders drop. Notice the quiet around you."
)


@needs_wordnet
def test_prose_for_a_script_is_no_misinterpretation() -> None:
    ctx, verdicts = judge("Create a bedtime relaxation script.", _PROSE)
    assert status_of(ctx, "Create") != "violated"
    assert not [v for v in verdicts if v.kind == "misinterpretation"]


@needs_wordnet
def test_prose_for_a_function_is_still_violated() -> None:
    ctx, verdicts = judge("Write a function that reverses a string.", _PROSE)
    assert status_of(ctx, "Write") == "violated"
    assert [v for v in verdicts if v.kind == "misinterpretation"]


def test_a_list_request_answered_with_prose_and_code_is_not_violated() -> None:
    response = (
        "The loop stops one step early. The index starts at one. The sum is never returned.\n\n"
        "```python\ndef total(xs):\n    s = 0\n    for x in xs:\n        s += x\n    return s\n```"
    )
    ctx, _ = judge("Identify the bugs in this function and fix them.", response)
    assert status_of(ctx, "Identify") != "violated"


_TABLE = (
    "| Fruit | Colour | Taste |\n|---|:---:|---:|\n"
    "| apple | red | sweet |\n| lime | green | sour |\n| plum | purple | sweet |"
)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (_TABLE, ((3, 3),)),
        ("a | b\n--|--\n1 | 2", ((1, 2),)),
        (_TABLE + "\n\nNotes.\n\n| x | y |\n|---|---|\n| 1 | 2 |", ((3, 3), (1, 2))),
        ("Title\n---\nplain text | with a pipe", ()),  # a setext heading, not a table
        ("| a | b |\n|---|\n| 1 | 2 |", ()),  # the delimiter row must match the header
    ],
)
def test_pipe_tables(text: str, expected: tuple[tuple[int, int], ...]) -> None:
    assert pipe_tables(text) == expected


@pytest.mark.parametrize(
    ("text", "unit"),
    [("2 rows", "row"), ("three tables", "table"), ("a two-column table", "column"), ("10 questions", None)],
)
def testtable_unit(text: str, unit: str | None) -> None:
    assert table_unit(text) == unit


def test_table_counts_decide_only_when_every_reading_agrees() -> None:
    assert check_constraint(_quantity("two tables"), "No table here, only prose.")[0] is Status.VIOLATED
    assert check_constraint(_quantity("one table"), _TABLE)[0] is Status.SATISFIED
    assert check_constraint(_quantity("5 rows"), _TABLE)[0] is Status.VIOLATED  # 3 body rows, or 4 with the header
    assert check_constraint(_quantity("3 rows"), _TABLE)[0] is Status.UNKNOWN  # is the header a row?
    assert check_constraint(_quantity("at least 2 columns"), _TABLE)[0] is Status.SATISFIED
    assert check_constraint(_quantity("3 columns"), _TABLE)[0] is Status.UNKNOWN  # is the first a label column?
    assert check_constraint(_quantity("3 rows"), "no table")[0] is Status.UNKNOWN


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.sampled_from("|-: a\n\t"), max_size=200))
def test_pipe_tables_never_fail_and_report_sane_shapes(text: str) -> None:
    for rows, cols in pipe_tables(text):
        assert rows >= 0 and cols >= 2


@settings(max_examples=25, deadline=None)
@given(st.text(max_size=120))
def test_request_scope_reads_any_text(text: str) -> None:
    scope = request_scope(text)
    assert all(0 <= a <= b <= len(text) for a, b in scope.per_unit)
    scope.distributive(text[:10])
    scope.enumeration_marker(text[:3])


def _subject(text: str) -> Constraint:
    return Constraint(id="c1", text=text, category=Category.SUBJECT, tier=Tier.MANDATORY)


_OFF = (
    "The harbour was quiet that morning and the fishermen mended their nets while gulls circled above the "
    "boats, waiting for scraps, and the old lighthouse keeper walked slowly along the pier with his dog "
    "before the market opened and the first buyers arrived."
)


def test_prose_that_never_mentions_the_request_is_off_topic() -> None:
    assert check_constraint(_subject("volcanoes"), _OFF, [_subject("volcanoes")])[0] is Status.VIOLATED


def test_a_pattern_or_symbols_answer_is_not_prose_and_not_off_topic() -> None:
    pattern = "^(" + "|".join(f"{i}[0-9]" for i in range(30)) + r")\.\d+$"
    assert check_constraint(_subject("pattern"), pattern, [_subject("pattern")])[0] is Status.UNKNOWN


def test_an_answer_about_the_supplied_documents_is_not_off_topic() -> None:
    docs = "Question: why do the fishermen mend their nets at the harbour before the market opens?"
    assert check_constraint(_subject("question"), _OFF, [_subject("question")], docs)[0] is Status.UNKNOWN


def _exclusion_of(text: str) -> Constraint:
    return Constraint(id="c1", text=text, category=Category.OTHER, tier=Tier.IMPORTANT, negated=True)


def test_a_restricted_exclusion_is_not_decided_by_a_mention() -> None:
    response = "Stage one: gather the tasks. Stage two: assign the tasks to the team."
    c = _exclusion_of("not list any tasks for the first stage")
    assert check_constraint(c, response)[0] is Status.UNKNOWN


def test_a_plain_exclusion_is_still_decided_by_a_mention() -> None:
    c = _exclusion_of("do not mention dogs")
    assert check_constraint(c, "Cats are calm. Dogs are loyal and playful.")[0] is Status.VIOLATED


_FOUR_TIPS = (
    "Here are the tips:\n1. Sleep early\n2. Drink water\n3. Walk daily\n4. Read more\n\nWhy they work: rest and habit."
)


def test_exactly_the_asked_items_satisfy_a_count_in_a_several_part_request() -> None:
    ctx, _ = judge("Give 4 health tips and a short explanation.", _FOUR_TIPS)
    assert status_of(ctx, "4") == "satisfied"


def test_more_items_than_asked_in_a_several_part_request_are_not_a_violation() -> None:
    ctx, _ = judge("Give 3 health tips and a short explanation.", _FOUR_TIPS)
    assert status_of(ctx, "3") == "unknown"


_PASTED_TABLE = (
    "Turn the following table into a short paragraph.\n\n"
    "| Year | Visitors |\n|---|---|\n| 2017 | 410 |\n| 2018 | 530 |\n\nKeep it under 80 words."
)


def test_a_pasted_table_is_content_not_constraints() -> None:
    ctx, _ = judge(_PASTED_TABLE, "Visitors rose from 410 in 2017 to 530 in 2018.")
    texts = " ".join(c.text for c in ctx.constraints)
    assert "2017" not in texts and "410" not in texts
    assert any("80 words" in c.text or c.params.get("num_words") == 80 for c in ctx.constraints)


def test_a_table_described_in_words_stays_an_instruction() -> None:
    ctx, _ = judge("Make a table with 3 rows about rivers.", "| River | Country |\n|---|---|\n| Ebro | Spain |")
    assert any("3 rows" in c.text for c in ctx.constraints)


_TEN = "\n".join(f"{i}. Item number {i}" for i in range(1, 11))


@needs_wordnet
def test_points_that_may_be_a_score_are_not_counted_as_items() -> None:
    assert check_constraint(_quantity("100 points"), _TEN)[0] is Status.UNKNOWN
    assert check_constraint(_quantity("10 bullet points"), _TEN)[0] is Status.SATISFIED


def test_a_number_with_a_symbol_names_nothing_to_count() -> None:
    assert check_constraint(_quantity("57 F"), _TEN)[0] is Status.UNKNOWN


def _time_c(text: str) -> Constraint:
    return Constraint(id="c1", text=text, category=Category.TIME, tier=Tier.MANDATORY)


_EVENTS = "- 1963: a bridge opens.\n- 1971: a library opens.\n- 1988: a stadium opens."


def test_a_range_cut_by_the_decomposer_is_read_with_its_end_from_the_request() -> None:
    query = "List town events from 1960 to the present, one per line."
    assert check_constraint(_time_c("from 1960"), _EVENTS, query=query)[0] is Status.SATISFIED
    assert check_constraint(_time_c("from 1960"), _EVENTS)[0] is Status.VIOLATED  # alone it names one year
    query_end = "List town events from 1960 to 1970, one per line."
    assert check_constraint(_time_c("from 1960"), _EVENTS, query=query_end)[0] is Status.VIOLATED


def test_pasted_material_adds_no_deliverable() -> None:
    query = "Summarize the email below in two sentences.\n\n```\nPlease write a memo and a reply today.\n```"
    assert request_scope(query).deliverables == frozenset({"email"})


def test_a_per_unit_marker_does_not_reach_a_coordinated_count() -> None:
    scope = request_scope("The chart should have 4 bars for the years, and 2 labels for each bar.")
    assert scope.distributive("2 labels")
    assert not scope.distributive("4 bars")


def test_documents_on_another_topic_do_not_rescue_an_off_topic_answer() -> None:
    docs = "Question: which volcanoes erupted in Iceland during the last decade?"
    assert check_constraint(_subject("volcanoes"), _OFF, [_subject("volcanoes")], docs)[0] is Status.VIOLATED
