"""Guard the final answer of a LangChain agent: ``create_agent(..., middleware=[FaithGuardMiddleware(guard)])``.

Every model call of the agent loop passes through :class:`FaithGuardMiddleware`. A model turn
that asks for tool calls is a step, not an answer: it is returned untouched and not scored.
A turn without tool calls is the agent's answer: it is scored against the user's last
message, the conversation before it, and -- as documents -- what the tools returned since
that message. The policy then acts on the answer: annotate adds
``response_metadata["faithguard"]``; block replaces the answer with the policy's fallback (or
the clarification of a missing-content verdict) as an ``AIMessage`` with
``finish_reason="content_filter"``, or raises :class:`~faithguard.errors.HallucinationBlocked`
when the policy has no fallback.

Needs ``faithguard[agents]`` (the ``langchain`` package, which provides agent middleware).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

try:
    from langchain.agents.middleware import AgentMiddleware, ModelRequest, ModelResponse
    from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage
except ImportError as exc:  # pragma: no cover - depends on the environment
    raise ImportError("the LangChain agent middleware needs: pip install 'faithguard[agents]'") from exc

from faithguard import calls
from faithguard.integrations._spans import record_response
from faithguard.integrations.session import GuardedCall, Outcome, report_summary
from faithguard.models import Report
from faithguard.policy import Action, Policy

if TYPE_CHECKING:
    from faithguard.guard import Guard

__all__ = ["FaithGuardMiddleware"]


def _text(message: BaseMessage) -> str:
    return str(message.text)


def _split(messages: list[Any]) -> tuple[list[BaseMessage], list[str]]:
    """(conversation without tool traffic, tool results since the last user message)."""
    last_user = max((i for i, m in enumerate(messages) if isinstance(m, HumanMessage)), default=-1)
    conversation: list[BaseMessage] = []
    documents: list[str] = []
    for i, m in enumerate(messages):
        if isinstance(m, ToolMessage):
            if i > last_user and _text(m).strip():
                documents.append(_text(m))
        elif isinstance(m, AIMessage) and m.tool_calls:
            continue  # the agent's own steps are not part of what the user asked
        elif isinstance(m, BaseMessage):
            conversation.append(m)
    return conversation, documents


def _answer(response: Any) -> AIMessage | None:
    if isinstance(response, AIMessage):
        return response
    for message in getattr(response, "result", None) or []:
        if isinstance(message, AIMessage):
            return message
    return None


def _replace(response: Any, old: AIMessage, new: AIMessage) -> Any:
    if isinstance(response, AIMessage):
        return new
    result = [new if m is old else m for m in response.result]
    return ModelResponse(result=result, structured_response=response.structured_response)


class FaithGuardMiddleware(AgentMiddleware):
    """Agent middleware that scores the agent's answers (never its tool calls) and applies the policy."""

    def __init__(
        self,
        guard: Guard,
        policy: Policy | None = None,
        *,
        on_report: Callable[[Report], None] | None = None,
    ) -> None:
        super().__init__()
        self.guard = guard
        self.policy = policy or guard.policy
        self.on_report = on_report
        if self.policy.decide([]) is Action.BLOCK:
            raise ValueError("a policy cannot block calls that have no verdicts")

    def _call(self, request: ModelRequest) -> GuardedCall:
        conversation, documents = _split(list(request.messages))
        if request.system_message is not None:
            conversation.insert(0, request.system_message)
        model = getattr(request.model, "model_name", None) or getattr(request.model, "model", None)
        return GuardedCall(
            self.guard,
            self.policy,
            messages=conversation,
            documents=documents,
            model=model if isinstance(model, str) else None,
            provider="langchain",
            pass_unreadable=True,  # a form faithguard does not read never breaks a watched call
            on_report=self.on_report,  # delivered by the call: a failing callback is noted, never raised
        )

    def _judge(self, call: GuardedCall, response: Any) -> Any:
        answer = _answer(response)
        if answer is None or calls.tool_calls_of(answer):
            call.after(None)  # a step of the loop: the guard span closes unscored
            return response
        outcome = call.before() or call.after(_text(answer))
        return self._apply(outcome, response, answer)

    def _apply(self, outcome: Outcome, response: Any, answer: AIMessage) -> Any:
        if outcome.blocked:
            if outcome.text is None:
                raise outcome.error()
            meta = {"finish_reason": "content_filter", "faithguard": report_summary(outcome.report, outcome.action)}
            return _replace(response, answer, AIMessage(content=outcome.text, response_metadata=meta))
        if outcome.action is Action.ANNOTATE and outcome.report is not None:
            meta = {**answer.response_metadata, "faithguard": report_summary(outcome.report, outcome.action)}
            return _replace(response, answer, answer.model_copy(update={"response_metadata": meta}))
        return response

    def wrap_model_call(
        self,
        request: ModelRequest,
        handler: Callable[[ModelRequest], Any],
    ) -> Any:
        """Run the model; score its answer when it is one."""
        call = self._call(request)
        with call.chat_span() as span:
            try:
                response = handler(request)
            except BaseException as exc:
                call.fail(exc)
                raise
            answer = _answer(response)
            if answer is not None:
                record_response(call, span, answer)
        return self._judge(call, response)

    async def awrap_model_call(
        self,
        request: ModelRequest,
        handler: Callable[[ModelRequest], Awaitable[Any]],
    ) -> Any:
        """Async :meth:`wrap_model_call`; the guard's stages run in a worker thread."""
        call = self._call(request)
        with call.chat_span() as span:
            try:
                response = await handler(request)
            except BaseException as exc:
                call.fail(exc)
                raise
            answer = _answer(response)
            if answer is not None:
                record_response(call, span, answer)
        return await asyncio.to_thread(self._judge, call, response)
