"""One guarded LLM call as data: start -> input stage -> the call -> output stage -> outcome.

:class:`GuardedCall` follows the OpenTelemetry GenAI invocation pattern: it is created when a
call starts (opening the root ``guard {name}`` span), runs the input stage (:meth:`GuardedCall.before`),
wraps the LLM call in a ``chat {model}`` span, runs the output stage on whatever the model
returned (:meth:`GuardedCall.after`) and ends. Each stage returns a :class:`Decision` (the policy's
action as data); nothing here raises for a block. ``Guard.check``/``inspect``, ``guard.wrap``, the
OpenAI wrapper, the proxy and the LangChain integrations are all thin adapters over this object.
"""

from __future__ import annotations

import functools
import sys
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from opentelemetry import context as otel_context
from opentelemetry import trace
from opentelemetry.trace import Link, Span, SpanKind

from faithguard import calls
from faithguard.errors import HallucinationBlocked, InputError
from faithguard.models import InspectReport, Report
from faithguard.policy import Action, Policy
from faithguard.runner import Run, observer_failure
from faithguard.telemetry import A_GUARD, A_STAGE, mark_error

if TYPE_CHECKING:
    from faithguard.guard import Guard

__all__ = ["Decision", "GuardedCall"]

#: Reason recorded when the model answered with tool calls instead of text.
TOOL_CALL_REASON = "tool_call: the model asked for a tool; there is no answer to score yet"
#: Why a failed call's report is undetermined (followed by the exception's type, never its message).
CALL_FAILED_REASON = "call_failed: the LLM call failed; there is no answer to score"
#: Reason recorded when the answer's content is not text (a dict or a number where text belongs) or not valid text (an
#: unpaired surrogate).
UNREADABLE_REASON = "unreadable_answer: the answer's content is not valid text; there is no answer to score"
#: Reason recorded when the request's messages or documents are not text faithguard reads (an iterator of parts, bytes)
#: and the policy cannot block: the call goes on as the caller made it, unchecked.
UNREADABLE_INPUT_REASON = (
    "unreadable_input: the request's messages or documents are not in a form faithguard reads; the call went on "
    "unchecked"
)
#: Reason recorded when the request is longer than the guard reads (``max_input_chars``) and the policy cannot block.
INPUT_TOO_LARGE_REASON = (
    "input_too_large: the request is longer than this guard reads (max_input_chars); the call went on unchecked"
)
#: Reason recorded when the consumer closed a stream before it ended (a partial answer is not scored).
STREAM_CLOSED_REASON = "stream_closed: the stream was closed before it ended; a partial answer is not scored"
#: Reason recorded when a stream was dropped before anyone read it.
STREAM_UNREAD_REASON = "stream_unread: the stream was dropped unread; there is no answer to score"


@dataclass
class Decision:
    """What the policy made of one stage: the action, the report, and a replacement text when blocked."""

    action: Action
    report: Report | InspectReport | None
    #: Clarification or fallback text to return instead of the model's answer (blocked calls only).
    text: str | None = None
    #: Stage that decided: "input" (before the LLM call) or "output".
    stage: str = "output"

    @property
    def blocked(self) -> bool:
        """Whether the policy blocked the call."""
        return self.action is Action.BLOCK

    def error(self) -> HallucinationBlocked:
        """The exception to raise for a blocked call."""
        assert self.report is not None
        return HallucinationBlocked(self.report)


def _why_unread(query: str | None, documents: Sequence[Any] | None, messages: Sequence[Any] | None) -> str:
    """The reason a watched call's input was not read: too long for the guard, or in a form it does not read.
    Malformed ``documents`` (faithguard's own argument) raise :class:`~faithguard.InputError`: the caller's error."""
    unlimited = sys.maxsize
    try:
        calls.normalize(query, documents, messages, max_chars=unlimited)
    except InputError:
        if documents is not None:
            calls.normalize("x", documents, max_chars=unlimited)
        return UNREADABLE_INPUT_REASON
    return INPUT_TOO_LARGE_REASON


class GuardedCall:
    """Input checks before, scoring after, for one LLM call.

    ``GuardedCall(guard, query=..., messages=..., documents=..., model=...)`` starts the call.
    With neither a query nor a user turn there is nothing to guard: :attr:`guarded` is False and
    every stage passes the call through untouched. Malformed documents or messages raise
    :class:`~faithguard.InputError` here, before anything runs -- except with ``pass_unreadable`` (the SDK
    wrappers: the caller's SDK may accept a form faithguard does not read, such as an iterator of parts) under a
    policy that cannot block: then the call goes on unchecked and its report is ``undetermined``
    (``unreadable_input``, or ``input_too_large`` over the guard's ``max_input_chars``). Nothing of the input is
    consumed.
    """

    def __init__(
        self,
        guard: Guard,
        policy: Policy | None = None,
        *,
        query: str | None = None,
        messages: Sequence[Any] | None = None,
        documents: Sequence[Any] | None = None,
        model: str | None = None,
        provider: str | None = None,
        operation: str = "call",
        require: bool = False,
        pass_unreadable: bool = False,
        on_report: Callable[[Report], None] | None = None,
    ) -> None:
        for label, value in (("model", model), ("provider", provider)):
            if value is not None and not isinstance(value, str):
                raise InputError(f"{label} must be a string or None, not {type(value).__name__}")
        self.guard = guard
        self.on_report = on_report
        self.policy = policy or guard.policy
        self.model = model
        self.provider = provider
        self.pre: InspectReport | None = None
        self.report: Report | None = None
        self.run: Run | None = None
        self.root: Span | None = None
        self.response_id: str | None = None
        self._ended = False
        self._input_done = False
        #: the output stage has the answer (scored here or queued): an abandoned stream's finalizer leaves it be
        self._answered = False
        #: held while the input stage runs: a caller cancelled meanwhile ends the call only after it
        self._stage = threading.Lock()
        #: why the request was not read (the policy cannot block, so the call went on); its report says so
        self._unread_input: str | None = None
        self._documents, self._pass_unreadable, self._operation = documents, pass_unreadable, operation
        #: documents found (by a retriever) before the request was: kept for :meth:`adopt`
        self._found_documents: list[Any] = []
        #: where the call was made: the guard span's parent, also when the request is found later (:meth:`adopt`)
        self._caller_context = otel_context.get_current()
        if not require and (query is None or not query.strip()) and not _has_user_turn(messages):
            return  # nothing to guard (no request text, no user turn): the call proceeds untouched
        self._begin(query, documents, messages)

    def _begin(
        self,
        query: str | None,
        documents: Sequence[Any] | None,
        messages: Sequence[Any] | None,
        links: Sequence[Link] = (),
    ) -> None:
        guard = self.guard
        try:
            self.run = guard._start(query, documents, messages)
        except InputError:
            if not self._pass_unreadable or self.policy.can_block:
                raise  # a policy that may block never lets through a call it could not check
            # observe / annotate: faithguard never breaks a call it only watches; the report is undetermined
            self._unread_input = _why_unread(query, documents, messages)
            self.run = guard._start_unread()
        self.root = guard.telemetry.tracer.start_span(
            f"guard {guard.name}",
            context=self._caller_context,
            links=links,
            attributes={A_GUARD: guard.name, A_STAGE: self._operation, "openinference.span.kind": "GUARDRAIL"},
        )

    def adopt(self, messages: Sequence[Any]) -> None:
        """Guard the call from ``messages``, what the model of a one-model chain is given, when the call's own input
        held no request (an LCEL prompt's variables, ``{"topic": ...}``): a call that would have passed unguarded is
        then checked (and under a blocking policy, blocked). Nothing when the call is guarded already, has ended, or
        the messages hold no user turn."""
        if self.run is not None or self._ended or self._input_done or not _has_user_turn(list(messages)):
            return
        # found inside the model's span: the guard span is not made its child (it has the caller's parent, as when
        # the request is read up front) but links to it
        inside = trace.get_current_span().get_span_context()
        self._begin(None, self._documents, list(messages), links=[Link(inside)] if inside.is_valid else ())
        for found in self._found_documents:
            try:
                self.add_documents([found])
            except InputError:
                continue  # a retrieved document faithguard cannot read never breaks the chain (as before adopt)

    @property
    def guarded(self) -> bool:
        """False when the input had nothing to guard: the call proceeds untouched."""
        return self.run is not None

    def add_documents(self, documents: Sequence[Any]) -> None:
        """Documents found during the call (e.g. by a retriever), seen by the output stage."""
        if self.run is not None:
            self.run.ctx.documents.extend(calls.normalize("x", documents).documents)
        else:
            self._found_documents.extend(documents)  # the request may still be found (adopt)

    # -- input stage -----------------------------------------------------------------------------

    def before(self) -> Decision | None:
        """Run the input stage; a :class:`Decision` when the policy blocks before the call, else None."""
        pre = self._input()
        if pre is None or self.policy.decide(pre.verdicts) is not Action.BLOCK:
            return None
        assert self.root is not None
        self.root.set_attribute("faithguard.blocked", "input")
        self.end()
        text = pre.clarification if pre.clarification and self.policy.clarify_missing_content else None
        return Decision(Action.BLOCK, pre, text or self.policy.fallback, "input")

    async def abefore(self) -> Decision | None:
        """:meth:`before` in a worker thread, for async callers.

        A caller cancelled meanwhile (``asyncio.wait_for``, a client gone) gets its exception at once; the input
        stage's thread cannot be stopped, so once it is done the call ends as failed (an ``undetermined`` report
        and a closed span, :meth:`fail`) rather than leaving its span open and its report undelivered.
        """
        import asyncio

        task = asyncio.ensure_future(asyncio.to_thread(self.before))
        try:
            return await asyncio.shield(task)
        except BaseException as exc:
            task.add_done_callback(functools.partial(self._failed_after, exc))
            raise

    def _failed_after(self, exc: BaseException, task: Any) -> None:
        if not task.cancelled():
            task.exception()  # the caller has its own exception; the input stage's is taken here
        # the task may be cancelled while its thread still runs the input stage (an event loop shutting down):
        # end the call from a thread that waits for the stage, never beside it
        threading.Thread(target=self._fail_after_stage, args=(exc,), name="faithguard-fail", daemon=True).start()

    def _fail_after_stage(self, exc: BaseException) -> None:
        with self._stage:
            pass
        self.fail(exc)

    def _input(self) -> InspectReport | None:
        if self.run is None or self.root is None or self._unread_input is not None:
            return None
        if not self._input_done:
            self._input_done = True
            run, guard, span = self.run, self.guard, self.root
            with self._stage, trace.use_span(span, end_on_exit=False):
                guard.telemetry.record_input_content(span, run.ctx.query, run.ctx.documents)
                run.decompose(guard._decomposer_chain(), guard._cached_decompose(run))
                run.detect(guard.detectors, "input")
                run.input_verdicts = len(run.ctx.verdicts)
                self.pre = run.inspect_report()
                guard.telemetry.record_verdicts(span, self.pre.verdicts, "input", guard.name)
        return self.pre

    # -- the LLM call ----------------------------------------------------------------------------

    def chat_span(self) -> Any:
        """Context manager: the ``chat {model}`` client span around the LLM call."""
        tracer = self.guard.telemetry.tracer
        attrs: dict[str, Any] = {"gen_ai.operation.name": "chat", "gen_ai.provider.name": self.provider or "unknown"}
        if self.model:
            attrs["gen_ai.request.model"] = self.model
        ctx = trace.set_span_in_context(self.root) if self.root is not None else None
        # Exceptions are marked by type only (mark_error): their text may quote the prompt.
        return tracer.start_as_current_span(
            f"chat {self.model}" if self.model else "chat",
            context=ctx,
            kind=SpanKind.CLIENT,
            attributes=attrs,
            record_exception=False,
            set_status_on_exception=False,
        )

    def record_output(self, span: Span, output: Any) -> None:
        """GenAI response attributes (usage, response id and model, finish reasons) on the chat span."""
        attrs = calls.response_attributes(output)
        rid, model = attrs.get("gen_ai.response.id"), attrs.get("gen_ai.response.model")
        if isinstance(rid, str):
            self.response_id = rid
        if isinstance(model, str):
            self.model = self.model or model
        if not span.is_recording():
            return
        inp, out = calls.usage_of(output)
        if inp is not None:
            attrs["gen_ai.usage.input_tokens"] = inp
        if out is not None:
            attrs["gen_ai.usage.output_tokens"] = out
        if attrs:
            span.set_attributes(attrs)

    def fail(self, exc: BaseException) -> None:
        """The LLM call failed: an ``undetermined`` report (reason ``call_failed``), span closed with the error.

        The report reaches telemetry, ``on_report`` observers and :attr:`report` like any other, so a
        dashboard sees failed calls as undetermined instead of losing them. Only the exception's type
        is recorded, never its message.
        """
        if self.run is not None and self.root is not None and not self._ended and self.report is None:
            self.run.undetermined.append(f"{CALL_FAILED_REASON} ({type(exc).__name__})")
            report = self.run.report("", self.guard.weights, self.model)
            self.guard.telemetry.record_report(self.root, report, self.guard.name, self.response_id)
            self.guard._notify(report)
            self._deliver(report)
        if self.root is not None and not self._ended:
            mark_error(self.root, exc)
        self.end()

    # -- output stage ----------------------------------------------------------------------------

    def after(self, output: Any = None, *, text: str | None = None, background: bool | None = None) -> Decision:
        """Run the output stage on ``output`` (any supported result shape) or ``text``.

        A result that is a tool call is not an answer: it passes through, noted with an
        ``undetermined`` report (reason ``tool_call``), never scored as empty and never blocked.
        With ``background`` (default: the guard's setting) scoring is queued and the decision is
        ``observe`` with no report; the report reaches ``on_report`` observers when done.
        """
        if self.run is None or self.root is None:
            self.end()
            return Decision(Action.OBSERVE, None)
        self._answered = True
        if self._unread_input is not None:
            return self.unscored(self._unread_input, checks=False)
        try:
            if text is not None:
                calls.check_encodable(text)  # a stream's joined text, given here, is not read through extract_text
            elif output is not None:
                if calls.tool_calls_of(output):
                    return Decision(Action.OBSERVE, self._tool_call_report())
                text = calls.extract_text(output)  # checks the text it reads
        except InputError:
            # content that is not text (a dict, a number) or not valid text: the caller gets its result untouched
            return self.unscored(UNREADABLE_REASON)
        if text is None:
            self.end()
            return Decision(Action.OBSERVE, None)
        queue = self.guard._background if background is None or background else None
        if queue is not None:
            queue.submit(functools.partial(self._score_quietly, text))
            return Decision(Action.OBSERVE, None)
        report = self._score(text)
        action = self.policy.decide(report.verdicts)
        if action is Action.BLOCK:
            return Decision(action, report, self.policy.fallback, "output")
        return Decision(action, report)

    def unscored(self, reason: str, *, checks: bool = True) -> Decision:
        """Do not score the answer (e.g. it is over a size limit): an ``undetermined`` report saying ``reason``.

        The input stage runs (its verdicts stand and the policy decides on them) unless ``checks`` is
        False (the scorer itself failed: nothing more runs); the output stage does not. The report
        reaches telemetry, ``on_report`` observers and :attr:`report` like a scored one, and the root
        span ends. ``reason`` must not quote content.
        """
        if self.run is None or self.root is None:
            self.end()
            return Decision(Action.OBSERVE, None)
        try:
            if checks:
                self._input()
            self.run.undetermined.append(reason)
            report = self.run.report("", self.guard.weights, self.model)
            self.root.set_attribute("faithguard.unscored", reason.split(":", 1)[0])
            self.guard.telemetry.record_report(self.root, report, self.guard.name, self.response_id)
            self.guard._notify(report)
        finally:
            self.end()
        self._deliver(report)
        action = self.policy.decide(report.verdicts)
        return Decision(action, report, self.policy.fallback if action is Action.BLOCK else None)

    def complete(self, report: Report, input_verdicts: int) -> Decision:
        """Finish the call with ``report``, scored elsewhere (a worker process with an equally built guard).

        ``report.verdicts[:input_verdicts]`` are the input stage's. Telemetry, observers and the
        root span get what the stages would have given them here (the input verdicts only when the
        input stage did not already run here); the policy decides on the report.
        """
        if self.run is None or self.root is None:
            self.end()
            return Decision(Action.OBSERVE, None)
        guard, run, span, rid = self.guard, self.run, self.root, self.response_id
        try:
            with trace.use_span(span, end_on_exit=False):
                if not self._input_done:
                    self._input_done = True
                    guard.telemetry.record_input_content(span, run.ctx.query, run.ctx.documents)
                    guard.telemetry.record_verdicts(span, report.verdicts[:input_verdicts], "input", guard.name)
                guard.telemetry.record_verdicts(span, report.verdicts[input_verdicts:], "output", guard.name, rid)
                guard.telemetry.record_report(span, report, guard.name, rid)
                guard._notify(report)
        finally:
            self.end()
        self._deliver(report)
        action = self.policy.decide(report.verdicts)
        return Decision(action, report, self.policy.fallback if action is Action.BLOCK else None)

    def _tool_call_report(self) -> Report:
        assert self.run is not None
        self._input()
        self.run.undetermined.append(TOOL_CALL_REASON)
        report = self.run.report("", self.guard.weights, self.model)
        if self.root is not None:
            self.root.set_attribute("faithguard.tool_call", True)
        self.end()
        self.report = report
        return report

    def interrupted(self, exc: BaseException) -> None:
        """A stream stopped before its end: closed by its consumer (``GeneratorExit``: nothing failed, the partial
        answer is not scored) or failed (:meth:`fail`)."""
        if isinstance(exc, GeneratorExit):
            self.abandon(STREAM_CLOSED_REASON)
        else:
            self.fail(exc)

    def abandon(self, reason: str = STREAM_UNREAD_REASON) -> None:
        """End a call whose answer will never be scored (a stream dropped unread, or closed early): an
        ``undetermined`` report saying ``reason`` unless the call already has one. Never raises: it may run from a
        finalizer."""
        if self._answered:
            return  # the output stage has the answer (in background mode, queued): it ends the call itself
        if self.run is None or self._ended or self.report is not None:
            self.end()
            return
        try:
            self.unscored(reason, checks=False)
        except Exception:  # noqa: BLE001 - a finalizer must not raise; the span still ends
            self.end()

    def _score_quietly(self, text: str) -> None:
        self._score(text)

    def _score(self, text: str) -> Report:
        assert self.run is not None and self.root is not None
        guard, run, span = self.guard, self.run, self.root
        try:
            self._input()
            with trace.use_span(span, end_on_exit=False):
                run.ctx.response = text
                run.detect(guard.detectors, "output")
                report = run.report(text, guard.weights, self.model)
                rid = self.response_id
                guard.telemetry.record_verdicts(span, report.verdicts[run.input_verdicts :], "output", guard.name, rid)
                guard.telemetry.record_report(span, report, guard.name, rid)
                guard._notify(report)
        finally:
            self.end()
        self._deliver(report)
        return report

    def _deliver(self, report: Report) -> None:
        self.report = report
        if self.on_report is not None:
            try:
                self.on_report(report)
            except (Exception, SystemExit) as exc:  # noqa: BLE001 - a user callback never breaks the call
                report.errors.append(observer_failure("on_report", exc))

    def end(self) -> None:
        """End the root span (idempotent)."""
        if self.root is not None and not self._ended:
            self._ended = True
            self.root.end()


def _has_user_turn(messages: Any) -> bool:
    """Whether the last user turn holds text (an image-only turn, "what is this?" said by the picture alone, gives
    the checks nothing to read: the call passes through untouched). Content of a shape faithguard cannot read counts
    as text here, so that normalising it raises its own clear error."""
    if not isinstance(messages, list | tuple):
        return False
    for m in reversed(messages):
        role = m.get("role") if isinstance(m, Mapping) else getattr(m, "role", None) or getattr(m, "type", None)
        if role in ("user", "human"):
            content = m.get("content") if isinstance(m, Mapping) else getattr(m, "content", None)
            try:
                return bool(calls.message_text(content).strip())
            except InputError:
                return True
    return False
