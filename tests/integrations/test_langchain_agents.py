"""A real LangChain agent (``langchain.agents.create_agent``) with the FaithGuard middleware."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest
from integ_support import BAD, GOOD, make_guard

pytest.importorskip("langchain.agents", reason="the agent middleware needs the langchain package (faithguard[agents])")

from langchain.agents import create_agent
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage
from langchain_core.tools import tool

from faithguard import HallucinationBlocked, Policy, Report
from faithguard.integrations.langchain_agents import FaithGuardMiddleware

QUESTION = "Which museum in Paris should I visit?"
TOOL_RESULT = "Open today: the Louvre museum in Paris."


@tool
def museums(city: str) -> str:
    """Museums open today in a city."""
    return TOOL_RESULT


class ToolCallingFake(GenericFakeChatModel):
    """GenericFakeChatModel that accepts tools (its scripted messages decide whether it calls one)."""

    def bind_tools(self, tools: Any, **kwargs: Any) -> Any:
        return self


def script(final: str) -> Iterator[AIMessage]:
    step = AIMessage(content="", tool_calls=[{"name": "museums", "args": {"city": "Paris"}, "id": "call_1"}])
    return iter([step, AIMessage(content=final, id="run-final")])


def run_agent(final: str, policy: Policy, reports: list[Report]) -> dict[str, Any]:
    guard = make_guard()
    agent = create_agent(
        ToolCallingFake(messages=script(final)),
        tools=[museums],
        middleware=[FaithGuardMiddleware(guard, policy, on_report=reports.append)],
    )
    try:
        return dict(agent.invoke({"messages": [HumanMessage(QUESTION)]}))
    finally:
        guard.close()


def test_tool_call_step_runs_and_only_the_final_answer_is_scored() -> None:
    reports: list[Report] = []
    state = run_agent(GOOD, Policy.block(["*"], min_severity="info", fallback="Blocked."), reports)
    messages = state["messages"]
    assert isinstance(messages[2], ToolMessage) and messages[2].content == TOOL_RESULT  # the tool step went through
    assert messages[-1].content == GOOD
    assert len(reports) == 1  # the tool-call turn was not scored as an (empty) answer
    assert reports[0].findings["documents_text"] == TOOL_RESULT  # tool results are the answer's documents


def test_block_replaces_a_bad_final_answer_and_annotate_marks_it() -> None:
    reports: list[Report] = []
    state = run_agent(BAD, Policy.block(["omission"], fallback="I am not sure."), reports)
    final = state["messages"][-1]
    assert final.content == "I am not sure." and final.response_metadata["finish_reason"] == "content_filter"
    assert final.response_metadata["faithguard"]["verdicts"][0]["kind"] == "omission"
    annotated = run_agent(BAD, Policy.annotate(), reports)["messages"][-1]
    assert annotated.content == BAD and annotated.response_metadata["faithguard"]["score"] == 0.0
    with pytest.raises(HallucinationBlocked):
        run_agent(BAD, Policy.block(["omission"]), reports)


def test_async_agent() -> None:
    guard = make_guard()
    reports: list[Report] = []
    agent = create_agent(
        ToolCallingFake(messages=script(BAD)),
        tools=[museums],
        middleware=[FaithGuardMiddleware(guard, Policy.annotate(), on_report=reports.append)],
    )
    state = asyncio.run(agent.ainvoke({"messages": [HumanMessage(QUESTION)]}))
    guard.close()
    assert state["messages"][-1].response_metadata["faithguard"]["verdicts"][0]["kind"] == "omission"
    assert len(reports) == 1


def test_an_image_only_turn_and_a_failing_on_report_never_break_the_agent() -> None:
    """Under observe the agent's answer comes back: an image-only user turn has nothing to check (the call passes
    untouched), and an on_report callback that raises is noted on the report, never raised."""
    image = {"type": "image_url", "image_url": {"url": "data:image/png;base64,iVBORw0KGgo="}}

    def broken(report: Report) -> None:
        raise RuntimeError("dashboard down")

    for messages in ([HumanMessage(content=[image])], [HumanMessage(QUESTION)]):
        model = ToolCallingFake(messages=iter([AIMessage(content=GOOD)]))
        middleware = FaithGuardMiddleware(make_guard(), Policy.observe(), on_report=broken)
        agent = create_agent(model, tools=[], middleware=[middleware])
        state = agent.invoke({"messages": messages})
        assert state["messages"][-1].content == GOOD
