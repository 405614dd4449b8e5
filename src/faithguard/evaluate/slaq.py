"""Short-long consistency probe (SLAQ): re-ask each part of a multi-part query on its own.

SLAQ (Short-Long Form Alignment for factual QA) found that models often answer a question
right when asked alone yet wrong inside a long multi-part query, more so for later parts.
:class:`ConsistencyProbe` is an optional output detector (name ``consistency``, order 320, off
by default) that re-asks each sub-question through a callable you give it, compares each
isolated answer with the matching part of the long answer, and reports an ``inconsistency``
verdict where they clash. Its extra calls are sampled and budgeted, and their count and
latency show in ``findings["consistency"]`` and on the ``detect consistency`` span.

SLAQ's alignment is about *correctness*: per fact, alignment is 1 when the short and long
answers are both right or both wrong; signed alignment is +1 (both right), -1 (both wrong) or
0 (they differ), each averaged over facts. Correctness needs gold answers, so those two figures
are computed only when the probe is given ``gold``; without it the probe reports answer
*agreement* (do the two answers say the same thing), which needs no gold.
"""

from __future__ import annotations

import asyncio
import contextvars
import inspect
import random
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from opentelemetry import trace

from faithguard import calls
from faithguard.detector import CallContext
from faithguard.evaluate.answers import AnswerPart, Comparison, assign_parts, compare_answers, split_answer
from faithguard.models import DetectorResult, Severity, Verdict

__all__ = ["INCONSISTENCY", "ConsistencyProbe", "slaq_metrics"]

INCONSISTENCY = "inconsistency"
_IN_PROBE: contextvars.ContextVar[bool] = contextvars.ContextVar("faithguard_in_consistency_probe", default=False)
_CLIP = 300


def slaq_metrics(pairs: Sequence[tuple[bool, bool]]) -> dict[str, float | int | None]:
    """SLAQ figures over (short correct, long correct) pairs: accuracies, alignment, signed alignment."""
    n = len(pairs)
    if n == 0:
        return {"facts": 0, "short_accuracy": None, "long_accuracy": None, "alignment": None, "signed_alignment": None}
    signed = sum((1 if s else -1) if s == lg else 0 for s, lg in pairs)
    return {
        "facts": n,
        "short_accuracy": sum(1 for s, _ in pairs if s) / n,
        "long_accuracy": sum(1 for _, lg in pairs if lg) / n,
        "alignment": sum(1 for s, lg in pairs if s == lg) / n,
        "signed_alignment": signed / n,
    }


def _clip(text: str | None) -> str:
    text = " ".join((text or "").split())
    return text if len(text) <= _CLIP else text[: _CLIP - 1] + "…"


def _answer_text(output: Any) -> str | None:
    if inspect.isawaitable(output):
        output = asyncio.run(_await(output))
    if calls.is_stream(output):
        return "".join(calls.chunk_text(c) for c in output)
    return calls.extract_text(output)


async def _await(awaitable: Any) -> Any:
    return await awaitable


class ConsistencyProbe:
    """Output detector: re-asks each sub-question alone and flags answers that clash with the long answer.

    ``ask(question)`` returns the model's answer (text, a chat completion, or a stream).
    ``sample_rate`` is the share of multi-part calls probed; ``max_calls`` caps the extra calls
    over the probe's lifetime (None: no cap); ``max_parts`` caps the parts probed per call.
    ``gold`` (question -> correct answer, mapping or callable) enables SLAQ alignment figures.
    A judge with ``compare_answers(question, a, b) -> bool | None`` is used when present.
    """

    name = "consistency"
    stage = "output"
    order = 320

    def __init__(
        self,
        ask: Callable[[str], Any],
        *,
        sample_rate: float = 1.0,
        max_calls: int | None = 100,
        max_parts: int = 8,
        timeout: float | None = 120.0,
        seed: int | None = None,
        gold: Mapping[str, str] | Callable[[str], str | None] | None = None,
    ) -> None:
        if not 0.0 <= sample_rate <= 1.0:
            raise ValueError("sample_rate must be in [0, 1]")
        if (max_calls is not None and max_calls < 0) or max_parts < 1:
            raise ValueError("max_calls >= 0 and max_parts >= 1")
        self.ask = ask
        self.sample_rate = sample_rate
        self.max_calls = max_calls
        self.max_parts = max_parts
        self.timeout = timeout
        self.gold = gold
        self._rng = random.Random(seed)
        self._lock = threading.Lock()
        self.calls_made = 0

    @classmethod
    def from_model(cls, fn: Callable[..., Any], **options: Any) -> ConsistencyProbe:
        """A probe that re-asks through an LLM function (sync or async, text/completion/stream output).

        ``fn`` may be the same function you pass to ``guard.wrap`` (raw or wrapped): calls the
        probe makes are never probed again.
        """
        return cls(lambda question: _answer_text(fn(question)), **options)

    # -- budget -------------------------------------------------------------------------------

    def _admit(self, wanted: int) -> tuple[int, str | None]:
        """(parts granted, reason when none) under the sampling rate and the call budget."""
        with self._lock:
            if self.sample_rate < 1.0 and self._rng.random() >= self.sample_rate:
                return 0, "not sampled"
            left = wanted if self.max_calls is None else min(wanted, self.max_calls - self.calls_made)
            if left <= 0:
                return 0, "call budget exhausted"
            self.calls_made += left
            return left, None

    @property
    def remaining(self) -> int | None:
        """Extra calls left in the budget (None: uncapped)."""
        return None if self.max_calls is None else max(0, self.max_calls - self.calls_made)

    # -- detector -----------------------------------------------------------------------------

    def run(self, ctx: CallContext) -> DetectorResult:
        """Probe a multi-part call: re-ask, compare, report agreement, SLAQ figures and cost."""
        span = trace.get_current_span()
        subs = ctx.decomposition.subquestions
        if _IN_PROBE.get():
            return self._skipped(span, "nested call made by the probe")
        if len(subs) < 2 or not (ctx.response or "").strip():
            return DetectorResult()
        wanted = min(len(subs), self.max_parts)
        granted, reason = self._admit(wanted)
        if reason is not None:
            return self._skipped(span, reason)
        probed = subs[:granted]
        answers, latencies, errors = self._ask_all([s.text for s in probed])
        response = ctx.response or ""
        parts = split_answer(response)
        mapping = assign_parts([s.text for s in subs], parts)
        rows: list[dict[str, Any]] = []
        verdicts: list[Verdict] = []
        for k, sub in enumerate(probed):
            part_index, how = mapping[k]
            part: AnswerPart | None = parts[part_index] if part_index is not None else None
            row = self._compare(ctx, sub.text, answers[k], part, response)
            row.update(
                index=sub.index,
                query_position=sub.position,
                answer_part=part_index,
                mapping=how,
                latency_ms=round(latencies[k], 3),
            )
            if errors[k]:
                row["error"] = errors[k]
            rows.append(row)
            if row["agree"] is False:
                verdicts.append(
                    Verdict(
                        kind=INCONSISTENCY,
                        severity=Severity.WARNING,
                        constraint_ids=[c.id for c in ctx.constraints if c.subquestion == sub.index],
                        explanation=(
                            f"Part {sub.index + 1} ({sub.text.strip()!r}) asked alone got {row['short_answer']!r}, "
                            f"but the long answer says {row['long_answer']!r} ({row['evidence']})."
                        ),
                        detector=self.name,
                    )
                )
        findings = self._findings(rows, wanted, latencies)
        self._annotate(span, findings, len(verdicts))
        return DetectorResult(verdicts=verdicts, findings={"consistency": findings})

    def _ask_all(self, questions: list[str]) -> tuple[list[str | None], list[float], list[str | None]]:
        answers: list[str | None] = []
        latencies: list[float] = []
        errors: list[str | None] = []
        token = _IN_PROBE.set(True)
        try:
            for question in questions:
                t0 = time.perf_counter()
                try:
                    answers.append(self.ask(question))
                    errors.append(None)
                except Exception as exc:  # noqa: BLE001 - a failed re-ask is recorded per part
                    answers.append(None)
                    errors.append(f"{type(exc).__name__}: {exc}"[:300])
                latencies.append((time.perf_counter() - t0) * 1000.0)
        finally:
            _IN_PROBE.reset(token)
        return answers, latencies, errors

    def _judge_compare(self, ctx: CallContext, question: str, a: str, b: str) -> Comparison | None:
        method = getattr(ctx.judge, "compare_answers", None) if ctx.judge is not None else None
        if not callable(method):
            return None
        try:
            result = method(question, a, b)
        except Exception:  # noqa: BLE001 - a failing judge falls back to the offline comparison
            return None
        return Comparison(result, "judge", "judge") if result is None or isinstance(result, bool) else None

    def _same(self, ctx: CallContext, question: str, a: str, b: str) -> Comparison:
        return self._judge_compare(ctx, question, a, b) or compare_answers(question, a, b)

    def _gold_for(self, question: str) -> str | None:
        if self.gold is None:
            return None
        if isinstance(self.gold, Mapping):
            value = self.gold.get(question) or self.gold.get(question.strip())
        else:
            value = self.gold(question)
        return value if isinstance(value, str) and value.strip() else None

    def _compare(
        self, ctx: CallContext, question: str, short: str | None, part: AnswerPart | None, response: str
    ) -> dict[str, Any]:
        row: dict[str, Any] = {
            "question": _clip(question),
            "short_answer": _clip(short),
            "long_answer": _clip(part.text if part else None),
            "answer_position": round(part.start / max(1, len(response)), 4) if part else None,
        }
        if short is None or part is None:
            row.update(agree=None, method="none", evidence="no short answer" if short is None else "no matching part")
            return row
        result = self._same(ctx, question, short, part.text)
        row.update(agree=result.agree, method=result.method, evidence=result.evidence)
        gold = self._gold_for(question)
        if gold is not None:
            row["short_correct"] = self._same(ctx, question, gold, short).agree
            row["long_correct"] = self._same(ctx, question, gold, part.text).agree
        return row

    def _findings(self, rows: list[dict[str, Any]], wanted: int, latencies: list[float]) -> dict[str, Any]:
        decided = [r for r in rows if r["agree"] is not None]
        pairs = [
            (bool(r["short_correct"]), bool(r["long_correct"]))
            for r in rows
            if r.get("short_correct") is not None and r.get("long_correct") is not None
        ]
        return {
            "status": "ok",
            "parts": rows,
            "probed": len(rows),
            "skipped_parts": wanted - len(rows),
            "agreement": sum(1 for r in decided if r["agree"]) / len(decided) if decided else None,
            "inconsistent": sum(1 for r in decided if not r["agree"]),
            **slaq_metrics(pairs),
            "cost": {"calls": len(latencies), "latency_ms": round(sum(latencies), 3), "budget_left": self.remaining},
        }

    def _skipped(self, span: Any, reason: str) -> DetectorResult:
        if span.is_recording():
            span.set_attribute("faithguard.consistency.status", "skipped")
            span.set_attribute("faithguard.consistency.calls", 0)
        return DetectorResult(
            findings={"consistency": {"status": "skipped", "reason": reason, "cost": {"calls": 0, "latency_ms": 0.0}}}
        )

    def _annotate(self, span: Any, findings: dict[str, Any], inconsistent: int) -> None:
        if not span.is_recording():
            return
        span.set_attribute("faithguard.consistency.status", "ok")
        span.set_attribute("faithguard.consistency.calls", int(findings["cost"]["calls"]))
        span.set_attribute("faithguard.consistency.latency_ms", float(findings["cost"]["latency_ms"]))
        span.set_attribute("faithguard.consistency.parts", int(findings["probed"]))
        span.set_attribute("faithguard.consistency.inconsistent", inconsistent)
        if findings["agreement"] is not None:
            span.set_attribute("faithguard.consistency.agreement", float(findings["agreement"]))
        if findings["alignment"] is not None:
            span.set_attribute("faithguard.consistency.alignment", float(findings["alignment"]))
            span.set_attribute("faithguard.consistency.signed_alignment", float(findings["signed_alignment"]))
