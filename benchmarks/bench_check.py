"""Offline ``Guard.check`` speed on real, varied traffic (issue 16 targets in brackets).

Traffic: the dev sets under ``--data`` (``benchmarks/traffic.py``): distinct real requests with their
real answers, both split parts, each line naming its part. Every line states its cache state:

- *new query*: the first check of each distinct query in this process (decomposition and every
  query-keyed cache cold for it; models loaded and warmed on a query of our own beforehand);
- *cached query, rotation*: the same calls re-checked in the same order after the first pass: the
  decomposition cache (2,048) holds every query, but a cache smaller than the number of distinct
  calls (the response view cache holds 64) has evicted the answer, as with a new answer to a known query;
- *cached query+answer, back-to-back*: the same call checked twice in a row, the second timed (the
  hottest case, every cache holding the call).

Wall time and process CPU time (all threads of this process) are both printed: the machine may be
shared, and CPU time is less sensitive to other load. The process pins itself to one core when the OS
allows it (``sched_setaffinity``, like ``taskset -c N``), and says so; ``--no-pin`` turns it off.

The pathological parts run in child processes with a deadline, because a check that holds the GIL
cannot be interrupted from inside: cost vs answer length up to 100k words (slope and growth exponent),
a 1M-character answer of one repeated letter, and starvation (a plugin detector that never returns,
then 20 ordinary checks each timed against its own normal time).
"""

from __future__ import annotations

import argparse
import gc
import itertools
import json
import os
import queue
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))
from _machine import load_line, machine, pct, pin_to_one_core
from traffic import Call, default_data, distinct_queries, load_traffic, long_answer, summary

#: Request and answer of our own, used only to load and warm the models (never timed).
WARM_QUERY = "Describe two ways a small bakery could reduce food waste, in under 120 words."
WARM_ANSWER = (
    "First, the bakery can bake smaller batches late in the day and track which loaves sell out. "
    "Second, it can sell unsold bread at a discount before closing or give it to a local food bank."
)
LENGTHS = (1_000, 2_000, 5_000, 10_000, 20_000, 50_000, 100_000)
HANG_TRIGGER = "zq-never-returns-zq"


# -- measuring ------------------------------------------------------------------------------------


def timed_check(guard: Any, call: Call) -> tuple[float, float, Any]:
    """(wall ms, process CPU ms, report) of one check."""
    c0, t0 = time.process_time(), time.perf_counter()
    report = guard.check(call.query, call.response, documents=list(call.documents) or None)
    return (time.perf_counter() - t0) * 1000, (time.process_time() - c0) * 1000, report


class GcClock:
    """Time spent in Python's cyclic garbage collector (``gc.callbacks``), in any thread of this process: a
    collection of the oldest generation over a heap of parses and caches can take tens of ms, and it is charged to
    whichever check happens to trigger it."""

    def __init__(self) -> None:
        self.total_ms = 0.0
        self.longest_ms = 0.0
        self.collections = [0, 0, 0]
        self._started: float | None = None

    def __call__(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._started = time.perf_counter()
        elif self._started is not None:
            took = (time.perf_counter() - self._started) * 1000
            self.total_ms += took
            self.longest_ms = max(self.longest_ms, took)
            self.collections[min(int(info.get("generation", 0)), 2)] += 1
            self._started = None

    def reset(self) -> None:
        self.total_ms, self.longest_ms, self.collections = 0.0, 0.0, [0, 0, 0]


def lru_caches() -> list[Any]:
    """Every functools.lru_cache at module level in the faithguard modules imported so far."""
    found = []
    for name, module in list(sys.modules.items()):
        if not name.startswith("faithguard") or module is None:
            continue
        for value in vars(module).values():
            if callable(getattr(value, "cache_info", None)) and getattr(value, "__module__", None) == name:
                found.append(value)
    return found


def cache_counts(caches: Sequence[Any]) -> tuple[int, int]:
    hits = misses = 0
    for fn in caches:
        info = fn.cache_info()
        hits, misses = hits + info.hits, misses + info.misses
    return hits, misses


def settle(limit: float = 60.0) -> float:
    """Seconds until this process stops burning CPU (abandoned work finishing); ``limit`` if it never does."""
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < limit:
        start, c0 = time.perf_counter(), time.process_time()
        time.sleep(0.25)
        if time.process_time() - c0 < 0.025:  # idle for a whole sample: busy until that sample began
            return start - t0
    return limit


def errors_of(report: Any) -> list[str]:
    return [f"{e.detector}:{e.error_type}" for e in report.errors]


def stats_line(label: str, part: str, rows: list[tuple[float, float, int]], target: str) -> str:
    wall = [r[0] for r in rows]
    cpu = [r[1] for r in rows]
    errs = sum(1 for r in rows if r[2])
    return (
        f"{label:<34} part={part:<13} n={len(rows):<4} wall p50 {pct(wall, 0.5):7.2f} ms  p99 {pct(wall, 0.99):8.2f} ms"
        f"  | CPU p50 {pct(cpu, 0.5):7.2f} ms  p99 {pct(cpu, 0.99):8.2f} ms  | checks with errors {errs}  {target}"
    )


def per_part(label: str, calls: Sequence[Call], rows: list[tuple[float, float, int]], target: str) -> None:
    for part in ("study", "holdout", "study+holdout"):
        chosen = [r for c, r in zip(calls, rows, strict=True) if part == "study+holdout" or c.part == part]
        if chosen:
            print(stats_line(label, part, chosen, target), flush=True)


def build_guard(**kw: Any) -> Any:
    from faithguard import Guard

    guard = Guard(judge=None, **kw)
    warm = getattr(guard, "warmup", None)
    if callable(warm):
        warm()
    for _ in range(3):
        guard.check(WARM_QUERY, WARM_ANSWER)
    return guard


# -- child processes (pathological cases) ---------------------------------------------------------


def emit(**row: Any) -> None:
    print(json.dumps(row), flush=True)


def child_scaling(data: Path, lengths: Sequence[int]) -> None:
    calls, _ = load_traffic(data)
    query = calls[0]
    guard = build_guard()
    emit(kind="info", query=f"{query.dataset}:{query.key}", query_words=len(query.query.split()))
    guard.check(query.query, query.response)  # the query's decomposition is cached for every length
    for words in lengths:
        runs = []
        for rep in range(3):  # the median of three different answers (a repeated one would hit caches)
            answer = long_answer(calls[rep * 7 :], words)
            c0, t0 = time.process_time(), time.perf_counter()
            report = guard.check(query.query, answer)
            judged = f"{report.judged}/{report.total} judged, score {report.constraint_score}, band {report.band}"
            runs.append((time.process_time() - c0, time.perf_counter() - t0, settle(), errors_of(report), judged))
        cpu, wall, after, errors, judged = sorted(runs)[1]
        emit(
            kind="length",
            words=words,
            chars=len(answer),
            wall=wall,
            cpu=cpu,
            errors=errors,
            settle=after,
            judged=judged,
        )
    os._exit(0)


def child_letter(data: Path, chars: int) -> None:
    calls, _ = load_traffic(data)
    query = calls[0]
    guard = build_guard()
    emit(kind="info", query=f"{query.dataset}:{query.key}")
    answer = "a" * chars
    c0, t0 = time.process_time(), time.perf_counter()
    try:
        report = guard.check(query.query, answer)
        outcome = getattr(report, "outcome", None)
        result: dict[str, Any] = {
            "errors": errors_of(report),
            "outcome": outcome,
            "score": report.constraint_score,
            "band": report.band,
        }
    except Exception as exc:  # noqa: BLE001 - a refusal (e.g. InputError) is a result to print
        result = {"raised": f"{type(exc).__name__}"}
    emit(kind="letter", wall=time.perf_counter() - t0, cpu=time.process_time() - c0, **result)
    emit(kind="settled", settle=settle())
    os._exit(0)


#: Requests for the request-size part: real text joined to this many words, then runs of one character (the
#: tokenizer's worst case, a colon, just under the parse's character limit; a letter and a sentence stop at 990,000).
REQUEST_WORDS = (1_000, 3_000, 5_000, 20_000)
REQUEST_RUNS = ((":", 19_900), ("a", 990_000), (". ", 495_000))


def child_requests(data: Path) -> None:
    calls, _ = load_traffic(data)
    guard = build_guard()
    answer = "It is a summary of the text. It has three sentences. That is all."
    requests = [(f"{words:,} words of joined dev answers", long_answer(calls, words)) for words in REQUEST_WORDS]
    requests += [(f"{len(ch) * n:,} characters of {ch!r}", ch * n) for ch, n in REQUEST_RUNS]
    for label, text in requests:
        query = "Summarize the following text in three sentences.\n\n" + text
        c0, t0 = time.process_time(), time.perf_counter()
        report = guard.check(query, answer)
        wall, cpu = time.perf_counter() - t0, time.process_time() - c0
        emit(
            kind="request",
            label=label,
            chars=len(query),
            wall=wall,
            cpu=cpu,
            outcome=report.outcome,
            skipped=len(report.skipped),
            errors=errors_of(report),
            settle=settle(),
        )
    os._exit(0)


def report_requests(data: Path, deadline: float) -> None:
    print(
        f"\n-- cost vs request length (child process, deadline {deadline:.0f} s; each request new, a short answer) --"
    )

    def on_row(row: dict[str, Any]) -> None:
        print(
            f"request {row['label']:>38} ({row['chars']:>9,} chars): wall {row['wall'] * 1000:8.1f} ms"
            f"  CPU {row['cpu'] * 1000:8.1f} ms  outcome {row['outcome']}, {row['skipped']} checks declined it"
            f" (too long to read), errors {row['errors'] or 'none'}, CPU still busy {row['settle']:.1f} s after",
            flush=True,
        )

    if not run_child(["--child", "requests", "--data", str(data)], deadline, on_row):
        print("requests: the child did not finish within the deadline (killed)")


class NeverReturns:
    """A plugin detector that ignores its budget and never returns on requests carrying the trigger."""

    name = "never_returns"
    stage = "output"
    order = 150
    timeout: float | None = 0.5

    def __init__(self, spin: bool) -> None:
        self.spin = spin

    def run(self, ctx: Any) -> Any:
        from faithguard import DetectorResult

        if HANG_TRIGGER in ctx.query:
            if self.spin:
                n = 0
                while True:  # burns CPU (the GIL is released between bytecodes, as in pure-Python loops)
                    n += 1
            threading.Event().wait()  # holds its worker thread forever
        return DetectorResult()


def child_starvation(data: Path, spin: bool, hangs: int, ordinary: int) -> None:
    calls = distinct_queries(load_traffic(data)[0])[:ordinary]
    guard = build_guard(extra_detectors=[NeverReturns(spin)])
    emit(kind="info", max_workers=guard._pool.max_workers, hangs=hangs, spin=spin)
    for call in calls:  # first sight, so the normal time below is the cached one
        timed_check(guard, call)
    normal = []
    for call in calls:
        normal.append(statistics.median(timed_check(guard, call)[0] for _ in range(3)))
    emit(kind="normal", ms=normal)
    for i in range(hangs):
        t0 = time.perf_counter()
        report = guard.check(f"{HANG_TRIGGER} request {i}: list two rivers.", "The Rhine and the Danube.")
        emit(kind="hang", i=i, wall=time.perf_counter() - t0, errors=errors_of(report))
    for call, base in zip(calls, normal, strict=True):
        wall, _, report = timed_check(guard, call)
        emit(kind="after", ms=wall, normal=base, errors=errors_of(report))
    os._exit(0)


def run_child(args: list[str], deadline: float, on_row: Callable[[dict[str, Any]], None]) -> bool:
    """Run this script as a child; hand each JSON row to ``on_row``. False when killed at the deadline."""
    cmd = [sys.executable, __file__, *args]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    rows: queue.Queue[str | None] = queue.Queue()

    def pump() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            rows.put(line)
        rows.put(None)

    threading.Thread(target=pump, daemon=True).start()
    end = time.monotonic() + deadline
    while True:
        try:
            line = rows.get(timeout=max(0.0, end - time.monotonic()))
        except queue.Empty:
            proc.kill()
            proc.wait()
            return False
        if line is None:
            proc.wait()
            return True
        if line.startswith("{"):
            on_row(json.loads(line))


# -- the parent's report --------------------------------------------------------------------------


def fit(points: list[tuple[float, float]]) -> tuple[float, float]:
    """Least-squares (slope, intercept) of y on x."""
    n = len(points)
    mx = sum(p[0] for p in points) / n
    my = sum(p[1] for p in points) / n
    sxx = sum((p[0] - mx) ** 2 for p in points)
    slope = sum((p[0] - mx) * (p[1] - my) for p in points) / sxx if sxx else 0.0
    return slope, my - slope * mx


def report_scaling(data: Path, lengths: Sequence[int], deadline: float) -> None:
    print(f"\n-- cost vs answer length (child process, deadline {deadline:.0f} s, real answers joined) --")
    rows: list[dict[str, Any]] = []

    def on_row(row: dict[str, Any]) -> None:
        if row["kind"] == "info":
            print(
                f"query: {row['query']} ({row['query_words']} words); cache state: query decomposition cached"
                " (checked once with its own answer first), each answer new"
            )
        else:
            rows.append(row)
            print(
                f"answer {row['words']:>7,} words ({row['chars']:>9,} chars), median of 3:"
                f" wall {row['wall'] * 1000:9.1f} ms"
                f"  CPU {row['cpu'] * 1000:9.1f} ms  ({row['cpu'] / row['words'] * 1e6:6.1f} us CPU/word)"
                f"  errors {row['errors'] or 'none'}  CPU still busy {row['settle']:.1f} s after return"
                f"; {row['judged']}",
                flush=True,
            )

    done = run_child(
        ["--child", "scaling", "--data", str(data), "--lengths", ",".join(map(str, lengths))], deadline, on_row
    )
    finished = {r["words"] for r in rows}
    for words in lengths:
        if words not in finished:
            print(f"answer {words:>7,} words: did not finish within the deadline (child killed): undetermined")
    clean = [(float(r["words"]), r["cpu"] * 1000) for r in rows if not r["errors"]]
    if len(clean) >= 3:
        slope, intercept = fit(clean)
        print(
            f"slope (CPU, least squares over {len(clean)} lengths without errors): {slope * 1000:.1f} us/word,"
            f" intercept {intercept:.1f} ms  [linear up to 100k words]"
        )
        # Linearity: the marginal cost per added word must not grow with the length (it would for n^2).
        marginal = [(w1, (t1 - t0) / (w1 - w0) * 1000) for (w0, t0), (w1, t1) in itertools.pairwise(clean)]
        print("marginal CPU per added word: " + ", ".join(f"up to {w:,.0f}: {us:.1f} us" for w, us in marginal))
        if marginal[0][1] > 0:
            ratio = marginal[-1][1] / marginal[0][1]
            print(f"last / first marginal cost: {ratio:.2f}  (about 1 = linear; ~ length ratio = quadratic)")
    else:
        print("slope: undetermined (fewer than 3 lengths finished without errors)")
    if not done or any(r["errors"] for r in rows):
        print(
            "NOTE: lengths with errors (timeouts) are left out of the slope (their time is the budget, not the work)."
        )


def report_letter(data: Path, chars: int, deadline: float) -> None:
    print(f"\n-- one repeated letter, {chars:,} characters (child process, deadline {deadline:.0f} s) --")
    seen: list[dict[str, Any]] = []

    def on_row(row: dict[str, Any]) -> None:
        seen.append(row)
        if row["kind"] == "letter":
            rest = {k: v for k, v in row.items() if k not in ("kind", "wall", "cpu")}
            print(f"check returned after wall {row['wall']:.2f} s, CPU {row['cpu']:.2f} s: {rest}  [< 2 s]", flush=True)
        elif row["kind"] == "settled":
            print(f"process CPU still busy {row['settle']:.1f} s after the check returned (abandoned work)")

    run_child(["--child", "letter", "--data", str(data), "--chars", str(chars)], deadline, on_row)
    if not any(r["kind"] == "letter" for r in seen):
        print(f"check did not return within {deadline:.0f} s (child killed): undetermined  [< 2 s]")


def report_starvation(data: Path, spin: bool, hangs: int, ordinary: int, deadline: float) -> None:
    mode = "spins on the CPU" if spin else "blocks its thread"
    print(f"\n-- starvation: a detector that never returns ({mode}, budget 0.5 s), deadline {deadline:.0f} s --")
    after: list[dict[str, Any]] = []
    normal: list[float] = []

    def on_row(row: dict[str, Any]) -> None:
        kind = row["kind"]
        if kind == "info":
            print(f"guard pool: {row['max_workers']} threads; {row['hangs']} checks hit the hanging detector")
        elif kind == "normal":
            normal.extend(row["ms"])
            print(
                f"normal time of the {len(normal)} ordinary checks (cached, median of 3): "
                f"p50 {pct(normal, 0.5):.1f} ms, max {max(normal):.1f} ms"
            )
        elif kind == "hang":
            print(f"hanging check {row['i'] + 1}: returned after {row['wall']:.2f} s, errors {row['errors']}")
        elif kind == "after":
            after.append(row)
            ratio = row["ms"] / row["normal"] if row["normal"] else float("inf")
            print(
                f"ordinary check {len(after):>2} after: {row['ms']:9.1f} ms = {ratio:6.2f}x normal"
                f"  errors {row['errors'] or 'none'}",
                flush=True,
            )

    run_child(
        ["--child", "starvation", "--data", str(data), "--hangs", str(hangs), "--ordinary", str(ordinary)]
        + (["--spin"] if spin else []),
        deadline,
        on_row,
    )
    fast = sum(1 for r in after if r["normal"] and r["ms"] <= 2 * r["normal"])
    clean = sum(1 for r in after if r["normal"] and r["ms"] <= 2 * r["normal"] and not r["errors"])
    missing = ordinary - len(after)
    print(
        f"starvation ({mode}): {fast}/{ordinary} ordinary checks within 2x normal  [{ordinary}/{ordinary}];"
        f" {clean}/{ordinary} of them also without errors (a plugin held as stuck is reported, not silent)"
        + (f"; {missing} did not finish before the deadline" if missing else "")
    )


def main_passes(calls: list[Call], back_to_back: int) -> None:
    from faithguard.nlp import get_nlp

    t0 = time.perf_counter()
    get_nlp()
    print(f"model load (spaCy, first use in this process): {(time.perf_counter() - t0) * 1000:.0f} ms")
    guard = build_guard()
    caches = lru_caches()
    print(
        f"decomposition cache: {guard._cache._cache.maxsize} entries; {len(caches)} module lru caches: "
        + ", ".join(f"{fn.__module__.split('.')[-1]}.{fn.__name__}={fn.cache_info().maxsize}" for fn in caches)
    )
    print(f"distinct queries in the traffic: {len(calls)} (a cache smaller than this cannot hold them all)")

    clock = GcClock()
    gc.callbacks.append(clock)

    def run_pass(label: str, target: str) -> None:
        h0, m0 = cache_counts(caches)
        clock.reset()
        rows, without_gc = [], []
        for call in calls:
            before = clock.total_ms
            wall, cpu, report = timed_check(guard, call)
            rows.append((wall, cpu, len(report.errors)))
            without_gc.append(cpu - (clock.total_ms - before))
        h1, m1 = cache_counts(caches)
        per_part(label, calls, rows, target)
        print(f"{'':<34} lru caches in this pass: {h1 - h0} hits, {m1 - m0} misses", flush=True)
        gen0, gen1, gen2 = clock.collections
        print(
            f"{'':<34} garbage collector in this pass: {gen0} / {gen1} / {gen2} collections of generation 0 / 1 / 2, "
            f"{clock.total_ms:.0f} ms in all, longest {clock.longest_ms:.1f} ms; study+holdout CPU p99 with each "
            f"check's collection time taken out: {pct(without_gc, 0.99):.2f} ms (the line above is the measure)",
            flush=True,
        )

    print()
    run_pass("check, new query (uncached)", "[p50 <= 15 ms, p99 <= 40 ms]")
    run_pass("check, cached query (rotation)", "[p50 <= 4 ms, p99 <= 15 ms]")
    subset = calls[:back_to_back]
    rows = []
    for call in subset:
        timed_check(guard, call)
        wall, cpu, report = timed_check(guard, call)
        rows.append((wall, cpu, len(report.errors)))
    per_part("check, cached query+answer (b2b)", subset, rows, "[p50 <= 4 ms, p99 <= 15 ms]")
    t0 = time.perf_counter()
    for call in calls:
        guard.check(call.query, call.response, documents=list(call.documents) or None)
    rate = len(calls) / (time.perf_counter() - t0)
    print(f"throughput, cached (rotation), sequential, one thread: {rate:.0f} checks/s")
    gc.callbacks.remove(clock)
    guard.close()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", type=Path, default=default_data(), help="the shared dev sets (default ../shared/data)")
    ap.add_argument("--limit", type=int, default=0, help="time only the first N distinct queries (0: all)")
    ap.add_argument("--back-to-back", type=int, default=200, help="calls timed in the back-to-back cached pass")
    ap.add_argument("--lengths", default=",".join(map(str, LENGTHS)), help="answer lengths in words")
    ap.add_argument("--chars", type=int, default=1_000_000, help="length of the one-letter answer")
    ap.add_argument(
        "--starvation",
        default="block:1,spin:1,block:4",
        help="scenarios MODE:HANGS: the detector blocks its thread or spins on the CPU, in HANGS checks (4 = the pool)",
    )
    ap.add_argument("--hangs", type=int, default=1, help=argparse.SUPPRESS)
    ap.add_argument("--ordinary", type=int, default=20, help="ordinary checks timed after them")
    ap.add_argument("--deadline", type=float, default=150.0, help="seconds allowed to each child process")
    ap.add_argument("--no-pin", action="store_true", help="do not pin to one core")
    parts = "passes,scaling,letter,requests,starvation"
    ap.add_argument("--only", default=parts, help="parts to run (comma-separated)")
    ap.add_argument("--child", help=argparse.SUPPRESS)
    ap.add_argument("--spin", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    lengths = [int(x) for x in args.lengths.split(",") if x]
    if args.child == "scaling":
        child_scaling(args.data, lengths)
    elif args.child == "letter":
        child_letter(args.data, args.chars)
    elif args.child == "requests":
        child_requests(args.data)
    elif args.child == "starvation":
        child_starvation(args.data, args.spin, args.hangs, args.ordinary)

    pinned = "not pinned (--no-pin)" if args.no_pin else pin_to_one_core()
    print(f"machine: {machine()}")
    print(f"CPU pinning: {pinned}; child processes inherit it")
    print(f"load at start: {load_line()}")
    semantic = os.environ.get("FAITHGUARD_SEMANTIC", "")
    print(f"semantic encoder: FAITHGUARD_SEMANTIC={semantic or '(unset: on when installed)'}; judge off")
    from faithguard.nlp import blas_choice

    threads = ", ".join(f"{v}={os.environ.get(v, '(unset)')}" for v in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS"))
    print(f"spaCy matrix products: {blas_choice()} (FAITHGUARD_SPACY_BLAS, nlp.blas_choice; {threads})")
    calls_all, missing = load_traffic(args.data)
    if not calls_all:
        print(f"no traffic under {args.data}: pass --data (the shared dev sets)")
        return 1
    if missing:
        print(f"dev sets missing under {args.data}: {', '.join(missing)}")
    calls = distinct_queries(calls_all)
    if args.limit:
        calls = calls[: args.limit]
    print(f"traffic: {len(calls)} distinct queries with their real answers, judge off, offline guard")
    for line in summary(calls):
        print("  " + line)
    only = set(args.only.split(","))
    if "passes" in only:
        main_passes(calls, args.back_to_back)
    if "scaling" in only:
        report_scaling(args.data, lengths, args.deadline)
    if "letter" in only:
        report_letter(args.data, args.chars, args.deadline / 2)
    if "requests" in only:
        report_requests(args.data, args.deadline)
    if "starvation" in only:
        for scenario in args.starvation.split(","):
            mode, _, hangs = scenario.partition(":")
            report_starvation(args.data, mode == "spin", int(hangs or 1), args.ordinary, args.deadline)
    print(f"\nload at end: {load_line()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
