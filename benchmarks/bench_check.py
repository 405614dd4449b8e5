"""End-to-end offline `Guard.check` speed: one process, warm (issue targets in brackets)."""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from _machine import machine, pct

QUERY = (
    "List three European explorers who circumnavigated the globe before the 18th century and were not born "
    "in England or Portugal. For each explorer, give the years of the voyage, the ships used and one lasting "
    "consequence of the expedition. Answer in at least 300 words and do not use any commas in your response, "
    "and end with a short summary paragraph."
)
SENTENCES = [
    "Juan Sebastian Elcano born in Spain completed the first circumnavigation in 1522 aboard the Victoria.",
    "Olivier van Noort from the Dutch Republic sailed around the world between 1598 and 1601.",
    "Francis Drake is excluded here because he was born in England.",
    "The voyages opened new trade routes across the Pacific Ocean and changed European maps.",
    "Historians still debate how many sailors survived each expedition and why.",
    "Joris van Spilbergen led a Dutch fleet around the globe from 1614 to 1617.",
    "Each of these journeys relied on favourable winds and careful provisioning of food and water.",
    "The lasting consequence was a new understanding of the size of the Earth.",
]


def response(seed: int, words: int = 400) -> str:
    rnd = random.Random(seed)
    out: list[str] = []
    while sum(len(s.split()) for s in out) < words:
        out.append(rnd.choice(SENTENCES))
    return " ".join(out)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--n", type=int, default=300, help="timed checks")
    args = ap.parse_args()
    from faithguard.nlp import get_nlp

    t0 = time.perf_counter()
    get_nlp()
    load_s = time.perf_counter() - t0
    from faithguard import Guard

    guard = Guard(judge=None)
    print(f"machine: {machine()}")
    print(f"query: {len(QUERY.split())} words; response: {len(response(0).split())} words")
    print(f"first-call model load: {load_s * 1000:.0f} ms  [<= 2000 ms]")
    for i in range(20):
        guard.check(QUERY, response(i))
    lat: list[float] = []
    for i in range(args.n):
        r = response(i)
        t = time.perf_counter()
        guard.check(QUERY, r)
        lat.append((time.perf_counter() - t) * 1000)
    print(
        f"check, repeated query (decomposition cached) p50 {pct(lat, 0.5):.2f} ms  p99 {pct(lat, 0.99):.2f} ms"
        f"  mean {statistics.mean(lat):.2f} ms  [p50 <= 15 ms, p99 <= 40 ms]"
    )
    fresh: list[float] = []
    for i in range(args.n):
        q = QUERY + f" Number the explorers from {i}."
        r = response(i)
        t = time.perf_counter()
        guard.check(q, r)
        fresh.append((time.perf_counter() - t) * 1000)
    print(f"check, new query each time (no cache) p50 {pct(fresh, 0.5):.2f} ms  p99 {pct(fresh, 0.99):.2f} ms")
    t = time.perf_counter()
    n = args.n
    for i in range(n):
        guard.check(QUERY, response(i))
    rate = n / (time.perf_counter() - t)
    print(f"batch throughput (1 core, sequential): {rate:.0f} checks/s  [>= 100/s per core]")
    # cached re-decomposition of a seen query
    run = guard._start(QUERY, None, None)
    compute = guard._cached_decompose(run)
    compute(guard.decomposer)
    reps = 20000
    t = time.perf_counter()
    for _ in range(reps):
        compute(guard.decomposer)
    per = (time.perf_counter() - t) / reps * 1000
    print(f"cached re-decomposition: {per:.4f} ms  [<= 0.2 ms]")
    uncached = []
    for i in range(50):
        q = QUERY + f" Variant {i}."
        t = time.perf_counter()
        guard.decomposer.decompose(guard._start(q, None, None).ctx)
        uncached.append((time.perf_counter() - t) * 1000)
    print(f"uncached decomposition p50: {pct(uncached, 0.5):.2f} ms")
    guard.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
