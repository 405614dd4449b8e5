"""Snapshot the offline guard's decisions over the dev traffic, and diff two snapshots.

A speed change must not change a decision. Run this before and after the change and compare:

    python benchmarks/snapshot_decisions.py --data DIR --out before.jsonl
    (change the code)
    python benchmarks/snapshot_decisions.py --data DIR --out after.jsonl
    python benchmarks/snapshot_decisions.py --compare before.jsonl after.jsonl

Each line holds one call (every dev call of ``benchmarks/traffic.py``, both split parts, each line
naming its part; nothing here reads a label): the report's constraints (text, category, tier, status,
reason, decider, verifier and its parameters), verdicts, terms, answer label, score, band, outcome,
undetermined reasons, skips and error types. Durations are left out (they differ from run to run).
The snapshot holds dev text: write it outside the repository (e.g. /tmp).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))
from traffic import default_data, load_traffic


def decisions(report: Any) -> dict[str, Any]:
    """The decision-bearing fields of one report, as plain JSON."""
    dumped = report.model_dump(mode="json")
    keep = (
        "constraints",
        "subquestions",
        "verdicts",
        "terms",
        "answer_label",
        "skipped",
        "undetermined",
        "judge",
        "findings",
        "constraint_score",
        "score_range",
        "coverage",
        "band",
        "outcome",
    )
    out = {k: dumped.get(k) for k in keep}
    out["errors"] = [f"{e['detector']}:{e['stage']}:{e['error_type']}" for e in dumped.get("errors", [])]
    return out


def snapshot(data: Path, out: Path, limit: int) -> int:
    from faithguard import Guard

    calls, missing = load_traffic(data)
    if missing:
        print(f"dev sets missing under {data}: {', '.join(missing)}")
    if limit:
        calls = calls[:limit]
    guard = Guard(judge=None)
    with out.open("w", encoding="utf-8") as fh:
        for call in calls:
            report = guard.check(call.query, call.response, documents=list(call.documents) or None)
            row = {"key": f"{call.dataset}:{call.key}", "part": call.part, **decisions(report)}
            fh.write(json.dumps(row, sort_keys=True) + "\n")
    guard.close()
    print(f"{len(calls)} calls written to {out}")
    return 0


def _diff_paths(a: Any, b: Any, path: str = "") -> list[str]:
    if isinstance(a, dict) and isinstance(b, dict):
        found: list[str] = []
        for k in sorted(set(a) | set(b)):
            found += _diff_paths(a.get(k), b.get(k), f"{path}.{k}")
        return found
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        found = []
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            found += _diff_paths(x, y, f"{path}[{i}]")
        return found
    return [] if a == b else [path or "."]


def compare(before: Path, after: Path, show: int) -> int:
    """Print how many reports differ and where (field paths only: no dev text is printed)."""
    rows_a = [json.loads(line) for line in before.open(encoding="utf-8")]
    rows_b = [json.loads(line) for line in after.open(encoding="utf-8")]
    if [r["key"] for r in rows_a] != [r["key"] for r in rows_b]:
        print("the snapshots hold different calls")
        return 2
    differing = 0
    for a, b in zip(rows_a, rows_b, strict=True):
        paths = _diff_paths(a, b)
        if paths:
            differing += 1
            if differing <= show:
                print(f"{a['key']} ({a['part']}): {', '.join(paths[:8])}" + (" ..." if len(paths) > 8 else ""))
    parts = {p: sum(1 for r in rows_a if r["part"] == p) for p in ("study", "holdout")}
    print(f"{differing} of {len(rows_a)} reports differ (study {parts['study']}, holdout {parts['holdout']} calls)")
    return 1 if differing else 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", type=Path, default=default_data(), help="the shared dev sets (default ../shared/data)")
    ap.add_argument("--out", type=Path, help="write a snapshot here (outside the repository)")
    ap.add_argument("--limit", type=int, default=0, help="only the first N calls (0: all)")
    ap.add_argument("--compare", nargs=2, type=Path, metavar=("BEFORE", "AFTER"), help="diff two snapshots")
    ap.add_argument("--show", type=int, default=20, help="differing calls to list by key")
    args = ap.parse_args()
    if args.compare:
        return compare(args.compare[0], args.compare[1], args.show)
    if args.out is None:
        ap.error("give --out or --compare")
    return snapshot(args.data, args.out, args.limit)


if __name__ == "__main__":
    raise SystemExit(main())
