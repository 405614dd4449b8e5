"""`faithguard eval` throughput on real traffic: one process vs a local Dask cluster, with memory.

The log is built at run time from the dev sets under ``--data`` (``benchmarks/traffic.py``: real
requests with their real answers, both split parts; nothing is copied into the repo) and written to
a temp dir. It is evaluated with the full offline guard (judge off) three ways: the local engine
(one process), ``--engine dask`` on a fresh LocalCluster (cold: cluster start-up and each worker
loading its models count), and Dask on a running cluster whose workers already built their guard
(warm). Rows/s and the speed-up over local are printed as measured, with the cores the machine has
and its load: with 2 cores shared by other work, do not expect 2x. Not pinned: Dask needs the cores.
The log holds the first call of each distinct query (``traffic.distinct_queries``: LLMBar's second
output of each instruction is left out), so each timed query is new to the process that checks it.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import threading
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from _machine import load_line, machine
from traffic import default_data, distinct_queries, load_traffic

from faithguard.evaluate.runner import EvalConfig, EvalResult, GuardSpec, run_eval


def make_log(path: Path, data: Path) -> int:
    """Write the dev-set traffic, one call per distinct query, as an eval log (id, query, response, documents);
    the row count."""
    every, missing = load_traffic(data)
    if missing:
        print(f"dev sets missing under {data}: {', '.join(missing)}")
    calls = distinct_queries(every)
    print(f"traffic: {len(every)} calls, {len(every) - len(calls)} repeat an earlier query and are left out")
    with path.open("w", encoding="utf-8") as fh:
        for call in calls:
            row = {"id": f"{call.dataset}:{call.key}", "query": call.query, "response": call.response}
            if call.documents:
                row["documents"] = list(call.documents)
            fh.write(json.dumps(row) + "\n")
    return len(calls)


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
                input=warm_log(tmp, 2 * workers * chunk),
                out=tmp / "warmup",
                guard=spec,
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


#: A request and answer of our own, for warm-up rows only (never timed, never in the dev traffic).
WARM_QUERY = "Describe two ways a small bakery could reduce food waste, in under {n} words."
WARM_ANSWER = "Bake smaller batches late in the day, and give unsold bread to a food bank before closing."


def warm_log(tmp: Path, rows: int) -> Path:
    """A log of ``rows`` warm-up calls of our own, so warming never caches a timed query."""
    path = tmp / "warm.jsonl"
    with path.open("w", encoding="utf-8") as fh:
        for i in range(rows):
            fh.write(
                json.dumps({"id": f"warm{i}", "query": WARM_QUERY.format(n=100 + i), "response": WARM_ANSWER}) + "\n"
            )
    return path


def failures(res: EvalResult) -> tuple[int, int]:
    """(rows whose check raised, rows whose report lists a detector failure or timeout) in reports.jsonl."""
    raised = failed = 0
    with res.reports_path.open(encoding="utf-8") as fh:
        for line in fh:
            entry = json.loads(line)
            if entry.get("error"):
                raised += 1
            elif (entry.get("report") or {}).get("errors"):
                failed += 1
    return raised, failed


def mib(n: float) -> str:
    return f"{n / 2**20:,.0f} MiB"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, default=default_data(), help="the shared dev sets (../shared/data)")
    parser.add_argument("--rows", type=int, default=0, help="evaluate only the first N rows (0: all)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--chunk-size", type=int, default=50)
    args = parser.parse_args()
    spec = GuardSpec(options=(("judge", None),))
    print(f"machine: {machine()}")
    print(f"CPU pinning: not pinned (Dask needs the cores); usable cores {len(os.sched_getaffinity(0))}")
    print(f"load at start: {load_line()}")
    with tempfile.TemporaryDirectory(prefix="fg-bench-eval-") as tmp:
        log = Path(tmp) / "log.jsonl"
        total = make_log(log, args.data)
        if not total:
            print(f"no traffic under {args.data}: pass --data (the shared dev sets)")
            return 1
        rows = min(args.rows, total) if args.rows else total
        print(
            f"log: {total} real calls from the dev sets, each query once, study and holdout parts "
            f"({mib(log.stat().st_size)});"
            f" evaluating {rows}"
        )
        results = []
        # Warm this process (models loaded, as the warm Dask workers are) on rows of our own.
        run_eval(EvalConfig(input=warm_log(Path(tmp), 20), out=Path(tmp) / "local-warmup", guard=spec, progress=False))
        with RssSampler() as sampler:
            local = run_eval(EvalConfig(input=log, out=Path(tmp) / "local", guard=spec, limit=rows, progress=False))
        local_rss = (sampler.samples[0], max(sampler.samples), sampler.samples[-1]) if sampler.samples else (0, 0, 0)
        results.append(("local, 1 process, warm", local))
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
        print(f"\nrows evaluated per engine: {rows:,}  (full offline guard, judge off, distinct queries: each new)")
        print(f"{'engine':<26}{'rows':>8}{'raised':>8}{'w/ detector errors':>20}{'seconds':>10}{'rows/s':>10}")
        for name, res in results:
            rate = res.processed / res.seconds if res.seconds else 0.0
            raised, failed = failures(res)
            print(f"{name:<26}{res.processed:>8,}{raised:>8,}{failed:>20,}{res.seconds:>10.1f}{rate:>10.1f}")
        base = results[0][1].processed / results[0][1].seconds
        for name, res in results[1:]:
            print(f"speed-up {name} vs local: {res.processed / res.seconds / base:.2f}x  (measured, not ideal)")
        print("(local warm: this process loaded the models on warm-up rows of our own first;")
        print(" dask cold: includes cluster start-up and each worker loading spaCy and building its guard;")
        print(" dask warm: a running cluster whose workers built their guard on warm-up rows of our own,")
        print(" as with --scheduler. The log holds each query once and no warm-up row is in it, so every timed")
        print(" query is new to the process that checks it: its query-keyed caches are cold.)")
        print("\nmemory (RSS):")
        print(f"  local process: start {mib(local_rss[0])}, peak {mib(local_rss[1])}, end {mib(local_rss[2])}")
        for pid, mem in sorted({**dask.worker_memory, **warm.worker_memory}.items()):
            print(
                f"  dask worker {pid}: after 1st chunk {mib(mem['first'])}, peak {mib(mem['peak'])} "
                f"over {mem['chunks']} chunks"
            )
        for name, res in results:
            print(
                f"summary ({name}): Perfect rate {res.summary.get('perfect_rate')}, "
                f"mean CS {res.summary.get('mean_constraint_score')}"
            )
    print(f"load at end: {load_line()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
