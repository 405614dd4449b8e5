"""A plugin that misbehaves is recorded, never breaks the call and never changes what the policy decides on
(helper 95's attacks: sys.exit in run(), results built without validation, observers editing the report, a thread
that keeps editing the context after the report is returned)."""

from __future__ import annotations

import sys
from typing import Any

import pytest

import faithguard
from faithguard import DetectorResult, Guard, HallucinationBlocked, Policy, Verdict
from faithguard.plugins import make_plugin_manager

from .helpers import bare_guard


class _Exits:
    name, stage, order, timeout = "exits", "output", 300, None

    def run(self, ctx: Any) -> DetectorResult:
        sys.exit(0)


class _Unvalidated:
    name, stage, order, timeout = "unvalidated", "output", 300, None

    def run(self, ctx: Any) -> DetectorResult:
        bogus = Verdict.model_construct(kind="x", severity="high", constraint_ids=[], term=None, explanation="")
        return DetectorResult(verdicts=[bogus])


class _NoneVerdicts:
    name, stage, order, timeout = "none_verdicts", "output", 300, None

    def run(self, ctx: Any) -> DetectorResult:
        return DetectorResult.model_construct(verdicts=None, updates={}, findings=None, terms=["x"])


class _Returns:
    """Returns a result built without validation from the given fields."""

    stage, order, timeout = "output", 300, None

    def __init__(self, name: str, **fields: Any) -> None:
        self.name, self.fields = name, fields

    def run(self, ctx: Any) -> DetectorResult:
        base = {"verdicts": [], "updates": {}, "findings": {}, "terms": [], "deciders": {}}
        return DetectorResult.model_construct(**{**base, **self.fields})


_BAD_VERDICT = Verdict.model_construct(kind="x", severity="info", constraint_ids=None, term=None, explanation="")


@pytest.mark.parametrize(
    ("detector", "error_type"),
    [
        (_Exits(), "SystemExit"),
        (_Unvalidated(), "TypeError"),
        (_NoneVerdicts(), "TypeError"),
        # more fields a result built without validation can hold (review 98)
        (_Returns("label", answer_label="bogus"), "TypeError"),
        (_Returns("decider", updates={"c1": ("satisfied", "r")}, deciders={"c1": 5}), "TypeError"),
        (_Returns("reason", updates={"c1": ("satisfied", 5)}), "TypeError"),
        (_Returns("ids", verdicts=[_BAD_VERDICT]), "TypeError"),
    ],
)
def test_a_plugin_that_exits_or_returns_an_unreadable_result_is_recorded(detector: Any, error_type: str) -> None:
    guard = bare_guard(extra=[detector])
    report = guard.check("Which museum in Paris?", "The Louvre.")
    assert [(e.detector, e.error_type) for e in report.errors] == [(detector.name, error_type)]
    assert not report.perfect and report.outcome != "ok"
    guard.close()


def test_an_observer_edits_a_copy_not_what_the_policy_decides_on() -> None:
    class Clears:
        @faithguard.hookimpl
        def on_report(self, report: Any) -> None:
            report.verdicts.clear()
            report.constraints.clear()

    pm, _ = make_plugin_manager(load_entrypoints=False)
    pm.register(Clears(), name="clears")
    guard = Guard(plugin_manager=pm, judge=None)

    @guard.wrap(policy=Policy.block(["omission"], min_severity="warning"))
    def ask(messages: Any) -> str:
        return "The Ebro and the Tagus."

    with pytest.raises(HallucinationBlocked) as blocked:
        ask([{"role": "user", "content": "List three rivers in Spain."}])
    assert blocked.value.report.verdicts and blocked.value.report.constraints
    guard.close()


def test_a_returned_report_does_not_share_constraints_with_the_run() -> None:
    kept: list[Any] = []

    class Keeps:
        name, stage, order, timeout = "keeps", "output", 300, None

        def run(self, ctx: Any) -> DetectorResult:
            kept.append(ctx)
            return DetectorResult()

    guard = bare_guard(extra=[Keeps()])
    report = guard.check("Which museum in Paris?", "The Louvre is in Paris.")
    before = [c.status for c in report.constraints]
    for c in kept[0].constraints:  # what a thread of the plugin could still do after the call
        c.status = faithguard.Status.SATISFIED if c.status is not faithguard.Status.SATISFIED else c.status
        c.reason = "edited later"
    assert [c.status for c in report.constraints] == before
    assert all(c.reason != "edited later" for c in report.constraints)
    guard.close()


def test_an_observer_that_hangs_is_left_behind_after_the_budget() -> None:
    import threading

    gate = threading.Event()

    class Hangs:
        @faithguard.hookimpl
        def on_report(self, report: Any) -> None:
            gate.wait()

    guard = _observed_by({}, hangs=Hangs())
    try:
        report = guard.check("Which museum in Paris?", "The Louvre is in Paris.")
        assert [(e.detector, e.stage, e.error_type) for e in report.errors] == [("hangs", "observe", "timeout")]
    finally:
        gate.set()
        guard.close()


def test_a_warm_up_that_hangs_leaves_the_guard_built_without_it(monkeypatch: pytest.MonkeyPatch) -> None:
    import threading

    import faithguard.guard as guard_module

    gate = threading.Event()

    class SlowStart:
        name, stage, order, timeout = "slow_start", "output", 300, None

        def warmup(self) -> None:
            gate.wait()

        def run(self, ctx: Any) -> DetectorResult:
            return DetectorResult()

    monkeypatch.setattr(guard_module, "WARMUP_TIMEOUT", 0.3)
    try:
        guard = bare_guard(extra=[SlowStart()])  # no built-in plugins: only this warm-up is timed
        assert [(f.name, f.error) for f in guard.plugin_failures] == [("slow_start", "warmup failed: timeout")]
        guard.close()
    finally:
        gate.set()


def test_a_flood_of_verdicts_is_capped_and_said() -> None:
    from faithguard.runner import MAX_VERDICTS_PER_DETECTOR

    class Floods:
        name, stage, order, timeout = "floods", "output", 300, None

        def run(self, ctx: Any) -> DetectorResult:
            return DetectorResult(verdicts=[Verdict(kind="noise", severity="info")] * (MAX_VERDICTS_PER_DETECTOR * 5))

    guard = bare_guard(extra=[Floods()])
    report = guard.check("Which museum in Paris?", "The Louvre is in Paris.")
    assert len([v for v in report.verdicts if v.kind == "noise"]) == MAX_VERDICTS_PER_DETECTOR
    assert any(r.startswith("floods: verdicts_capped") for r in report.undetermined)
    assert report.outcome != "ok" and not report.perfect
    guard.close()


def test_an_observer_keeps_the_callers_trace_and_a_stuck_one_is_not_run_again(otel: Any) -> None:
    import threading

    from opentelemetry import trace

    seen: list[bool] = []
    gate = threading.Event()

    class Sees:
        @faithguard.hookimpl
        def on_report(self, report: Any) -> None:
            seen.append(trace.get_current_span().get_span_context().is_valid)

    class Hangs:
        calls = 0

        @faithguard.hookimpl
        def on_report(self, report: Any) -> None:
            Hangs.calls += 1
            gate.wait()

    guard = _observed_by(otel.providers(), sees=Sees(), hangs=Hangs())
    try:
        reports = [guard.check(f"Which museum in Paris, take {i}?", "The Louvre is in Paris.") for i in range(6)]
        assert seen and all(seen)  # the guard's span is current inside the observer, as before it ran in a thread
        left = [t for t in threading.enumerate() if t.name == "faithguard-observer-hangs"]
        assert Hangs.calls == 1 and len(left) == 1  # one thread left behind, not one per call
        assert all(any(e.detector == "hangs" for e in r.errors) for r in reports)
    finally:
        gate.set()
        guard.close()


def _observed_by(providers: dict[str, Any], **observers: Any) -> Guard:
    """A guard with no built-ins, the static decomposition, a 0.3 s budget and these on_report observers by name."""
    from faithguard.testing import KeywordDetector, StaticDecomposer

    from .helpers import PARIS

    pm, _ = make_plugin_manager(load_entrypoints=False, defaults=False)
    for name, observer in observers.items():
        pm.register(observer, name=name)
    return Guard(
        plugin_manager=pm,
        decomposer=StaticDecomposer(PARIS),
        extra_detectors=[KeywordDetector()],
        judge=None,
        detector_timeout=0.3,
        **providers,
    )
