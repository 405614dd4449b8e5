"""LLMBar (dev) through the guard: does the output that follows the instruction rank higher?

Accuracy with ties counted as half, per subset group (Natural vs adversarial = Neighbor, GPTInst,
GPTOut, Manual) and per subset, for offline, offline + embeddings and (``--judge``) offline + judge.
Ranking is ``_judged.rank_value`` (fixed before any run). Every line names its split; the study part
was read while building the semantic layer (its calibration was fitted on it), the holdout part never.
Check times are printed per output: output_1 is a new query to the first configuration, output_2 the same
query with a new answer; later configurations run in the same process after the first (warm module caches).

Run: ``PYTHONPATH=src python benchmarks/eval_llmbar.py [--data ../shared/data] [--judge]``.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _judged import Timer, configurations, judge_note, make_guard, rank_value
from _split import KEYS, split_rows


def _group(subset: str) -> str:
    return "natural" if subset == "Natural" else "adversarial"


def main() -> None:
    """Print one line per (split, configuration) with group and subset accuracies."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", type=Path, default=Path(__file__).resolve().parents[1].parent / "shared" / "data")
    ap.add_argument("--judge", action="store_true", help="also run offline + judge (FAITHGUARD_JUDGE_* env)")
    args = ap.parse_args()
    path = args.data / "llmbar-dev" / "llmbar_dev.jsonl"
    if not path.exists():
        print(f"(skipped LLMBar: {path} not found)")
        return
    rows = [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]
    parts = split_rows("llmbar", rows, KEYS["llmbar"])
    configs = configurations(args.judge)
    for name, kwargs in configs:
        guard = make_guard(kwargs)
        # Module-level memos (parses, readings by text) outlive a guard: a later configuration meets warm ones.
        first = configs[0][0]
        states = ("new query", "same query, new answer") if name == first else (f"checked by {first}: caches warm",) * 2
        for split in ("study", "holdout"):
            points: dict[str, list[float]] = defaultdict(list)
            timers = (Timer(), Timer())  # output_1, output_2
            for row in parts[split]:
                values = []
                for timer, out in zip(timers, (row["output_1"], row["output_2"]), strict=True):
                    with timer.time():
                        values.append(rank_value(guard.check(row["input"], out)))
                good, bad = (values[0], values[1]) if row["label"] == 1 else (values[1], values[0])
                point = 1.0 if good > bad else 0.5 if good == bad else 0.0
                points[_group(row["subset"])].append(point)
                points[row["subset"]].append(point)
                points["all"].append(point)
            tag = "study (read; semantic calibration fitted here)" if split == "study" else "holdout (unseen)"
            cells = " | ".join(
                f"{k} {sum(v) / len(v):.3f} (n={len(v)}, ties {v.count(0.5)})"
                for k, v in sorted(
                    points.items(), key=lambda kv: (kv[0] not in ("all", "natural", "adversarial"), kv[0])
                )
            )
            note = judge_note(guard, len(timers[0].ms) + len(timers[1].ms))
            print(
                f"llmbar split={tag} config={name} | {cells} | check output_1 ({states[0]}) {timers[0].summary()}; "
                f"output_2 ({states[1]}) {timers[1].summary()}{note}"
            )
        guard.close()


if __name__ == "__main__":
    main()
