"""Where the CPU of an offline ``Guard.check`` goes, by sampling (issue 16).

cProfile charges its own cost to every Python call, so it inflates pure-Python code several times against
the C inside spaCy and nltk and points at the wrong places. This samples instead: a CPU-time timer
(``ITIMER_PROF``) interrupts the check every 0.5 ms of process CPU and records the Python stack. The
detectors normally run in worker threads, which a signal handler does not see, so here every stage runs in
the calling thread (the runner's own fallback for a shut-down pool: the same code, no thread hand-off).

Traffic as in ``bench_check.py`` (distinct dev queries with their real answers, both split parts). Cache
state: ``--pass new`` times the first check of each query (models loaded and warmed first); ``--pass
rotation`` checks every call once untimed, then samples the second round (queries cached, answers evicted
from the smaller answer caches). Prints ms per check for the functions holding the most samples, inclusive,
and for the innermost faithguard function of each sample (its own time plus the libraries it calls).
No dev text is printed.
"""

from __future__ import annotations

import argparse
import collections
import signal
import sys
import time
from pathlib import Path
from types import FrameType

sys.path.insert(0, str(Path(__file__).parent))
from _machine import load_line, machine, pin_to_one_core
from bench_check import build_guard
from traffic import default_data, distinct_queries, load_traffic

Stack = list[tuple[str, str]]


def _where(filename: str) -> str:
    if "site-packages/" in filename:
        return filename.split("site-packages/", 1)[1]
    if "/faithguard/" in filename:
        return "faithguard/" + filename.rsplit("/faithguard/", 1)[1]
    return filename.rsplit("/", 1)[-1]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", type=Path, default=default_data(), help="the shared dev sets (default ../shared/data)")
    ap.add_argument("--limit", type=int, default=0, help="sample only the first N distinct queries (0: all)")
    ap.add_argument("--pass", dest="which", choices=("new", "rotation"), default="new", help="cache state")
    ap.add_argument("--top", type=int, default=25, help="rows per table")
    ap.add_argument(
        "--tail", type=float, default=0.0, help="keep only the slowest fraction of checks (0.05: the p95 tail; 0: all)"
    )
    args = ap.parse_args()
    print(f"machine: {machine()}; {pin_to_one_core()}")
    print(f"load at start: {load_line()}")
    calls_all, _ = load_traffic(args.data)
    calls = distinct_queries(calls_all)
    if args.limit:
        calls = calls[: args.limit]
    if not calls:
        print(f"no traffic under {args.data}: pass --data (the shared dev sets)")
        return 1

    from faithguard import runner

    def inline(self: object, fn: object) -> object:
        raise RuntimeError("profiling: run in the calling thread")

    runner.IsolationPool.submit = inline  # type: ignore[method-assign,assignment]
    guard = build_guard()
    if args.which == "rotation":
        for call in calls:
            guard.check(call.query, call.response, documents=list(call.documents) or None)

    current: list[Stack] = []

    def record(signum: int, frame: FrameType | None) -> None:
        stack: Stack = []
        while frame is not None:
            stack.append((_where(frame.f_code.co_filename), frame.f_code.co_name))
            frame = frame.f_back
        current.append(stack)

    per_call: list[tuple[float, list[Stack]]] = []
    signal.signal(signal.SIGPROF, record)
    signal.setitimer(signal.ITIMER_PROF, 0.0005, 0.0005)
    for call in calls:
        c0 = time.process_time()
        guard.check(call.query, call.response, documents=list(call.documents) or None)
        per_call.append((time.process_time() - c0, list(current)))
        current.clear()
    signal.setitimer(signal.ITIMER_PROF, 0, 0)
    guard.close()
    kept = sorted(per_call, key=lambda row: row[0], reverse=True)
    if args.tail:
        kept = kept[: max(1, round(len(kept) * args.tail))]
    samples = [stack for _, stacks in kept for stack in stacks]
    cpu = sum(seconds for seconds, _ in kept)
    if not samples:
        print("no samples")
        return 1
    per_sample = cpu * 1000 / len(kept) / len(samples)
    which = f"{args.which}, slowest {len(kept)} of {len(calls)}" if args.tail else args.which
    parts = collections.Counter(call.part for call in calls)
    split = f"split: both parts, study {parts['study']} + holdout {parts['holdout']} distinct queries"
    state = "first check of each query" if args.which == "new" else "second round: queries cached"
    ms = cpu * 1000 / len(kept)
    print(f"{which} ({state}; {split}): {len(kept)} checks, CPU {ms:.1f} ms/check, {len(samples)} samples")
    inclusive: collections.Counter[str] = collections.Counter()
    innermost: collections.Counter[str] = collections.Counter()
    for stack in samples:
        for key in {f"{f}:{n}" for f, n in stack}:
            inclusive[key] += 1
        innermost[next((f"{f}:{n}" for f, n in stack if f.startswith("faithguard/")), "(outside faithguard)")] += 1
    print("\nms/check, inclusive:")
    for key, n in inclusive.most_common(args.top):
        print(f"  {n * per_sample:7.2f}  {key}")
    print("\nms/check, by innermost faithguard function (with the libraries it calls):")
    for key, n in innermost.most_common(args.top):
        print(f"  {n * per_sample:7.2f}  {key}")
    print(f"\nload at end: {load_line()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
