from __future__ import annotations

import pytest

from faithguard import Severity, Verdict
from faithguard.testing import FailingDetector, ScriptedLLM, StaticDetector

from .helpers import bare_guard


def test_spans_events_metrics(otel) -> None:  # type: ignore[no-untyped-def]
    missing = StaticDetector([Verdict(kind="missing_content", severity=Severity.CRITICAL, explanation="no article")])
    guard = bare_guard(extra=[missing, FailingDetector()], **otel.providers())
    report = guard.check("Summarise the article about Paris", "The Louvre in Paris is a museum.")
    spans = {s.name: s for s in otel.spans.get_finished_spans()}
    root = spans["guard default"]
    assert {"decompose static", "detect keywords", "detect static", "detect failing"} <= set(spans)
    for name in ("decompose static", "detect keywords", "detect failing"):
        assert spans[name].parent is not None and spans[name].parent.span_id == root.context.span_id
    assert spans["detect failing"].status.status_code.name == "ERROR"
    attrs = root.attributes
    assert attrs["faithguard.constraint_score"] == pytest.approx(report.constraint_score)
    assert attrs["faithguard.band"] == report.band
    assert attrs["faithguard.outcome"] == report.outcome == "hallucination"  # a critical verdict is never "ok"
    assert attrs["evaluations.0.evaluation.name"] == "faithguard.outcome"
    assert attrs["evaluations.0.evaluation.label"] == "hallucination"
    assert attrs["evaluations.1.evaluation.name"] == "faithguard.constraint_score"
    assert attrs["evaluations.2.evaluation.name"] == "faithguard.missing_content"
    assert attrs["evaluations.2.evaluation.label"] == "fail"
    # no content by default: lengths and hashes only
    assert "gen_ai.input.messages" not in attrs and attrs["faithguard.query.length"] == len(
        "Summarise the article about Paris"
    )
    assert not any("Paris" in str(v) for v in attrs.values())
    events = [r.log_record for r in otel.logs.get_finished_logs()]
    names = [e.attributes["gen_ai.evaluation.name"] for e in events]
    assert names.count("faithguard.missing_content") == 1 and "faithguard.constraint_score" in names
    assert all(e.event_name == "gen_ai.evaluation.result" for e in events)
    assert all(e.trace_id == root.context.trace_id for e in events)
    assert "no article" not in str([e.attributes for e in events])
    verdicts = otel.metric_points("faithguard.verdicts")
    assert sum(p.value for p in verdicts) == 1
    fired = [p for p in verdicts if p.value]
    assert dict(fired[0].attributes)["faithguard.verdict.kind"] == "missing_content"
    # every built-in kind x severity x stage series exists from start-up, at 0 until it fires
    assert len(verdicts) == 5 * 3 * 2
    outcomes = {dict(p.attributes)["faithguard.outcome"]: p.value for p in otel.metric_points("faithguard.outcomes")}
    assert outcomes == {"ok": 0, "hallucination": 1, "undetermined": 0}
    hist = otel.metric_points("faithguard.constraint_score")
    assert (
        hist[0].count == 1
        and list(hist[0].explicit_bounds)[:3] == [0.0, 1.0, 2.0]
        and hist[0].explicit_bounds[-1] == 10.0
    )
    errors = otel.metric_points("faithguard.detector.errors")
    assert [dict(p.attributes)["faithguard.detector"] for p in errors] == ["failing"]
    assert otel.metric_points("faithguard.detector.duration")


def test_content_capture_opt_in(otel) -> None:  # type: ignore[no-untyped-def]
    guard = bare_guard(capture_content=True, **otel.providers())
    guard.check("Museums in Paris?", "Paris museum three")
    root = next(s for s in otel.spans.get_finished_spans() if s.name == "guard default")
    assert "Museums in Paris?" in root.attributes["gen_ai.input.messages"]
    assert "Paris museum three" in root.attributes["gen_ai.output.messages"]


def test_env_content_capture(monkeypatch: pytest.MonkeyPatch, otel) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT", "SPAN_ONLY")
    bare_guard(**otel.providers()).check("Museums in Paris?", "x")
    root = next(s for s in otel.spans.get_finished_spans() if s.name == "guard default")
    assert "gen_ai.input.messages" in root.attributes


def test_wrapped_call_span_tree(otel) -> None:  # type: ignore[no-untyped-def]
    llm = ScriptedLLM(["Paris has three museum sites"], shape="completion", model="gpt-test")
    guarded = bare_guard(**otel.providers()).wrap(llm, provider="openai")
    guarded(messages=[{"role": "user", "content": "Museums in Paris?"}], model="gpt-test")
    spans = {s.name: s for s in otel.spans.get_finished_spans()}
    chat, root = spans["chat gpt-test"], spans["guard default"]
    assert chat.parent.span_id == root.context.span_id
    assert chat.kind.name == "CLIENT"
    assert chat.attributes["gen_ai.operation.name"] == "chat"
    assert chat.attributes["gen_ai.provider.name"] == "openai"
    assert chat.attributes["gen_ai.usage.input_tokens"] == 10
    assert chat.attributes["gen_ai.response.id"] == "chatcmpl-scripted"
    assert root.attributes["faithguard.constraint_score"] is not None


def test_text_digests_are_keyed_so_a_guess_cannot_be_confirmed(monkeypatch: pytest.MonkeyPatch) -> None:
    import hashlib

    from faithguard import telemetry

    digest = telemetry.text_digest("Yes.")
    assert digest != hashlib.sha256(b"Yes.").hexdigest()[:16]  # not the plain hash anyone can compute
    assert telemetry.text_digest("Yes.") == digest  # stable within the process
    # a configured key makes digests comparable across processes
    monkeypatch.setattr(telemetry, "_digest_key", [])
    monkeypatch.setenv(telemetry.DIGEST_KEY_ENV, "shared secret")
    first = telemetry.text_digest("Yes.")
    monkeypatch.setattr(telemetry, "_digest_key", [])
    assert telemetry.text_digest("Yes.") == first
