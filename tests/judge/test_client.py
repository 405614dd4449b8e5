"""The OpenAI-compatible client against a real local HTTP server."""

from __future__ import annotations

import asyncio
import json
import socket
from typing import Any

import httpx
import pytest
from opentelemetry.trace import SpanKind, StatusCode

from faithguard.errors import JudgeError, JudgeOutputError, JudgeUnavailable
from faithguard.judge import Judge, JudgeConfig
from faithguard.judge.client import (
    OpenAIChatClient,
    backoff_delay,
    build_request_body,
    parse_response,
    retry_after_seconds,
)
from faithguard.judge.testing import Reply
from faithguard.models import Category, Tier

KEY = "sk-test-SECRET-0123456789abcdef"


def make_judge(server: Any, no_sleep: list[float], tracer: Any = None, **overrides: Any) -> Judge:
    settings: dict[str, Any] = {
        "base_url": server.base_url,
        "model": "judge-m",
        "api_key": KEY,
        "max_retries": 2,
        "backoff_base": 0.01,
        "timeout": 5.0,
        **overrides,
    }
    return Judge.from_config(JudgeConfig(**settings), tracer=tracer, sleep=no_sleep.append)


def test_decompose_success_and_wire_format(chat_server, no_sleep, ctx, decomposition_payload) -> None:
    server = chat_server(decomposition_payload)
    judge = make_judge(server, no_sleep)
    dec = judge.decompose(ctx)
    assert dec.decomposer == "judge:judge-m"
    assert [c.id for c in dec.constraints] == ["c1", "c2", "c3", "c4"]
    assert [c.tier for c in dec.constraints] == [Tier.MANDATORY, Tier.MANDATORY, Tier.IMPORTANT, Tier.OPTIONAL]
    assert dec.constraints[1].category is Category.LOCATION
    assert dec.constraints[3].negated is True
    assert dec.constraints[3].subquestion == 0  # clamped to the only sub-question
    assert dec.task == "list"
    assert dec.subquestions[0].position == 0.0
    path, headers, body = server.requests[0]
    assert path == "/v1/chat/completions"
    assert headers["Authorization"] == f"Bearer {KEY}"
    fmt = body["response_format"]
    assert fmt["type"] == "json_schema"
    assert fmt["json_schema"]["name"] == "faithguard_decomposition"
    assert fmt["json_schema"]["strict"] is True
    schema = fmt["json_schema"]["schema"]
    assert schema["additionalProperties"] is False
    assert set(schema["required"]) == set(schema["properties"])
    assert body["model"] == "judge-m" and body["temperature"] == 0.0
    judge.close()


def test_malformed_then_repair(chat_server, no_sleep, ctx, decomposition_payload) -> None:
    server = chat_server("this is not JSON at all", decomposition_payload)
    judge = make_judge(server, no_sleep)
    dec = judge.decompose(ctx)
    assert len(dec.constraints) == 4
    assert len(server.requests) == 2
    repair = server.requests[1][2]["messages"]
    assert repair[-2] == {"role": "assistant", "content": "this is not JSON at all"}
    assert "could not be used" in repair[-1]["content"]


def test_schema_mismatch_twice_raises_output_error(chat_server, no_sleep, ctx) -> None:
    server = chat_server({"constraints": "nope"}, '```json\n{"still": "wrong"}\n```')
    judge = make_judge(server, no_sleep)
    with pytest.raises(JudgeOutputError) as info:
        judge.decompose(ctx)
    assert "after one repair" in str(info.value)
    assert "missing_content" in server.requests[1][2]["messages"][-1]["content"]
    assert len(server.requests) == 2


def test_429_retry_after_within_the_cap_is_honoured(chat_server, no_sleep, ctx, decomposition_payload) -> None:
    server = chat_server(Reply(status=429, headers={"Retry-After": "1"}, raw_body="{}"), decomposition_payload)
    judge = make_judge(server, no_sleep, retry_after_cap=2.0)
    judge.decompose(ctx)
    assert no_sleep == [1.0]
    assert len(server.requests) == 2


def test_429_retry_after_beyond_the_cap_degrades_now(chat_server, no_sleep, ctx, decomposition_payload) -> None:
    server = chat_server(Reply(status=429, headers={"Retry-After": "3600"}, raw_body="{}"), decomposition_payload)
    judge = make_judge(server, no_sleep, retry_after_cap=5.0)
    with pytest.raises(JudgeUnavailable, match="exceeds the judge's cap"):
        judge.decompose(ctx)
    assert no_sleep == [] and len(server.requests) == 1


def test_retry_after_beyond_the_call_budget_degrades_now(chat_server, no_sleep, ctx, decomposition_payload) -> None:
    server = chat_server(Reply(status=503, headers={"Retry-After": "4"}, raw_body="{}"), decomposition_payload)
    judge = make_judge(server, no_sleep, retry_after_cap=10.0, call_budget=3.0)
    with pytest.raises(JudgeUnavailable, match="call budget"):
        judge.decompose(ctx)
    assert no_sleep == [] and len(server.requests) == 1


def test_500_then_success_uses_jittered_backoff(chat_server, no_sleep, ctx, decomposition_payload) -> None:
    server = chat_server(Reply(status=500, raw_body="boom"), decomposition_payload)
    judge = make_judge(server, no_sleep, backoff_base=0.1)
    judge.decompose(ctx)
    assert len(no_sleep) == 1 and 0.05 <= no_sleep[0] <= 0.15


def test_persistent_503_becomes_unavailable_after_retries(chat_server, no_sleep, ctx) -> None:
    server = chat_server(*[Reply(status=503, raw_body="down")] * 3)
    judge = make_judge(server, no_sleep, max_retries=2)
    with pytest.raises(JudgeUnavailable) as info:
        judge.decompose(ctx)
    assert "503" in str(info.value)
    assert len(server.requests) == 3 and len(no_sleep) == 2


def test_client_error_is_not_retried(chat_server, no_sleep, ctx) -> None:
    server = chat_server(Reply(status=401, raw_body=json.dumps({"error": f"bad key {KEY}"})))
    judge = make_judge(server, no_sleep)
    with pytest.raises(JudgeError) as info:
        judge.decompose(ctx)
    assert not isinstance(info.value, JudgeUnavailable)
    assert "authentication failed" in str(info.value)
    assert len(server.requests) == 1


def test_slow_reply_times_out(chat_server, no_sleep, ctx, decomposition_payload) -> None:
    server = chat_server(Reply(content=decomposition_payload, delay=1.5))
    judge = make_judge(server, no_sleep, timeout=0.2, max_retries=0)
    with pytest.raises(JudgeUnavailable) as info:
        judge.decompose(ctx)
    assert isinstance(info.value.__cause__, httpx.ReadTimeout)


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_connection_refused(no_sleep, ctx) -> None:
    config = JudgeConfig(base_url=f"http://127.0.0.1:{_closed_port()}/v1", model="m", max_retries=1, backoff_base=0.01)
    judge = Judge.from_config(config, sleep=no_sleep.append)
    with pytest.raises(JudgeUnavailable) as info:
        judge.decompose(ctx)
    assert isinstance(info.value.__cause__, httpx.ConnectError)
    assert len(no_sleep) == 1


def test_spans_carry_genai_attributes(chat_server, no_sleep, ctx, decomposition_payload, spans) -> None:
    provider, exporter = spans
    server = chat_server(decomposition_payload, Reply(status=500, raw_body="x"))
    judge = make_judge(server, no_sleep, tracer=provider, max_retries=0)
    judge.decompose(ctx)
    with pytest.raises(JudgeUnavailable):
        judge.decompose(ctx)
    ok, failed = exporter.get_finished_spans()
    assert ok.name == "chat judge-m" and ok.kind is SpanKind.CLIENT
    attrs = dict(ok.attributes or {})
    assert attrs["gen_ai.operation.name"] == "chat"
    assert attrs["gen_ai.provider.name"] == "openai_compatible"
    assert attrs["gen_ai.request.model"] == "judge-m"
    assert attrs["gen_ai.response.id"].startswith("chatcmpl-")
    assert attrs["gen_ai.usage.input_tokens"] == 11 and attrs["gen_ai.usage.output_tokens"] == 7
    assert attrs["server.address"] == "127.0.0.1" and attrs["server.port"] == server.port
    fattrs = dict(failed.attributes or {})
    assert fattrs["error.type"] == "500"
    assert failed.status.status_code is StatusCode.ERROR


def test_async_twins(chat_server, no_sleep, ctx, decomposition_payload, satisfaction_payload) -> None:
    server = chat_server(
        decomposition_payload, Reply(status=502, raw_body="x"), satisfaction_payload(("c1", True), ("c2", False))
    )
    delays: list[float] = []

    async def fake_sleep(seconds: float) -> None:
        delays.append(seconds)

    config = JudgeConfig(base_url=server.base_url, model="judge-m", backoff_base=0.01)
    judge = Judge.from_config(config, async_sleep=fake_sleep)

    async def run() -> Any:
        dec = await judge.adecompose(ctx)
        statuses = await judge.asatisfy(ctx, ctx.constraints[:2])
        return dec, statuses

    dec, statuses = asyncio.run(run())
    assert len(dec.constraints) == 4
    assert statuses["c1"][0] == "satisfied" and statuses["c2"][0] == "violated"
    assert len(delays) == 1


def test_pure_helpers() -> None:
    body = build_request_body("m", [{"role": "user", "content": "hi"}], "n", {"type": "object"}, max_tokens=9)
    assert body["response_format"]["json_schema"] == {"name": "n", "strict": True, "schema": {"type": "object"}}
    assert body["max_tokens"] == 9
    with pytest.raises(JudgeOutputError):
        parse_response({"choices": []})
    with pytest.raises(JudgeOutputError):
        parse_response({"choices": [{"message": {"content": None, "refusal": "no"}}]})
    assert parse_response({"choices": [{"message": {"content": "x"}}]}).input_tokens is None
    assert retry_after_seconds("3") == 3.0
    assert retry_after_seconds("garbage") is None
    assert retry_after_seconds("Wed, 21 Oct 2015 07:28:00 GMT", now=1445412470.0) == 10.0
    import random

    rng = random.Random(1)
    assert all(0.5 <= backoff_delay(0, 1.0, 100.0, rng) <= 1.5 for _ in range(50))
    assert backoff_delay(10, 1.0, 3.0, rng) == 3.0


def test_client_repr_hides_key() -> None:
    client = OpenAIChatClient(JudgeConfig(base_url="http://127.0.0.1:9/v1", model="m", api_key=KEY))
    assert KEY not in repr(client)


def test_a_reply_arriving_a_byte_at_a_time_ends_at_the_call_budget(chat_server, no_sleep, ctx, decomposition_payload):  # type: ignore[no-untyped-def]
    # every read returns within the read timeout, so only the call's own deadline can stop it (helper 92: a budget of
    # 3 s took 69.5 s, and the reply then counted as a success)
    server = chat_server(Reply(content=decomposition_payload, drip=0.02))
    judge = make_judge(server, no_sleep, call_budget=0.5, max_retries=0)
    with pytest.raises(JudgeUnavailable, match="call budget"):
        judge.decompose(ctx)


def test_async_reply_arriving_a_byte_at_a_time_ends_at_the_call_budget(
    chat_server, no_sleep, ctx, decomposition_payload
):  # type: ignore[no-untyped-def]
    server = chat_server(Reply(content=decomposition_payload, drip=0.02))
    judge = make_judge(server, no_sleep, call_budget=0.5, max_retries=0)
    with pytest.raises(JudgeUnavailable, match="call budget"):
        asyncio.run(judge.adecompose(ctx))


def test_a_reply_over_the_size_cap_is_not_read_whole(chat_server, no_sleep, ctx) -> None:
    from faithguard.judge.client import MAX_REPLY_BYTES

    huge = '{"choices": [{"message": {"role": "assistant", "content": "{}"}}], "pad": "' + "x" * MAX_REPLY_BYTES + '"}'
    server = chat_server(Reply(raw_body=huge))
    judge = make_judge(server, no_sleep, max_retries=0)
    with pytest.raises(JudgeOutputError, match="over"):
        judge.decompose(ctx)


def test_credentials_in_the_base_url_are_sent_as_a_header_and_never_shown(
    chat_server, no_sleep, ctx, decomposition_payload, caplog
):  # type: ignore[no-untyped-def]
    import base64
    import logging

    server = chat_server(Reply(content=decomposition_payload))
    url = server.base_url.replace("http://", "http://admin:pa55word@")
    config = JudgeConfig(base_url=url, model="judge-m", max_retries=0)
    client = OpenAIChatClient(config)
    assert "pa55word" not in repr(config) and "pa55word" not in repr(client)
    with caplog.at_level(logging.DEBUG):
        Judge.from_config(config, sleep=no_sleep.append).decompose(ctx)
    assert "pa55word" not in caplog.text  # httpx logs each request with its URL
    (_, headers, _) = server.requests[0]
    sent = {k.lower(): v for k, v in headers.items()}["authorization"]
    assert sent == "Basic " + base64.b64encode(b"admin:pa55word").decode()


def test_credentials_in_the_url_win_over_a_key_from_the_environment(chat_server, decomposition_payload) -> None:  # type: ignore[no-untyped-def]
    import base64

    server = chat_server(Reply(content=decomposition_payload))
    url = server.base_url.replace("http://", "http://user:pw@")
    client = OpenAIChatClient(JudgeConfig(base_url=url, model="m", max_retries=0), environ={"OPENAI_API_KEY": "sk-x"})
    client.chat([{"role": "user", "content": "hi"}], "x", {"type": "object"}, temperature=0)
    (_, headers, _) = server.requests[0]
    sent = {k.lower(): v for k, v in headers.items()}["authorization"]
    assert sent == "Basic " + base64.b64encode(b"user:pw").decode()  # the key is never sent to that host


def test_an_error_reply_over_the_size_cap_is_still_judged_by_its_status(
    chat_server, no_sleep, ctx, decomposition_payload
):  # type: ignore[no-untyped-def]
    from faithguard.judge.client import MAX_REPLY_BYTES

    server = chat_server(
        Reply(status=503, raw_body="<html>" + "x" * MAX_REPLY_BYTES), Reply(content=decomposition_payload)
    )
    judge = make_judge(server, no_sleep, max_retries=1)
    judge.decompose(ctx)  # retried after the 503, as before the cap
    assert len(server.requests) == 2


def test_a_base_url_with_a_query_keeps_it_after_the_path(chat_server, no_sleep, ctx, decomposition_payload) -> None:
    # "https://host/openai/deployments/x?api-version=...": the query went into the path (helper 95)
    server = chat_server(decomposition_payload)
    judge = make_judge(server, no_sleep, base_url=server.base_url + "/?api-version=2024-06-01")
    judge.decompose(ctx)
    path, _headers, _body = server.requests[0]
    assert path == "/v1/chat/completions?api-version=2024-06-01"
