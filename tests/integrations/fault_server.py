"""A scripted, misbehaving HTTP upstream on 127.0.0.1: raw sockets, one behaviour per server."""

from __future__ import annotations

import gzip
import json
import socket
import struct
import threading
import time
from collections.abc import Callable
from typing import Self

from faithguard.integrations.fake_upstream import completion_body, stream_events

Behaviour = Callable[[socket.socket], None]


def read_request(conn: socket.socket) -> bytes:
    """The head of the next request on ``conn`` (its body read and dropped); empty when the peer closed first."""
    conn.settimeout(5)
    data = b""
    while b"\r\n\r\n" not in data:
        part = conn.recv(65536)
        if not part:
            return data
        data += part
    head, _, rest = data.partition(b"\r\n\r\n")
    length = 0
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value.strip())
    while len(rest) < length:
        part = conn.recv(65536)
        if not part:
            break
        rest += part
    return head


def _head(status: int = 200, headers: dict[str, str] | None = None) -> bytes:
    lines = [f"HTTP/1.1 {status} OK"] + [f"{k}: {v}" for k, v in (headers or {}).items()]
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


def stall(conn: socket.socket) -> None:
    """Read the request, then say nothing for 30 s."""
    time.sleep(30)


def reset_mid_body(conn: socket.socket) -> None:
    """Promise 2000 bytes, send 20, then reset the connection (RST)."""
    conn.sendall(_head(200, {"content-type": "application/json", "content-length": "2000"}) + b'{"id": "x", "choices"')
    conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))


def short_body(conn: socket.socket) -> None:
    """Promise 2000 bytes, send 20, close cleanly."""
    conn.sendall(_head(200, {"content-type": "application/json", "content-length": "2000"}) + b'{"id": "x", "choices"')


def bad_gzip(conn: socket.socket) -> None:
    """Say gzip, send bytes that are not."""
    body = b"this is not gzip at all"
    headers = {"content-type": "application/json", "content-encoding": "gzip", "content-length": str(len(body))}
    conn.sendall(_head(200, headers) + body)


def _json(conn: socket.socket, body: bytes, gzipped: bool = False) -> None:
    headers = {"content-type": "application/json", "content-length": str(len(body))}
    if gzipped:
        headers["content-encoding"] = "gzip"
    conn.sendall(_head(200, headers) + body)


def non_text_content(conn: socket.socket) -> None:
    """A completion whose message content is a number."""
    _json(conn, json.dumps(completion_body({"content": 12345}, "m")).encode())


def deep_json(conn: socket.socket) -> None:
    """A completion nested 50,000 levels deep."""
    _json(conn, b'{"choices": ' + b"[" * 50_000 + b"]" * 50_000 + b"}")


def overflowing_number(conn: socket.socket) -> None:
    """A completion holding a number too large for a float (``1e999``, read as infinity)."""
    body = json.dumps(completion_body("Visit the Louvre museum in Paris.", "m")).encode()
    _json(conn, body[:-1] + b', "x": 1e999}')


def gzipped_answer(conn: socket.socket) -> None:
    """A well-formed gzip-encoded completion (the control case)."""
    _json(conn, gzip.compress(json.dumps(completion_body("Visit the Louvre museum in Paris.", "m")).encode()), True)


def _sse_head(conn: socket.socket) -> None:
    conn.sendall(_head(200, {"content-type": "text/event-stream", "transfer-encoding": "chunked"}))


def _chunk(conn: socket.socket, data: bytes) -> None:
    conn.sendall(f"{len(data):x}\r\n".encode() + data + b"\r\n")


def stream_with_deep_line(conn: socket.socket) -> None:
    """A stream with one 20,000-deep nested data line in the middle, then the rest and [DONE]."""
    events = stream_events("Visit the Louvre museum in Paris.", "m")
    _sse_head(conn)
    for i, ev in enumerate(events):
        if i == 2:
            _chunk(conn, b'data: {"x": ' + b"[" * 20_000 + b"]" * 20_000 + b"}\n\n")
        _chunk(conn, ev)
    conn.sendall(b"0\r\n\r\n")


def _stream_start(conn: socket.socket, chunks: int) -> None:
    """The SSE head and the first ``chunks`` events of a stream answering "Visit the Louvre museum in Paris."."""
    _sse_head(conn)
    for ev in stream_events("Visit the Louvre museum in Paris.", "m")[:chunks]:
        _chunk(conn, ev)


def stream_cut_mid_line(conn: socket.socket) -> None:
    """Two chunks of a stream, then half of a line, then the connection closes before the chunked body ends."""
    _stream_start(conn, 2)
    conn.sendall(b"100\r\n" + b'data: {"id": "x", "cho')


def stream_then_stall(conn: socket.socket) -> None:
    """Two chunks of a stream, then silence."""
    _stream_start(conn, 2)
    time.sleep(30)


def stream_then_error_event(conn: socket.socket) -> None:
    """Three chunks of a stream, then an OpenAI-style error event; the body ends cleanly (no finish, no [DONE])."""
    _stream_start(conn, 3)
    _chunk(conn, b'data: {"error": {"message": "overloaded", "type": "server_error"}}\n\n')
    conn.sendall(b"0\r\n\r\n")


def stream_cut_clean(conn: socket.socket) -> None:
    """Three chunks of a stream, then a clean end of the body: no finish reason, no [DONE]."""
    _stream_start(conn, 3)
    conn.sendall(b"0\r\n\r\n")


def json_for_stream(conn: socket.socket) -> None:
    """A stream request answered with one JSON completion (a server that does not stream)."""
    body = json.dumps(completion_body("Visit the Louvre museum in Paris.", "m")).encode()
    conn.sendall(_head(200, {"content-type": "application/json", "content-length": str(len(body))}) + body)


class LocalServer:
    """A raw HTTP server on 127.0.0.1 for tests: accepts connections on a thread, one handler thread each, and counts
    them. ``with Sub(...) as srv: srv.url``; a subclass says what a connection gets (``_handle``)."""

    def __init__(self) -> None:
        self.connections = 0
        self._sock = socket.socket()
        self._sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self._sock.bind(("127.0.0.1", 0))
        self._sock.listen(16)
        self._sock.settimeout(0.2)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._serve, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._sock.getsockname()[1]}/v1"

    def _serve(self) -> None:
        while not self._stop.is_set():
            try:
                conn, _ = self._sock.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            self.connections += 1
            threading.Thread(target=self._handle, args=(conn,), daemon=True).start()

    def _handle(self, conn: socket.socket) -> None:
        raise NotImplementedError

    def __enter__(self) -> Self:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._sock.close()
        self._thread.join(timeout=2)


class FaultServer(LocalServer):
    """``with FaultServer(stall) as srv: srv.url`` -- every connection gets ``behaviour`` after its request."""

    def __init__(self, behaviour: Behaviour) -> None:
        super().__init__()
        self.behaviour = behaviour
        self.requests: list[bytes] = []

    def _handle(self, conn: socket.socket) -> None:
        with conn:
            try:
                self.requests.append(read_request(conn))
                self.behaviour(conn)
            except OSError:
                pass
