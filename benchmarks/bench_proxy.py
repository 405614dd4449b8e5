"""Loopback load test of the guarding proxy: throughput and added latency vs calling the upstream directly.

Starts a fake OpenAI-compatible upstream and the proxy (uvicorn, observe policy, offline
``Guard(judge=None)``) on 127.0.0.1 in a child process, measures added latency one request at a
time (direct vs through the proxy), then sends ``--requests`` chat completions through the proxy
with ``--concurrency`` clients for throughput, checks that none failed, and samples the proxy
process's RSS at start, middle and end. Bounded: it stops by itself.

    PYTHONPATH=src python benchmarks/bench_proxy.py [--requests 10000] [--concurrency 8]
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import statistics
import sys
import threading
import time
from collections.abc import Callable
from multiprocessing.connection import Connection
from pathlib import Path

import httpx
import uvicorn

from faithguard import Guard, Policy
from faithguard.integrations.fake_upstream import FakeOpenAIServer
from faithguard.integrations.proxy import create_app

QUERIES = [
    "Which museum in Paris should I visit first?",
    "List three rivers in Germany, in alphabetical order.",
    "Summarise the history of the Eiffel Tower in two sentences.",
    "Name two novels by Jane Austen published before 1815.",
]
ANSWER = "The Louvre museum in Paris is a good first visit; the Rhine, Elbe and Main are rivers in Germany."


def rss_mb(pid: int | str = "self") -> float:
    """Resident set size of a process in MiB (Linux /proc)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def serve(conn: Connection) -> None:
    """Child process: the fake upstream and the proxy on loopback until the parent says stop."""
    guard = Guard(judge=None)
    for q in QUERIES:  # warm the spaCy pipeline and the decomposition cache
        guard.check(q, ANSWER)
    with FakeOpenAIServer([ANSWER]) as upstream:
        config = uvicorn.Config(
            create_app(guard, upstream.url, policy=Policy.observe()), host="127.0.0.1", port=0, log_level="error"
        )
        server = uvicorn.Server(config)
        thread = threading.Thread(target=server.run, daemon=True)
        thread.start()
        while not server.started:
            time.sleep(0.01)
        port = server.servers[0].sockets[0].getsockname()[1]
        conn.send((upstream.url, f"http://127.0.0.1:{port}/v1/chat/completions"))
        conn.recv()  # stop
        server.should_exit = True
        thread.join(timeout=10)
    guard.close()


async def load(
    url: str, n: int, concurrency: int, on_progress: Callable[[], None] | None = None
) -> tuple[list[float], int]:
    """Send ``n`` requests with ``concurrency`` workers; (latencies in ms, error count)."""
    latencies: list[float] = []
    errors = 0
    counter = iter(range(n))
    limits = httpx.Limits(max_connections=concurrency, max_keepalive_connections=concurrency)

    async def worker(client: httpx.AsyncClient) -> None:
        nonlocal errors
        for i in counter:
            body = {"model": "bench", "messages": [{"role": "user", "content": QUERIES[i % len(QUERIES)]}]}
            t0 = time.perf_counter()
            try:
                resp = await client.post(url, json=body)
                ok = resp.status_code == 200 and resp.json()["choices"][0]["message"]["content"] == ANSWER
            except httpx.HTTPError:
                ok = False
            latencies.append((time.perf_counter() - t0) * 1000)
            errors += not ok
            if on_progress is not None and len(latencies) == n // 2:
                on_progress()

    async with httpx.AsyncClient(limits=limits, timeout=30.0) as client:
        await asyncio.gather(*(worker(client) for _ in range(concurrency)))
    return latencies, errors


def pct(values: list[float], q: float) -> float:
    """The q-th percentile (0-100)."""
    return statistics.quantiles(values, n=100, method="inclusive")[int(q) - 1] if len(values) > 1 else values[0]


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print a table; exit 1 on any failed request."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=10000, help="requests through the proxy (default 10000)")
    parser.add_argument("--concurrency", type=int, default=8, help="clients for the throughput run")
    parser.add_argument("--latency-requests", type=int, default=1000, help="one-at-a-time requests per path")
    args = parser.parse_args(argv)
    parent, child = multiprocessing.get_context("spawn").Pipe()
    proc = multiprocessing.get_context("spawn").Process(target=serve, args=(child,), daemon=True)
    proc.start()
    try:
        direct_url, proxy_url = parent.recv()
        direct_url += "/chat/completions"
        n1 = args.latency_requests
        asyncio.run(load(direct_url, 200, 1))  # warm-up
        asyncio.run(load(proxy_url, 200, 1))
        # Added latency: one request at a time, so nothing queues behind the guard's CPU work.
        direct, direct_err = asyncio.run(load(direct_url, n1, 1))
        proxied1, err1 = asyncio.run(load(proxy_url, n1, 1))
        # Throughput and memory: the full run with concurrent clients.
        rss = {"start": rss_mb(proc.pid)}
        t0 = time.perf_counter()
        proxied, proxy_err = asyncio.run(
            load(proxy_url, args.requests, args.concurrency, lambda: rss.__setitem__("middle", rss_mb(proc.pid)))
        )
        proxy_s = time.perf_counter() - t0
        rss["end"] = rss_mb(proc.pid)
    finally:
        parent.send("stop")
        proc.join(timeout=15)
    print("bench_proxy: loopback; proxy + fake upstream in a child process, load generator in this one;")
    print("offline Guard(judge=None), policy observe (input checks before forwarding, scoring before replying)")
    print(f"{'path':<34}{'requests':>9}{'errors':>8}{'req/s':>9}{'p50 ms':>9}{'p99 ms':>9}")
    rows = [
        ("direct to upstream, 1 at a time", direct, direct_err, None),
        ("through proxy, 1 at a time", proxied1, err1, None),
        (f"through proxy, {args.concurrency} concurrent", proxied, proxy_err, len(proxied) / proxy_s),
    ]
    for name, lat, err, rps in rows:
        rate = f"{rps:>9.0f}" if rps is not None else f"{'':>9}"
        print(f"{name:<34}{len(lat):>9}{err:>8}{rate}{pct(lat, 50):>9.2f}{pct(lat, 99):>9.2f}")
    added50, added99 = pct(proxied1, 50) - pct(direct, 50), pct(proxied1, 99) - pct(direct, 99)
    print(f"added latency (1 at a time): p50 {added50:+.2f} ms, p99 {added99:+.2f} ms")
    mid = rss.get("middle", float("nan"))
    print(
        f"proxy process RSS MiB over {args.requests} requests: start {rss['start']:.1f}, middle {mid:.1f},"
        f" end {rss['end']:.1f} (end - middle {rss['end'] - mid:+.1f})"
    )
    errors = direct_err + err1 + proxy_err
    if errors:
        print(f"FAILED: {errors} requests failed", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
