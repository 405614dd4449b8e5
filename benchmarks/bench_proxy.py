"""Loopback load test of the guarding proxy: throughput and added latency vs calling the upstream directly.

Starts a fake OpenAI-compatible upstream and the proxy (uvicorn, observe policy, offline
``Guard(judge=None)``) on 127.0.0.1, sends ``--requests`` chat completions through the proxy
(and a tenth as many straight to the upstream as the baseline) with ``--concurrency``
clients, checks that none failed, and samples the process RSS at start, middle and end.

    PYTHONPATH=src python benchmarks/bench_proxy.py [--requests 10000] [--concurrency 8]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import threading
import time
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


def rss_mb() -> float:
    """Resident set size of this process in MiB (Linux /proc; ru_maxrss elsewhere)."""
    status = Path("/proc/self/status")
    if status.exists():
        for line in status.read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def start_proxy(guard: Guard, upstream: str) -> tuple[uvicorn.Server, threading.Thread, int]:
    """Serve the proxy in a thread with its own event loop."""
    config = uvicorn.Config(
        create_app(guard, upstream, policy=Policy.observe()), host="127.0.0.1", port=0, log_level="error"
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.01)
    return server, thread, server.servers[0].sockets[0].getsockname()[1]


async def load(url: str, n: int, concurrency: int, on_progress: list[float] | None = None) -> tuple[list[float], int]:
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
                on_progress.append(rss_mb())

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
    parser.add_argument("--concurrency", type=int, default=8)
    args = parser.parse_args(argv)
    guard = Guard(judge=None)
    for q in QUERIES:  # warm the spaCy pipeline and the decomposition cache
        guard.check(q, ANSWER)
    rss_start = rss_mb()
    with FakeOpenAIServer([ANSWER]) as upstream:
        server, thread, port = start_proxy(guard, upstream.url)
        proxy_url = f"http://127.0.0.1:{port}/v1/chat/completions"
        direct_url = upstream.url + "/chat/completions"
        baseline_n = max(args.requests // 10, 100)
        asyncio.run(load(direct_url, min(200, baseline_n), args.concurrency))  # warm-up
        t0 = time.perf_counter()
        direct, direct_err = asyncio.run(load(direct_url, baseline_n, args.concurrency))
        direct_s = time.perf_counter() - t0
        middle: list[float] = []
        t0 = time.perf_counter()
        proxied, proxy_err = asyncio.run(load(proxy_url, args.requests, args.concurrency, middle))
        proxy_s = time.perf_counter() - t0
        rss_end = rss_mb()
        server.should_exit = True
        thread.join(timeout=10)
    guard.close()
    rows = [
        ("direct to upstream", len(direct), direct_err, len(direct) / direct_s, direct),
        ("through proxy (observe)", len(proxied), proxy_err, len(proxied) / proxy_s, proxied),
    ]
    print(f"bench_proxy: loopback, concurrency {args.concurrency}, offline Guard(judge=None), policy observe")
    print(f"{'path':<26}{'requests':>9}{'errors':>8}{'req/s':>9}{'p50 ms':>9}{'p99 ms':>9}")
    for name, n, err, rps, lat in rows:
        print(f"{name:<26}{n:>9}{err:>8}{rps:>9.0f}{pct(lat, 50):>9.2f}{pct(lat, 99):>9.2f}")
    added50, added99 = pct(proxied, 50) - pct(direct, 50), pct(proxied, 99) - pct(direct, 99)
    print(f"added latency: p50 {added50:+.2f} ms, p99 {added99:+.2f} ms")
    mid = middle[0] if middle else float("nan")
    print(f"RSS MiB: start {rss_start:.1f}, middle {mid:.1f}, end {rss_end:.1f} (end - middle {rss_end - mid:+.1f})")
    if direct_err or proxy_err:
        print(f"FAILED: {direct_err + proxy_err} requests failed", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
