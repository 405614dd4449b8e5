"""With content capture off, no prompt, answer, document, key or URL credential leaves the proxy in any signal."""

from __future__ import annotations

import asyncio
import json
import logging

import fault_server as faults
import pytest
from integ_support import URL, client_for, make_guard
from opentelemetry.sdk._logs import LoggerProvider
from opentelemetry.sdk._logs.export import InMemoryLogRecordExporter, SimpleLogRecordProcessor
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from faithguard import Guard, Policy, Report
from faithguard.integrations.fake_upstream import FakeOpenAIServer
from faithguard.integrations.prometheus import prometheus_metrics

QUERY_MARK = "zqxquerymarker"
ANSWER_MARK = "zqxanswermarker"
DOC_MARK = "zqxdocmarker"
KEY_MARK = "sk-zqxkeymarker"
PASS_MARK = "zqxpassmarker"
MARKS = (QUERY_MARK, ANSWER_MARK, DOC_MARK, KEY_MARK, PASS_MARK)


def test_no_marker_reaches_spans_events_logs_metrics_or_error_bodies(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    spans = InMemorySpanExporter()
    tracer_provider = TracerProvider()
    tracer_provider.add_span_processor(SimpleSpanProcessor(spans))
    events = InMemoryLogRecordExporter()
    logger_provider = LoggerProvider()
    logger_provider.add_log_record_processor(SimpleLogRecordProcessor(events))
    metrics = prometheus_metrics()
    template = make_guard()  # the fast test guard's parts, with every telemetry signal captured
    template.close()
    guard = Guard(
        decomposer=template.decomposer,
        extra_detectors=template.detectors,
        judge=None,
        plugin_manager=template.plugin_manager,
        tracer_provider=tracer_provider,
        meter_provider=metrics.meter_provider,
        logger_provider=logger_provider,
        capture_content=False,
    )
    question = f"Which museum in Paris should I visit? {QUERY_MARK}"
    body = {
        "model": "m",
        "messages": [{"role": "user", "content": question}],
        "faithguard": {"documents": [f"The Louvre is in Paris. {DOC_MARK}"]},
    }
    headers = {"Authorization": f"Bearer {KEY_MARK}"}
    bodies: list[str] = []
    reports: list[Report] = []

    async def go(upstream: str, policy: Policy, **kwargs: object) -> None:
        async with client_for(guard, upstream, policy=policy, metrics=metrics, **kwargs) as client:  # type: ignore[arg-type]
            for payload in (body, {**body, "stream": True}):
                resp = await client.post(URL, json=payload, headers=headers)
                bodies.append(json.dumps(dict(resp.headers)))
                if resp.status_code != 200:
                    bodies.append(resp.text)
                else:  # a stream that failed after its status line says so in an error event
                    bodies.extend(line for line in resp.text.splitlines() if '"error"' in line)
            bad = await client.post(URL, content=b'{"model": NaN, "messages": []}', headers=headers)
            bodies.append(bad.text)
            check = await client.post(
                "/faithguard/check", json={"query": question, "response": f"The Louvre museum. {ANSWER_MARK}"}
            )
            bodies.append(json.dumps({k: v for k, v in check.json().items() if k != "report"}))
            bodies.append((await client.get("/metrics")).text)
            bodies.append((await client.get("/healthz")).text)

    with FakeOpenAIServer([f"Visit the Louvre museum in Paris. {ANSWER_MARK}"]) as upstream:
        secret = upstream.url.replace("http://", f"http://alice:{PASS_MARK}@")
        asyncio.run(go(secret, Policy.observe()))
        asyncio.run(go(secret, Policy.block(["omission"]), scoring="inline"))
    broken_upstreams = (
        faults.reset_mid_body,
        faults.short_body,
        faults.bad_gzip,
        faults.non_text_content,
        faults.deep_json,
        faults.stream_with_deep_line,
        faults.stream_cut_mid_line,
    )
    for behaviour in broken_upstreams:
        with faults.FaultServer(behaviour) as broken:
            secret = broken.url.replace("http://", f"http://bob:{PASS_MARK}@")
            asyncio.run(go(secret, Policy.observe(), on_report=reports.append, timeout=5.0))
    guard.close()
    tracer_provider.shutdown()
    logger_provider.shutdown()

    exported: list[str] = []
    for span in spans.get_finished_spans():
        exported.append(span.to_json())
    for record in events.get_finished_logs():
        exported.append(record.to_json())
    exported += [r.getMessage() for r in caplog.records]
    exported += bodies
    exported += [json.dumps([e.model_dump(mode="json") for e in r.errors]) for r in reports]
    assert spans.get_finished_spans() and events.get_finished_logs()  # there was something to scan
    text = "\n".join(exported)
    for mark in MARKS:
        assert mark not in text, f"{mark} leaked"
