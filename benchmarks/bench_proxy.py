"""Loopback load test of the guarding proxy: added latency over the direct upstream at 1, 8 and 32 clients.

Traffic is real and varied (``benchmarks/traffic.py``): the distinct queries of the four dev sets
(IFEval, IFBench, InFoBench with its task input sent as a ``faithguard.documents`` document, LLMBar;
both split parts, timed only -- no label is read), each answered with the answer recorded for it by
a scripted OpenAI-compatible upstream, so answers have their real lengths. The proxy (uvicorn,
offline ``Guard(judge=None)``, the chosen policy and scoring mode) runs in one child process, the
upstream in another (``--upstream``: one asyncio loop by default, or the library's threaded fake);
this process generates the load, one connection per simulated client. For each concurrency it sends
the same request list directly and through the proxy and prints p50/p99, the difference (added
latency), errors, the CPU per request of the proxy and of its scoring process, the scoring queue's
counts and the proxy's RSS. ``--scoring off`` (bench only) forwards without scoring, to see the
forwarding cost alone; ``--profile FILE`` writes a CPU-time cProfile of the proxy's event-loop
thread (cProfile charges its own cost to every Python call, inflating pure-Python code), ``--sample FILE``
a sampling profile of it instead (``ITIMER_PROF`` every 1 ms of the proxy process's CPU records that
thread's Python stack: shares by innermost function and inclusive); ``--upstream-delay-ms`` makes
each answer wait as a model's generation would. The first pass over the queries meets empty caches
("new"); later passes are cached -- both are printed. CPU is
not pinned: the machine's cores are shared with the load generator (and whatever else runs: the
load average is printed), so added latency includes contention. Bounded: it stops by itself.

    PYTHONPATH=src python benchmarks/bench_proxy.py [--data ../shared/data] [--requests 10000]
        [--concurrency 1,8,32] [--policy observe] [--scoring auto|inline|background|process|off]
        [--upstream async|threaded] [--upstream-delay-ms 0] [--profile FILE] [--sample FILE]
        [--loop auto|asyncio|uvloop] [--http auto|h11|httptools] [--client raw|httpx]

``--client`` is the load generator's: ``raw`` (default; a minimal keep-alive client on asyncio streams, the
requests encoded before timing) or ``httpx`` (an ``AsyncClient`` per simulated client, as before; it costs
the load generator several times the CPU per request, CPU the proxied path then competes with on a small
machine, so its added latency mixes in the load generator's own cost).
``--loop`` / ``--http`` choose uvicorn's event loop and HTTP parser (default auto: uvloop and httptools
when installed, as ``faithguard serve`` does), to compare the stacks in one checkout; the loop in use is
printed from the proxy's ``/healthz``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import cProfile
import functools
import json
import multiprocessing
import os
import sys
import threading
import time
from inspect import signature
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _machine import load_line, machine, pct
from traffic import Call, default_data, distinct_queries, load_traffic


def rss_mb(pid: int) -> float:
    """Resident set size of a process in MiB (Linux /proc)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def process_cpu(pid: int) -> float:
    """CPU seconds (user + system) a process has used, from /proc."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def children(pid: int) -> list[int]:
    """The live child processes of ``pid`` (the proxy's scoring process), from /proc."""
    kids: list[int] = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        with contextlib.suppress(OSError, ValueError):
            kids += [int(k) for k in (task / "children").read_text().split()]
    return kids


def children_cpu(pid: int) -> float:
    """CPU seconds the live child processes of ``pid`` have used."""
    total = 0.0
    for kid in children(pid):
        with contextlib.suppress(OSError, IndexError, ValueError):  # a child that just ended
            total += process_cpu(kid)
    return total


def children_rss(pid: int) -> float:
    """Resident set size of the live child processes of ``pid``, MiB (0 without any)."""
    total = 0.0
    for kid in children(pid):
        with contextlib.suppress(OSError, ValueError):
            total += rss_mb(kid)
    return total


def traffic(data: Path) -> list[Call]:
    """One call per distinct query of the dev sets (both split parts), in the interleaved order."""
    calls, _ = load_traffic(data)
    return distinct_queries(calls)


def request_body(call: Call) -> dict[str, Any]:
    """The chat request for one call; a dev set's task input goes as a faithguard document."""
    body: dict[str, Any] = {"model": "bench", "messages": [{"role": "user", "content": call.query}]}
    if call.documents:
        body["faithguard"] = {"documents": list(call.documents)}
    return body


def serve_upstream(conn: Connection, pairs: list[tuple[str, str]], kind: str, delay: float) -> None:
    """Child process: the scripted upstream (its own process, so it never competes with the proxy's GIL).

    ``threaded`` is the library's ``FakeOpenAIServer`` (a thread per connection: at 32 connections its
    threads queue on its GIL and its own p99 reaches hundreds of ms); ``async`` answers on one asyncio
    loop, like the event-driven servers LLM APIs run on, so its latency stays flat with the client count.
    ``delay`` (async only): seconds each answer waits before it is sent, as a model's generation time
    would (0: answers at once).
    """
    answers = dict(pairs)

    def reply(body: dict[str, Any]) -> str:
        return answers.get(str(body["messages"][-1]["content"]), "I do not know.")

    if kind == "async":
        asyncio.run(_async_upstream(conn, reply, delay))
        return
    from faithguard.integrations.fake_upstream import FakeOpenAIServer

    with FakeOpenAIServer(reply) as upstream:
        conn.send(upstream.url)
        conn.recv()  # stop


async def _async_upstream(conn: Connection, reply: Any, delay: float) -> None:
    """A minimal HTTP/1.1 keep-alive chat-completions server on one event loop (bench traffic only)."""
    from faithguard.integrations.fake_upstream import completion_body

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                length = 0
                for line in head.split(b"\r\n")[1:]:
                    name, _, value = line.partition(b":")
                    if name.strip().lower() == b"content-length":
                        length = int(value)
                body = json.loads(await reader.readexactly(length)) if length else {}
                data = json.dumps(completion_body(reply(body), str(body.get("model") or "fake-1"))).encode()
                if delay:
                    await asyncio.sleep(delay)
                writer.write(
                    b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n"
                    + f"content-length: {len(data)}\r\n\r\n".encode()
                    + data
                )
                await writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        finally:
            writer.close()

    server = await asyncio.start_server(handle, "127.0.0.1", 0, backlog=256)
    port = server.sockets[0].getsockname()[1]
    conn.send(f"http://127.0.0.1:{port}/v1")
    await asyncio.get_running_loop().run_in_executor(None, conn.recv)  # stop
    server.close()


def serve_proxy(
    conn: Connection,
    upstream: str,
    policy: str,
    scoring: str,
    profile: str | None,
    loop: str = "auto",
    http: str = "auto",
    sample: str | None = None,
) -> None:
    """Child process: the proxy on loopback until the parent says stop."""
    import uvicorn

    from faithguard import Guard
    from faithguard.integrations.plugin import SWITCH_INTERVAL, build_policy
    from faithguard.integrations.proxy import create_app

    sys.setswitchinterval(SWITCH_INTERVAL)  # as `faithguard serve` does
    guard = Guard(judge=None)
    off = scoring == "off"  # bench only: forwarding cost alone, every answer left unscored
    mode = "background" if off else scoring
    # the scoring process (auto under observe, or process) builds a guard like this one; a proxy
    # without scoring processes (an older checkout, to compare with) is run without the argument
    params = signature(create_app).parameters
    extra: dict[str, Any] = {"scorer": functools.partial(Guard, judge=None)} if "scorer" in params else {}
    if "freeze_gc" in params:  # as `faithguard serve` does: the loaded models out of the collector's reach
        extra["freeze_gc"] = True
    app = create_app(guard, upstream, policy=build_policy(policy), scoring=mode, **extra)
    if off:
        app.state.proxy.scoring.submit = lambda run, skip: (skip(), "dropped")[1]
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=0, log_level="error", loop=loop, http=http))
    prof = cProfile.Profile(time.thread_time) if profile else None  # CPU time: the machine is shared

    def run() -> None:  # the event loop's thread, profiled when asked (--profile)
        if prof is not None:
            prof.enable()
        server.run()
        if prof is not None:
            prof.disable()
            prof.dump_stats(str(profile))

    def announce() -> None:  # tell the parent where the proxy listens, then wait for its stop
        while not server.started:  # the app's startup warms the guard's models
            time.sleep(0.05)
        port = server.servers[0].sockets[0].getsockname()[1]
        conn.send(f"http://127.0.0.1:{port}")
        conn.recv()  # stop
        server.should_exit = True

    if sample:  # the loop on the main thread, where the sampler's signal handler interrupts it
        sampler = Sampler()
        waiter = threading.Thread(target=announce, daemon=True)
        waiter.start()
        run()
        sampler.stop(str(sample))
    else:
        thread = threading.Thread(target=run, daemon=True)
        thread.start()
        announce()
        thread.join(timeout=30)
    guard.close()


class Sampler:
    """The main thread's Python stack every 1 ms of the process's CPU (SIGPROF), as profile_check.py samples.

    A tick of another thread's CPU lands on whatever the main thread is doing: when it waits in its
    selector that is only the frames that started the loop, counted as idle.
    """

    def __init__(self) -> None:
        import signal

        self.stacks: list[list[str]] = []
        signal.signal(signal.SIGPROF, self.record)
        signal.setitimer(signal.ITIMER_PROF, 0.001, 0.001)

    def record(self, signum: int, frame: Any) -> None:
        stack: list[str] = []
        while frame is not None:
            where = frame.f_code.co_filename
            where = where.split("site-packages/", 1)[-1].split("/src/", 1)[-1].rsplit("/lib/python3", 1)[-1]
            stack.append(f"{where}:{frame.f_code.co_name}")
            frame = frame.f_back
        self.stacks.append(stack)

    def stop(self, path: str) -> None:
        """Stop sampling; write the shares of the busy samples by innermost function and inclusively."""
        import collections
        import signal

        signal.setitimer(signal.ITIMER_PROF, 0, 0)
        idle = ("runners.py:run", "base_events.py:run_forever", "server.py:run", "bench_proxy.py:run")
        busy = [s for s in self.stacks if s and not s[0].endswith(idle)]
        own = collections.Counter(s[0] for s in busy)
        incl = collections.Counter(f for s in busy for f in set(s))
        lines = [f"samples {len(self.stacks)}, loop busy in {len(busy)} (1 ms of process CPU each)"]
        for title, counts in (("self (innermost Python frame)", own), ("inclusive", incl)):
            lines.append(f"-- {title}: % of busy samples")
            lines += [f"{n / max(1, len(busy)) * 100:6.1f}  {name}" for name, n in counts.most_common(45)]
        Path(path).write_text("\n".join(lines) + "\n")


def encode_requests(url: str, bodies: list[dict[str, Any]]) -> list[bytes]:
    """Each body as the raw HTTP/1.1 request the raw load client writes (encoded before the clock starts)."""
    parts = httpx.URL(url)
    out = []
    for body in bodies:
        data = json.dumps(body).encode()
        head = (
            f"POST {parts.raw_path.decode()} HTTP/1.1\r\nhost: {parts.netloc.decode()}\r\n"
            f"content-type: application/json\r\ncontent-length: {len(data)}\r\n\r\n"
        )
        out.append(head.encode() + data)
    return out


async def load_raw(url: str, requests: list[bytes], concurrency: int) -> tuple[list[float], int]:
    """Like :func:`load` with a minimal keep-alive client on asyncio streams (content-length answers only).

    The load generator shares the machine's cores with the proxy and the upstream; httpx's client costs it
    several times the CPU per request of this one, CPU the proxied path then waits for (``--client``)."""
    latencies: list[float] = []
    errors = 0
    reasons: dict[str, int] = {}
    work = iter(requests)
    parts = httpx.URL(url)

    async def worker() -> None:
        nonlocal errors
        reader, writer = await asyncio.open_connection(parts.host, parts.port)
        try:
            for raw in work:
                t0 = time.perf_counter()
                reason = ""
                try:
                    writer.write(raw)
                    head = await reader.readuntil(b"\r\n\r\n")
                    lines = head.split(b"\r\n")
                    status = int(lines[0].split(b" ", 2)[1])
                    length = next(
                        int(v) for k, _, v in (h.partition(b":") for h in lines[1:]) if k.lower() == b"content-length"
                    )
                    data = await reader.readexactly(length)
                    if status != 200:
                        reason = f"status {status}"
                    elif not json.loads(data)["choices"][0]["message"]["content"]:
                        reason = "empty answer"
                except (OSError, asyncio.IncompleteReadError, ValueError, KeyError, StopIteration) as exc:
                    reason = type(exc).__name__
                latencies.append((time.perf_counter() - t0) * 1000)
                if reason:
                    errors += 1
                    reasons[reason] = reasons.get(reason, 0) + 1
                    if not reason.startswith(("status", "empty")):
                        break  # the connection's state is unknown: this worker stops
        finally:
            writer.close()

    await asyncio.gather(*(worker() for _ in range(concurrency)))
    if reasons:
        print(f"{'':<4}errors at {concurrency} clients on {url.split('/')[2]}: {reasons}", flush=True)
    return latencies, errors


async def load(url: str, bodies: list[dict[str, Any]], concurrency: int) -> tuple[list[float], int]:
    """Send each body with ``concurrency`` workers; (latencies in ms, error count)."""
    latencies: list[float] = []
    errors = 0
    reasons: dict[str, int] = {}
    work = iter(bodies)
    limits = httpx.Limits(max_connections=1, max_keepalive_connections=1)

    async def worker(client: httpx.AsyncClient) -> None:
        nonlocal errors
        for body in work:
            t0 = time.perf_counter()
            reason = ""
            try:
                resp = await client.post(url, json=body)
                if resp.status_code != 200:
                    reason = f"status {resp.status_code}"
                elif not resp.json()["choices"][0]["message"]["content"]:
                    reason = "empty answer"
            except (httpx.HTTPError, ValueError, KeyError) as exc:
                reason = type(exc).__name__
            latencies.append((time.perf_counter() - t0) * 1000)
            if reason:
                errors += 1
                reasons[reason] = reasons.get(reason, 0) + 1

    # one client (one keep-alive connection) per worker: a shared pool would cost the load generator
    # time linear in the connection count on every request (httpcore scans its pool), inflating both paths
    clients = [httpx.AsyncClient(limits=limits, timeout=120.0) for _ in range(concurrency)]
    try:
        await asyncio.gather(*(worker(client) for client in clients))
    finally:
        for client in clients:
            await client.aclose()
    if reasons:  # what failed, by status or exception type (no content)
        print(f"{'':<4}errors at {concurrency} clients on {url.split('/')[2]}: {reasons}", flush=True)
    return latencies, errors


def wait_drained(base: str, limit: float = 120.0) -> bool:
    """Wait until the proxy's scoring queue is empty and idle; False after ``limit`` seconds."""
    deadline = time.monotonic() + limit
    with httpx.Client(timeout=10) as client:
        while time.monotonic() < deadline:
            queue = client.get(base + "/healthz").json()["queue"]
            if queue["depth"] == 0 and queue["scored"] + queue["failed"] >= queue["queued"]:
                return True
            time.sleep(0.5)
    return False


def row(name: str, lat: list[float], err: int, seconds: float | None = None) -> str:
    rate = f"{len(lat) / seconds:>8.0f}" if seconds else f"{'':>8}"
    return f"{name:<44}{len(lat):>8}{err:>7}{rate}{pct(lat, 0.5):>9.1f}{pct(lat, 0.99):>9.1f}"


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print the table; exit 1 on any failed request."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--data", type=Path, default=default_data(), help="the shared data folder")
    parser.add_argument("--requests", type=int, default=10000, help="requests per concurrency and path")
    parser.add_argument("--concurrency", default="1,8,32", help="comma-separated client counts")
    parser.add_argument("--policy", default="observe", choices=("observe", "annotate", "block"))
    parser.add_argument(
        "--scoring",
        default="auto",
        choices=("auto", "inline", "background", "process", "off"),
        help="the proxy's scoring mode; off (bench only): forward without scoring, to see forwarding alone",
    )
    parser.add_argument(
        "--client",
        default="raw",
        choices=("raw", "httpx"),
        help="the load generator's client: raw (asyncio streams, requests encoded beforehand) or httpx",
    )
    parser.add_argument("--upstream", default="async", choices=("async", "threaded"), help="scripted upstream kind")
    parser.add_argument(
        "--upstream-delay-ms",
        type=float,
        default=0.0,
        help="async upstream: wait this long before each answer, like a model generating it (default 0)",
    )
    parser.add_argument("--profile", default=None, help="write a cProfile of the proxy's event-loop thread here")
    parser.add_argument("--sample", default=None, help="write a sampling profile of the proxy's event-loop thread here")
    parser.add_argument(
        "--loop",
        default="auto",
        choices=("auto", "asyncio", "uvloop"),
        help="uvicorn's event loop (auto: uvloop if installed)",
    )
    parser.add_argument(
        "--http",
        default="auto",
        choices=("auto", "h11", "httptools"),
        help="uvicorn's HTTP parser (auto: httptools if installed)",
    )
    args = parser.parse_args(argv)
    calls = traffic(args.data)
    if not calls:
        print(f"bench_proxy: no dev traffic under {args.data}", file=sys.stderr)
        return 2
    pairs = [(c.query, c.response) for c in calls]
    chosen = [calls[i % len(calls)] for i in range(args.requests)]
    proxied_bodies = [request_body(c) for c in chosen]
    # the direct upstream is sent the same request without the faithguard extension (the proxy strips it)
    direct_bodies = [{k: v for k, v in b.items() if k != "faithguard"} for b in proxied_bodies]
    levels = [int(c) for c in args.concurrency.split(",")]
    ctx = multiprocessing.get_context("spawn")
    up_parent, up_child = ctx.Pipe()
    upstream_proc = ctx.Process(
        target=serve_upstream, args=(up_child, pairs, args.upstream, args.upstream_delay_ms / 1000), daemon=True
    )
    upstream_proc.start()
    direct_base = up_parent.recv()
    parent, child = ctx.Pipe()
    # not daemonic: the proxy may start its own scoring process
    proc = ctx.Process(
        target=serve_proxy,
        args=(child, direct_base, args.policy, args.scoring, args.profile, args.loop, args.http, args.sample),
    )
    proc.start()
    child.close()  # a proxy that dies before answering then reads as EOF here, not as a hang
    pid = proc.pid
    assert pid is not None
    print(f"bench_proxy on {machine()}; CPU unpinned (load generator shares the cores)")
    print(f"at start: {load_line()}")
    sets = ", ".join(f"{n} {sum(c.dataset == n for c in calls)}" for n in sorted({c.dataset for c in calls}))
    parts = ", ".join(f"{p} {sum(c.part == p for c in calls)}" for p in ("study", "holdout"))
    lengths = [float(len(a)) for _, a in pairs]
    print(
        f"traffic: {len(calls)} distinct dev queries ({sets}; split parts {parts}, timed only), each with its "
        f"recorded answer (chars p50 {pct(lengths, 0.5):.0f}, p99 {pct(lengths, 0.99):.0f}, max {max(lengths):.0f}); "
        f"{args.requests} requests per level = {args.requests / len(calls):.1f} passes; "
        f"policy {args.policy}, scoring {args.scoring}, {args.upstream} upstream"
        + (f" answering after {args.upstream_delay_ms:g} ms" if args.upstream_delay_ms else "")
    )
    failed = 0
    try:
        proxy_base = parent.recv()
        server = httpx.get(proxy_base + "/healthz", timeout=10).json().get("server") or {}
        used, auto = server.get("loop", "?"), server.get("http_auto", "?")
        print(f"proxy server: uvicorn loop {args.loop} -> {used}, http {args.http} (auto picks {auto})")
        direct_url, proxy_url = direct_base + "/chat/completions", proxy_base + "/v1/chat/completions"
        raw = args.client == "raw"
        direct_raw = encode_requests(direct_url, direct_bodies) if raw else []
        proxied_raw = encode_requests(proxy_url, proxied_bodies) if raw else []
        print(f"load generator: {args.client} client, one keep-alive connection per simulated client")
        rss, kids_rss = [rss_mb(pid)], [children_rss(pid)]
        print(f"{'path':<44}{'reqs':>8}{'errors':>7}{'req/s':>8}{'p50 ms':>9}{'p99 ms':>9}")
        first = True
        for c in levels:
            drained = wait_drained(proxy_base)  # the previous level's scoring must not load this level's direct run
            if not drained:
                print(f"{'':<4}(scoring queue not drained after 120 s: the direct run below shares the CPU with it)")
            t0 = time.perf_counter()
            direct, derr = asyncio.run(
                load_raw(direct_url, direct_raw, c) if raw else load(direct_url, direct_bodies, c)
            )
            dsec = time.perf_counter() - t0
            cpu0, kids0 = process_cpu(pid), children_cpu(pid)
            t0 = time.perf_counter()
            proxied, perr = asyncio.run(
                load_raw(proxy_url, proxied_raw, c) if raw else load(proxy_url, proxied_bodies, c)
            )
            psec = time.perf_counter() - t0
            cpu1, kids1 = process_cpu(pid), children_cpu(pid)
            rss.append(rss_mb(pid))
            kids_rss.append(children_rss(pid))
            cache = "first pass new, then cached" if first else "cached"
            first = False
            print(row(f"direct, {c} clients", direct, derr, dsec))
            print(row(f"proxy, {c} clients ({cache})", proxied, perr, psec))
            if c == levels[0] == 1:  # one client: the first pass is the only one with new queries
                print(row("  of which the first pass (new queries)", proxied[: len(calls)], 0))
            added = (pct(proxied, 0.5) - pct(direct, 0.5), pct(proxied, 0.99) - pct(direct, 0.99))
            print(f"{'':<4}added latency at {c} clients: p50 {added[0]:+.1f} ms, p99 {added[1]:+.1f} ms")
            cpu_ms = (cpu1 - cpu0) / len(chosen) * 1000
            print(f"{'':<4}proxy process CPU per request (request path and background scoring): {cpu_ms:.2f} ms")
            kids_ms = (kids1 - kids0) / len(chosen) * 1000
            print(f"{'':<4}scoring process CPU per request (while the level ran; 0 without one): {kids_ms:.2f} ms")
            failed += derr + perr
        health = httpx.get(proxy_base + "/healthz", timeout=10).json()
        queue = health["queue"]
        print(
            f"scoring ({health['scoring']}): queued {queue['queued']}, scored {queue['scored']}, "
            f"sampled out {queue['sampled_out']}, dropped {queue['dropped']}, still queued {queue['depth']}"
        )
        print("proxy RSS MiB after start and each level: " + ", ".join(f"{r:.0f}" for r in rss))
        print("scoring process RSS MiB, the same points: " + ", ".join(f"{r:.0f}" for r in kids_rss))
    finally:
        with contextlib.suppress(OSError):  # a proxy that died has closed its end
            parent.send("stop")
        proc.join(timeout=60)
        if proc.is_alive():
            proc.terminate()
        up_parent.send("stop")
        upstream_proc.join(timeout=30)
    if failed:
        print(f"FAILED: {failed} requests failed", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
