"""A guarding, OpenAI-compatible proxy (ASGI, Starlette): ``create_app(guard, upstream)``.

``POST /v1/chat/completions`` is forwarded to ``upstream`` after the input checks; the
answer is scored and the verdicts returned in ``x-faithguard-*`` headers and (annotate
and block policies, non-streamed answers) a ``faithguard`` field of the JSON body.
Streams pass through chunk by chunk and are scored after the last chunk, off the
client's path. Other ``/v1/*`` requests are forwarded unguarded. ``GET /healthz`` and
``GET /metrics`` (Prometheus text, when a registry is given) are served locally.
Request headers (Authorization included) are forwarded and never logged.
"""

from __future__ import annotations

import contextlib
import json
import logging
import time
import uuid
from collections.abc import AsyncIterator, Callable
from typing import TYPE_CHECKING, Any

import httpx
from starlette.applications import Starlette
from starlette.background import BackgroundTask
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from faithguard import calls
from faithguard.integrations.session import (
    DEFAULT_BLOCK_TEXT,
    GuardedCall,
    Outcome,
    report_summary,
    verdict_headers,
)
from faithguard.models import Report
from faithguard.policy import Action, Policy

if TYPE_CHECKING:
    from faithguard.guard import Guard
    from faithguard.integrations.prometheus import PrometheusMetrics

__all__ = ["BLOCK_FINISH_REASON", "create_app", "error_body"]

log = logging.getLogger("faithguard.proxy")

#: ``finish_reason`` of the answer the proxy returns for a blocked call.
BLOCK_FINISH_REASON = "content_filter"
#: Request field (an object) read and removed before forwarding: ``{"documents": [...]}``.
REQUEST_EXTENSION = "faithguard"
_HOP_BY_HOP = {
    "connection",
    "keep-alive",
    "proxy-authenticate",
    "proxy-authorization",
    "te",
    "trailers",
    "transfer-encoding",
    "upgrade",
    "host",
    "content-length",
    "content-encoding",
}


def error_body(message: str, type_: str, code: str | None = None) -> dict[str, Any]:
    """An OpenAI-style error object."""
    return {"error": {"message": message, "type": type_, "param": None, "code": code}}


def _forward_headers(headers: Any, *, response: bool = False) -> dict[str, str]:
    drop = _HOP_BY_HOP | ({"server", "date"} if response else {"accept-encoding"})
    return {k: v for k, v in headers.items() if k.lower() not in drop}


def _blocked_completion(text: str, model: str) -> dict[str, Any]:
    return {
        "id": f"chatcmpl-faithguard-{uuid.uuid4().hex[:12]}",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": model,
        "choices": [
            {"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": BLOCK_FINISH_REASON}
        ],
        "usage": {"prompt_tokens": 0, "completion_tokens": 0, "total_tokens": 0},
    }


def _blocked_stream(text: str, model: str) -> list[bytes]:
    base: dict[str, Any] = {"id": f"chatcmpl-faithguard-{uuid.uuid4().hex[:12]}", "object": "chat.completion.chunk"}
    base.update(created=int(time.time()), model=model)
    first = {**base, "choices": [{"index": 0, "delta": {"role": "assistant", "content": text}, "finish_reason": None}]}
    last = {**base, "choices": [{"index": 0, "delta": {}, "finish_reason": BLOCK_FINISH_REASON}]}
    return [b"data: " + json.dumps(d).encode() + b"\n\n" for d in (first, last)] + [b"data: [DONE]\n\n"]


class _SSEText:
    """Accumulates the assistant text of an SSE chat-completions stream, fed raw bytes."""

    def __init__(self) -> None:
        self._buffer = b""
        self.parts: list[str] = []

    def feed(self, data: bytes) -> None:
        self._buffer += data
        while b"\n" in self._buffer:
            line, self._buffer = self._buffer.split(b"\n", 1)
            line = line.strip()
            if not line.startswith(b"data:"):
                continue
            payload = line[5:].strip()
            if not payload or payload == b"[DONE]":
                continue
            try:
                self.parts.append(calls.chunk_text(json.loads(payload)))
            except ValueError:
                continue

    @property
    def text(self) -> str:
        return "".join(self.parts)


class _Proxy:
    def __init__(
        self,
        guard: Guard,
        upstream: str,
        policy: Policy,
        client: httpx.AsyncClient,
        metrics: PrometheusMetrics | None,
        on_report: Callable[[Report], None] | None,
        block_text: str,
    ) -> None:
        self.guard, self.upstream, self.policy, self.client = guard, upstream.rstrip("/"), policy, client
        self.metrics, self.on_report, self.block_text = metrics, on_report, block_text

    def _url(self, path: str) -> str:
        # upstream may be given with or without the /v1 suffix
        base = self.upstream[:-3] if self.upstream.endswith("/v1") else self.upstream
        return base + path

    async def healthz(self, request: Request) -> Response:
        return JSONResponse({"status": "ok", "guard": self.guard.name, "policy": str(self.policy.default)})

    async def metrics_endpoint(self, request: Request) -> Response:
        from faithguard.integrations.prometheus import CONTENT_TYPE

        if self.metrics is None:
            return JSONResponse(error_body("metrics are not enabled on this proxy", "not_found"), status_code=404)
        data = await run_in_threadpool(self.metrics.exposition)
        return Response(data, media_type=CONTENT_TYPE)

    async def passthrough(self, request: Request) -> Response:
        """Forward any other /v1 request unguarded."""
        body = await request.body()
        req = self.client.build_request(
            request.method,
            self._url(request.url.path),
            params=request.query_params,
            headers=_forward_headers(request.headers),
            content=body,
        )
        try:
            resp = await self.client.send(req)
        except httpx.HTTPError as exc:
            return self._bad_gateway(exc, request.url.path)
        return Response(
            resp.content, status_code=resp.status_code, headers=_forward_headers(resp.headers, response=True)
        )

    def _bad_gateway(self, exc: Exception, path: str) -> Response:
        log.warning("upstream error on %s: %s", path, type(exc).__name__)
        message = f"upstream {self.upstream} unreachable or failed: {type(exc).__name__}"
        return JSONResponse(error_body(message, "upstream_error", "bad_gateway"), status_code=502)

    async def chat(self, request: Request) -> Response:
        started = time.perf_counter()
        try:
            body = json.loads(await request.body())
        except ValueError as exc:
            return JSONResponse(error_body(f"invalid JSON body: {exc}", "invalid_request_error"), status_code=400)
        if not isinstance(body, dict) or not isinstance(body.get("messages"), list):
            msg = "the body must be a JSON object with a 'messages' list"
            return JSONResponse(error_body(msg, "invalid_request_error", "messages"), status_code=400)
        ext = body.pop(REQUEST_EXTENSION, None)
        documents = ext.get("documents") if isinstance(ext, dict) else None
        if documents is not None and not isinstance(documents, list):
            msg = "faithguard.documents must be a list"
            return JSONResponse(error_body(msg, "invalid_request_error", "faithguard"), status_code=400)
        model = str(body.get("model") or "unknown")
        stream = bool(body.get("stream"))
        try:
            call = GuardedCall(
                self.guard, self.policy, messages=body["messages"], documents=documents, model=model, provider="openai"
            )
        except Exception as exc:  # noqa: BLE001 - malformed messages/documents are the client's error
            return JSONResponse(error_body(f"cannot read the request: {exc}", "invalid_request_error"), status_code=400)
        blocked = await run_in_threadpool(call.before)
        if blocked is not None:
            kinds = sorted({v.kind for v in blocked.report.verdicts}) if blocked.report is not None else []
            log.info("blocked before the call: %s", ",".join(kinds))
            return self._blocked(blocked, model, stream)
        req = self.client.build_request(
            "POST", self._url("/v1/chat/completions"), headers=_forward_headers(request.headers), json=body
        )
        with call.chat_span() as span:
            try:
                resp = await self.client.send(req, stream=True)
            except httpx.HTTPError as exc:
                call.fail(exc)
                return self._bad_gateway(exc, request.url.path)
            span.set_attribute("http.response.status_code", resp.status_code)
        if resp.status_code != 200:
            data = await resp.aread()
            await resp.aclose()
            call.fail(RuntimeError(f"upstream status {resp.status_code}"))
            return Response(data, status_code=resp.status_code, headers=_forward_headers(resp.headers, response=True))
        if stream:
            return self._stream(call, resp)
        data = await resp.aread()
        await resp.aclose()
        try:
            completion = json.loads(data)
        except ValueError:
            call.fail(ValueError("upstream returned invalid JSON"))
            return self._bad_gateway(ValueError("invalid JSON from upstream"), request.url.path)
        call.record_output(span, completion)
        outcome = await run_in_threadpool(call.after, calls.extract_text(completion))
        self._notify(outcome)
        headers = _forward_headers(resp.headers, response=True)
        headers.update(verdict_headers(outcome.report, outcome.action))
        log.info("chat %s -> %s in %.1f ms", model, outcome.action, (time.perf_counter() - started) * 1000)
        if outcome.blocked:
            text = outcome.text or self.block_text
            blocked_body = _blocked_completion(text, model)
            blocked_body[REQUEST_EXTENSION] = report_summary(outcome.report, outcome.action)
            return JSONResponse(blocked_body, headers=verdict_headers(outcome.report, outcome.action))
        if outcome.action is Action.ANNOTATE and isinstance(completion, dict):
            completion[REQUEST_EXTENSION] = report_summary(outcome.report, outcome.action)
            return JSONResponse(completion, headers=headers)
        return Response(data, status_code=200, headers=headers)

    def _blocked(self, outcome: Outcome, model: str, stream: bool) -> Response:
        text = outcome.text or self.block_text
        headers = verdict_headers(outcome.report, outcome.action)
        headers["x-faithguard-blocked"] = outcome.stage
        if stream:
            events = _blocked_stream(text, model)

            async def gen() -> AsyncIterator[bytes]:
                for ev in events:
                    yield ev

            return StreamingResponse(gen(), media_type="text/event-stream", headers=headers)
        body = _blocked_completion(text, model)
        body[REQUEST_EXTENSION] = report_summary(outcome.report, outcome.action)
        return JSONResponse(body, headers=headers)

    def _stream(self, call: GuardedCall, resp: httpx.Response) -> Response:
        sse = _SSEText()
        state = {"complete": False}

        async def gen() -> AsyncIterator[bytes]:
            try:
                async for chunk in resp.aiter_bytes():
                    sse.feed(chunk)
                    yield chunk
                state["complete"] = True
            except BaseException as exc:
                call.fail(exc)
                raise
            finally:
                await resp.aclose()

        async def score() -> None:
            if not state["complete"]:
                return
            outcome = await run_in_threadpool(call.after, sse.text)
            self._notify(outcome)

        headers = _forward_headers(resp.headers, response=True)
        headers["x-faithguard-score"] = "pending"
        return StreamingResponse(
            gen(),
            status_code=200,
            headers=headers,
            media_type=resp.headers.get("content-type", "text/event-stream"),
            background=BackgroundTask(score),
        )

    def _notify(self, outcome: Outcome) -> None:
        if self.on_report is not None and isinstance(outcome.report, Report):
            try:
                self.on_report(outcome.report)
            except Exception:
                log.exception("on_report callback failed")


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
) -> Starlette:
    """The guarding proxy as an ASGI app forwarding to ``upstream`` (e.g. ``http://127.0.0.1:11434/v1``).

    ``http_client`` (an ``httpx.AsyncClient``) is used as given and not closed; otherwise the
    app owns one and closes it on shutdown. ``metrics`` (see
    :func:`faithguard.integrations.prometheus.prometheus_metrics`, whose meter provider the
    guard should use) enables ``GET /metrics``.
    """
    own = http_client is None
    client = http_client or httpx.AsyncClient(timeout=httpx.Timeout(timeout, connect=5.0))
    proxy = _Proxy(guard, upstream, policy or guard.policy, client, metrics, on_report, block_text)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        yield
        if own:
            await client.aclose()

    routes = [
        Route("/healthz", proxy.healthz, methods=["GET"]),
        Route("/metrics", proxy.metrics_endpoint, methods=["GET"]),
        Route("/v1/chat/completions", proxy.chat, methods=["POST"]),
        Route("/v1/{path:path}", proxy.passthrough, methods=["GET", "POST", "DELETE"]),
    ]
    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.proxy = proxy
    return app
