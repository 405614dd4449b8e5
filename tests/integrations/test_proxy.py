"""The guarding proxy against a real fake upstream on 127.0.0.1."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import socket
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from integ_support import BAD, GOOD, make_guard, missing_content_detector

from faithguard import Guard, Policy, Report
from faithguard.integrations.fake_upstream import FakeOpenAIServer
from faithguard.integrations.prometheus import prometheus_metrics
from faithguard.integrations.proxy import create_app

QUESTION = {"role": "user", "content": "Which museum in Paris should I visit?"}
CHAT = {"model": "m", "messages": [QUESTION]}


@contextlib.asynccontextmanager
async def proxy(guard: Guard, upstream: str, **kwargs: Any) -> AsyncIterator[httpx.AsyncClient]:
    """A test client for the proxy app; the app's upstream client is closed afterwards."""
    async with httpx.AsyncClient() as upstream_client:
        app = create_app(guard, upstream, http_client=upstream_client, **kwargs)
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://proxy") as client:
            yield client
        # reports scored in the background are delivered before the test reads them
        assert await asyncio.to_thread(app.state.proxy.scoring.join, 30)


def post(guard: Guard, upstream: str, body: object, headers: dict[str, str] | None = None, **kw: Any) -> httpx.Response:
    async def go() -> httpx.Response:
        async with proxy(guard, upstream, **kw) as client:
            return await client.post("/v1/chat/completions", json=body, headers=headers or {})

    return asyncio.run(go())


def test_observe_passes_answer_through_with_verdict_headers(guard: Guard, upstream: FakeOpenAIServer) -> None:
    reports: list[Report] = []
    resp = post(guard, upstream.url, CHAT, on_report=reports.append, scoring="inline")
    assert resp.status_code == 200
    body = resp.json()
    assert body["choices"][0]["message"]["content"] == GOOD
    assert "faithguard" not in body  # observe never changes the body
    assert resp.headers["x-faithguard-score"] == "10.00"
    assert resp.headers["x-faithguard-band"] == "aligned"
    assert resp.headers["x-faithguard-verdicts"] == ""
    assert reports and reports[0].response == GOOD


def test_annotate_adds_faithguard_field(guard: Guard, bad_upstream: FakeOpenAIServer) -> None:
    resp = post(guard, bad_upstream.url, CHAT, policy=Policy.annotate())
    body = resp.json()
    assert body["choices"][0]["message"]["content"] == BAD
    assert body["faithguard"]["score"] == 0.0
    assert [v["kind"] for v in body["faithguard"]["verdicts"]] == ["omission"]
    assert resp.headers["x-faithguard-verdicts"] == "omission"
    assert resp.headers["x-faithguard-band"] == "hallucinated"


def test_block_returns_wellformed_completion(guard: Guard, bad_upstream: FakeOpenAIServer) -> None:
    resp = post(guard, bad_upstream.url, CHAT, policy=Policy.block(["omission"], fallback="Not sure, sorry."))
    body = resp.json()
    assert resp.status_code == 200
    assert body["object"] == "chat.completion"
    assert body["choices"][0]["message"] == {"role": "assistant", "content": "Not sure, sorry."}
    assert body["choices"][0]["finish_reason"] == "content_filter"
    assert body["faithguard"]["action"] == "block"
    assert resp.headers["x-faithguard-action"] == "block"


def test_block_without_fallback_uses_default_text(guard: Guard, bad_upstream: FakeOpenAIServer) -> None:
    body = post(guard, bad_upstream.url, CHAT, policy=Policy.block(["omission"]), block_text="Blocked.").json()
    assert body["choices"][0]["message"]["content"] == "Blocked."


def test_input_block_never_reaches_upstream(upstream: FakeOpenAIServer) -> None:
    guard = make_guard(extra=[missing_content_detector()])
    policy = Policy.block(["missing_content"])
    body = {"model": "m", "messages": [{"role": "user", "content": "Summarise the text below."}]}
    resp = post(guard, upstream.url, body, policy=policy)
    assert resp.json()["choices"][0]["message"]["content"] == "Please paste the text you want summarised."
    assert resp.headers["x-faithguard-blocked"] == "input"
    stream = post(guard, upstream.url, {**body, "stream": True}, policy=policy)
    events = [line for line in stream.text.splitlines() if line.startswith("data: ")]
    assert events[-1] == "data: [DONE]"
    assert json.loads(events[0][6:])["choices"][0]["delta"]["content"].startswith("Please paste")
    assert upstream.count == 0
    guard.close()


def test_streaming_passes_chunks_and_scores_at_end(guard: Guard, bad_upstream: FakeOpenAIServer) -> None:
    reports: list[Report] = []
    resp = post(guard, bad_upstream.url, {**CHAT, "stream": True}, on_report=reports.append)
    assert resp.status_code == 200
    assert resp.headers["content-type"].startswith("text/event-stream")
    datas = [line[6:] for line in resp.text.splitlines() if line.startswith("data: ")]
    assert datas[-1] == "[DONE]"
    text = "".join(json.loads(d)["choices"][0]["delta"].get("content") or "" for d in datas[:-1])
    assert text == BAD
    assert len(reports) == 1 and reports[0].response == BAD
    assert [v.kind for v in reports[0].verdicts] == ["omission"]


def test_documents_extension_is_used_and_not_forwarded(guard: Guard, upstream: FakeOpenAIServer) -> None:
    reports: list[Report] = []
    body = {**CHAT, "faithguard": {"documents": ["The Louvre is in Paris."]}}
    assert post(guard, upstream.url, body, on_report=reports.append).status_code == 200
    assert "faithguard" not in upstream.requests[-1]["body"]
    assert reports[0].findings["documents_seen"] == 1


def test_authorization_passes_through_and_is_never_logged(
    guard: Guard, upstream: FakeOpenAIServer, caplog: pytest.LogCaptureFixture
) -> None:
    secret = "sk-test-0123456789abcdef"
    caplog.set_level(logging.DEBUG)
    resp = post(guard, upstream.url, CHAT, {"Authorization": f"Bearer {secret}"})
    assert resp.status_code == 200
    assert upstream.requests[-1]["headers"].get("authorization") == f"Bearer {secret}"
    assert any(r.name == "faithguard.proxy" for r in caplog.records)  # the proxy did log the request...
    assert all(secret not in r.getMessage() for r in caplog.records)  # ...but never the key


def test_upstream_down_gives_502(guard: Guard) -> None:
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    resp = post(guard, f"http://127.0.0.1:{port}/v1", CHAT)
    assert resp.status_code == 502
    err = resp.json()["error"]
    assert err["type"] == "upstream_error" and "ConnectError" in err["message"]


def test_upstream_error_status_is_passed_through(guard: Guard) -> None:
    with FakeOpenAIServer(["x"], status=503) as srv:
        resp = post(guard, srv.url, CHAT)
    assert resp.status_code == 503
    assert resp.json()["error"]["message"] == "scripted failure"


def test_bad_json_and_bad_shape_give_400(guard: Guard, upstream: FakeOpenAIServer) -> None:
    async def go() -> list[httpx.Response]:
        async with proxy(guard, upstream.url) as client:
            url = "/v1/chat/completions"
            return [
                await client.post(url, content=b"{not json", headers={"content-type": "application/json"}),
                await client.post(url, json={"model": "m"}),
                await client.post(url, json={"messages": [QUESTION], "faithguard": {"documents": "x"}}),
            ]

    for resp in asyncio.run(go()):
        assert resp.status_code == 400
        assert resp.json()["error"]["type"] == "invalid_request_error"
    assert upstream.count == 0


def test_unguardable_messages_are_forwarded_unscored(guard: Guard, upstream: FakeOpenAIServer) -> None:
    resp = post(guard, upstream.url, {"model": "m", "messages": [{"role": "system", "content": "no user turn"}]})
    assert resp.status_code == 200
    assert resp.headers["x-faithguard-band"] == "unscored"
    assert upstream.count == 1


def test_healthz_metrics_and_passthrough(upstream: FakeOpenAIServer) -> None:
    metrics = prometheus_metrics()
    guard = make_guard(meter_provider=metrics.meter_provider)

    async def go() -> tuple[str, httpx.Response, httpx.Response]:
        async with proxy(guard, upstream.url, metrics=metrics, scoring="inline") as client:
            assert (await client.get("/healthz")).json()["status"] == "ok"
            await client.post("/v1/chat/completions", json=CHAT)
            text = (await client.get("/metrics")).text
            models = await client.get("/v1/models")
        async with proxy(guard, upstream.url) as client:
            none = await client.get("/metrics")
        return text, models, none

    text, models, none = asyncio.run(go())
    assert 'faithguard_checks_total{faithguard_band="aligned"' in text
    assert "faithguard_constraint_score_bucket" in text
    assert models.json()["data"][0]["id"] == "fake-1"
    assert none.status_code == 404
    guard.close()


def test_real_socket_roundtrip_with_uvicorn(guard: Guard, upstream: FakeOpenAIServer) -> None:
    """The app (owning its upstream client) served by uvicorn on loopback, streamed through a real socket."""
    import uvicorn

    async def go() -> bytes:
        config = uvicorn.Config(create_app(guard, upstream.url), host="127.0.0.1", port=0, log_level="warning")
        server = uvicorn.Server(config)
        task = asyncio.create_task(server.serve())
        while not server.started:
            await asyncio.sleep(0.01)
        port = server.servers[0].sockets[0].getsockname()[1]
        chunks: list[bytes] = []
        body = {**CHAT, "stream": True}
        async with (
            httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}") as client,
            client.stream("POST", "/v1/chat/completions", json=body) as resp,
        ):
            async for chunk in resp.aiter_bytes():
                chunks.append(chunk)
        server.should_exit = True
        await task
        return b"".join(chunks)

    data = asyncio.run(go())
    assert data.rstrip().endswith(b"data: [DONE]")
    assert data.count(b"chat.completion.chunk") == len(GOOD.split(" ")) + 2


_SHARED_GUARD = make_guard()


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(raw=st.binary(max_size=300))
def test_arbitrary_bodies_never_crash(raw: bytes) -> None:
    async def go() -> httpx.Response:
        async with proxy(_SHARED_GUARD, "http://127.0.0.1:9/v1") as client:
            return await client.post("/v1/chat/completions", content=raw)

    assert asyncio.run(go()).status_code in (400, 502)
