"""False passes: answers that clearly fail their request, and how often the offline guard still says ``ok``.

Usage: ``PYTHONPATH=src python benchmarks/eval_falsepass.py [--sets benchmarks/data]``

Each row: ``query``, ``answer``, ``should_pass`` (a careful grader's verdict) and ``note``. For the failing
answers the line prints how many reports read ``outcome == "ok"`` and ``perfect`` (the promise broken: nothing
reads ok that was not checked), how many raise an alarm (``hallucination``) and how many stay ``undetermined``;
for the passing answers, how many read ``ok`` and how many get a false alarm. Aggregates only: no row is
printed, so a blind set stays unread.

The sets (each line names its split):

- ``falsepass_study1.jsonl`` (275 pairs: 220 failing, 55 passing): written by helper 82 on 2026-11-24 from its own
  imagination to find false passes; its report was READ and the classes fixed from it (lists whose place, period,
  kind or count holds of one item only, exclusions met by what lies in the excluded place): STUDY, tuned on.
- ``falsepass_fresh1.jsonl`` (240 pairs: 180 failing, 60 passing): written by helper 83 on 2026-11-24, who read
  nothing of the project; committed before it was first scored; never read: BLIND.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SETS = (
    ("falsepass_study1.jsonl", "study: written by helper 82, read, TUNED-ON (session 16)"),
    ("falsepass_fresh1.jsonl", "generalization: written blind by helper 83 (session 16); never read"),
)


def score(path: Path) -> dict[str, Counter[str]]:
    """Counts of outcomes (and perfect) for the failing and the passing answers of one set."""
    from faithguard import Guard

    guard = Guard(judge=None)
    counts: dict[str, Counter[str]] = {"fail": Counter(), "pass": Counter()}
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        row = json.loads(line)
        report = guard.check(row["query"], row["answer"])
        side = counts["pass" if row["should_pass"] else "fail"]
        side["n"] += 1
        side[str(report.outcome)] += 1
        side["perfect"] += bool(report.perfect)
    guard.close()
    return counts


def main() -> int:
    """One line per set and side, the split named."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sets", type=Path, default=ROOT / "benchmarks" / "data")
    args = parser.parse_args()
    for name, split in SETS:
        path = args.sets / name
        if not path.is_file():
            print(f"({path} not found, skipped)")
            continue
        counts = score(path)
        fail, ok = counts["fail"], counts["pass"]
        nf, np_ = max(1, fail["n"]), max(1, ok["n"])
        print(
            f"[split: {split}] {name}: failing answers {fail['n']}: ok {fail['ok'] / nf:.3f} "
            f"(perfect {fail['perfect'] / nf:.3f}), hallucination {fail['hallucination'] / nf:.3f}, "
            f"undetermined {fail['undetermined'] / nf:.3f} | passing answers {ok['n']}: ok {ok['ok'] / np_:.3f}, "
            f"false alarm {ok['hallucination'] / np_:.3f}, undetermined {ok['undetermined'] / np_:.3f}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
