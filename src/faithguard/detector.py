"""The typed extension interfaces: detectors, decomposers, knowledge sources.

Pluggy only discovers and registers these objects; the guard calls them
directly, in a deterministic order (``order`` then ``name``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal, Protocol, runtime_checkable

from faithguard.models import Constraint, Decomposition, DetectorResult, Message, Verdict

__all__ = ["CallContext", "Decomposer", "Detector", "KnowledgeSource"]

Stage = Literal["input", "output"]


@dataclass
class CallContext:
    """Everything a detector may read about one guarded call.

    ``query`` is the user's request (the last user turn when ``messages`` were
    given); ``system`` holds the system instructions; ``history`` the earlier
    turns; ``documents`` the supplied documents. ``findings`` accumulates what
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
    judge: Any = None
    knowledge_sources: list[KnowledgeSource] = field(default_factory=list)

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
