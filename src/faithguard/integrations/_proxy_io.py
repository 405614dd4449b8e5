"""What the proxy reads from clients and upstreams: bounded bodies, strict JSON, SSE text, redacted URLs.

Every failure here is a :class:`Problem` carrying the HTTP status the proxy answers with: 4xx for
what the client sent, 502/504 for what the upstream did. None of the messages quote the body.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import math
import re
import time
import uuid
from collections.abc import AsyncIterator
from typing import Any

import httpx

from faithguard import calls
from faithguard.errors import InputError, redact_url

__all__ = [
    "BLOCK_FINISH_REASON",
    "HOP_BY_HOP",
    "MAX_BODY_BYTES",
    "MAX_JSON_DEPTH",
    "TOO_LONG",
    "Problem",
    "SSEText",
    "UpstreamClients",
    "blocked_completion",
    "blocked_stream",
    "forward_headers",
    "parse_json",
    "read_limited",
    "redact_url",
    "server_stack",
    "split_credentials",
    "upstream_problem",
]

#: Default limit on a request body. The library reads at most 1M characters of text per call
#: (``calls.MAX_INPUT_CHARS``); 8 MiB leaves room for UTF-8 and the JSON around that text.
MAX_BODY_BYTES = 8 * 1024 * 1024
#: Deepest JSON nesting accepted. Chat requests (messages, content parts, tool schemas) need far
#: less; the limit keeps recursive parsers and walkers far from Python's recursion limit.
MAX_JSON_DEPTH = 64
#: Longest SSE line buffered while looking for its end; a longer line is passed on but not read.
MAX_SSE_LINE = 4 * 1024 * 1024
#: Reason code of the report of an answer over the proxy's ``max_score_chars``.
TOO_LONG = "answer_too_long"
#: ``finish_reason`` of the answer the proxy returns for a blocked call.
BLOCK_FINISH_REASON = "content_filter"
#: Upstream connections the proxy's own clients may open and keep, in all.
UPSTREAM_CONNECTIONS = 256
#: Clients the proxy's upstream connections are spread over. Provenance: httpcore 1.0's pool walks its
#: connections (and, for each idle one, all of them again) every time it assigns a request; at 32
#: concurrent requests through one client that walk took ~40% of the event loop's CPU (cProfile, CPU
#: time, ``benchmarks/bench_proxy.py --scoring off --profile``). Eight clients used in turn hold a few
#: connections each.
UPSTREAM_SHARDS = 8


class Problem(Exception):
    """A request the proxy answers with an error status instead of forwarding or scoring it."""

    def __init__(self, status: int, message: str, type_: str, code: str | None = None) -> None:
        super().__init__(message)
        self.status, self.message, self.type, self.code = status, message, type_, code

    def body(self) -> dict[str, Any]:
        """The OpenAI-style error object."""
        return {"error": {"message": self.message, "type": self.type, "param": None, "code": self.code}}


async def read_limited(declared: str | None, chunks: AsyncIterator[bytes], limit: int) -> bytes:
    """The whole body, or :class:`Problem` 413 as soon as it (or its ``content-length``) passes ``limit``."""
    too_large = Problem(413, f"request body is larger than {limit} bytes", "invalid_request_error", "body_too_large")
    if declared is not None:
        try:
            if int(declared) > limit:
                raise too_large
        except ValueError:
            raise Problem(400, "content-length is not a number", "invalid_request_error") from None
    data = bytearray()
    async for chunk in chunks:
        data += chunk
        if len(data) > limit:
            raise too_large
    return bytes(data)


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")


def _finite_float(text: str) -> float:
    """A JSON number as a float, refused when it overflows (``1e999`` reads as infinity, which no JSON encoder
    writes back: the re-encoded request or annotated answer failed with a 500; helper 87)."""
    value = float(text)
    if math.isinf(value):
        raise ValueError("a number too large for a float")
    return value


#: One decoder for every body (json.loads with parse_constant builds a new one per call).
_DECODER = json.JSONDecoder(parse_constant=_reject_constant, parse_float=_finite_float)


#: A JSON escape of a UTF-16 surrogate (a backslash, u, D800-DFFF): the only way a parsed string can hold an unpaired
#: one (UTF-8 input cannot encode surrogates; the decoder rejects them).
_SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F]")


def _needs_walk(data: bytes, max_depth: int) -> tuple[bool, bool]:
    """Whether the parsed tree can be nested past ``max_depth`` (it has more brackets than that, strings
    included) and whether it can hold a surrogate (it has an escape of one). Usually neither: no walk."""
    deep = data.count(b"[") + data.count(b"{") > max_depth
    return deep, b"\\u" in data and _SURROGATE_ESCAPE.search(data) is not None


def _check_tree(value: Any, max_depth: int) -> None:
    """Depth and text validity of parsed JSON, walked without recursion."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict | list):
            if depth > max_depth:
                raise ValueError(f"JSON nested deeper than {max_depth} levels")
            children = list(item.items()) if isinstance(item, dict) else [(None, v) for v in item]
            for key, child in children:
                if isinstance(key, str):
                    _check_text(key)
                stack.append((child, depth + 1))
        elif isinstance(item, str):
            _check_text(item)


def _check_text(text: str) -> None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise ValueError("a string holds an unpaired surrogate (invalid Unicode)") from None


def parse_json(data: bytes, *, upstream: bool = False, max_depth: int = MAX_JSON_DEPTH) -> Any:
    """Strict JSON: no NaN/Infinity, no unpaired surrogates, at most ``max_depth`` levels.

    Raises :class:`Problem`: 400 for a client's body, 502 for an upstream's (``upstream=True``).
    """
    try:
        # strict decoding, not json.loads's "surrogatepass": UTF-8 bytes of a surrogate are not text either
        value = _DECODER.decode(data.decode(json.detect_encoding(data)))
        if any(_needs_walk(data, max_depth)):
            _check_tree(value, max_depth)
    except RecursionError:
        value, reason = None, f"JSON nested deeper than {max_depth} levels"
    except UnicodeDecodeError:
        value, reason = None, "body is not UTF-8"
    except ValueError as exc:
        value, reason = None, str(exc).split(":", 1)[0]  # json's message quotes no content before the colon
    else:
        return value
    if upstream:
        raise Problem(502, f"upstream sent unreadable JSON: {reason}", "upstream_error", "bad_gateway")
    raise Problem(400, f"invalid JSON body: {reason}", "invalid_request_error")


class SSEText:
    """The assistant text of a chat-completions SSE stream, fed raw bytes. Never raises.

    A line it cannot read (bad JSON, nested too deep, too long) is passed on by the proxy
    untouched and marks the text ``broken``: the answer is then not scored, rather than scored
    on a part of it. So does an error event in the stream (``data: {"error": ...}``, what OpenAI-compatible
    servers send when they fail mid-answer) and a stream that ends with neither a finish reason nor
    ``[DONE]`` (cut short): :attr:`unscored` says which. An upstream that answers a stream request with
    one JSON completion instead is read as that completion.

    With ``max_chars``, reading stops once the answer's text or its count of data lines passes it (the rest is
    passed on unread, and the answer is not scored): a stream of a million one-character lines cost ~6 s of the
    event loop's time to read, for an answer the proxy would not score.
    """

    def __init__(self, max_chars: int | None = None) -> None:
        self._max_chars = max_chars
        self._chars = 0
        self.over_limit = False
        self._cut = False  # after the limit: the last bytes fed ended inside a line
        self._buffer = bytearray()
        self._skipping = False
        self._raw = bytearray()  # the body while no data line came: a JSON completion instead of a stream
        self._parsed: tuple[Any] | None = None  # that body, parsed once
        self.parts: list[str] = []
        self.tool_call = False
        self.done = False
        self.finished = False
        self.broken = False
        self.error = False
        self.data_lines = 0

    def feed(self, data: bytes) -> None:
        """Read the complete lines in ``data`` (plus what was buffered)."""
        if self.over_limit:
            self._cut = (bool(data) and not data.endswith(b"\n")) or (not data and self._cut)
            return
        if not self.data_lines and len(self._raw) + len(data) <= MAX_SSE_LINE:
            self._raw += data
        self._buffer += data
        while True:
            end = self._buffer.find(b"\n")
            if end < 0:
                if len(self._buffer) > MAX_SSE_LINE:
                    self._buffer.clear()
                    self._skipping = self.broken = True
                return
            line = bytes(self._buffer[:end]).strip()
            del self._buffer[: end + 1]
            if self._skipping:  # the rest of an over-long line
                self._skipping = False
                continue
            self._line(line)
            if self.over_limit:
                self._cut = bool(self._buffer) and not self._buffer.endswith(b"\n")
                self._buffer.clear()
                self.parts.clear()
                return

    def _line(self, line: bytes) -> None:
        if not line.startswith(b"data:"):
            return
        self.data_lines += 1
        payload = line[5:].strip()
        if payload == b"[DONE]":
            self.done = True
            return
        if not payload:
            return
        try:
            chunk = parse_json(payload, upstream=True)
            if isinstance(chunk, dict) and "error" in chunk and "choices" not in chunk:
                self.error = True  # the upstream failed mid-answer: what came before is not the answer
                return
            part, tool_call = _delta_of(chunk)
            self.parts.append(part)
            self._chars += len(part)
            if self._max_chars is not None and max(self._chars, self.data_lines) > self._max_chars:
                self.over_limit = True
            self.tool_call = self.tool_call or tool_call
            self.finished = self.finished or _finish_reason(chunk)
        except (Problem, InputError, TypeError, AttributeError):
            self.broken = True

    @property
    def pending(self) -> bool:
        """Whether a line was cut off: bytes were fed after the last line end."""
        return bool(self._buffer) or self._skipping or self._cut

    @property
    def unscored(self) -> str | None:
        """Why the answer is not scored (a reason for the report, no content in it), or None."""
        if self.over_limit:
            return (
                f"{TOO_LONG}: the streamed answer passed the {self._max_chars} characters (or data lines) this "
                "proxy scores (max_score_chars); the rest of the stream was passed on unread"
            )
        if self.error:
            return "stream_error: the upstream sent an error event mid-answer; a partial answer is not scored"
        if self.broken or (not self.data_lines and self._completion() is None):
            return "stream_unreadable: a line of the upstream's stream could not be read; the answer is not scored"
        if self.data_lines and not (self.done or self.finished):
            return (
                "stream_incomplete: the stream ended with no finish reason and no [DONE]; a partial answer is "
                "not scored"
            )
        return None

    def _completion(self) -> Any | None:
        """The body read as one JSON completion (an upstream that answered a stream request without streaming);
        parsed once, when the stream has ended."""
        if self.data_lines or not self._raw.strip():
            return None
        if self._parsed is None:
            try:
                body = parse_json(bytes(self._raw), upstream=True)
            except (Problem, InputError):
                body = None
            self._parsed = (body if isinstance(body, dict) and "choices" in body else None,)
        return self._parsed[0]

    @property
    def text(self) -> str | None:
        """The joined answer; None for a tool call or an answer not to be scored (:attr:`unscored`)."""
        completion = self._completion()
        if completion is not None:
            if calls.tool_calls_of(completion):
                return None
            try:
                return calls.extract_text(completion)
            except InputError:
                return None
        if self.tool_call or self.unscored is not None:
            return None
        return "".join(self.parts)


def _delta_of(chunk: Any) -> tuple[str, bool]:
    """(the text a parsed stream chunk adds, whether it carries a tool call): :func:`calls.chunk_text` and
    :func:`calls.chunk_has_tool_call`, read directly for the one shape nearly every line has (``choices[0].delta``
    a JSON object): their generic reading of any object cost about half of each line's time."""
    choices = chunk.get("choices") if type(chunk) is dict else None
    first = choices[0] if type(choices) is list and choices else None
    delta = first.get("delta") if type(first) is dict else None
    if type(delta) is not dict:
        return calls.chunk_text(chunk), calls.chunk_has_tool_call(chunk)
    content = delta.get("content")
    tools = delta.get("tool_calls")
    return (content if type(content) is str else ""), bool(
        (type(tools) is list and tools) or delta.get("function_call")
    )


def _finish_reason(chunk: Any) -> bool:
    """Whether a stream chunk closes its choice (a ``finish_reason`` is set)."""
    choices = chunk.get("choices") if isinstance(chunk, dict) else None
    return isinstance(choices, list) and any(isinstance(c, dict) and c.get("finish_reason") for c in choices)


class _NoCookies(httpx.Cookies):
    """A cookie jar that keeps nothing it is sent."""

    def extract_cookies(self, response: httpx.Response) -> None:
        """Keep no ``Set-Cookie`` of the response (the client it is forwarded to gets the header)."""


class _Forwarder(httpx.AsyncClient):
    """An upstream client shared by every proxy client, so it keeps no cookies: a ``Set-Cookie`` meant for one
    client is passed to that client and never sent upstream with another's request (nor parsed per answer)."""

    @property
    def cookies(self) -> httpx.Cookies:
        """Always empty."""
        jar = self.__dict__.get("_no_cookies")
        if jar is None:
            jar = self.__dict__["_no_cookies"] = _NoCookies()
        return jar

    @cookies.setter
    def cookies(self, cookies: Any) -> None:
        """Ignored: this client keeps no cookies."""


class UpstreamClients:
    """The HTTP clients the proxy forwards with: the caller's one, or ``shards`` of its own used in turn.

    Its own clients share ``connections`` between them, every one kept alive for reuse (httpx keeps 20
    by default, and httpcore 1.0 closes a connection that turns idle while more than that are open: at
    32 concurrent requests most of them reconnected). A caller's client is used as given and not closed.
    """

    def __init__(
        self,
        client: httpx.AsyncClient | None,
        timeout: float,
        *,
        shards: int = UPSTREAM_SHARDS,
        connections: int = UPSTREAM_CONNECTIONS,
    ) -> None:
        if client is not None:
            self.own, self.clients = False, [client]
        else:
            per = max(1, connections // shards)
            limits = httpx.Limits(max_connections=per, max_keepalive_connections=per)
            timeouts = httpx.Timeout(timeout, connect=min(timeout, 5.0))
            self.own = True
            self.clients = [_Forwarder(timeout=timeouts, limits=limits) for _ in range(shards)]
        self._turn = itertools.cycle(self.clients)

    def next(self) -> httpx.AsyncClient:
        """The client for the next exchange."""
        return next(self._turn)

    async def aclose(self) -> None:
        """Close the clients this object made (a caller's client stays open)."""
        if self.own:
            for client in self.clients:
                await client.aclose()


HOP_BY_HOP = {
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


def forward_headers(headers: Any, *, response: bool = False) -> dict[str, str]:
    """Headers to pass on: hop-by-hop ones dropped (and, for a response, ``server`` and ``date``)."""
    drop = HOP_BY_HOP | ({"server", "date"} if response else {"accept-encoding"})
    return {k: v for k, v in headers.items() if k.lower() not in drop}


def blocked_completion(text: str, model: str) -> dict[str, Any]:
    """The ``chat.completion`` returned instead of a blocked answer."""
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


def blocked_stream(text: str, model: str) -> list[bytes]:
    """The SSE events returned instead of a blocked streamed answer."""
    base: dict[str, Any] = {"id": f"chatcmpl-faithguard-{uuid.uuid4().hex[:12]}", "object": "chat.completion.chunk"}
    base.update(created=int(time.time()), model=model)
    first = {**base, "choices": [{"index": 0, "delta": {"role": "assistant", "content": text}, "finish_reason": None}]}
    last = {**base, "choices": [{"index": 0, "delta": {}, "finish_reason": BLOCK_FINISH_REASON}]}
    return [b"data: " + json.dumps(d).encode() + b"\n\n" for d in (first, last)] + [b"data: [DONE]\n\n"]


def split_credentials(url: str) -> tuple[str, Any]:
    """The upstream URL without ``user:password@``, and those credentials as httpx Basic auth.

    Requests then go to a URL that holds no secret, so httpx's own request log cannot show it.
    """
    parsed = httpx.URL(url)
    if not parsed.userinfo:
        return url, httpx.USE_CLIENT_DEFAULT
    auth = httpx.BasicAuth(parsed.username, parsed.password)
    return str(parsed.copy_with(username=None, password=None)), auth


def upstream_problem(exc: BaseException) -> Problem:
    """502 for an upstream that failed, 504 for one that took too long; the message names only the error type."""
    if isinstance(exc, Problem):
        return exc
    name = type(exc).__name__
    if isinstance(exc, TimeoutError | httpx.TimeoutException):
        return Problem(504, f"upstream timed out ({name})", "upstream_error", "gateway_timeout")
    return Problem(502, f"upstream unreachable or failed: {name}", "upstream_error", "bad_gateway")


def server_stack() -> dict[str, str]:
    """The event loop running now and the HTTP parser uvicorn's ``http="auto"`` picks here (uvloop and
    httptools when installed: the ``proxy`` extra; else asyncio's loop and h11). Call it on the loop."""
    loop = type(asyncio.get_running_loop())
    try:
        from uvicorn.protocols.http.auto import AutoHTTPProtocol

        http = AutoHTTPProtocol.__module__.rsplit(".", 1)[-1].removesuffix("_impl")
    except ImportError:  # served by another ASGI server: it chose its own
        http = "not uvicorn"
    return {"loop": f"{loop.__module__}.{loop.__qualname__}", "http_auto": http}
