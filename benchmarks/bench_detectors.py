"""Per-detector cost inside a full offline ``Guard(judge=None).check`` on the dev traffic (both split parts).

Run from the repo root: ``PYTHONPATH=src python benchmarks/bench_detectors.py --data ../shared/data [--limit 200]``.
Each registered detector and the decomposer are wrapped in a timer that records wall time and the CPU time
of the thread they run in (``time.thread_time``), first on new queries (every query-keyed cache cold for
it), then on the same calls again (cached query). The process pins itself to one core when it can.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))
from _machine import load_line, machine, pct, pin_to_one_core
from traffic import default_data, distinct_queries, load_traffic


class _Timed:
    """A detector wrapper that records (wall ms, thread CPU ms) of every run() call."""

    def __init__(self, inner: Any, sink: dict[str, list[tuple[float, float]]]) -> None:
        self.inner = inner
        self.name = inner.name
        self.stage = inner.stage
        self.order = inner.order
        self.timeout = inner.timeout
        self.sink = sink

    def run(self, ctx: Any) -> Any:
        t0, c0 = time.perf_counter(), time.thread_time()
        try:
            return self.inner.run(ctx)
        finally:
            row = ((time.perf_counter() - t0) * 1000, (time.thread_time() - c0) * 1000)
            self.sink.setdefault(self.name, []).append(row)


class _TimedDecomposer:
    """A decomposer wrapper that records (wall ms, thread CPU ms) of every decompose() call (cache misses only)."""

    def __init__(self, inner: Any, sink: dict[str, list[tuple[float, float]]]) -> None:
        self.inner = inner
        self.name = inner.name
        self.timeout = getattr(inner, "timeout", None)
        self.sink = sink

    def decompose(self, ctx: Any) -> Any:
        t0, c0 = time.perf_counter(), time.thread_time()
        try:
            return self.inner.decompose(ctx)
        finally:
            row = ((time.perf_counter() - t0) * 1000, (time.thread_time() - c0) * 1000)
            self.sink.setdefault(f"(decomposer {self.name})", []).append(row)


def _table(title: str, samples: dict[str, list[tuple[float, float]]], n: int) -> None:
    print(f"\n{title}")
    print(f"{'stage':<33}{'calls':>6}{'CPU mean':>10}{'CPU p50':>9}{'CPU p99':>9}{'wall p50':>10}{'wall p99':>10} (ms)")
    for name, rows in sorted(samples.items(), key=lambda kv: -sum(r[1] for r in kv[1])):
        cpu, wall = [r[1] for r in rows], [r[0] for r in rows]
        print(
            f"{name:<34}{len(rows):>6}{sum(cpu) / n:>10.2f}{pct(cpu, 0.5):>9.2f}{pct(cpu, 0.99):>9.2f}"
            f"{pct(wall, 0.5):>10.2f}{pct(wall, 0.99):>10.2f}"
        )
    print("(CPU mean: the stage's CPU per check over all checks, including checks it did not run in)")


def main() -> int:
    """Entry point."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", type=Path, default=default_data(), help="the shared dev sets (default ../shared/data)")
    ap.add_argument("--limit", type=int, default=200, help="distinct queries timed (0: all)")
    ap.add_argument("--no-pin", action="store_true", help="do not pin to one core")
    args = ap.parse_args()
    from faithguard import Guard

    pinned = "not pinned (--no-pin)" if args.no_pin else pin_to_one_core()
    calls = distinct_queries(load_traffic(args.data)[0])
    if args.limit:
        calls = calls[: args.limit]
    if not calls:
        print(f"no traffic under {args.data}: pass --data (the shared dev sets)")
        return 1
    guard = Guard(judge=None)
    samples: dict[str, list[tuple[float, float]]] = {}
    guard.detectors = [_Timed(d, samples) for d in guard.detectors]  # type: ignore[misc]
    guard.decomposer_chain = [_TimedDecomposer(d, samples) for d in guard.decomposer_chain]  # type: ignore[misc]
    print(f"machine: {machine()}; CPU pinning: {pinned}")
    print(f"load at start: {load_line()}")
    print(f"traffic: {len(calls)} distinct dev queries with their real answers (study and holdout parts)")
    guard.check("Describe two ways a bakery could waste less food.", "Bake smaller batches and donate leftovers.")
    for title in ("new query (first check of each query in this process)", "cached query (the same calls again)"):
        samples.clear()
        for call in calls:
            guard.check(call.query, call.response, documents=list(call.documents) or None)
        _table(title, samples, len(calls))
    print(f"\nload at end: {load_line()}")
    guard.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
