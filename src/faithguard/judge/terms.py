"""The judge's term labels and the injection guard on its verdicts: judge core, used by any detector.

A detector that wants the configured judge's HypoTermQA acceptance label for a term (the built-in
term checks, or a third-party one) calls :func:`judge_term_labels`; no plugin imports another.
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

from faithguard.detector import CallContext
from faithguard.judge.judge import JudgeSkipped
from faithguard.judge.prompts import looks_like_injection

__all__ = ["ACCEPTANCE_LABELS", "judge_name", "judge_term_labels", "untrusted"]

#: HypoTermQA acceptance labels a judge may give a term (faithguard.judge.schemas.TermItem).
ACCEPTANCE_LABELS = frozenset({"UNREAL", "UNKNOWN", "MENTIONED", "ABSENT"})


@runtime_checkable
class _TermJudge(Protocol):
    def classify_terms(self, ctx: CallContext, terms: list[str]) -> Any:
        """term -> acceptance label."""
        ...


def untrusted(ctx: CallContext) -> bool:
    """Whether the response or documents look like a prompt injection (this check's flag or the pattern scan).

    A judge's clearing verdicts on such a call are not trusted alone (issue 16): a compromised judge
    must not turn an offline failure into a pass.
    """
    if ctx.findings.get("prompt_injection"):
        return True
    return any(looks_like_injection(text) for text in (ctx.response or "", *ctx.documents))


def judge_term_labels(ctx: CallContext, terms: list[str]) -> dict[str, str]:
    """The judge's acceptance label per term for this check, recorded in ``ctx.judge_use``; never raises.

    {} when no judge is configured, it cannot answer (degraded), or the request is over its call cap
    or sample (skipped): the caller's offline labels stand. On an untrusted response only
    ``MENTIONED`` labels are kept (the one label that raises a fabricated-term verdict): the judge
    cannot clear a term alone, and the use is recorded as degraded.
    """
    judge = ctx.judge
    if judge is None or not terms or not isinstance(judge, _TermJudge):
        return {}
    name = judge_name(judge)
    try:
        raw = judge.classify_terms(ctx, terms)
    except JudgeSkipped as exc:
        ctx.judge_use.record("skipped", f"{name} terms: {exc}"[:300])
        return {}
    except Exception as exc:  # noqa: BLE001 - the offline classifier takes over
        ctx.judge_use.record("degraded", f"{name} terms: {type(exc).__name__}")
        return {}
    if not isinstance(raw, dict):
        ctx.judge_use.record("degraded", f"{name} terms: unusable answer ({type(raw).__name__})")
        return {}
    labels = {t: str(raw[t]).upper() for t in terms if isinstance(raw.get(t), str)}
    labels = {t: v for t, v in labels.items() if v in ACCEPTANCE_LABELS}
    if untrusted(ctx):
        kept = {t: v for t, v in labels.items() if v == "MENTIONED"}
        ctx.judge_use.record(
            "degraded",
            f"prompt injection suspected: {len(labels) - len(kept)} judge term label(s) not trusted alone",
        )
        return kept
    ctx.judge_use.record("ok", f"{name} labelled {len(labels)} of {len(terms)} terms")
    return labels


def judge_name(judge: Any) -> str:
    """The name a judge records its use under."""
    return str(getattr(judge, "name", None) or f"judge:{type(judge).__name__}")
