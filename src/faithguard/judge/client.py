"""OpenAI-compatible chat-completions client over httpx: sync and async twins.

Both twins share the pure request-building, response-parsing, retry-delay and
error-mapping functions below; they differ only in how they send and sleep.
Every call is one ``chat {model}`` CLIENT span with GenAI attributes. The API key
lives only in the Authorization header: it is never logged, traced, shown in a
repr or placed in an exception message.
"""

from __future__ import annotations

import asyncio
import email.utils
import logging
import random
import time
from collections.abc import Awaitable, Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable
from urllib.parse import urlsplit

import httpx
from opentelemetry import trace

from faithguard.errors import JudgeError, JudgeOutputError, JudgeUnavailable
from faithguard.judge.config import JudgeConfig, is_secret_header

__all__ = [
    "ChatResult",
    "ChatTransport",
    "OpenAIChatClient",
    "backoff_delay",
    "build_request_body",
    "chat_span",
    "get_tracer",
    "parse_response",
    "retry_after_seconds",
]

log = logging.getLogger("faithguard.judge")

_RETRY_STATUS = frozenset({408, 409, 425, 429, 500, 502, 503, 504, 520, 521, 522, 524, 529})
_BODY_SNIPPET = 200


@dataclass(frozen=True)
class ChatResult:
    """One completion: the text plus what traces need."""

    content: str
    response_id: str | None = None
    model: str | None = None
    input_tokens: int | None = None
    output_tokens: int | None = None
    finish_reason: str | None = None


@runtime_checkable
class ChatTransport(Protocol):
    """What the judge needs from a chat backend (HTTP client, LangChain model, fake)."""

    model: str

    def chat(
        self, messages: Sequence[Mapping[str, str]], schema_name: str, schema: Mapping[str, Any], *, temperature: float
    ) -> ChatResult:
        """Send messages and return the completion."""
        ...

    async def achat(
        self, messages: Sequence[Mapping[str, str]], schema_name: str, schema: Mapping[str, Any], *, temperature: float
    ) -> ChatResult:
        """Async twin of :meth:`chat`."""
        ...


# ---------------------------------------------------------------- pure helpers


def build_request_body(
    model: str,
    messages: Sequence[Mapping[str, str]],
    schema_name: str,
    schema: Mapping[str, Any],
    *,
    temperature: float = 0.0,
    max_tokens: int | None = None,
) -> dict[str, Any]:
    """The chat-completions body, with structured output in the nested ``json_schema`` form."""
    body: dict[str, Any] = {
        "model": model,
        "messages": [{"role": m["role"], "content": m["content"]} for m in messages],
        "temperature": temperature,
        "stream": False,
        "response_format": {
            "type": "json_schema",
            "json_schema": {"name": schema_name, "strict": True, "schema": dict(schema)},
        },
    }
    if max_tokens is not None:
        body["max_tokens"] = max_tokens
    return body


def _int_or_none(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else None


def parse_response(data: Any) -> ChatResult:
    """Read a chat-completions response body; JudgeOutputError when it has no message text."""
    if not isinstance(data, dict):
        raise JudgeOutputError("judge response is not a JSON object")
    choices = data.get("choices")
    if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
        raise JudgeOutputError("judge response has no choices")
    message = choices[0].get("message")
    content = message.get("content") if isinstance(message, dict) else None
    if isinstance(message, dict) and not content and isinstance(message.get("refusal"), str):
        raise JudgeOutputError("judge refused to answer")
    if not isinstance(content, str):
        raise JudgeOutputError("judge response has no message content")
    raw_usage = data.get("usage")
    usage: dict[str, Any] = raw_usage if isinstance(raw_usage, dict) else {}
    finish = choices[0].get("finish_reason")
    return ChatResult(
        content=content,
        response_id=data["id"] if isinstance(data.get("id"), str) else None,
        model=data["model"] if isinstance(data.get("model"), str) else None,
        input_tokens=_int_or_none(usage.get("prompt_tokens")),
        output_tokens=_int_or_none(usage.get("completion_tokens")),
        finish_reason=finish if isinstance(finish, str) else None,
    )


def retry_after_seconds(value: str | None, *, now: float | None = None) -> float | None:
    """Seconds from a Retry-After header (delta-seconds or HTTP date); None if absent or bad."""
    if value is None or not value.strip():
        return None
    text = value.strip()
    try:
        return max(0.0, float(text))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(text)
    except (TypeError, ValueError):
        return None
    current = time.time() if now is None else now
    return max(0.0, when.timestamp() - current)


def backoff_delay(attempt: int, base: float, cap: float, rng: random.Random) -> float:
    """Jittered exponential backoff: ``base * 2**attempt`` scaled by U(0.5, 1.5), capped."""
    return float(min(cap, base * (2**attempt) * rng.uniform(0.5, 1.5)))


class _Redactor:
    """Replaces secrets (API key, secret header values) in text."""

    def __init__(self, secrets: Sequence[str]) -> None:
        self._secrets = sorted({s for s in secrets if s and len(s) >= 4}, key=len, reverse=True)

    def __call__(self, text: str) -> str:
        for secret in self._secrets:
            text = text.replace(secret, "[REDACTED]")
        return text


@dataclass
class _Attempt:
    """Outcome of one HTTP attempt: a result, or an error with retry advice."""

    result: ChatResult | None = None
    error: JudgeError | None = None
    retry: bool = False
    delay_hint: float | None = None
    error_type: str | None = None


def _interpret(response: httpx.Response, redact: _Redactor, cap: float) -> _Attempt:
    """Map an HTTP response to a result or an error (pure)."""
    status = response.status_code
    if status == 200:
        try:
            data = response.json()
        except ValueError:
            return _Attempt(error=JudgeOutputError("judge returned a body that is not JSON"), error_type="invalid_json")
        try:
            return _Attempt(result=parse_response(data))
        except JudgeOutputError as exc:
            return _Attempt(error=exc, error_type="invalid_response")
    snippet = redact(response.text[:_BODY_SNIPPET].replace("\n", " "))
    if status in _RETRY_STATUS or status >= 500:
        hint = retry_after_seconds(response.headers.get("retry-after")) if status in (429, 503) else None
        if hint is not None:
            hint = min(hint, cap)
        what = "rate limited" if status == 429 else "unavailable"
        return _Attempt(
            error=JudgeUnavailable(f"judge {what}: HTTP {status} {snippet}".rstrip()),
            retry=True,
            delay_hint=hint,
            error_type=str(status),
        )
    detail = "authentication failed" if status in (401, 403) else snippet
    return _Attempt(
        error=JudgeError(f"judge request rejected: HTTP {status} {detail}".rstrip()), error_type=str(status)
    )


def _from_exception(exc: httpx.HTTPError, redact: _Redactor) -> _Attempt:
    """Map an httpx exception to a retryable JudgeUnavailable or a JudgeError, chained to ``exc``."""
    text = redact(str(exc))[:_BODY_SNIPPET]
    if isinstance(exc, httpx.TimeoutException):
        error: JudgeError = JudgeUnavailable(f"judge timed out ({type(exc).__name__})")
        attempt = _Attempt(error=error, retry=True, error_type="timeout")
    elif isinstance(exc, httpx.TransportError):
        error = JudgeUnavailable(f"judge unreachable ({type(exc).__name__}): {text}")
        attempt = _Attempt(error=error, retry=True, error_type=type(exc).__name__)
    else:
        error = JudgeError(f"judge request failed ({type(exc).__name__}): {text}")
        attempt = _Attempt(error=error, error_type=type(exc).__name__)
    error.__cause__ = exc
    return attempt


# ---------------------------------------------------------------- telemetry


def get_tracer(tracer: Any = None) -> trace.Tracer:
    """A Tracer from a Tracer, a TracerProvider, or (None) the API's current provider."""
    if tracer is None:
        return trace.get_tracer("faithguard.judge")
    if isinstance(tracer, trace.Tracer):
        return tracer
    if hasattr(tracer, "get_tracer"):
        got: trace.Tracer = tracer.get_tracer("faithguard.judge")
        return got
    raise TypeError("tracer must be an opentelemetry Tracer or TracerProvider")


@contextmanager
def chat_span(
    tracer: trace.Tracer,
    model: str,
    provider: str,
    *,
    address: str | None = None,
    port: int | None = None,
    temperature: float | None = None,
) -> Iterator[trace.Span]:
    """A ``chat {model}`` CLIENT span with the GenAI request attributes set at start."""
    attributes: dict[str, Any] = {
        "gen_ai.operation.name": "chat",
        "gen_ai.provider.name": provider,
        "gen_ai.request.model": model,
        "gen_ai.output.type": "json",
    }
    if temperature is not None:
        attributes["gen_ai.request.temperature"] = float(temperature)
    if address:
        attributes["server.address"] = address
    if port is not None:
        attributes["server.port"] = port
    with tracer.start_as_current_span(
        f"chat {model}",
        kind=trace.SpanKind.CLIENT,
        attributes=attributes,
        record_exception=False,
        set_status_on_exception=False,
    ) as span:
        yield span


def record_result(span: trace.Span, result: ChatResult) -> None:
    """Put response id/model, finish reason and token usage on a span."""
    if result.response_id:
        span.set_attribute("gen_ai.response.id", result.response_id)
    if result.model:
        span.set_attribute("gen_ai.response.model", result.model)
    if result.finish_reason:
        span.set_attribute("gen_ai.response.finish_reasons", [result.finish_reason])
    if result.input_tokens is not None:
        span.set_attribute("gen_ai.usage.input_tokens", result.input_tokens)
    if result.output_tokens is not None:
        span.set_attribute("gen_ai.usage.output_tokens", result.output_tokens)


def record_error(span: trace.Span, error_type: str, message: str) -> None:
    """Mark a span failed with ``error.type`` (message already redacted)."""
    span.set_attribute("error.type", error_type)
    span.set_status(trace.Status(trace.StatusCode.ERROR, message[:_BODY_SNIPPET]))


# ---------------------------------------------------------------- the client


class OpenAIChatClient:
    """Chat completions against any OpenAI-compatible server (OpenAI, Ollama, llama-server, vLLM)."""

    def __init__(
        self,
        config: JudgeConfig,
        *,
        tracer: Any = None,
        transport: httpx.BaseTransport | None = None,
        async_transport: httpx.AsyncBaseTransport | None = None,
        sleep: Callable[[float], None] = time.sleep,
        async_sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        rng: random.Random | None = None,
        environ: Mapping[str, str] | None = None,
    ) -> None:
        self.config = config
        self.model = config.model
        self.provider = config.resolved_provider
        self._tracer = get_tracer(tracer)
        self._transport = transport
        self._async_transport = async_transport
        self._sleep = sleep
        self._async_sleep = async_sleep
        self._rng = rng or random.Random()
        parts = urlsplit(config.base_url)
        self.address = parts.hostname
        self.port = parts.port or (443 if parts.scheme == "https" else 80)
        self.url = config.base_url + "/chat/completions"
        key = config.resolve_api_key(environ)
        headers = {"Content-Type": "application/json", "Accept": "application/json", **config.headers}
        if key:
            headers["Authorization"] = f"Bearer {key}"
        self._headers = headers
        secret_values = [v for k, v in config.headers.items() if is_secret_header(k)]
        self._redact = _Redactor([*(secret_values), *([key] if key else [])])
        self._timeout = httpx.Timeout(config.timeout, connect=config.connect_timeout)
        self._client: httpx.Client | None = None

    def __repr__(self) -> str:
        return f"OpenAIChatClient(base_url={self.config.base_url!r}, model={self.model!r})"

    # -- shared bits

    def _body(self, messages: Sequence[Mapping[str, str]], name: str, schema: Mapping[str, Any], temp: float) -> bytes:
        import json

        body = build_request_body(
            self.model, messages, name, schema, temperature=temp, max_tokens=self.config.max_tokens
        )
        return json.dumps(body, ensure_ascii=False).encode("utf-8")

    def _delay(self, attempt: int, outcome: _Attempt) -> float:
        if outcome.delay_hint is not None:
            return outcome.delay_hint
        return backoff_delay(attempt, self.config.backoff_base, self.config.backoff_max, self._rng)

    def _span(self, temperature: float) -> Any:
        return chat_span(
            self._tracer, self.model, self.provider, address=self.address, port=self.port, temperature=temperature
        )

    def _finish(self, span: trace.Span, outcome: _Attempt, attempts: int) -> ChatResult:
        span.set_attribute("faithguard.judge.attempts", attempts)
        if outcome.result is not None:
            record_result(span, outcome.result)
            return outcome.result
        error = outcome.error or JudgeError("judge call failed")
        record_error(span, outcome.error_type or type(error).__name__, str(error))
        raise error

    # -- sync

    def _sync_client(self) -> httpx.Client:
        if self._client is None:
            self._client = httpx.Client(timeout=self._timeout, transport=self._transport, headers=self._headers)
        return self._client

    def chat(
        self, messages: Sequence[Mapping[str, str]], schema_name: str, schema: Mapping[str, Any], *, temperature: float
    ) -> ChatResult:
        """POST one chat completion with retries; JudgeUnavailable/JudgeError/JudgeOutputError on failure."""
        content = self._body(messages, schema_name, schema, temperature)
        with self._span(temperature) as span:
            outcome = _Attempt()
            attempt = 0
            for attempt in range(self.config.max_retries + 1):
                try:
                    response = self._sync_client().post(self.url, content=content)
                    outcome = _interpret(response, self._redact, self.config.retry_after_cap)
                except httpx.HTTPError as exc:
                    outcome = _from_exception(exc, self._redact)
                if not outcome.retry or attempt == self.config.max_retries:
                    break
                delay = self._delay(attempt, outcome)
                log.debug("judge attempt %d failed (%s); retrying in %.2fs", attempt + 1, outcome.error_type, delay)
                self._sleep(delay)
            return self._finish(span, outcome, attempt + 1)

    def close(self) -> None:
        """Close the pooled sync connection."""
        if self._client is not None:
            self._client.close()
            self._client = None

    # -- async

    async def achat(
        self, messages: Sequence[Mapping[str, str]], schema_name: str, schema: Mapping[str, Any], *, temperature: float
    ) -> ChatResult:
        """Async twin of :meth:`chat` (a short-lived AsyncClient per call, so no loop-bound state)."""
        content = self._body(messages, schema_name, schema, temperature)
        with self._span(temperature) as span:
            outcome = _Attempt()
            attempt = 0
            async with httpx.AsyncClient(
                timeout=self._timeout, transport=self._async_transport, headers=self._headers
            ) as client:
                for attempt in range(self.config.max_retries + 1):
                    try:
                        response = await client.post(self.url, content=content)
                        outcome = _interpret(response, self._redact, self.config.retry_after_cap)
                    except httpx.HTTPError as exc:
                        outcome = _from_exception(exc, self._redact)
                    if not outcome.retry or attempt == self.config.max_retries:
                        break
                    delay = self._delay(attempt, outcome)
                    log.debug("judge attempt %d failed (%s); retrying in %.2fs", attempt + 1, outcome.error_type, delay)
                    await self._async_sleep(delay)
            return self._finish(span, outcome, attempt + 1)
