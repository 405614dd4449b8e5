"""What a detector's result must be before the run merges it: of the right shapes and kinds (a result built without
validation, ``model_construct``, broke the check), and of a bounded number of verdicts."""

from __future__ import annotations

from faithguard.models import DetectorResult, Severity, Status, TermFinding, Verdict

__all__ = ["MAX_VERDICTS_PER_DETECTOR", "result_problem"]

#: Verdicts one detector's result may add to a report; the rest are dropped and the report says so (undetermined).
#: Provenance: no built-in detector gives more than a few dozen on the dev traffic (831 calls).
MAX_VERDICTS_PER_DETECTOR = 1000


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
        for update in result.updates.values():
            status, _reason = update
            Status(status)
    except (ValueError, TypeError, AttributeError):
        return "run() returned a verdict severity or a constraint status faithguard does not know"
    return None
