"""Failure policy as plain data: what to do when verdicts fire."""

from __future__ import annotations

from collections.abc import Iterable
from enum import StrEnum

from pydantic import BaseModel, ConfigDict, Field

from faithguard.models import Severity, Verdict

__all__ = ["Action", "Policy", "Rule"]


class Action(StrEnum):
    """observe: never change the result; annotate: attach the report; block: stop the call."""

    OBSERVE = "observe"
    ANNOTATE = "annotate"
    BLOCK = "block"

    @property
    def rank(self) -> int:
        """Strength: observe < annotate < block."""
        return ("observe", "annotate", "block").index(self.value)


class Rule(BaseModel):
    """Take ``action`` when a verdict of ``kind`` (``*`` for any) at ``min_severity`` or above fires."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: str = Field(default="*", description="Verdict kind, or '*' for every kind.")
    min_severity: Severity = Field(default=Severity.WARNING, description="Lowest severity that triggers.")
    action: Action = Field(description="What to do.")

    def matches(self, verdict: Verdict) -> bool:
        """Whether this rule applies to ``verdict``."""
        return (self.kind in ("*", verdict.kind)) and Severity(verdict.severity).rank >= self.min_severity.rank


class Policy(BaseModel):
    """Per-kind, per-severity actions; the strongest matching action wins."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    default: Action = Field(default=Action.OBSERVE, description="Action when verdicts fire but no rule matches.")
    rules: tuple[Rule, ...] = Field(default=(), description="Rules, any order: the strongest match wins.")
    fallback: str | None = Field(
        default=None,
        description="Returned instead of raising HallucinationBlocked when a call is blocked.",
    )
    clarify_missing_content: bool = Field(
        default=True,
        description="When blocked before the call for missing content, return the clarification request.",
    )

    def decide(self, verdicts: Iterable[Verdict]) -> Action:
        """The action for a set of verdicts."""
        # With no verdicts an annotate default still attaches the report; block never fires.
        best = Action.ANNOTATE if self.default is Action.ANNOTATE else Action.OBSERVE
        for verdict in verdicts:
            action = self.default
            for rule in self.rules:
                if rule.matches(verdict) and rule.action.rank > action.rank:
                    action = rule.action
            if action.rank > best.rank:
                best = action
        return best

    @property
    def can_block(self) -> bool:
        """Whether some verdict could make this policy block."""
        return self.default is Action.BLOCK or any(rule.action is Action.BLOCK for rule in self.rules)

    @classmethod
    def observe(cls) -> Policy:
        """Never change the result."""
        return cls()

    @classmethod
    def annotate(cls) -> Policy:
        """Attach the report to every result that has verdicts."""
        return cls(default=Action.ANNOTATE)

    @classmethod
    def block(
        cls,
        kinds: Iterable[str] = ("*",),
        *,
        min_severity: Severity | str = Severity.CRITICAL,
        fallback: str | None = None,
        otherwise: Action = Action.ANNOTATE,
    ) -> Policy:
        """Block on ``kinds`` (verdict kinds, ``"*"`` for every kind; a single string is one kind) at
        ``min_severity`` or above (default ``critical``); ``otherwise`` for the rest."""
        if isinstance(kinds, str):
            kinds = (kinds,)  # "omission", not the letters of it
        sev = Severity(min_severity)
        return cls(
            default=otherwise,
            rules=tuple(Rule(kind=k, min_severity=sev, action=Action.BLOCK) for k in kinds),
            fallback=fallback,
        )
