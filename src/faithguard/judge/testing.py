"""Test helpers shipped with faithguard: a real scripted chat-completions server and a fake transport.

``ScriptedChatServer`` is a stdlib HTTP server on 127.0.0.1 (ephemeral port, own
thread) speaking the OpenAI chat-completions wire format with scripted replies,
so tests exercise the real client without mocks. ``ScriptedTransport`` is the
in-process equivalent for tests that do not care about HTTP.
"""

from __future__ import annotations

import json
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from faithguard.judge.client import ChatResult

__all__ = [
    "Reply",
    "ScriptedChatServer",
    "ScriptedTransport",
    "completion_body",
    "default_reply_for",
]


@dataclass
class Reply:
    """One scripted HTTP reply. ``content`` (str or JSON-able) becomes the assistant message."""

    content: Any = None
    status: int = 200
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0
    raw_body: str | None = None
    usage: tuple[int, int] = (11, 7)
    #: seconds between the body's bytes (a server that answers a byte at a time); 0: the body at once
    drip: float = 0.0


def completion_body(
    content: str, *, model: str = "scripted", usage: tuple[int, int] = (11, 7), n: int = 0
) -> dict[str, Any]:
    """An OpenAI-shaped chat-completions response body."""
    return {
        "id": f"chatcmpl-scripted-{n}",
        "object": "chat.completion",
        "created": 0,
        "model": model,
        "choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": usage[0], "completion_tokens": usage[1], "total_tokens": usage[0] + usage[1]},
    }


def _ids_in(text: str) -> list[str]:
    import re

    return re.findall(r"^- (c\d+) \[", text, flags=re.MULTILINE)


def default_reply_for(body: Mapping[str, Any]) -> str:
    """A valid, neutral answer for any faithguard judge request (used by benchmarks and demos)."""
    name = body.get("response_format", {}).get("json_schema", {}).get("name", "")
    user = next((m["content"] for m in reversed(body.get("messages", [])) if m.get("role") == "user"), "")
    if name == "faithguard_satisfaction":
        results = [{"id": cid, "satisfied": True, "reason": "addressed"} for cid in _ids_in(user)]
        return json.dumps({"results": results, "injection_suspected": False})
    if name == "faithguard_terms":
        return json.dumps({"terms": [], "injection_suspected": False})
    return json.dumps(
        {
            "missing_content": [],
            "roles": {"subject": "topic", "action": "explain", "context": ""},
            "task": "explain",
            "subquestions": [{"text": "the request"}],
            "constraints": [
                {"text": "explain the topic", "category": "action", "negated": False, "subquestion": 0},
                {"text": "the topic", "category": "subject", "negated": False, "subquestion": 0},
            ],
            "injection_suspected": False,
        }
    )


class _Handler(BaseHTTPRequestHandler):
    server: _Server

    def log_message(self, format: str, *args: Any) -> None:
        return

    def do_POST(self) -> None:
        try:
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length)
            try:
                body = json.loads(raw or b"{}")
            except ValueError:
                body = {}
            owner = self.server.owner
            reply = owner._record_and_next(self.path, dict(self.headers.items()), body)
            if reply.delay:
                time.sleep(reply.delay)
            if reply.raw_body is not None:
                payload = reply.raw_body.encode()
            else:
                content = reply.content if isinstance(reply.content, str) else json.dumps(reply.content)
                payload = json.dumps(completion_body(content, usage=reply.usage, n=len(owner.requests))).encode()
            self.send_response(reply.status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(payload)))
            for k, v in reply.headers.items():
                self.send_header(k, v)
            self.end_headers()
            if reply.drip:
                for i in range(len(payload)):
                    self.wfile.write(payload[i : i + 1])
                    self.wfile.flush()
                    time.sleep(reply.drip)
            else:
                self.wfile.write(payload)
        except OSError:
            return  # the client gave up (timeout tests)


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False
    owner: ScriptedChatServer

    def handle_error(self, request: Any, client_address: Any) -> None:
        return


class ScriptedChatServer:
    """A real local chat-completions server replying from a script (then from ``default``).

    Use as a context manager; ``base_url`` ends in ``/v1``. ``requests`` records
    (path, headers, json body) of every request.
    """

    def __init__(
        self,
        replies: Iterable[Reply | Any] = (),
        *,
        default: Callable[[Mapping[str, Any]], Reply | Any] | None = None,
    ) -> None:
        self._script: deque[Reply] = deque(self._as_reply(r) for r in replies)
        self._default = default
        self._lock = threading.Lock()
        self.requests: list[tuple[str, dict[str, str], dict[str, Any]]] = []
        self._server: _Server | None = None
        self._thread: threading.Thread | None = None

    @staticmethod
    def _as_reply(item: Reply | Any) -> Reply:
        return item if isinstance(item, Reply) else Reply(content=item)

    def push(self, *replies: Reply | Any) -> None:
        """Append replies to the script."""
        with self._lock:
            self._script.extend(self._as_reply(r) for r in replies)

    def _record_and_next(self, path: str, headers: dict[str, str], body: dict[str, Any]) -> Reply:
        with self._lock:
            self.requests.append((path, headers, body))
            if self._script:
                return self._script.popleft()
        if self._default is not None:
            return self._as_reply(self._default(body))
        return Reply(status=500, raw_body='{"error": {"message": "script exhausted"}}')

    def start(self) -> ScriptedChatServer:
        """Bind 127.0.0.1 on a free port and serve in a daemon thread."""
        self._server = _Server(("127.0.0.1", 0), _Handler)
        self._server.owner = self
        self._thread = threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop serving and close the socket."""
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None

    @property
    def port(self) -> int:
        """The bound port."""
        if self._server is None:
            raise RuntimeError("server not started")
        return int(self._server.server_address[1])

    @property
    def base_url(self) -> str:
        """``http://127.0.0.1:<port>/v1``."""
        return f"http://127.0.0.1:{self.port}/v1"

    def __enter__(self) -> ScriptedChatServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


class ScriptedTransport:
    """An in-process :class:`ChatTransport` returning scripted contents; records every call."""

    def __init__(
        self,
        replies: Sequence[str | Mapping[str, Any] | Exception] = (),
        *,
        model: str = "scripted",
        default: Callable[[Mapping[str, Any]], str] | None = None,
    ) -> None:
        self.model = model
        self._script: deque[str | Mapping[str, Any] | Exception] = deque(replies)
        self._default = default
        self._lock = threading.Lock()
        self.calls: list[tuple[list[dict[str, str]], str, dict[str, Any]]] = []

    def _next(self, messages: Sequence[Mapping[str, str]], name: str, schema: Mapping[str, Any]) -> ChatResult:
        msgs = [dict(m) for m in messages]
        with self._lock:
            self.calls.append((msgs, name, dict(schema)))
            item = self._script.popleft() if self._script else None
        if item is None:
            if self._default is None:
                raise RuntimeError("ScriptedTransport: script exhausted")
            body = {"messages": msgs, "response_format": {"json_schema": {"name": name}}}
            item = self._default(body)
        if isinstance(item, Exception):
            raise item
        content = item if isinstance(item, str) else json.dumps(item)
        return ChatResult(content=content, response_id=f"scripted-{len(self.calls)}", model=self.model)

    def chat(
        self, messages: Sequence[Mapping[str, str]], schema_name: str, schema: Mapping[str, Any], *, temperature: float
    ) -> ChatResult:
        """Return the next scripted reply."""
        return self._next(messages, schema_name, schema)

    async def achat(
        self, messages: Sequence[Mapping[str, str]], schema_name: str, schema: Mapping[str, Any], *, temperature: float
    ) -> ChatResult:
        """Async twin of :meth:`chat`."""
        return self._next(messages, schema_name, schema)
