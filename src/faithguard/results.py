"""What a detector's result must be before the run merges it: of the right shapes and kinds (a result built without
validation, ``model_construct``, broke the check), and of a bounded number of verdicts."""

from __future__ import annotations

from typing import get_args

from faithguard.models import DetectorResult, Severity, Status, TermFinding, Verdict

__all__ = ["MAX_VERDICTS_PER_DETECTOR", "VERDICTS_CAPPED", "result_problem"]

#: The answer labels a report holds (``models.Report.answer_label``), and none.
_ANSWER_LABELS = frozenset(
    {
        label
        for arg in get_args(DetectorResult.model_fields["answer_label"].annotation)
        for label in (get_args(arg) or (None,))
    }
)

#: Verdicts one detector's result may add to a report; the rest are dropped and the report says so (undetermined).
#: Provenance: no built-in detector gives more than a few dozen on the dev traffic (831 calls).
MAX_VERDICTS_PER_DETECTOR = 1000
#: The reason code a report gives when a result had more (telemetry keeps it with content capture off).
VERDICTS_CAPPED = "verdicts_capped"


def result_problem(result: DetectorResult) -> str | None:
    """What makes a detector's result unusable (None: nothing). Results built without validation
    (``model_construct``) can hold a severity or a status no one can read; merging them broke the check."""
    try:
        shapes = (
            (result.verdicts, list),
            (result.updates, dict),
            (result.findings, dict),
            (result.terms, list),
            (result.deciders, dict),
        )
        if not all(isinstance(value, kind) for value, kind in shapes):
            return "run() returned a result whose verdicts, updates, findings or terms are of the wrong type"
        if not all(isinstance(t, TermFinding) for t in result.terms):
            return "run() returned a term finding that is not a TermFinding"
        for verdict in result.verdicts:
            if not isinstance(verdict, Verdict) or not isinstance(verdict.kind, str) or not verdict.kind:
                return "run() returned a verdict without a kind"
            Severity(verdict.severity)
            texts = (verdict.detector, verdict.explanation, verdict.stage)
            ids = verdict.constraint_ids
            if not all(isinstance(t, str) for t in texts) or not isinstance(verdict.term, str | None):
                return "run() returned a verdict whose detector, explanation, stage or term is not text"
            if not isinstance(ids, list) or not all(isinstance(i, str) for i in ids):
                return "run() returned a verdict whose constraint ids are not a list of text"
        for update in result.updates.values():
            status, reason = update
            Status(status)
            if not isinstance(reason, str | None):
                return "run() returned an update whose reason is not text"
        if not all(isinstance(v, str) for v in result.deciders.values()):
            return "run() returned a decider that is not a name"
        if result.answer_label not in _ANSWER_LABELS:
            return "run() returned an answer label faithguard does not know"
        if not isinstance(result.undetermined, str | None) or not isinstance(result.clarification, str | None):
            return "run() returned an undetermined reason or clarification that is not text"
    except (ValueError, TypeError, AttributeError):
        return "run() returned a verdict severity or a constraint status faithguard does not know"
    return None
