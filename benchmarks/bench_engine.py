"""Latency of the offline engine: cold decomposition of a 60-word query, satisfaction of a 400-word response.

Every timed run starts with cold caches (shared parse, decomposition, response view, year intervals).

Run from the repo root: ``PYTHONPATH=src python benchmarks/bench_engine.py [--runs 60]``.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

from faithguard.detector import CallContext
from faithguard.engine import decompose as decompose_mod
from faithguard.engine import response as response_mod
from faithguard.engine import timespan as timespan_mod
from faithguard.engine.decompose import OfflineDecomposer
from faithguard.engine.verdicts import ConstraintsDetector, MisinterpretationDetector, OmissionDetector
from faithguard.nlp import clear_parse_cache, get_nlp

QUERY = (
    "List three European explorers who circumnavigated the globe before the 18th century and were not born in "
    "England or Portugal. For each of them, give the exact year the voyage ended and the full name of the ship, and "
    "then explain "
    "in two short sentences why the expedition mattered for trade between Europe and Asia during that period."
)
PARAGRAPH = (
    "Juan Sebastián Elcano completed the first circumnavigation in 1522 aboard the Victoria after Magellan died "
    "in the Philippines. The voyage proved that the oceans were connected and that the spice islands could be "
    "reached by sailing west, which changed how Spain thought about trade with Asia. Olivier van Noort, a Dutch "
    "captain, returned in 1601 after a hard voyage that cost most of his crew, yet it showed that the Dutch could "
    "challenge Iberian control of the routes. Joris van Spilbergen followed between 1614 and 1617 and brought back "
    "charts that later Dutch fleets used. "
)


def _percentiles(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    p99 = ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]
    return statistics.median(ordered), p99


def _time(fn: Callable[[], object], runs: int) -> list[float]:
    out: list[float] = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        out.append((time.perf_counter() - t0) * 1000)
    return out


def main() -> int:
    """Entry point."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=60)
    args = parser.parse_args()
    get_nlp()
    words = PARAGRAPH.split()
    response = " ".join((words * (400 // len(words) + 1))[:400])
    dec = OfflineDecomposer()
    ctx = CallContext(query=QUERY)

    def cold_decompose() -> None:
        decompose_mod._analyse.cache_clear()
        clear_parse_cache()  # the shared query parse is cached too: a cold run parses again
        dec.decompose(ctx)

    cold_decompose()
    dec_ms = _time(cold_decompose, args.runs)
    decomposition = dec.decompose(ctx)

    def satisfy() -> None:
        response_mod.view_of.cache_clear()
        timespan_mod._intervals.cache_clear()
        out = CallContext(query=QUERY, response=response, decomposition=decomposition)
        out.constraints = [c.model_copy() for c in decomposition.constraints]
        updates = ConstraintsDetector().run(out).updates
        for c in out.constraints:
            c.status = updates[c.id][0]
        OmissionDetector().run(out)
        MisinterpretationDetector().run(out)

    satisfy()
    sat_ms = _time(satisfy, args.runs)
    print(f"query: {len(QUERY.split())} words, {len(decomposition.constraints)} constraints; response: 400 words")
    print(f"{'stage':<46}{'p50 ms':>9}{'p99 ms':>9}")
    for name, samples in (
        ("decompose (cold: parse + roles + verifiers.detect)", dec_ms),
        ("satisfy + omission + misinterpretation", sat_ms),
    ):
        p50, p99 = _percentiles(samples)
        print(f"{name:<46}{p50:>9.2f}{p99:>9.2f}")
    warm = _time(lambda: dec.decompose(ctx), args.runs)
    print(f"{'decompose (warm, cached by text)':<46}{_percentiles(warm)[0]:>9.3f}{_percentiles(warm)[1]:>9.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
