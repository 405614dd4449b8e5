"""The proxy's scoring process alone: time per answer and resident memory over many answers.

Sends the dev traffic (``benchmarks/traffic.py``: the distinct queries of the four dev sets, both split
parts, timed only -- no label is read) to one :class:`~faithguard.integrations._score_process.ScoringProcess`
(offline ``Guard(judge=None)``, as ``faithguard serve`` builds it without a judge), one answer at a time
as the proxy's scoring queue does, cycling through the queries for ``--answers`` answers. The first pass
meets empty caches; later passes are cached. Prints the wall time per answer (p50, p99, max: the
scoring time limit's default rests on the max) and the child's RSS every ``--every`` answers (the
recycling limit's default rests on where it levels off). ``--recycle-answers`` / ``--recycle-rss-mb``
set the process's recycling (0: off, the default here, to see the growth unbounded).

    PYTHONPATH=src python benchmarks/bench_proxy_scorer.py [--data ../shared/data] [--answers 4000]
        [--every 250] [--recycle-answers 0] [--recycle-rss-mb 0]
"""

from __future__ import annotations

import argparse
import functools
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _machine import load_line, machine, pct
from traffic import default_data, distinct_queries, load_traffic


def main(argv: list[str] | None = None) -> int:
    """Score the traffic in one scoring process; print times and RSS."""
    from faithguard import Guard
    from faithguard.integrations._score_process import ScoreRequest, ScoringProcess

    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--data", type=Path, default=default_data(), help="the shared data folder")
    parser.add_argument("--answers", type=int, default=4000, help="answers to score in all")
    parser.add_argument("--every", type=int, default=250, help="print the RSS every this many answers")
    parser.add_argument("--recycle-answers", type=int, default=0, help="restart after this many answers (0: off)")
    parser.add_argument("--recycle-rss-mb", type=float, default=0, help="restart above this RSS, MiB (0: off)")
    args = parser.parse_args(argv)
    calls, _ = load_traffic(args.data)
    calls = distinct_queries(calls)
    if not calls:
        print(f"bench_proxy_scorer: no dev traffic under {args.data}", file=sys.stderr)
        return 2
    print(f"bench_proxy_scorer on {machine()}; CPU unpinned")
    print(f"at start: {load_line()}")
    print(
        f"traffic: {len(calls)} distinct dev queries (split parts study and holdout, timed only); "
        f"{args.answers} answers = {args.answers / len(calls):.1f} passes (the first new, then cached)"
    )
    scorer = ScoringProcess(
        functools.partial(Guard, judge=None),
        recycle_answers=args.recycle_answers or None,
        recycle_rss_mb=args.recycle_rss_mb or None,
    )
    t0 = time.perf_counter()
    if not scorer.start():
        print("bench_proxy_scorer: the scoring process did not start", file=sys.stderr)
        return 1
    print(f"started in {time.perf_counter() - t0:.1f} s; RSS {scorer.rss_mb():.0f} MiB")
    times: list[float] = []
    failed = 0
    try:
        for i in range(args.answers):
            call = calls[i % len(calls)]
            messages = [{"role": "user", "content": call.query}]
            request = ScoreRequest(messages, list(call.documents) or None, "bench", call.response)
            t0 = time.perf_counter()
            try:
                scorer.score(request, timeout=600)
            except Exception as exc:  # noqa: BLE001 - counted by type
                failed += 1
                print(f"  answer {i}: {type(exc).__name__}")
            times.append((time.perf_counter() - t0) * 1000)
            if (i + 1) % args.every == 0 or i + 1 == len(calls):
                first = times[: len(calls)]
                print(
                    f"  after {i + 1:>6} answers: RSS {scorer.rss_mb():.0f} MiB; "
                    f"counts {dict(scorer.counts)}; first pass max so far {max(first):.0f} ms"
                )
    finally:
        scorer.stop()
    new, cached = times[: len(calls)], times[len(calls) :]
    for name, part in (("first pass (new)", new), ("later passes (cached)", cached)):
        if part:
            print(
                f"{name}: {len(part)} answers, ms p50 {pct(part, 0.5):.1f}, "
                f"p99 {pct(part, 0.99):.1f}, max {max(part):.0f}"
            )
    print(f"failed: {failed}; at end: {load_line()}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
