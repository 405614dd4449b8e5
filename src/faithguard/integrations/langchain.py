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
    from langchain_core.runnables.config import ensure_config
except ImportError as exc:  # pragma: no cover - depends on the environment
    raise ImportError("the LangChain integration needs: pip install 'faithguard[langchain]'") from exc

from faithguard.errors import FaithGuardError, HallucinationBlocked, InputError
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
    if isinstance(value, Mapping):
        for key in _DOC_KEYS:
            docs = value.get(key)
            if isinstance(docs, list) and all(not isinstance(d, BaseMessage) for d in docs):
                return docs
    return None


def _messages_of(value: Any) -> list[Any] | None:
    if isinstance(value, PromptValue):
        return list(value.to_messages())
    if isinstance(value, list) and value and all(isinstance(m, BaseMessage | Mapping) for m in value):
        return value
    return None


def _text(output: Any) -> str | None:
    if isinstance(output, str):
        return output
    if isinstance(output, BaseMessage):
        return output.text
    return None


class FaithGuardCallbackHandler(BaseCallbackHandler):
    """Observe mode: score every model answer of a run with its query and retrieved documents."""

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
        """Score the answer; raise only with ``raise_error=True`` and a blocking policy."""
        try:
            report = self._score(response, run_id, parent_run_id)
        except (InputError, FaithGuardError) as exc:
            log.debug("faithguard could not score run %s: %s", run_id, exc)
            return
        finally:
            self._inputs.pop(run_id, None)
        if report is None:
            return
        self.reports[run_id] = report
        if self.raise_error and self.policy.decide(report.verdicts) is Action.BLOCK:
            raise HallucinationBlocked(report)

    def on_llm_error(self, error: BaseException, *, run_id: UUID, **kwargs: Any) -> None:
        """Forget the failed run."""
        self._inputs.pop(run_id, None)

    def on_chain_end(self, outputs: Any, *, run_id: UUID, parent_run_id: UUID | None = None, **kwargs: Any) -> None:
        """A finished root chain releases its state."""
        if parent_run_id is None:
            self._forget(run_id)

    def on_chain_error(
        self, error: BaseException, *, run_id: UUID, parent_run_id: UUID | None = None, **kwargs: Any
    ) -> None:
        """A failed root chain releases its state."""
        if parent_run_id is None:
            self._forget(run_id)

    def _forget(self, root: UUID) -> None:
        self._queries.pop(root, None)
        self._documents.pop(root, None)
        for child in [r for r, p in self._parents.items() if p == root]:
            self._parents.pop(child, None)
            self._documents.pop(child, None)
            self._queries.pop(child, None)

    def _score(self, response: Any, run_id: UUID, parent_run_id: UUID | None) -> Report | None:
        generations = getattr(response, "generations", None)
        if not generations or not generations[0]:
            return None
        text = generations[0][0].text
        kind, value = self._inputs.get(run_id, ("prompt", None))
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


class _DocumentCollector(BaseCallbackHandler):
    """Collects what retrievers return during one guarded invocation."""

    def __init__(self) -> None:
        super().__init__()
        self.documents: list[Any] = []

    def on_retriever_end(self, documents: Sequence[Any], **kwargs: Any) -> None:
        """Keep the documents."""
        self.documents.extend(documents)


def _with_collector(config: RunnableConfig | None) -> tuple[RunnableConfig, _DocumentCollector]:
    collector = _DocumentCollector()
    cfg = ensure_config(config)
    callbacks = cfg.get("callbacks")
    if callbacks is None:
        cfg["callbacks"] = [collector]
    elif isinstance(callbacks, list):
        cfg["callbacks"] = [*callbacks, collector]
    else:  # a callback manager
        manager = callbacks.copy()
        manager.add_handler(collector, inherit=True)
        cfg["callbacks"] = manager
    return cfg, collector


class GuardRunnable(Runnable[Any, Any]):
    """Enforce mode: ``GuardRunnable(chain_or_model, guard, policy=...)``.

    The query comes from the input (a string, messages, a prompt value, or a dict with
    ``question``/``query``/``input``); documents from a dict's ``documents``/``context``
    and from any retriever that runs inside. Blocked calls raise
    ``HallucinationBlocked`` unless the policy has a ``fallback`` (or, before the call, a
    clarification applies): then that text comes back as an ``AIMessage`` with
    ``response_metadata["finish_reason"] = "content_filter"``. Annotate puts a summary
    in ``response_metadata["faithguard"]`` (a string output becomes ``AnnotatedText``).
    """

    def __init__(self, bound: Runnable[Any, Any], guard: Guard, policy: Policy | None = None) -> None:
        self.bound = bound
        self.guard = guard
        self.policy = policy or guard.policy
        if self.policy.decide([]) is Action.BLOCK:
            raise ValueError("a policy cannot block calls that have no verdicts")

    def _call(self, value: Any) -> GuardedCall:
        return GuardedCall(
            self.guard,
            self.policy,
            query=_query_of(value),
            messages=_messages_of(value),
            documents=_documents_of(value),
            provider="langchain",
        )

    @staticmethod
    def _blocked(outcome: Outcome) -> AIMessage:
        if outcome.text is None:
            raise outcome.error()
        meta = {"finish_reason": "content_filter", "faithguard": report_summary(outcome.report, outcome.action)}
        return AIMessage(content=outcome.text or DEFAULT_BLOCK_TEXT, response_metadata=meta)

    @staticmethod
    def _finish(outcome: Outcome, output: Any) -> Any:
        if outcome.blocked:
            return GuardRunnable._blocked(outcome)
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
        """Check, call the wrapped runnable, score, apply the policy."""
        call = self._call(input)
        blocked = call.before()
        if blocked is not None:
            return self._blocked(blocked)
        cfg, collector = _with_collector(config)
        with call.chat_span():
            try:
                output = self.bound.invoke(input, cfg, **kwargs)
            except BaseException as exc:
                call.fail(exc)
                raise
        call.add_documents(collector.documents)
        return self._finish(call.after(_text(output)), output)

    async def ainvoke(self, input: Any, config: RunnableConfig | None = None, **kwargs: Any) -> Any:
        """Async :meth:`invoke`; the guard's stages run in worker threads."""
        call = self._call(input)
        blocked = await asyncio.to_thread(call.before)
        if blocked is not None:
            return self._blocked(blocked)
        cfg, collector = _with_collector(config)
        with call.chat_span():
            try:
                output = await self.bound.ainvoke(input, cfg, **kwargs)
            except BaseException as exc:
                call.fail(exc)
                raise
        call.add_documents(collector.documents)
        return self._finish(await asyncio.to_thread(call.after, _text(output)), output)

    def stream(self, input: Any, config: RunnableConfig | None = None, **kwargs: Any) -> Iterator[Any]:
        """Chunks pass through; scored at the end (annotate adds a last empty chunk with the summary)."""
        call = self._call(input)
        blocked = call.before()
        if blocked is not None:
            yield self._blocked_chunk(blocked)
            return
        cfg, collector = _with_collector(config)
        parts: list[str] = []
        try:
            for chunk in self.bound.stream(input, cfg, **kwargs):
                parts.append(_text(chunk) or "")
                yield chunk
        except BaseException as exc:
            call.fail(exc)
            raise
        call.add_documents(collector.documents)
        tail = self._stream_tail(call.after("".join(parts)))
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
        blocked = await asyncio.to_thread(call.before)
        if blocked is not None:
            yield self._blocked_chunk(blocked)
            return
        cfg, collector = _with_collector(config)
        parts: list[str] = []
        try:
            async for chunk in self.bound.astream(input, cfg, **kwargs):
                parts.append(_text(chunk) or "")
                yield chunk
        except BaseException as exc:
            call.fail(exc)
            raise
        call.add_documents(collector.documents)
        tail = self._stream_tail(await asyncio.to_thread(call.after, "".join(parts)))
        if tail is not None:
            yield tail

    def _blocked_chunk(self, outcome: Outcome) -> AIMessageChunk:
        message = self._blocked(outcome)
        return AIMessageChunk(content=message.content, response_metadata=message.response_metadata)

    @staticmethod
    def _stream_tail(outcome: Outcome) -> AIMessageChunk | None:
        if outcome.blocked and outcome.text is None:
            raise outcome.error()
        if outcome.action in (Action.ANNOTATE, Action.BLOCK) and outcome.report is not None:
            meta = {"faithguard": report_summary(outcome.report, outcome.action)}
            return AIMessageChunk(content="", response_metadata=meta)
        return None
