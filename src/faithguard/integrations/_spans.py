"""Span attributes every integration records on the chat span of a guarded call."""

from __future__ import annotations

from typing import Any

from faithguard import calls
from faithguard.integrations.session import GuardedCall

__all__ = ["A_TOOL_CALLS", "record_response"]

#: Number of tool calls a result asked for; set when the result was a tool call and so was not scored.
A_TOOL_CALLS = "faithguard.tool_calls"


def record_response(call: GuardedCall, span: Any, output: Any) -> None:
    """Usage, response id and model, finish reasons and tool calls of an LLM result on its chat span."""
    call.record_output(span, output)
    tools = calls.tool_calls_of(output)
    if tools and span.is_recording():
        span.set_attribute(A_TOOL_CALLS, len(tools))
