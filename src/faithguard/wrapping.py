"""``guard.wrap``: guard sync/async LLM-calling functions, including streams.

A thin adapter over :class:`faithguard.lifecycle.GuardedCall`: it turns the lifecycle's decisions
into what a wrapped function returns (the result, an annotated result, a clarification) or raises
(:class:`~faithguard.HallucinationBlocked`).
"""

from __future__ import annotations

import contextlib
import functools
import inspect
import weakref
from collections.abc import AsyncIterator, Callable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeVar, cast

from faithguard import calls
from faithguard.lifecycle import Decision, GuardedCall
from faithguard.models import InspectReport, Report
from faithguard.policy import Action, Policy
from faithguard.telemetry import mark_error

if TYPE_CHECKING:
    from faithguard.guard import Guard

__all__ = ["AnnotatedText", "attach_report", "call_input", "stream_end", "wrap_callable"]

F = TypeVar("F", bound=Callable[..., Any])


class AnnotatedText(str):
    """A response string carrying its faithguard report as ``.report``."""

    report: Report | InspectReport | None = None

    def __new__(cls, text: str, report: Report | InspectReport | None) -> AnnotatedText:
        obj = super().__new__(cls, text)
        obj.report = report
        return obj


def attach_report(output: Any, report: Report | InspectReport) -> Any:
    """The output with the report attached: str -> AnnotatedText, dict -> key ``faithguard``, object -> attribute."""
    if isinstance(output, str):
        return AnnotatedText(output, report)
    if isinstance(output, Mapping):
        return {**output, "faithguard": report.model_dump(mode="json")}
    with contextlib.suppress(AttributeError, TypeError):
        object.__setattr__(output, "faithguard_report", report)
    return output


def call_input(args: Sequence[Any], kwargs: Mapping[str, Any]) -> tuple[str | None, Any, Any]:
    """(query, messages, documents) of a call: ``prompt``/``query``/``messages`` kwargs or the first argument."""
    documents = kwargs.get("documents")
    messages = kwargs.get("messages")
    query = next((kwargs[k] for k in ("prompt", "query", "input") if isinstance(kwargs.get(k), str)), None)
    if query is None and messages is None:
        # the first text or list argument: skips self/cls of methods defined with @guard.wrap
        for arg in args[:2]:
            if isinstance(arg, str):
                query = arg
                break
            if isinstance(arg, list | tuple):
                messages = arg
                break
    return query, messages, documents


def _start(
    guard: Guard,
    policy: Policy,
    on_report: Callable[[Report], None] | None,
    model: str | None,
    provider: str | None,
    args: Sequence[Any],
    kwargs: Mapping[str, Any],
) -> GuardedCall:
    query, messages, documents = call_input(args, kwargs)
    return GuardedCall(
        guard,
        policy,
        query=query,
        messages=messages,
        documents=documents,
        model=model or calls.model_of(kwargs),
        provider=provider,
        on_report=on_report,
    )


def _blocked_value(decision: Decision) -> Any:
    """The value a blocked call returns: the clarification or fallback text, or the raised block."""
    if decision.text is not None:
        assert decision.report is not None
        return AnnotatedText(decision.text, decision.report)
    raise decision.error()


def _finish(call: GuardedCall, output: Any) -> Any:
    """The output stage's decision applied to ``output``: pass through, annotate, or block."""
    decision = call.after(output)
    if decision.blocked:
        return _blocked_value(decision)
    if decision.action is Action.ANNOTATE and decision.report is not None:
        return attach_report(output, decision.report)
    return output


def stream_end(call: GuardedCall) -> Callable[[str | None], None]:
    """Score a stream when it ends; a block raises after the last chunk, also under a policy with a fallback text
    (the chunks are already delivered, so the fallback cannot replace them, and passing them on in silence would
    hide the block; annotate has nothing to attach to: the report reaches ``on_report``).
    ``text`` is None when the stream was a tool call: the guard span closes unscored. Shared by ``guard.wrap`` and
    the OpenAI wrapper."""

    def finish(text: str | None) -> None:
        decision = call.after(text=text)
        if decision.blocked:
            raise decision.error()

    return finish


def _stream(call: GuardedCall, chunks: Iterator[Any]) -> Iterator[Any]:
    stream = calls.tee_stream(chunks, call.interrupted, stream_end(call))
    # A stream nobody iterates still ends its call when collected: undetermined, reason stream_unread.
    weakref.finalize(stream, call.abandon)
    return stream


def _astream(call: GuardedCall, chunks: AsyncIterator[Any]) -> AsyncIterator[Any]:
    stream = calls.atee_stream(chunks, call.interrupted, stream_end(call))
    weakref.finalize(stream, call.abandon)
    return stream


def wrap_callable(
    guard: Guard,
    fn: F,
    policy: Policy,
    on_report: Callable[[Report], None] | None,
    model: str | None,
    provider: str | None,
) -> F:
    """Return ``fn`` guarded; streams pass through chunk by chunk and are scored when they end."""
    # In background mode output-stage verdicts arrive after the result is returned, so only the
    # input stage can block; output-stage reports reach on_report and the on_report hook.
    if inspect.iscoroutinefunction(fn):

        @functools.wraps(fn)
        async def awrapper(*args: Any, **kwargs: Any) -> Any:
            import asyncio

            call = _start(guard, policy, on_report, model, provider, args, kwargs)
            blocked = await call.abefore()
            if blocked is not None:
                return _blocked_value(blocked)
            with call.chat_span() as span:
                try:
                    output = await fn(*args, **kwargs)
                except BaseException as exc:
                    mark_error(span, exc)
                    call.fail(exc)
                    raise
                call.record_output(span, output)
            if calls.is_async_stream(output):
                return _astream(call, output)
            return await asyncio.to_thread(_finish, call, output)

        return cast(F, awrapper)

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        call = _start(guard, policy, on_report, model, provider, args, kwargs)
        blocked = call.before()
        if blocked is not None:
            return _blocked_value(blocked)
        with call.chat_span() as span:
            try:
                output = fn(*args, **kwargs)
            except BaseException as exc:
                mark_error(span, exc)
                call.fail(exc)
                raise
            call.record_output(span, output)
        if calls.is_async_stream(output):
            return _astream(call, output)
        if calls.is_stream(output):
            return _stream(call, output)
        return _finish(call, output)

    return cast(F, wrapper)
