"""Plugins that call the judge run in a pool of their own: a judge that hangs never starves the offline checks of
concurrent calls (helper 92, session 18: 24 concurrent checks lost 16 critical verdicts to offline checks that timed
out waiting for a thread held by judge calls)."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from faithguard import DetectorResult, Guard, Severity, Verdict
from faithguard.judge import Judge, JudgeConfig
from faithguard.plugins import make_plugin_manager
from faithguard.testing import StaticDecomposer

from .helpers import PARIS


class WaitsOnJudge:
    """An output detector that calls the judge, here one that never answers until released."""

    name = "waits-on-judge"
    stage = "output"
    order = 500
    timeout: float | None = 3.0
    calls_judge = True

    def __init__(self) -> None:
        self.release = threading.Event()

    def run(self, ctx: Any) -> DetectorResult:
        self.release.wait(10)
        return DetectorResult()


class Offline:
    """A quick offline input check that always finds something."""

    name = "quick-offline"
    stage = "input"
    order = 100
    timeout: float | None = 1.0

    def run(self, ctx: Any) -> DetectorResult:
        return DetectorResult(verdicts=[Verdict(kind="missing_content", severity=Severity.CRITICAL, explanation="x")])


def test_a_hanging_judge_never_starves_the_offline_checks_of_other_calls() -> None:
    pm, _ = make_plugin_manager(load_entrypoints=False, defaults=False)
    hanging = WaitsOnJudge()
    judge = Judge.from_config(JudgeConfig(base_url="http://127.0.0.1:9/v1", model="m"))
    guard = Guard(
        plugin_manager=pm,
        decomposer=StaticDecomposer(PARIS),
        extra_detectors=[Offline(), hanging],
        judge=judge,
        max_workers=2,
        background=False,
    )

    def one(i: int) -> bool:
        report = guard.check(f"Summarize the attached article {i}.", "It says things.")
        return any(v.kind == "missing_content" for v in report.verdicts) and not any(
            e.detector == "quick-offline" for e in report.errors
        )

    try:
        with ThreadPoolExecutor(8) as ex:
            kept = list(ex.map(one, range(8)))
    finally:
        hanging.release.set()
        guard.close()
    assert all(kept)  # every call kept its offline verdict while judge calls held their own threads
