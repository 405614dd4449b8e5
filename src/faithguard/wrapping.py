"""``guard.wrap``: guard sync/async LLM-calling functions, including streams."""

from __future__ import annotations

import contextlib
import functools
import inspect
from collections.abc import AsyncIterator, Callable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeVar, cast

from opentelemetry import trace
from opentelemetry.trace import Span, SpanKind

from faithguard import calls
from faithguard.errors import HallucinationBlocked
from faithguard.models import InspectReport, Report
from faithguard.policy import Action, Policy
from faithguard.runner import Run, observer_failure
from faithguard.telemetry import A_GUARD, A_STAGE, mark_error

if TYPE_CHECKING:
    from faithguard.guard import Guard

__all__ = ["AnnotatedText", "attach_report", "call_input", "wrap_callable"]

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


def _has_user_turn(messages: Any) -> bool:
    if not isinstance(messages, list | tuple):
        return False
    for m in messages:
        role = m.get("role") if isinstance(m, Mapping) else getattr(m, "role", None) or getattr(m, "type", None)
        if role in ("user", "human"):
            return True
    return False


class _Call:
    """One wrapped call: root span, input stage, output stage, policy."""

    def __init__(
        self,
        guard: Guard,
        policy: Policy,
        on_report: Callable[[Report], None] | None,
        model: str | None,
        provider: str | None,
        args: Sequence[Any],
        kwargs: Mapping[str, Any],
    ) -> None:
        self.guard, self.policy, self.on_report = guard, policy, on_report
        self.model = model or calls.model_of(kwargs)
        self.provider = provider
        query, messages, documents = call_input(args, kwargs)
        self.run: Run | None = None
        self.root: Span | None = None
        if (query is None or not query.strip()) and not _has_user_turn(messages):
            return  # nothing to guard (no request text, no user turn): the call proceeds untouched
        # Malformed documents or messages are the caller's error: raise rather than silently not guard.
        self.run = guard._start(query, documents, messages)
        self.root = guard.telemetry.tracer.start_span(
            f"guard {guard.name}",
            attributes={A_GUARD: guard.name, A_STAGE: "call", "openinference.span.kind": "GUARDRAIL"},
        )

    def before(self) -> Any:
        """Input stage; returns a fallback value when the policy blocks before the call, else None."""
        if self.run is None or self.root is None:
            return None
        with trace.use_span(self.root, end_on_exit=False):
            pre = self.guard._inspect_under(self.root, self.run)
        if self.policy.decide(pre.verdicts) is not Action.BLOCK:
            return None
        self.root.set_attribute("faithguard.blocked", "input")
        self.root.end()
        if pre.clarification and self.policy.clarify_missing_content:
            return AnnotatedText(pre.clarification, pre)
        if self.policy.fallback is not None:
            return AnnotatedText(self.policy.fallback, pre)
        raise HallucinationBlocked(pre)

    def chat_span(self) -> Any:
        """The child span around the wrapped LLM call."""
        tracer = self.guard.telemetry.tracer
        attrs: dict[str, Any] = {"gen_ai.operation.name": "chat", "gen_ai.provider.name": self.provider or "unknown"}
        if self.model:
            attrs["gen_ai.request.model"] = self.model
        ctx = trace.set_span_in_context(self.root) if self.root is not None else None
        return tracer.start_as_current_span(
            f"chat {self.model}" if self.model else "chat", context=ctx, kind=SpanKind.CLIENT, attributes=attrs
        )

    def record_output(self, span: Span, output: Any) -> None:
        """GenAI response attributes on the chat span."""
        if not span.is_recording():
            return
        inp, out = calls.usage_of(output)
        if inp is not None:
            span.set_attribute("gen_ai.usage.input_tokens", inp)
        if out is not None:
            span.set_attribute("gen_ai.usage.output_tokens", out)
        rid = output.get("id") if isinstance(output, Mapping) else getattr(output, "id", None)
        if isinstance(rid, str):
            span.set_attribute("gen_ai.response.id", rid)

    def fail(self, exc: BaseException) -> None:
        """The wrapped call raised: close the root span with the error."""
        if self.root is not None:
            mark_error(self.root, exc)
            self.root.end()

    def after(self, output: Any, text: str | None) -> Any:
        """Output stage (inline or background) and the policy's action on the result."""
        if self.run is None or self.root is None or text is None:
            if self.root is not None:
                self.root.end()
            return output
        background = self.guard._background
        if background is not None:
            background.submit(functools.partial(self._score_quietly, text))
            return output
        report = self._score(text)
        action = self.policy.decide(report.verdicts)
        if action is Action.BLOCK:
            if self.policy.fallback is not None:
                return AnnotatedText(self.policy.fallback, report)
            raise HallucinationBlocked(report)
        if action is Action.ANNOTATE:
            return attach_report(output, report)
        return output

    def _score_quietly(self, text: str) -> None:
        self._score(text)

    def _score(self, text: str) -> Report:
        assert self.run is not None and self.root is not None
        try:
            with trace.use_span(self.root, end_on_exit=False):
                report = self.guard._output_stage(self.run, text, self.root)
        finally:
            self.root.end()
        if self.on_report is not None:
            try:
                self.on_report(report)
            except Exception as exc:  # noqa: BLE001 - a user callback never breaks the call
                report.errors.append(observer_failure("on_report", exc))
        return report


def _stream(call: _Call, chunks: Iterator[Any]) -> Iterator[Any]:
    return calls.tee_stream(chunks, call.fail, functools.partial(call.after, None))


def _astream(call: _Call, chunks: AsyncIterator[Any]) -> AsyncIterator[Any]:
    return calls.atee_stream(chunks, call.fail, functools.partial(call.after, None))


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

            call = _Call(guard, policy, on_report, model, provider, args, kwargs)
            blocked = await asyncio.to_thread(call.before)
            if blocked is not None:
                return blocked
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
            return await asyncio.to_thread(call.after, output, calls.extract_text(output))

        return cast(F, awrapper)

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        call = _Call(guard, policy, on_report, model, provider, args, kwargs)
        blocked = call.before()
        if blocked is not None:
            return blocked
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
        return call.after(output, calls.extract_text(output))

    return cast(F, wrapper)
