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
    "check_encodable",
    "chunk_has_tool_call",
    "chunk_text",
    "extract_text",
    "finish_reasons_of",
    "is_async_stream",
    "is_stream",
    "message_text",
    "normalize",
    "response_attributes",
    "tee_stream",
    "tool_calls_of",
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
    #: content parts of the user's turns that are not text (an image, audio, a file): material the request
    #: supplies that faithguard does not read
    attachments: int = 0


def check_encodable(text: str) -> None:
    """Raise :class:`InputError` when ``text`` holds an unpaired surrogate (it cannot be encoded, logged or sent)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise InputError(f"text holds an unpaired surrogate at position {exc.start}; give valid Unicode") from None


def _part_text(part: Any) -> str | None:
    """The text of one content part: a string, a ``{"type": "text", "text": ...}`` dict, or a block object.

    Parts that are not answer text (tool calls, images, reasoning) give None. OpenAI chat parts are
    ``text``, Responses API message parts ``output_text``; Anthropic ``TextBlock`` objects carry
    ``type="text"`` and ``.text``; LangChain standard content blocks are dicts of the same form.
    """
    if isinstance(part, str):
        return part
    kind = _get(part, "type")
    text = _get(part, "text")
    if isinstance(text, str) and kind in (None, "text", "output_text", "input_text"):
        return text
    return None


def message_text(content: Any) -> str:
    """The text of a message's content (a string or a list of parts; non-text parts dropped)."""
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, bytes | bytearray):
        raise InputError("message content must be text, not bytes")
    if isinstance(content, Sequence):
        parts = [t for t in (_part_text(part) for part in content) if t is not None]
        return "\n".join(parts)
    raise InputError(f"message content must be text or a list of parts, not {type(content).__name__}")


def _attachments(raw: Any) -> int:
    """Content parts of a user message that are not text (``image_url``, ``input_audio``, ``file`` ...)."""
    role = raw.get("role") if isinstance(raw, Mapping) else getattr(raw, "role", None) or getattr(raw, "type", None)
    content = raw.get("content") if isinstance(raw, Mapping) else getattr(raw, "content", None)
    if role not in ("user", "human") or isinstance(content, str | bytes | bytearray):
        return 0
    if not isinstance(content, Sequence):
        return 0
    return sum(1 for part in content if _part_text(part) is None)


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
    return Message(role=role, content=message_text(content))


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
    attachments = sum(_attachments(m) for m in (messages or []) if not isinstance(m, Message))
    for text in (query, *(m.content for m in msgs), *docs):
        check_encodable(text)
    # the query once: taken from (or equal to) a user turn, it is already among the messages (a 500,001-character
    # message was counted twice and refused as over 1,000,000; helper 87)
    given = any(m.role == "user" and m.content == query for m in msgs)
    size = (0 if given else len(query)) + sum(len(m.content) for m in msgs) + sum(len(d) for d in docs)
    if size > max_chars:
        raise InputError(f"input is {size} characters; the limit is {max_chars}")
    return CallInput(
        query=query, messages=msgs, system=system, history=history, documents=docs, attachments=attachments
    )


def _get(obj: Any, key: str) -> Any:
    if isinstance(obj, Mapping):
        return obj.get(key)
    return getattr(obj, key, None)


def _items(value: Any) -> list[Any]:
    """``value`` as a list when it is a non-text sequence, else empty."""
    if isinstance(value, Sequence) and not isinstance(value, str | bytes | bytearray):
        return list(value)
    return []


# Output-item and content-block types that ask the caller to run a tool (the turn is not an answer):
# OpenAI Responses API client-side calls, Anthropic Messages ``tool_use`` blocks. Server-side tools
# (web_search_call, file_search_call, ...) run inside the provider and are followed by a message.
_CALL_TYPES = frozenset({"function_call", "custom_tool_call", "computer_call", "local_shell_call", "tool_use"})


def _is_responses_api(output: Any) -> bool:
    return _get(output, "object") == "response" or (
        _get(output, "choices") is None and bool(_items(_get(output, "output")))
    )


def tool_calls_of(output: Any) -> list[Any]:
    """The tool calls an LLM result asks the caller to run; empty for a plain answer.

    Reads OpenAI chat completions (``choices[0].message.tool_calls`` and the legacy
    ``function_call``), OpenAI Responses (``output[]`` items of type ``function_call`` and other
    client-side calls), Anthropic messages (``tool_use`` content blocks) and LangChain messages
    (``AIMessage.tool_calls``), as dicts or SDK objects. A result with tool calls is a step of an
    agent loop, not an answer: integrations pass it through unscored and unblocked.
    """
    if output is None or isinstance(output, str | bytes):
        return []
    choices = _items(_get(output, "choices"))
    if choices:
        message = _get(choices[0], "message")
        if message is None:
            return []
        found = _items(_get(message, "tool_calls"))
        legacy = _get(message, "function_call")
        return found + ([legacy] if legacy else [])
    if _is_responses_api(output):
        return [item for item in _items(_get(output, "output")) if _get(item, "type") in _CALL_TYPES]
    found = _items(_get(output, "tool_calls"))  # LangChain AIMessage
    if found:
        return found
    return [block for block in _items(_get(output, "content")) if _get(block, "type") in _CALL_TYPES]


def _responses_text(output: Any) -> str | None:
    text = None if isinstance(output, Mapping) else getattr(output, "output_text", None)
    if isinstance(text, str):  # the SDK's Response.output_text property
        return text
    messages = [item for item in _items(_get(output, "output")) if _get(item, "type") == "message"]
    if not messages:
        return None
    return "".join(message_text(_get(item, "content")) for item in messages)


def extract_text(output: Any) -> str | None:
    """The answer text of an LLM result, or None when it has none to score; :class:`InputError` when the text is not
    valid Unicode (an unpaired surrogate, as a JSON escape can carry) or the content is not text.

    Reads a string; an OpenAI chat completion (``choices[0].message.content``) or legacy completion
    (``choices[0].text``); an OpenAI Responses object (``output_text`` or the ``message`` items of
    ``output``); an Anthropic message (``content`` blocks of type ``text``); a LangChain or other
    message with ``content`` -- as dicts or SDK objects. None for an unknown shape and for a tool
    call (see :func:`tool_calls_of`): a turn that asks for a tool is not an answer, not an empty one.
    """
    text = _extracted(output)
    if text is not None:
        check_encodable(text)
    return text


def _extracted(output: Any) -> str | None:
    if isinstance(output, str):
        return output
    if tool_calls_of(output):
        return None
    choices = _items(_get(output, "choices"))
    if choices:
        first = choices[0]
        message = _get(first, "message")
        if message is not None:
            return message_text(_get(message, "content"))
        text = _get(first, "text")
        return text if isinstance(text, str) else None
    if _is_responses_api(output):
        return _responses_text(output)
    content = _get(output, "content")
    if isinstance(content, str) or _items(content):
        return message_text(content)
    return None


def chunk_text(chunk: Any) -> str:
    """The text a streamed chunk adds: str, OpenAI delta (dict/object), or a message chunk."""
    if isinstance(chunk, str):
        return chunk
    if isinstance(chunk, bytes):
        return ""
    choices = _items(_get(chunk, "choices"))
    if choices:
        delta = _get(choices[0], "delta")
        content = _get(delta, "content") if delta is not None else _get(choices[0], "text")
        return content if isinstance(content, str) else ""
    content = _get(chunk, "content")
    if isinstance(content, str):
        return content
    return "".join(t for t in (_part_text(p) for p in _items(content)) if t is not None)


def chunk_has_tool_call(chunk: Any) -> bool:
    """Whether a streamed chunk carries (part of) a tool call: OpenAI ``delta.tool_calls``, LangChain chunks."""
    if isinstance(chunk, str | bytes) or chunk is None:
        return False
    choices = _items(_get(chunk, "choices"))
    if choices:
        delta = _get(choices[0], "delta")
        return delta is not None and bool(_items(_get(delta, "tool_calls")) or _get(delta, "function_call"))
    if _items(_get(chunk, "tool_call_chunks")) or _items(_get(chunk, "tool_calls")):
        return True
    return any(_get(block, "type") in _CALL_TYPES for block in _items(_get(chunk, "content")))


def finish_reasons_of(output: Any) -> list[str]:
    """Why the model stopped: OpenAI ``finish_reason`` per choice, Anthropic ``stop_reason``, LangChain metadata."""
    if output is None or isinstance(output, str | bytes):
        return []
    choices = _items(_get(output, "choices"))
    if choices:
        return [r for r in (_get(c, "finish_reason") for c in choices) if isinstance(r, str)]
    for source in (output, _get(output, "response_metadata")):
        for key in ("stop_reason", "finish_reason"):
            value = _get(source, key) if source is not None else None
            if isinstance(value, str):
                return [value]
    return []


def response_attributes(output: Any) -> dict[str, Any]:
    """GenAI semantic-convention attributes of an LLM result: response id, model, finish reasons."""
    attrs: dict[str, Any] = {}
    if output is None or isinstance(output, str | bytes):
        return attrs
    rid, model = _get(output, "id"), _get(output, "model")
    meta = _get(output, "response_metadata")
    if not isinstance(model, str) and meta is not None:
        model = _get(meta, "model_name") or _get(meta, "model")
    if isinstance(rid, str):
        attrs["gen_ai.response.id"] = rid
    if isinstance(model, str):
        attrs["gen_ai.response.model"] = model
    reasons = finish_reasons_of(output)
    if reasons:
        attrs["gen_ai.response.finish_reasons"] = reasons
    return attrs


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
    """(input_tokens, output_tokens) of a result: OpenAI chat, Responses, Anthropic or LangChain usage."""
    if output is None or isinstance(output, str):
        return None, None
    usage = _get(output, "usage")
    if usage is None:
        usage = _get(output, "usage_metadata")  # LangChain AIMessage
    if usage is None:
        return None, None
    inp, out = _get(usage, "prompt_tokens"), _get(usage, "completion_tokens")
    if inp is None and out is None:  # OpenAI Responses, Anthropic, LangChain
        inp, out = _get(usage, "input_tokens"), _get(usage, "output_tokens")
    return (inp if isinstance(inp, int) else None, out if isinstance(out, int) else None)


def tee_stream(
    chunks: Iterator[Any], on_error: Callable[[BaseException], None], on_end: Callable[[str | None], object]
) -> Iterator[Any]:
    """Pass ``chunks`` through untouched, then call ``on_end`` with their joined text (``on_error`` on failure).

    ``on_end`` gets None when the stream carried a tool call: that turn is not an answer.
    """
    parts: list[str] = []
    tool_call = False
    try:
        for chunk in chunks:
            parts.append(chunk_text(chunk))
            tool_call = tool_call or chunk_has_tool_call(chunk)
            yield chunk
    except BaseException as exc:
        on_error(exc)
        raise
    on_end(None if tool_call else "".join(parts))


async def atee_stream(
    chunks: AsyncIterator[Any], on_error: Callable[[BaseException], None], on_end: Callable[[str | None], object]
) -> AsyncIterator[Any]:
    """Async :func:`tee_stream`; ``on_end`` runs in a worker thread (scoring is CPU work)."""
    import asyncio

    parts: list[str] = []
    tool_call = False
    try:
        async for chunk in chunks:
            parts.append(chunk_text(chunk))
            tool_call = tool_call or chunk_has_tool_call(chunk)
            yield chunk
    except BaseException as exc:
        on_error(exc)
        raise
    await asyncio.to_thread(on_end, None if tool_call else "".join(parts))
