"""What integrations share: the core call lifecycle (re-exported) and compact report views.

Every integration builds on :class:`faithguard.lifecycle.GuardedCall`, so all of them produce the
same spans, metrics and events and read the policy's decision as data.
"""

from __future__ import annotations

from typing import Any

from faithguard.lifecycle import Decision, GuardedCall
from faithguard.models import InspectReport, Report
from faithguard.policy import Action

__all__ = ["DEFAULT_BLOCK_TEXT", "GuardedCall", "Outcome", "report_summary", "verdict_headers"]

#: Text returned for a blocked call when the policy has no fallback and the caller asked not to raise.
DEFAULT_BLOCK_TEXT = "I can't give a reliable answer to this request; please rephrase or add the missing details."

#: The integrations' name for the lifecycle's decision.
Outcome = Decision


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
            outcome=report.outcome,
            outcome_reasons=report.outcome_reasons,
            score=report.constraint_score,
            score_range=list(report.score_range) if report.score_range else None,
            coverage=report.coverage,
            perfect=report.perfect,
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
    """``x-faithguard-*`` response headers: outcome, score, band, verdict kinds, action."""
    score = report.constraint_score if isinstance(report, Report) else None
    band = report.band if isinstance(report, Report) else None
    kinds = sorted({v.kind for v in report.verdicts}) if report is not None else []
    outcome: str
    if isinstance(report, Report):
        outcome = report.outcome
    elif report is not None and any(v.alarming for v in report.verdicts):
        outcome = "undetermined"
    else:
        outcome = "unscored"
    return {
        "x-faithguard-outcome": outcome,
        "x-faithguard-score": f"{score:.2f}" if score is not None else "none",
        "x-faithguard-band": band or "unscored",
        "x-faithguard-verdicts": ",".join(kinds),
        "x-faithguard-action": str(action),
    }
