"""The proxy's chat hop to its upstream: a small HTTP/1.1 keep-alive client on an asyncio protocol.

Provenance: httpx's request/response machinery (models, auth flow, hooks, header merging, httpcore's pool
walk and h11's pure-Python parser) took ~80% of the proxy's event-loop CPU at 32 concurrent clients
(``benchmarks/bench_proxy.py --profile``). This client writes one request with one ``transport.write`` and
reads the answer with httptools' C parser (already in the ``proxy`` extra, uvicorn's parser), and keeps
its connections for reuse.

It speaks to one origin (``http`` or ``https``: TLS with httpx's own default context, so certificates
are checked as before) and decodes ``gzip`` and ``deflate`` bodies, the encodings it asks for. Failures
are raised as the httpx exceptions the proxy already maps to 502/504 (``RemoteProtocolError``,
``ReadError``, ``ConnectError``, ``ConnectTimeout``, ``ReadTimeout``, ``DecodingError``,
``LocalProtocolError``); none of their messages quote the URL, a header or the body. A request waits
for a free connection within the proxy's own deadline (504 past it). An upstream reached through an HTTP proxy
named in the environment, or a client given by the caller, stays on httpx (see :func:`fast_path`).
"""

from __future__ import annotations

import asyncio
import base64
import collections
import contextlib
import importlib.util
import ssl
import urllib.request
import weakref
import zlib
from collections.abc import AsyncIterator, Mapping
from typing import Protocol, cast
from urllib.parse import urlsplit

import httpx

from faithguard.integrations._proxy_io import split_credentials

__all__ = [
    "FAST_CONNECTIONS",
    "KEEPALIVE_SECONDS",
    "FastUpstream",
    "UpstreamResponse",
    "basic_auth",
    "fast_path",
    "fast_upstream",
]

#: Connections kept to the upstream at most (as many requests in flight; more wait for one).
FAST_CONNECTIONS = 256
#: An idle connection older than this is closed rather than reused: httpx's default keep-alive expiry (5 s),
#: which stays under common servers' idle timeouts (uvicorn's default is 5 s) so a reused one is rarely stale.
KEEPALIVE_SECONDS = 5.0
#: Unread answer bytes buffered per connection before reading from the socket pauses (flow control).
_HIGH_WATER = 256 * 1024
#: The encodings asked for, and decoded.
ACCEPT_ENCODING = "gzip, deflate"


class UpstreamResponse(Protocol):
    """What the proxy reads of an upstream's answer (httpx.Response has the same shape)."""

    @property
    def status_code(self) -> int:
        """The HTTP status."""

    @property
    def headers(self) -> Mapping[str, str]:
        """Header names in lower case; repeated headers joined with ", " (as httpx.Headers.items())."""

    async def aread(self) -> bytes:
        """The whole (decoded) body."""

    def aiter_bytes(self) -> AsyncIterator[bytes]:
        """The (decoded) body as it arrives."""

    async def aclose(self) -> None:
        """Release the connection (reused if the answer was read to its end)."""


def basic_auth(username: str, password: str) -> str:
    """The ``Authorization`` value for Basic credentials, encoded as httpx.BasicAuth does (UTF-8)."""
    token = base64.b64encode(username.encode() + b":" + password.encode()).decode("ascii")
    return f"Basic {token}"


def fast_path(url: str) -> bool:
    """Whether ``url`` can be served by :class:`FastUpstream`: httptools is installed (the ``proxy`` extra
    installs it on CPython), the scheme is http(s), and no environment proxy applies (httpx honours
    ``HTTP_PROXY``/``HTTPS_PROXY``/``ALL_PROXY``; such an upstream stays on httpx)."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname or importlib.util.find_spec("httptools") is None:
        return False
    proxies = urllib.request.getproxies()
    if not (proxies.get(parts.scheme) or proxies.get("all")):
        return True
    return bool(urllib.request.proxy_bypass(parts.hostname))


class _Decompressor(Protocol):
    def decompress(self, data: bytes, /) -> bytes: ...

    def flush(self) -> bytes: ...


def _decoder(encoding: str) -> _Decompressor | None:
    """A zlib decompressor for one content-encoding; None for identity."""
    name = encoding.strip().lower()
    if name in ("", "identity"):
        return None
    if name in ("gzip", "x-gzip"):
        return zlib.decompressobj(zlib.MAX_WBITS | 16)
    if name == "deflate":
        return _Deflate()
    raise httpx.DecodingError("upstream sent a content-encoding that was not asked for")


class _Deflate:
    """``deflate`` as servers send it: zlib-wrapped, or (some servers) raw; httpx's DeflateDecoder tries both."""

    def __init__(self) -> None:
        self.first = True
        self.obj = zlib.decompressobj()

    def decompress(self, data: bytes) -> bytes:
        was_first, self.first = self.first, False
        try:
            return self.obj.decompress(data)
        except zlib.error:
            if not was_first:
                raise
            self.obj = zlib.decompressobj(-zlib.MAX_WBITS)
            return self.obj.decompress(data)

    def flush(self) -> bytes:
        return self.obj.flush()


class _AfterAnswer(Exception):
    """Raised from a parser callback when no answer can be read here: a message begins after the answer ended,
    or the upstream switches protocols (101)."""


class _Connection(asyncio.Protocol):
    """One upstream connection: the httptools parser's callbacks fill the current exchange's state."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        import httptools

        self.loop = loop
        self.parser = httptools.HttpResponseParser(self)
        # HttpParserUpgrade (a 101 answer) is not an HttpParserError: the connection would become another protocol
        self.parser_error: tuple[type[Exception], ...] = (httptools.HttpParserError, httptools.HttpParserUpgrade)
        self.transport: asyncio.Transport | None = None
        self.closed = False
        self.idle_since = 0.0
        self.begin()

    def begin(self) -> None:
        """Clear the exchange state for the next request."""
        if getattr(self, "paused", False) and self.transport is not None:
            self.transport.resume_reading()  # an answer closed unread left reading paused on its last bytes
        self.status = 0
        self.header_list: list[tuple[bytes, bytes]] = []
        self.head_done = False
        self.interim = False
        self.complete = False
        self.keep_alive = False
        self.sized = False  # a content-length or chunked body: its end is known without the connection closing
        self.error: httpx.HTTPError | None = None
        self.received = False
        self.chunks: collections.deque[bytes] = collections.deque()
        self.buffered = 0
        self.paused = False
        self.waiter: asyncio.Future[None] | None = None

    # asyncio.Protocol
    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast(asyncio.Transport, transport)  # uvloop's transports are not asyncio's subclasses

    def data_received(self, data: bytes) -> None:
        self.received = True
        try:
            self.parser.feed_data(data)
        except self.parser_error as exc:  # malformed answer, or bytes after it: the connection is done
            self._failed(httpx.RemoteProtocolError(f"upstream sent malformed HTTP ({type(exc).__name__})"))
            self.abort()

    def eof_received(self) -> bool | None:
        return None  # close the transport: connection_lost follows

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed = True
        if self.complete or self.error is not None:
            self._wake()
            return
        if exc is not None:
            self._failed(httpx.ReadError(f"upstream connection lost ({type(exc).__name__})"))
        elif self.head_done and not self.sized:
            self.complete = True  # a body delimited by the connection's end
            self._wake()
        else:
            self._failed(httpx.RemoteProtocolError("upstream closed the connection before the answer ended"))

    # httptools callbacks
    def on_message_begin(self) -> None:
        if self.complete:  # bytes after the answer (a second answer, or anything): never part of this one
            raise _AfterAnswer

    def on_header(self, name: bytes, value: bytes) -> None:
        if not self.head_done:  # after the head, a chunked body's trailers: not headers of the answer
            self.header_list.append((name, value))

    def on_headers_complete(self) -> None:
        status = self.parser.get_status_code()
        if status == 101:  # switching protocols: no HTTP answer follows on this connection
            raise _AfterAnswer
        if 100 <= status < 200 and status != 101:  # an interim answer (103 Early Hints): the real one follows
            self.header_list = []
            self.interim = True
            return
        self.status = status
        for name, value in self.header_list:
            low = name.lower()
            if low == b"content-length" or (low == b"transfer-encoding" and b"chunked" in value.lower()):
                self.sized = True
        self.head_done = True
        self._wake()

    def on_body(self, body: bytes) -> None:
        self.chunks.append(body)
        self.buffered += len(body)
        if self.buffered > _HIGH_WATER and not self.paused and self.transport is not None:
            self.paused = True
            self.transport.pause_reading()
        self._wake()

    def on_message_complete(self) -> None:
        if self.interim:
            self.interim = False
            return
        self.sized = True
        self.keep_alive = self.parser.should_keep_alive()  # asked here: after the message the parser forgets
        self.complete = True
        self._wake()

    # the exchange
    def _failed(self, error: httpx.HTTPError) -> None:
        if self.error is None and not self.complete:
            self.error = error
        self._wake()

    def _wake(self) -> None:
        waiter = self.waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    async def wait(self) -> None:
        """Until the parser or the connection says something new."""
        self.waiter = self.loop.create_future()
        try:
            await self.waiter
        finally:
            self.waiter = None

    def take(self) -> bytes | None:
        """The buffered body bytes (b"" if none yet); None at the body's end."""
        if self.chunks:
            data = self.chunks[0] if len(self.chunks) == 1 else b"".join(self.chunks)
            self.chunks.clear()
            self.buffered = 0
            if self.paused and self.transport is not None:
                self.paused = False
                self.transport.resume_reading()
            return data
        if self.error is not None:
            raise self.error
        return None if self.complete else b""

    def reusable(self) -> bool:
        return (
            self.complete
            and self.error is None
            and not self.closed
            and self.transport is not None
            and not self.transport.is_closing()
            and self.keep_alive
        )

    def abort(self) -> None:
        """Close the connection: politely (FIN) between answers, at once (RST) in the middle of one."""
        between = self.complete and self.error is None
        self.closed = True
        if self.transport is not None:
            if between:
                self.transport.close()
            else:
                self.transport.abort()


class _Response:
    """An upstream answer on its connection. Read it (``aread`` or ``aiter_bytes``) and ``aclose`` it."""

    def __init__(self, pool: FastUpstream, conn: _Connection, read_timeout: float, *, stream: bool) -> None:
        self._pool, self._conn, self._read_timeout = pool, conn, read_timeout
        self.status_code = conn.status
        headers: dict[str, str] = {}
        encoding = ""
        for raw_name, raw_value in conn.header_list:
            name, value = raw_name.decode("latin-1").lower(), raw_value.decode("latin-1")
            headers[name] = f"{headers[name]}, {value}" if name in headers else value
            if name == "content-encoding":
                encoding = value
        self.headers: Mapping[str, str] = headers
        decoders = [_decoder(e) for e in reversed(encoding.split(","))] if encoding else []
        self._decoders = [d for d in decoders if d is not None]
        self._released = False
        # a stream dropped unread (a client that left before it began) gives back its connection when collected
        self._finalizer = weakref.finalize(self, _discard, pool, conn) if stream else None

    async def _raw(self, timeout: float | None) -> AsyncIterator[bytes]:
        conn = self._conn
        while True:
            data = conn.take()
            if data is None:
                return
            if data:
                yield data
                continue
            if timeout is None:
                await conn.wait()
            else:
                try:
                    async with asyncio.timeout(timeout):
                        await conn.wait()
                except TimeoutError:
                    raise httpx.ReadTimeout("upstream sent nothing within the read timeout") from None

    async def _decoded(self, timeout: float | None) -> AsyncIterator[bytes]:
        try:
            async for data in self._raw(timeout):
                for decoder in self._decoders:
                    data = decoder.decompress(data)
                if data:
                    yield data
            tail = b""
            for decoder in self._decoders:
                tail = decoder.decompress(tail) + decoder.flush() if tail else decoder.flush()
            if tail:
                yield tail
        except zlib.error:
            raise httpx.DecodingError("upstream sent a body that does not decode as its content-encoding") from None

    async def aread(self) -> bytes:
        """The whole body (the caller bounds the exchange's time)."""
        parts = [data async for data in self._decoded(None)]
        return parts[0] if len(parts) == 1 else b"".join(parts)

    async def aiter_bytes(self) -> AsyncIterator[bytes]:
        """The body as it arrives; each wait for more is bounded by the read timeout (then ReadTimeout)."""
        async for data in self._decoded(self._read_timeout):
            yield data

    async def aclose(self) -> None:
        """Give the connection back: kept if the answer was read to its end, else closed."""
        if not self._released:
            self._released = True
            if self._finalizer is not None:
                self._finalizer.detach()
            self._pool.release(self._conn)


def _discard(pool: FastUpstream, conn: _Connection) -> None:
    """Finalizer of an unclosed response: close its connection on its loop (a collection may run anywhere)."""
    with contextlib.suppress(RuntimeError):  # a closed loop: its connections are closed too
        conn.loop.call_soon_threadsafe(pool.release, conn)


class FastUpstream:
    """Keep-alive HTTP/1.1 connections to one origin; ``send`` one request, get its answer's head."""

    def __init__(
        self,
        url: str,
        *,
        timeout: float,
        connect_timeout: float,
        auth: str | None = None,
        connections: int = FAST_CONNECTIONS,
    ) -> None:
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError("the fast upstream client speaks http and https only")
        self.tls = parts.scheme == "https"
        self.host = parts.hostname
        self.port = parts.port or (443 if self.tls else 80)
        default = 443 if self.tls else 80
        host = f"[{self.host}]" if ":" in self.host else self.host
        self.authority = host if self.port == default else f"{host}:{self.port}"
        self.timeout, self.connect_timeout, self.auth = timeout, connect_timeout, auth
        self._idle: list[_Connection] = []
        self._open: set[_Connection] = set()
        self.connections = connections
        self._slots = asyncio.Semaphore(connections)
        self._ssl: ssl.SSLContext | None = None

    def _context(self) -> ssl.SSLContext:
        if self._ssl is None:
            self._ssl = httpx.create_ssl_context()  # certifi or SSL_CERT_FILE/SSL_CERT_DIR, as httpx's clients use
        return self._ssl

    async def _connect(self) -> _Connection:
        loop = asyncio.get_running_loop()
        try:
            async with asyncio.timeout(self.connect_timeout):
                if self.tls:
                    _, conn = await loop.create_connection(
                        lambda: _Connection(loop), self.host, self.port, ssl=self._context(), server_hostname=self.host
                    )
                else:
                    _, conn = await loop.create_connection(lambda: _Connection(loop), self.host, self.port)
        except TimeoutError:
            raise httpx.ConnectTimeout("upstream did not accept a connection in time") from None
        except (OSError, ssl.SSLError) as exc:
            raise httpx.ConnectError(f"cannot connect to the upstream ({type(exc).__name__})") from None
        self._open.add(conn)
        return conn

    def _idle_connection(self) -> _Connection | None:
        loop = asyncio.get_running_loop()
        now = loop.time()
        while self._idle:
            conn = self._idle.pop()  # the most recently used: warm
            if not conn.closed and conn.loop is loop and now - conn.idle_since < KEEPALIVE_SECONDS:
                return conn
            self._drop(conn)
        return None

    def _drop(self, conn: _Connection) -> None:
        conn.abort()
        self._open.discard(conn)

    def head(self, method: str, target: str, headers: Mapping[str, str], length: int) -> bytes:
        """The request line and headers: the given ones, then Host and any default not given."""
        lines = [f"{method} {target} HTTP/1.1", f"Host: {self.authority}"]
        given = set()
        for name, value in headers.items():
            low = name.lower()
            if low == "host" or (self.auth is not None and low == "authorization"):
                continue
            given.add(low)
            lines.append(f"{name}: {value}")
        if "accept" not in given:
            lines.append("Accept: */*")
        lines.append(f"Accept-Encoding: {ACCEPT_ENCODING}")  # decoded here; the client's is never forwarded
        if self.auth is not None:
            lines.append(f"Authorization: {self.auth}")  # URL credentials replace the client's, as httpx auth did
        lines.append(f"Content-Length: {length}")
        text = "\r\n".join(lines)
        if text.count("\n") != len(lines) - 1 or text.count("\r") != len(lines) - 1:
            raise httpx.LocalProtocolError("a header holds a line break")
        return text.encode("latin-1", "replace") + b"\r\n\r\n"

    async def send(
        self, method: str, target: str, headers: Mapping[str, str], body: bytes, *, stream: bool = False
    ) -> _Response:
        """Send one request and wait for its answer's head; the body is read from the response (``stream``:
        a response that may be dropped unclosed, whose connection is then given back when it is collected)."""
        head = self.head(method, target, headers, len(body))
        await self._slots.acquire()
        conn: _Connection | None = None
        try:
            conn = self._idle_connection() or await self._connect()
            conn.begin()
            transport = conn.transport
            assert transport is not None
            transport.write(head + body if len(body) < 65536 else head)
            if len(body) >= 65536:
                transport.write(body)
            while not conn.head_done:
                if conn.error is not None:
                    raise conn.error
                await conn.wait()
            return _Response(self, conn, self.timeout, stream=stream)  # may refuse its encoding: inside the try
        except BaseException:
            if conn is not None:
                self._drop(conn)
            self._slots.release()
            raise

    def release(self, conn: _Connection) -> None:
        """Take a connection back from a response: idle for reuse, or closed."""
        if conn not in self._open:
            return
        if conn.reusable():
            conn.idle_since = conn.loop.time()
            self._idle.append(conn)
        else:
            self._drop(conn)
        self._slots.release()

    async def aclose(self) -> None:
        """Close every connection (the client can then serve again, on another event loop too)."""
        for conn in list(self._open):
            self._drop(conn)
        self._idle.clear()
        self._slots = asyncio.Semaphore(self.connections)


def fast_upstream(upstream: str, http_client: httpx.AsyncClient | None, timeout: float) -> FastUpstream | None:
    """The chat hop's own client for ``upstream``; None where httpx stays (a caller's client, an environment
    proxy, another scheme). URL credentials become its Basic ``Authorization``; the URL it keeps has none."""
    if http_client is not None or not fast_path(upstream):
        return None
    parsed = httpx.URL(upstream)
    auth = basic_auth(parsed.username, parsed.password) if parsed.userinfo else None
    return FastUpstream(split_credentials(upstream)[0], timeout=timeout, connect_timeout=min(timeout, 5.0), auth=auth)
