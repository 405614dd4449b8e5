"""Speed of the term checks.

- input checks (unknown_terms, plus the missing_content detector when present) on a
  60-word query with three 200-word documents: p50/p99 per call (target p50 <= 2 ms), wall and CPU
  (``time.process_time``), each line naming its cache state: a new request (new detectors, the memos
  keyed by the request's text or terms cleared) with the shared parse cache cold or warm (warm as when
  the engine parsed the request first), and the same request again (the detectors' memos). Word-keyed
  memos (word frequencies, a word's WordNet classes) stay warm, as in a process that served other requests;
- ``kb build`` time and file size on synthetic titles written to a temp dir
  (default 2,000,000 titles, extrapolated linearly to 10 million; ``--titles 10000000``
  runs the full size);
- index lookup latency p50/p99 in microseconds (target p50 <= 50 us).
The unknown_terms detector runs with the default sources (context, WordNet when installed, lexicon).

Run: PYTHONPATH=src python benchmarks/bench_terms.py [--titles N] [--kb dbpedia.idx [--skip-build]]
(--kb times a real index: open time and memory, per-source lookup p50 in wall and CPU time; the 12 probes
repeat each round, so the WordNet source's term memo is cleared before each round and each line says which
memo stays warm.)
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from faithguard.detector import CallContext
from faithguard.nlp import clear_parse_cache
from faithguard.terms.detectors import UnknownTermsDetector
from faithguard.terms.kbindex import TermIndex, build_index
from faithguard.terms.sources import IndexSource, WordNetSource, default_sources

QUERY = (
    "Using the three maintenance reports attached below, please explain in plain language how the Harbour Tide "
    "Sensor Network changes the way port authorities in northern Europe schedule dredging work, compare its cost "
    "with traditional sonar surveys, and list two risks that the maintenance teams mention most often, keeping the "
    "whole answer under two hundred words and citing the report for each claim please."
)
WORDS = [
    "port",
    "authority",
    "dredging",
    "sonar",
    "survey",
    "sediment",
    "tide",
    "gauge",
    "sensor",
    "network",
    "maintenance",
    "schedule",
    "budget",
    "harbour",
    "vessel",
    "draught",
    "channel",
    "depth",
    "report",
    "season",
    "storm",
    "buoy",
    "calibration",
    "data",
    "cost",
    "contractor",
    "risk",
    "team",
    "crew",
    "winter",
]


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def document(rng: random.Random, n: int = 200) -> str:
    words = [rng.choice(WORDS) for _ in range(n)]
    return " ".join(words[i] if i % 12 else words[i].capitalize() for i in range(n)) + "."


def _missing_detector() -> Any | None:
    """A new missing_content detector (an empty result memo), or None when it cannot be imported."""
    try:
        from faithguard.inputs.missing import MissingContentDetector
    except Exception:  # noqa: BLE001 - measured without it, and said so
        return None
    return MissingContentDetector()


def input_detectors(sources: list[Any]) -> list[Any]:
    """New input detectors over the process's sources: a new request to each."""
    missing = _missing_detector()
    return ([missing] if missing is not None else []) + [UnknownTermsDetector(sources)]


def forget_request() -> None:
    """Clear the memos keyed by a request's text or terms (word-keyed memos stay warm)."""
    from faithguard.lexical import langid
    from faithguard.terms import extract

    extract._candidates_of.cache_clear()
    langid.identify.cache_clear()
    from faithguard.terms.acceptance import _run_starts
    from faithguard.terms.normalize import _text_forms

    _text_forms.cache_clear()  # text-keyed memos added in session 18
    _run_starts.cache_clear()
    if hasattr(langid, "model_ranking"):  # the language model's memo, once langid shares it (in progress 2026-11-24)
        langid.model_ranking.cache_clear()
    WordNetSource._listed.cache_clear()
    try:
        from faithguard.inputs import discourse, missing, references, syntax
    except Exception:  # noqa: BLE001 - no missing_content detector, nothing of it to clear
        return
    syntax._memo.clear()
    for memo in (
        missing._placeholder_like,
        discourse._word_index,
        discourse._sentences_of,
        discourse._introductions,
        references._compares,
    ):
        memo.cache_clear()


def _time_input(
    docs: list[str], sources: list[Any], runs: int, *, parse_warm: bool, memo_warm: bool
) -> tuple[dict[str, list[float]], list[float], list[float]]:
    """Per-detector wall ms, all-checks wall ms and all-checks CPU ms of ``runs`` input checks of one request."""
    dets = input_detectors(sources)
    for d in dets:  # the request once: its parse cached, the memos filled
        d.run(CallContext(query=QUERY, documents=docs))
    per: dict[str, list[float]] = {d.name: [] for d in dets}
    total: list[float] = []
    cpu: list[float] = []
    for _ in range(runs):
        if not memo_warm:
            dets = input_detectors(sources)
            forget_request()
        if not parse_warm:
            clear_parse_cache()
        ctx = CallContext(query=QUERY, documents=docs)
        t0, c0 = time.perf_counter(), time.process_time()
        for d in dets:
            t = time.perf_counter()
            ctx.findings.update(d.run(ctx).findings)
            per[d.name].append((time.perf_counter() - t) * 1000)
        total.append((time.perf_counter() - t0) * 1000)
        cpu.append((time.process_time() - c0) * 1000)
    return per, total, cpu


def bench_input(runs: int) -> None:
    rng = random.Random(7)
    docs = [document(rng) for _ in range(3)]
    sources: list[Any] = default_sources()  # process-level objects, as a guard's
    names = [d.name for d in input_detectors(sources)]
    if "missing_content" not in names:
        print("(missing_content detector unavailable; timing unknown_terms alone)")
    print(
        f"query {len(QUERY.split())} words, 3 documents x {len(docs[0].split())} words; detectors: "
        + ", ".join(names)
        + f"; load average {os.getloadavg()[0]:.2f}"
    )
    for label, parse_warm, memo_warm in (
        ("new request, parse cache cold", False, False),
        ("new request, parse warm", True, False),
        ("same request again (memo)", True, True),
    ):
        n = runs if parse_warm else max(runs // 4, 1)
        per, total, cpu = _time_input(docs, sources, n, parse_warm=parse_warm, memo_warm=memo_warm)
        print(f" {label} ({n} runs):")
        for name, lat in per.items():
            print(f"  {name:<22} p50 {pct(lat, 0.5):6.2f} ms   p99 {pct(lat, 0.99):6.2f} ms")
        print(
            f"  {'input checks together':<22} p50 {pct(total, 0.5):6.2f} ms   p99 {pct(total, 0.99):6.2f} ms"
            f"   p50 CPU {pct(cpu, 0.5):6.2f} ms" + ("" if memo_warm else "  [target p50 <= 2 ms]")
        )


SYLLABLES = [
    "ka",
    "lo",
    "mi",
    "ra",
    "te",
    "su",
    "vo",
    "ne",
    "di",
    "pa",
    "ro",
    "ze",
    "li",
    "ma",
    "to",
    "fu",
    "ga",
    "be",
    "ni",
    "sa",
]


def synthetic_titles(path: Path, n: int, seed: int = 11) -> None:
    rng = random.Random(seed)
    with path.open("w", encoding="utf-8") as fh:
        for i in range(n):
            words = [
                "".join(rng.choices(SYLLABLES, k=rng.randint(2, 4))).capitalize() for _ in range(rng.randint(1, 4))
            ]
            suffix = f" ({rng.choice(SYLLABLES)}{i % 97})" if i % 10 == 0 else ""
            fh.write("_".join(words) + suffix + "\n")


def bench_kb(n: int, lookups: int) -> None:
    with tempfile.TemporaryDirectory(prefix="fgbench-") as tmp:
        titles = Path(tmp) / "titles.txt"
        t = time.perf_counter()
        synthetic_titles(titles, n)
        gen = time.perf_counter() - t
        t = time.perf_counter()
        stats = build_index(titles, Path(tmp) / "kb.idx")
        took = time.perf_counter() - t
        print(f"kb build: {n:,} synthetic titles ({titles.stat().st_size / 1e6:.0f} MB text, generated in {gen:.0f} s)")
        print(f"  built in {took:.1f} s, {stats.keys:,} keys, index {stats.size_bytes / 1e6:.1f} MB")
        if n < 10_000_000:
            factor = 10_000_000 / n
            print(
                f"  extrapolated to 10M titles (linear): ~{took * factor:.0f} s, "
                f"~{stats.size_bytes * factor / 1e6:.0f} MB"
            )
        rng = random.Random(3)
        sample = []
        with titles.open(encoding="utf-8") as fh:
            for i, line in enumerate(fh):
                if i % max(1, n // lookups) == 0:
                    sample.append(line.strip().replace("_", " "))
        misses = ["Quantum Loop Weaving", "information cascade flux", "Nano-Sync Fusion Technology"]
        probes = [s if k % 2 else rng.choice(misses) + f" {k}" for k, s in enumerate(sample)]
        with TermIndex(Path(tmp) / "kb.idx") as index:
            lat: list[float] = []
            hits = 0
            for term in probes:
                t0 = time.perf_counter_ns()
                hits += term in index
                lat.append((time.perf_counter_ns() - t0) / 1000)
            src = IndexSource(Path(tmp) / "kb.idx")
            ctx = CallContext(query="q")
            src_lat = []
            for term in probes[:2000]:
                t0 = time.perf_counter_ns()
                src.lookup(term, ctx)
                src_lat.append((time.perf_counter_ns() - t0) / 1000)
        print(
            f"  lookup ({len(probes):,} probes, {hits:,} hits): p50 {pct(lat, 0.5):.1f} us  p99 {pct(lat, 0.99):.1f} us"
            f"  mean {statistics.mean(lat):.1f} us  [<= 20 us]"
        )
        print(f"  IndexSource.lookup: p50 {pct(src_lat, 0.5):.1f} us  p99 {pct(src_lat, 0.99):.1f} us")


#: Probe phrases for a real index (written here: common names, descriptions and made-up phrases).
PROBES = [
    "black hole",
    "photosynthesis",
    "Treaty of Versailles",
    "machine learning",
    "bungee jumping",
    "Damgård–Jurik cryptosystem",
    "information cascade flux",
    "velvet-fold fermentation",
    "quantum loop weaving",
    "proper road trip",
    "Meridian Echo Protocol",
    "Calvin cycle",
]


#: The cache state of each source's lookups over the repeated probes.
WARM = {
    "index": "no memo; index pages warm after a first touch",
    "lexicon": "word-frequency memo warm: the same probe words each round",
    "wordnet": "term memo cleared each round; WordNet's tables warm",
}


def bench_real_index(path: Path, rounds: int) -> None:
    """Open a real index (e.g. the DBpedia one) and time lookups: wall and CPU (thread) time."""
    import resource

    from faithguard.terms.sources import LexiconSource

    rss0 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    w0, c0 = time.perf_counter(), time.thread_time()
    src = IndexSource(path)
    load_wall, load_cpu = (time.perf_counter() - w0) * 1000, (time.thread_time() - c0) * 1000
    rss1 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(f"real index {path} ({path.stat().st_size / 1e6:.1f} MB), load average {os.getloadavg()[0]:.2f}:")
    grown = (rss1 - rss0) / 1024
    print(f"  open: {load_wall:.2f} ms wall, {load_cpu:.2f} ms CPU, max RSS +{grown:.1f} MB (memory-mapped)")
    ctx = CallContext(query="q")
    sources: list[Any] = [src, LexiconSource()]
    wordnet = WordNetSource()
    if wordnet.enabled:
        sources.append(wordnet)
    for source in sources:
        for term in PROBES:  # first touch: pages and caches
            source.lookup(term, ctx)
        wall: list[float] = []
        cpu: list[float] = []
        for _ in range(rounds):
            WordNetSource._listed.cache_clear()  # the same 12 probes each round: each a new term to the memo
            for term in PROBES:
                w, c = time.perf_counter_ns(), time.thread_time_ns()
                source.lookup(term, ctx)
                cpu.append((time.thread_time_ns() - c) / 1000)
                wall.append((time.perf_counter_ns() - w) / 1000)
        print(
            f"  {source.name:<8} lookup p50 {pct(wall, 0.5):6.1f} us wall ({pct(cpu, 0.5):6.1f} us CPU)  "
            f"p99 {pct(wall, 0.99):7.1f} us wall  [target p50 <= 50 us]  ({WARM[source.name]})"
        )
    rss2 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(f"  max RSS after lookups +{(rss2 - rss0) / 1024:.1f} MB over the start")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--titles", type=int, default=2_000_000)
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--lookups", type=int, default=20_000)
    parser.add_argument("--kb", type=Path, default=None, help="a real index (e.g. DBpedia) to time as well")
    parser.add_argument("--skip-build", action="store_true", help="skip the synthetic build (use with --kb)")
    args = parser.parse_args(argv)
    bench_input(args.runs)
    if args.kb is not None:
        bench_real_index(args.kb, max(1, args.lookups // len(PROBES) // 10))
    if not args.skip_build:
        bench_kb(args.titles, args.lookups)
    return 0


if __name__ == "__main__":
    sys.exit(main())
