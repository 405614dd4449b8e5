"""Issue 16: the scoring process's limits -- a time limit per answer, recycling, the parent's signal mask."""

from __future__ import annotations

import asyncio
import functools
import multiprocessing
import signal
import threading
from pathlib import Path
from typing import Any

import httpx
import pytest
from integ_support import CHAT, GOOD, URL, client_for, make_guard

from faithguard import DetectorResult, Report
from faithguard.integrations._score_process import ScoreRequest, ScorerTimedOut, ScoringProcess
from faithguard.integrations.fake_upstream import FakeOpenAIServer
from faithguard.integrations.proxy import SCORING_TIMEOUT

STALL = "Visit the Louvre museum in Paris. STALL"


class StallInWorker:
    """Holds the scoring process for a minute on an answer containing STALL (only in a child process)."""

    name = "stall-test"
    stage = "output"
    order = 360
    timeout: float | None = 300.0  # longer than the test's score_timeout: the process limit acts first

    def run(self, ctx: Any) -> DetectorResult:
        if "STALL" in (ctx.response or "") and multiprocessing.parent_process() is not None:
            import time

            time.sleep(60)
        return DetectorResult()


def build_guard() -> Any:
    return make_guard(extra=[StallInWorker()])


def broken_factory() -> Any:
    raise RuntimeError("this guard cannot be built")


async def _exchange(guard: Any, upstream: str, n: int, **kw: Any) -> tuple[list[httpx.Response], dict[str, Any]]:
    async with client_for(guard, upstream, **kw) as client:
        resps = [await client.post(URL, json=CHAT) for _ in range(n)]
        proxy = client._transport.app.state.proxy  # type: ignore[attr-defined]
        assert await asyncio.to_thread(proxy.scoring.join, 120)
        health = (await client.get("/healthz")).json()
    return resps, health


def test_an_answer_past_the_score_timeout_is_undetermined_and_the_process_restarts() -> None:
    guard = make_guard()
    reports: list[Report] = []
    with FakeOpenAIServer([STALL, GOOD]) as upstream:
        resps, health = asyncio.run(
            _exchange(
                guard,
                upstream.url,
                2,
                scoring="process",
                scorer=build_guard,
                score_timeout=1.0,
                on_report=reports.append,
            )
        )
    guard.close()
    # the clients got their answers untouched, at upstream speed
    assert [r.status_code for r in resps] == [200, 200]
    assert [r.json()["choices"][0]["message"]["content"] for r in resps] == [STALL, GOOD]
    stalled, scored = reports
    assert stalled.outcome == "undetermined"
    [reason] = [r for r in stalled.undetermined if r.startswith(SCORING_TIMEOUT)]
    assert "1 s" in reason and "a new one scores the next answer" in reason and "STALL" not in reason
    assert scored.response == GOOD and scored.constraint_score == 10.0  # a new process scored the next one
    assert health["process"]["timed_out"] == 1 and health["process"]["started"] == 2
    assert health["process"]["crashed"] == 0


def test_a_process_is_recycled_after_its_answer_count() -> None:
    scorer = ScoringProcess(functools.partial(make_guard), recycle_answers=2, recycle_rss_mb=None)
    request = ScoreRequest(CHAT["messages"], None, "m", GOOD)  # type: ignore[arg-type]
    try:
        assert scorer.start()
        first = scorer.pid()
        for _ in range(2):
            assert scorer.score(request, timeout=60).report.constraint_score == 10.0
        assert scorer.pid() is None  # ended between answers, after its second
        assert scorer.score(request, timeout=60).report.constraint_score == 10.0
        assert scorer.pid() not in (None, first)
        assert scorer.counts == {"started": 2, "crashed": 0, "timed_out": 0, "recycled": 1}
    finally:
        scorer.stop()


@pytest.mark.skipif(not Path("/proc/self/statm").exists(), reason="reads resident memory from /proc")
def test_a_process_over_its_memory_limit_is_recycled_between_answers() -> None:
    scorer = ScoringProcess(functools.partial(make_guard), recycle_answers=None, recycle_rss_mb=1.0)
    request = ScoreRequest(CHAT["messages"], None, "m", GOOD)  # type: ignore[arg-type]
    try:
        assert scorer.start()
        rss = scorer.rss_mb()
        assert rss is not None and rss > 1.0  # any Python process is over 1 MiB
        assert scorer.score(request, timeout=60).report.constraint_score == 10.0
        assert scorer.pid() is None and scorer.counts["recycled"] == 1
        assert scorer.score(request, timeout=60).report.constraint_score == 10.0  # a new one answers
        assert scorer.counts["started"] == 2 and scorer.counts["recycled"] == 2
    finally:
        scorer.stop()


def test_a_process_within_its_limits_is_kept() -> None:
    scorer = ScoringProcess(functools.partial(make_guard), recycle_answers=100, recycle_rss_mb=64 * 1024.0)
    request = ScoreRequest(CHAT["messages"], None, "m", GOOD)  # type: ignore[arg-type]
    try:
        assert scorer.start()
        pid = scorer.pid()
        for _ in range(3):
            scorer.score(request, timeout=60)
        assert scorer.pid() == pid and scorer.counts["recycled"] == 0
    finally:
        scorer.stop()


def test_recycling_limits_are_checked() -> None:
    with pytest.raises(ValueError, match="recycle"):
        ScoringProcess(make_guard, recycle_answers=0)
    with pytest.raises(ValueError, match="recycle"):
        ScoringProcess(make_guard, recycle_rss_mb=0)


def test_a_stall_raises_timed_out_not_a_crash() -> None:
    scorer = ScoringProcess(build_guard)
    try:
        with pytest.raises(ScorerTimedOut, match=r"longer than 0\.5 s"):
            scorer.score(ScoreRequest(CHAT["messages"], None, "m", STALL), timeout=0.5)  # type: ignore[arg-type]
        assert scorer.counts["timed_out"] == 1 and scorer.counts["crashed"] == 0 and scorer.pid() is None
    finally:
        scorer.stop()


@pytest.mark.skipif(not hasattr(signal, "pthread_sigmask"), reason="POSIX signal masks")
@pytest.mark.parametrize("blocked_before", [True, False])
def test_starting_the_process_leaves_the_callers_sigint_mask_as_it_was(blocked_before: bool) -> None:
    seen: dict[str, bool] = {}

    def start() -> None:  # in a thread of its own: its mask is its own
        if blocked_before:
            signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        scorer = ScoringProcess(broken_factory)
        seen["started"] = scorer.start()
        seen["blocked"] = signal.SIGINT in signal.pthread_sigmask(signal.SIG_BLOCK, set())
        scorer.stop()

    thread = threading.Thread(target=start)
    thread.start()
    thread.join(120)
    assert seen == {"started": False, "blocked": blocked_before}


def test_a_child_that_cannot_even_start_leaves_no_half_state() -> None:
    """A factory spawn cannot pickle (a lambda) fails in ``Process.start`` itself: the caller is told the scorer
    is unavailable (never an AssertionError from joining a process that never started), and the pipe is closed."""
    from faithguard.integrations._score_process import ScorerUnavailable

    scorer = ScoringProcess(lambda: make_guard())  # a lambda cannot travel to a spawned child
    try:
        with pytest.raises(ScorerUnavailable):
            scorer.score(
                ScoreRequest(messages=[{"role": "user", "content": "q"}], documents=None, model=None, text="r"), 5.0
            )
        assert scorer.pid() is None
    finally:
        scorer.stop()
