"""A guarding, OpenAI-compatible proxy (ASGI, Starlette): ``create_app(guard, upstream)``.

``POST /v1/chat/completions`` is forwarded to ``upstream`` after the input checks. How the
answer is scored depends on ``scoring`` (the paths are
:class:`~faithguard.integrations._answer_scoring.AnswerScoring`): ``"inline"`` scores before answering and returns the
verdicts in ``x-faithguard-*`` headers (and, under annotate and block, a ``faithguard`` field of
the JSON body); ``"background"`` answers at upstream speed (``x-faithguard-score: pending``) and
scores in a bounded queue (see :class:`~faithguard.integrations._scoring.ScoringQueue`);
``"process"`` is background with the scoring done in a child process built by ``scorer`` (see
:mod:`~faithguard.integrations._score_process`), so it never holds this interpreter; ``"auto"``
(default) is process under an observe policy (background without ``scorer``), inline otherwise. Streams pass
through chunk by chunk and are always scored in the background after the last chunk. A
completion that asks for tool calls is passed through unscored (``x-faithguard-outcome:
tool_call``).

``POST /faithguard/check`` scores an answer the caller already has: ``{"query", "response",
"documents", "messages"}`` -> ``{"report": ..., "action": ...}``. ``GET /healthz`` and ``GET
/metrics`` (Prometheus text, when a registry is given) are served locally; other ``/v1/*``
requests are forwarded unguarded.

Answers longer than ``max_score_chars`` characters are not scored: their report is
``undetermined`` with the reason ``answer_too_long`` (the length and the limit, no content). Scoring
runs in this process and holds its interpreter in long single calls (a regular expression over a
1M-character answer: ~0.1 s each, 0.3-1.4 s in all), which would stall every other request,
``/healthz`` included; the default limit (200,000) is above every answer of the dev traffic.

Limits: request bodies over ``max_body_bytes`` get 413; bodies that are not strict JSON (NaN,
Infinity, unpaired surrogates, nesting past 64 levels) get 400, and bodies that do not arrive
within ``timeout`` get 408 (large bodies are parsed, and messages read, off the event loop); an upstream that fails,
stalls, resets, sends a short or undecodable body or an unreadable completion gets 502, or 504
past ``timeout`` -- with the guard span closed as an error. Request headers (Authorization
included) are forwarded and never logged; the upstream URL is logged and reported without
credentials or query values. The caller's W3C ``traceparent`` is joined; the upstream gets the
chat span's.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import gc
import json
import logging
import math
import time
import weakref
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import TYPE_CHECKING, Any

import httpx
from opentelemetry import context as otel_context
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route
from starlette.types import Receive, Scope, Send

from faithguard import calls
from faithguard.errors import FaithGuardError
from faithguard.integrations._answer_scoring import (
    MAX_SCORE_CHARS,
    SCORE_TIMEOUT,
    SCORING_FAILED,
    SCORING_MODES,
    SCORING_TIMEOUT,
    AnswerScoring,
    Source,
)
from faithguard.integrations._proxy_io import (
    BLOCK_FINISH_REASON,
    MAX_BODY_BYTES,
    Problem,
    SSEText,
    UpstreamClients,
    blocked_completion,
    blocked_stream,
    forward_headers,
    parse_json,
    read_limited,
    redact_url,
    server_stack,
    split_credentials,
    upstream_problem,
)
from faithguard.integrations._score_process import RECYCLE_ANSWERS, RECYCLE_RSS_MB, ScoringProcess
from faithguard.integrations._scoring import ScoringQueue
from faithguard.integrations._spans import record_response
from faithguard.integrations._upstream import FastUpstream, UpstreamResponse, fast_upstream
from faithguard.integrations.session import (
    DEFAULT_BLOCK_TEXT,
    GuardedCall,
    Outcome,
    report_summary,
    verdict_headers,
)
from faithguard.integrations.tracing import caller_context, inject_context
from faithguard.integrations.warmup import warm
from faithguard.models import Report
from faithguard.policy import Action, Policy
from faithguard.telemetry import mark_error

if TYPE_CHECKING:
    from faithguard.guard import Guard
    from faithguard.integrations.prometheus import PrometheusMetrics

__all__ = [
    "BLOCK_FINISH_REASON",
    "MAX_SCORE_CHARS",
    "SCORE_TIMEOUT",
    "SCORING_FAILED",
    "SCORING_TIMEOUT",
    "create_app",
    "error_body",
    "policy_name",
]

log = logging.getLogger("faithguard.proxy")

#: Request field (an object) read and removed before forwarding: ``{"documents": [...]}``.
REQUEST_EXTENSION = "faithguard"
#: Bodies up to this size are parsed on the event loop (well under a millisecond); larger ones in a thread.
_INLINE_PARSE_BYTES = 64 * 1024
#: Requests with at most this many messages (and a body within ``_INLINE_PARSE_BYTES``) are read on the
#: event loop. Provenance: starting a call took ~10 us CPU for one short message, ~50 us for 32 (AMD EPYC,
#: Python 3.11), less than handing it to a thread (a wake-up and GIL hand-overs under load).
_INLINE_MESSAGES = 32


def error_body(message: str, type_: str, code: str | None = None) -> dict[str, Any]:
    """An OpenAI-style error object."""
    return Problem(0, message, type_, code).body()


def policy_name(policy: Policy) -> str:
    """The strongest action a policy can take: ``Policy.block()`` is "block" though its default is annotate."""
    actions = [policy.default, *(rule.action for rule in policy.rules)]
    return str(max(actions, key=lambda a: a.rank))


def _asks_stream(value: Any) -> bool:
    """Whether a request's ``stream`` field asks for a stream: true, or a value servers read as true (1, "true");
    the strings "false", "0" and "" do not (a truthiness test read "false" as a stream)."""
    if isinstance(value, str):
        return value.strip().lower() not in ("", "false", "0", "no", "off")
    return bool(value)


def _problem(exc: Problem) -> JSONResponse:
    return JSONResponse(exc.body(), status_code=exc.status)


def _abandoned(call: GuardedCall, state: dict[str, bool], notify: Callable[[GuardedCall, BaseException], None]) -> None:
    if not state["started"]:
        notify(call, ConnectionAbortedError("the client left before the stream began"))


def _ms(started: float) -> float:
    return (time.perf_counter() - started) * 1000


class _Proxy:
    def __init__(
        self,
        guard: Guard,
        upstream: str,
        policy: Policy,
        clients: UpstreamClients,
        fast: FastUpstream | None,
        metrics: PrometheusMetrics | None,
        block_text: str,
        answers: AnswerScoring,
        *,
        timeout: float,
        max_body_bytes: int,
    ) -> None:
        upstream, self.auth = split_credentials(upstream)
        self.guard, self.upstream, self.policy, self.clients = guard, upstream.rstrip("/"), policy, clients
        self.fast = fast  # the chat hop's own client (None: httpx, the caller's client or an environment proxy)
        self.metrics, self.block_text, self.answers = metrics, block_text, answers
        self.timeout, self.max_body_bytes = timeout, max_body_bytes
        self.stack: dict[str, str] = {}
        self.chat_url = httpx.URL(self._url("/v1/chat/completions"))  # parsed once, not per request
        self.chat_target = self.chat_url.raw_path.decode("ascii")
        self.errors = guard.telemetry.meter.create_counter(
            "faithguard.proxy.errors", unit="{request}", description="Proxy requests answered with an error status"
        )

    @property
    def scoring(self) -> ScoringQueue:
        """The background scoring queue."""
        return self.answers.queue

    @property
    def process(self) -> ScoringProcess | None:
        """The scoring process; None when answers are scored in this one."""
        return self.answers.process

    def _url(self, path: str) -> str:
        # upstream may be given with or without the /v1 suffix
        base = self.upstream[:-3] if self.upstream.endswith("/v1") else self.upstream
        return base + path

    def _fail(self, exc: Problem, path: str, call: GuardedCall | None = None, span: Any = None) -> JSONResponse:
        """Answer with ``exc``'s status; close the call's spans as errors; count it."""
        self.errors.add(1, {"http.response.status_code": exc.status, "error.type": exc.code or exc.type})
        if span is not None:
            mark_error(span, exc)
        if call is not None:
            self._failed(call, exc)
        level = logging.WARNING if exc.status >= 500 else logging.INFO
        log.log(level, "%s on %s: %s (upstream %s)", exc.status, path, exc.message, redact_url(self.upstream))
        return _problem(exc)

    def _failed(self, call: GuardedCall, exc: BaseException) -> None:
        """End a failed call (an ``undetermined`` report, spans closed as errors) and give its report to
        ``on_report`` like any other: a dashboard counts failed calls instead of losing them."""
        had = call.report
        call.fail(exc)
        if call.report is not None and call.report is not had:
            self.answers.notify_report(call.report)

    async def healthz(self, request: Request) -> Response:
        body = {
            "status": "ok",
            "guard": self.guard.name,
            "policy": policy_name(self.policy),
            "default_action": str(self.policy.default),
            **self.answers.health(),
            "server": self.stack,
        }
        return JSONResponse(body)

    async def metrics_endpoint(self, request: Request) -> Response:
        from faithguard.integrations.prometheus import CONTENT_TYPE

        if self.metrics is None:
            return JSONResponse(error_body("metrics are not enabled on this proxy", "not_found"), status_code=404)
        data = await run_in_threadpool(self.metrics.exposition)
        return Response(data, media_type=CONTENT_TYPE)

    async def _read_json(self, request: Request) -> tuple[Any, int]:
        try:
            async with asyncio.timeout(self.timeout):
                data = await read_limited(request.headers.get("content-length"), request.stream(), self.max_body_bytes)
        except TimeoutError:
            raise Problem(408, "the request body took too long to arrive", "invalid_request_error", "timeout") from None
        if len(data) <= _INLINE_PARSE_BYTES:
            return parse_json(data), len(data)
        # a large body takes tens of milliseconds to parse and check: not on the event loop
        return await run_in_threadpool(parse_json, data), len(data)

    async def passthrough(self, request: Request) -> Response:
        """Forward any other /v1 request unguarded."""
        try:
            body = await read_limited(request.headers.get("content-length"), request.stream(), self.max_body_bytes)
        except Problem as exc:
            return self._fail(exc, request.url.path)
        headers = forward_headers(request.headers)
        client = self.clients.next()
        req = client.build_request(
            request.method, self._url(request.url.path), params=request.query_params, headers=headers, content=body
        )
        try:
            async with asyncio.timeout(self.timeout):
                resp = await client.send(req, auth=self.auth)
        except (httpx.HTTPError, TimeoutError) as exc:
            return self._fail(upstream_problem(exc), request.url.path)
        return Response(
            resp.content, status_code=resp.status_code, headers=forward_headers(resp.headers, response=True)
        )

    async def check(self, request: Request) -> Response:
        """``POST /faithguard/check``: score an answer the caller already has; the report as JSON."""
        try:
            body, _ = await self._read_json(request)
            if not isinstance(body, dict) or "response" not in body:
                raise Problem(
                    400, "the body must be an object with 'response' and a query or messages", "invalid_request_error"
                )
        except Problem as exc:
            return self._fail(exc, request.url.path)
        response = body["response"]
        if calls.tool_calls_of(response):
            return JSONResponse({"scored": False, "reason": "tool_call", "report": None})
        args = (body.get("query"), response, body.get("documents"), body.get("messages"))
        token = otel_context.attach(caller_context(request.headers))
        try:
            report = await run_in_threadpool(self.answers.check, *args)
        except FaithGuardError as exc:  # InputError and friends: the client's input, said in one line
            return self._fail(Problem(400, str(exc), "invalid_request_error"), request.url.path)
        finally:
            otel_context.detach(token)
        self.answers.notify_report(report)
        action = self.policy.decide(report.verdicts)
        return JSONResponse(
            {"scored": True, "action": str(action), "report": report.model_dump(mode="json")},
            headers=verdict_headers(report, action),
        )

    async def chat(self, request: Request) -> Response:
        started = time.perf_counter()
        path = request.scope["path"]  # what request.url.path reads, without building the whole URL (~3% of the CPU)
        try:
            body, size = await self._read_json(request)
            if not isinstance(body, dict) or not isinstance(body.get("messages"), list):
                raise Problem(400, "the body must be a JSON object with a 'messages' list", "invalid_request_error")
            ext = body.pop(REQUEST_EXTENSION, None)
            documents = ext.get("documents") if isinstance(ext, dict) else None
            if documents is not None and not isinstance(documents, list):
                raise Problem(400, "faithguard.documents must be a list", "invalid_request_error", "faithguard")
        except Problem as exc:
            return self._fail(exc, path)
        model = str(body.get("model") or "unknown")
        stream = _asks_stream(body.get("stream"))
        try:
            # reading messages is linear in their number and size (100k messages: seconds): a large request
            # is read off the event loop; a small one here, where it costs less than a thread hand-over
            if size <= _INLINE_PARSE_BYTES and len(body["messages"]) <= _INLINE_MESSAGES:
                call = self._start_call(request, body, documents, model)
            else:
                call = await run_in_threadpool(self._start_call, request, body, documents, model)
        except FaithGuardError as exc:  # malformed messages/documents are the client's error
            return self._fail(Problem(400, f"cannot read the request: {exc}", "invalid_request_error"), path)
        if not self.answers.defer_input:
            blocked = await run_in_threadpool(call.before)
            if blocked is not None:
                kinds = sorted({v.kind for v in blocked.report.verdicts}) if blocked.report is not None else []
                log.info("blocked before the call: %s", ",".join(kinds))
                return self._blocked(blocked, model, stream)
        with call.chat_span() as span:
            headers = forward_headers(request.headers)
            inject_context(headers)  # the upstream's spans become children of the chat span
            headers.setdefault("content-type", "application/json")
            # re-encoded, not the client's bytes: the upstream reads exactly the JSON that was checked (one
            # parse decides duplicate keys and the like for both); encoded as httpx's json= did
            content = json.dumps(body, ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode()
            try:
                async with asyncio.timeout(self.timeout):
                    resp = await self._send_chat(headers, content, stream)
                    span.set_attribute("http.response.status_code", resp.status_code)
                    if stream and resp.status_code == 200:
                        return self._stream(call, resp, path, (body["messages"], documents))
                    try:
                        data = await resp.aread()
                    finally:
                        await resp.aclose()
                if resp.status_code != 200:
                    status_error = RuntimeError(f"upstream status {resp.status_code}")
                    mark_error(span, status_error)
                    self._failed(call, status_error)
                    return Response(data, resp.status_code, headers=forward_headers(resp.headers, response=True))
                if len(data) <= _INLINE_PARSE_BYTES:
                    completion = parse_json(data, upstream=True)
                else:  # a long answer: milliseconds of parsing and checking, off the event loop
                    completion = await run_in_threadpool(functools.partial(parse_json, data, upstream=True))
                if not isinstance(completion, dict):
                    raise Problem(502, "upstream sent a completion that is not an object", "upstream_error")
                try:
                    text = calls.extract_text(completion)
                except FaithGuardError:
                    raise Problem(502, "upstream sent a message whose content is not text", "upstream_error") from None
                record_response(call, span, completion)
            except (httpx.HTTPError, TimeoutError, Problem) as exc:
                return self._fail(upstream_problem(exc), path, call, span)
        headers = forward_headers(resp.headers, response=True)
        if calls.tool_calls_of(completion):
            call.after(None)  # closes the guard span unscored: a tool call is not an answer
            headers.update(verdict_headers(None, Action.OBSERVE))
            headers["x-faithguard-outcome"] = "tool_call"
            log.info("chat %s -> tool call, passed through unscored in %.1f ms", model, _ms(started))
            return Response(data, status_code=200, headers=headers)
        if self.answers.background:
            self.answers.later(call, text, (body["messages"], documents))
            headers.update(verdict_headers(None, Action.OBSERVE))
            headers["x-faithguard-score"] = "pending"
            log.info("chat %s -> scoring in background, answered in %.1f ms", model, _ms(started))
            return Response(data, status_code=200, headers=headers)
        outcome = await run_in_threadpool(self.answers.after, call, text)
        self.answers.notify(outcome)
        headers.update(verdict_headers(outcome.report, outcome.action))
        log.info("chat %s -> %s in %.1f ms", model, outcome.action, _ms(started))
        if outcome.blocked:
            blocked_body = blocked_completion(outcome.text or self.block_text, model)
            blocked_body[REQUEST_EXTENSION] = report_summary(outcome.report, outcome.action)
            return JSONResponse(blocked_body, headers=verdict_headers(outcome.report, outcome.action))
        if outcome.action is Action.ANNOTATE:
            completion[REQUEST_EXTENSION] = report_summary(outcome.report, outcome.action)
            return JSONResponse(completion, headers=headers)
        return Response(data, status_code=200, headers=headers)

    async def _send_chat(self, headers: dict[str, str], content: bytes, stream: bool) -> UpstreamResponse:
        """The chat request sent; its answer's head read (the body is read from the response)."""
        if self.fast is not None:
            return await self.fast.send("POST", self.chat_target, headers, content, stream=stream)
        client = self.clients.next()
        req = client.build_request("POST", self.chat_url, headers=headers, content=content)
        return await client.send(req, stream=True, auth=self.auth)

    def _start_call(self, request: Request, body: dict[str, Any], documents: Any, model: str) -> GuardedCall:
        token = otel_context.attach(caller_context(request.headers))
        try:
            return GuardedCall(
                self.guard, self.policy, messages=body["messages"], documents=documents, model=model, provider="openai"
            )
        finally:
            otel_context.detach(token)

    def _blocked(self, outcome: Outcome, model: str, stream: bool) -> Response:
        text = outcome.text or self.block_text
        headers = verdict_headers(outcome.report, outcome.action)
        headers["x-faithguard-blocked"] = outcome.stage
        if stream:
            events = blocked_stream(text, model)

            async def gen() -> AsyncIterator[bytes]:
                for ev in events:
                    yield ev

            return StreamingResponse(gen(), media_type="text/event-stream", headers=headers)
        body = blocked_completion(text, model)
        body[REQUEST_EXTENSION] = report_summary(outcome.report, outcome.action)
        return JSONResponse(body, headers=headers)

    def _stream(self, call: GuardedCall, resp: UpstreamResponse, path: str, source: Source = None) -> Response:
        sse = SSEText(self.answers.max_score_chars)
        state = {"started": False}

        async def gen() -> AsyncIterator[bytes]:
            state["started"] = True
            failed = False
            try:
                async for chunk in resp.aiter_bytes():
                    sse.feed(chunk)
                    yield chunk
            except (httpx.HTTPError, TimeoutError) as exc:
                # The status line is sent: say it in the stream (OpenAI clients raise on an error event).
                failed = True
                problem = upstream_problem(exc)
                self._fail(problem, path, call)
                # after a cut-off line, end it first so that the error event is a line of its own
                lead = b"\n\n" if sse.pending else b""
                yield lead + b"data: " + json.dumps(problem.body()).encode() + b"\n\n"
            except BaseException as exc:  # the client went away (cancelled) or the server is stopping
                failed = True
                self._failed(call, exc)
                raise
            finally:
                await resp.aclose()
                if not failed:
                    unread = None if sse.tool_call else sse.unscored
                    if unread is not None:  # an error event, a cut-off or unreadable stream: not the answer
                        self.answers.unscored_later(call, unread)
                    else:
                        self.answers.later(call, sse.text, source)

        headers = forward_headers(resp.headers, response=True)
        headers["x-faithguard-score"] = "pending"
        media = resp.headers.get("content-type", "text/event-stream")
        body = gen()
        # A client that leaves before the first chunk: the generator never runs, so its finally
        # never does either; close the guard span when the body is collected instead.
        weakref.finalize(body, _abandoned, call, state, self._failed)
        return StreamingResponse(body, status_code=200, headers=headers, media_type=media)


#: The route served without Starlette's router and middleware (see :class:`_ProxyApp`).
CHAT_PATH = "/v1/chat/completions"


class _ProxyApp(Starlette):
    """Starlette with one shortcut: ``POST /v1/chat/completions`` goes to the proxy's handler directly.

    Provenance: Starlette's middleware, router and per-route wrappers (and two wrappers of every ``send``)
    were 5-10% of the event loop's CPU per chat request (``bench_proxy.py --sample``, 32 clients). The
    shortcut is taken only while the app has no middleware or exception handler of its own (one added
    with ``add_middleware`` or ``add_exception_handler`` must see the request); an exception it does
    not handle reaches the server, which answers 500 as Starlette's error middleware did.
    """

    chat: Callable[[Request], Awaitable[Response]] | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        chat = self.chat
        if (
            chat is not None
            and scope["type"] == "http"
            and scope["path"] == CHAT_PATH
            and scope["method"] == "POST"
            and not self.user_middleware
            and not self.exception_handlers
        ):
            scope["app"] = self
            response = await chat(Request(scope, receive, send))
            await response(scope, receive, send)
            return
        await super().__call__(scope, receive, send)


def create_app(
    guard: Guard,
    upstream: str,
    policy: Policy | None = None,
    http_client: httpx.AsyncClient | None = None,
    *,
    metrics: PrometheusMetrics | None = None,
    on_report: Callable[[Report], None] | None = None,
    block_text: str = DEFAULT_BLOCK_TEXT,
    timeout: float = 120.0,
    scoring: str = "auto",
    scorer: Callable[[], Guard] | None = None,
    queue_size: int = 256,
    score_timeout: float = SCORE_TIMEOUT,
    recycle_answers: int | None = RECYCLE_ANSWERS,
    recycle_rss_mb: float | None = RECYCLE_RSS_MB,
    max_body_bytes: int = MAX_BODY_BYTES,
    max_score_chars: int | None = MAX_SCORE_CHARS,
    warmup: bool = True,
    freeze_gc: bool = False,
) -> Starlette:
    """The guarding proxy as an ASGI app forwarding to ``upstream`` (e.g. ``http://127.0.0.1:11434/v1``).

    ``http_client`` (an ``httpx.AsyncClient``) is used as given and not closed; otherwise chat requests
    go through the proxy's own upstream client (:func:`~faithguard.integrations._upstream.fast_upstream`;
    httpx where it does not apply) and other ``/v1`` requests through httpx clients the app owns and
    closes. ``metrics`` (see :func:`faithguard.integrations.prometheus.prometheus_metrics`, whose meter provider the
    guard should use) enables ``GET /metrics``. ``timeout`` bounds each upstream exchange
    (504 past it) and, for streams, each wait for the next chunk. ``scoring`` is "auto",
    "inline", "background" or "process" (module docs); ``queue_size`` bounds the background queue.
    ``scorer`` builds, in the scoring process, a guard configured like ``guard``: a picklable callable
    such as ``Guard`` or ``functools.partial(Guard, judge=None)``; "process" needs it. In the scoring
    process one answer may take ``score_timeout`` seconds (past it: ``undetermined``, reason
    ``scoring_timeout``, the process is ended and a new one scores the next answer); the process is
    recycled after ``recycle_answers`` answers or above ``recycle_rss_mb`` MiB resident (None: no such
    limit; see :mod:`~faithguard.integrations._score_process` for the defaults' provenance).
    Answers over ``max_score_chars`` characters get an unscored ``undetermined`` report (None: no limit).
    With ``warmup``, the app's startup loads the guard's models before the server accepts
    connections (uvicorn runs the lifespan before it binds); with ``freeze_gc`` too (``faithguard serve``
    sets it, an app that mounts this one chooses) the loaded models are moved out of the garbage collector's
    reach, which changes the whole process's collector.
    """
    if scoring not in SCORING_MODES:
        raise ValueError(f"scoring must be one of {', '.join(SCORING_MODES)}, not {scoring!r}")
    if max_body_bytes < 1 or timeout <= 0 or (max_score_chars is not None and max_score_chars < 1):
        raise ValueError("max_body_bytes and max_score_chars must be >= 1 and timeout > 0")
    if not math.isfinite(score_timeout) or score_timeout <= 0:
        raise ValueError("score_timeout must be a finite number > 0")
    if scoring == "process" and scorer is None:
        raise ValueError("scoring='process' needs scorer: a picklable callable that builds the guard")
    chosen = policy or guard.policy
    answers = AnswerScoring.build(
        guard,
        chosen,
        on_report,
        mode=scoring,
        observe=policy_name(chosen) == "observe",
        scorer=scorer,
        queue_size=queue_size,
        score_timeout=score_timeout,
        recycle_answers=recycle_answers,
        recycle_rss_mb=recycle_rss_mb,
        max_score_chars=max_score_chars,
    )
    clients = UpstreamClients(http_client, timeout)
    proxy = _Proxy(
        guard,
        upstream,
        chosen,
        clients,
        fast_upstream(upstream, http_client, timeout),
        metrics,
        block_text,
        answers,
        timeout=timeout,
        max_body_bytes=max_body_bytes,
    )

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        warming: Awaitable[object] = run_in_threadpool(warm, guard) if warmup else asyncio.sleep(0)
        # the scoring process loads its models meanwhile (without a lifespan: on first use)
        _, started = await asyncio.gather(warming, answers.start())
        proxy.stack = server_stack()
        # on uvicorn's own server log (which `faithguard serve` shows at INFO), beside its startup lines
        logging.getLogger("uvicorn.error").info(
            "event loop %s; uvicorn's auto HTTP parser: %s", proxy.stack["loop"], proxy.stack["http_auto"]
        )
        if not started:
            answers.score_here()
        if warmup and freeze_gc:
            # The loaded models are ~460k objects that live as long as the process; a full collection
            # over them took ~130 ms, a stall of every request in flight. Keep them out of its reach.
            gc.freeze()
        try:
            yield
        finally:
            await answers.stop()
            await clients.aclose()
            if proxy.fast is not None:
                await proxy.fast.aclose()

    routes = [  # the hot route first: Starlette tries them in order
        Route(CHAT_PATH, proxy.chat, methods=["POST"]),
        Route("/healthz", proxy.healthz, methods=["GET"]),
        Route("/metrics", proxy.metrics_endpoint, methods=["GET"]),
        Route("/faithguard/check", proxy.check, methods=["POST"]),
        Route("/v1/{path:path}", proxy.passthrough, methods=["GET", "POST", "DELETE"]),
    ]
    app = _ProxyApp(routes=routes, lifespan=lifespan)
    app.chat = proxy.chat
    app.state.proxy = proxy
    return app
