"""Reading provider results with the real SDK classes: answers, tool calls, usage, finish reasons."""

from __future__ import annotations

import contextlib
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from faithguard import calls
from faithguard.errors import InputError

TOOL_CALL = {"id": "call_1", "type": "function", "function": {"name": "weather", "arguments": '{"city": "Paris"}'}}


def chat(content: Any, tool_calls: list[dict[str, Any]] | None = None, finish: str = "stop") -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": content}
    if tool_calls is not None:
        message["tool_calls"] = tool_calls
    return {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "created": 0,
        "model": "gpt-x-2026",
        "choices": [{"index": 0, "message": message, "finish_reason": finish}],
        "usage": {"prompt_tokens": 7, "completion_tokens": 3, "total_tokens": 10},
    }


def test_openai_chat_tool_call_only_is_not_an_answer() -> None:
    from openai.types.chat import ChatCompletion

    for raw in (chat(None, [TOOL_CALL], "tool_calls"), ChatCompletion.model_validate(chat(None, [TOOL_CALL]))):
        assert len(calls.tool_calls_of(raw)) == 1
        assert calls.extract_text(raw) is None  # not "" (an empty answer would be scored as an omission)


def test_openai_chat_answer_has_no_tool_calls() -> None:
    from openai.types.chat import ChatCompletion

    raw = ChatCompletion.model_validate(chat("Paris."))
    assert calls.tool_calls_of(raw) == []
    assert calls.extract_text(raw) == "Paris."
    attrs = calls.response_attributes(raw)
    assert attrs == {
        "gen_ai.response.id": "chatcmpl-1",
        "gen_ai.response.model": "gpt-x-2026",
        "gen_ai.response.finish_reasons": ["stop"],
    }
    assert calls.usage_of(raw) == (7, 3)


def test_empty_answer_is_still_an_answer() -> None:
    assert calls.extract_text(chat("")) == ""
    assert calls.extract_text(chat(None)) == ""


def test_openai_responses_api() -> None:
    from openai.types.responses import Response

    message = {
        "type": "message",
        "id": "msg_1",
        "role": "assistant",
        "status": "completed",
        "content": [{"type": "output_text", "text": "The Louvre.", "annotations": []}],
    }
    call = {"type": "function_call", "id": "fc_1", "call_id": "c1", "name": "weather", "arguments": "{}"}
    answer = {"id": "resp_1", "object": "response", "model": "gpt-x", "output": [message]}
    assert calls.extract_text(answer) == "The Louvre."
    sdk = Response.model_construct(**{**answer, "output": [message]})
    assert calls.extract_text(sdk) == "The Louvre."
    tool = {"id": "resp_2", "object": "response", "model": "gpt-x", "output": [call]}
    assert calls.tool_calls_of(tool) == [call]
    assert calls.extract_text(tool) is None
    usage = {"input_tokens": 5, "output_tokens": 2, "total_tokens": 7}
    assert calls.usage_of({**answer, "usage": usage}) == (5, 2)


def test_anthropic_messages() -> None:
    from anthropic.types import Message, TextBlock, ToolUseBlock, Usage

    usage = Usage(input_tokens=11, output_tokens=4)
    text = Message.model_construct(
        id="msg_1",
        type="message",
        role="assistant",
        model="claude-x",
        content=[TextBlock(type="text", text="Visit the Louvre."), TextBlock(type="text", text="It opens at 9.")],
        stop_reason="end_turn",
        usage=usage,
    )
    assert calls.extract_text(text) == "Visit the Louvre.\nIt opens at 9."
    assert calls.usage_of(text) == (11, 4)
    assert calls.response_attributes(text)["gen_ai.response.finish_reasons"] == ["end_turn"]
    tool = Message.model_construct(
        id="msg_2",
        type="message",
        role="assistant",
        model="claude-x",
        content=[
            TextBlock(type="text", text="Let me look that up."),
            ToolUseBlock(type="tool_use", id="tu_1", name="weather", input={"city": "Paris"}),
        ],
        stop_reason="tool_use",
        usage=usage,
    )
    assert len(calls.tool_calls_of(tool)) == 1
    assert calls.extract_text(tool) is None  # a preamble before a tool call is not the answer
    as_dict = {"type": "message", "content": [{"type": "text", "text": "Hi."}, {"type": "thinking", "thinking": "x"}]}
    assert calls.extract_text(as_dict) == "Hi."


def test_langchain_messages() -> None:
    from langchain_core.messages import AIMessage, AIMessageChunk

    answer = AIMessage(content="Paris.", response_metadata={"model_name": "m-1", "finish_reason": "stop"})
    assert calls.extract_text(answer) == "Paris."
    assert calls.response_attributes(answer)["gen_ai.response.model"] == "m-1"
    tool = AIMessage(content="", tool_calls=[{"name": "weather", "args": {"city": "Paris"}, "id": "t1"}])
    assert calls.extract_text(tool) is None
    blocks = AIMessage(content=[{"type": "text", "text": "A"}, {"type": "text", "text": "B"}])
    assert calls.extract_text(blocks) == "A\nB"
    chunk = AIMessageChunk(content="", tool_call_chunks=[{"name": "weather", "args": "{", "id": "t1", "index": 0}])
    assert calls.chunk_has_tool_call(chunk)
    assert not calls.chunk_has_tool_call(AIMessageChunk(content="Par"))


def test_stream_of_tool_call_deltas_ends_with_none() -> None:
    deltas = [
        {"choices": [{"index": 0, "delta": {"role": "assistant", "content": None, "tool_calls": [TOOL_CALL]}}]},
        {"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]},
    ]
    ended: list[str | None] = []
    assert list(calls.tee_stream(iter(deltas), lambda e: None, ended.append)) == deltas
    assert ended == [None]
    text = [{"choices": [{"index": 0, "delta": {"content": w}}]} for w in ("Pa", "ris")]
    list(calls.tee_stream(iter(text), lambda e: None, ended.append))
    assert ended == [None, "Paris"]


@pytest.mark.parametrize("reader", [calls.extract_text, calls.tool_calls_of, calls.response_attributes])
@settings(max_examples=60, deadline=None)
@given(st.recursive(st.none() | st.text() | st.integers(), lambda c: st.lists(c) | st.dictionaries(st.text(), c)))
def test_readers_never_crash_on_odd_shapes(reader: Any, value: Any) -> None:
    # a content field holding neither text nor parts is the caller's error, said in one line
    with contextlib.suppress(InputError):
        reader(value)
