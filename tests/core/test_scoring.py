from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from faithguard.models import Category, Constraint, Status, Tier
from faithguard.scoring import DEFAULT_WEIGHTS, band, constraint_score, score_from_counts, tier_for

TIERS = ["mandatory", "important", "optional"]
counts = st.fixed_dictionaries({t: st.tuples(st.integers(0, 20), st.integers(0, 20)) for t in TIERS})
weights = st.fixed_dictionaries({t: st.floats(0.1, 10, allow_nan=False) for t in TIERS})


def split(c: dict[str, tuple[int, int]]) -> tuple[dict[str, int], dict[str, int]]:
    judged = {t: a + b for t, (a, b) in c.items()}
    satisfied = {t: a for t, (a, b) in c.items()}
    return satisfied, judged


def test_paper_example() -> None:
    # 2/2 mandatory, 1/2 important, 0/1 optional with weights 3/2/1: (6+2+0)/(6+4+1) * 10
    score = score_from_counts(
        {"mandatory": 2, "important": 1, "optional": 0}, {"mandatory": 2, "important": 2, "optional": 1}
    )
    assert score == pytest.approx(10 * 8 / 11)


@given(counts, weights)
def test_score_in_range(c: dict[str, tuple[int, int]], w: dict[str, float]) -> None:
    sat, judged = split(c)
    s = score_from_counts(sat, judged, w)
    if sum(judged.values()) == 0:
        assert s is None
    else:
        assert s is not None and 0.0 <= s <= 10.0


@given(counts, weights, st.sampled_from(TIERS))
def test_one_more_satisfied_never_lowers(c: dict[str, tuple[int, int]], w: dict[str, float], tier: str) -> None:
    sat, judged = split(c)
    before = score_from_counts(sat, judged, w)
    judged2 = dict(judged)
    judged2[tier] += 1
    sat2 = dict(sat)
    sat2[tier] += 1
    after = score_from_counts(sat2, judged2, w)
    assert after is not None
    assert before is None or after >= before - 1e-9
    # turning a violated constraint into a satisfied one never lowers it either
    if judged[tier] > sat[tier]:
        sat3 = dict(sat)
        sat3[tier] += 1
        flipped = score_from_counts(sat3, judged, w)
        assert flipped is not None and before is not None and flipped >= before - 1e-9


@given(st.dictionaries(st.sampled_from(TIERS), st.integers(1, 30), min_size=1), weights)
def test_all_satisfied_is_ten(judged: dict[str, int], w: dict[str, float]) -> None:
    assert score_from_counts(dict(judged), judged, w) == pytest.approx(10.0)


@given(st.integers(1, 10), st.integers(1, 10))
def test_weights_respected(n_mand: int, n_opt: int) -> None:
    # All mandatory satisfied, all optional violated: the score equals the mandatory weight share.
    sat = {"mandatory": n_mand, "optional": 0}
    judged = {"mandatory": n_mand, "optional": n_opt}
    s = score_from_counts(sat, judged)
    expected = 10 * 3 * n_mand / (3 * n_mand + 1 * n_opt)
    assert s == pytest.approx(expected)
    # the same constraints with mandatory violated instead score lower
    s2 = score_from_counts({"mandatory": 0, "optional": n_opt}, judged)
    assert s2 == pytest.approx(10 * n_opt / (3 * n_mand + n_opt))
    # doubling the optional weight moves the score toward the optional share
    s3 = score_from_counts(sat, judged, {"mandatory": 3.0, "important": 2.0, "optional": 2.0})
    assert s3 is not None and s is not None and s3 < s


def test_unknown_excluded_and_none_when_nothing_judged() -> None:
    cs = [
        Constraint(id="c1", text="a", category="subject", tier="mandatory", status="satisfied"),
        Constraint(id="c2", text="b", category="time", tier="mandatory", status="unknown"),
    ]
    assert constraint_score(cs) == 10.0
    assert constraint_score([cs[1]]) is None


def test_tiers_and_bands() -> None:
    assert tier_for(Category.LOCATION) is Tier.MANDATORY
    assert tier_for("quantity") is Tier.IMPORTANT
    assert tier_for("other") is Tier.OPTIONAL
    assert [band(x) for x in (10, 9, 8.99, 7, 6.99, 0, None)] == [
        "aligned",
        "aligned",
        "partial",
        "partial",
        "hallucinated",
        "hallucinated",
        None,
    ]
    assert DEFAULT_WEIGHTS == {"mandatory": 3.0, "important": 2.0, "optional": 1.0}


def test_invalid_counts_rejected() -> None:
    with pytest.raises(ValueError):
        score_from_counts({"mandatory": 3}, {"mandatory": 2})


def test_status_enum_values() -> None:
    assert {s.value for s in Status} == {"satisfied", "violated", "unknown"}


# -- range, coverage, bands, outcome (issue 10) -------------------------------------------------

statuses = st.lists(
    st.tuples(st.sampled_from(TIERS), st.sampled_from(["satisfied", "violated", "unknown"])), min_size=0, max_size=30
)


def _constraints(items: list[tuple[str, str]]) -> list[Constraint]:
    return [
        Constraint(id=f"c{i}", text="x", category=Category.OTHER, tier=Tier(t), status=Status(s))
        for i, (t, s) in enumerate(items)
    ]


@given(statuses, weights)
def test_range_brackets_the_score_and_the_paper_lower_bound(items: list[tuple[str, str]], w: dict[str, float]) -> None:
    from faithguard.scoring import coverage, score_range

    cs = _constraints(items)
    rng, cov, score = score_range(cs, w), coverage(cs, w), constraint_score(cs, w)
    if not cs:
        assert rng is None and cov is None and score is None
        return
    assert rng is not None and cov is not None
    lower, upper = rng
    assert 0.0 <= lower <= upper <= 10.0 and 0.0 <= cov <= 1.0
    if score is not None:  # the judged-only score lies inside the range
        assert lower - 1e-9 <= score <= upper + 1e-9
    # upper - lower is exactly the unknown share of the weight
    assert upper - lower == pytest.approx(10.0 * (1.0 - cov), abs=1e-9)
    if cov == pytest.approx(1.0):
        assert score is not None and lower == pytest.approx(score) == pytest.approx(upper)


@given(statuses, weights, st.integers(0, 29))
def test_deciding_an_unknown_narrows_the_range(items: list[tuple[str, str]], w: dict[str, float], i: int) -> None:
    from faithguard.scoring import score_range

    unknown = [k for k, (_, s) in enumerate(items) if s == "unknown"]
    if not unknown:
        return
    k = unknown[i % len(unknown)]
    before = score_range(_constraints(items), w)
    for decided in ("satisfied", "violated"):
        after_items = [*items[:k], (items[k][0], decided), *items[k + 1 :]]
        after = score_range(_constraints(after_items), w)
        assert before is not None and after is not None
        assert before[0] - 1e-9 <= after[0] and after[1] <= before[1] + 1e-9


@given(st.floats(0, 10), st.floats(0, 10))
def test_band_of_range_rules(a: float, b: float) -> None:
    from faithguard.scoring import band_of_range

    lower, upper = min(a, b), max(a, b)
    band_ = band_of_range((lower, upper))
    assert (band_ == "aligned") == (lower >= 9.0)
    if band_ == "hallucinated":
        assert upper < 7.0
    if band_ == "partial":
        assert lower >= 7.0 and upper < 9.0
    if lower == upper:  # a fully known score gets the classic band
        assert band_ == band(lower)


@given(
    st.sampled_from(["aligned", "partial", "hallucinated", "undetermined"]),
    st.lists(st.tuples(st.sampled_from(["input", "output"]), st.just("k (warning)")), max_size=3),
    st.lists(st.just("stage failed"), max_size=2),
)
def test_outcome_is_never_ok_beside_an_alarm_or_an_open_question(
    band_: str, alarms: list[tuple[str, str]], undetermined: list[str]
) -> None:
    from faithguard.scoring import outcome_of

    outcome, reasons = outcome_of(band_, alarms, undetermined)  # type: ignore[arg-type]
    if outcome == "ok":
        assert band_ == "aligned" and not alarms and not undetermined and reasons == []
    else:
        assert reasons
    if any(stage == "output" for stage, _ in alarms) or band_ in ("partial", "hallucinated"):
        assert outcome == "hallucination"


def test_report_outcome_examples() -> None:
    from faithguard.models import Report, Verdict

    cs = _constraints([("mandatory", "satisfied"), ("important", "unknown")])
    r = Report(query="q", response="r", constraints=cs)
    assert r.score_range == pytest.approx((6.0, 10.0)) and r.coverage == pytest.approx(0.6)
    assert r.constraint_score == 10.0 and r.band == "undetermined" and r.outcome == "undetermined" and not r.perfect
    done = _constraints([("mandatory", "satisfied"), ("important", "satisfied")])
    ok = Report(query="q", response="r", constraints=done)
    assert ok.band == "aligned" and ok.outcome == "ok" and ok.perfect
    critical = Verdict(kind="fabricated_term", severity="critical", stage="output")
    bad = Report(query="q", response="r", constraints=done, verdicts=[critical])
    assert bad.constraint_score == 10.0 and bad.band == "undetermined" and bad.outcome == "hallucination"
    assert not bad.perfect
    info = Verdict(kind="note", severity="info", stage="output")
    assert Report(query="q", response="r", constraints=done, verdicts=[info]).outcome == "ok"
    assert Report.model_validate(bad.model_dump(mode="json")).outcome == "hallucination"
