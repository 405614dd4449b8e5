"""Latency of the offline engine: cold decomposition of a 60-word query, satisfaction of a 400-word response.

Every line names its cache state. Decompose: each run a new request (the shared parse cache and the
text-keyed memos cleared: decomposition, reading, ``verifiers.detect``, sentence breaks, refusal cues,
language); word-keyed memos (WordNet, word forms) and loaded models and tables stay warm, as in a
process that has served other requests (the language-id model is loaded first, as a guard's warm-up
does). Satisfy: each run a new response (response view, year intervals, language and the parse cache
cleared) to the same request, whose decomposition memos stay warm as after its decomposition. Wall and
CPU (``time.process_time``) milliseconds: the machine may be shared.

Run from the repo root: ``PYTHONPATH=src python benchmarks/bench_engine.py [--runs 60]``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections.abc import Callable
from typing import Any

from faithguard.detector import CallContext
from faithguard.engine import content as content_mod
from faithguard.engine import decompose as decompose_mod
from faithguard.engine import response as response_mod
from faithguard.engine import timespan as timespan_mod
from faithguard.engine.decompose import OfflineDecomposer
from faithguard.engine.verdicts import ConstraintsDetector, MisinterpretationDetector, OmissionDetector
from faithguard.lexical import langid
from faithguard.nlp import clear_parse_cache, get_nlp
from faithguard.verifiers import detect_builtin, refusal
from faithguard.verifiers import spec as spec_mod

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


def _time(
    fn: Callable[[], object], runs: int, setup: Callable[[], object] = lambda: None
) -> tuple[list[float], list[float]]:
    """Wall and CPU milliseconds of ``runs`` calls of ``fn``, each after an untimed ``setup``."""
    wall: list[float] = []
    cpu: list[float] = []
    for _ in range(runs):
        setup()
        t0, c0 = time.perf_counter(), time.process_time()
        fn()
        wall.append((time.perf_counter() - t0) * 1000)
        cpu.append((time.process_time() - c0) * 1000)
    return wall, cpu


def language_memos() -> list[Any]:
    """The language model's text-keyed memo: ``engine.content._language_of`` at 27007e8,
    ``lexical.langid.model_ranking`` once langid shares the model (in progress on 2026-11-24)."""
    found = (getattr(content_mod, "_language_of", None), getattr(langid, "model_ranking", None))
    return [memo for memo in found if memo is not None]


def forget_query() -> None:
    """A new request: clear the shared parse cache and every memo keyed by the query's text."""
    for memo in (
        decompose_mod._analyse,
        decompose_mod._reading,
        detect_builtin._detect,
        spec_mod._sentence_breaks,
        refusal._may_refuse,
        refusal._tokens,
        langid.identify,
        *language_memos(),
    ):
        memo.cache_clear()
    clear_parse_cache()


def forget_response() -> None:
    """A new response to the same request: clear the response's memos and the parse cache."""
    response_mod.view_of.cache_clear()
    timespan_mod._intervals.cache_clear()
    for memo in language_memos():
        memo.cache_clear()
    clear_parse_cache()


def main() -> int:
    """Entry point."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=60)
    args = parser.parse_args()
    get_nlp()
    content_mod.load_language_id()  # as a guard's warm-up does: no timed run shares the CPU with its loading
    words = PARAGRAPH.split()
    response = " ".join((words * (400 // len(words) + 1))[:400])
    dec = OfflineDecomposer()
    ctx = CallContext(query=QUERY)

    dec.decompose(ctx)
    dec_ms = _time(lambda: dec.decompose(ctx), args.runs, setup=forget_query)
    decomposition = dec.decompose(ctx)

    def satisfy() -> None:
        out = CallContext(query=QUERY, response=response, decomposition=decomposition)
        out.constraints = [c.model_copy() for c in decomposition.constraints]
        updates = ConstraintsDetector().run(out).updates
        for c in out.constraints:
            c.status = updates[c.id][0]
        OmissionDetector().run(out)
        MisinterpretationDetector().run(out)

    satisfy()
    sat_ms = _time(satisfy, args.runs, setup=forget_response)
    warm = _time(lambda: dec.decompose(ctx), args.runs)
    print(f"query: {len(QUERY.split())} words, {len(decomposition.constraints)} constraints; response: 400 words")
    print(f"{args.runs} runs per line, load average {os.getloadavg()[0]:.2f}")
    print(f"{'stage (cache state)':<72}{'p50 ms':>9}{'p99 ms':>9}{'p50 CPU ms':>12}")
    for name, (wall, cpu) in (
        ("decompose: new request, parse cache cold (parse + roles + detect)", dec_ms),
        ("satisfy + omission + misinterpretation: new response, parse cold", sat_ms),
        ("decompose: same request again (memo)", warm),
    ):
        p50, p99 = _percentiles(wall)
        print(f"{name:<72}{p50:>9.3f}{p99:>9.3f}{statistics.median(cpu):>12.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
