"""Per-detector cost inside a full offline `Guard(judge=None).check` (60-word query, 400-word response).

Run from the repo root: ``PYTHONPATH=src python benchmarks/bench_detectors.py [--n 60]``. Each registered
detector is wrapped in a timer; the decomposer is timed on new queries (no cache) and on the repeated one.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))
from _machine import machine, pct
from bench_check import QUERY, response


class _Timed:
    """A detector wrapper that records the wall time of every run() call."""

    def __init__(self, inner: Any, sink: dict[str, list[float]]) -> None:
        self.inner = inner
        self.name = inner.name
        self.stage = inner.stage
        self.order = inner.order
        self.timeout = inner.timeout
        self.sink = sink

    def run(self, ctx: Any) -> Any:
        t0 = time.perf_counter()
        try:
            return self.inner.run(ctx)
        finally:
            self.sink.setdefault(self.name, []).append((time.perf_counter() - t0) * 1000)


def _table(title: str, samples: dict[str, list[float]], total: list[float]) -> None:
    print(f"\n{title}")
    print(f"{'detector':<28}{'stage':<8}{'p50 ms':>9}{'p99 ms':>9}")
    for name, vals in sorted(samples.items(), key=lambda kv: -pct(kv[1], 0.5)):
        stage = _STAGES.get(name, "")
        print(f"{name:<28}{stage:<8}{pct(vals, 0.5):>9.2f}{pct(vals, 0.99):>9.2f}")
    print(f"{'whole check':<36}{pct(total, 0.5):>9.2f}{pct(total, 0.99):>9.2f}")


_STAGES: dict[str, str] = {}


def main() -> int:
    """Entry point."""
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--n", type=int, default=60, help="timed checks per scenario")
    args = ap.parse_args()
    from faithguard import Guard
    from faithguard.nlp import get_nlp

    get_nlp()
    guard = Guard(judge=None)
    samples: dict[str, list[float]] = {}
    guard.detectors = [_Timed(d, samples) for d in guard.detectors]  # type: ignore[misc]
    _STAGES.update({d.name: d.stage for d in guard.detectors})
    print(f"machine: {machine()}; load average {os.getloadavg()[0]:.2f}")
    print(f"query: {len(QUERY.split())} words; response: ~{len(response(0).split())} words; n={args.n}")
    for i in range(10):
        guard.check(QUERY, response(10_000 + i))
    for scenario, make_query in (
        ("repeated query (decomposition cached), new response each time", lambda i: QUERY),
        ("new query each time (decomposition not cached)", lambda i: QUERY + f" Number them from {i}."),
    ):
        samples.clear()
        total: list[float] = []
        dec: list[float] = []
        for i in range(args.n):
            q = make_query(i)
            t0 = time.perf_counter()
            guard.check(q, response(20_000 + i))
            total.append((time.perf_counter() - t0) * 1000)
            t1 = time.perf_counter()
            guard._cached_decompose(guard._start(q, None, None))(guard.decomposer)
            dec.append((time.perf_counter() - t1) * 1000)
        if "new query" in scenario:
            samples["(decomposer, cached rerun)"] = dec
        _table(scenario, samples, total)
    uncached: list[float] = []
    for i in range(args.n):
        q = QUERY + f" Variant {i}."
        t0 = time.perf_counter()
        guard.decomposer.decompose(guard._start(q, None, None).ctx)
        uncached.append((time.perf_counter() - t0) * 1000)
    print(f"\noffline decomposer on a new query: p50 {pct(uncached, 0.5):.2f} ms  p99 {pct(uncached, 0.99):.2f} ms")
    guard.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
