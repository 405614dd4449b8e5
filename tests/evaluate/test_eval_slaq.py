"""The short-long consistency probe (SLAQ) with scripted fakes, and the offline answer comparison."""

from __future__ import annotations

from typing import Any

import pytest
from eval_fixtures import TagDecomposer, make_guard
from hypothesis import given, settings
from hypothesis import strategies as st

from faithguard.detector import CallContext
from faithguard.evaluate.answers import assign_parts, compare_answers, split_answer
from faithguard.evaluate.slaq import ConsistencyProbe
from faithguard.models import Report
from faithguard.testing import ScriptedLLM

QUERY = "When was Einstein born? | When did Einstein win the Nobel Prize? | Where did Einstein die?"
LONG = "1. Einstein was born in 1879.\n2. He won the Nobel Prize in 1921.\n3. He died in Princeton."
SHORTS = ["Einstein was born in 1879.", "He won it in 1922.", "He died in Princeton, New Jersey."]


def _consistency(report: Report) -> dict[str, Any]:
    return report.findings["consistency"]  # type: ignore[no-any-return]


def test_probe_flags_the_clashing_part_and_reports_positions_and_cost(otel: Any) -> None:
    llm = ScriptedLLM(SHORTS)
    probe = ConsistencyProbe.from_model(llm)
    with make_guard([probe], **otel.providers()) as guard:
        report = guard.check(QUERY, LONG)
    assert llm.prompts == [
        "When was Einstein born?",
        "When did Einstein win the Nobel Prize?",
        "Where did Einstein die?",
    ]
    found = _consistency(report)
    assert [p["agree"] for p in found["parts"]] == [True, False, True]
    assert [p["query_position"] for p in found["parts"]] == [0.0, 0.5, 1.0]
    assert [p["answer_part"] for p in found["parts"]] == [0, 1, 2]
    positions = [p["answer_position"] for p in found["parts"]]
    assert 0.0 <= positions[0] < positions[1] < positions[2] < 1.0
    assert found["agreement"] == pytest.approx(2 / 3) and found["inconsistent"] == 1
    assert found["cost"]["calls"] == 3 and found["cost"]["latency_ms"] >= 0.0
    assert found["alignment"] is None  # no gold answers: SLAQ's correctness-based figures are not claimed
    [verdict] = [v for v in report.verdicts if v.kind == "inconsistency"]
    assert verdict.severity == "warning" and verdict.detector == "consistency"
    assert "Nobel Prize" in verdict.explanation and "1922" in verdict.explanation and "1921" in verdict.explanation
    [span] = [s for s in otel.spans.get_finished_spans() if s.name == "detect consistency"]
    assert span.attributes["faithguard.consistency.calls"] == 3
    assert span.attributes["faithguard.consistency.inconsistent"] == 1
    assert "faithguard.consistency.latency_ms" in span.attributes


def test_single_part_queries_cost_nothing() -> None:
    llm = ScriptedLLM(["x"])
    with make_guard([ConsistencyProbe.from_model(llm)]) as guard:
        report = guard.check("When was Einstein born? [time:1879]", "In 1879.")
    assert llm.prompts == [] and "consistency" not in report.findings


def test_budget_and_sampling_cap_the_extra_calls() -> None:
    llm = ScriptedLLM(SHORTS)
    probe = ConsistencyProbe.from_model(llm, max_calls=4)
    with make_guard([probe]) as guard:
        first = _consistency(guard.check(QUERY, LONG))
        second = _consistency(guard.check(QUERY, LONG))
        third = _consistency(guard.check(QUERY, LONG))
    assert first["probed"] == 3 and second["probed"] == 1 and second["skipped_parts"] == 2
    assert third == {"status": "skipped", "reason": "call budget exhausted", "cost": {"calls": 0, "latency_ms": 0.0}}
    assert len(llm.prompts) == 4 and probe.remaining == 0
    never = ConsistencyProbe(lambda q: "x", sample_rate=0.0)
    with make_guard([never]) as guard:
        assert _consistency(guard.check(QUERY, LONG))["reason"] == "not sampled"
    with pytest.raises(ValueError):
        ConsistencyProbe(lambda q: "x", sample_rate=1.5)


def test_sampling_is_seeded_and_roughly_at_rate() -> None:
    def run(seed: int) -> list[str]:
        probe = ConsistencyProbe(lambda q: "1879", sample_rate=0.3, seed=seed, max_calls=None)
        ctx = _ctx()
        return [probe.run(ctx).findings["consistency"]["status"] for _ in range(200)]

    a, b = run(7), run(7)
    assert a == b
    assert 30 <= a.count("ok") <= 90


def _ctx(judge: Any = None, response: str = LONG) -> CallContext:
    ctx = CallContext(query=QUERY, judge=judge)
    ctx.decomposition = TagDecomposer().decompose(ctx)
    ctx.response = response
    return ctx


def test_gold_answers_give_slaq_alignment_and_signed_alignment() -> None:
    gold = {
        "When was Einstein born?": "1879",
        "When did Einstein win the Nobel Prize?": "1921",
        "Where did Einstein die?": "Berlin",
    }
    probe = ConsistencyProbe(ScriptedLLM(SHORTS), gold=gold)
    found = probe.run(_ctx()).findings["consistency"]
    parts = found["parts"]
    assert [(p["short_correct"], p["long_correct"]) for p in parts] == [(True, True), (False, True), (False, False)]
    assert found["facts"] == 3
    assert found["alignment"] == pytest.approx(2 / 3)
    assert found["signed_alignment"] == pytest.approx((1 + 0 - 1) / 3)
    assert found["short_accuracy"] == pytest.approx(1 / 3) and found["long_accuracy"] == pytest.approx(2 / 3)


def test_a_judge_with_compare_answers_is_preferred_and_a_failing_one_falls_back() -> None:
    class Judge:
        def __init__(self, fail: bool) -> None:
            self.fail, self.calls = fail, 0

        def compare_answers(self, question: str, a: str, b: str) -> bool | None:
            self.calls += 1
            if self.fail:
                raise RuntimeError("judge down")
            return True

    ok = Judge(fail=False)
    found = ConsistencyProbe(ScriptedLLM(SHORTS)).run(_ctx(judge=ok)).findings["consistency"]
    assert ok.calls == 3 and {p["method"] for p in found["parts"]} == {"judge"}
    assert found["inconsistent"] == 0
    down = Judge(fail=True)
    found = ConsistencyProbe(ScriptedLLM(SHORTS)).run(_ctx(judge=down)).findings["consistency"]
    assert {p["method"] for p in found["parts"]} == {"offline"} and found["inconsistent"] == 1


def test_a_failing_ask_is_recorded_per_part() -> None:
    def ask(question: str) -> str:
        if "Nobel" in question:
            raise TimeoutError("model timed out")
        return "Einstein was born in 1879." if "born" in question else "Princeton."

    result = ConsistencyProbe(ask).run(_ctx())
    parts = result.findings["consistency"]["parts"]
    assert parts[1]["agree"] is None and "TimeoutError" in parts[1]["error"]
    assert parts[0]["agree"] is True and not result.verdicts


def test_probe_built_from_the_wrapped_model_function_does_not_recurse() -> None:
    llm = ScriptedLLM([LONG, *SHORTS])
    reports: list[Report] = []
    holder: dict[str, Any] = {}
    probe = ConsistencyProbe.from_model(lambda q: holder["fn"](q))
    guard = make_guard([probe])
    holder["fn"] = guard.wrap(on_report=reports.append)(llm)
    try:
        answer = holder["fn"](QUERY)
    finally:
        guard.close()
    assert answer == LONG and len(llm.prompts) == 4
    outer = reports[-1]
    assert _consistency(outer)["inconsistent"] == 1
    assert all(
        "consistency" not in r.findings or r.findings["consistency"]["status"] == "skipped" for r in reports[:-1]
    )


def test_async_model_functions_work() -> None:
    llm = ScriptedLLM(SHORTS, shape="completion")
    probe = ConsistencyProbe.from_model(llm.acall)
    found = probe.run(_ctx()).findings["consistency"]
    assert [p["short_answer"] for p in found["parts"]] == SHORTS


def test_split_answer_items_paragraphs_sentences() -> None:
    assert [p.text for p in split_answer("Here you go:\n1. Alpha one.\n2) Beta two.\n- Gamma")] == [
        "Alpha one.",
        "Beta two.",
        "Gamma",
    ]
    assert [p.text for p in split_answer("First para.\nStill first.\n\nSecond para.")] == [
        "First para.\nStill first.",
        "Second para.",
    ]
    parts = split_answer("He was born in 1879. He died in 1955.")
    assert [p.text for p in parts] == ["He was born in 1879.", "He died in 1955."]
    assert parts[1].start == len("He was born in 1879. ")


def test_assign_parts_by_overlap_when_counts_differ() -> None:
    parts = split_answer("Paris is the capital. The Seine flows through it. Its mayor is elected.")
    got = assign_parts(["Which river flows through the city?", "Who is elected mayor?"], parts)
    assert got == [(1, "overlap"), (2, "overlap")]
    assert assign_parts(["a?", "b?"], []) == [(None, "none"), (None, "none")]


@pytest.mark.parametrize(
    ("short", "long", "agree"),
    [
        ("He was born in 1879.", "Einstein was born on 14 March 1879 in Ulm.", True),
        ("It lasted from 264 to 243 BCE.", "The war ran from 264 to 241 BC.", False),
        ("The capital is Paris.", "Its capital city is Lyon.", False),
        ("The capital is Paris.", "Paris, of course.", True),
        ("It was in March.", "This happened in June.", False),
        ("Blue.", "It depends on the light.", None),
        ("", "anything", None),
    ],
)
def test_compare_answers_cases(short: str, long: str, agree: bool | None) -> None:
    assert compare_answers("What is it?", short, long).agree is agree


def test_what_the_question_names_is_not_an_answer() -> None:
    # Both answers repeat the question's year; only the answers' own numbers count.
    result = compare_answers("What happened in 1905?", "In 1905 he published 4 papers.", "In 1905 he wrote 3 papers.")
    assert result.agree is False and "4" in result.evidence


@settings(max_examples=25, deadline=None)
@given(st.text(max_size=120), st.text(max_size=120))
def test_arbitrary_text_never_crashes_the_comparison(a: str, b: str) -> None:
    parts = split_answer(b)
    assert all(0 <= p.start <= p.end <= len(b) and b[p.start : p.end] == p.text for p in parts)
    assert compare_answers("Why?", a, b).agree in (True, False, None)
