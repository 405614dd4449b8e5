"""Issue 16: the proxy's per-request work -- no cookie jar shared between clients, the strict-JSON check's
fast path, the event loop and HTTP parser it reports."""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import httpx
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from integ_support import CHAT, GOOD, URL, client_for, make_guard

from faithguard.integrations._proxy_io import MAX_JSON_DEPTH, UPSTREAM_SHARDS, Problem, parse_json
from faithguard.integrations.fake_upstream import completion_body


class CookieUpstream:
    """A chat-completions server on 127.0.0.1 that sets a cookie on every answer and records Cookie headers."""

    def __init__(self) -> None:
        self.cookies: list[str | None] = []
        seen = self.cookies

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:
                pass

            def do_POST(self) -> None:
                self.rfile.read(int(self.headers.get("content-length") or 0))
                seen.append(self.headers.get("cookie"))
                data = json.dumps(completion_body(GOOD, "m")).encode()
                self.send_response(200)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(data)))
                self.send_header("set-cookie", f"session=client-{len(seen)}; Path=/")
                self.end_headers()
                self.wfile.write(data)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/v1"


@pytest.fixture
def cookie_upstream() -> Iterator[CookieUpstream]:
    up = CookieUpstream()
    up.thread.start()
    yield up
    up.server.shutdown()
    up.server.server_close()


def test_a_cookie_set_for_one_client_never_reaches_the_upstream_with_another(cookie_upstream: CookieUpstream) -> None:
    async def run() -> list[httpx.Response]:
        guard = make_guard()
        try:
            async with client_for(guard, cookie_upstream.url, scoring="inline") as proxy:
                resps = []
                # enough requests for every one of the proxy's upstream clients to be used after the first
                for _ in range(UPSTREAM_SHARDS + 1):
                    resps.append(await proxy.post(URL, json=CHAT))
                    proxy.cookies.clear()  # the next request is another client's: it sends no cookie
                resps.append(await proxy.post(URL, json=CHAT, headers={"cookie": "mine=1"}))
                return resps
        finally:
            guard.close()

    resps = asyncio.run(run())
    assert [r.status_code for r in resps] == [200] * (UPSTREAM_SHARDS + 2)
    assert resps[0].headers["set-cookie"].startswith("session=client-1")  # passed to the client it was for
    # the upstream saw no cookie but the one the third client sent itself
    assert cookie_upstream.cookies == [None] * (UPSTREAM_SHARDS + 1) + ["mine=1"]


@pytest.mark.parametrize(
    "body",
    [
        b'{"a": "\\ud800"}',  # an unpaired surrogate, escaped
        b'{"a": ["\\uDFFF"]}',
        b'{"a": "\xed\xa0\x80"}',  # a surrogate's UTF-8 bytes, unescaped (json.loads's surrogatepass took them)
        b"[" * (MAX_JSON_DEPTH + 1) + b"]" * (MAX_JSON_DEPTH + 1),
        b'{"a": ' * (MAX_JSON_DEPTH + 1) + b"1" + b"}" * (MAX_JSON_DEPTH + 1),
    ],
)
def test_bodies_the_fast_path_must_not_wave_through_are_still_rejected(body: bytes) -> None:
    with pytest.raises(Problem) as caught:
        parse_json(body)
    assert caught.value.status == 400


@pytest.mark.parametrize(
    "body",
    [
        b'{"a": "\\ud83d\\ude00", "b": "\\u00e9"}',  # a valid pair and an ordinary escape
        b"[" * MAX_JSON_DEPTH + b"]" * MAX_JSON_DEPTH,  # exactly the limit
        b'{"a": "' + b"[" * 200 + b'"}',  # brackets in a string: walked, and fine
        json.dumps(CHAT).encode(),
    ],
)
def test_bodies_within_the_rules_are_read(body: bytes) -> None:
    assert parse_json(body) == json.loads(body)


def test_healthz_names_the_event_loop_and_the_http_parser() -> None:
    async def run() -> dict[str, Any]:
        guard = make_guard()
        try:
            async with client_for(guard, "http://127.0.0.1:9/v1") as proxy:
                return dict((await proxy.get("/healthz")).json()["server"])
        finally:
            guard.close()

    server = asyncio.run(run())
    assert (
        server["loop"]
        == f"{asyncio.new_event_loop().__class__.__module__}.{asyncio.new_event_loop().__class__.__qualname__}"
    )
    try:
        import httptools  # noqa: F401

        expected = "httptools"
    except ImportError:
        expected = "h11"
    assert server["http_auto"] == expected
    uvloop = pytest.importorskip("uvloop")
    with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
        assert runner.run(run())["loop"] == "uvloop.Loop"


def test_middleware_added_to_the_app_sees_chat_requests(
    cookie_upstream: CookieUpstream,
) -> None:
    from starlette.middleware.base import BaseHTTPMiddleware
    from starlette.requests import Request
    from starlette.responses import Response

    from faithguard.integrations.proxy import create_app

    seen: list[str] = []

    async def mark(request: Request, call_next: Any) -> Response:
        seen.append(request.url.path)
        response: Response = await call_next(request)
        response.headers["x-mine"] = "1"
        return response

    async def run(with_middleware: bool) -> httpx.Response:
        guard = make_guard()
        app = create_app(guard, cookie_upstream.url, scoring="inline", warmup=False)
        if with_middleware:
            app.add_middleware(BaseHTTPMiddleware, dispatch=mark)
        try:
            async with (
                app.router.lifespan_context(app),
                httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://proxy") as client,
            ):
                return await client.post(URL, json=CHAT)
        finally:
            guard.close()

    plain, marked = asyncio.run(run(False)), asyncio.run(run(True))
    assert plain.status_code == marked.status_code == 200
    assert "x-mine" not in plain.headers and marked.headers["x-mine"] == "1"
    assert seen == [URL]


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=3),
    max_leaves=12,
)
_KEYS = st.sampled_from(["choices", "delta", "content", "tool_calls", "function_call", "text", "role"])
#: Stream chunks near the shapes the fast path reads, and anything else JSON can be.
_CHUNKS = st.recursive(
    _JSON,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_KEYS, inner, max_size=4),
    max_leaves=16,
)


@settings(max_examples=400, deadline=None)
@given(chunk=_CHUNKS)
@example(chunk={"choices": [{"delta": {"content": "a", "tool_calls": [1]}, "finish_reason": None}]})
@example(chunk={"choices": [{"delta": {"content": 5, "function_call": {"name": "f"}}}]})
@example(chunk={"choices": [{"delta": {"tool_calls": {}}}]})
@example(chunk={"choices": [{"delta": None, "text": "t"}]})
@example(chunk={"choices": ["x"], "content": "c"})
@example(chunk={"choices": [], "content": "c"})
def test_the_stream_reading_fast_path_reads_every_chunk_as_the_generic_reading(chunk: Any) -> None:
    from faithguard import calls
    from faithguard.integrations._proxy_io import _delta_of

    assert _delta_of(chunk) == (calls.chunk_text(chunk), calls.chunk_has_tool_call(chunk))
