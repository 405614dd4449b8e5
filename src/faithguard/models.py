"""Value objects of faithguard: constraints, verdicts, reports (pydantic v2)."""

from __future__ import annotations

from enum import StrEnum
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, computed_field

from faithguard import scoring

__all__ = [
    "Category",
    "Constraint",
    "Decomposition",
    "DetectorFailure",
    "DetectorResult",
    "InspectReport",
    "Message",
    "Report",
    "Severity",
    "Status",
    "SubQuestion",
    "TermFinding",
    "Tier",
    "Verdict",
    "VerdictKind",
]


class Category(StrEnum):
    """The seven constraint categories of FaithQA."""

    LOCATION = "location"
    TIME = "time"
    SUBJECT = "subject"
    ACTION = "action"
    QUALIFIER = "qualifier"
    QUANTITY = "quantity"
    OTHER = "other"


class Tier(StrEnum):
    """Constraint tiers; each carries a weight in the Constraint Score."""

    MANDATORY = "mandatory"
    IMPORTANT = "important"
    OPTIONAL = "optional"


class Status(StrEnum):
    """Whether a response satisfies a constraint. ``unknown`` is never a pass."""

    SATISFIED = "satisfied"
    VIOLATED = "violated"
    UNKNOWN = "unknown"


class Severity(StrEnum):
    """How bad a verdict is; policies key on it."""

    INFO = "info"
    WARNING = "warning"
    CRITICAL = "critical"

    @property
    def rank(self) -> int:
        """0 for info, 1 for warning, 2 for critical."""
        return ("info", "warning", "critical").index(self.value)


class VerdictKind(StrEnum):
    """Built-in verdict kinds; plugins may emit other strings."""

    OMISSION = "omission"
    MISINTERPRETATION = "misinterpretation"
    FABRICATED_TERM = "fabricated_term"
    MISSING_CONTENT = "missing_content"
    UNKNOWN_TERM = "unknown_term"


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", validate_assignment=True)


class Message(_Model):
    """One chat message, OpenAI style."""

    role: str = Field(description="system, user, assistant, tool...")
    content: str = Field(default="", description="Text content (parts joined).")


class Constraint(_Model):
    """One intent constraint of a query."""

    id: str = Field(description="Stable id within a report, e.g. 'c3'.")
    text: str = Field(description="The constraint as found in the query.")
    category: Category
    tier: Tier
    verifier: str | None = Field(default=None, description="Deterministic verifier id (IFEval ids where they apply).")
    params: dict[str, Any] = Field(default_factory=dict, description="Verifier parameters (IFEval kwargs names).")
    negated: bool = Field(default=False, description="An exclusion: the response must NOT do/name this.")
    subquestion: int = Field(default=0, ge=0, description="Index of the sub-question this belongs to.")
    status: Status = Status.UNKNOWN
    reason: str | None = Field(default=None, description="Short evidence for the status.")
    decided_by: str | None = Field(
        default=None, description="Who set the status: 'verifier', 'offline', 'judge:<model>' or a detector name."
    )


class SubQuestion(_Model):
    """One part of a multi-part query, in order."""

    index: int = Field(ge=0)
    text: str
    position: float = Field(ge=0.0, le=1.0, description="Relative position in the query: 0 first, 1 last.")


class Decomposition(_Model):
    """What a decomposer made of a request."""

    subquestions: list[SubQuestion] = Field(default_factory=list)
    constraints: list[Constraint] = Field(default_factory=list)
    task: str | None = Field(default=None, description="Lemma of the main action (compare, list, summarize...).")
    decomposer: str = Field(default="", description="Name of the decomposer that produced it.")


class Verdict(_Model):
    """One finding a detector reports."""

    kind: str = Field(description="omission, misinterpretation, fabricated_term, missing_content, unknown_term, ...")
    severity: Severity
    constraint_ids: list[str] = Field(default_factory=list)
    term: str | None = None
    explanation: str = ""
    detector: str = ""


class TermFinding(_Model):
    """What the term checks found about one candidate term."""

    term: str
    known: bool | None = Field(description="True backed, False no source backs it, None could not decide.")
    sources_tried: list[str] = Field(default_factory=list)
    backed_by: list[str] = Field(default_factory=list)
    acceptance: Literal["UNREAL", "UNKNOWN", "MENTIONED", "ABSENT"] | None = None


class DetectorFailure(_Model):
    """A detector that raised or timed out, isolated from the call."""

    detector: str
    stage: Literal["decompose", "input", "output", "observe"]
    error_type: str
    message: str


class DetectorResult(_Model):
    """What one detector returns: verdicts, constraint status updates, shared findings."""

    verdicts: list[Verdict] = Field(default_factory=list)
    updates: dict[str, tuple[Status, str | None]] = Field(
        default_factory=dict, description="constraint id -> (status, reason)"
    )
    findings: dict[str, Any] = Field(default_factory=dict, description="Data later stages may read.")
    terms: list[TermFinding] = Field(default_factory=list)


class InspectReport(_Model):
    """Input checks, before the LLM call."""

    query: str
    decomposition: Decomposition
    verdicts: list[Verdict] = Field(default_factory=list)
    terms: list[TermFinding] = Field(default_factory=list)
    findings: dict[str, Any] = Field(default_factory=dict)
    errors: list[DetectorFailure] = Field(default_factory=list)
    clarification: str | None = Field(
        default=None, description="A request for missing input, usable as a fallback answer."
    )

    @property
    def constraints(self) -> list[Constraint]:
        """The decomposed constraints (not yet judged)."""
        return self.decomposition.constraints


class Report(_Model):
    """The full result of guarding one call."""

    query: str
    response: str
    constraints: list[Constraint] = Field(default_factory=list)
    subquestions: list[SubQuestion] = Field(default_factory=list)
    verdicts: list[Verdict] = Field(default_factory=list)
    terms: list[TermFinding] = Field(default_factory=list)
    answer_label: Literal["valid", "hallucination", "irrelevant"] | None = Field(
        default=None, description="HypoTermQA answer-level label when the query holds candidate terms."
    )
    errors: list[DetectorFailure] = Field(default_factory=list)
    judge: str = Field(default="off", description="off | ok | degraded (fell back to offline) | skipped (not sampled)")
    judge_reason: str | None = None
    weights: dict[str, float] = Field(default_factory=lambda: dict(scoring.DEFAULT_WEIGHTS))
    findings: dict[str, Any] = Field(default_factory=dict)
    duration_ms: float = 0.0

    @computed_field  # type: ignore[prop-decorator]
    @property
    def constraint_score(self) -> float | None:
        """Constraint Score in [0, 10] over judged constraints; None when none was judged."""
        return scoring.constraint_score(self.constraints, self.weights)

    @computed_field  # type: ignore[prop-decorator]
    @property
    def judged(self) -> int:
        """Constraints with a satisfied/violated status."""
        return sum(1 for c in self.constraints if c.status is not Status.UNKNOWN)

    @computed_field  # type: ignore[prop-decorator]
    @property
    def total(self) -> int:
        """All constraints, judged or not."""
        return len(self.constraints)

    @computed_field  # type: ignore[prop-decorator]
    @property
    def perfect(self) -> bool:
        """Every judged constraint satisfied, at least one judged, and no verdict fired."""
        return self.judged > 0 and all(c.status is not Status.VIOLATED for c in self.constraints) and not self.verdicts

    @computed_field  # type: ignore[prop-decorator]
    @property
    def band(self) -> Literal["aligned", "partial", "hallucinated"] | None:
        """aligned (>= 9), partial (7 <= s < 9), hallucinated (< 7); None when unscored."""
        return scoring.band(self.constraint_score)
