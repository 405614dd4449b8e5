"""`faithguard eval` throughput: one process vs a local Dask cluster, with memory per worker.

Generates a synthetic log (fixed seed, 100k rows by default) in a temp dir, then evaluates a
prefix of it (``--rows``, default 1000) with the full offline guard: once with the local engine
(one process) and once with ``--engine dask`` (LocalCluster, processes). Rows/s is printed for
both, with the time the whole log would take at that rate (an extrapolation, stated as such).
Use ``--rows 100000`` to run the full log.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from _machine import machine

from faithguard.evaluate.runner import EvalConfig, EvalResult, GuardSpec, run_eval

TOPICS = [
    "the Roman Empire",
    "photosynthesis",
    "jazz music",
    "the French Revolution",
    "volcanoes",
    "chess openings",
    "the Apollo program",
    "honey bees",
    "quantum computing",
    "the Silk Road",
    "coral reefs",
    "Gothic cathedrals",
]
PLACES = ["Paris", "Kyoto", "Peru", "Egypt", "Norway", "Chicago", "Kenya", "Brazil"]
TEMPLATES = [
    "List {n} facts about {topic} in {place}.",
    "Write a short poem about {topic} in exactly {n} stanzas.",
    "Summarize the history of {topic} in under {w} words, focusing on {place}.",
    "Explain {topic} to a child in {n} sentences. Do not mention {place}.",
    "Compare {topic} and {other} before {year}, then list {n} differences.",
]
FILLER = [
    "{topic} has a long and complicated history.",
    "Many people in {place} still study {topic} today.",
    "Experts disagree about the details.",
    "In {year} an important change happened.",
    "There are at least {n} reasons this matters.",
    "{other} is often mentioned alongside it.",
]


def make_log(path: Path, rows: int, seed: int = 7) -> None:
    """Write ``rows`` synthetic calls (query, response, some gold labels) as JSONL."""
    rnd = random.Random(seed)
    with path.open("w", encoding="utf-8") as fh:
        for i in range(rows):
            fields = {
                "topic": rnd.choice(TOPICS),
                "other": rnd.choice(TOPICS),
                "place": rnd.choice(PLACES),
                "n": rnd.randint(2, 7),
                "w": rnd.choice([50, 100, 200]),
                "year": rnd.randint(1700, 2020),
            }
            query = rnd.choice(TEMPLATES).format(**fields)
            response = " ".join(rnd.choice(FILLER).format(**fields) for _ in range(rnd.randint(2, 8)))
            row = {"id": f"s{i}", "query": query, "response": response}
            if i % 4 == 0:
                row["gold_perfect"] = rnd.random() < 0.5
            fh.write(json.dumps(row) + "\n")


class RssSampler:
    """Samples this process's RSS every ``every`` seconds in a thread."""

    def __init__(self, every: float = 0.5) -> None:
        import psutil

        self.proc = psutil.Process()
        self.samples: list[int] = []
        self.every = every
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self._stop.is_set():
            self.samples.append(self.proc.memory_info().rss)
            self._stop.wait(self.every)

    def __enter__(self) -> RssSampler:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()


def warm_dask_run(log: Path, tmp: Path, spec: GuardSpec, rows: int, workers: int, chunk: int) -> EvalResult:
    """The Dask engine on a cluster already up, whose workers already built their guard."""
    from distributed import LocalCluster

    with LocalCluster(
        n_workers=workers, processes=True, threads_per_worker=1, dashboard_address=None, silence_logs=40
    ) as cluster:
        address = cluster.scheduler_address
        run_eval(
            EvalConfig(
                input=log,
                out=tmp / "warmup",
                guard=spec,
                limit=2 * workers * chunk,
                progress=False,
                engine="dask",
                scheduler=address,
                chunk_size=chunk,
            )
        )
        return run_eval(
            EvalConfig(
                input=log,
                out=tmp / "dask-warm",
                guard=spec,
                limit=rows,
                progress=False,
                engine="dask",
                scheduler=address,
                workers=workers,
                chunk_size=chunk,
            )
        )


def mib(n: float) -> str:
    return f"{n / 2**20:,.0f} MiB"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--log-rows", type=int, default=100_000, help="rows in the generated log (default 100000)")
    parser.add_argument("--rows", type=int, default=1000, help="rows evaluated per engine (default 1000)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--chunk-size", type=int, default=100)
    args = parser.parse_args()
    rows = min(args.rows, args.log_rows)
    spec = GuardSpec(options=(("judge", None),))
    print(f"machine: {machine()}")
    with tempfile.TemporaryDirectory(prefix="fg-bench-eval-") as tmp:
        log = Path(tmp) / "log.jsonl"
        t0 = time.perf_counter()
        make_log(log, args.log_rows)
        print(f"generated {args.log_rows:,} rows ({mib(log.stat().st_size)}) in {time.perf_counter() - t0:.1f}s")
        results = []
        with RssSampler() as sampler:
            local = run_eval(EvalConfig(input=log, out=Path(tmp) / "local", guard=spec, limit=rows, progress=False))
        local_rss = (sampler.samples[0], max(sampler.samples), sampler.samples[-1]) if sampler.samples else (0, 0, 0)
        results.append(("local, 1 process", local))
        dask = run_eval(
            EvalConfig(
                input=log,
                out=Path(tmp) / "dask",
                guard=spec,
                limit=rows,
                progress=False,
                engine="dask",
                workers=args.workers,
                chunk_size=args.chunk_size,
            )
        )
        results.append((f"dask, {args.workers} workers, cold", dask))
        warm = warm_dask_run(log, Path(tmp), spec, rows, args.workers, args.chunk_size)
        results.append((f"dask, {args.workers} workers, warm", warm))
        print(f"\nrows evaluated per engine: {rows:,} of {args.log_rows:,}  (full offline guard, judge off)")
        print(f"{'engine':<22}{'rows':>8}{'seconds':>10}{'rows/s':>10}{'full log at this rate':>24}")
        for name, res in results:
            rate = res.processed / res.seconds if res.seconds else 0.0
            full = args.log_rows / rate if rate else float("inf")
            print(f"{name:<22}{res.processed:>8,}{res.seconds:>10.1f}{rate:>10.1f}{full / 60:>20.1f} min")
        base = results[0][1].processed / results[0][1].seconds
        for name, res in results[1:]:
            print(f"speed-up {name} vs local: {res.processed / res.seconds / base:.2f}x")
        print("(cold: includes cluster start-up and each worker loading spaCy and building its guard;")
        print(" warm: a running cluster whose workers already built the guard, as with --scheduler)")
        if rows < args.log_rows:
            print(
                f"NOTE: only the first {rows:,} rows ran; the 'full log' column is an extrapolation. "
                f"Run with --rows {args.log_rows} to measure the whole log."
            )
        print("\nmemory (RSS):")
        print(f"  local process: start {mib(local_rss[0])}, peak {mib(local_rss[1])}, end {mib(local_rss[2])}")
        for pid, mem in sorted({**dask.worker_memory, **warm.worker_memory}.items()):
            print(
                f"  dask worker {pid}: after 1st chunk {mib(mem['first'])}, peak {mib(mem['peak'])} "
                f"over {mem['chunks']} chunks"
            )
        print(
            f"summary (local): Perfect rate {local.summary['perfect_rate']}, "
            f"mean CS {local.summary['mean_constraint_score']}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
