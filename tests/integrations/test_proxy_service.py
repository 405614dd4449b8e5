"""The proxy as a traced service: caller trace context, background scoring, health, check-only endpoint."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import httpx
from integ_support import BAD, CHAT, GOOD, URL, client_for, make_guard
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from faithguard import DetectorResult, Policy, Report
from faithguard.integrations.fake_upstream import FakeOpenAIServer, tool_call_message

TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736"
PARENT_ID = "00f067aa0ba902b7"


def test_caller_traceparent_is_joined_and_passed_on(upstream: FakeOpenAIServer) -> None:
    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    guard = make_guard(tracer_provider=provider)

    async def go() -> httpx.Response:
        async with client_for(guard, upstream.url, scoring="inline") as client:
            return await client.post(URL, json=CHAT, headers={"traceparent": f"00-{TRACE_ID}-{PARENT_ID}-01"})

    assert asyncio.run(go()).status_code == 200
    guard.close()
    spans = exporter.get_finished_spans()
    root = next(s for s in spans if s.name.startswith("guard "))
    chat = next(s for s in spans if s.name == "chat m")
    assert f"{root.context.trace_id:032x}" == TRACE_ID
    assert root.parent is not None and f"{root.parent.span_id:016x}" == PARENT_ID
    assert all(f"{s.context.trace_id:032x}" == TRACE_ID for s in spans)
    sent = upstream.requests[-1]["headers"]
    traceparent = next(v for k, v in sent.items() if k.lower() == "traceparent")
    assert traceparent.split("-")[1] == TRACE_ID
    assert traceparent.split("-")[2] == f"{chat.context.span_id:016x}"  # upstream spans hang off the chat span


class SlowDetector:
    """An output detector that takes 0.2 s: scoring is slower than the upstream."""

    name = "slow-test"
    stage = "output"
    order = 500
    timeout: float | None = None

    def run(self, ctx: Any) -> DetectorResult:
        time.sleep(0.2)
        return DetectorResult()


def test_observe_scores_off_the_response_path_with_bounded_queue(upstream: FakeOpenAIServer) -> None:
    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    guard = make_guard(extra=[SlowDetector()], tracer_provider=provider)
    reports: list[Report] = []
    n = 24

    async def go() -> tuple[list[httpx.Response], dict[str, Any], dict[str, Any]]:
        async with client_for(guard, upstream.url, queue_size=4, on_report=reports.append) as client:
            resps = await asyncio.gather(*(client.post(URL, json=CHAT) for _ in range(n)))
            during = (await client.get("/healthz")).json()
            app_proxy = client._transport.app.state.proxy  # type: ignore[attr-defined]
            assert await asyncio.to_thread(app_proxy.scoring.join, 30)
            after = (await client.get("/healthz")).json()
        return resps, during, after

    resps, during, after = asyncio.run(go())
    guard.close()
    assert all(r.status_code == 200 and r.headers["x-faithguard-score"] == "pending" for r in resps)
    assert all(r.json()["choices"][0]["message"]["content"] == GOOD for r in resps)
    assert during["scoring"] == "background"
    queue = after["queue"]
    assert queue["queued"] + queue["sampled_out"] + queue["dropped"] == n
    assert queue["sampled_out"] + queue["dropped"] > 0  # 24 answers at once into a queue of 4: load was shed
    assert queue["scored"] == queue["queued"] == len(reports)
    assert queue["depth"] == 0
    roots = [s for s in exporter.get_finished_spans() if s.name.startswith("guard ")]
    assert len(roots) == n  # every call's span ended, scored or not


def test_healthz_names_the_policy_that_blocks(upstream: FakeOpenAIServer) -> None:
    guard = make_guard()

    async def go(policy: Policy) -> dict[str, Any]:
        async with client_for(guard, upstream.url, policy=policy) as client:
            return dict((await client.get("/healthz")).json())

    block = asyncio.run(go(Policy.block(["omission"])))
    assert block["policy"] == "block" and block["default_action"] == "annotate" and block["scoring"] == "inline"
    assert asyncio.run(go(Policy.observe()))["policy"] == "observe"
    assert asyncio.run(go(Policy.annotate()))["scoring"] == "inline"
    guard.close()


def test_check_endpoint_scores_a_given_answer(upstream: FakeOpenAIServer) -> None:
    guard = make_guard()
    question = CHAT["messages"][0]["content"]  # type: ignore[index]
    tool_call = {"choices": [{"message": tool_call_message("f", "{}")}]}

    async def go() -> list[httpx.Response]:
        async with client_for(guard, upstream.url, policy=Policy.block(["omission"])) as client:
            return [
                await client.post("/faithguard/check", json={"query": question, "response": GOOD}),
                await client.post(
                    "/faithguard/check",
                    json={"messages": CHAT["messages"], "response": BAD, "documents": ["The Louvre is in Paris."]},
                ),
                await client.post("/faithguard/check", json={"query": question, "response": tool_call}),
                await client.post("/faithguard/check", json={"response": GOOD}),
                await client.post("/faithguard/check", json={"query": question}),
            ]

    good, bad, tool, no_query, no_response = asyncio.run(go())
    guard.close()
    assert good.status_code == 200 and good.json()["report"]["constraint_score"] == 10.0
    assert good.json()["action"] == "annotate"
    assert bad.json()["action"] == "block" and bad.headers["x-faithguard-verdicts"] == "omission"
    assert bad.json()["report"]["findings"]["documents_seen"] == 1
    assert tool.json() == {"scored": False, "reason": "tool_call", "report": None}
    assert no_query.status_code == 400 and no_response.status_code == 400
    assert upstream.count == 0  # check-only never calls the model


def test_tool_call_passes_through_the_proxy_unscored_even_under_block() -> None:
    guard = make_guard()
    reply = tool_call_message("weather", '{"city": "Paris"}')
    reports: list[Report] = []

    async def go(srv: FakeOpenAIServer) -> tuple[httpx.Response, str]:
        async with client_for(guard, srv.url, policy=Policy.block(), on_report=reports.append) as client:
            plain = await client.post(URL, json=CHAT)
            streamed = await client.post(URL, json={**CHAT, "stream": True})
        return plain, streamed.text

    with FakeOpenAIServer([reply]) as srv:
        plain, streamed = asyncio.run(go(srv))
    guard.close()
    assert plain.status_code == 200 and plain.headers["x-faithguard-outcome"] == "tool_call"
    message = plain.json()["choices"][0]["message"]
    assert message["content"] is None and message["tool_calls"][0]["function"]["name"] == "weather"
    assert '"tool_calls"' in streamed and streamed.rstrip().endswith("data: [DONE]")
    assert reports == []


class GatedInputDetector:
    """An input detector that waits until the test opens its gate."""

    name = "gated-input-test"
    stage = "input"
    order = 10
    timeout: float | None = None

    def __init__(self) -> None:
        import threading

        self.gate = threading.Event()
        self.ran = threading.Event()

    def run(self, ctx: Any) -> DetectorResult:
        self.ran.set()
        self.gate.wait(20)
        return DetectorResult()


def test_observe_runs_no_guard_stage_on_the_request_path(upstream: FakeOpenAIServer) -> None:
    """The answer arrives while the input stage is still blocked: observe has nothing of the guard in the way."""
    gated = GatedInputDetector()
    guard = make_guard(extra=[gated])
    reports: list[Report] = []

    async def go() -> httpx.Response:
        async with client_for(guard, upstream.url, on_report=reports.append) as client:
            resp = await asyncio.wait_for(client.post(URL, json=CHAT), timeout=15)
            assert await asyncio.to_thread(gated.ran.wait, 15)  # the input stage did start, in the background
            gated.gate.set()
            app_proxy = client._transport.app.state.proxy  # type: ignore[attr-defined]
            assert await asyncio.to_thread(app_proxy.scoring.join, 30)
            return resp

    resp = asyncio.run(go())
    guard.close()
    assert resp.status_code == 200 and resp.headers["x-faithguard-score"] == "pending"
    assert len(reports) == 1 and reports[0].constraint_score == 10.0
