"""OpenAI-compatible chat-completions client over httpx: sync and async twins.

Both twins share the pure request-building, response-parsing, retry-delay and
error-mapping functions below; they differ only in how they send and sleep.
Every call is one ``chat {model}`` CLIENT span with GenAI attributes. The API key
lives only in the Authorization header: it is never logged, traced, shown in a
repr or placed in an exception message.
"""

from __future__ import annotations

import asyncio
import base64
import contextvars
import email.utils
import json
import logging
import random
import re
import threading
import time
from collections.abc import Awaitable, Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Literal, Protocol, runtime_checkable
from urllib.parse import unquote, urlsplit

import httpx
from opentelemetry import trace

from faithguard.errors import JudgeError, JudgeOutputError, JudgeUnavailable, redact_url
from faithguard.judge.config import JudgeConfig, is_secret_header
from faithguard.judge.spans import chat_span, get_tracer, record_error, record_result

__all__ = [
    "MODES",
    "ChatResult",
    "ChatTransport",
    "OpenAIChatClient",
    "StructuredMode",
    "backoff_delay",
    "build_request_body",
    "call_limit",
    "chat_span",
    "forget_modes",
    "get_tracer",
    "parse_response",
    "remember_mode",
    "remembered_mode",
    "retry_after_seconds",
]

log = logging.getLogger("faithguard.judge")

_RETRY_STATUS = frozenset({408, 409, 425, 429, 500, 502, 503, 504, 520, 521, 522, 524, 529})
_BODY_SNIPPET = 200
#: Largest judge reply read (bytes). A reply is one chat completion of at most ``max_tokens`` tokens (a few KB);
#: a server that sends more is not read further (a 300 MB reply was read and parsed whole: 1.7 GB more memory).
MAX_REPLY_BYTES = 1 << 20

#: How a request asks for JSON, strongest first: OpenAI's ``json_schema``, plain ``json_object``
#: (llama.cpp's python server, older vLLM/Ollama), or only the prompt (any server; the reply is repaired).
StructuredMode = Literal["json_schema", "json_object", "prompt"]
MODES: tuple[StructuredMode, ...] = ("json_schema", "json_object", "prompt")
#: Statuses with which servers reject a request field they do not support (llama.cpp's python server
#: answers 500 for json_schema; vLLM/OpenAI-style servers 400/422). Fixtures: tests/judge/test_negotiation.py.
_UNSUPPORTED_STATUS = frozenset({400, 422, 500, 501})
#: Words of such a rejection's body that name the structured-output field (never echoed anywhere).
_UNSUPPORTED_BODY = re.compile(
    r"response_format|json_schema|json_object|\bschema\b|grammar|not supported|unsupported|"
    r"unrecogni[sz]ed|unknown (?:field|parameter|argument)|extra (?:fields|inputs) not permitted",
    re.IGNORECASE,
)

#: Remembered structured-output mode per endpoint (base URL + model), shared by every client.
_ENDPOINT_MODES: dict[str, StructuredMode] = {}
_ENDPOINT_LOCK = threading.Lock()


def remembered_mode(endpoint: str) -> StructuredMode | None:
    """The mode that last worked (or was last negotiated) for ``endpoint``; None when never tried."""
    with _ENDPOINT_LOCK:
        return _ENDPOINT_MODES.get(endpoint)


def remember_mode(endpoint: str, mode: StructuredMode) -> None:
    """Record the structured-output mode ``endpoint`` accepts."""
    with _ENDPOINT_LOCK:
        _ENDPOINT_MODES[endpoint] = mode


def forget_modes() -> None:
    """Clear every remembered mode (tests; a server upgraded in place)."""
    with _ENDPOINT_LOCK:
        _ENDPOINT_MODES.clear()


#: A cap (seconds) on the judge calls made in this thread/task, set by :func:`call_limit`.
_CALL_LIMIT: contextvars.ContextVar[float | None] = contextvars.ContextVar("faithguard_judge_call_limit", default=None)


@contextmanager
def call_limit(seconds: float | None) -> Iterator[None]:
    """Cap the wall-clock budget of the judge calls made inside the block (None: the config's own).

    The judge sets it from the time left to the detector that is calling it, so a slow judge
    ends its call in time for the detector to return its offline result.
    """
    token = _CALL_LIMIT.set(seconds)
    try:
        yield
    finally:
        _CALL_LIMIT.reset(token)


def _call_budget(config_budget: float) -> float:
    limit = _CALL_LIMIT.get()
    return config_budget if limit is None else max(0.0, min(config_budget, limit))


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
    mode: StructuredMode = "json_schema",
) -> dict[str, Any]:
    """The chat-completions body; ``mode`` picks how JSON is asked for (see :data:`MODES`).

    In ``json_object`` and ``prompt`` modes the schema travels in the system message instead.
    """
    msgs = [{"role": m["role"], "content": m["content"]} for m in messages]
    body: dict[str, Any] = {"model": model, "messages": msgs, "temperature": temperature, "stream": False}
    if mode == "json_schema":
        body["response_format"] = {
            "type": "json_schema",
            "json_schema": {"name": schema_name, "strict": True, "schema": dict(schema)},
        }
    else:
        if mode == "json_object":
            body["response_format"] = {"type": "json_object"}
        note = (
            "Reply with exactly one JSON object and nothing else (no prose, no code fences). "
            "It must match this JSON Schema:\n" + json.dumps(dict(schema), separators=(",", ":"))
        )
        if msgs and msgs[0]["role"] == "system":
            msgs[0] = {"role": "system", "content": msgs[0]["content"] + "\n\n" + note}
        else:
            msgs.insert(0, {"role": "system", "content": note})
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
    unsupported: bool = False


def _error_code(response: httpx.Response) -> str:
    """A short, content-free description of an error body: its JSON ``error.type``/``code`` only.

    Error bodies of some servers echo the request (the prompt, the response being judged), so the
    body text itself never reaches an exception message, a log line or a span.
    """
    try:
        data = response.json()
    except ValueError:
        return ""
    err = data.get("error") if isinstance(data, dict) else None
    if isinstance(err, dict):
        for key in ("type", "code"):
            value = err.get(key)
            if isinstance(value, str | int) and re.fullmatch(r"[A-Za-z0-9_.-]{1,40}", str(value)):
                return f"({value})"
    return ""


def _interpret(response: httpx.Response, redact: _Redactor, cap: float, *, structured: bool = False) -> _Attempt:
    """Map an HTTP response to a result or an error (pure).

    ``structured``: the request carried a ``response_format``; a rejection that names it is marked
    ``unsupported`` (never retried as is: the caller downgrades the mode).
    """
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
    code = _error_code(response)
    if structured and status in _UNSUPPORTED_STATUS and _UNSUPPORTED_BODY.search(response.text[:4000]):
        return _Attempt(
            error=JudgeError(f"judge server rejected the structured-output field: HTTP {status} {code}".rstrip()),
            error_type="unsupported_parameter",
            unsupported=True,
        )
    if status in _RETRY_STATUS or status >= 500:
        hint = retry_after_seconds(response.headers.get("retry-after")) if status in (429, 503) else None
        what = "rate limited" if status == 429 else "unavailable"
        return _Attempt(
            error=JudgeUnavailable(f"judge {what}: HTTP {status} {code}".rstrip()),
            retry=True,
            delay_hint=hint,
            error_type=str(status),
        )
    detail = "authentication failed" if status in (401, 403) else code
    return _Attempt(
        error=JudgeError(f"judge request rejected: HTTP {status} {detail}".rstrip()), error_type=str(status)
    )


class _Reply:
    """A judge reply read chunk by chunk within the call's deadline and :data:`MAX_REPLY_BYTES` (a server sending a
    valid reply a byte at a time never hits a read timeout, and one sending 300 MB was read whole)."""

    def __init__(self, deadline: float, clock: Callable[[], float], status: int = 200) -> None:
        self.chunks: list[bytes] = []
        self.size = 0
        self._deadline, self._clock, self._status = deadline, clock, status
        #: why the call ends without judging the reply (too large, late); None: judge what was read
        self.ended: _Attempt | None = None

    def add(self, chunk: bytes) -> bool:
        """Keep ``chunk``; True when reading must stop (too large, or late: :attr:`ended` says so; an error reply
        over the cap is cut and judged by its status)."""
        self.chunks.append(chunk)
        self.size += len(chunk)
        if self.size > MAX_REPLY_BYTES:
            if self._status == 200:
                too_large = JudgeOutputError(f"judge reply over {MAX_REPLY_BYTES} bytes")
                self.ended = _Attempt(error=too_large, error_type="too_large")
            return True
        if self._clock() > self._deadline:
            late = JudgeUnavailable("judge reply still arriving when the call budget ran out")
            self.ended = _Attempt(error=late, error_type="timeout")
            return True
        return False

    def outcome(self, streamed: httpx.Response, redact: _Redactor, cap: float, *, structured: bool) -> _Attempt:
        """What the reply read says (:func:`_interpret` of it as a plain, already decoded response)."""
        if self.ended is not None:
            return self.ended
        drop = ("content-encoding", "content-length")
        headers = [(k, v) for k, v in streamed.headers.items() if k.lower() not in drop]
        whole = httpx.Response(
            streamed.status_code, headers=headers, content=b"".join(self.chunks), request=streamed.request
        )
        return _interpret(whole, redact, cap, structured=structured)


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


# ---------------------------------------------------------------- the client


class OpenAIChatClient:
    """Chat completions against any OpenAI-compatible server (OpenAI, Ollama, llama-server, vLLM).

    Structured output is negotiated per endpoint: ``json_schema`` first, then ``json_object``, then
    the prompt alone, stepping down only when the server rejects the field (never retrying the same
    rejected body) and remembering the result. Each call has a wall-clock budget
    (``JudgeConfig.call_budget``) covering every attempt, backoff and ``Retry-After``: a wait that
    would overrun it ends the call at once with :class:`JudgeUnavailable`.
    """

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
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.config = config
        self.model = config.model
        self.provider = config.resolved_provider
        self._tracer = get_tracer(tracer)
        self._transport = transport
        self._async_transport = async_transport
        self._sleep = sleep
        self._async_sleep = async_sleep
        self._clock = clock
        self._rng = rng or random.Random()
        parts = urlsplit(config.base_url)
        self.address = parts.hostname
        self.port = parts.port or (443 if parts.scheme == "https" else 80)
        # credentials in the URL go in a header, so that the URL requests are sent to (and logged with) holds none
        base = parts._replace(netloc=parts.netloc.rsplit("@", 1)[-1]).geturl()
        # the path grows, the query stays a query ("...?api-version=2024-06-01": Azure-style endpoints)
        bare = parts._replace(netloc=parts.netloc.rsplit("@", 1)[-1], path=parts.path.rstrip("/") + "/chat/completions")
        self.url = bare.geturl()
        self.endpoint = f"{base}|{config.model}"
        key = config.resolve_api_key(environ)
        headers = {"Content-Type": "application/json", "Accept": "application/json", **config.headers}
        if key:
            headers["Authorization"] = f"Bearer {key}"
        if parts.username is not None:
            # the URL's own credentials win, as httpx made them win when they were in the URL: a key found in the
            # environment (OPENAI_API_KEY) is never sent to a host the URL gives credentials for
            pair = f"{unquote(parts.username)}:{unquote(parts.password or '')}".encode()
            headers = {k: v for k, v in headers.items() if k.lower() != "authorization"}
            headers["Authorization"] = "Basic " + base64.b64encode(pair).decode("ascii")
        self._headers = headers
        secret_values = [v for k, v in config.headers.items() if is_secret_header(k)]
        self._redact = _Redactor([*(secret_values), *([key] if key else [])])
        self._timeout = httpx.Timeout(config.timeout, connect=config.connect_timeout)
        self._client: httpx.Client | None = None

    def __repr__(self) -> str:
        return f"OpenAIChatClient(base_url={redact_url(self.config.base_url)!r}, model={self.model!r})"

    # -- shared bits

    @property
    def mode(self) -> StructuredMode:
        """The structured-output mode the next call starts with."""
        forced = self.config.structured_output
        if forced != "auto":
            return forced
        return remembered_mode(self.endpoint) or "json_schema"

    def _body(
        self,
        messages: Sequence[Mapping[str, str]],
        name: str,
        schema: Mapping[str, Any],
        temp: float,
        mode: StructuredMode,
    ) -> bytes:
        body = build_request_body(
            self.model, messages, name, schema, temperature=temp, max_tokens=self.config.max_tokens, mode=mode
        )
        return json.dumps(body, ensure_ascii=False).encode("utf-8")

    def _attempt_timeout(self, deadline: float) -> httpx.Timeout | None:
        remaining = deadline - self._clock()
        if remaining <= 0:
            return None
        return httpx.Timeout(min(self.config.timeout, remaining), connect=min(self.config.connect_timeout, remaining))

    def _next_step(self, outcome: _Attempt, attempt: int, mode: StructuredMode, deadline: float) -> tuple[str, float]:
        """("done" | "downgrade" | "retry", delay) after one attempt (pure policy, shared by both twins)."""
        if outcome.unsupported:
            if self.config.structured_output == "auto" and mode != MODES[-1]:
                return "downgrade", 0.0
            return "done", 0.0
        if not outcome.retry or attempt >= self.config.max_retries:
            return "done", 0.0
        if outcome.delay_hint is not None:
            delay = outcome.delay_hint
            if delay > self.config.retry_after_cap:
                outcome.error = JudgeUnavailable(f"{outcome.error}; Retry-After {delay:g}s exceeds the judge's cap")
                return "done", 0.0
        else:
            delay = backoff_delay(attempt, self.config.backoff_base, self.config.backoff_max, self._rng)
        if self._clock() + delay >= deadline:
            outcome.error = JudgeUnavailable(f"{outcome.error}; next attempt would overrun the call budget")
            return "done", 0.0
        return "retry", delay

    def _span(self, temperature: float) -> Any:
        return chat_span(
            self._tracer, self.model, self.provider, address=self.address, port=self.port, temperature=temperature
        )

    def _finish(self, span: trace.Span, outcome: _Attempt, attempts: int, mode: StructuredMode) -> ChatResult:
        span.set_attribute("faithguard.judge.attempts", attempts)
        span.set_attribute("faithguard.judge.structured_output", mode)
        if outcome.result is not None:
            if self.config.structured_output == "auto":
                remember_mode(self.endpoint, mode)
            record_result(span, outcome.result)
            return outcome.result
        error = outcome.error or JudgeError("judge call failed")
        record_error(span, outcome.error_type or type(error).__name__, str(error))
        raise error

    @staticmethod
    def _budget_spent() -> _Attempt:
        return _Attempt(error=JudgeUnavailable("judge call budget spent"), error_type="timeout")

    # -- sync

    def _sync_client(self) -> httpx.Client:
        if self._client is None:
            self._client = httpx.Client(timeout=self._timeout, transport=self._transport, headers=self._headers)
        return self._client

    def chat(
        self, messages: Sequence[Mapping[str, str]], schema_name: str, schema: Mapping[str, Any], *, temperature: float
    ) -> ChatResult:
        """POST one chat completion within the call budget; JudgeUnavailable/JudgeError/JudgeOutputError."""
        deadline = self._clock() + _call_budget(self.config.call_budget)
        mode = self.mode
        with self._span(temperature) as span:
            outcome = _Attempt()
            attempt = sends = 0
            while True:
                timeout = self._attempt_timeout(deadline)
                if timeout is None:
                    outcome = self._budget_spent()
                    break
                sends += 1
                try:
                    content = self._body(messages, schema_name, schema, temperature, mode)
                    with self._sync_client().stream("POST", self.url, content=content, timeout=timeout) as streamed:
                        reply = _Reply(deadline, self._clock, streamed.status_code)
                        for chunk in streamed.iter_bytes():
                            if reply.add(chunk):
                                break
                    outcome = reply.outcome(
                        streamed, self._redact, self.config.retry_after_cap, structured=mode != "prompt"
                    )
                except httpx.HTTPError as exc:
                    outcome = _from_exception(exc, self._redact)
                step, delay = self._next_step(outcome, attempt, mode, deadline)
                if step == "done":
                    break
                if step == "downgrade":
                    mode = MODES[MODES.index(mode) + 1]
                    remember_mode(self.endpoint, mode)
                    log.debug("judge endpoint rejected a structured-output field; trying %s", mode)
                    continue
                attempt += 1
                log.debug("judge attempt %d failed (%s); retrying in %.2fs", attempt, outcome.error_type, delay)
                self._sleep(delay)
            return self._finish(span, outcome, sends, mode)

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
        deadline = self._clock() + _call_budget(self.config.call_budget)
        mode = self.mode
        with self._span(temperature) as span:
            outcome = _Attempt()
            attempt = sends = 0
            async with httpx.AsyncClient(
                timeout=self._timeout, transport=self._async_transport, headers=self._headers
            ) as client:
                while True:
                    timeout = self._attempt_timeout(deadline)
                    if timeout is None:
                        outcome = self._budget_spent()
                        break
                    sends += 1
                    try:
                        content = self._body(messages, schema_name, schema, temperature, mode)
                        async with client.stream("POST", self.url, content=content, timeout=timeout) as streamed:
                            reply = _Reply(deadline, self._clock, streamed.status_code)
                            async for chunk in streamed.aiter_bytes():
                                if reply.add(chunk):
                                    break
                        outcome = reply.outcome(
                            streamed, self._redact, self.config.retry_after_cap, structured=mode != "prompt"
                        )
                    except httpx.HTTPError as exc:
                        outcome = _from_exception(exc, self._redact)
                    step, delay = self._next_step(outcome, attempt, mode, deadline)
                    if step == "done":
                        break
                    if step == "downgrade":
                        mode = MODES[MODES.index(mode) + 1]
                        remember_mode(self.endpoint, mode)
                        continue
                    attempt += 1
                    log.debug("judge attempt %d failed (%s); retrying in %.2fs", attempt, outcome.error_type, delay)
                    await self._async_sleep(delay)
            return self._finish(span, outcome, sends, mode)
