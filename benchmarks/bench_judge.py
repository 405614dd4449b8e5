"""Judge-path overhead and judge calls per request, against a local instant chat server.

Run from the repo root:  PYTHONPATH=src python benchmarks/bench_judge.py [--requests 300]

1. Overhead per judge call, excluding the judge model's own latency:
   - in-process: prompt building + schema + parsing + voting over a transport that
     answers instantly (no network at all);
   - over HTTP: a Judge.satisfy() call against a local server replying instantly, minus a
     bare httpx POST of the same body to the same server (the server and socket cost).
2. Judge calls per guarded request on a workload with repeated queries, through
   ``faithguard.Guard(judge=JudgeConfig(...))`` (decompositions are cached by the guard).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
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


def timed(fn: Callable[[], Any], n: int) -> list[float]:
    """Wall time of n calls of fn, in ms."""
    out = []
    for _ in range(n):
        t0 = time.perf_counter()
        fn()
        out.append((time.perf_counter() - t0) * 1000)
    return out


def constraints() -> list[Constraint]:
    """Five constraints of a realistic request."""
    spec = [("list vineyards", "action"), ("in Spain", "location"), ("three", "quantity"),
            ("not Rioja", "other"), ("vineyards", "subject")]
    return [
        Constraint(id=f"c{i}", text=t, category=Category(c), tier=Tier.MANDATORY if c in ("action", "location",
                   "subject") else Tier.IMPORTANT if c == "quantity" else Tier.OPTIONAL)
        for i, (t, c) in enumerate(spec, 1)
    ]


def bench_overhead(n: int) -> list[tuple[str, float, float]]:
    """Rows (name, p50 ms, p99 ms) of the judge-path overhead."""
    ctx = CallContext(query=QUERIES[0], response=RESPONSE)
    cons = constraints()
    rows: list[tuple[str, float, float]] = []
    inproc = Judge(ScriptedTransport(default=default_reply_for))

    def uncached(judge: Judge) -> object:
        judge._satisfied.clear()  # time the full path, not the judge's own result cache
        return judge.satisfy(ctx, cons)

    uncached(inproc)
    t = timed(lambda: uncached(inproc), n)
    rows.append(("in-process satisfy (prompt+parse, no HTTP)", pct(t, 50), pct(t, 99)))
    inproc.decompose(ctx)
    t = timed(lambda: inproc.decompose(ctx), n)
    rows.append(("in-process decompose (prompt+parse, no HTTP)", pct(t, 50), pct(t, 99)))

    with ScriptedChatServer(default=default_reply_for) as server:
        judge = Judge.from_config(JudgeConfig(base_url=server.base_url, model="bench"))
        body = build_request_body("bench", satisfy_prompt(ctx.query, RESPONSE, cons), "faithguard_satisfaction",
                                  strict_schema(SatisfyOut))
        with httpx.Client() as bare:
            url = server.base_url + "/chat/completions"
            judge.satisfy(ctx, cons)
            bare.post(url, json=body)
            judged: list[float] = []
            raw: list[float] = []
            for _ in range(n):  # interleaved so both see the same machine load
                judged += timed(lambda: uncached(judge), 1)
                raw += timed(lambda: bare.post(url, json=body).json(), 1)
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
        guard = Guard(judge=JudgeConfig(base_url=server.base_url, model="bench", **judge_options),
                      load_entrypoints=False)
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

    print(f"Judge-path overhead per call ({args.requests} calls, 5 constraints)")
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
