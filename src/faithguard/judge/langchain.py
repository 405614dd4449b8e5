"""Any LangChain chat model as the judge's transport (langchain-core imported lazily)."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from faithguard.errors import JudgeError, JudgeOutputError, JudgeUnavailable
from faithguard.judge.client import ChatResult
from faithguard.judge.spans import chat_span, get_tracer, record_error, record_result

__all__ = ["LangChainTransport", "model_name_of"]


def model_name_of(chat_model: Any) -> str:
    """A readable model name for a LangChain chat model."""
    for attr in ("model_name", "model", "model_id", "deployment_name"):
        value = getattr(chat_model, attr, None)
        if isinstance(value, str) and value:
            return value
    return type(chat_model).__name__


def _to_lc_messages(messages: Sequence[Mapping[str, str]], schema_name: str, schema: Mapping[str, Any]) -> list[Any]:
    from langchain_core.messages import AIMessage, HumanMessage, SystemMessage

    # LangChain models have no portable structured-output switch: state the schema in the prompt.
    schema_note = (
        f"\n\nReply with one JSON object named {schema_name} that validates against this JSON Schema, "
        "and nothing else:\n" + json.dumps(schema, separators=(",", ":"))
    )
    out: list[Any] = []
    for i, m in enumerate(messages):
        content = m["content"] + (schema_note if i == 0 and m["role"] == "system" else "")
        if m["role"] == "system":
            out.append(SystemMessage(content=content))
        elif m["role"] == "assistant":
            out.append(AIMessage(content=content))
        else:
            out.append(HumanMessage(content=content))
    if not out or not isinstance(out[0], SystemMessage):
        out.insert(0, SystemMessage(content=schema_note.strip()))
    return out


def _text_of(message: Any) -> str:
    content = getattr(message, "content", message)
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = [p if isinstance(p, str) else str(p.get("text", "")) for p in content if isinstance(p, str | dict)]
        return "".join(parts)
    raise JudgeOutputError("LangChain model returned no text content")


def _to_result(message: Any) -> ChatResult:
    usage = getattr(message, "usage_metadata", None) or {}
    meta = getattr(message, "response_metadata", None) or {}
    return ChatResult(
        content=_text_of(message),
        response_id=getattr(message, "id", None),
        model=meta.get("model_name") or meta.get("model"),
        input_tokens=usage.get("input_tokens"),
        output_tokens=usage.get("output_tokens"),
        finish_reason=meta.get("finish_reason"),
    )


def _wrap(exc: Exception) -> JudgeError:
    name = type(exc).__name__
    transient = any(word in name for word in ("Timeout", "Connection", "RateLimit", "Unavailable"))
    if isinstance(exc, TimeoutError | ConnectionError) or transient:
        return JudgeUnavailable(f"LangChain judge unavailable ({name})")
    return JudgeError(f"LangChain judge failed ({name})")


class LangChainTransport:
    """Adapts a LangChain ``BaseChatModel`` (anything with ``invoke``) to :class:`ChatTransport`."""

    def __init__(self, chat_model: Any, *, tracer: Any = None, provider: str = "langchain") -> None:
        if not callable(getattr(chat_model, "invoke", None)):
            raise TypeError("chat_model must have an invoke() method (a LangChain chat model)")
        self.chat_model = chat_model
        self.model = model_name_of(chat_model)
        self.provider = provider
        self._tracer = get_tracer(tracer)

    def __repr__(self) -> str:
        return f"LangChainTransport(model={self.model!r})"

    def chat(
        self, messages: Sequence[Mapping[str, str]], schema_name: str, schema: Mapping[str, Any], *, temperature: float
    ) -> ChatResult:
        """Invoke the chat model with the schema stated in the system message."""
        lc_messages = _to_lc_messages(messages, schema_name, schema)
        with chat_span(self._tracer, self.model, self.provider, temperature=temperature) as span:
            try:
                result = _to_result(self.chat_model.invoke(lc_messages))
            except JudgeError as exc:
                record_error(span, type(exc).__name__, str(exc))
                raise
            except Exception as exc:
                err = _wrap(exc)
                record_error(span, type(exc).__name__, str(err))
                raise err from exc
            record_result(span, result)
            return result

    async def achat(
        self, messages: Sequence[Mapping[str, str]], schema_name: str, schema: Mapping[str, Any], *, temperature: float
    ) -> ChatResult:
        """Async twin of :meth:`chat` (``ainvoke``)."""
        lc_messages = _to_lc_messages(messages, schema_name, schema)
        with chat_span(self._tracer, self.model, self.provider, temperature=temperature) as span:
            try:
                result = _to_result(await self.chat_model.ainvoke(lc_messages))
            except JudgeError as exc:
                record_error(span, type(exc).__name__, str(exc))
                raise
            except Exception as exc:
                err = _wrap(exc)
                record_error(span, type(exc).__name__, str(err))
                raise err from exc
            record_result(span, result)
            return result
