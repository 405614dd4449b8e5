"""Runs the stages of one guarded call: decompose, input detectors, output detectors.

Every plugin call is isolated: an exception or a timeout is recorded as a
:class:`DetectorFailure` (and on the span), never raised into the call.

Budgets stop work. Each plugin call runs in a worker thread under a time budget; long loops
inside plugins call :func:`checkpoint`, which raises :class:`BudgetSpent` once the budget is
gone, so an abandoned call stops at its next checkpoint. A call that never checks (a pure-Python
loop) is interrupted: an exception is raised in its thread at its next bytecode, or, when the thread
is inside a section that shared code marked with :func:`faithguard.interrupts.shielded` (a ``finally``
restoring global state), when it leaves that section. A call blocked in
C keeps its thread until it returns to Python, and the pool grows by one thread for each abandoned
call, so other calls never wait behind it. At most :data:`MAX_ABANDONED_PER_PLUGIN` calls of one
plugin can be abandoned at once: beyond that the plugin is reported ``stuck`` and not run until one
of them returns (its reports say so and their outcome is undetermined), so a plugin that hangs on
every call holds a bounded number of threads.
"""

from __future__ import annotations

import contextlib
import contextvars
import copy
import functools
import math
import queue
import threading
import time
from collections import Counter
from collections.abc import Callable
from concurrent.futures import Future, InvalidStateError
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol, TypeGuard, runtime_checkable

from faithguard.detector import CallContext, Decomposer, Detector, RegisteredVerifier, verifier_scope
from faithguard.errors import BudgetSpent, ConfigError, DetectorError, InputTooLarge, Skipped
from faithguard.interrupts import Interrupted, forget, interrupt
from faithguard.models import (
    Decomposition,
    DetectorFailure,
    DetectorResult,
    InspectReport,
    Report,
    Status,
    TermFinding,
)
from faithguard.results import MAX_VERDICTS_PER_DETECTOR, VERDICTS_CAPPED, result_problem
from faithguard.telemetry import A_DETECTOR, A_STAGE, Telemetry, mark_error
from faithguard.verification import VerifierRuntime, use_runtime

__all__ = [
    "MAX_ABANDONED_PER_PLUGIN",
    "MAX_VERDICTS_PER_DETECTOR",
    "IsolationPool",
    "Run",
    "budget_ok",
    "checkpoint",
    "remaining_budget",
]

#: Abandoned (timed-out, still running) calls one plugin may hold before it is reported stuck.
MAX_ABANDONED_PER_PLUGIN = 2


class _Budget:
    """The time budget of one plugin call: a deadline and a cancel flag."""

    __slots__ = ("cancelled", "deadline", "name")

    def __init__(self, name: str, seconds: float | None) -> None:
        self.name = name
        self.deadline = time.monotonic() + seconds if seconds else None
        self.cancelled = threading.Event()

    def spent(self) -> bool:
        return self.cancelled.is_set() or (self.deadline is not None and time.monotonic() > self.deadline)


_BUDGET: contextvars.ContextVar[_Budget | None] = contextvars.ContextVar("faithguard_budget", default=None)


def checkpoint() -> None:
    """Raise :class:`BudgetSpent` if the plugin call running in this thread is past its budget.

    Call it inside long loops (per sentence, per candidate term, per chunk). Outside a guarded
    plugin call it does nothing, so library code may call it unconditionally.
    """
    budget = _BUDGET.get()
    if budget is not None and budget.spent():
        raise BudgetSpent(budget.name, "time budget spent; stopped at a checkpoint")


def remaining_budget() -> float | None:
    """Seconds left in the budget of the plugin call running in this thread; None outside one or unbounded.

    A plugin that waits on something slow (the LLM judge) caps its wait with this, so its own
    offline result is returned before the guard abandons the call.
    """
    budget = _BUDGET.get()
    if budget is None or budget.deadline is None:
        return None
    return 0.0 if budget.cancelled.is_set() else max(0.0, budget.deadline - time.monotonic())


def _under_budget(budget: _Budget, fn: Callable[[], Any]) -> Any:
    _BUDGET.set(budget)
    return fn()


class IsolationPool:
    """Worker threads for plugin calls that an abandoned (hung) call cannot starve.

    ``max_workers`` threads serve ordinary calls; every abandoned call that is still running adds
    one more; a plugin with :data:`MAX_ABANDONED_PER_PLUGIN` abandoned calls still running is
    reported as stuck, so it holds a bounded number of threads however often it is called.
    """

    def __init__(self, max_workers: int) -> None:
        self._max = max_workers
        self._queue: queue.SimpleQueue[tuple[Future[Any], Callable[[], Any]] | None] = queue.SimpleQueue()
        self._lock = threading.Lock()
        self._threads = 0
        self._idle = 0
        self._abandoned = 0
        self._stuck: Counter[str] = Counter()
        self._closed = False
        #: thread ident -> the future its worker is running now (so an abandoned call can be interrupted)
        self._running: dict[int, Future[Any]] = {}
        #: thread ident -> the plugin whose abandoned call that worker still runs
        self._abandoned_by: dict[int, str] = {}

    def submit(self, fn: Callable[[], Any]) -> Future[Any]:
        """Run ``fn`` in a worker; RuntimeError once the pool is shut down."""
        future: Future[Any] = Future()
        with self._lock:
            if self._closed:
                raise RuntimeError("the isolation pool is shut down")
            if self._idle > 0:
                self._idle -= 1  # an idle worker will take it
            elif self._threads < self._max + self._abandoned:
                self._threads += 1
                threading.Thread(target=self._work, name="faithguard-worker", daemon=True).start()
            # else: every worker is busy; the call waits in the queue for the next free one
        self._queue.put((future, fn))
        return future

    def _work(self) -> None:
        ident = threading.get_ident()
        while True:
            item = self._queue.get()
            if item is None:
                with self._lock:
                    self._threads -= 1
                return
            future, fn = item
            self._serve(ident, future, fn)
            with self._lock:
                self._idle += 1

    def _serve(self, ident: int, future: Future[Any], fn: Callable[[], Any]) -> None:
        """Run one call; an interrupt meant for it (its call was abandoned) ends here, wherever it lands.

        The worker registers the call before it marks it running, so a call the caller abandons once it
        runs is always found (counted and interrupted), never left to run unseen.
        """
        try:
            try:
                with self._lock:
                    self._running[ident] = future
                if future.set_running_or_notify_cancel():
                    self._run(future, fn)
            finally:
                self._settle(ident)
        except Interrupted:
            pass  # it landed between the call and its result: the caller stopped waiting long ago
        if not future.done():
            with contextlib.suppress(InvalidStateError):
                future.set_exception(BudgetSpent("abandoned call", "interrupted after its time budget"))

    @staticmethod
    def _run(future: Future[Any], fn: Callable[[], Any]) -> None:
        try:
            result = fn()
        except BaseException as exc:  # noqa: BLE001 - handed to the waiting caller
            if not future.done():
                future.set_exception(exc)
            return
        if not future.done():
            future.set_result(result)

    def _settle(self, ident: int) -> None:
        """Forget the call this worker ran. An interrupt is sent only while this entry is present and under the
        lock taken here, so a pending one lands at the latest in this block (and is dropped), never later."""
        while True:
            try:
                with self._lock:
                    # the first call absorbs a pending interrupt; a retry finds this entry gone and goes on
                    self._running.pop(ident, None)
                    forget(ident)  # no shielded section outlives its call
                    name = self._abandoned_by.pop(ident, None)
                    if name is not None:
                        self._abandoned -= 1
                        self._stuck[name] -= 1
                return
            except Interrupted:
                continue

    @property
    def max_workers(self) -> int:
        """Threads for ordinary calls (abandoned calls add one each while they run)."""
        return self._max

    @property
    def threads(self) -> int:
        """Worker threads alive now."""
        with self._lock:
            return self._threads

    def stuck(self, name: str) -> bool:
        """Whether plugin ``name`` holds the most abandoned calls allowed (it is not run until one returns)."""
        with self._lock:
            return self._stuck[name] >= MAX_ABANDONED_PER_PLUGIN

    def abandon(self, name: str, future: Future[Any]) -> None:
        """Stop waiting for ``future`` and interrupt its thread; the thread is replaced until the call returns.

        The counts are kept under the pool's lock and undone by the worker itself when it forgets the call
        (:meth:`_settle`), never by a future callback, which an interrupt could cut short.
        """
        if future.cancel():
            return
        with self._lock:
            # only while the worker still runs this very call (checked under the lock the worker takes
            # before it forgets the call, so the interrupt can never reach its next call)
            ident = next((i for i, f in self._running.items() if f is future), None)
            if ident is None:
                return  # it finished meanwhile: nothing is held
            self._abandoned += 1
            self._stuck[name] += 1
            self._abandoned_by[ident] = name
            interrupt(ident)

    def shutdown(self) -> None:
        """Let idle workers exit; abandoned calls end on their own (threads are daemons)."""
        with self._lock:
            self._closed = True
            n = self._threads
        for _ in range(n):
            self._queue.put(None)


@dataclass
class Run:
    """The mutable state of one guarded call while its stages run."""

    ctx: CallContext
    telemetry: Telemetry
    pool: IsolationPool
    default_timeout: float
    #: Where the calls of plugins that call the judge run (None: ``pool``): a judge that hangs holds these threads,
    #: never the ones the offline checks of other calls are waiting for.
    judge_pool: IsolationPool | None = None
    errors: list[DetectorFailure] = field(default_factory=list)
    skipped: dict[str, str] = field(default_factory=dict)
    undetermined: list[str] = field(default_factory=list)
    terms: list[TermFinding] = field(default_factory=list)
    clarification: str | None = None
    answer_label: Literal["valid", "hallucination", "irrelevant"] | None = None
    #: How many of ctx.verdicts came from the input stage.
    input_verdicts: int = 0
    #: The guard's registered verifiers, visible to plugins through detector.guard_verifiers().
    verifiers: tuple[RegisteredVerifier, ...] | None = None
    #: The verifier runtime of the guard's own plugins (None: its plugins provide none), what
    #: verification.active_runtime() returns inside this run's plugin calls.
    verifier_runtime: VerifierRuntime | None = None
    started: float = field(default_factory=time.perf_counter)

    def call_isolated(
        self, name: str, stage: Any, timeout: float | None, fn: Callable[[], Any], *, judged: bool = False
    ) -> tuple[Any, bool]:
        """Run ``fn`` in the pool (the judge pool when ``judged``) under ``timeout``; (result, ok). Failures are
        recorded, skips noted."""
        pool = self.judge_pool if judged and self.judge_pool is not None else self.pool
        limit = timeout if budget_ok(timeout) else self.default_timeout  # None, 0, NaN or inf: the guard's budget
        seconds = limit if budget_ok(limit) else None
        t0 = time.perf_counter()
        error: BaseException | None = None
        error_type = ""  # set with error: "timeout", "stuck" or the exception's class
        result: Any = None
        budget = _Budget(name, seconds)
        with verifier_scope(self.verifiers), use_runtime(self.verifier_runtime):
            context = contextvars.copy_context()
        work = functools.partial(context.run, _under_budget, budget, fn)
        future: Future[Any] | None
        if pool.stuck(name):
            error = DetectorError(name, "not run: earlier calls are still running past their budget")
            error_type = "stuck"
            future = None
        else:
            try:
                future = pool.submit(work)
            except RuntimeError:
                # The pool is shut down (interpreter exit while background reports drain):
                # run inline rather than lose the report; checkpoints still enforce the budget.
                future = None
        try:
            if error is None:
                result = work() if future is None else future.result(timeout=seconds)
        except FutureTimeout:
            budget.cancelled.set()
            if future is not None:
                pool.abandon(name, future)
            error = DetectorError(name, f"timed out after {limit:g}s")
            error_type = "timeout"
        except Interrupted:
            # another call's interrupt, reaching this one through shared work it waited for: a timeout here too
            budget.cancelled.set()
            error = DetectorError(name, "interrupted: shared work ran out of its time budget")
            error_type = "timeout"
        except (Skipped, InputTooLarge) as exc:
            self.skipped[name] = _safe_message(exc, self.telemetry.capture_content)
            self.telemetry.record_skip(name, stage)
            if isinstance(exc, InputTooLarge):  # a check that could not read the call did not pass it
                self.undetermined.append(f"{name}: {self.skipped[name]}")
            return None, False
        except (Exception, SystemExit) as exc:  # noqa: BLE001 - a plugin failure (sys.exit too) never breaks the call
            error, error_type = exc, _error_type(exc)
        self.telemetry.record_detector(name, stage, time.perf_counter() - t0, error_type if error else None)
        if error is not None:
            self.errors.append(
                DetectorFailure(
                    detector=name,
                    stage=stage,
                    error_type=error_type,
                    message=_safe_message(error, self.telemetry.capture_content),
                )
            )
            return None, False
        return result, True

    def _judged(self, plugin: object) -> bool:
        """Whether ``plugin`` calls the judge configured for this call (its calls then run in the judge pool)."""
        return self.ctx.judge is not None and _calls_judge(plugin) and plugin.calls_judge

    def timeout_for(self, plugin: object) -> float | None:
        """The plugin's own timeout; for one that calls the configured judge, at least the judge's budget."""
        timeout = plugin.timeout if _is_timed(plugin) and budget_ok(plugin.timeout) else None
        judge = self.ctx.judge
        if _calls_judge(plugin) and plugin.calls_judge and isinstance(judge, _BudgetedJudge):
            budget = judge.detector_budget if budget_ok(judge.detector_budget) else 0.0
            return max(self.default_timeout if timeout is None else timeout, budget)
        return timeout

    def decompose(self, chain: list[Decomposer], cached: Callable[[Decomposer], Decomposition]) -> None:
        """Try each decomposer in order until one succeeds; record the failures."""
        for decomposer in chain:
            attrs = {A_DETECTOR: decomposer.name, "openinference.span.kind": "EVALUATOR"}
            with self.telemetry.span(f"decompose {decomposer.name}", attrs) as span:
                timeout = self.timeout_for(decomposer)
                result, ok = self.call_isolated(
                    decomposer.name,
                    "decompose",
                    timeout,
                    functools.partial(cached, decomposer),
                    judged=self._judged(decomposer),
                )
                if ok and isinstance(result, Decomposition):
                    # this call's own copy: the decomposer's result may be shared (a cache), and reports and
                    # plugins that edit theirs must not edit a later call's
                    self.ctx.decomposition = result.model_copy(deep=True)
                    self.ctx.constraints = copy.deepcopy(result.constraints)
                    if result.undetermined:
                        self.undetermined.append(f"{decomposer.name}: {result.undetermined}")
                    if span.is_recording():
                        span.set_attribute("faithguard.constraints.total", len(result.constraints))
                    return
                if ok:
                    self.errors.append(
                        DetectorFailure(
                            detector=decomposer.name,
                            stage="decompose",
                            error_type="TypeError",
                            message="decomposer did not return a Decomposition",
                        )
                    )
                if decomposer.name in self.skipped:
                    continue
                mark_error(span, RuntimeError(self.errors[-1].error_type))
        if not any(e.stage == "decompose" for e in self.errors) or self.ctx.decomposition.decomposer:
            return
        self.undetermined.append("no decomposer succeeded: the request's constraints are unknown")

    def detect(self, detectors: list[Detector], stage: str) -> None:
        """Run the ``stage`` detectors in order, merging each result into the context."""
        for det in detectors:
            if det.stage != stage:
                continue
            attrs = {A_DETECTOR: det.name, A_STAGE: stage, "openinference.span.kind": "EVALUATOR"}
            with self.telemetry.span(f"detect {det.name}", attrs) as span:
                timeout = self.timeout_for(det)
                result, ok = self.call_isolated(
                    det.name, stage, timeout, functools.partial(det.run, self.ctx), judged=self._judged(det)
                )
                if not ok:
                    if det.name not in self.skipped:
                        mark_error(span, RuntimeError(self.errors[-1].error_type))
                    continue
                if not isinstance(result, DetectorResult):
                    self.errors.append(
                        DetectorFailure(
                            detector=det.name,
                            stage=stage,
                            error_type="TypeError",
                            message="run() did not return a DetectorResult",
                        )
                    )
                    continue
                malformed = result_problem(result)
                if malformed is not None:  # nothing of it is merged: a half-applied result would be worse
                    self.errors.append(
                        DetectorFailure(detector=det.name, stage=stage, error_type="TypeError", message=malformed)
                    )
                    continue
                if len(result.verdicts) > MAX_VERDICTS_PER_DETECTOR:
                    # past this many, verdicts add telemetry and report work outside any budget (100,000 added 5.7 s)
                    self.undetermined.append(
                        f"{det.name}: {VERDICTS_CAPPED}: {len(result.verdicts)} verdicts, the first "
                        f"{MAX_VERDICTS_PER_DETECTOR} kept"
                    )
                    result = result.model_copy(update={"verdicts": result.verdicts[:MAX_VERDICTS_PER_DETECTOR]})
                self._merge(det.name, stage, result)
                if span.is_recording():
                    span.set_attribute("faithguard.verdict.count", len(result.verdicts))
                    span.set_attribute("faithguard.constraints.updated", len(result.updates))

    def _merge(self, detector: str, stage: str, result: DetectorResult) -> None:
        by_id = {c.id: c for c in self.ctx.constraints}
        for cid, (status, reason) in result.updates.items():
            constraint = by_id.get(cid)
            # First decisive status wins: verifiers and the offline engine run before the judge,
            # so a later detector can only decide what earlier ones left unknown.
            if constraint is None or constraint.status is not Status.UNKNOWN or status is Status.UNKNOWN:
                if constraint is not None and constraint.status is Status.UNKNOWN and reason and not constraint.reason:
                    constraint.reason = reason
                continue
            constraint.status = Status(status)
            constraint.reason = reason
            constraint.decided_by = result.deciders.get(cid) or detector
        for verdict in result.verdicts:
            update: dict[str, Any] = {"stage": "input" if stage == "input" else "output"}
            if not verdict.detector:
                update["detector"] = detector
            self.ctx.verdicts.append(verdict.model_copy(update=update))
        if result.undetermined:
            self.undetermined.append(f"{detector}: {result.undetermined}")
        if result.clarification and self.clarification is None:
            self.clarification = result.clarification
        if result.answer_label is not None:
            self.answer_label = result.answer_label
        self.ctx.findings.update(result.findings)
        if result.terms:
            # a finding on a term already reported replaces it in place (positions found once: a detector
            # reporting hundreds of terms rebuilt the whole list once per term)
            known: dict[str, list[int]] = {}
            for i, t in enumerate(self.terms):
                known.setdefault(t.term, []).append(i)
            for term in result.terms:
                where = known.get(term.term)
                if where is None:
                    self.terms.append(term)
                else:
                    for i in where:
                        self.terms[i] = term

    def inspect_report(self) -> InspectReport:
        """The input-stage result."""
        return InspectReport(
            query=self.ctx.query,
            decomposition=self.ctx.decomposition,
            verdicts=list(self.ctx.verdicts),
            terms=list(self.terms),
            findings=_jsonable(self.ctx.findings),
            errors=list(self.errors),
            skipped=dict(self.skipped),
            undetermined=list(self.undetermined),
            clarification=self.clarification,
        )

    def report(self, response: str, weights: dict[str, float], model: str | None = None) -> Report:
        """The full result after the output stage."""
        findings = self.ctx.findings
        use = self.ctx.judge_use
        judge = "off" if self.ctx.judge is None else use.state
        return Report(
            query=self.ctx.query,
            response=response,
            # copies: a plugin that kept the context (a thread of its own) cannot change a report already returned
            constraints=[c.model_copy() for c in self.ctx.constraints],
            subquestions=self.ctx.decomposition.subquestions,
            verdicts=list(self.ctx.verdicts),
            terms=list(self.terms),
            answer_label=self.answer_label,
            errors=list(self.errors),
            skipped=dict(self.skipped),
            undetermined=list(self.undetermined),
            judge=judge,
            judge_reason=use.reason if judge != "off" else None,
            model=model,
            weights=weights,
            findings=_jsonable(findings),
            duration_ms=(time.perf_counter() - self.started) * 1000.0,
        )


@functools.lru_cache(maxsize=64)
def _data_members(protocol: type) -> tuple[str, ...]:
    """The annotated members of a protocol of data members only (``_Timed``, ``_CallsJudge``)."""
    return tuple(protocol.__annotations__)


def _conforms(obj: object, protocol: type) -> bool:
    """``isinstance(obj, protocol)`` for a runtime-checkable protocol of data members, without its cost.

    For such a protocol ``isinstance`` is "has every member" (``typing._ProtocolMeta``); Python 3.11
    rebuilds the member list on every check (~0.1 ms, twice per plugin call). Fixtures:
    tests/core/test_runner_conforms.py (equal to ``isinstance`` on objects with and without the members).
    """
    return all(hasattr(obj, name) for name in _data_members(protocol))


def _is_timed(obj: object) -> TypeGuard[_Timed]:
    return _conforms(obj, _Timed)


def _calls_judge(obj: object) -> TypeGuard[_CallsJudge]:
    return _conforms(obj, _CallsJudge)


def _jsonable(value: Any) -> Any:
    """Findings as plain JSON data (unknown objects become their repr)."""
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set):
        return [_jsonable(v) for v in value]
    if isinstance(value, str | int | float | bool) or value is None:
        return value
    if hasattr(value, "model_dump"):
        return value.model_dump(mode="json")
    return repr(value)


def observer_failure(name: str, exc: BaseException) -> DetectorFailure:
    """The record of an observer (on_report hook or callback) that raised."""
    return DetectorFailure(detector=name, stage="observe", error_type=_error_type(exc), message=_safe_message(exc))


def budget_ok(seconds: object) -> bool:
    """A usable time budget: a finite number of seconds above 0 (a plugin's ``timeout`` may be anything)."""
    return isinstance(seconds, int | float) and not isinstance(seconds, bool) and 0 < seconds < math.inf


def _error_type(exc: BaseException) -> str:
    """A raised exception's label: ``timeout`` for a plugin stopped at a checkpoint, else its class."""
    return "timeout" if isinstance(exc, BudgetSpent) else type(exc).__qualname__


def _safe_message(exc: BaseException, capture_content: bool = False) -> str:
    """A failure's message without request or response text (unless content capture is on).

    The guard's own budget, configuration and skip messages are written not to quote content; any
    other exception text may quote the request or an upstream body, so only its type is kept.
    """
    if capture_content or isinstance(exc, DetectorError | ConfigError | Skipped | InputTooLarge):
        return str(exc)[:500]
    return f"{type(exc).__qualname__} (message withheld: it may quote content; enable content capture to keep it)"


@runtime_checkable
class _Timed(Protocol):
    """A plugin object with its own ``timeout`` in seconds (None: the guard's default)."""

    timeout: float | None


@runtime_checkable
class _CallsJudge(Protocol):
    """A plugin that calls the LLM judge: its budget follows the judge's (``Run.timeout_for``)."""

    calls_judge: bool


@runtime_checkable
class _BudgetedJudge(Protocol):
    """A judge that states how long a plugin calling it may need (``faithguard.judge.Judge``)."""

    @property
    def detector_budget(self) -> float:
        """Seconds: every call it may make for one request at its full call budget, plus a margin."""
        ...
