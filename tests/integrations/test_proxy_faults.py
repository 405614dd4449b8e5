"""The proxy under malformed client input and misbehaving upstreams on 127.0.0.1 (issue 16)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import AsyncIterator, Iterator
from typing import Any

import fault_server as faults
import httpx
import pytest
from integ_support import CHAT, GOOD, URL, client_for, make_guard
from opentelemetry.sdk.trace import ReadableSpan, TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from opentelemetry.trace import StatusCode

from faithguard import Guard
from faithguard.integrations.fake_upstream import FakeOpenAIServer


@pytest.fixture
def traced() -> Iterator[tuple[Guard, InMemorySpanExporter]]:
    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    guard = make_guard(tracer_provider=provider)
    yield guard, exporter
    guard.close()


def send(guard: Guard, upstream: str, content: bytes | None = None, **kwargs: Any) -> httpx.Response:
    async def go() -> httpx.Response:
        async with client_for(guard, upstream, **kwargs) as client:
            if content is None:
                return await client.post(URL, json=CHAT)
            return await client.post(URL, content=content, headers={"content-type": "application/json"})

    return asyncio.run(go())


def roots(exporter: InMemorySpanExporter) -> list[ReadableSpan]:
    return [s for s in exporter.get_finished_spans() if s.name.startswith("guard ")]


@pytest.mark.parametrize(
    "raw",
    [
        b'{"model": "m", "temperature": NaN, "messages": []}',
        b'{"model": "m", "temperature": Infinity, "messages": []}',
        b'{"model": "m", "temperature": -Infinity, "messages": []}',
        b'{"model": "\\ud800", "messages": [{"role": "user", "content": "hi"}]}',
        b'{"model": "m", "user": "\\udfff", "messages": [{"role": "user", "content": "hi"}]}',
        b'{"model": "m", "messages": ' + b"[" * 100_000 + b"]" * 100_000 + b"}",
        b'{"model": "m", "messages": [{"role": "user", "content": "hi", "x": ' + b"[" * 70 + b"]" * 70 + b"}]}",
        b"\xff\xfe not utf-8",
        b'{"model": "m", "t": 1e999, "messages": [{"role": "user", "content": "hi"}]}',
        b'{"model": "m", "t": -1e400, "messages": [{"role": "user", "content": "hi"}]}',
    ],
    ids=[
        *("nan", "inf", "-inf", "surrogate-model", "surrogate-user", "deep-100k", "deep-70", "not-utf8"),
        *("1e999", "-1e400"),
    ],
)
def test_malformed_client_json_is_400_and_never_forwarded(raw: bytes, upstream: FakeOpenAIServer) -> None:
    guard = make_guard()
    resp = send(guard, upstream.url, raw)
    guard.close()
    assert resp.status_code == 400, resp.text
    assert resp.json()["error"]["type"] == "invalid_request_error"
    assert upstream.count == 0


def test_body_limit_gives_413_with_or_without_content_length(upstream: FakeOpenAIServer) -> None:
    guard = make_guard()
    big = json.dumps({**CHAT, "pad": "x" * 5000}).encode()

    async def go() -> list[httpx.Response]:
        async with client_for(guard, upstream.url, max_body_bytes=4096) as client:

            async def chunked() -> AsyncIterator[bytes]:
                for i in range(0, len(big), 1000):
                    yield big[i : i + 1000]

            return [
                await client.post(URL, content=big),
                await client.post(URL, content=chunked()),
                await client.post("/faithguard/check", content=big),
                await client.post(URL, json=CHAT),  # a small body still goes through
            ]

    statuses = [r.status_code for r in asyncio.run(go())]
    guard.close()
    assert statuses == [413, 413, 413, 200]
    assert upstream.count == 1


@pytest.mark.parametrize(
    ("behaviour", "status"),
    [
        (faults.stall, 504),
        (faults.reset_mid_body, 502),
        (faults.short_body, 502),
        (faults.bad_gzip, 502),
        (faults.non_text_content, 502),
        (faults.deep_json, 502),
        (faults.overflowing_number, 502),
    ],
)
def test_upstream_faults_give_502_or_504_with_a_closed_error_span(
    behaviour: faults.Behaviour, status: int, traced: tuple[Guard, InMemorySpanExporter]
) -> None:
    guard, exporter = traced
    with faults.FaultServer(behaviour) as srv:
        resp = send(guard, srv.url, timeout=1.0)
    assert resp.status_code == status, resp.text
    assert resp.json()["error"]["type"] == "upstream_error"
    [root] = roots(exporter)
    assert root.end_time is not None and root.status.status_code is StatusCode.ERROR
    chat = next(s for s in exporter.get_finished_spans() if s.name == "chat m")
    assert chat.status.status_code is StatusCode.ERROR


def test_gzipped_upstream_answer_is_read(traced: tuple[Guard, InMemorySpanExporter]) -> None:
    guard, _ = traced
    with faults.FaultServer(faults.gzipped_answer) as srv:
        resp = send(guard, srv.url, scoring="inline")
    assert resp.status_code == 200
    assert resp.json()["choices"][0]["message"]["content"] == GOOD
    assert resp.headers["x-faithguard-band"] == "aligned"


def stream_lines(guard: Guard, upstream: str, **kwargs: Any) -> list[str]:
    async def go() -> list[str]:
        async with (
            client_for(guard, upstream, **kwargs) as client,
            client.stream("POST", URL, json={**CHAT, "stream": True}) as resp,
        ):
            assert resp.status_code == 200
            return [line async for line in resp.aiter_lines() if line.startswith("data: ")]

    return asyncio.run(go())


def test_deeply_nested_sse_line_does_not_cut_the_stream(traced: tuple[Guard, InMemorySpanExporter]) -> None:
    guard, exporter = traced
    with faults.FaultServer(faults.stream_with_deep_line) as srv:
        lines = stream_lines(guard, srv.url)
    assert lines[-1] == "data: [DONE]"
    text = ""
    for line in lines[:-1]:
        with contextlib.suppress(ValueError, RecursionError, KeyError, IndexError):
            text += json.loads(line[6:])["choices"][0]["delta"].get("content") or ""
    assert text == GOOD  # every chunk after the odd line arrived
    [root] = roots(exporter)  # unscored (a line could not be read) but closed
    assert root.end_time is not None


def test_stream_that_stalls_ends_with_an_error_event(traced: tuple[Guard, InMemorySpanExporter]) -> None:
    import openai

    guard, exporter = traced
    with faults.FaultServer(faults.stream_then_stall) as srv:
        lines = stream_lines(guard, srv.url, timeout=1.0)
        assert json.loads(lines[-1][6:])["error"]["code"] == "gateway_timeout"

        # an OpenAI SDK client sees the failure as an error, not as a short answer
        async def sdk() -> None:
            async with client_for(guard, srv.url, timeout=1.0) as http:
                client = openai.AsyncOpenAI(base_url="http://proxy/v1", api_key="k", http_client=http, max_retries=0)
                stream = await client.chat.completions.create(stream=True, **CHAT)  # type: ignore[call-overload]
                async for _ in stream:
                    pass

        with pytest.raises(openai.APIError):
            asyncio.run(sdk())
    assert all(s.end_time is not None and s.status.status_code is StatusCode.ERROR for s in roots(exporter))


def test_stream_cut_mid_line_ends_with_a_readable_error_event(traced: tuple[Guard, InMemorySpanExporter]) -> None:
    guard, exporter = traced
    with faults.FaultServer(faults.stream_cut_mid_line) as srv:
        lines = stream_lines(guard, srv.url, timeout=5.0)
    assert json.loads(lines[-1][6:])["error"]["type"] == "upstream_error"  # not glued to the cut-off line
    assert all(s.end_time is not None and s.status.status_code is StatusCode.ERROR for s in roots(exporter))


def test_large_bodies_are_read_strictly_off_the_event_loop(upstream: FakeOpenAIServer) -> None:
    guard = make_guard()
    many = {**CHAT, "messages": CHAT["messages"] * 3000}  # well past the inline-parse size
    nan = json.dumps(many).encode()[:-1] + b', "temperature": NaN}'

    async def go() -> list[httpx.Response]:
        async with client_for(guard, upstream.url, scoring="inline") as client:
            return [await client.post(URL, json=many), await client.post(URL, content=nan)]

    ok, bad = asyncio.run(go())
    guard.close()
    assert len(json.dumps(many)) > 64 * 1024
    assert ok.status_code == 200 and ok.headers["x-faithguard-band"] == "aligned"
    assert bad.status_code == 400 and "NaN" in bad.json()["error"]["message"]


def test_a_body_that_never_finishes_arriving_gets_408(upstream: FakeOpenAIServer) -> None:
    guard = make_guard()
    body = json.dumps(CHAT).encode()

    async def trickle() -> AsyncIterator[bytes]:
        yield body[:10]
        await asyncio.sleep(30)  # the deadline (0.5 s) ends the wait long before this
        yield body[10:]

    async def go() -> httpx.Response:
        async with client_for(guard, upstream.url, timeout=0.5) as client:
            return await client.post(URL, content=trickle(), headers={"content-type": "application/json"})

    resp = asyncio.run(go())
    guard.close()
    assert resp.status_code == 408
    assert upstream.count == 0


def test_credentials_in_upstream_url_are_never_logged_or_returned(
    guard: Guard, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG, logger="faithguard")
    with faults.FaultServer(faults.reset_mid_body) as srv:
        port = srv.url.split(":")[2].split("/")[0]
        resp = send(guard, f"http://alice:s3cr3t-pw@127.0.0.1:{port}/v1?api-key=k3y-value")
    assert resp.status_code == 502
    assert srv.requests and b"Authorization: Basic" in srv.requests[0]  # the credentials were used...
    logged = " ".join(r.getMessage() for r in caplog.records)
    for secret in ("s3cr3t-pw", "alice", "k3y-value"):
        assert secret not in resp.text and secret not in logged  # ...but never shown
    assert "127.0.0.1" in logged


def test_upstream_deadline_bounds_a_slow_first_byte(guard: Guard) -> None:
    import time

    with faults.FaultServer(faults.stall) as srv:
        started = time.monotonic()
        resp = send(guard, srv.url, timeout=0.5)
        elapsed = time.monotonic() - started
    assert resp.status_code == 504
    assert elapsed < 10  # the stall lasts 30 s; the deadline cut it (a bound, not a timing assertion)


def test_stream_never_started_still_closes_its_guard_span(
    traced: tuple[Guard, InMemorySpanExporter], upstream: FakeOpenAIServer
) -> None:
    """A client that leaves before the first chunk: the body is never iterated, the span still ends."""
    import gc

    from faithguard.integrations.proxy import create_app
    from faithguard.integrations.session import GuardedCall

    guard, exporter = traced
    app = create_app(guard, upstream.url, warmup=False)

    async def go() -> None:
        proxy = app.state.proxy
        call = GuardedCall(guard, messages=CHAT["messages"], model="m")  # type: ignore[arg-type]
        async with httpx.AsyncClient() as client:
            resp = await client.send(
                client.build_request("POST", upstream.url + "/chat/completions", json=CHAT), stream=True
            )
            response = proxy._stream(call, resp, URL)
            del response  # never sent: as when the client disconnects before the body starts
            gc.collect()
            await resp.aclose()

    asyncio.run(go())
    [root] = roots(exporter)
    assert root.end_time is not None and root.status.status_code is StatusCode.ERROR


@pytest.mark.parametrize(
    ("behaviour", "reason"),
    [
        (faults.stream_then_error_event, "stream_error"),  # the upstream failed mid-answer
        (faults.stream_cut_clean, "stream_incomplete"),  # no finish reason, no [DONE]: cut short
    ],
)
def test_a_stream_that_breaks_off_is_not_scored_as_the_answer(
    traced: tuple[Guard, InMemorySpanExporter], behaviour: faults.Behaviour, reason: str
) -> None:
    """What came before an error event or a cut is not the answer: the report is undetermined, never ok."""
    guard, exporter = traced
    reports: list[Any] = []
    with faults.FaultServer(behaviour) as srv:
        scored_stream(guard, srv.url, on_report=reports.append)
    [report] = reports
    assert report.outcome == "undetermined" and not report.perfect
    assert any(r.startswith(reason) for r in report.outcome_reasons)
    assert all(s.end_time is not None for s in roots(exporter))


def scored_stream(guard: Guard, upstream: str, **kwargs: Any) -> list[str]:
    """A streamed request's data lines, once the proxy has scored the stream (its queue joined)."""
    from faithguard.integrations.proxy import create_app

    async def go() -> list[str]:
        app = create_app(guard, upstream, warmup=False, **kwargs)
        transport = httpx.ASGITransport(app=app)
        async with (
            app.router.lifespan_context(app),
            httpx.AsyncClient(transport=transport, base_url="http://proxy") as client,
        ):
            async with client.stream("POST", URL, json={**CHAT, "stream": True}) as resp:
                assert resp.status_code == 200
                lines = [line async for line in resp.aiter_lines() if line.startswith("data: ")]
            assert await asyncio.to_thread(app.state.proxy.scoring.join, 30)
            return lines

    return asyncio.run(go())


def test_a_stream_request_answered_with_one_json_completion_is_scored_on_it(
    traced: tuple[Guard, InMemorySpanExporter],
) -> None:
    guard, _ = traced
    reports: list[Any] = []
    with faults.FaultServer(faults.json_for_stream) as srv:
        scored_stream(guard, srv.url, on_report=reports.append)
    [report] = reports
    assert report.response == "Visit the Louvre museum in Paris."  # not an empty answer with an omission
    assert not [v for v in report.verdicts if v.kind == "omission"]


@pytest.mark.parametrize("behaviour", [faults.short_body, faults.reset_mid_body])
def test_a_failed_call_reaches_on_report(
    traced: tuple[Guard, InMemorySpanExporter], behaviour: faults.Behaviour
) -> None:
    guard, _ = traced
    reports: list[Any] = []
    with faults.FaultServer(behaviour) as srv:
        resp = send(guard, srv.url, on_report=reports.append)
    assert resp.status_code in (502, 504)
    [report] = reports
    assert report.outcome == "undetermined" and any(r.startswith("call_failed") for r in report.outcome_reasons)
