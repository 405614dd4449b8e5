"""Fakes shipped with faithguard for tests (yours and ours): no mock.patch needed."""

from __future__ import annotations

import threading
import time
from collections.abc import AsyncIterator, Iterator, Sequence
from dataclasses import dataclass, field

from faithguard.detector import CallContext
from faithguard.models import Constraint, Decomposition, DetectorResult, Status, SubQuestion, Verdict

__all__ = [
    "CooperativeDetector",
    "FailingDetector",
    "HungDetector",
    "KeywordDetector",
    "RestoringDetector",
    "ScriptedLLM",
    "SkippingDetector",
    "SlowDetector",
    "SlowLoadingDecomposer",
    "SpinningDetector",
    "StaticDecomposer",
    "StaticDetector",
]


@dataclass
class StaticDecomposer:
    """Returns the same constraints for every query."""

    constraints: Sequence[Constraint]
    name: str = "static"
    task: str | None = None
    calls: int = 0

    def decompose(self, ctx: CallContext) -> Decomposition:
        """The configured constraints, as a one-part decomposition."""
        self.calls += 1
        return Decomposition(
            subquestions=[SubQuestion(index=0, text=ctx.query, position=0.0)],
            constraints=[c.model_copy(deep=True) for c in self.constraints],
            task=self.task,
            decomposer=self.name,
        )


@dataclass
class KeywordDetector:
    """Satisfied when a constraint's text occurs in the response, violated when it does not."""

    name: str = "keywords"
    stage: str = "output"
    order: int = 100
    timeout: float | None = None

    def run(self, ctx: CallContext) -> DetectorResult:
        """Case-insensitive substring check of every constraint text."""
        response = (ctx.response or "").lower()
        updates: dict[str, tuple[Status, str | None]] = {}
        for c in ctx.constraints:
            found = c.text.lower() in response
            hit = found != c.negated
            updates[c.id] = (
                Status.SATISFIED if hit else Status.VIOLATED,
                f"'{c.text}' {'found' if found else 'absent'}",
            )
        return DetectorResult(updates=updates)


@dataclass
class StaticDetector:
    """Emits the configured verdicts and findings on every call."""

    verdicts: Sequence[Verdict] = ()
    findings: dict[str, object] = field(default_factory=dict)
    name: str = "static"
    stage: str = "input"
    order: int = 50
    timeout: float | None = None
    clarification: str | None = None

    def run(self, ctx: CallContext) -> DetectorResult:
        """The configured result."""
        return DetectorResult(
            verdicts=list(self.verdicts), findings=dict(self.findings), clarification=self.clarification
        )


@dataclass
class FailingDetector:
    """Raises on every run."""

    error: Exception = field(default_factory=lambda: RuntimeError("detector exploded"))
    name: str = "failing"
    stage: str = "output"
    order: int = 150
    timeout: float | None = None

    def run(self, ctx: CallContext) -> DetectorResult:
        """Raise the configured error."""
        raise self.error


@dataclass
class SlowDetector:
    """Sleeps past its time budget."""

    seconds: float = 1.0
    name: str = "slow"
    stage: str = "output"
    order: int = 150
    timeout: float | None = 0.05

    def run(self, ctx: CallContext) -> DetectorResult:
        """Sleep, then return nothing."""
        time.sleep(self.seconds)
        return DetectorResult()


@dataclass
class HungDetector:
    """Ignores its budget: blocks until :meth:`release` (a plugin stuck in a C call or a lock)."""

    name: str = "hung"
    stage: str = "output"
    order: int = 150
    timeout: float | None = 0.2
    started: int = 0
    _gate: threading.Event = field(default_factory=threading.Event)

    def run(self, ctx: CallContext) -> DetectorResult:
        """Block until released (never checks its budget)."""
        self.started += 1
        self._gate.wait()
        return DetectorResult()

    def release(self) -> None:
        """Let every blocked run return."""
        self._gate.set()


@dataclass
class SpinningDetector:
    """Ignores its budget in a pure-Python loop (no checkpoint, no C call); records when the loop ended."""

    name: str = "spinning"
    stage: str = "output"
    order: int = 150
    timeout: float | None = 0.2
    stopped: threading.Event = field(default_factory=threading.Event)

    def run(self, ctx: CallContext) -> DetectorResult:
        """Spin until interrupted, swallowing ordinary exceptions as a careless plugin would."""
        try:
            while True:
                try:
                    sum(range(1000))
                except Exception:  # noqa: BLE001 - the careless plugin this fake stands for
                    continue
        finally:
            self.stopped.set()


@dataclass
class CooperativeDetector:
    """A long loop that calls :func:`faithguard.checkpoint`; records whether it stopped at its budget."""

    name: str = "cooperative"
    stage: str = "output"
    order: int = 150
    timeout: float | None = 0.1
    stopped: threading.Event = field(default_factory=threading.Event)

    def run(self, ctx: CallContext) -> DetectorResult:
        """Spin (up to 30 s) until a checkpoint raises."""
        from faithguard.runner import checkpoint

        deadline = time.monotonic() + 30.0
        try:
            while time.monotonic() < deadline:
                checkpoint()
                time.sleep(0.005)
        except BaseException:  # BudgetSpent at a checkpoint, or the guard's interrupt before the next one
            self.stopped.set()
            raise
        return DetectorResult()


@dataclass
class RestoringDetector:
    """Shared code's state change and its restore, in one section (the "finally restores global state" case).

    ``run`` sets ``state["value"]`` to "changed", then, in a ``finally``, spins in pure Python (no
    checkpoint) until :meth:`release` and restores "original": the spin stands for slow cleanup an
    interrupt could cut short. With ``shield`` the section runs under
    :func:`faithguard.interrupts.shielded`; ``entered`` is set once the state is changed;
    ``after_section`` is set if the run went on past the section (an interrupt held by the shield
    stops it there); ``stopped`` when the run ended, by any means.
    """

    name: str = "restoring"
    stage: str = "output"
    order: int = 150
    timeout: float | None = 0.05
    shield: bool = True
    state: dict[str, str] = field(default_factory=lambda: {"value": "original"})
    entered: threading.Event = field(default_factory=threading.Event)
    after_section: threading.Event = field(default_factory=threading.Event)
    stopped: threading.Event = field(default_factory=threading.Event)
    _gate: threading.Event = field(default_factory=threading.Event)

    def run(self, ctx: CallContext) -> DetectorResult:
        """Change the state, then restore it in a ``finally`` that spins until released; then return."""
        import contextlib

        from faithguard.interrupts import shielded

        try:
            with shielded() if self.shield else contextlib.nullcontext():
                self.state["value"] = "changed"
                try:
                    self.entered.set()
                finally:  # slow cleanup (pure Python, no checkpoint): where an interrupt could cut it
                    while not self._gate.is_set():
                        pass
                    self.state["value"] = "original"
            self.after_section.set()
            return DetectorResult()
        finally:
            self.stopped.set()

    def release(self) -> None:
        """Let the spinning section finish."""
        self._gate.set()


@dataclass
class SkippingDetector:
    """Skips every call by design (like a judge that samples)."""

    reason: str = "not sampled (sample_rate=0)"
    name: str = "skipping"
    stage: str = "output"
    order: int = 150
    timeout: float | None = None

    def run(self, ctx: CallContext) -> DetectorResult:
        """Raise :class:`faithguard.Skipped`."""
        from faithguard.errors import Skipped

        raise Skipped(self.reason)


@dataclass
class SlowLoadingDecomposer(StaticDecomposer):
    """A decomposer whose model takes ``load_seconds`` to load on first use (or at :meth:`warmup`)."""

    load_seconds: float = 1.0
    loaded: bool = False

    def warmup(self) -> None:
        """Load the (simulated) model."""
        if not self.loaded:
            time.sleep(self.load_seconds)
            self.loaded = True

    def decompose(self, ctx: CallContext) -> Decomposition:
        """Load if needed, then decompose."""
        self.warmup()
        return super().decompose(ctx)


@dataclass
class ScriptedLLM:
    """A fake LLM function: returns scripted replies in order (cycling), as text, completion or stream."""

    replies: Sequence[str]
    shape: str = "text"  # text | completion | stream
    model: str = "scripted-1"
    prompts: list[object] = field(default_factory=list)

    def _next(self) -> str:
        reply = self.replies[len(self.prompts) % len(self.replies)]
        return reply

    def __call__(self, prompt: object = None, **kwargs: object) -> object:
        """Answer one call."""
        reply = self._next()
        self.prompts.append(prompt if prompt is not None else kwargs.get("messages"))
        if self.shape == "completion":
            return _completion(reply, self.model)
        if self.shape == "stream":
            return _chunks(reply, self.model)
        return reply

    async def acall(self, prompt: object = None, **kwargs: object) -> object:
        """Async twin of ``__call__``; streams come back as async iterators."""
        reply = self._next()
        self.prompts.append(prompt if prompt is not None else kwargs.get("messages"))
        if self.shape == "completion":
            return _completion(reply, self.model)
        if self.shape == "stream":
            return _achunks(reply, self.model)
        return reply


def _completion(text: str, model: str) -> dict[str, object]:
    return {
        "id": "chatcmpl-scripted",
        "object": "chat.completion",
        "model": model,
        "choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 10, "completion_tokens": len(text.split()), "total_tokens": 10 + len(text.split())},
    }


def _chunk(piece: str, model: str) -> dict[str, object]:
    return {"id": "chatcmpl-scripted", "model": model, "choices": [{"index": 0, "delta": {"content": piece}}]}


def _chunks(text: str, model: str) -> Iterator[dict[str, object]]:
    for word in text.split(" "):
        yield _chunk(word + " ", model)


async def _achunks(text: str, model: str) -> AsyncIterator[dict[str, object]]:
    for word in text.split(" "):
        yield _chunk(word + " ", model)
