"""Pure metric functions: hand-computed cases and hypothesis properties."""

from __future__ import annotations

import math

from hypothesis import given
from hypothesis import strategies as st

from faithguard.evaluate.slaq import slaq_metrics
from faithguard.evaluate.summary import (
    PartFacts,
    RowFacts,
    binary_agreement,
    consistency_summary,
    difficulty,
    difficulty_split,
    facts_from_row,
    gold_agreement,
    hypoterm_summary,
    mean_score,
    perfect_rate,
    score_histogram,
    summarize,
    verdict_rates,
    violations_by_category,
)


def _row(key: str, **kw: object) -> RowFacts:
    return RowFacts(key=key, **kw)  # type: ignore[arg-type]


def test_perfect_rate_counts_only_decided_rows() -> None:
    facts = [
        _row("a", perfect=True, judged=2, total=2, score=10.0),
        _row("b", judged=2, total=2, score=5.0, violated_categories=("subject",), outcome="hallucination"),
        _row("c", total=3, judged=0),  # nothing judged, no verdict: undecided
        _row("d", perfect=False, verdict_kinds=("fabricated_term",), outcome="hallucination"),  # decided by a verdict
        _row("e", ok=False),
        # partly judged, nothing alarming, the rest unknown: the guard's outcome is undetermined, so undecided here
        # too (it was counted as a hallucination)
        _row("f", perfect=False, judged=1, total=3, score=10.0, outcome="undetermined"),
    ]
    assert perfect_rate(facts) == 1 / 3
    assert mean_score(facts) == 25 / 3


def test_difficulty_thresholds_follow_faithqa() -> None:
    assert [difficulty(n) for n in (0, 1, 4, 5, 9)] == ["none", "easy", "easy", "hard", "hard"]
    facts = [
        _row("a", total=4, judged=4, perfect=True, score=10.0),
        _row("b", total=5, judged=5, score=6.0, outcome="hallucination"),
    ]
    split = difficulty_split(facts)
    assert split["easy"] == {"rows": 1, "perfect_rate": 1.0, "mean_constraint_score": 10.0}
    assert split["hard"] == {"rows": 1, "perfect_rate": 0.0, "mean_constraint_score": 6.0}


def test_violations_by_category_and_verdict_rates() -> None:
    facts = [
        _row("a", violated_categories=("subject", "subject", "time"), verdict_kinds=("omission",)),
        _row("b", violated_categories=("action",), verdict_kinds=("omission", "misinterpretation")),
        _row("c"),
        _row("d"),
    ]
    v = violations_by_category(facts)
    assert v["total"] == 4 and v["counts"] == {"time": 1, "subject": 2, "action": 1}
    assert v["share"]["subject"] == 0.5
    rates = verdict_rates(facts)
    assert rates["omission"] == {"rows": 2, "rate": 0.5}
    assert rates["misinterpretation"] == {"rows": 1, "rate": 0.25}


def test_binary_agreement_hand_computed() -> None:
    a = binary_agreement([(True, True), (True, False), (False, True), (False, False), (True, True)])
    assert (a["tp"], a["fp"], a["fn"], a["tn"]) == (2, 1, 1, 1)
    assert a["accuracy"] == 0.6 and a["precision"] == 2 / 3 and a["recall"] == 2 / 3
    assert binary_agreement([])["accuracy"] is None


def test_gold_agreement_perfect_verdicts_and_mae() -> None:
    facts = [
        _row("a", perfect=True, judged=1, score=10.0, gold_perfect=True, gold_verdicts=(), gold_score=9.0),
        _row(
            "b",
            perfect=False,
            judged=1,
            score=4.0,
            gold_perfect=False,
            verdict_kinds=("omission",),
            gold_verdicts=("omission",),
            gold_score=6.0,
            outcome="hallucination",
        ),
        _row("c", perfect=True, judged=1, score=10.0, gold_perfect=False, gold_verdicts=("omission",)),
        _row("d", judged=0, gold_perfect=True),
    ]
    g = gold_agreement(facts)
    assert g is not None
    assert g["perfect"]["n"] == 3 and g["perfect"]["undecided"] == 1
    assert g["perfect"]["recall"] == 0.5 and g["perfect"]["precision"] == 1.0
    assert g["verdicts"]["omission"]["tp"] == 1 and g["verdicts"]["omission"]["fn"] == 1
    assert g["score_mae"] == 1.5
    assert gold_agreement([_row("x")]) is None


def test_hypoterm_score_is_valid_share_of_hypothetical_questions() -> None:
    facts = [
        _row(
            "a",
            is_hypothetical=True,
            answer_label="valid",
            flagged_terms=frozenset({"zorblax"}),
            gold_terms=(("Zorblax", True), ("Paris", False)),
        ),
        _row("b", is_hypothetical=True, answer_label="hallucination"),
        _row("c", is_hypothetical=True, answer_label=None),
        _row("d", is_hypothetical=False, answer_label="valid"),
    ]
    h = hypoterm_summary(facts)
    assert h is not None
    assert h["hypothetical_questions"] == 3 and h["labelled"] == 2 and h["unlabelled"] == 1
    assert h["score"] == 0.5
    assert h["term_detection"]["tp"] == 1 and h["term_detection"]["tn"] == 1
    assert h["question_detection"]["tp"] == 1 and h["question_detection"]["fn"] == 2
    assert hypoterm_summary([_row("x")]) is None


def test_slaq_metrics_follow_the_paper() -> None:
    m = slaq_metrics([(True, True), (False, False), (True, False), (False, False)])
    assert m["facts"] == 4
    assert m["short_accuracy"] == 0.5 and m["long_accuracy"] == 0.25
    assert m["alignment"] == 0.75
    assert m["signed_alignment"] == (1 - 1 + 0 - 1) / 4
    assert slaq_metrics([])["alignment"] is None


def test_consistency_summary_by_position() -> None:
    parts = (PartFacts(0.0, True), PartFacts(0.5, False), PartFacts(1.0, None), PartFacts(1.0, False, True, False))
    c = consistency_summary([_row("a", parts=parts), _row("b")])
    assert c is not None
    assert c["parts"] == 4 and c["decided"] == 3 and c["agreement"] == 1 / 3
    assert c["by_position"]["early"] == {"parts": 1, "agreement": 1.0}
    assert c["by_position"]["late"] == {"parts": 1, "agreement": 0.0}
    assert c["slaq"]["facts"] == 1 and c["slaq"]["signed_alignment"] == 0.0
    assert consistency_summary([_row("b")]) is None


def test_facts_from_row_reads_a_report_entry() -> None:
    entry = {
        "key": "k",
        "status": "ok",
        "report": {
            "constraints": [
                {"category": "time", "status": "violated"},
                {"category": "subject", "status": "satisfied"},
                {"category": "other", "status": "unknown"},
            ],
            "verdicts": [{"kind": "omission"}, {"kind": "fabricated_term", "term": "Zorblax"}],
            "terms": [{"term": "Quux", "known": False}],
            "perfect": False,
            "constraint_score": 5.0,
            "answer_label": "hallucination",
            "findings": {"consistency": {"parts": [{"query_position": 1.0, "agree": False}]}},
        },
        "gold": {"gold_perfect": False, "terms": [{"term": "Zorblax", "is_hypothetical": True}]},
    }
    f = facts_from_row(entry)
    assert (f.total, f.judged, f.violated_categories) == (3, 2, ("time",))
    assert f.verdict_kinds == ("fabricated_term", "omission")
    assert f.flagged_terms == {"zorblax", "quux"}
    assert f.parts == (PartFacts(1.0, False),)
    assert f.gold_terms == (("Zorblax", True),)
    assert not facts_from_row({"key": "e", "status": "error", "report": None}).ok


_facts = st.builds(
    RowFacts,
    key=st.text(max_size=3),
    ok=st.booleans(),
    perfect=st.booleans(),
    score=st.none() | st.floats(0, 10),
    total=st.integers(0, 9),
    judged=st.integers(0, 9),
    violated_categories=st.lists(st.sampled_from(["time", "subject", "other", "novel"]), max_size=4).map(tuple),
    verdict_kinds=st.lists(st.sampled_from(["omission", "misinterpretation"]), max_size=2).map(tuple),
    answer_label=st.none() | st.sampled_from(["valid", "hallucination", "irrelevant"]),
    gold_perfect=st.none() | st.booleans(),
    is_hypothetical=st.none() | st.booleans(),
)


@given(st.lists(_facts, max_size=30))
def test_summary_properties(facts: list[RowFacts]) -> None:
    s = summarize(facts, bad_rows=2)
    ok = [f for f in facts if f.ok]
    assert s["rows"]["ok"] + s["rows"]["errors"] == len(facts)
    assert sum(level["rows"] for level in s["difficulty"].values()) == len(ok)
    for rate in (s["perfect_rate"], *(v["perfect_rate"] for v in s["difficulty"].values())):
        assert rate is None or 0.0 <= rate <= 1.0
    for v in s["verdict_rates"].values():
        assert 0.0 <= v["rate"] <= 1.0
    assert s["mean_constraint_score"] is None or 0.0 <= s["mean_constraint_score"] <= 10.0
    assert sum(s["score_histogram"]) == s["scored"] == sum(1 for f in ok if f.score is not None)
    assert sum(s["bands"].values()) == len(ok)
    share = s["violations_by_category"]["share"]
    assert not share or math.isclose(sum(share.values()), 1.0)
    hypo = s["hypoterm"]
    if hypo is not None:
        assert hypo["score"] is None or 0.0 <= hypo["score"] <= 1.0
        assert hypo["labelled"] + hypo["unlabelled"] == hypo["hypothetical_questions"]


@given(st.lists(st.floats(0, 10), max_size=40))
def test_histogram_keeps_every_score(scores: list[float]) -> None:
    facts = [_row(str(i), score=s) for i, s in enumerate(scores)]
    assert sum(score_histogram(facts)) == len(scores)


@given(st.lists(st.tuples(st.booleans(), st.booleans()), min_size=1, max_size=30))
def test_slaq_metric_ranges(pairs: list[tuple[bool, bool]]) -> None:
    m = slaq_metrics(pairs)
    assert 0.0 <= float(m["alignment"] or 0) <= 1.0
    assert -1.0 <= float(m["signed_alignment"] or 0) <= 1.0
    # alignment = both-correct share + both-wrong share; signed = both-correct - both-wrong
    both = sum(1 for s, lg in pairs if s and lg) / len(pairs)
    neither = sum(1 for s, lg in pairs if not s and not lg) / len(pairs)
    assert math.isclose(float(m["alignment"] or 0), both + neither)
    assert math.isclose(float(m["signed_alignment"] or 0), both - neither)
