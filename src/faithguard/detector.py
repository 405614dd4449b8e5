"""The typed extension interfaces: detectors, decomposers, knowledge sources, judges.

Pluggy only discovers and registers these objects; the guard calls them
directly, in a deterministic order (``order`` then ``name``).
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol, runtime_checkable

from faithguard.models import Constraint, Decomposition, DetectorResult, JudgeState, Message, Status, Verdict

__all__ = [
    "ASKS_FOR_INPUT",
    "MISSING_INPUT",
    "CallContext",
    "Decomposer",
    "Detector",
    "Judge",
    "JudgeUse",
    "KnowledgeSource",
    "RegisteredVerifier",
    "Warmable",
    "guard_verifiers",
    "verifier_scope",
]

Stage = Literal["input", "output"]

#: A finding (``ctx.findings[ASKS_FOR_INPUT] is True``) an output detector publishes when the answer only asks the
#: user for input the request referred to but lacked, and delivers nothing else. Later output detectors read it: such
#: an answer omits nothing yet and is not about another topic. Publishers run before order 150.
ASKS_FOR_INPUT = "asks_for_input"

#: A finding (``ctx.findings[MISSING_INPUT]``, published at the input stage): a list of dicts, one per piece of content
#: the request refers to but lacks. Each has ``reference`` (the words naming it) and may have ``span``: ``[start, end]``
#: character offsets into the query of the whole phrase that names the material, its modifiers included ("these two
#: 1-star reviews", "clause 7 of my contract"). What that phrase says describes the missing material, not the answer:
#: no answer can be checked against it.
MISSING_INPUT = "missing_content"

#: The verifiers registered with the guard whose call is running in this context (see verifier_scope).
_GUARD_VERIFIERS: ContextVar[tuple[RegisteredVerifier, ...] | None] = ContextVar(
    "faithguard_guard_verifiers", default=None
)

_JUDGE_RANK: dict[str, int] = {"unused": 0, "ok": 1, "skipped": 2, "degraded": 3}


class JudgeUse:
    """What happened to the LLM judge during one call; detectors that call the judge record it here.

    The worst state wins (degraded > skipped > ok > unused), so one failed judge call is never hidden
    by a later success. Thread-safe: detectors may run in worker threads.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._state: JudgeState = "unused"
        self._reason: str | None = None

    def record(self, state: Literal["ok", "skipped", "degraded"], reason: str | None = None) -> None:
        """Record one use of the judge: ``ok``, ``skipped`` (sampling/budget, by design) or ``degraded``."""
        with self._lock:
            if _JUDGE_RANK[state] >= _JUDGE_RANK[self._state]:
                if state != self._state or self._reason is None:
                    self._reason = reason
                self._state = state

    @property
    def state(self) -> JudgeState:
        """unused | ok | skipped | degraded."""
        return self._state

    @property
    def reason(self) -> str | None:
        """Why the state is what it is (no request or response text)."""
        return self._reason


@dataclass
class CallContext:
    """Everything a detector may read about one guarded call.

    ``query`` is the user's request (the last user turn when ``messages`` were
    given); ``system`` holds the system instructions; ``history`` the earlier
    turns; ``documents`` the supplied documents; ``attachments`` the user's non-text parts (images, audio,
    files: supplied material faithguard does not read). ``findings`` accumulates what
    earlier detectors shared (input-stage findings are visible to the output
    stage). ``response``/``constraints``/``verdicts`` are set for the output stage.
    """

    query: str
    messages: list[Message] = field(default_factory=list)
    documents: list[str] = field(default_factory=list)
    system: str = ""
    history: list[Message] = field(default_factory=list)
    decomposition: Decomposition = field(default_factory=Decomposition)
    findings: dict[str, Any] = field(default_factory=dict)
    response: str | None = None
    constraints: list[Constraint] = field(default_factory=list)
    verdicts: list[Verdict] = field(default_factory=list)
    judge: Judge | None = None
    knowledge_sources: list[KnowledgeSource] = field(default_factory=list)
    judge_use: JudgeUse = field(default_factory=JudgeUse)
    attachments: int = 0

    @property
    def sources_text(self) -> str:
        """All supplied text except the request itself: system, history, documents."""
        parts = [self.system, *(m.content for m in self.history), *self.documents]
        return "\n\n".join(p for p in parts if p)


@runtime_checkable
class Detector(Protocol):
    """A check run at the input stage (before the call) or the output stage (after)."""

    name: str
    stage: Stage
    #: Lower runs first; ties break on name. Satisfaction ~100, judge ~200, verdicts ~300.
    order: int
    #: Seconds before the guard gives up on this detector (None: the guard's default).
    timeout: float | None

    def run(self, ctx: CallContext) -> DetectorResult:
        """Inspect the call and return verdicts, status updates and findings."""
        ...


@runtime_checkable
class Decomposer(Protocol):
    """Turns a request into sub-questions and intent constraints."""

    name: str

    def decompose(self, ctx: CallContext) -> Decomposition:
        """Decompose ``ctx.query`` (with ``ctx.history`` for follow-ups)."""
        ...


@runtime_checkable
class KnowledgeSource(Protocol):
    """Backs terms: True known, False unknown to this source, None cannot tell."""

    name: str

    def lookup(self, term: str, ctx: CallContext) -> bool | None:
        """Whether this source knows ``term``."""
        ...


@runtime_checkable
class Judge(Protocol):
    """An LLM judge: decides constraints the offline layer left unknown.

    ``name`` identifies it in reports (e.g. ``"judge:gpt-4o-mini"``); ``cache_key`` changes when its
    model or prompts change, so cached decompositions are not reused across judges.
    """

    @property
    def name(self) -> str:
        """The judge's name in reports."""
        ...

    @property
    def cache_key(self) -> str:
        """Identity for caches (model, prompt version)."""
        ...

    def decompose(self, ctx: CallContext) -> Decomposition:
        """Constraints of ``ctx.query`` as the judge reads them."""
        ...

    def satisfy(self, ctx: CallContext, constraints: list[Constraint]) -> dict[str, tuple[Status, str]]:
        """constraint id -> (status, reason) for ``constraints`` against ``ctx.response``."""
        ...


@runtime_checkable
class Warmable(Protocol):
    """A plugin object with models or indexes to load before the first call (``Guard.warmup``)."""

    def warmup(self) -> None:
        """Load what the first call would otherwise load inside its time budget."""
        ...


@runtime_checkable
class RegisteredVerifier(Protocol):
    """What ``register_verifiers`` takes: a deterministic check of one verifiable constraint type.

    The core only needs its unique ``id``; the package that runs verifiers defines the rest.
    """

    @property
    def id(self) -> str:
        """The constraint type's id (IFEval / IFBench ids where they apply)."""
        ...


def guard_verifiers() -> tuple[RegisteredVerifier, ...] | None:
    """The verifiers registered with the guard running the current call; None outside a guarded call.

    A package that runs verifiers reads this so that a verifier plugin given to one guard (through its
    plugin manager) is used by that guard's calls only, and a guard that blocks a verifier plugin
    does not run it.
    """
    return _GUARD_VERIFIERS.get()


@contextmanager
def verifier_scope(verifiers: tuple[RegisteredVerifier, ...] | None) -> Iterator[None]:
    """Make ``verifiers`` what :func:`guard_verifiers` returns in this context (None: no guard scope)."""
    token = _GUARD_VERIFIERS.set(verifiers)
    try:
        yield
    finally:
        _GUARD_VERIFIERS.reset(token)
