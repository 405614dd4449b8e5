"""Guard the official ``openai`` client: ``wrap(client, guard, policy=...)``.

Replaces ``client.chat.completions.create`` on that client instance (sync ``OpenAI``
or ``AsyncOpenAI``). The request's ``messages`` are checked before the call; an extra
``documents=[...]`` keyword is taken out before the SDK sees it. Results are the SDK's
own objects: a ``ChatCompletion`` (with ``faithguard_report`` set under annotate), or
the SDK's ``Stream``/``AsyncStream`` passed through chunk by chunk and scored when it
ends. A blocked call raises :class:`~faithguard.errors.HallucinationBlocked`, or with a
fallback/clarification returns a ``ChatCompletion`` (``finish_reason="content_filter"``;
for ``stream=True`` a plain iterator of ``ChatCompletionChunk``).
"""

from __future__ import annotations

import asyncio
import functools
import inspect
import time
import uuid
import weakref
from collections.abc import AsyncIterator, Callable
from typing import TYPE_CHECKING, Any, TypeVar

from faithguard import calls
from faithguard.integrations._spans import record_response
from faithguard.integrations.session import GuardedCall, Outcome
from faithguard.models import Report
from faithguard.policy import Action, Policy
from faithguard.telemetry import mark_error
from faithguard.wrapping import attach_report, stream_end

if TYPE_CHECKING:
    from faithguard.guard import Guard

__all__ = ["unwrap", "wrap"]

C = TypeVar("C")
_ORIGINAL = "_faithguard_original_create"


def _completion(text: str, model: str, report: Any) -> Any:
    from openai.types.chat import ChatCompletion

    completion = ChatCompletion.model_validate(
        {
            "id": f"chatcmpl-faithguard-{uuid.uuid4().hex[:12]}",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": model,
            "choices": [
                {"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "content_filter"}
            ],
        }
    )
    return attach_report(completion, report)


def _chunks(text: str, model: str) -> list[Any]:
    from openai.types.chat import ChatCompletionChunk

    base: dict[str, Any] = {"id": f"chatcmpl-faithguard-{uuid.uuid4().hex[:12]}", "object": "chat.completion.chunk"}
    base.update(created=int(time.time()), model=model)
    return [
        ChatCompletionChunk.model_validate(
            {**base, "choices": [{"index": 0, "delta": {"role": "assistant", "content": text}}]}
        ),
        ChatCompletionChunk.model_validate(
            {**base, "choices": [{"index": 0, "delta": {}, "finish_reason": "content_filter"}]}
        ),
    ]


def _blocked_result(outcome: Outcome, model: str, stream: bool, is_async: bool) -> Any:
    if outcome.text is None:
        raise outcome.error()
    if not stream:
        return _completion(outcome.text, model, outcome.report)
    chunks = _chunks(outcome.text, model)
    if not is_async:
        return iter(chunks)

    async def agen() -> AsyncIterator[Any]:
        for c in chunks:
            yield c

    return agen()


def _finish(outcome: Outcome, result: Any, model: str) -> Any:
    if outcome.blocked:
        return _blocked_result(outcome, model, False, False)
    if outcome.action is Action.ANNOTATE and outcome.report is not None:
        return attach_report(result, outcome.report)
    return result


def _guard_stream(call: GuardedCall, stream: Any) -> Any:
    """Swap the SDK stream's iterator for one that accumulates text and scores at the end; a stream dropped unread
    still ends its call (undetermined, stream_unread)."""
    stream._iterator = calls.tee_stream(stream._iterator, call.interrupted, stream_end(call))
    weakref.finalize(stream, call.abandon)
    return stream


def _guard_astream(call: GuardedCall, stream: Any) -> Any:
    stream._iterator = calls.atee_stream(stream._iterator, call.interrupted, stream_end(call))
    weakref.finalize(stream, call.abandon)
    return stream


def wrap(
    client: C,
    guard: Guard,
    policy: Policy | None = None,
    *,
    on_report: Callable[[Report], None] | None = None,
) -> C:
    """Guard ``client.chat.completions.create`` of this ``OpenAI``/``AsyncOpenAI`` instance; returns the client."""
    completions = client.chat.completions  # type: ignore[attr-defined]
    original = getattr(completions, _ORIGINAL, None) or completions.create
    chosen = policy or guard.policy
    if chosen.decide([]) is Action.BLOCK:
        raise ValueError("a policy cannot block calls that have no verdicts")

    def start(kwargs: dict[str, Any]) -> tuple[GuardedCall, str, bool]:
        documents = kwargs.pop("documents", None)
        model = str(kwargs.get("model") or "unknown")
        # the call delivers every report to on_report itself, an exception there contained (lifecycle._deliver)
        call = GuardedCall(
            guard,
            chosen,
            messages=kwargs.get("messages"),
            documents=documents,
            model=model,
            provider="openai",
            pass_unreadable=True,  # the SDK reads forms faithguard does not: a watched call is never broken here
            on_report=on_report,
        )
        return call, model, bool(kwargs.get("stream"))

    from openai.resources.chat.completions import AsyncCompletions

    if isinstance(completions, AsyncCompletions) or inspect.iscoroutinefunction(original):

        @functools.wraps(original)
        async def acreate(*args: Any, **kwargs: Any) -> Any:
            call, model, stream = start(kwargs)
            blocked = await call.abefore()
            if blocked is not None:
                return _blocked_result(blocked, model, stream, True)
            with call.chat_span() as span:
                try:
                    result = await original(*args, **kwargs)
                except BaseException as exc:
                    mark_error(span, exc)
                    call.fail(exc)
                    raise
                if not stream:
                    record_response(call, span, result)
            if stream:
                return _guard_astream(call, result)
            outcome = await asyncio.to_thread(call.after, result)
            return _finish(outcome, result, model)

        completions.create = acreate
    else:

        @functools.wraps(original)
        def create(*args: Any, **kwargs: Any) -> Any:
            call, model, stream = start(kwargs)
            blocked = call.before()
            if blocked is not None:
                return _blocked_result(blocked, model, stream, False)
            with call.chat_span() as span:
                try:
                    result = original(*args, **kwargs)
                except BaseException as exc:
                    mark_error(span, exc)
                    call.fail(exc)
                    raise
                if not stream:
                    record_response(call, span, result)
            if stream:
                return _guard_stream(call, result)
            outcome = call.after(result)
            return _finish(outcome, result, model)

        completions.create = create
    setattr(completions, _ORIGINAL, original)
    return client


def unwrap(client: C) -> C:
    """Restore the client's original ``chat.completions.create``."""
    completions = client.chat.completions  # type: ignore[attr-defined]
    original = getattr(completions, _ORIGINAL, None)
    if original is not None:
        completions.create = original
        delattr(completions, _ORIGINAL)
    return client
