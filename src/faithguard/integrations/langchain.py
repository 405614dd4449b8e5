"""LangChain integration: a callback handler (observe) and a guard Runnable (enforce).

* :class:`FaithGuardCallbackHandler` joins a chain's chat-model/LLM runs with the
  documents its retrievers returned (retriever and model runs are siblings: they are
  joined through the ``run_id -> parent_run_id`` map) and scores each model answer
  with ``guard.check``; reports are kept in ``handler.reports`` (bounded, by run id).
* :class:`GuardRunnable` wraps a model or chain: input checks before, scoring after,
  and the policy's action: raise :class:`~faithguard.errors.HallucinationBlocked`,
  return a fallback ``AIMessage``, or annotate ``response_metadata["faithguard"]``.

Needs ``faithguard[langchain]`` (langchain-core).
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from collections.abc import AsyncIterator, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any
from uuid import UUID

try:
    from langchain_core.callbacks import BaseCallbackHandler
    from langchain_core.messages import AIMessage, AIMessageChunk, BaseMessage
    from langchain_core.prompt_values import PromptValue
    from langchain_core.runnables import Runnable, RunnableConfig
except ImportError as exc:  # pragma: no cover - depends on the environment
    raise ImportError("the LangChain integration needs: pip install 'faithguard[langchain]'") from exc

from faithguard import calls
from faithguard.errors import FaithGuardError, HallucinationBlocked, InputError
from faithguard.integrations._langchain_gate import Gate, blocked_by, one_model, with_gate
from faithguard.integrations._spans import record_response
from faithguard.integrations.session import DEFAULT_BLOCK_TEXT, GuardedCall, Outcome, report_summary
from faithguard.models import Report
from faithguard.policy import Action, Policy
from faithguard.wrapping import AnnotatedText

if TYPE_CHECKING:
    from faithguard.guard import Guard

__all__ = ["FaithGuardCallbackHandler", "GuardRunnable"]

log = logging.getLogger("faithguard.langchain")
_QUERY_KEYS = ("question", "query", "input")
_DOC_KEYS = ("documents", "context", "docs")


class _Bounded(OrderedDict[Any, Any]):
    """An insertion-ordered dict that forgets its oldest entries past ``limit``."""

    def __init__(self, limit: int) -> None:
        super().__init__()
        self.limit = limit

    def __setitem__(self, key: Any, value: Any) -> None:
        super().__setitem__(key, value)
        self.move_to_end(key)
        while len(self) > self.limit:
            self.popitem(last=False)


def _query_of(value: Any) -> str | None:
    if isinstance(value, str):
        return value
    if isinstance(value, Mapping):
        for key in _QUERY_KEYS:
            if isinstance(value.get(key), str):
                return str(value[key])
    return None


def _documents_of(value: Any) -> list[Any] | None:
    """The documents of a chain's input dict: a list under ``documents``/``context``/``docs``, or one string there
    (the usual LCEL shape: retrieved documents joined into the prompt's ``context``)."""
    if isinstance(value, Mapping):
        for key in _DOC_KEYS:
            docs = value.get(key)
            if isinstance(docs, str) and docs.strip():
                return [docs]
            if isinstance(docs, list) and all(not isinstance(d, BaseMessage) for d in docs):
                return docs
    return None


def _role_pair(item: Any) -> bool:
    """LangChain's ``(role, content)`` message form: ``("human", "...")``."""
    return isinstance(item, tuple) and len(item) == 2 and isinstance(item[0], str)


def _messages_of(value: Any) -> list[Any] | None:
    if isinstance(value, PromptValue):
        return list(value.to_messages())
    if isinstance(value, list) and value and all(isinstance(m, BaseMessage | Mapping) or _role_pair(m) for m in value):
        if any(_role_pair(m) for m in value):
            from langchain_core.messages import convert_to_messages

            try:
                return list(convert_to_messages(value))  # ("human", text) pairs read as LangChain reads them
            except (ValueError, TypeError, NotImplementedError):
                return value  # a pair LangChain cannot read either: the guard says what is wrong with it
        return value
    return None


def _text(output: Any) -> str | None:
    """The answer text of a chain's output; None for a tool call or a shape that is not text."""
    if isinstance(output, str):
        return output
    if isinstance(output, BaseMessage):
        return None if calls.tool_calls_of(output) else output.text
    return None


class FaithGuardCallbackHandler(BaseCallbackHandler):
    """Observe mode: score the answer of a run with its query and retrieved documents.

    A model called on its own is scored when it ends. Inside a chain, a model step may be a step of the chain's
    own (rewriting the question before retrieval, routing, grading a document): what answers the user is the
    last model to end before the chain does, so that one is scored when the root chain ends. A step that asks
    for a tool is never an answer.
    """

    def __init__(
        self, guard: Guard, raise_error: bool = False, *, policy: Policy | None = None, max_runs: int = 1000
    ) -> None:
        super().__init__()
        self.guard = guard
        self.policy = policy or guard.policy
        self.raise_error = raise_error
        #: Reports by the model run's id (the most recent ``max_runs``).
        self.reports: _Bounded = _Bounded(max_runs)
        self._parents: _Bounded = _Bounded(max_runs * 4)
        self._documents: _Bounded = _Bounded(max_runs)
        self._queries: _Bounded = _Bounded(max_runs)
        self._inputs: _Bounded = _Bounded(max_runs)
        #: the last model answer of each root chain still running: (model run id, response, its input)
        self._last: _Bounded = _Bounded(max_runs)
        #: root chains this handler saw start (it will see them end): only their model answers wait for the end
        self._roots: _Bounded = _Bounded(max_runs)

    # -- run tree ------------------------------------------------------------------------------

    def _link(self, run_id: UUID, parent_run_id: UUID | None) -> None:
        if parent_run_id is not None:
            self._parents[run_id] = parent_run_id

    def _ancestors(self, run_id: UUID | None) -> Iterator[UUID]:
        seen: set[UUID] = set()
        while run_id is not None and run_id not in seen:
            seen.add(run_id)
            yield run_id
            run_id = self._parents.get(run_id)

    def on_chain_start(
        self,
        serialized: dict[str, Any] | None,
        inputs: Any,
        *,
        run_id: UUID,
        parent_run_id: UUID | None = None,
        **kwargs: Any,
    ) -> None:
        """Remember the chain's place in the tree and its query, if its input names one."""
        self._link(run_id, parent_run_id)
        if parent_run_id is None:
            self._roots[run_id] = True
        query = _query_of(inputs)
        if query is not None:
            self._queries[run_id] = query
        docs = _documents_of(inputs)
        if docs:
            self._documents[run_id] = list(docs)

    def on_retriever_start(
        self,
        serialized: dict[str, Any] | None,
        query: str,
        *,
        run_id: UUID,
        parent_run_id: UUID | None = None,
        **kwargs: Any,
    ) -> None:
        """Link the retriever run."""
        self._link(run_id, parent_run_id)

    def on_retriever_end(
        self, documents: Sequence[Any], *, run_id: UUID, parent_run_id: UUID | None = None, **kwargs: Any
    ) -> None:
        """The retrieved documents belong to every ancestor, where sibling model runs find them."""
        for ancestor in self._ancestors(parent_run_id):
            self._documents.setdefault(ancestor, [])
            self._documents[ancestor].extend(documents)

    def on_chat_model_start(
        self,
        serialized: dict[str, Any] | None,
        messages: list[list[BaseMessage]],
        *,
        run_id: UUID,
        parent_run_id: UUID | None = None,
        **kwargs: Any,
    ) -> None:
        """Remember the model's messages."""
        self._link(run_id, parent_run_id)
        self._inputs[run_id] = ("messages", list(messages[0]) if messages else [])

    def on_llm_start(
        self,
        serialized: dict[str, Any] | None,
        prompts: list[str],
        *,
        run_id: UUID,
        parent_run_id: UUID | None = None,
        **kwargs: Any,
    ) -> None:
        """Remember the completion model's prompt."""
        self._link(run_id, parent_run_id)
        self._inputs[run_id] = ("prompt", prompts[0] if prompts else "")

    def on_llm_end(self, response: Any, *, run_id: UUID, parent_run_id: UUID | None = None, **kwargs: Any) -> None:
        """Score the answer of a model called on its own; inside a chain, keep it until the chain ends (the last
        model to end answers). Raise only with ``raise_error=True`` and a blocking policy."""
        inputs = self._inputs.pop(run_id, ("prompt", None))
        root = list(self._ancestors(parent_run_id))[-1] if parent_run_id is not None else None
        if root is not None and root in self._roots:
            self._last[root] = (run_id, response, parent_run_id, inputs)
            return
        # a model on its own, or one that carries the handler itself inside a chain the handler never sees end
        self._report(run_id, response, parent_run_id, inputs)

    def _report(self, run_id: UUID, response: Any, parent_run_id: UUID | None, inputs: tuple[str, Any]) -> None:
        try:
            report = self._score(response, parent_run_id, inputs)
        except (InputError, FaithGuardError) as exc:
            log.debug("faithguard could not score run %s: %s", run_id, exc)
            return
        if report is None:
            return
        self.reports[run_id] = report
        if self.raise_error and self.policy.decide(report.verdicts) is Action.BLOCK:
            raise HallucinationBlocked(report)

    def on_llm_error(self, error: BaseException, *, run_id: UUID, **kwargs: Any) -> None:
        """Forget the failed run."""
        self._inputs.pop(run_id, None)

    def on_chain_end(self, outputs: Any, *, run_id: UUID, parent_run_id: UUID | None = None, **kwargs: Any) -> None:
        """A finished root chain: its last model answer is scored, then its state released."""
        if parent_run_id is not None:
            return
        self._roots.pop(run_id, None)
        last = self._last.pop(run_id, None)
        try:
            if last is not None:
                self._report(*last)
        finally:
            self._forget(run_id)

    def on_chain_error(
        self, error: BaseException, *, run_id: UUID, parent_run_id: UUID | None = None, **kwargs: Any
    ) -> None:
        """A failed root chain releases its state (no answer reached the user: nothing is scored)."""
        if parent_run_id is None:
            self._roots.pop(run_id, None)
            self._last.pop(run_id, None)
            self._forget(run_id)

    def _forget(self, root: UUID) -> None:
        self._queries.pop(root, None)
        self._documents.pop(root, None)
        for child in [r for r, p in self._parents.items() if p == root]:
            self._parents.pop(child, None)
            self._documents.pop(child, None)
            self._queries.pop(child, None)

    def _score(self, response: Any, parent_run_id: UUID | None, inputs: tuple[str, Any]) -> Report | None:
        generations = getattr(response, "generations", None)
        if not generations or not generations[0]:
            return None
        generation = generations[0][0]
        message = getattr(generation, "message", None)
        if message is not None and calls.tool_calls_of(message):
            return None  # an agent step that asks for a tool is not an answer
        text = generation.text
        kind, value = inputs
        documents: list[Any] = []
        query: str | None = None
        for ancestor in self._ancestors(parent_run_id):
            if not documents and self._documents.get(ancestor):
                documents = list(self._documents[ancestor])
            if query is None:
                query = self._queries.get(ancestor)
        messages = value if kind == "messages" else None
        if kind == "prompt" and query is None:
            query = value
        if query is None and not messages:
            return None
        return self.guard.check(query, text, documents=documents or None, messages=messages)


class GuardRunnable(Runnable[Any, Any]):
    """Enforce mode: ``GuardRunnable(chain_or_model, guard, policy=...)``.

    The query comes from the input (a string, messages, a prompt value, or a dict with
    ``question``/``query``/``input``); documents from a dict's ``documents``/``context``
    and from any retriever that runs inside: the input checks run when the chain's first
    model starts, after its retrievers. Blocked calls raise ``HallucinationBlocked``
    unless the policy has a ``fallback`` (or, before the call, a clarification applies):
    then that text comes back as an ``AIMessage`` with
    ``response_metadata["finish_reason"] = "content_filter"`` (a string for a chain whose
    output is a string). Annotate puts a summary in ``response_metadata["faithguard"]`` (a
    string output becomes ``AnnotatedText``). An ``AIMessage`` that asks for tool calls is
    returned as it is, unscored: it is not an answer.
    """

    def __init__(self, bound: Runnable[Any, Any], guard: Guard, policy: Policy | None = None) -> None:
        self.bound = bound
        self.guard = guard
        self.policy = policy or guard.policy
        if self.policy.decide([]) is Action.BLOCK:
            raise ValueError("a policy cannot block calls that have no verdicts")
        self._one_model = one_model(bound)

    def _call(self, value: Any) -> GuardedCall:
        return GuardedCall(
            self.guard,
            self.policy,
            query=_query_of(value),
            messages=_messages_of(value),
            documents=_documents_of(value),
            provider="langchain",
            pass_unreadable=True,  # a form faithguard does not read never breaks a watched call
        )

    def _text_output(self) -> bool:
        try:
            return self.bound.OutputType is str
        except Exception:  # noqa: BLE001 - some runnables cannot name their output type
            return False

    def _blocked(self, outcome: Outcome, *, as_text: bool = False) -> Any:
        if outcome.text is None:
            raise outcome.error()
        text = outcome.text or DEFAULT_BLOCK_TEXT
        if as_text:
            return AnnotatedText(text, outcome.report)
        meta = {"finish_reason": "content_filter", "faithguard": report_summary(outcome.report, outcome.action)}
        return AIMessage(content=text, response_metadata=meta)

    @staticmethod
    def _finish(outcome: Outcome, output: Any) -> Any:
        if outcome.blocked:
            text = outcome.text
            if text is None:
                raise outcome.error()
            if isinstance(output, str):
                return AnnotatedText(text, outcome.report)
            meta = {"finish_reason": "content_filter", "faithguard": report_summary(outcome.report, outcome.action)}
            return AIMessage(content=text, response_metadata=meta)
        if outcome.action is not Action.ANNOTATE or outcome.report is None:
            return output
        summary = report_summary(outcome.report, outcome.action)
        if isinstance(output, BaseMessage):
            meta = {**output.response_metadata, "faithguard": summary}
            return output.model_copy(update={"response_metadata": meta})
        if isinstance(output, str):
            return AnnotatedText(output, outcome.report)
        return output

    def invoke(self, input: Any, config: RunnableConfig | None = None, **kwargs: Any) -> Any:
        """Call the wrapped runnable (input checks when its first model starts), score, apply the policy."""
        call = self._call(input)
        gate = Gate(call, adopt=self._one_model)
        with call.chat_span() as span:
            try:
                output = self.bound.invoke(input, with_gate(config, gate), **kwargs)
            except BaseException as exc:
                blocked = blocked_by(exc)
                if blocked is not None:
                    return self._blocked(blocked.outcome, as_text=self._text_output())
                call.fail(exc)
                raise
            record_response(call, span, output)
        late = gate.check()  # a chain that called no model
        if late is not None:
            return self._blocked(late, as_text=isinstance(output, str))
        return self._finish(call.after(_text(output)), output)

    async def ainvoke(self, input: Any, config: RunnableConfig | None = None, **kwargs: Any) -> Any:
        """Async :meth:`invoke`; the guard's stages run in worker threads."""
        call = self._call(input)
        gate = Gate(call, adopt=self._one_model)
        with call.chat_span() as span:
            try:
                output = await self.bound.ainvoke(input, with_gate(config, gate), **kwargs)
            except BaseException as exc:
                blocked = blocked_by(exc)
                if blocked is not None:
                    return self._blocked(blocked.outcome, as_text=self._text_output())
                call.fail(exc)
                raise
            record_response(call, span, output)
        late = await asyncio.to_thread(gate.check)
        if late is not None:
            return self._blocked(late, as_text=isinstance(output, str))
        return self._finish(await asyncio.to_thread(call.after, _text(output)), output)

    def stream(self, input: Any, config: RunnableConfig | None = None, **kwargs: Any) -> Iterator[Any]:
        """Chunks pass through; scored at the end. Annotate adds a last empty chunk of the stream's own type."""
        call = self._call(input)
        gate = Gate(call, adopt=self._one_model)
        joined = _Joined()
        try:
            for chunk in self.bound.stream(input, with_gate(config, gate), **kwargs):
                joined.add(chunk)
                yield chunk
        except BaseException as exc:
            blocked = blocked_by(exc)
            if blocked is None:
                call.fail(exc)
                raise
            yield self._blocked_chunk(blocked.outcome, joined.text_chunks or self._text_output())
            return
        late = gate.check()
        if late is not None:
            yield self._blocked_chunk(late, joined.text_chunks)
            return
        tail = self._stream_tail(call.after(joined.text), joined.text_chunks)
        if tail is not None:
            yield tail

    async def astream(
        self,
        input: Any,
        config: RunnableConfig | None = None,
        **kwargs: Any,
    ) -> AsyncIterator[Any]:
        """Async :meth:`stream`."""
        call = self._call(input)
        gate = Gate(call, adopt=self._one_model)
        joined = _Joined()
        try:
            async for chunk in self.bound.astream(input, with_gate(config, gate), **kwargs):
                joined.add(chunk)
                yield chunk
        except BaseException as exc:
            blocked = blocked_by(exc)
            if blocked is None:
                call.fail(exc)
                raise
            yield self._blocked_chunk(blocked.outcome, joined.text_chunks or self._text_output())
            return
        late = await asyncio.to_thread(gate.check)
        if late is not None:
            yield self._blocked_chunk(late, joined.text_chunks)
            return
        tail = self._stream_tail(await asyncio.to_thread(call.after, joined.text), joined.text_chunks)
        if tail is not None:
            yield tail

    def _blocked_chunk(self, outcome: Outcome, as_text: bool) -> Any:
        message = self._blocked(outcome, as_text=as_text)
        if isinstance(message, str):
            return message
        return AIMessageChunk(content=message.content, response_metadata=message.response_metadata)

    @staticmethod
    def _stream_tail(outcome: Outcome, as_text: bool) -> Any:
        """The last chunk: the report, as an empty chunk of the stream's type (str streams stay str). A block raises,
        fallback or not: the chunks are delivered and cannot be replaced."""
        if outcome.blocked:
            raise outcome.error()
        if outcome.action in (Action.ANNOTATE, Action.BLOCK) and outcome.report is not None:
            if as_text:
                return AnnotatedText("", outcome.report)
            meta = {"faithguard": report_summary(outcome.report, outcome.action)}
            return AIMessageChunk(content="", response_metadata=meta)
        return None


class _Joined:
    """The text of a stream of chunks, and whether they were strings or carried a tool call."""

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.text_chunks = False
        self.tool_call = False

    def add(self, chunk: Any) -> None:
        self.text_chunks = self.text_chunks or isinstance(chunk, str)
        self.tool_call = self.tool_call or calls.chunk_has_tool_call(chunk)
        self.parts.append(_text(chunk) or "")

    @property
    def text(self) -> str | None:
        """None for a tool call: nothing to score."""
        return None if self.tool_call else "".join(self.parts)
