"""The Guard: the one place that sequences the stages of a guarded call."""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import functools
import logging
import os
import queue
import threading
import weakref
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, TypeVar, overload

import pluggy
from opentelemetry import _logs, metrics, trace

from faithguard import calls, plugins, scoring
from faithguard.cache import SingleFlightCache, texts_key
from faithguard.detector import CallContext, Decomposer, Detector, Judge, KnowledgeSource, Warmable
from faithguard.errors import BudgetSpent, ConfigError, InputError, shown
from faithguard.lifecycle import GuardedCall
from faithguard.models import Decomposition, InspectReport, Report
from faithguard.policy import Policy
from faithguard.runner import IsolationPool, Run, budget_ok, observer_failure
from faithguard.telemetry import Telemetry
from faithguard.verification import VerifierRuntime

_log = logging.getLogger(__name__)

__all__ = ["Guard"]

F = TypeVar("F", bound=Callable[..., Any])


#: The largest tier weight accepted: scores use the weights' ratios, and sums of larger ones can overflow.
MAX_WEIGHT = 1e6


class Guard:
    """Guards LLM calls: input checks before, constraint scoring and verdicts after.

    ``Guard()`` is the embedded offline default (spaCy + wordfreq + deterministic
    verifiers). Pass ``judge=`` (an object implementing :class:`~faithguard.Judge`, the name of a
    judge factory a plugin registered, built with ``judge_options``, or a spec a plugin's judge
    resolver reads: with the built-in judge plugin a ``JudgeConfig`` or a LangChain chat model) to
    switch on the LLM judge; the default ``"env"`` reads ``FAITHGUARD_JUDGE_BASE_URL``/
    ``FAITHGUARD_JUDGE_MODEL`` (no judge when they are unset or no plugin resolves judges). Models
    load at construction (``warmup=False`` defers it to :meth:`warmup` or, worse, to the first call's
    time budget).
    """

    def __init__(
        self,
        *,
        name: str = "default",
        decomposer: str | Decomposer | Sequence[str | Decomposer] = "offline",
        detectors: Iterable[str] | None = None,
        exclude: Iterable[str] = (),
        extra_detectors: Sequence[Detector] = (),
        knowledge_sources: Sequence[KnowledgeSource] | None = None,
        judge: Any = "env",
        judge_options: Mapping[str, Any] | None = None,
        policy: Policy | None = None,
        weights: Mapping[str, float] | None = None,
        tracer_provider: trace.TracerProvider | None = None,
        meter_provider: metrics.MeterProvider | None = None,
        logger_provider: _logs.LoggerProvider | None = None,
        capture_content: bool | None = None,
        plugin_manager: pluggy.PluginManager | None = None,
        load_entrypoints: bool = True,
        detector_timeout: float = 5.0,
        cache_size: int = 2048,
        cache_ttl: float = 3600.0,
        max_input_chars: int = calls.MAX_INPUT_CHARS,
        background: bool = False,
        queue_size: int = 1000,
        max_workers: int = 4,
        warmup: bool = True,
    ) -> None:
        self.name = name
        self.policy = policy or Policy()
        self.weights = dict(scoring.DEFAULT_WEIGHTS)
        if weights:
            for tier, w in weights.items():
                if str(tier) not in self.weights or not (0 <= float(w) <= MAX_WEIGHT):
                    raise ConfigError(
                        f"bad weight {tier!r}={w!r}: tiers are mandatory/important/optional, weights in "
                        f"[0, {MAX_WEIGHT:g}] (scores use their ratios; larger ones overflow)"
                    )
                self.weights[str(tier)] = float(w)
            if not any(self.weights.values()):
                raise ConfigError("weights: at least one tier needs a weight above 0 (nothing would be scored)")
        if not budget_ok(detector_timeout):  # 0, NaN, inf and True fail too
            raise ConfigError(f"detector_timeout must be a finite number of seconds above 0, not {detector_timeout!r}")
        sizes = {"cache_size": cache_size, "queue_size": queue_size, "max_workers": max_workers}
        if max_input_chars is not None:
            sizes["max_input_chars"] = max_input_chars
        for label, value in sizes.items():
            if not (isinstance(value, int) and not isinstance(value, bool) and value >= 1):
                raise ConfigError(f"{label} must be a whole number >= 1, not {value!r}")
        self.detector_timeout = detector_timeout
        #: observers whose last call overran its budget (still running: not called again until it returns)
        self._observers: dict[str, threading.Thread] = {}
        self.max_input_chars = max_input_chars
        self.telemetry = Telemetry(tracer_provider, meter_provider, logger_provider, capture_content)

        failures: list[plugins.PluginFailure] = []
        if plugin_manager is None:
            plugin_manager, failures = plugins.make_plugin_manager(load_entrypoints=load_entrypoints)
        self.plugin_manager = plugin_manager
        self.registry = plugins.collect(plugin_manager, failures)
        #: What this guard's calls see through detector.guard_verifiers() (fixed once plugins are collected).
        self._verifiers = tuple(self.registry.verifiers)
        #: The verifier runtime this guard's own plugins provide (the first registered; None: none), set for
        #: every plugin call of its runs: another guard's plugins or the process's entry points never decide it.
        self._verifier_runtime = self.registry.verifier_runtimes[0] if self.registry.verifier_runtimes else None
        for extra in extra_detectors:
            problem = plugins.detector_problem(extra)
            if problem is not None:
                raise ConfigError(f"extra_detectors: {str(getattr(extra, 'name', '?'))[:80]!r} {problem}")
        chosen = list(self.registry.detectors) + list(extra_detectors)
        every = [d.name for d in chosen]
        doubled = sorted({n for n in every if every.count(n) > 1})
        if doubled:  # two detectors of one name: their findings and errors could not be told apart
            raise ConfigError(
                f"extra_detectors: a detector named {', '.join(map(repr, doubled))} is already registered"
            )
        if isinstance(detectors, str):
            detectors = [detectors]  # one name, not its letters
        allowed = set(detectors) if detectors is not None else None
        unknown = sorted(allowed - {d.name for d in chosen}) if allowed is not None else []
        if unknown:
            names = ", ".join(sorted({d.name for d in chosen}))
            missing = f"no detector is named {', '.join(map(repr, unknown))} (known: {names})"
            if allowed is not None and len(unknown) == len(allowed):
                # every name misspelt: nothing would judge while reports still read "checked"
                raise ConfigError(f"detectors: {missing}")
            # one that is not there in this install (an optional layer switched off) is said, not fatal: logged,
            # recorded, and in every report's undetermined reasons (a typo must not read as checked)
            self.registry.failures.append(plugins.PluginFailure("detectors", missing))
            _log.warning("Guard(detectors=...): %s", missing)
        self._not_registered = tuple(unknown)
        excluded = set(exclude)
        self.detectors: list[Detector] = sorted(
            (d for d in chosen if (allowed is None or d.name in allowed) and d.name not in excluded),
            key=lambda d: (d.order, d.name),
        )
        self.knowledge_sources = (
            list(knowledge_sources) if knowledge_sources is not None else list(self.registry.knowledge_sources)
        )
        wanted = [decomposer] if isinstance(decomposer, str | Decomposer) else list(decomposer)
        if not wanted:
            raise ConfigError("decomposer: give at least one decomposer")
        #: Decomposers tried in order; the first that succeeds is used (e.g. ``("judge", "offline")``).
        self.decomposer_chain: list[Decomposer] = [self._decomposer(d) for d in wanted]
        self.decomposer = self.decomposer_chain[0]
        if isinstance(judge, str) and judge in self.registry.judges:
            # a judge factory a plugin registered (register_judges), built with judge_options
            factory = self.registry.judges[judge]
            options = dict(judge_options or {})
            try:
                judge = factory(tracer=self.telemetry.tracer, **options)
            except TypeError as exc:  # an option the factory does not take; its value is never shown
                raise ConfigError(f"judge {judge!r} does not take judge_options {sorted(options)}") from exc
        elif judge_options:
            raise ConfigError(
                f"judge_options need a registered judge name; registered: {sorted(self.registry.judges) or 'none'}"
            )
        self.judge: Judge | None = self._resolve_judge(judge)
        self._cache: SingleFlightCache[Decomposition] = SingleFlightCache(maxsize=cache_size, ttl=cache_ttl)
        self._pool = IsolationPool(max_workers)
        # plugins that call the judge run apart: a judge that hangs (up to its call budget) holds these threads, not
        # the ones the offline checks of concurrent calls wait for (helper 92: 24 concurrent checks with a hanging
        # judge lost 16 critical verdicts to offline checks that timed out waiting for a thread)
        self._judge_pool = IsolationPool(max_workers) if self.judge is not None else None
        self._background: _Background | None = _Background(queue_size) if background else None
        self._closed = False
        # weakref.finalize also runs at interpreter exit, so background reports are flushed then too; a guard still
        # alive at exit is drained earlier than that, when threading shuts down (_drain_at_exit)
        self._finalizer = weakref.finalize(self, _shutdown, self._pool, self._background, self._judge_pool)
        _LIVE.add(self)
        self.telemetry.prime(self.name)
        if warmup:
            self.warmup()

    def _decomposer(self, spec: str | Decomposer) -> Decomposer:
        if not isinstance(spec, str):
            return spec
        if spec not in self.registry.decomposers:
            raise ConfigError(
                f"no decomposer {spec!r}; registered: {sorted(self.registry.decomposers) or 'none'}"
                + self._failure_hint()
            )
        return self.registry.decomposers[spec]

    def _resolve_judge(self, spec: Any) -> Judge | None:
        """``spec`` as a judge: None/False/"off" is none, a :class:`Judge` is itself, any other spec goes
        to the first resolver a plugin registered (``register_judge_resolvers``) that accepts it."""
        if spec is None or spec is False or (isinstance(spec, str) and spec == "off"):
            return None
        if isinstance(spec, Judge):
            return spec
        resolvers = self.registry.judge_resolvers
        if not resolvers:
            if isinstance(spec, str) and spec == "env":
                if os.environ.get("FAITHGUARD_JUDGE_BASE_URL", "").strip():
                    # the environment asks for a judge the plugins cannot build: say so (no URL or key in the text)
                    _log.warning(
                        "FAITHGUARD_JUDGE_BASE_URL is set but no plugin registered a judge resolver: the guard "
                        "stays offline%s",
                        self._failure_hint(),
                    )
                return None  # no judge plugin: the guard stays offline
            raise ConfigError(
                "the LLM judge is not available: no plugin registered a judge resolver" + self._failure_hint()
            )
        resolver = next((r for r in resolvers if r.accepts(spec)), None)
        if resolver is None:
            if isinstance(spec, str):
                accepted = ", ".join(r.accepted for r in resolvers)
                raise ConfigError(f"unknown judge spec {shown(spec)}: use None, 'off', {accepted}")
            raise ConfigError(f"cannot build a judge from {type(spec).__name__}")
        judge = resolver.resolve(spec, tracer=self.telemetry.tracer)
        if judge is not None and not isinstance(judge, Judge):
            raise ConfigError(f"{type(judge).__name__} does not implement the Judge protocol")
        return judge

    # -- public API ---------------------------------------------------------------------------

    @property
    def plugin_failures(self) -> list[plugins.PluginFailure]:
        """Plugins that failed to load or register (the guard runs without them)."""
        return list(self.registry.failures)

    def warmup(self) -> None:
        """Load models and indexes now (the decomposer's, detectors', knowledge sources', verifier runtime's, the
        judge's), so that no first call loads them inside its time budget. ``Guard()`` calls it unless
        ``warmup=False``; the CLI, proxy and batch workers rely on that. A plugin whose warm-up fails is recorded
        in :attr:`plugin_failures` (its calls then fail or time out, and say so); the guard itself never fails to
        build because of it."""
        targets: list[Decomposer | Detector | KnowledgeSource | Judge | VerifierRuntime] = [
            *self.decomposer_chain,
            *self.detectors,
            *self.knowledge_sources,
            *self.registry.verifier_runtimes[:1],  # the one the guard's calls use
        ]
        if self.judge is not None:
            targets.append(self.judge)
        for target in targets:
            if isinstance(target, Warmable):
                name = type(target).__name__ if isinstance(target, VerifierRuntime) else target.name
                error = _bounded(target.warmup, WARMUP_TIMEOUT, f"warmup-{name}")
                if error is not None:  # a plugin's warm-up never breaks (or holds up) the guard
                    why = "timeout" if isinstance(error, BudgetSpent) else type(error).__qualname__
                    self.registry.failures.append(plugins.PluginFailure(name, f"warmup failed: {why}"))

    def inspect(
        self, query: str | None, documents: Sequence[Any] | None = None, messages: Sequence[Any] | None = None
    ) -> InspectReport:
        """Input checks before the LLM call: decomposition, missing content, unknown terms."""
        call = GuardedCall(self, query=query, documents=documents, messages=messages, operation="input", require=True)
        try:
            pre = call._input()
        finally:
            call.end()
        assert pre is not None
        return pre

    def check(
        self,
        query: str | None,
        response: Any,
        documents: Sequence[Any] | None = None,
        messages: Sequence[Any] | None = None,
        *,
        model: str | None = None,
    ) -> Report:
        """Full scoring after the call: input checks, constraint satisfaction, verdicts, outcome.

        ``response`` is text or any supported result shape (OpenAI chat/Responses, Anthropic, LangChain
        message); a tool-call result gives an ``undetermined`` report with reason ``tool_call``.
        """
        if calls.extract_text(response) is None and not calls.tool_calls_of(response):
            raise InputError(f"cannot read a response text from {type(response).__name__}")
        call = GuardedCall(
            self, query=query, documents=documents, messages=messages, model=model, operation="output", require=True
        )
        decision = call.after(response, background=False)
        assert isinstance(decision.report, Report)
        return decision.report

    async def ainspect(
        self, query: str | None, documents: Sequence[Any] | None = None, messages: Sequence[Any] | None = None
    ) -> InspectReport:
        """Async :meth:`inspect` (runs in a worker thread, off the event loop)."""
        return await asyncio.to_thread(self.inspect, query, documents, messages)

    async def acheck(
        self,
        query: str | None,
        response: Any,
        documents: Sequence[Any] | None = None,
        messages: Sequence[Any] | None = None,
        *,
        model: str | None = None,
    ) -> Report:
        """Async :meth:`check` (runs in a worker thread, off the event loop)."""
        return await asyncio.to_thread(functools.partial(self.check, query, response, documents, messages, model=model))

    @overload
    def wrap(self, fn: F, /) -> F: ...

    @overload
    def wrap(
        self,
        fn: None = None,
        /,
        *,
        policy: Policy | None = ...,
        on_report: Callable[[Report], None] | None = ...,
        model: str | None = ...,
        provider: str | None = ...,
    ) -> Callable[[F], F]: ...

    def wrap(
        self,
        fn: F | None = None,
        /,
        *,
        policy: Policy | None = None,
        on_report: Callable[[Report], None] | None = None,
        model: str | None = None,
        provider: str | None = None,
    ) -> F | Callable[[F], F]:
        """Guard a sync or async LLM-calling function: ``guard.wrap(fn)`` or ``@guard.wrap(policy=...)``."""
        from faithguard.wrapping import wrap_callable

        def decorate(f: F) -> F:
            return wrap_callable(self, f, policy or self.policy, on_report, model, provider)

        return decorate(fn) if fn is not None else decorate

    def flush(self, timeout: float | None = None) -> bool:
        """Wait until every background report is done; False on timeout."""
        return self._background.flush(timeout) if self._background else True

    def close(self) -> None:
        """Flush background work and release threads. Idempotent."""
        if not self._closed:
            self._closed = True
            self._finalizer()

    def __enter__(self) -> Guard:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- resources the call lifecycle (faithguard.lifecycle) uses -------------------------------

    def _start(self, query: str | None, documents: Sequence[Any] | None, messages: Sequence[Any] | None) -> Run:
        if self._closed:
            raise ConfigError(f"guard {self.name!r} is closed; build a new Guard")
        inp = calls.normalize(query, documents, messages, max_chars=self.max_input_chars)
        ctx = CallContext(
            query=inp.query,
            messages=inp.messages,
            documents=inp.documents,
            system=inp.system,
            history=inp.history,
            judge=self.judge,
            knowledge_sources=self.knowledge_sources,
            attachments=inp.attachments,
        )
        return self._run(ctx)

    def _start_unread(self) -> Run:
        """The run of a call whose input could not be read (a watching policy lets it go on): no text to check."""
        if self._closed:
            raise ConfigError(f"guard {self.name!r} is closed; build a new Guard")
        return self._run(CallContext(query="", judge=self.judge, knowledge_sources=self.knowledge_sources))

    def _run(self, ctx: CallContext) -> Run:
        return Run(
            ctx=ctx,
            telemetry=self.telemetry,
            pool=self._pool,
            judge_pool=self._judge_pool,
            default_timeout=self.detector_timeout,
            verifiers=self._verifiers,
            verifier_runtime=self._verifier_runtime,
            # a detector named in detectors= that this install lacks did not judge the call: every report says so
            undetermined=[f"detectors: {name!r} is not registered (detectors=)" for name in self._not_registered],
        )

    def _decomposer_chain(self) -> list[Decomposer]:
        return list(self.decomposer_chain)

    def _cached_decompose(self, run: Run) -> Callable[[Decomposer], Decomposition]:
        """Decomposition through the guard's cache, keyed by the exact request and the whole conversation before
        it (a decomposer may read either: line breaks, an earlier turn's material); a provisional reading
        (resources still loading) is not kept. The run copies what it gets (``Run.decompose``)."""
        ctx = run.ctx
        texts = texts_key([ctx.query, *(part for m in ctx.history for part in (m.role, m.content))])
        judge_key = self.judge.cache_key if self.judge is not None else ""

        def compute(decomposer: Decomposer) -> Decomposition:
            key = (decomposer.name, judge_key, texts)
            return self._cache.get_or_compute(key, lambda: decomposer.decompose(ctx), keep=_lasting)

        return compute

    def _notify(self, report: Report) -> None:
        impls = self.plugin_manager.hook.on_report.get_hookimpls()
        if not impls:
            return
        # observers see a copy: one that edits what it is given (clears the verdicts) cannot change what the policy
        # then decides on, or what the caller gets; one that hangs is left behind after the detector budget
        seen = report.model_copy(deep=True)
        for impl in impls:
            hook = functools.partial(impl.function, report=seen)
            error = _bounded(hook, self.detector_timeout, f"observer-{impl.plugin_name}", self._observers)
            if error is not None:
                report.errors.append(observer_failure(impl.plugin_name, error))

    def _failure_hint(self) -> str:
        if not self.registry.failures:
            return ""
        return " (plugin failures: " + "; ".join(f"{f.name}: {f.error}" for f in self.registry.failures) + ")"


#: Seconds one plugin's warm-up may take before the guard is built without it (recorded in ``plugin_failures``).
#: Provenance: the built-ins load in under 10 s on this 2-core machine (spaCy, WordNet, the embedding model).
WARMUP_TIMEOUT = 120.0


def _bounded(
    work: Callable[[], object], seconds: float, name: str, running: dict[str, threading.Thread] | None = None
) -> BaseException | None:
    """Run a plugin's ``work`` in a daemon thread, in the caller's context (its trace span), for at most ``seconds``:
    None when it returned, else what it raised (``sys.exit`` included), or :class:`BudgetSpent` when it overran (the
    thread is left behind, never waited for). With ``running``, a plugin whose last call is still going is not run
    again, however many checks call it at once (one thread left behind per plugin)."""
    failed: list[BaseException] = []
    context = contextvars.copy_context()

    def run() -> None:
        try:
            context.run(work)
        except BaseException as exc:  # noqa: BLE001 - whatever a plugin raises is recorded
            failed.append(exc)

    thread = threading.Thread(target=run, name=f"faithguard-{name}", daemon=True)
    if running is not None:
        with _RUNNING_LOCK:  # concurrent checks: one of them starts the observer, the others see it running
            earlier = running.get(name)
            if earlier is not None and earlier.is_alive():
                return BudgetSpent(name, "not run: its earlier call is still running past its budget")
            running[name] = thread
    thread.start()
    thread.join(seconds)
    if thread.is_alive():
        return BudgetSpent(name, f"did not finish within {seconds:g}s")
    return failed[0] if failed else None


_RUNNING_LOCK = threading.Lock()


class _Background:
    """A bounded queue and one worker thread that score reports off the caller's path."""

    def __init__(self, size: int) -> None:
        self.queue: queue.Queue[Callable[[], None] | None] = queue.Queue(maxsize=size)
        self.thread = threading.Thread(target=self._work, name="faithguard-background", daemon=True)
        self.thread.start()

    def submit(self, job: Callable[[], None]) -> None:
        """Queue a job; blocks when the queue is full so that no report is lost."""
        self.queue.put(job)

    def _work(self) -> None:
        while True:
            job = self.queue.get()
            try:
                if job is None:
                    return
                job()
            except Exception:  # noqa: BLE001 - a job records its own failure; keep the worker alive
                pass
            finally:
                self.queue.task_done()

    def flush(self, timeout: float | None) -> bool:
        # queue.join() without a thread per call: wait on the queue's own all-tasks-done condition.
        with self.queue.all_tasks_done:
            return self.queue.all_tasks_done.wait_for(lambda: not self.queue.unfinished_tasks, timeout)

    def stop(self) -> None:
        self.flush(None)
        self.queue.put(None)
        self.thread.join(timeout=5)


def _shutdown(pool: IsolationPool, background: _Background | None, judge_pool: IsolationPool | None = None) -> None:
    if background is not None:
        background.stop()
    pool.shutdown()
    if judge_pool is not None:
        judge_pool.shutdown()


#: Guards alive now, drained when the interpreter starts to shut down.
_LIVE: weakref.WeakSet[Guard] = weakref.WeakSet()


def _drain_at_exit() -> None:
    """Finish each live guard's queued background reports when threading shuts down, before ``atexit`` handlers
    run: a library's own exit handler (numpy's BLAS, spaCy's) can tear down what a worker still computing a report
    is using, and the process died of SIGSEGV/SIGABRT when the reports were flushed after it (helper 87: 20 queued
    wrapped calls, then the script's end)."""
    for guard in list(_LIVE):
        guard._finalizer()


# threading's own exit hook (what concurrent.futures uses to join its workers): it runs before atexit handlers
with contextlib.suppress(AttributeError, RuntimeError):  # an interpreter without it, or one already shutting down
    threading._register_atexit(_drain_at_exit)  # type: ignore[attr-defined]


def _lasting(decomposition: Decomposition) -> bool:
    """Whether a decomposition may be cached (not read while the decomposer's resources were still loading)."""
    return not decomposition.provisional
