"""Judge-path overhead and judge calls per request, against a local instant chat server.

Run from the repo root:  PYTHONPATH=src python benchmarks/bench_judge.py [--requests 300]

1. Overhead per judge call, excluding the judge model's own latency:
   - in-process: prompt building + schema + parsing + voting over a transport that
     answers instantly (no network at all);
   - over HTTP: a Judge.satisfy() call against a local server replying instantly, minus a
     bare httpx POST of the same body to the same server (the server and socket cost).
   Every timed call is a new request (its query numbered), so neither the judge's result cache nor
   its per-request call cap (``max_calls_per_request``) sees a repeat. The server is
   ``faithguard.judge.testing.ScriptedChatServer``: a local HTTP server on 127.0.0.1 whose replies
   follow the request's schema (``default_reply_for``); nothing leaves the machine.
2. Judge calls per guarded request on a workload with repeated queries, through
   ``faithguard.Guard(judge=JudgeConfig(...))`` (decompositions are cached by the guard).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable, Iterable
from typing import Any

import httpx

from faithguard.detector import CallContext
from faithguard.judge import Judge, JudgeConfig
from faithguard.judge.client import build_request_body
from faithguard.judge.prompts import satisfy_prompt
from faithguard.judge.schemas import SatisfyOut, strict_schema
from faithguard.judge.testing import ScriptedChatServer, ScriptedTransport, default_reply_for
from faithguard.models import Category, Constraint, Tier

QUERIES = [
    "List three vineyards in Spain, excluding Rioja.",
    "Explain why the sky is blue in two sentences.",
    "Compare the economies of Chile and Peru since 2010.",
    "Write a short poem about autumn in Kyoto.",
    "Summarise the causes of the 1929 stock market crash.",
    "Name two rivers in France, but not the Seine.",
    "What were the main outcomes of the Paris Agreement?",
    "Give four tips for learning Go as a Python developer.",
    "Describe the water cycle for a ten-year-old.",
    "How did the printing press change Europe in the 15th century?",
]
RESPONSE = "Here is an answer that addresses the request with the requested details, places and dates."


def pct(values: list[float], q: float) -> float:
    """The q-th percentile (nearest rank) of values in ms."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * len(ordered)) - 1))]


def timed(fn: Callable[[CallContext], Any], requests: Iterable[CallContext]) -> list[float]:
    """Wall time of fn on each request, in ms."""
    out = []
    for ctx in requests:
        t0 = time.perf_counter()
        fn(ctx)
        out.append((time.perf_counter() - t0) * 1000)
    return out


def constraints() -> list[Constraint]:
    """Five constraints of a realistic request."""
    spec = [
        ("list vineyards", "action"),
        ("in Spain", "location"),
        ("three", "quantity"),
        ("not Rioja", "other"),
        ("vineyards", "subject"),
    ]
    return [
        Constraint(
            id=f"c{i}",
            text=t,
            category=Category(c),
            tier=Tier.MANDATORY
            if c in ("action", "location", "subject")
            else Tier.IMPORTANT
            if c == "quantity"
            else Tier.OPTIONAL,
        )
        for i, (t, c) in enumerate(spec, 1)
    ]


def request(i: int) -> CallContext:
    """The i-th new request: its own query text, so its own judge cache key and call count."""
    return CallContext(query=f"{QUERIES[0]} (request {i})", response=RESPONSE)


def bench_overhead(n: int) -> list[tuple[str, float, float]]:
    """Rows (name, p50 ms, p99 ms) of the judge-path overhead, each timed call a new request."""
    cons = constraints()
    rows: list[tuple[str, float, float]] = []
    inproc = Judge(ScriptedTransport(default=default_reply_for))
    inproc.satisfy(request(-1), cons)
    t = timed(lambda ctx: inproc.satisfy(ctx, cons), (request(i) for i in range(n)))
    rows.append(("in-process satisfy (prompt+parse, no HTTP)", pct(t, 50), pct(t, 99)))
    inproc.decompose(request(-2))
    t = timed(inproc.decompose, (request(n + i) for i in range(n)))
    rows.append(("in-process decompose (prompt+parse, no HTTP)", pct(t, 50), pct(t, 99)))

    schema = strict_schema(SatisfyOut)
    with ScriptedChatServer(default=default_reply_for) as server:
        judge = Judge.from_config(JudgeConfig(base_url=server.base_url, model="bench"))
        with httpx.Client() as bare:
            url = server.base_url + "/chat/completions"
            judge.satisfy(request(-1), cons)
            judged: list[float] = []
            raw: list[float] = []
            for i in range(n):  # interleaved so both see the same machine load
                ctx = request(i)
                body = build_request_body(
                    "bench", satisfy_prompt(ctx.query, RESPONSE, cons), "faithguard_satisfaction", schema
                )
                t0 = time.perf_counter()
                judge.satisfy(ctx, cons)
                t1 = time.perf_counter()
                bare.post(url, json=body).json()
                judged.append((t1 - t0) * 1000)
                raw.append((time.perf_counter() - t1) * 1000)
        judge.close()
    rows.append(("HTTP satisfy via Judge (local instant server)", pct(judged, 50), pct(judged, 99)))
    rows.append(("HTTP bare httpx POST, same body (baseline)", pct(raw, 50), pct(raw, 99)))
    diffs = [a - b for a, b in zip(judged, raw, strict=True)]
    rows.append(("=> overhead over HTTP (paired difference)", statistics.median(diffs), pct(diffs, 99)))
    return rows


def bench_calls(repeats: int, **judge_options: Any) -> tuple[int, int, float]:
    """(guarded requests, judge HTTP calls, seconds) for QUERIES x repeats through a Guard."""
    from faithguard.guard import Guard

    with ScriptedChatServer(default=default_reply_for) as server:
        guard = Guard(
            judge=JudgeConfig(base_url=server.base_url, model="bench", **judge_options), load_entrypoints=False
        )
        guard.check(QUERIES[0], RESPONSE)  # warm-up (spaCy load), not counted
        before = len(server.requests)
        t0 = time.perf_counter()
        n = 0
        for r in range(repeats):
            for q in QUERIES:
                # repeated queries, new answers: the judge's satisfaction cache must not flatter the count
                guard.check(q, f"{RESPONSE} (answer {r})")
                n += 1
        return n, len(server.requests) - before, time.perf_counter() - t0


def main(argv: list[str] | None = None) -> int:
    """Print the tables."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=300, help="timed judge calls per overhead row")
    parser.add_argument("--repeats", type=int, default=5, help="how often each of the 10 queries is guarded")
    args = parser.parse_args(argv)

    print(f"Judge-path overhead per call ({args.requests} calls, 5 constraints, each a new request: cache cold)")
    print(f"{'path':<48} {'p50 ms':>8} {'p99 ms':>8}")
    for name, p50, p99 in bench_overhead(args.requests):
        print(f"{name:<48} {p50:>8.3f} {p99:>8.3f}")
    print("target: overhead <= 2 ms per call\n")

    print(f"Judge calls per guarded request ({len(QUERIES)} queries x {args.repeats} repeats, guard cache on)")
    print(f"{'setting':<34} {'requests':>8} {'calls':>6} {'calls/req':>9} {'ms/req':>8}")
    for label, options in [
        ("sample_rate=1, n=1", {}),
        ("sample_rate=0.5, n=1", {"sample_rate": 0.5}),
        ("sample_rate=1, self_consistency=3", {"self_consistency": 3, "temperature": 0.3}),
    ]:
        n, calls, secs = bench_calls(args.repeats, **options)
        print(f"{label:<34} {n:>8} {calls:>6} {calls / n:>9.2f} {secs * 1000 / n:>8.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
