"""Asking the configured judge from any detector, and turning ``Guard(judge=...)`` into a judge.

Core, so that no plugin imports another: a detector that wants the judge's HypoTermQA acceptance label
for a term (the built-in term checks, or a third-party one) calls :func:`judge_term_labels`; a detector
that must not trust a judge's clearing verdict on an injected text calls :func:`untrusted`. A plugin
that builds judges from specs (the built-in judge plugin reads ``"env"``, its ``JudgeConfig`` and chat
models) registers a :class:`JudgeResolver` through the ``register_judge_resolvers`` hook; the guard asks
those resolvers and nothing else.
"""

from __future__ import annotations

import re
from typing import Any, Protocol, runtime_checkable

from faithguard.detector import CallContext, Judge
from faithguard.errors import JudgeSkipped

__all__ = [
    "ACCEPTANCE_LABELS",
    "JudgeResolver",
    "judge_name",
    "judge_term_labels",
    "looks_like_injection",
    "untrusted",
]

#: HypoTermQA acceptance labels a judge may give a term (the judge plugin's ``TermItem`` schema).
ACCEPTANCE_LABELS = frozenset({"UNREAL", "UNKNOWN", "MENTIONED", "ABSENT"})

#: Instruction-like phrases aimed at an evaluator. Provenance: faithguard's own wording of common
#: prompt-injection forms (override, role change, forced pass, prompt leak); fixtures in
#: tests/judge/test_judge.py (flagged and benign texts).
_INJECTION_PATTERNS: tuple[re.Pattern[str], ...] = tuple(
    re.compile(p, re.IGNORECASE)
    for p in (
        r"\b(ignore|disregard|forget|override)\b[^.\n]{0,40}\b(previous|prior|above|earlier|all|any|the)\b"
        r"[^.\n]{0,20}\b(instructions?|prompts?|rules|directions|guidelines|context)\b",
        r"\bmark\b[^.\n]{0,30}\b(constraints?|requirements?|items?)\b[^.\n]{0,20}\b(satisfied|passed|met|true)\b",
        r"\b(you are now|act as|pretend to be)\b[^.\n]{0,40}\b(judge|evaluator|assistant|system|ai)\b",
        r"\b(new|updated|real)\s+(system\s+)?instructions?\s*:",
        r"</?\s*(system|assistant|instructions?)\s*>",
        r"\b(reveal|print|output|show)\b[^.\n]{0,20}\b(system prompt|your instructions|hidden prompt)\b",
        r"\b(score|rate|grade)\b[^.\n]{0,30}\b(10/10|perfect|as satisfied|highest)\b",
    )
)


@runtime_checkable
class JudgeResolver(Protocol):
    """Builds a judge from a ``Guard(judge=spec)`` value (registered with ``register_judge_resolvers``).

    The guard itself handles ``None``/``False``/``"off"`` (no judge) and objects that already implement
    :class:`~faithguard.Judge`; every other spec goes to the first resolver that accepts it.
    """

    #: The specs it reads, for the error on a spec no resolver accepts (e.g. ``"'env' or a chat model"``).
    accepted: str

    def accepts(self, spec: object) -> bool:
        """Whether ``spec`` is a spec this resolver reads."""
        ...

    def resolve(self, spec: object, *, tracer: Any = None) -> Judge | None:
        """The judge ``spec`` describes; None when it means no judge (``"env"`` with nothing set).

        ``tracer`` (an OpenTelemetry Tracer or TracerProvider) receives the judge's spans. Raises
        ConfigError when the spec is malformed.
        """
        ...


@runtime_checkable
class _TermJudge(Protocol):
    def classify_terms(self, ctx: CallContext, terms: list[str]) -> Any:
        """term -> acceptance label."""
        ...


def looks_like_injection(text: str) -> bool:
    """Whether text contains instruction-like phrases aimed at an evaluator (heuristic)."""
    if not text:
        return False
    return any(p.search(text) for p in _INJECTION_PATTERNS)


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
