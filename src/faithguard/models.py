"""Value objects of faithguard: constraints, verdicts, reports (pydantic v2)."""

from __future__ import annotations

from enum import StrEnum
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, computed_field, model_validator

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
    tentative: bool = Field(
        default=False,
        description=(
            "Read from a question about its form ('Is it rude to type in all caps?'): it may not be asked. An "
            "answer that takes the form satisfies it; one that does not leaves it unknown, never an omission."
        ),
    )
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
    undetermined: str | None = Field(
        default=None,
        description="Why the decomposer could not read this request (e.g. not English); the outcome is undetermined.",
    )
    provisional: bool = Field(
        default=False,
        description="Read before the decomposer's resources finished loading: valid for this call, not cached.",
    )


class Verdict(_Model):
    """One finding a detector reports."""

    kind: str = Field(description="omission, misinterpretation, fabricated_term, missing_content, unknown_term, ...")
    severity: Severity
    constraint_ids: list[str] = Field(default_factory=list)
    term: str | None = None
    explanation: str = ""
    detector: str = ""
    stage: Literal["input", "output", ""] = Field(default="", description="Stage that produced it (set by the guard).")

    @property
    def alarming(self) -> bool:
        """Warning or critical: such a verdict never sits beside an ``ok`` outcome."""
        return Severity(self.severity).rank >= Severity.WARNING.rank


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
    deciders: dict[str, str] = Field(
        default_factory=dict, description="constraint id -> who decided it (default: the detector's name)."
    )
    undetermined: str | None = Field(
        default=None, description="Why this detector could not judge the call; makes the outcome undetermined."
    )
    clarification: str | None = Field(
        default=None, description="A request for missing input, usable as a fallback answer (input stage)."
    )
    answer_label: Literal["valid", "hallucination", "irrelevant"] | None = Field(
        default=None, description="HypoTermQA answer-level label (output stage)."
    )


class InspectReport(_Model):
    """Input checks, before the LLM call."""

    query: str
    decomposition: Decomposition
    verdicts: list[Verdict] = Field(default_factory=list)
    terms: list[TermFinding] = Field(default_factory=list)
    findings: dict[str, Any] = Field(default_factory=dict)
    errors: list[DetectorFailure] = Field(default_factory=list)
    skipped: dict[str, str] = Field(
        default_factory=dict, description="Input checks skipped by design (sampling, budget, size limit) -> why."
    )
    undetermined: list[str] = Field(
        default_factory=list,
        description="Why input checks could not judge the request (unread input, a decomposer that could not read "
        "it): no verdict here then means unchecked, not clean.",
    )
    clarification: str | None = Field(
        default=None, description="A request for missing input, usable as a fallback answer."
    )

    @property
    def constraints(self) -> list[Constraint]:
        """The decomposed constraints (not yet judged)."""
        return self.decomposition.constraints

    @property
    def checked(self) -> bool:
        """Whether every input check judged the request: none failed, none declined it, the decomposer read it."""
        return not self.errors and not self.undetermined


JudgeState = Literal["off", "ok", "unused", "skipped", "degraded"]


class Report(_Model):
    """The full result of guarding one call.

    ``constraint_score`` is FaithQA's score over the judged constraints; ``score_range`` and
    ``coverage`` say how much of it was checked; ``band`` and ``outcome`` are read from the range
    and the verdicts, so nothing reads "aligned" or "ok" that was not checked.
    """

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
    skipped: dict[str, str] = Field(
        default_factory=dict, description="Detectors skipped by design (sampling, budget, size limit) -> why."
    )
    undetermined: list[str] = Field(
        default_factory=list, description="Why parts of the call could not be judged (failed stages, unread input)."
    )
    judge: JudgeState = Field(
        default="off",
        description="off | ok | unused (configured, nothing asked) | skipped (sampling/budget) | degraded (failed)",
    )
    judge_reason: str | None = None
    model: str | None = Field(default=None, description="The model that produced the response, when known.")
    weights: dict[str, float] = Field(default_factory=lambda: dict(scoring.DEFAULT_WEIGHTS))
    findings: dict[str, Any] = Field(default_factory=dict)
    duration_ms: float = 0.0

    @model_validator(mode="before")
    @classmethod
    def _derived_fields_are_recomputed(cls, data: Any) -> Any:
        """A dumped report validates again: derived fields (score, band, outcome...) are recomputed."""
        if isinstance(data, dict):
            return {k: v for k, v in data.items() if k not in cls.model_computed_fields}
        return data

    @computed_field  # type: ignore[prop-decorator]
    @property
    def constraint_score(self) -> float | None:
        """Constraint Score in [0, 10] over judged constraints; None when none was judged."""
        return scoring.constraint_score(self.constraints, self.weights)

    @computed_field  # type: ignore[prop-decorator]
    @property
    def score_range(self) -> tuple[float, float] | None:
        """(lower, upper): the score with unknown constraints counted unsatisfied / satisfied."""
        return scoring.score_range(self.constraints, self.weights)

    @computed_field  # type: ignore[prop-decorator]
    @property
    def coverage(self) -> float | None:
        """Judged weight / total weight (1.0: every constraint decided); None without constraints."""
        return scoring.coverage(self.constraints, self.weights)

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
        """FaithQA's Perfect: every constraint judged and satisfied, no output-stage verdict, and every check ran
        (a failed or timed-out check, or a stage that could not judge the call, may have missed what would have made
        it imperfect)."""
        return (
            bool(self.constraints)
            and all(c.status is Status.SATISFIED for c in self.constraints)
            and not any(v.stage == "output" for v in self.verdicts)
            and not self._failed_checks()
            and not self.undetermined
        )

    @computed_field  # type: ignore[prop-decorator]
    @property
    def band(self) -> scoring.Band:
        """From the range: aligned (lower >= 9), hallucinated (upper < 7), partial (both in [7, 9)), else
        undetermined; never aligned beside a warning or critical verdict, or when a check failed or timed out."""
        band = scoring.band_of_range(self.score_range)
        if band == "aligned" and (any(v.alarming for v in self.verdicts) or self._failed_checks()):
            return "undetermined"
        return band

    @computed_field  # type: ignore[prop-decorator]
    @property
    def outcome(self) -> scoring.OutcomeLabel:
        """ok | hallucination | undetermined: what dashboards, headers and exit codes read."""
        return self._outcome()[0]

    @computed_field  # type: ignore[prop-decorator]
    @property
    def outcome_reasons(self) -> list[str]:
        """Why the outcome is not ``ok`` (empty when it is)."""
        return self._outcome()[1]

    def _failed_checks(self) -> list[str]:
        """The checks that failed or timed out (an observer's failure after the report does not count)."""
        return [f"{e.detector} ({e.stage}) failed: {e.error_type}" for e in self.errors if e.stage != "observe"]

    def _outcome(self) -> tuple[scoring.OutcomeLabel, list[str]]:
        alarms = [(v.stage or "output", f"{v.kind} ({v.severity})") for v in self.verdicts if v.alarming]
        undetermined = list(self.undetermined)
        undetermined += self._failed_checks()
        if not self.constraints:
            undetermined.append("no constraints were found in the request")
        return scoring.outcome_of(scoring.band_of_range(self.score_range), alarms, undetermined)
