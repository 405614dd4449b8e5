"""A tiny OpenAI-compatible chat-completions server on loopback, for tests, examples and benchmarks.

Standard library only (``http.server`` in a thread). It answers
``POST /v1/chat/completions`` with scripted replies, as JSON or as an SSE stream
(``"stream": true``, HTTP/1.1 chunked, one ``chat.completion.chunk`` per word,
then ``data: [DONE]``), and ``GET /v1/models``. It records the requests it saw.
"""

from __future__ import annotations

import json
import threading
import time
from collections import deque
from collections.abc import Callable, Sequence
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

__all__ = ["FakeOpenAIServer", "completion_body", "stream_events", "tool_call_message"]

#: A scripted reply: the answer text, or an assistant message dict (e.g. ``{"content": None, "tool_calls": [...]}``).
ReplyValue = str | dict[str, Any]
Reply = Callable[[dict[str, Any]], ReplyValue]


def tool_call_message(name: str, arguments: str, call_id: str = "call_fake1") -> dict[str, Any]:
    """An assistant message that only asks for one function call (``content`` is null)."""
    call = {"id": call_id, "type": "function", "function": {"name": name, "arguments": arguments}}
    return {"role": "assistant", "content": None, "tool_calls": [call]}


def completion_body(reply: ReplyValue, model: str, finish_reason: str | None = None) -> dict[str, Any]:
    """An OpenAI ``chat.completion`` object answering ``reply``."""
    message = {"role": "assistant", "content": reply} if isinstance(reply, str) else {"role": "assistant", **reply}
    finish = finish_reason or ("tool_calls" if message.get("tool_calls") else "stop")
    words = len(str(message.get("content") or "").split())
    return {
        "id": f"chatcmpl-fake{int(time.time() * 1000) % 10**9}",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": model,
        "choices": [{"index": 0, "message": message, "finish_reason": finish}],
        "usage": {"prompt_tokens": 10, "completion_tokens": words, "total_tokens": 10 + words},
    }


def stream_events(reply: ReplyValue, model: str, finish_reason: str | None = None) -> list[bytes]:
    """The SSE events of a streamed answer: a role chunk, one chunk per word, a finish chunk, ``[DONE]``.

    A tool-call reply streams as one delta carrying the whole call, then ``finish_reason="tool_calls"``.
    """
    base = {"id": "chatcmpl-fakestream", "object": "chat.completion.chunk", "created": int(time.time()), "model": model}

    def event(delta: dict[str, Any], finish: str | None = None) -> bytes:
        body = {**base, "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}
        return b"data: " + json.dumps(body).encode() + b"\n\n"

    if not isinstance(reply, str):
        calls = [{"index": i, **c} for i, c in enumerate(reply.get("tool_calls") or [])]
        delta = {"role": "assistant", "content": reply.get("content"), "tool_calls": calls}
        return [event(delta), event({}, finish_reason or "tool_calls"), b"data: [DONE]\n\n"]
    text = reply
    finish_reason = finish_reason or "stop"
    words = text.split(" ")
    out = [event({"role": "assistant", "content": ""})]
    out += [event({"content": w if i == len(words) - 1 else w + " "}) for i, w in enumerate(words)]
    out.append(event({}, finish_reason))
    out.append(b"data: [DONE]\n\n")
    return out


class _Server(ThreadingHTTPServer):
    request_queue_size = 128  # the stdlib default of 5 drops connections under load


class FakeOpenAIServer:
    """Scripted OpenAI-compatible upstream on ``127.0.0.1`` (``with FakeOpenAIServer([...]) as srv: srv.url``)."""

    def __init__(
        self,
        replies: Sequence[ReplyValue] | Reply = ("Hello.",),
        *,
        host: str = "127.0.0.1",
        port: int = 0,
        status: int = 200,
        keep_requests: int = 100,
    ) -> None:
        self._replies = replies
        self.status = status
        self.requests: deque[dict[str, Any]] = deque(maxlen=keep_requests)
        self.count = 0
        self._lock = threading.Lock()
        self._server = _Server((host, port), self._handler_class())
        self._server.daemon_threads = True
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        """Base URL including ``/v1`` (what an OpenAI client takes as ``base_url``)."""
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}/v1"

    def reply_for(self, body: dict[str, Any]) -> ReplyValue:
        """The scripted reply to one request."""
        with self._lock:
            n = self.count
            self.count += 1
        if callable(self._replies):
            return self._replies(body)
        return self._replies[n % len(self._replies)]

    def start(self) -> FakeOpenAIServer:
        """Serve in a daemon thread."""
        self._thread = threading.Thread(target=self._server.serve_forever, name="fake-openai", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop serving and close the socket."""
        self._server.shutdown()
        self._server.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def __enter__(self) -> FakeOpenAIServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def _handler_class(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            disable_nagle_algorithm = True  # headers and body go out as separate writes

            def log_message(self, format: str, *args: Any) -> None:
                """Silent."""

            def _send_json(self, status: int, body: dict[str, Any]) -> None:
                data = json.dumps(body).encode()
                self.send_response(status)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(data)))
                self.send_header("x-request-id", "req-fake")
                self.end_headers()
                self.wfile.write(data)

            def do_GET(self) -> None:
                """``/v1/models``."""
                if self.path.rstrip("/") == "/v1/models":
                    self._send_json(200, {"object": "list", "data": [{"id": "fake-1", "object": "model"}]})
                else:
                    self._send_json(404, {"error": {"message": "not found", "type": "invalid_request_error"}})

            def do_POST(self) -> None:
                """``/v1/chat/completions``: JSON or SSE."""
                length = int(self.headers.get("content-length") or 0)
                raw = self.rfile.read(length)
                try:
                    body = json.loads(raw or b"{}")
                except ValueError:
                    body = {}
                server.requests.append({"path": self.path, "headers": dict(self.headers.items()), "body": body})
                if self.path.rstrip("/") != "/v1/chat/completions":
                    self._send_json(404, {"error": {"message": "not found", "type": "invalid_request_error"}})
                    return
                if server.status != 200:
                    self._send_json(server.status, {"error": {"message": "scripted failure", "type": "server_error"}})
                    return
                model = str(body.get("model") or "fake-1")
                text = server.reply_for(body)
                if not body.get("stream"):
                    self._send_json(200, completion_body(text, model))
                    return
                self.send_response(200)
                self.send_header("content-type", "text/event-stream")
                self.send_header("cache-control", "no-cache")
                self.send_header("transfer-encoding", "chunked")
                self.end_headers()
                for ev in stream_events(text, model):
                    self.wfile.write(f"{len(ev):x}\r\n".encode() + ev + b"\r\n")
                    self.wfile.flush()
                self.wfile.write(b"0\r\n\r\n")
                self.wfile.flush()

        return Handler
