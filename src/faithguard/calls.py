"""Normalise what users pass in (prompts, messages, documents) and read what LLMs return."""

from __future__ import annotations

import inspect
from collections.abc import AsyncIterator, Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from faithguard.errors import InputError
from faithguard.models import Message

__all__ = [
    "MAX_INPUT_CHARS",
    "CallInput",
    "atee_stream",
    "chunk_text",
    "extract_text",
    "is_async_stream",
    "is_stream",
    "normalize",
    "tee_stream",
]

#: Documented limit on the total size of one call's text (query + messages + documents).
MAX_INPUT_CHARS = 1_000_000


@dataclass
class CallInput:
    """A normalised request: the user's query, its chat context and documents."""

    query: str
    messages: list[Message] = field(default_factory=list)
    system: str = ""
    history: list[Message] = field(default_factory=list)
    documents: list[str] = field(default_factory=list)


def _check_encodable(text: str) -> None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise InputError(f"text holds an unpaired surrogate at position {exc.start}; give valid Unicode") from None


def _content_text(content: Any) -> str:
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, bytes | bytearray):
        raise InputError("message content must be text, not bytes")
    if isinstance(content, Sequence):
        parts: list[str] = []
        for part in content:
            if isinstance(part, str):
                parts.append(part)
            elif isinstance(part, Mapping) and isinstance(part.get("text"), str):
                parts.append(part["text"])
        return "\n".join(parts)
    raise InputError(f"message content must be text or a list of parts, not {type(content).__name__}")


def _message(raw: Any) -> Message:
    if isinstance(raw, Message):
        return raw
    if isinstance(raw, Mapping):
        role, content = raw.get("role"), raw.get("content")
    else:  # LangChain-style objects: .type / .content
        role = getattr(raw, "role", None) or getattr(raw, "type", None)
        content = getattr(raw, "content", None)
    if not isinstance(role, str):
        raise InputError("each message needs a string 'role'")
    role = {"human": "user", "ai": "assistant"}.get(role, role)
    return Message(role=role, content=_content_text(content))


def _document(raw: Any) -> str:
    if isinstance(raw, str):
        return raw
    if isinstance(raw, Mapping):
        for key in ("content", "page_content", "text"):
            if isinstance(raw.get(key), str):
                return str(raw[key])
    for attr in ("page_content", "content", "text"):
        value = getattr(raw, attr, None)
        if isinstance(value, str):
            return value
    raise InputError(f"a document must be text or have page_content/content/text, not {type(raw).__name__}")


def normalize(
    query: str | None,
    documents: Sequence[Any] | None = None,
    messages: Sequence[Any] | None = None,
    *,
    max_chars: int = MAX_INPUT_CHARS,
) -> CallInput:
    """Validate and normalise one call's input; raises :class:`InputError` with a one-line reason."""
    if query is not None and not isinstance(query, str):
        raise InputError(f"query must be a string, not {type(query).__name__}")
    if documents is not None and (isinstance(documents, str | bytes | Mapping) or not isinstance(documents, Sequence)):
        raise InputError(f"documents must be a list of texts, not {type(documents).__name__}")
    if messages is not None and (isinstance(messages, str | bytes | Mapping) or not isinstance(messages, Sequence)):
        raise InputError(f"messages must be a list of chat messages, not {type(messages).__name__}")
    msgs = [_message(m) for m in (messages or [])]
    docs = [_document(d) for d in (documents or [])]
    system = "\n\n".join(m.content for m in msgs if m.role in ("system", "developer") and m.content)
    turns = [m for m in msgs if m.role not in ("system", "developer")]
    if query is None or not query.strip():
        last_user = next((i for i in range(len(turns) - 1, -1, -1) if turns[i].role == "user"), None)
        if query is not None and query.strip() == "" and last_user is None:
            raise InputError("query is empty")
        if last_user is None:
            raise InputError("no query: pass a query or messages with a user turn")
        query = turns[last_user].content
        history = turns[:last_user]
    else:
        history = turns[:-1] if turns and turns[-1].role == "user" and turns[-1].content == query else turns
    if not query.strip():
        raise InputError("query is empty")
    for text in (query, *(m.content for m in msgs), *docs):
        _check_encodable(text)
    size = len(query) + sum(len(m.content) for m in msgs) + sum(len(d) for d in docs)
    if size > max_chars:
        raise InputError(f"input is {size} characters; the limit is {max_chars}")
    return CallInput(query=query, messages=msgs, system=system, history=history, documents=docs)


def _get(obj: Any, key: str) -> Any:
    if isinstance(obj, Mapping):
        return obj.get(key)
    return getattr(obj, key, None)


def extract_text(output: Any) -> str | None:
    """The assistant text of an LLM result: a string, an OpenAI-style completion (dict or object), or a message."""
    if isinstance(output, str):
        return output
    choices = _get(output, "choices")
    if isinstance(choices, Sequence) and not isinstance(choices, str) and choices:
        first = choices[0]
        message = _get(first, "message")
        if message is not None:
            content = _get(message, "content")
            return _content_text(content) if content is not None else ""
        text = _get(first, "text")
        if isinstance(text, str):
            return text
    content = _get(output, "content")
    if isinstance(content, str | list):
        return _content_text(content)
    return None


def chunk_text(chunk: Any) -> str:
    """The text a streamed chunk adds: str, OpenAI delta (dict/object), or a message chunk."""
    if isinstance(chunk, str):
        return chunk
    if isinstance(chunk, bytes):
        return ""
    choices = _get(chunk, "choices")
    if isinstance(choices, Sequence) and not isinstance(choices, str) and choices:
        delta = _get(choices[0], "delta")
        content = _get(delta, "content") if delta is not None else _get(choices[0], "text")
        return content if isinstance(content, str) else ""
    content = _get(chunk, "content")
    return content if isinstance(content, str) else ""


def is_stream(output: Any) -> bool:
    """A sync iterator of chunks (not a str/bytes/dict/list result)."""
    return inspect.isgenerator(output) or (
        hasattr(output, "__next__") and hasattr(output, "__iter__") and not isinstance(output, str | bytes)
    )


def is_async_stream(output: Any) -> bool:
    """An async iterator of chunks."""
    return hasattr(output, "__anext__") and hasattr(output, "__aiter__")


def model_of(kwargs: Mapping[str, Any], output: Any = None) -> str | None:
    """The model name of a call, from its kwargs or its result."""
    model = kwargs.get("model")
    if isinstance(model, str):
        return model
    value = _get(output, "model") if output is not None and not isinstance(output, str) else None
    return value if isinstance(value, str) else None


def usage_of(output: Any) -> tuple[int | None, int | None]:
    """(input_tokens, output_tokens) from an OpenAI-style result, when present."""
    if output is None or isinstance(output, str):
        return None, None
    usage = _get(output, "usage")
    if usage is None:
        return None, None
    inp, out = _get(usage, "prompt_tokens"), _get(usage, "completion_tokens")
    return (inp if isinstance(inp, int) else None, out if isinstance(out, int) else None)


def tee_stream(
    chunks: Iterator[Any], on_error: Callable[[BaseException], None], on_end: Callable[[str], object]
) -> Iterator[Any]:
    """Pass ``chunks`` through untouched, then call ``on_end`` with their joined text (``on_error`` on failure)."""
    parts: list[str] = []
    try:
        for chunk in chunks:
            parts.append(chunk_text(chunk))
            yield chunk
    except BaseException as exc:
        on_error(exc)
        raise
    on_end("".join(parts))


async def atee_stream(
    chunks: AsyncIterator[Any], on_error: Callable[[BaseException], None], on_end: Callable[[str], object]
) -> AsyncIterator[Any]:
    """Async :func:`tee_stream`; ``on_end`` runs in a worker thread (scoring is CPU work)."""
    import asyncio

    parts: list[str] = []
    try:
        async for chunk in chunks:
            parts.append(chunk_text(chunk))
            yield chunk
    except BaseException as exc:
        on_error(exc)
        raise
    await asyncio.to_thread(on_end, "".join(parts))
