"""The official openai client, wrapped, against a real OpenAI-compatible server on 127.0.0.1."""

from __future__ import annotations

import asyncio

import openai
import pytest
from integ_support import BAD, GOOD, make_guard, missing_content_detector
from openai.types.chat import ChatCompletion

from faithguard import Guard, HallucinationBlocked, InputError, Policy, Report
from faithguard.integrations.fake_upstream import FakeOpenAIServer
from faithguard.integrations.openai import unwrap, wrap

MESSAGES = [{"role": "user", "content": "Which museum in Paris should I visit?"}]


def _client(srv: FakeOpenAIServer) -> openai.OpenAI:
    return openai.OpenAI(base_url=srv.url, api_key="sk-test", max_retries=0)


def test_observe_returns_sdk_object_and_reports(guard: Guard, upstream: FakeOpenAIServer) -> None:
    reports: list[Report] = []
    with _client(upstream) as client:
        wrap(client, guard, on_report=reports.append)
        result = client.chat.completions.create(model="m", messages=MESSAGES)  # type: ignore[arg-type]
    assert isinstance(result, ChatCompletion)
    assert result.choices[0].message.content == GOOD
    assert not hasattr(result, "faithguard_report")
    assert reports[0].constraint_score == 10.0


def test_documents_kw_is_popped(guard: Guard, upstream: FakeOpenAIServer) -> None:
    reports: list[Report] = []
    with _client(upstream) as client:
        wrap(client, guard, on_report=reports.append)
        client.chat.completions.create(model="m", messages=MESSAGES, documents=["Louvre, Paris"])  # type: ignore[call-overload]
    assert "documents" not in upstream.requests[-1]["body"]
    assert reports[0].findings["documents_text"] == "Louvre, Paris"


def test_annotate_attaches_report(guard: Guard, bad_upstream: FakeOpenAIServer) -> None:
    with _client(bad_upstream) as client:
        wrap(client, guard, Policy.annotate())
        result = client.chat.completions.create(model="m", messages=MESSAGES)  # type: ignore[arg-type]
    assert isinstance(result, ChatCompletion)
    assert [v.kind for v in result.faithguard_report.verdicts] == ["omission"]  # type: ignore[attr-defined]
    assert result.model_dump()["choices"][0]["message"]["content"] == BAD


def test_block_raises_or_falls_back(guard: Guard, bad_upstream: FakeOpenAIServer) -> None:
    with _client(bad_upstream) as client:
        wrap(client, guard, Policy.block(["omission"]))
        with pytest.raises(HallucinationBlocked) as info:
            client.chat.completions.create(model="m", messages=MESSAGES)  # type: ignore[arg-type]
        assert info.value.report.verdicts[0].kind == "omission"
        wrap(client, guard, Policy.block(["omission"], fallback="Unsure."))  # re-wrapping replaces, never nests
        result = client.chat.completions.create(model="m", messages=MESSAGES)  # type: ignore[arg-type]
    assert isinstance(result, ChatCompletion)
    assert result.choices[0].message.content == "Unsure."
    assert result.choices[0].finish_reason == "content_filter"
    assert bad_upstream.count == 2


def test_a_stream_blocked_at_the_end_raises_also_with_a_fallback(guard: Guard, bad_upstream: FakeOpenAIServer) -> None:
    with _client(bad_upstream) as client:
        wrap(client, guard, Policy.block(["omission"], fallback="Unsure."))
        stream = client.chat.completions.create(model="m", messages=MESSAGES, stream=True)  # type: ignore[arg-type]
        seen: list[object] = []
        with pytest.raises(HallucinationBlocked):
            seen.extend(stream)
    assert seen  # the answer's chunks came first: they cannot be taken back


def test_input_block_skips_the_call(upstream: FakeOpenAIServer) -> None:
    guard = make_guard(extra=[missing_content_detector()])
    with _client(upstream) as client:
        wrap(client, guard, Policy.block(["missing_content"]))
        result = client.chat.completions.create(model="m", messages=MESSAGES)  # type: ignore[arg-type]
        chunks = list(client.chat.completions.create(model="m", messages=MESSAGES, stream=True))  # type: ignore[arg-type]
    assert result.choices[0].message.content == "Please paste the text you want summarised."
    assert chunks[0].choices[0].delta.content == "Please paste the text you want summarised."
    assert upstream.count == 0
    guard.close()


def test_stream_passthrough_then_scored(guard: Guard, bad_upstream: FakeOpenAIServer) -> None:
    reports: list[Report] = []
    with _client(bad_upstream) as client:
        wrap(client, guard, on_report=reports.append)
        stream = client.chat.completions.create(model="m", messages=MESSAGES, stream=True)  # type: ignore[arg-type]
        assert isinstance(stream, openai.Stream)
        assert not reports  # nothing scored before the stream is read
        text = "".join(c.choices[0].delta.content or "" for c in stream if c.choices)
    assert text == BAD
    assert reports[0].response == BAD and reports[0].verdicts[0].kind == "omission"


def test_unwrap_restores(guard: Guard, upstream: FakeOpenAIServer) -> None:
    reports: list[Report] = []
    with _client(upstream) as client:
        original = client.chat.completions.create
        wrap(client, guard, on_report=reports.append)
        unwrap(client)
        assert client.chat.completions.create == original
        client.chat.completions.create(model="m", messages=MESSAGES)  # type: ignore[arg-type]
    assert reports == []


def test_async_client_and_async_stream(guard: Guard, bad_upstream: FakeOpenAIServer) -> None:
    reports: list[Report] = []

    async def go() -> tuple[object, str]:
        async with openai.AsyncOpenAI(base_url=bad_upstream.url, api_key="sk-test", max_retries=0) as client:
            wrap(client, guard, Policy.annotate(), on_report=reports.append)
            result = await client.chat.completions.create(model="m", messages=MESSAGES)  # type: ignore[arg-type]
            stream = await client.chat.completions.create(model="m", messages=MESSAGES, stream=True)  # type: ignore[arg-type]
            assert isinstance(stream, openai.AsyncStream)
            text = "".join([c.choices[0].delta.content or "" async for c in stream if c.choices])
        return result, text

    result, text = asyncio.run(go())
    assert result.faithguard_report.verdicts[0].kind == "omission"  # type: ignore[attr-defined]
    assert text == BAD
    assert len(reports) == 2


def test_upstream_error_propagates_unchanged(guard: Guard) -> None:
    with FakeOpenAIServer(["x"], status=500) as srv, _client(srv) as client:
        wrap(client, guard)
        with pytest.raises(openai.InternalServerError):
            client.chat.completions.create(model="m", messages=MESSAGES)  # type: ignore[arg-type]


def test_tool_call_passes_through_unscored_under_block(guard: Guard) -> None:
    """An agent step (content null + tool_calls) is neither blocked nor scored as an empty answer."""
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import SimpleSpanProcessor
    from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

    from faithguard.integrations.fake_upstream import tool_call_message

    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    traced = make_guard(tracer_provider=provider)
    reports: list[Report] = []
    reply = tool_call_message("weather", '{"city": "Paris"}')
    with FakeOpenAIServer([reply]) as srv, _client(srv) as client:
        wrap(client, traced, Policy.block(fallback="Blocked."), on_report=reports.append)
        result = client.chat.completions.create(model="m", messages=MESSAGES)  # type: ignore[arg-type]
        assert isinstance(result, ChatCompletion)
        assert result.choices[0].message.tool_calls is not None
        assert result.choices[0].message.tool_calls[0].function.name == "weather"
        assert result.choices[0].finish_reason == "tool_calls"
        chunks = list(client.chat.completions.create(model="m", messages=MESSAGES, stream=True))  # type: ignore[call-overload]
        assert chunks[-1].choices[0].finish_reason == "tool_calls"
    traced.close()
    assert reports == []  # nothing was scored: a tool call is not an answer
    chat = next(s for s in exporter.get_finished_spans() if s.name == "chat m")  # the non-streamed call
    assert chat.attributes is not None
    assert chat.attributes["faithguard.tool_calls"] == 1
    assert chat.attributes["gen_ai.response.finish_reasons"] == ("tool_calls",)
    assert chat.attributes["gen_ai.response.model"] == "m"
    roots = [s for s in exporter.get_finished_spans() if s.name.startswith("guard ")]
    assert len(roots) == 2 and all(s.end_time is not None for s in roots)  # both guard spans closed


def test_an_on_report_failure_never_breaks_the_call(guard: Guard) -> None:
    """An observer that raises is contained, as in ``guard.wrap``: the completion comes back and the report says
    what failed (streamed and not)."""
    seen: list[Report] = []

    def observer(report: Report) -> None:
        seen.append(report)
        raise RuntimeError("observer bug")

    with FakeOpenAIServer([GOOD, GOOD]) as srv, _client(srv) as client:
        wrap(client, guard, Policy.observe(), on_report=observer)
        result = client.chat.completions.create(model="m", messages=MESSAGES)  # type: ignore[arg-type]
        assert result.choices[0].message.content == GOOD
        chunks = list(client.chat.completions.create(model="m", messages=MESSAGES, stream=True))  # type: ignore[call-overload]
        assert "".join(c.choices[0].delta.content or "" for c in chunks if c.choices) == GOOD
    assert len(seen) == 2
    assert all(any("on_report" in str(e) for e in r.errors) for r in seen)


def _parts() -> object:
    """Message content as an iterator of parts: the SDK sends it, faithguard does not read it."""
    return iter([{"type": "text", "text": "Which museum in Paris should I visit?"}])


@pytest.mark.parametrize("stream", [False, True])
def test_a_request_faithguard_cannot_read_still_reaches_the_model_when_only_watched(
    guard: Guard, upstream: FakeOpenAIServer, stream: bool
) -> None:
    reports: list[Report] = []
    with _client(upstream) as client:
        wrap(client, guard, on_report=reports.append)
        messages = [{"role": "user", "content": _parts()}]
        result = client.chat.completions.create(model="m", messages=messages, stream=stream)  # type: ignore[call-overload]
        text = (
            "".join(c.choices[0].delta.content or "" for c in result if c.choices)
            if stream
            else result.choices[0].message.content
        )
    assert text == GOOD and upstream.count == 1  # the SDK got its iterator whole: faithguard consumed nothing
    (report,) = reports
    assert report.outcome == "undetermined" and report.constraint_score is None and not report.verdicts
    assert any(r.startswith("unreadable_input") for r in report.undetermined)


def test_a_request_faithguard_cannot_read_is_refused_under_a_blocking_policy(upstream: FakeOpenAIServer) -> None:
    guard = make_guard()
    with _client(upstream) as client:
        wrap(client, guard, Policy.block(["missing_content"]))
        with pytest.raises(InputError, match="list_iterator"):
            client.chat.completions.create(model="m", messages=[{"role": "user", "content": _parts()}])  # type: ignore[list-item]
    assert upstream.count == 0  # a call that could not be checked is not let through a policy that blocks
    guard.close()


def test_malformed_documents_given_to_faithguard_are_still_the_callers_error(
    guard: Guard, upstream: FakeOpenAIServer
) -> None:
    with _client(upstream) as client:
        wrap(client, guard)  # observe: even so, faithguard's own argument is checked
        messages = [{"role": "user", "content": _parts()}]
        with pytest.raises(InputError, match="document"):
            client.chat.completions.create(model="m", messages=messages, documents=[5])  # type: ignore[call-overload]
    assert upstream.count == 0


def test_a_watched_call_over_the_guards_size_limit_goes_on_and_says_why(upstream: FakeOpenAIServer) -> None:
    reports: list[Report] = []
    small = make_guard(max_input_chars=5_000)
    with _client(upstream) as client:
        wrap(client, small, on_report=reports.append)
        result = client.chat.completions.create(model="m", messages=[{"role": "user", "content": "word " * 2_000}])  # type: ignore[list-item]
    assert result.choices[0].message.content == GOOD and upstream.count == 1
    assert any(r.startswith("input_too_large") for r in reports[0].undetermined)
    small.close()


def test_documents_within_the_guards_own_limit_never_break_a_watched_call(upstream: FakeOpenAIServer) -> None:
    # the default limit is 1,000,000 characters; this guard reads 2,000,000 (review, session 18)
    reports: list[Report] = []
    large = make_guard(max_input_chars=2_000_000)
    with _client(upstream) as client:
        wrap(client, large, on_report=reports.append)
        messages = [{"role": "user", "content": _parts()}]
        client.chat.completions.create(model="m", messages=messages, documents=["word " * 300_000])  # type: ignore[call-overload]
    assert upstream.count == 1 and any(r.startswith("unreadable_input") for r in reports[0].undetermined)
    large.close()
