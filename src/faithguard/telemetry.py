"""OpenTelemetry: span names, attribute keys, metrics and evaluation events.

Providers are passed in; when omitted the global API providers are used (which
are no-ops unless the application configured them). faithguard never sets a
global provider. Prompt and response text stay off telemetry unless content
capture is on (``OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT``); by
default only lengths and short hashes are recorded.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import re
import secrets
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from opentelemetry import _logs, metrics, trace
from opentelemetry.trace import Span, SpanKind, Status, StatusCode

from faithguard.errors import ConfigError
from faithguard.models import Report, Severity, Verdict, VerdictKind
from faithguard.results import VERDICTS_CAPPED
from faithguard.scoring import OUTCOMES

__all__ = ["Telemetry", "capture_content_from_env"]

SCOPE = "faithguard"
SCORE_BUCKETS = [0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 9.5, 10.0]
LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0]

# Metric names (Prometheus: dots become underscores, counters gain _total).
M_CHECKS = "faithguard.checks"
M_VERDICTS = "faithguard.verdicts"
M_SCORE = "faithguard.constraint_score"
M_VIOLATED = "faithguard.constraints.violated"
M_DET_DURATION = "faithguard.detector.duration"
M_DET_ERRORS = "faithguard.detector.errors"
M_JUDGE_DEGRADED = "faithguard.judge.degraded"
M_OUTCOMES = "faithguard.outcomes"
M_DET_SKIPPED = "faithguard.detector.skipped"

#: At most this many distinct ``gen_ai.request.model`` label values per guard; later ones are "other".
MAX_MODEL_LABELS = 16
#: At most this many verdict kinds beyond the built-in ones as label values per guard; later ones are "other".
MAX_KIND_LABELS = 16
_BUILTIN_KINDS = frozenset(k.value for k in VerdictKind)
#: A reason code: snake_case with at least one underscore ("knowledge_source_failed", "call_failed"), so that a single
#: word of the request ("leukemia") is never taken for one (reviewer 97)
_CODE = r"[a-z][a-z0-9]*_[a-z0-9_]{1,60}"
_OPENING_CODE = re.compile(rf"({_CODE})(?=[:\s(]|$)")
#: The codes the call lifecycle opens its own reasons with (``lifecycle.*_REASON``, the proxy's): content-free
#: sentences of faithguard's, not a detector's; tests/core/test_no_leaks.py pins them to the lifecycle's constants.
LIFECYCLE_CODES = frozenset(
    {
        "tool_call",
        "call_failed",
        "unreadable_answer",
        "unreadable_input",
        "input_too_large",
        "stream_closed",
        "stream_unread",
        "answer_too_long",
        "scoring_failed",
        "stream_error",
        "stream_unreadable",
        "stream_incomplete",
    }
)
#: The reason codes faithguard's own checks open a detector's reason with ("unknown_terms: knowledge_source_failed"):
#: kept with content capture off. Any other opening word may be the request's own (a snake_case identifier in a code
#: question): withheld (review 98).
CHECK_CODES = frozenset({"knowledge_source_failed", VERDICTS_CAPPED})


class _BoundedLabels:
    """The values one metric label may take: ``always``, and the first ``cap`` other values seen (each at most
    ``longest`` characters when given), then "other". Thread-safe: the cap holds under concurrent checks."""

    def __init__(self, cap: int, *, longest: int | None = None, always: frozenset[str] = frozenset()) -> None:
        self._cap, self._longest, self._always = cap, longest, always
        self._seen: set[str] = set()
        self._lock = threading.Lock()

    def label(self, value: str) -> str:
        if value in self._always or value in self._seen:
            return value
        fits = self._longest is None or len(value) <= self._longest
        with self._lock:
            if value in self._seen or (fits and len(self._seen) < self._cap):
                self._seen.add(value)
                return value
        return "other"


def _reason_code(reason: str) -> str:
    """An undetermined reason without its words: the lifecycle's own code ("call_failed", "tool_call"), or a
    detector's "<detector>: <code>" when its reason opens with a code ("unknown_terms: knowledge_source_failed"),
    else "<detector>: not judged (reason withheld: enable content capture to keep it)"."""
    own = _OPENING_CODE.match(reason)
    if own is not None and own.group(1) in LIFECYCLE_CODES:
        return own.group(1)
    head, sep, rest = reason.partition(": ")
    code = _OPENING_CODE.match(rest) if sep else None
    if code is not None and code.group(1) in CHECK_CODES:
        return f"{head[:64]}: {code.group(1)}"
    return f"{head[:64] if sep else 'a check'}: not judged (reason withheld: enable content capture to keep it)"


# Attribute keys.
A_GUARD = "faithguard.guard.name"
A_STAGE = "faithguard.stage"
A_DETECTOR = "faithguard.detector"
A_KIND = "faithguard.verdict.kind"
A_SEVERITY = "faithguard.verdict.severity"
A_CATEGORY = "faithguard.constraint.category"
A_TIER = "faithguard.constraint.tier"
A_BAND = "faithguard.band"
A_JUDGE = "faithguard.judge"
A_OUTCOME = "faithguard.outcome"
A_MODEL = "gen_ai.request.model"
EVENT_EVALUATION = "gen_ai.evaluation.result"

_CAPTURE_ON = {"SPAN_ONLY", "EVENT_ONLY", "SPAN_AND_EVENT", "TRUE", "1", "YES"}


def capture_content_from_env() -> bool:
    """Whether ``OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT`` opts in to content capture."""
    return os.environ.get("OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT", "").strip().upper() in _CAPTURE_ON


#: A secret that keys the text digests on spans, so that digests of several processes can be compared.
DIGEST_KEY_ENV = "FAITHGUARD_DIGEST_KEY"
_digest_key: list[bytes] = []


def _key() -> bytes:
    if not _digest_key:
        configured = os.environ.get(DIGEST_KEY_ENV, "")
        _digest_key.append(configured.encode("utf-8") if configured else secrets.token_bytes(32))
    return _digest_key[0]


def text_digest(text: str) -> str:
    """A short keyed hash of ``text`` (HMAC-SHA-256) for correlating calls without storing their text.

    Keyed, so a short or common text ("Yes.") cannot be confirmed by hashing guesses: the key is
    ``$FAITHGUARD_DIGEST_KEY``, else a random key of this process (digests then compare within the process only).
    """
    return hmac.new(_key(), text.encode("utf-8", "surrogatepass"), hashlib.sha256).hexdigest()[:16]


class Telemetry:
    """Tracer, meter and event logger of one guard, with faithguard's instruments."""

    def __init__(
        self,
        tracer_provider: trace.TracerProvider | None = None,
        meter_provider: metrics.MeterProvider | None = None,
        logger_provider: _logs.LoggerProvider | None = None,
        capture_content: bool | None = None,
    ) -> None:
        from faithguard import __version__

        self.tracer = trace.get_tracer(SCOPE, __version__, tracer_provider)
        self.meter = metrics.get_meter(SCOPE, __version__, meter_provider)
        self.logger = _logs.get_logger(SCOPE, __version__, logger_provider=logger_provider)
        if isinstance(capture_content, int) and not isinstance(capture_content, bool) and capture_content in (0, 1):
            capture_content = bool(capture_content)  # 0 / 1 as the flag they have always meant
        if capture_content is not None and not isinstance(capture_content, bool):
            # "false" is a non-empty string: it would switch capture on
            raise ConfigError(f"capture_content must be True, False or None, not {type(capture_content).__name__}")
        self.capture_content = capture_content_from_env() if capture_content is None else capture_content
        m = self.meter
        self.checks = m.create_counter(M_CHECKS, unit="{check}", description="Guarded calls checked")
        self.verdicts = m.create_counter(M_VERDICTS, unit="{verdict}", description="Verdicts by kind and severity")
        self.score = m.create_histogram(
            M_SCORE,
            unit="1",
            description="Constraint Score (0-10) of checked responses",
            explicit_bucket_boundaries_advisory=SCORE_BUCKETS,
        )
        self.violated = m.create_counter(
            M_VIOLATED, unit="{constraint}", description="Violated constraints by category and tier"
        )
        self.detector_duration = m.create_histogram(
            M_DET_DURATION,
            unit="s",
            description="Detector latency",
            explicit_bucket_boundaries_advisory=LATENCY_BUCKETS,
        )
        self.detector_errors = m.create_counter(
            M_DET_ERRORS, unit="{error}", description="Detector failures and timeouts"
        )
        self.judge_degraded = m.create_counter(
            M_JUDGE_DEGRADED, unit="{request}", description="Requests where the LLM judge fell back to offline"
        )
        self.outcomes = m.create_counter(
            M_OUTCOMES, unit="{check}", description="Checked calls by outcome (ok, hallucination, undetermined)"
        )
        self.detector_skipped = m.create_counter(
            M_DET_SKIPPED, unit="{call}", description="Detector runs skipped by design (sampling, budget, limits)"
        )
        self._models = _BoundedLabels(MAX_MODEL_LABELS)
        self._kinds = _BoundedLabels(MAX_KIND_LABELS, longest=64, always=_BUILTIN_KINDS)

    def model_label(self, model: str | None) -> str:
        """A bounded label value for ``model``: itself for the first few models seen, then "other"."""
        return self._models.label(model) if model else "unknown"

    def kind_label(self, kind: str) -> str:
        """A bounded label value for a verdict kind: the built-in kinds, and the first few other kinds plugins emit
        (at most :data:`MAX_KIND_LABELS` of at most 64 characters), then "other": a plugin that names a kind per call
        must not grow the metric series without bound."""
        return self._kinds.label(kind)

    def reasons(self, report: Report) -> list[str]:
        """The report's outcome reasons as spans carry them: with content capture off, a reason a detector gave for
        not judging is cut to its detector and reason code ("unknown_terms: knowledge_source_failed"): its words may
        quote the request."""
        reasons = report.outcome_reasons
        if self.capture_content:
            return reasons
        given = set(report.undetermined)
        return [_reason_code(r) if r in given else r for r in reasons]

    def prime(self, guard: str) -> None:
        """Create every verdict and outcome series at 0, so that rate()/increase() see the first event."""
        for kind in VerdictKind:
            for severity in Severity:
                for stage in ("input", "output"):
                    self.verdicts.add(
                        0,
                        {A_GUARD: guard, A_KIND: kind.value, A_SEVERITY: severity.value, A_STAGE: stage},
                    )
        for outcome in OUTCOMES:
            self.outcomes.add(0, {A_GUARD: guard, A_OUTCOME: outcome, A_MODEL: "unknown"})
        self.judge_degraded.add(0, {A_GUARD: guard})

    @contextmanager
    def span(
        self, name: str, attributes: dict[str, Any] | None = None, kind: SpanKind = SpanKind.INTERNAL
    ) -> Iterator[Span]:
        """A span that records exceptions with ``error.type`` and re-raises."""
        with self.tracer.start_as_current_span(
            name, kind=kind, attributes=attributes or None, record_exception=False, set_status_on_exception=False
        ) as span:
            try:
                yield span
            except BaseException as exc:
                mark_error(span, exc)
                raise

    def record_detector(self, detector: str, stage: str, seconds: float, error_type: str | None) -> None:
        """Latency of one detector run, and its failure if any (``error.type``: timeout, stuck, or the class)."""
        attrs = {A_DETECTOR: detector, A_STAGE: stage}
        self.detector_duration.record(seconds, attrs)
        if error_type is not None:
            self.detector_errors.add(1, {**attrs, "error.type": error_type})

    def record_skip(self, detector: str, stage: str) -> None:
        """A detector that skipped this call by design (not an error)."""
        self.detector_skipped.add(1, {A_DETECTOR: detector, A_STAGE: stage})

    def record_input_content(self, span: Span, query: str, documents: list[str]) -> None:
        """Query size and hash on the span; the text only with content capture on."""
        if not span.is_recording():
            return
        span.set_attribute("faithguard.query.length", len(query))
        span.set_attribute("faithguard.query.sha256", text_digest(query))
        span.set_attribute("faithguard.documents.count", len(documents))
        if self.capture_content:
            msg = [{"role": "user", "parts": [{"type": "text", "content": query}]}]
            span.set_attribute("gen_ai.input.messages", json.dumps(msg, ensure_ascii=False))

    def record_verdicts(
        self, span: Span, verdicts: list[Verdict], stage: str, guard: str, response_id: str | None = None
    ) -> None:
        """Count verdicts, and emit each as a ``gen_ai.evaluation.result`` event in the span's context
        (with ``gen_ai.response.id`` of the evaluated completion when known)."""
        for verdict in verdicts:
            kind = self.kind_label(verdict.kind)
            self.verdicts.add(1, {A_GUARD: guard, A_KIND: kind, A_SEVERITY: str(verdict.severity), A_STAGE: stage})
            self._emit_evaluation(
                name=f"faithguard.{kind}",
                score=None,
                label="fail",
                explanation=self._explain(verdict),
                extra={A_SEVERITY: str(verdict.severity), A_DETECTOR: verdict.detector, A_GUARD: guard},
                response_id=response_id,
            )

    def record_report(self, span: Span, report: Report, guard: str, response_id: str | None = None) -> None:
        """Score, band and verdicts of a finished report: metrics, events, span attributes."""
        score = report.constraint_score
        band = report.band
        self.checks.add(1, {A_GUARD: guard, A_STAGE: "output", A_BAND: band, A_JUDGE: report.judge})
        self.outcomes.add(1, {A_GUARD: guard, A_OUTCOME: report.outcome, A_MODEL: self.model_label(report.model)})
        if score is not None:
            self.score.record(score, {A_GUARD: guard})
        for c in report.constraints:
            if str(c.status) == "violated":
                self.violated.add(1, {A_CATEGORY: str(c.category), A_TIER: str(c.tier)})
        if report.judge == "degraded":
            self.judge_degraded.add(1, {A_GUARD: guard})
        self._emit_evaluation(
            name="faithguard.constraint_score",
            score=score,
            label=report.outcome,
            explanation=f"band {band}; {report.judged}/{report.total} judged; {len(report.verdicts)} verdicts",
            extra={A_GUARD: guard, A_BAND: band},
            response_id=response_id,
        )
        if not span.is_recording():
            return
        attrs: dict[str, Any] = {
            "faithguard.constraints.total": report.total,
            "faithguard.constraints.judged": report.judged,
            "faithguard.perfect": report.perfect,
            A_BAND: band,
            A_OUTCOME: report.outcome,
            "faithguard.coverage": report.coverage if report.coverage is not None else 0.0,
            A_JUDGE: report.judge,
            "faithguard.verdict.count": len(report.verdicts),
            "faithguard.verdict.kinds": sorted({self.kind_label(v.kind) for v in report.verdicts}),
            "faithguard.response.length": len(report.response),
            "faithguard.response.sha256": text_digest(report.response),
            "faithguard.errors": len(report.errors),
        }
        if score is not None:
            attrs["faithguard.constraint_score"] = score
        # OpenInference evaluations: the overall score, then one entry per verdict.
        evals: list[tuple[str, float | None, str, str]] = [
            (
                "faithguard.outcome",
                None,
                report.outcome,
                "; ".join(self.reasons(report)) or "all checked, no verdict",
            ),
            ("faithguard.constraint_score", score, band, f"{report.judged}/{report.total} judged"),
        ]
        evals += [(f"faithguard.{self.kind_label(v.kind)}", None, "fail", self._explain(v)) for v in report.verdicts]
        for i, (name, value, label, explanation) in enumerate(evals):
            prefix = f"evaluations.{i}.evaluation."
            attrs[prefix + "name"] = name
            attrs[prefix + "label"] = label
            attrs[prefix + "explanation"] = explanation
            attrs[prefix + "annotator_kind"] = "LLM" if report.judge == "ok" else "CODE"
            if value is not None:
                attrs[prefix + "score"] = value
        if self.capture_content:
            out = [{"role": "assistant", "parts": [{"type": "text", "content": report.response}]}]
            attrs["gen_ai.output.messages"] = json.dumps(out, ensure_ascii=False)
        span.set_attributes(attrs)

    def _explain(self, verdict: Verdict) -> str:
        if self.capture_content:
            return verdict.explanation
        # Explanations quote the query; without content capture say only what fired where.
        ids = ",".join(verdict.constraint_ids)
        kind = self.kind_label(verdict.kind)
        return f"{kind} ({verdict.severity}) by {verdict.detector[:64]}" + (f" on {ids[:200]}" if ids else "")

    def _emit_evaluation(
        self,
        *,
        name: str,
        score: float | None,
        label: str,
        explanation: str,
        extra: dict[str, Any],
        response_id: str | None = None,
    ) -> None:
        attrs: dict[str, Any] = {
            "gen_ai.evaluation.name": name,
            "gen_ai.evaluation.score.label": label,
            "gen_ai.evaluation.explanation": explanation,
            **extra,
        }
        if score is not None:
            attrs["gen_ai.evaluation.score.value"] = score
        if response_id is not None:
            attrs["gen_ai.response.id"] = response_id
        self.logger.emit(event_name=EVENT_EVALUATION, attributes=attrs)


def mark_error(span: Span, exc: BaseException) -> None:
    """OTel error convention: status ERROR and ``error.type``.

    The status description is the exception's type only: exception text (of the wrapped function or
    a plugin) may quote the prompt, and content stays off telemetry unless captured on purpose.
    """
    if span.is_recording():
        span.set_status(Status(StatusCode.ERROR, type(exc).__qualname__))
        span.set_attribute("error.type", type(exc).__qualname__)
