"""Issue 16: the proxy's own upstream client (``_upstream.FastUpstream``) -- connections kept and reused,
the answer shapes HTTP/1.1 allows, what it refuses, and when the proxy stays on httpx instead."""

from __future__ import annotations

import asyncio
import gc
import json
import socket
import zlib
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest
from fault_server import LocalServer, read_request
from integ_support import CHAT, GOOD, URL, client_for, make_guard

from faithguard.integrations._upstream import KEEPALIVE_SECONDS, FastUpstream, basic_auth, fast_path
from faithguard.integrations.fake_upstream import completion_body

Answer = Callable[[int], bytes]  # the n-th request's raw answer (head and body)


def _json_answer(body: bytes, extra: str = "") -> bytes:
    head = f"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {len(body)}\r\n{extra}\r\n"
    return head.encode() + body


GOOD_BODY = json.dumps(completion_body(GOOD, "m")).encode()


class KeepAliveUpstream(LocalServer):
    """A raw HTTP/1.1 server on 127.0.0.1 that keeps each connection open and counts the connections it accepts.

    ``answer(n)`` gives the n-th request's raw answer; with ``close`` the connection is closed after each."""

    def __init__(self, answer: Answer, *, close: bool = False) -> None:
        super().__init__()
        self.answer, self.close = answer, close
        self.heads: list[bytes] = []

    def _handle(self, conn: socket.socket) -> None:
        with conn:
            try:
                while head := read_request(conn):
                    self.heads.append(head)
                    conn.sendall(self.answer(len(self.heads) - 1))
                    if self.close:
                        return
            except OSError:
                return


@pytest.fixture
def guard() -> Iterator[Any]:
    g = make_guard()
    yield g
    g.close()


def chats(guard: Any, upstream: str, n: int, **kwargs: Any) -> list[httpx.Response]:
    async def go() -> list[httpx.Response]:
        async with client_for(guard, upstream, **kwargs) as client:
            return [await client.post(URL, json=CHAT) for _ in range(n)]

    return asyncio.run(go())


def test_one_connection_serves_requests_one_after_another(guard: Any) -> None:
    with KeepAliveUpstream(lambda n: _json_answer(GOOD_BODY)) as upstream:
        resps = chats(guard, upstream.url, 5)
    assert [r.status_code for r in resps] == [200] * 5
    assert all(r.json()["choices"][0]["message"]["content"] == GOOD for r in resps)
    assert upstream.connections == 1  # kept alive and reused, not one per request


def test_a_connection_the_upstream_closes_is_not_reused(guard: Any) -> None:
    with KeepAliveUpstream(lambda n: _json_answer(GOOD_BODY, "connection: close\r\n"), close=True) as upstream:
        resps = chats(guard, upstream.url, 3)
    assert [r.status_code for r in resps] == [200] * 3
    assert upstream.connections == 3


def test_an_answer_ended_by_closing_the_connection_is_read_whole(guard: Any) -> None:
    answer = b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\nconnection: close\r\n\r\n" + GOOD_BODY
    with KeepAliveUpstream(lambda n: answer, close=True) as upstream:
        [resp] = chats(guard, upstream.url, 1)
    assert resp.status_code == 200
    assert resp.json()["choices"][0]["message"]["content"] == GOOD


def test_an_interim_answer_is_skipped(guard: Any) -> None:
    interim = b"HTTP/1.1 103 Early Hints\r\nlink: </x>; rel=preload\r\n\r\n"
    with KeepAliveUpstream(lambda n: interim + _json_answer(GOOD_BODY)) as upstream:
        [resp] = chats(guard, upstream.url, 1)
    assert resp.status_code == 200
    assert "link" not in resp.headers


@pytest.mark.parametrize("wbits", [zlib.MAX_WBITS, -zlib.MAX_WBITS], ids=["zlib-wrapped", "raw"])
def test_deflate_answers_are_decoded(guard: Any, wbits: int) -> None:
    packer = zlib.compressobj(wbits=wbits)
    body = packer.compress(GOOD_BODY) + packer.flush()
    with KeepAliveUpstream(lambda n: _json_answer(body, "content-encoding: deflate\r\n")) as upstream:
        [resp] = chats(guard, upstream.url, 1)
    assert resp.status_code == 200
    assert resp.json()["choices"][0]["message"]["content"] == GOOD
    assert b"accept-encoding: gzip, deflate" in upstream.heads[0].lower()


@pytest.mark.parametrize(
    "answer",
    [
        _json_answer(GOOD_BODY, "content-encoding: br\r\n"),  # an encoding it did not ask for
        b"HTTP/1.1 2x0 OK\r\ncontent-length: 2\r\n\r\n{}",  # not HTTP
        b"HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\nzz\r\n",  # a chunk size that is not hex
    ],
    ids=["unasked-encoding", "bad-status-line", "bad-chunk"],
)
def test_answers_it_cannot_read_give_502(guard: Any, answer: bytes) -> None:
    with KeepAliveUpstream(lambda n: answer, close=True) as upstream:
        [resp] = chats(guard, upstream.url, 1)
    assert resp.status_code == 502
    assert resp.json()["error"]["type"] == "upstream_error"


def test_a_streamed_answer_passes_through_on_a_reused_connection(guard: Any) -> None:
    events = [b'data: {"choices": [{"delta": {"content": "Visit the Louvre"}}]}\n\n', b"data: [DONE]\n\n"]
    chunked = b"".join(f"{len(e):x}\r\n".encode() + e + b"\r\n" for e in events) + b"0\r\n\r\n"
    answer = b"HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ntransfer-encoding: chunked\r\n\r\n" + chunked

    async def go() -> list[list[str]]:
        out = []
        async with client_for(guard, upstream.url) as client:
            for _ in range(2):
                async with client.stream("POST", URL, json={**CHAT, "stream": True}) as resp:
                    out.append([line async for line in resp.aiter_lines() if line])
        return out

    with KeepAliveUpstream(lambda n: answer) as upstream:
        streams = asyncio.run(go())
    assert streams == [[e.decode().strip() for e in events]] * 2
    assert upstream.connections == 1


def test_request_headers_it_writes() -> None:
    up = FastUpstream("https://api.example.com/v1", timeout=5, connect_timeout=5, auth=basic_auth("u", "p"))
    head = up.head("POST", "/v1/chat/completions", {"authorization": "Bearer client", "x-a": "1"}, 12)
    lines = head.decode().split("\r\n")
    assert lines[0] == "POST /v1/chat/completions HTTP/1.1"
    assert "Host: api.example.com" in lines  # the default port is not written
    assert "Authorization: Basic dTpw" in lines and "authorization: Bearer client" not in lines  # URL credentials win
    assert "x-a: 1" in lines and "Content-Length: 12" in lines
    with pytest.raises(httpx.LocalProtocolError):
        up.head("POST", "/v1/chat/completions", {"x-a": "1\r\nx-injected: 2"}, 0)


def test_environment_proxies_keep_the_upstream_on_httpx(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in (
        "http_proxy",
        "https_proxy",
        "all_proxy",
        "no_proxy",
        "HTTP_PROXY",
        "HTTPS_PROXY",
        "ALL_PROXY",
        "NO_PROXY",
    ):
        monkeypatch.delenv(name, raising=False)
    assert fast_path("http://10.0.0.5:8000/v1")
    assert not fast_path("ftp://10.0.0.5/v1")
    monkeypatch.setenv("HTTP_PROXY", "http://proxy.internal:3128")
    assert not fast_path("http://10.0.0.5:8000/v1")
    assert fast_path("https://10.0.0.5:8000/v1")  # the proxy named is for http only
    monkeypatch.setenv("NO_PROXY", "10.0.0.5")
    assert fast_path("http://10.0.0.5:8000/v1")


def test_a_callers_client_is_used_as_given(guard: Any) -> None:
    from faithguard.integrations.proxy import create_app

    with KeepAliveUpstream(lambda n: _json_answer(GOOD_BODY)) as upstream:
        mine = httpx.AsyncClient()
        assert create_app(guard, upstream.url, http_client=mine, warmup=False).state.proxy.fast is None
        assert create_app(guard, upstream.url, warmup=False).state.proxy.fast is not None
        asyncio.run(mine.aclose())


def test_connections_past_their_keep_alive_or_dropped_unread_are_given_back() -> None:
    with KeepAliveUpstream(lambda n: _json_answer(GOOD_BODY)) as upstream:

        async def go() -> tuple[int, int, int]:
            up = FastUpstream(upstream.url, timeout=5, connect_timeout=5, connections=1)
            resp = await up.send("POST", "/v1/chat/completions", {}, b"{}")
            await resp.aread()
            await resp.aclose()
            up._idle[0].idle_since -= KEEPALIVE_SECONDS + 1  # idle for longer than it may be kept: a new one
            resp = await up.send("POST", "/v1/chat/completions", {}, b"{}", stream=True)
            await asyncio.sleep(0.05)  # its answer arrives
            del resp  # a stream dropped without being closed
            gc.collect()
            await asyncio.sleep(0.05)  # the finalizer gives its connection back on the loop
            idle = len(up._idle)
            async with asyncio.timeout(5):  # the one slot is free again (else this would wait for ever)
                resp = await up.send("POST", "/v1/chat/completions", {}, b"{}")
                await resp.aread()
                await resp.aclose()
            await up.aclose()
            return upstream.connections, idle, resp.status_code

        connections, idle, status = asyncio.run(go())
    assert (connections, idle, status) == (2, 1, 200)


def test_without_httptools_the_upstream_stays_on_httpx(monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "httptools" else real(name, *a))
    assert not fast_path("http://127.0.0.1:8000/v1")


def test_after_aclose_the_client_serves_on_another_event_loop() -> None:
    with KeepAliveUpstream(lambda n: _json_answer(GOOD_BODY)) as upstream:
        up = FastUpstream(upstream.url, timeout=5, connect_timeout=5, connections=1)

        async def request() -> int:
            resp = await up.send("POST", "/v1/chat/completions", {}, b"{}")
            await resp.aread()
            await resp.aclose()
            return resp.status_code

        async def two() -> list[int]:
            async with asyncio.timeout(5):  # the second waits for the one slot the first gives back
                statuses = list(await asyncio.gather(request(), request()))
            await up.aclose()
            return statuses

        statuses = [asyncio.run(two()), asyncio.run(two())]
    assert statuses == [[200, 200], [200, 200]]


def test_an_answer_refused_at_its_head_gives_back_its_slot() -> None:
    answers = [_json_answer(GOOD_BODY, "content-encoding: br\r\n"), _json_answer(GOOD_BODY)]
    with KeepAliveUpstream(lambda n: answers[min(n, 1)]) as upstream:
        up = FastUpstream(upstream.url, timeout=5, connect_timeout=5, connections=1)

        async def go() -> int:
            with pytest.raises(httpx.DecodingError):
                await up.send("POST", "/v1/chat/completions", {}, b"{}")
            async with asyncio.timeout(5):  # the one slot is free again (else this would wait for ever)
                resp = await up.send("POST", "/v1/chat/completions", {}, b"{}")
                await resp.aread()
                await resp.aclose()
            await up.aclose()
            return resp.status_code

        assert asyncio.run(go()) == 200


def test_https_upstreams_are_verified_with_httpxs_trust_store(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    import shutil
    import ssl
    import subprocess

    if shutil.which("openssl") is None:
        pytest.skip("needs the openssl command to make a self-signed certificate")
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subject = ["-days", "1", "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost"]
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(key), "-out", str(cert), *subject],
        check=True,
        capture_output=True,
    )
    monkeypatch.delenv("SSL_CERT_FILE", raising=False)
    monkeypatch.delenv("SSL_CERT_DIR", raising=False)

    async def go() -> list[str]:
        server_ctx = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        server_ctx.load_cert_chain(str(cert), str(key))

        async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            try:
                await reader.readuntil(b"\r\n\r\n")
                await reader.readexactly(2)
                writer.write(_json_answer(GOOD_BODY))
                await writer.drain()
            except (asyncio.IncompleteReadError, ConnectionError, ssl.SSLError):
                pass
            finally:
                writer.close()

        server = await asyncio.start_server(handle, "127.0.0.1", 0, ssl=server_ctx)
        url = f"https://localhost:{server.sockets[0].getsockname()[1]}/v1"
        outcomes = []
        for trusted in (False, True):
            if trusted:
                monkeypatch.setenv("SSL_CERT_FILE", str(cert))
            up = FastUpstream(url, timeout=5, connect_timeout=5)
            try:
                resp = await up.send("POST", "/v1/chat/completions", {}, b"{}")
                outcomes.append(json.loads(await resp.aread())["choices"][0]["message"]["content"])
                await resp.aclose()
            except httpx.ConnectError:
                outcomes.append("refused")
            await up.aclose()
        server.close()
        return outcomes

    assert asyncio.run(go()) == ["refused", GOOD]  # an unknown certificate is refused; a trusted one is read


def _one(upstream: KeepAliveUpstream, *, stream: bool = False, read: bool = True) -> tuple[int, dict[str, str], bytes]:
    async def go() -> tuple[int, dict[str, str], bytes]:
        up = FastUpstream(upstream.url, timeout=5, connect_timeout=5, connections=1)
        try:
            resp = await up.send("POST", "/v1/chat/completions", {}, b"{}", stream=stream)
            body = await resp.aread() if read else b""
            await resp.aclose()
            return resp.status_code, dict(resp.headers), body
        finally:
            await up.aclose()

    return asyncio.run(go())


def test_bytes_after_an_answer_are_never_part_of_it() -> None:
    second = b"HTTP/1.1 500 Oops\r\ncontent-length: 3\r\nx-a: second\r\n\r\nBAD"
    with KeepAliveUpstream(lambda n: _json_answer(GOOD_BODY, "x-a: first\r\n") + second) as upstream:
        status, headers, body = _one(upstream)
    assert (status, headers["x-a"], body) == (200, "first", GOOD_BODY)


def test_a_chunked_answers_trailers_are_not_its_headers() -> None:
    chunked = f"{len(GOOD_BODY):x}\r\n".encode() + GOOD_BODY + b"\r\n0\r\ncontent-type: text/evil\r\nx-t: 1\r\n\r\n"
    head = b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n"
    with KeepAliveUpstream(lambda n: head + chunked) as upstream:
        status, headers, body = _one(upstream)
    assert (status, headers["content-type"], "x-t" in headers, body) == (200, "application/json", False, GOOD_BODY)


def test_a_connection_closed_unread_with_reading_paused_serves_the_next_request() -> None:
    big = _json_answer(b"x" * 400_000)
    with KeepAliveUpstream(lambda n: big) as upstream:

        async def go() -> list[int]:
            up = FastUpstream(upstream.url, timeout=5, connect_timeout=5, connections=1)
            resp = await up.send("POST", "/v1/chat/completions", {}, b"{}", stream=True)
            await asyncio.sleep(0.2)  # the whole answer arrives and fills the buffer: reading pauses
            await resp.aclose()  # closed unread: the connection goes back to the pool
            statuses = [resp.status_code]
            async with asyncio.timeout(5):
                again = await up.send("POST", "/v1/chat/completions", {}, b"{}")
                assert len(await again.aread()) == 400_000
                await again.aclose()
            statuses.append(again.status_code)
            await up.aclose()
            return statuses

        assert asyncio.run(go()) == [200, 200]


def test_a_switching_protocols_answer_gives_502(guard: Any) -> None:
    upgrade = b"HTTP/1.1 101 Switching Protocols\r\nupgrade: websocket\r\nconnection: upgrade\r\n\r\n"
    with KeepAliveUpstream(lambda n: upgrade, close=True) as upstream:
        [resp] = chats(guard, upstream.url, 1)
    assert resp.status_code == 502
