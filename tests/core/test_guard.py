from __future__ import annotations

import threading

import pytest

from faithguard import ConfigError, Constraint, InputError, Report, Severity, Status, Verdict
from faithguard.testing import FailingDetector, SlowDetector, StaticDecomposer, StaticDetector

from .helpers import PARIS, bare_guard


def test_check_scores_and_reports() -> None:
    guard = bare_guard()
    report = guard.check(
        "Name three museums in Paris, not the Louvre", "Paris has three great museum options: Orsay, ..."
    )
    status = {c.id: c.status for c in report.constraints}
    assert status == {"c1": Status.SATISFIED, "c2": Status.SATISFIED, "c3": Status.SATISFIED, "c4": Status.SATISFIED}
    assert report.constraint_score == 10.0 and report.band == "aligned" and report.perfect
    assert report.judged == report.total == 4
    data = report.model_dump(mode="json")
    assert data["constraint_score"] == 10.0 and data["band"] == "aligned" and data["perfect"] is True
    assert (
        Report.model_validate(
            {k: v for k, v in data.items() if k not in {"constraint_score", "judged", "total", "perfect", "band"}}
        ).constraint_score
        == 10.0
    )


def test_violations_lower_score_and_negation() -> None:
    report = bare_guard().check("q", "The Louvre in Paris is one museum.")
    status = {c.id: c.status for c in report.constraints}
    assert status["c4"] is Status.VIOLATED  # excluded entity named
    assert status["c3"] is Status.VIOLATED
    # mandatory 2/2 (6), important 0/1 (0/2), optional 0/1 (0/1): 10*6/9
    assert report.constraint_score == pytest.approx(10 * 6 / 9)
    assert report.band == "hallucinated" and not report.perfect


def test_unknown_is_not_a_pass() -> None:
    guard = bare_guard(extra=[], detectors=[])  # no detector judges anything
    report = guard.check("q", "anything")
    assert report.constraint_score is None and report.band == "undetermined"
    assert report.judged == 0 and report.total == 4 and not report.perfect
    assert report.outcome == "undetermined" and report.coverage == 0.0 and report.score_range == (0.0, 10.0)


def test_failing_and_slow_detectors_are_isolated() -> None:
    guard = bare_guard(extra=[FailingDetector(), SlowDetector(seconds=0.5)])
    report = guard.check("q", "Paris museum three")
    errors = {e.detector: e for e in report.errors}
    # the plugin's exception text may quote content: kept only with content capture on
    assert errors["failing"].error_type == "RuntimeError" and "exploded" not in errors["failing"].message
    assert report.outcome == "undetermined" and any("failing" in r for r in report.outcome_reasons)
    assert errors["slow"].error_type == "timeout"
    assert report.constraint_score is not None  # the rest still ran


def test_detector_returning_garbage_is_recorded() -> None:
    class Bad:
        name, stage, order, timeout = "bad", "output", 10, None

        def run(self, ctx: object) -> object:
            return {"not": "a result"}

    report = bare_guard(extra=[Bad()]).check("q", "x")
    assert [e.detector for e in report.errors] == ["bad"]


def test_verdicts_from_input_stage_reach_report_and_order_is_deterministic() -> None:
    v1 = Verdict(kind="unknown_term", severity=Severity.WARNING, term="Flux")
    v2 = Verdict(kind="missing_content", severity=Severity.CRITICAL)
    dets = [StaticDetector([v2], name="zz", order=50), StaticDetector([v1], name="aa", order=50)]
    guard = bare_guard(extra=dets)
    pre = guard.inspect("Explain the Flux in the article")
    assert [v.detector for v in pre.verdicts] == ["aa", "zz"]
    report = guard.check("Explain the Flux in the article", "Paris museum three")
    assert [v.kind for v in report.verdicts] == ["unknown_term", "missing_content"]
    assert [v.stage for v in report.verdicts] == ["input", "input"]
    # FaithQA's Perfect reads the answer (no output-stage verdict); the call itself is not ok
    assert report.perfect and report.outcome == "undetermined" and report.band == "undetermined"


def test_first_decisive_status_wins() -> None:
    class Late:
        name, stage, order, timeout = "late", "output", 200, None

        def run(self, ctx: object) -> object:
            from faithguard import DetectorResult

            return DetectorResult(updates={"c1": (Status.VIOLATED, "late says no")})

    report = bare_guard(extra=[Late()]).check("q", "Paris museum three")
    c1 = report.constraints[0]
    assert c1.status is Status.SATISFIED and c1.decided_by == "keywords"


def test_bad_input_clear_errors() -> None:
    guard = bare_guard()
    with pytest.raises(InputError, match="empty"):
        guard.check("   ", "x")
    with pytest.raises(InputError, match="string"):
        guard.check(42, "x")  # type: ignore[arg-type]
    with pytest.raises(InputError, match="limit"):
        bare_guard(max_input_chars=100).check("x" * 200, "y")
    with pytest.raises(InputError, match="documents"):
        guard.inspect("q", documents="just a string")  # type: ignore[arg-type]
    with pytest.raises(InputError, match="response"):
        guard.check("q", object())


def test_messages_give_query_history_and_system() -> None:
    seen = {}

    class Spy:
        name, stage, order, timeout = "spy", "input", 1, None

        def run(self, ctx: object) -> object:
            from faithguard import DetectorResult

            seen["ctx"] = ctx
            return DetectorResult()

    msgs = [
        {"role": "system", "content": "Answer only from the context."},
        {"role": "user", "content": "Who wrote Hamlet?"},
        {"role": "assistant", "content": "Shakespeare."},
        {"role": "user", "content": [{"type": "text", "text": "And when?"}]},
    ]
    bare_guard(extra=[Spy()]).inspect(None, messages=msgs, documents=[{"page_content": "doc"}])
    ctx = seen["ctx"]
    assert ctx.query == "And when?" and ctx.system == "Answer only from the context."
    assert [m.content for m in ctx.history] == ["Who wrote Hamlet?", "Shakespeare."]
    assert ctx.documents == ["doc"]


def test_decomposition_cached_and_single_flight() -> None:
    dec = StaticDecomposer(PARIS)
    from faithguard import Guard
    from faithguard.plugins import make_plugin_manager

    pm, _ = make_plugin_manager(load_entrypoints=False, defaults=False)
    guard = Guard(plugin_manager=pm, decomposer=dec, judge=None)
    threads = [threading.Thread(target=guard.inspect, args=("Same   query",)) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    guard.inspect("Same   query")
    assert dec.calls == 1
    guard.inspect("Other query")
    assert dec.calls == 2
    guard.inspect("Same query")  # spacing is part of the request (a decomposer may read line breaks): its own entry
    assert dec.calls == 3


def test_decomposer_failure_falls_back_and_is_recorded() -> None:
    from faithguard import CallContext
    from faithguard.testing import StaticDecomposer

    from .helpers import PARIS

    class Broken:
        name = "llm"

        def decompose(self, ctx: CallContext) -> object:
            ctx.judge_use.record("degraded", "decompose: judge down")
            raise ConnectionError("judge down")

    guard = bare_guard(decomposer=(Broken(), StaticDecomposer(PARIS)))
    report = guard.check("q", "Paris museum three")
    assert report.constraint_score == 10.0  # the second decomposer of the chain took over
    assert any(e.stage == "decompose" and e.detector == "llm" for e in report.errors)
    # a failed stage is never silent: the outcome says what could not be judged
    assert report.outcome == "undetermined" and any("llm (decompose) failed" in r for r in report.outcome_reasons)


def test_config_errors() -> None:
    with pytest.raises(ConfigError):
        bare_guard(weights={"bogus": 1})
    # a misspelt detector name would leave nothing to judge while every report still read "checked"
    with pytest.raises(ConfigError, match=r"no detector is named 'keywrods' \(known: keywords\)"):
        bare_guard(detectors=["keywrods"])
    assert [d.name for d in bare_guard(detectors=["keywords"]).detectors] == ["keywords"]
    # one name this install lacks (an optional layer switched off) beside a known one: said, not fatal (reviewer 97)
    partial = bare_guard(detectors=["keywords", "semantic"])
    assert [d.name for d in partial.detectors] == ["keywords"]
    assert [f.name for f in partial.plugin_failures] == ["detectors"]
    report = partial.check("Which museum in Paris?", "The Louvre.")  # never read as fully checked (review 98)
    assert report.outcome != "ok" and "detectors: 'semantic' is not registered (detectors=)" in report.undetermined
    for bad in ({"max_workers": 0}, {"cache_size": 0}, {"cache_size": "10"}, {"queue_size": 2.5}):
        with pytest.raises(ConfigError, match=f"^{next(iter(bad))} must be a whole number >="):
            bare_guard(**bad)
    # 0, NaN or infinity would leave every check without a budget (0 waited forever, inf jammed the pool)
    for seconds in (0, -1.0, float("nan"), float("inf"), True):
        with pytest.raises(ConfigError, match=r"^detector_timeout must be a finite number of seconds above 0"):
            bare_guard(detector_timeout=seconds)
    with pytest.raises(ConfigError, match="no decomposer"):
        from faithguard import Guard
        from faithguard.plugins import make_plugin_manager

        pm, _ = make_plugin_manager(load_entrypoints=False, defaults=False)
        Guard(plugin_manager=pm, decomposer="nope", judge=None)


def test_custom_weights() -> None:
    cs = [
        Constraint(id="c1", text="yes", category="subject", tier="mandatory"),
        Constraint(id="c2", text="no", category="other", tier="optional"),
    ]
    r = bare_guard(cs, weights={"optional": 3.0}).check("q", "yes")
    assert r.constraint_score == pytest.approx(5.0)


def test_on_report_hook_failure_isolated() -> None:
    from faithguard import Guard, hookimpl
    from faithguard.plugins import make_plugin_manager

    got: list[Report] = []

    class Observer:
        @hookimpl
        def on_report(self, report: Report) -> None:
            got.append(report)

    class Crasher:
        @hookimpl
        def on_report(self, report: Report) -> None:
            raise RuntimeError("observer crashed")

    pm, _ = make_plugin_manager(load_entrypoints=False, defaults=False)
    pm.register(Observer(), name="observer")
    pm.register(Crasher(), name="crasher")
    guard = Guard(plugin_manager=pm, decomposer=StaticDecomposer(PARIS), judge=None)
    report = guard.check("q", "r")
    # observers get a copy (one that edits it cannot change the caller's report), made before they ran
    assert len(got) == 1 and got[0] is not report
    assert got[0].model_dump(exclude={"errors"}) == report.model_dump(exclude={"errors"}) and got[0].errors == []
    assert [(e.detector, e.stage) for e in report.errors] == [("crasher", "observe")]


def test_perfect_needs_every_stage_to_have_judged_and_weights_need_a_tier() -> None:
    """A report with a stage that could not judge the call (a failed call, a request outside the engine's reach) is
    never perfect, however its constraints read; a guard whose tiers all weigh 0 would score nothing."""
    from faithguard import Category, ConfigError, Constraint, Guard, Report, Status, Tier

    satisfied = [Constraint(id="c1", text="x", category=Category.SUBJECT, tier=Tier.MANDATORY, status=Status.SATISFIED)]
    assert Report(query="q", response="a", constraints=satisfied).perfect
    failed = Report(query="q", response="", constraints=satisfied, undetermined=["call_failed: ... (TimeoutError)"])
    assert not failed.perfect and failed.outcome == "undetermined"
    with pytest.raises(ConfigError, match="weight above 0"):
        Guard(weights={"mandatory": 0.0, "important": 0.0, "optional": 0.0}, load_entrypoints=False, warmup=False)
