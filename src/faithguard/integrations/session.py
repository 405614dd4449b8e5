"""One guarded call seen from an integration: input stage, chat span, output stage, policy outcome.

A thin layer over the guard's own call machinery (the one ``guard.wrap`` uses), so that
every integration produces the same spans, metrics and events, and reads the policy's
decision as data (:class:`Outcome`) instead of having to catch exceptions.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from faithguard.errors import HallucinationBlocked
from faithguard.models import InspectReport, Report
from faithguard.policy import Action, Policy
from faithguard.wrapping import AnnotatedText, _Call

if TYPE_CHECKING:
    from faithguard.guard import Guard

__all__ = ["DEFAULT_BLOCK_TEXT", "GuardedCall", "Outcome", "report_summary", "verdict_headers"]

#: Text returned for a blocked call when the policy has no fallback and the caller asked not to raise.
DEFAULT_BLOCK_TEXT = "I can't give a reliable answer to this request; please rephrase or add the missing details."


@dataclass
class Outcome:
    """What the policy made of one stage: the action, the report, and a replacement text when blocked."""

    action: Action
    report: Report | InspectReport | None
    #: Clarification or fallback text to return instead of the model's answer (blocked calls only).
    text: str | None = None
    #: Stage that blocked: "input" (before the LLM call) or "output".
    stage: str = "output"

    @property
    def blocked(self) -> bool:
        """Whether the policy blocked the call."""
        return self.action is Action.BLOCK

    def error(self) -> HallucinationBlocked:
        """The exception to raise for a blocked call."""
        assert self.report is not None
        return HallucinationBlocked(self.report)


class GuardedCall:
    """Input checks before, scoring after, for one LLM call made by an integration."""

    def __init__(
        self,
        guard: Guard,
        policy: Policy | None = None,
        *,
        query: str | None = None,
        messages: Sequence[Any] | None = None,
        documents: Sequence[Any] | None = None,
        model: str | None = None,
        provider: str | None = None,
    ) -> None:
        self.guard = guard
        self.policy = policy or guard.policy
        if self.policy.decide([]) is Action.BLOCK:
            raise ValueError("a policy cannot block calls that have no verdicts")
        self.report: Report | None = None
        kwargs: dict[str, Any] = {"messages": list(messages) if messages is not None else None}
        if query is not None:
            kwargs["query"] = query
        if documents is not None:
            kwargs["documents"] = list(documents)
        if model is not None:
            kwargs["model"] = model
        self._call = _Call(guard, self.policy, self._keep, model, provider, (), kwargs)

    @property
    def guarded(self) -> bool:
        """False when the input had nothing to guard (no query): the call proceeds untouched."""
        return self._call.run is not None

    def add_documents(self, documents: Sequence[Any]) -> None:
        """Documents found during the call (e.g. by a retriever), seen by the output stage."""
        from faithguard import calls

        if self._call.run is not None:
            self._call.run.ctx.documents.extend(calls.normalize("x", documents).documents)

    def before(self) -> Outcome | None:
        """Run the input stage; an :class:`Outcome` when the policy blocks before the call, else None."""
        try:
            blocked = self._call.before()
        except HallucinationBlocked as exc:
            return Outcome(Action.BLOCK, exc.report, None, "input")
        if isinstance(blocked, AnnotatedText):
            return Outcome(Action.BLOCK, blocked.report, str(blocked), "input")
        return None

    def chat_span(self) -> Any:
        """Context manager: the ``chat {model}`` client span around the LLM call."""
        return self._call.chat_span()

    def record_output(self, span: Any, output: Any) -> None:
        """Usage and response id of the LLM result on the chat span."""
        self._call.record_output(span, output)

    def fail(self, exc: BaseException) -> None:
        """The LLM call failed: close the guard span with the error."""
        self._call.fail(exc)

    def after(self, text: str | None) -> Outcome:
        """Run the output stage on ``text`` and return the policy's decision (never raises for a block)."""
        try:
            # The integration attaches the report itself, so the output is not handed to the core.
            result = self._call.after(None, text)
        except HallucinationBlocked as exc:
            return Outcome(Action.BLOCK, exc.report, None)
        if self.report is None:  # nothing to guard, or scored in the background
            return Outcome(Action.OBSERVE, None)
        action = self.policy.decide(self.report.verdicts)
        if action is Action.BLOCK:
            return Outcome(action, self.report, str(result) if isinstance(result, AnnotatedText) else None)
        return Outcome(action, self.report)

    def _keep(self, report: Report) -> None:
        self.report = report


def report_summary(report: Report | InspectReport | None, action: Action | None = None) -> dict[str, Any]:
    """A compact, JSON-ready view of a report for response metadata and API bodies."""
    if report is None:
        return {"scored": False}
    verdicts = [
        {
            "kind": v.kind,
            "severity": str(v.severity),
            "constraint_ids": list(v.constraint_ids),
            "term": v.term,
            "detector": v.detector,
            "explanation": v.explanation,
        }
        for v in report.verdicts
    ]
    out: dict[str, Any] = {"scored": isinstance(report, Report), "verdicts": verdicts}
    if isinstance(report, Report):
        out.update(
            score=report.constraint_score,
            band=report.band,
            judged=report.judged,
            total=report.total,
            judge=report.judge,
            constraints=[
                {"id": c.id, "text": c.text, "category": str(c.category), "tier": str(c.tier), "status": str(c.status)}
                for c in report.constraints
            ],
        )
    else:
        out["clarification"] = report.clarification
    if action is not None:
        out["action"] = str(action)
    out["errors"] = len(report.errors)
    return out


def verdict_headers(report: Report | InspectReport | None, action: Action) -> dict[str, str]:
    """``x-faithguard-*`` response headers: score, band, verdict kinds, action."""
    score = report.constraint_score if isinstance(report, Report) else None
    band = report.band if isinstance(report, Report) else None
    kinds = sorted({v.kind for v in report.verdicts}) if report is not None else []
    return {
        "x-faithguard-score": f"{score:.2f}" if score is not None else "none",
        "x-faithguard-band": band or "unscored",
        "x-faithguard-verdicts": ",".join(kinds),
        "x-faithguard-action": str(action),
    }
