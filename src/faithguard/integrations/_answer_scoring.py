"""Where and how the proxy scores an answer once the upstream has given it: :class:`AnswerScoring`.

The request path hands each answer to one :class:`AnswerScoring` and does not look further. It
scores inline (the caller waits for the outcome), or in the background on a bounded
:class:`~faithguard.integrations._scoring.ScoringQueue`, whose thread either scores here or sends
the answer to a :class:`~faithguard.integrations._score_process.ScoringProcess`. When no scoring
process can start, it scores here from then on (:meth:`AnswerScoring.score_here`). Answers over
``max_score_chars`` get an ``undetermined`` report without being scored; a failed or timed-out
scoring process gives one too, with a reason that names neither the answer nor the request.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from starlette.concurrency import run_in_threadpool

from faithguard.integrations._proxy_io import TOO_LONG
from faithguard.integrations._score_process import (
    ScoreRequest,
    ScorerFailed,
    ScorerTimedOut,
    ScorerUnavailable,
    ScoringProcess,
)
from faithguard.integrations._scoring import ScoringQueue
from faithguard.integrations.session import GuardedCall, Outcome
from faithguard.models import Report

if TYPE_CHECKING:
    from faithguard.guard import Guard
    from faithguard.policy import Policy

__all__ = [
    "IN_PROCESS_DUTY",
    "MAX_SCORE_CHARS",
    "SCORE_TIMEOUT",
    "SCORING_FAILED",
    "SCORING_MODES",
    "SCORING_TIMEOUT",
    "TOO_LONG",
    "AnswerScoring",
    "Source",
]

log = logging.getLogger("faithguard.proxy")

#: The values of ``create_app``'s ``scoring``.
SCORING_MODES = ("auto", "inline", "background", "process")
#: The request's messages and documents, as the scoring process is sent them.
Source = tuple[Any, Any] | None
#: Reason code of the report of an answer the scoring process could not score.
SCORING_FAILED = "scoring_failed"
#: Reason code of the report of an answer whose scoring took longer than ``score_timeout``.
SCORING_TIMEOUT = "scoring_timeout"
#: Seconds the scoring process may take over one answer (``score_timeout``). Provenance:
#: benchmarks/bench_proxy_scorer.py, 5,000 answers of the dev traffic: slowest 286 ms new, 762 ms cached
#: (AMD EPYC, 2 shared cores); the process runs at nice 10 and under load gets ~10% of a core, so 30 s
#: leaves ~4x over that answer slowed tenfold, and stays well under the upstream ``timeout`` (120 s).
SCORE_TIMEOUT = 30.0
#: Share of time the scoring thread may hold this interpreter when it scores here (see ScoringQueue).
IN_PROCESS_DUTY = 0.5
#: Longest answer (characters) the proxy scores by default. Provenance: the dev traffic
#: (``benchmarks/traffic.py``, 831 answers) has one answer of 153,226 characters, then none over 8,500.
MAX_SCORE_CHARS = 200_000


class AnswerScoring:
    """The proxy's scoring paths: inline, the background queue, and the scoring process behind it."""

    def __init__(
        self,
        guard: Guard,
        policy: Policy,
        on_report: Callable[[Report], None] | None,
        *,
        background: bool,
        observe: bool,
        queue: ScoringQueue,
        process: ScoringProcess | None,
        score_timeout: float,
        max_score_chars: int | None,
    ) -> None:
        self.guard, self.policy, self.on_report = guard, policy, on_report
        self.background, self.queue, self.process = background, queue, process
        self.score_timeout, self.max_score_chars = score_timeout, max_score_chars
        # the process this started with; ``process`` is cleared when it cannot start, this one is still stopped
        self._child = process
        # A policy that can only observe never acts on input verdicts: in background mode its input
        # stage runs in the scoring queue too, so nothing of the guard's work is on the request path.
        self.defer_input = background and observe

    @classmethod
    def build(
        cls,
        guard: Guard,
        policy: Policy,
        on_report: Callable[[Report], None] | None,
        *,
        mode: str,
        observe: bool,
        scorer: Callable[[], Guard] | None,
        queue_size: int,
        score_timeout: float,
        recycle_answers: int | None,
        recycle_rss_mb: float | None,
        max_score_chars: int | None,
    ) -> AnswerScoring:
        """The paths ``create_app``'s ``scoring`` (``mode``) chooses under a policy that can only ``observe`` or not."""
        background = mode in ("background", "process") or (mode == "auto" and observe)
        # auto: under observe, in a scoring process when the guard can be built there
        in_process = mode == "process" or (mode == "auto" and observe and scorer is not None)
        process = (
            ScoringProcess(scorer, recycle_answers=recycle_answers, recycle_rss_mb=recycle_rss_mb)
            if in_process and scorer is not None
            else None
        )
        # the scoring thread only waits on the scoring process: it need not rest to leave the event loop time
        queue = ScoringQueue(queue_size, meter=guard.telemetry.meter, duty=1.0 if process else IN_PROCESS_DUTY)
        return cls(
            guard,
            policy,
            on_report,
            background=background,
            observe=observe,
            queue=queue,
            process=process,
            score_timeout=score_timeout,
            max_score_chars=max_score_chars,
        )

    def health(self) -> dict[str, Any]:
        """The scoring mode in use, the queue's counts and the scoring process's (None without one)."""
        return {
            "scoring": ("process" if self.process else "background") if self.background else "inline",
            "queue": self.queue.stats(),
            "process": dict(self.process.counts) if self.process else None,
        }

    async def start(self) -> bool:
        """Start the scoring process (in a thread: it loads its models); False when it could not start."""
        if self._child is None:
            return True
        return await run_in_threadpool(self._child.start)

    async def stop(self) -> None:
        """Skip what is still queued, then stop the scoring process."""
        self.queue.stop()
        if self._child is not None:
            await run_in_threadpool(self._child.stop)

    def later(self, call: GuardedCall, text: str | None, source: Source = None) -> None:
        """Queue the answer's scoring: in the scoring process when there is one (``source``: the request's
        messages and documents, which it is sent), else on the queue's thread."""
        if text is None:  # a tool call, or a stream with unreadable lines: nothing to score
            call.after(None)
            return

        def run() -> None:
            if self.process is not None and source is not None and self.too_long(text) is None:
                outcome = self._score_elsewhere(call, text, source)
                if outcome is not None:
                    self.notify(outcome)
                    return
            if self.defer_input:
                call.before()  # an observe policy never blocks: the input stage ran off the path too
            self.notify(self.after(call, text))

        def skip() -> None:
            call.after(None)

        self.queue.submit(run, skip)

    def unscored_later(self, call: GuardedCall, reason: str) -> None:
        """Queue an ``undetermined`` report saying ``reason`` (an answer that must not be scored: a stream that
        failed or was cut short mid-answer); it reaches ``on_report`` like a scored one."""

        def run() -> None:
            self.notify(call.unscored(reason))

        def skip() -> None:
            call.after(None)

        self.queue.submit(run, skip)

    def _score_elsewhere(self, call: GuardedCall, text: str, source: tuple[Any, Any]) -> Outcome | None:
        """Score in the scoring process; None when it cannot start (the caller scores here instead)."""
        assert self.process is not None
        request = ScoreRequest(source[0], source[1], call.model, text)
        try:
            result = self.process.score(request, self.score_timeout)
        except ScorerUnavailable:
            if self.process.stopped:
                return call.unscored(f"{SCORING_FAILED}: the proxy is stopping", checks=False)
            self.score_here()
            return None
        except ScorerTimedOut:  # the child was ended; the next answer starts a new one
            reason = (
                f"{SCORING_TIMEOUT}: scoring this answer took longer than {self.score_timeout:g} s "
                "(score_timeout); the scoring process was ended and a new one scores the next answer"
            )
            return call.unscored(reason, checks=False)
        except ScorerFailed as exc:  # the answer in flight is lost; the next one starts a new process
            return call.unscored(f"{SCORING_FAILED}: the scoring process failed ({exc})", checks=False)
        return call.complete(result.report, result.input_verdicts)

    def score_here(self) -> None:
        """No scoring process could start: score in this process from now on."""
        if self.process is not None:
            log.warning("no scoring process: scoring in the proxy's process from now on")
            self.process = None
            self.queue.duty = IN_PROCESS_DUTY  # scoring holds this interpreter again: leave the loop time

    def too_long(self, text: str) -> str | None:
        """The ``undetermined`` reason for an answer over ``max_score_chars`` (its length, never its text)."""
        if self.max_score_chars is None or len(text) <= self.max_score_chars:
            return None
        return (
            f"{TOO_LONG}: the answer has {len(text)} characters, over the {self.max_score_chars} "
            "this proxy scores (max_score_chars)"
        )

    def after(self, call: GuardedCall, text: str | None) -> Outcome:
        """The output stage, or an unscored report for an answer over the size limit."""
        reason = self.too_long(text) if text is not None else None
        return call.unscored(reason) if reason is not None else call.after(text)

    def check(self, query: Any, response: Any, documents: Any, messages: Any) -> Report:
        """``guard.check``, or an unscored report for an answer over the size limit."""
        text = response if isinstance(response, str) else None
        reason = self.too_long(text) if text is not None else None
        if reason is None:
            return self.guard.check(query, response, documents, messages)
        call = GuardedCall(
            self.guard,
            self.policy,
            query=query,
            documents=documents,
            messages=messages,
            operation="output",
            require=True,
        )
        report = call.unscored(reason).report
        assert isinstance(report, Report)
        return report

    def notify(self, outcome: Outcome) -> None:
        """``on_report`` with the outcome's report, when it has one."""
        if isinstance(outcome.report, Report):
            self.notify_report(outcome.report)

    def notify_report(self, report: Report) -> None:
        """``on_report`` with ``report``; a failing callback is logged, never raised."""
        if self.on_report is not None:
            try:
                self.on_report(report)
            except Exception:
                log.exception("on_report callback failed")
