"""The LangChain gate: the input stage of a :class:`~faithguard.integrations.langchain.GuardRunnable` run where a
chain's documents exist, when its first model starts, and the block that stops the chain there."""

from __future__ import annotations

import logging
import threading
from collections.abc import Sequence
from typing import Any

from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.runnables import Runnable, RunnableConfig
from langchain_core.runnables.config import ensure_config

from faithguard.errors import FaithGuardError
from faithguard.integrations.session import GuardedCall, Outcome

log = logging.getLogger("faithguard.langchain")


class InputBlocked(Exception):
    """Raised inside the wrapped chain by :class:`Gate` to stop it before the model is called."""

    def __init__(self, outcome: Outcome) -> None:
        super().__init__("faithguard blocked the call before the model ran")
        self.outcome = outcome


class Gate(BaseCallbackHandler):
    """Runs the input stage where the documents exist: when the first model of the chain starts.

    Retrievers inside the chain have run by then, so their documents are seen by the input
    checks (a RAG chain is not told its document is missing). A block stops the chain before
    the model is called; a chain that calls no model gets its input stage after it ends.
    """

    raise_error = True

    def __init__(self, call: GuardedCall, adopt: bool = False) -> None:
        super().__init__()
        self.call = call
        #: read the request from the first model's messages when the chain's input named none (one model only)
        self.adopt = adopt
        self.outcome: Outcome | None = None
        self.checked = False
        self._lock = threading.Lock()

    def on_retriever_end(self, documents: Sequence[Any], **kwargs: Any) -> None:
        """The retrieved documents join the call before its input stage."""
        with self._lock:
            try:
                self.call.add_documents(list(documents))
            except FaithGuardError as exc:  # a document faithguard cannot read must not break the chain
                log.debug("faithguard skipped retrieved documents: %s", exc)

    def check(self) -> Outcome | None:
        """The input stage, once."""
        with self._lock:
            if not self.checked:
                self.checked = True
                self.outcome = self.call.before()
            return self.outcome

    def _model_starts(self) -> None:
        outcome = self.check()
        if outcome is not None:
            raise InputBlocked(outcome)

    def on_chat_model_start(self, serialized: Any, messages: Any, **kwargs: Any) -> None:
        """The first model is about to run: check the input now (read from the model's messages when the chain's
        input held no request: a prompt's variables)."""
        with self._lock:
            if (
                self.adopt
                and not self.checked
                and isinstance(messages, list)
                and messages
                and isinstance(messages[0], list)
            ):
                self.call.adopt(messages[0])
        self._model_starts()

    def on_llm_start(self, serialized: Any, prompts: Any, **kwargs: Any) -> None:
        """The first completion model is about to run: check the input now."""
        self._model_starts()


class QuietBlocks(logging.Filter):
    """Drops langchain-core's warning about a callback that raised when the callback is :class:`Gate` stopping the
    chain: a block is faithguard's normal work (the report and the span say so), not a failing handler. Every other
    record of that logger passes."""

    def filter(self, record: logging.LogRecord) -> bool:
        args = record.args
        return not (
            isinstance(args, tuple)
            and len(args) == 3
            and args[0] == Gate.__name__
            and str(args[2]).startswith(f"{InputBlocked.__name__}(")
        )


logging.getLogger("langchain_core.callbacks.manager").addFilter(QuietBlocks())


def one_model(runnable: Runnable[Any, Any]) -> bool:
    """Whether the runnable's graph holds exactly one language model: then the messages that model is given are the
    request (``prompt | model``). With several, the first may be a step of the chain's own (rewriting the question
    for a retriever) and its prompt is not the user's request, so it is not read as one."""
    from langchain_core.language_models import BaseLanguageModel

    try:
        nodes = runnable.get_graph().nodes.values()
    except Exception:  # noqa: BLE001 - a runnable that cannot draw its graph: no request is read from its models
        return False
    return sum(isinstance(node.data, BaseLanguageModel) for node in nodes) == 1


def with_gate(config: RunnableConfig | None, gate: Gate) -> RunnableConfig:
    cfg = ensure_config(config)
    callbacks = cfg.get("callbacks")
    if callbacks is None:
        cfg["callbacks"] = [gate]
    elif isinstance(callbacks, list):
        cfg["callbacks"] = [*callbacks, gate]
    else:  # a callback manager
        manager = callbacks.copy()
        manager.add_handler(gate, inherit=True)
        cfg["callbacks"] = manager
    return cfg


def blocked_by(exc: BaseException) -> InputBlocked | None:
    """The gate's block, also when LangChain wrapped it in another exception."""
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        if isinstance(current, InputBlocked):
            return current
        seen.add(id(current))
        current = current.__cause__ or current.__context__
    return None
