"""Runs the stages of one guarded call: decompose, input detectors, output detectors.

Every plugin call is isolated: an exception or a timeout is recorded as a
:class:`DetectorFailure` (and on the span), never raised into the call.
"""

from __future__ import annotations

import contextvars
import copy
import functools
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass, field
from typing import Any

from faithguard.detector import CallContext, Decomposer, Detector
from faithguard.errors import DetectorError
from faithguard.models import (
    Decomposition,
    DetectorFailure,
    DetectorResult,
    InspectReport,
    Report,
    Status,
    TermFinding,
)
from faithguard.telemetry import A_DETECTOR, A_STAGE, Telemetry, mark_error

__all__ = ["Run"]


@dataclass
class Run:
    """The mutable state of one guarded call while its stages run."""

    ctx: CallContext
    telemetry: Telemetry
    pool: ThreadPoolExecutor
    default_timeout: float
    errors: list[DetectorFailure] = field(default_factory=list)
    terms: list[TermFinding] = field(default_factory=list)
    #: How many of ctx.verdicts came from the input stage.
    input_verdicts: int = 0
    started: float = field(default_factory=time.perf_counter)

    def call_isolated(self, name: str, stage: Any, timeout: float | None, fn: Callable[[], Any]) -> tuple[Any, bool]:
        """Run ``fn`` in the pool under ``timeout``; (result, ok). Failures are recorded."""
        limit = self.default_timeout if timeout is None else timeout
        t0 = time.perf_counter()
        error: BaseException | None = None
        result: Any = None
        try:
            future = self.pool.submit(contextvars.copy_context().run, fn)
        except RuntimeError:
            # The pool is shutting down (interpreter exit while background reports drain):
            # run inline, without a time budget, rather than lose the report.
            future = None
        try:
            timeout = limit if limit and limit > 0 else None
            result = fn() if future is None else future.result(timeout=timeout)
        except FutureTimeout:
            if future is not None:
                future.cancel()
            error = DetectorError(name, f"timed out after {limit:g}s")
        except Exception as exc:  # noqa: BLE001 - a plugin failure never breaks the call
            error = exc
        self.telemetry.record_detector(name, stage, time.perf_counter() - t0, error)
        if error is not None:
            message = str(error) if isinstance(error, DetectorError) else f"{type(error).__name__}: {error}"
            error_type = "timeout" if isinstance(error, DetectorError) else type(error).__qualname__
            self.errors.append(
                DetectorFailure(detector=name, stage=stage, error_type=error_type, message=message[:500])
            )
            return None, False
        return result, True

    def decompose(self, chain: list[Decomposer], cached: Callable[[Decomposer], Decomposition]) -> None:
        """Try each decomposer in order until one succeeds; record the failures."""
        for decomposer in chain:
            with self.telemetry.span(f"decompose {decomposer.name}", {A_DETECTOR: decomposer.name}) as span:
                timeout = getattr(decomposer, "timeout", None)
                result, ok = self.call_isolated(
                    decomposer.name, "decompose", timeout, functools.partial(cached, decomposer)
                )
                if ok and isinstance(result, Decomposition):
                    self.ctx.decomposition = result
                    self.ctx.constraints = copy.deepcopy(result.constraints)
                    if span.is_recording():
                        span.set_attribute("faithguard.constraints.total", len(result.constraints))
                    return
                if ok:
                    self.errors.append(
                        DetectorFailure(
                            detector=decomposer.name,
                            stage="decompose",
                            error_type="TypeError",
                            message="decomposer did not return a Decomposition",
                        )
                    )
                mark_error(span, RuntimeError(self.errors[-1].message))
                if decomposer.name == "judge":
                    skipped = self.errors[-1].error_type == "JudgeSkipped"
                    self.ctx.findings.setdefault("judge_status", "skipped" if skipped else "degraded")
                    self.ctx.findings.setdefault("judge_reason", f"decompose: {self.errors[-1].message}")

    def detect(self, detectors: list[Detector], stage: str) -> None:
        """Run the ``stage`` detectors in order, merging each result into the context."""
        for det in detectors:
            if det.stage != stage:
                continue
            with self.telemetry.span(f"detect {det.name}", {A_DETECTOR: det.name, A_STAGE: stage}) as span:
                result, ok = self.call_isolated(det.name, stage, det.timeout, functools.partial(det.run, self.ctx))
                if not ok:
                    mark_error(span, RuntimeError(self.errors[-1].message))
                    continue
                if not isinstance(result, DetectorResult):
                    self.errors.append(
                        DetectorFailure(
                            detector=det.name,
                            stage=stage,
                            error_type="TypeError",
                            message="run() did not return a DetectorResult",
                        )
                    )
                    continue
                self._merge(det.name, result)
                if span.is_recording():
                    span.set_attribute("faithguard.verdict.count", len(result.verdicts))
                    span.set_attribute("faithguard.constraints.updated", len(result.updates))

    def _merge(self, detector: str, result: DetectorResult) -> None:
        by_id = {c.id: c for c in self.ctx.constraints}
        for cid, (status, reason) in result.updates.items():
            constraint = by_id.get(cid)
            # First decisive status wins: verifiers and the offline engine run before the judge,
            # so a later detector can only decide what earlier ones left unknown.
            if constraint is None or constraint.status is not Status.UNKNOWN or status is Status.UNKNOWN:
                if constraint is not None and constraint.status is Status.UNKNOWN and reason and not constraint.reason:
                    constraint.reason = reason
                continue
            constraint.status = Status(status)
            constraint.reason = reason
            constraint.decided_by = self._decider(detector, constraint.verifier)
        for verdict in result.verdicts:
            if not verdict.detector:
                verdict = verdict.model_copy(update={"detector": detector})
            self.ctx.verdicts.append(verdict)
        self.ctx.findings.update(result.findings)
        known = {t.term for t in self.terms}
        for term in result.terms:
            if term.term in known:
                self.terms = [term if t.term == term.term else t for t in self.terms]
            else:
                self.terms.append(term)

    def _decider(self, detector: str, verifier: str | None) -> str:
        if detector == "constraints":  # the offline engine: exact verifiers, or lexical evidence
            return "verifier" if verifier else "offline"
        if detector == "judge" and self.ctx.judge is not None:
            return str(getattr(self.ctx.judge, "name", "judge"))
        return detector

    def inspect_report(self) -> InspectReport:
        """The input-stage result."""
        clarification = self.ctx.findings.get("clarification")
        return InspectReport(
            query=self.ctx.query,
            decomposition=self.ctx.decomposition,
            verdicts=list(self.ctx.verdicts),
            terms=list(self.terms),
            findings=_jsonable(self.ctx.findings),
            errors=list(self.errors),
            clarification=clarification if isinstance(clarification, str) else None,
        )

    def report(self, response: str, weights: dict[str, float], judge_on: bool) -> Report:
        """The full result after the output stage."""
        findings = self.ctx.findings
        judge = "off"
        if judge_on:
            status = findings.get("judge_status")
            judge = status if status in ("degraded", "skipped") else "ok"
        label = findings.get("answer_label")
        return Report(
            query=self.ctx.query,
            response=response,
            constraints=self.ctx.constraints,
            subquestions=self.ctx.decomposition.subquestions,
            verdicts=list(self.ctx.verdicts),
            terms=list(self.terms),
            answer_label=label if label in ("valid", "hallucination", "irrelevant") else None,
            errors=list(self.errors),
            judge=judge,
            judge_reason=str(findings["judge_reason"]) if judge != "off" and findings.get("judge_reason") else None,
            weights=weights,
            findings=_jsonable(findings),
            duration_ms=(time.perf_counter() - self.started) * 1000.0,
        )


def _jsonable(value: Any) -> Any:
    """Findings as plain JSON data (unknown objects become their repr)."""
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set):
        return [_jsonable(v) for v in value]
    if isinstance(value, str | int | float | bool) or value is None:
        return value
    if hasattr(value, "model_dump"):
        return value.model_dump(mode="json")
    return repr(value)


def observer_failure(name: str, exc: BaseException) -> DetectorFailure:
    """The record of an observer (on_report hook or callback) that raised."""
    return DetectorFailure(detector=name, stage="observe", error_type=type(exc).__qualname__, message=str(exc)[:500])
