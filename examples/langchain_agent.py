"""A LangChain agent (``create_agent``) whose final answer is guarded; its tool-call steps are not.

The chat model is LangChain's scripted fake so that the example runs offline: first it asks for
the ``museums`` tool, then it answers. The middleware lets the tool call through, scores the
final answer against the question with the tool's result as a document, and (policy block
with a fallback) replaces an answer that misses the request. Needs ``faithguard[agents]``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from langchain.agents import create_agent
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, HumanMessage
from langchain_core.tools import tool

from faithguard import Guard, Policy, Report
from faithguard.integrations.langchain_agents import FaithGuardMiddleware
from faithguard.integrations.warmup import warm

QUESTION = "Which museum in Paris should I visit?"


@tool
def museums(city: str) -> str:
    """Museums open today in a city."""
    return "Open today in Paris: the Louvre museum and the Orsay museum."


class ScriptedModel(GenericFakeChatModel):
    """A fake chat model that accepts tools; its scripted messages decide whether it calls one."""

    def bind_tools(self, tools: Any, **kwargs: Any) -> Any:
        return self


def script(final: str) -> Iterator[AIMessage]:
    call = AIMessage(content="", tool_calls=[{"name": "museums", "args": {"city": "Paris"}, "id": "call_1"}])
    return iter([call, AIMessage(content=final)])


def main() -> None:
    guard = Guard(judge=None)
    warm(guard)  # load the models now: the first call is then scored like the rest
    reports: list[Report] = []
    policy = Policy.block(["omission"], fallback="I could not find a reliable answer; please ask again.")
    for final in ("Visit the Louvre museum in Paris.", "Try the Colosseum in Rome."):
        agent = create_agent(
            ScriptedModel(messages=script(final)),
            tools=[museums],
            middleware=[FaithGuardMiddleware(guard, policy, on_report=reports.append)],
        )
        state = agent.invoke({"messages": [HumanMessage(QUESTION)]})
        steps = [
            type(m).__name__ + (" (tool call)" if getattr(m, "tool_calls", None) else "") for m in state["messages"]
        ]
        print("steps:", " -> ".join(steps))
        report = reports[-1]
        print(f"model said: {final!r}; score {report.constraint_score} ({report.band})")
        print("agent answered:", state["messages"][-1].content)
        print()
    print("answers scored:", len(reports), "(tool-call steps are never scored)")
    guard.close()


if __name__ == "__main__":
    main()
