"""InFoBench (dev) through the guard: pass/fail AUROC, ``perfect`` on failing answers, requirement
agreement, coverage; for offline, offline + embeddings, and offline + judge when one is configured.

An answer fails when any of its requirement labels (a GPT-4 judge's, third-party run) is NO. The task
``input`` is sent two ways, each a separate run on its own line: as ``documents`` and inline (appended
to the instruction). Every line names its split; the study part was read while building the semantic
layer (its calibration was fitted on it), the holdout part never. Every line names its cache state too:
the inline run follows the documents run in the same process (a row without input is then the same
request again, timed apart), and later configurations follow the first.

Requirement agreement: each InFoBench requirement question is mapped to the guard constraint sharing
the most content words with it (Jaccard >= 0.3 over lower-cased words of 3+ letters); only mapped
requirements whose constraint the guard decided count.

Run: ``PYTHONPATH=src python benchmarks/eval_infobench.py [--data ../shared/data] [--judge] [--limit N]``.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _judged import Timer, auroc, configurations, coverage, flagged, judge_note, kappa, make_guard, rank_value
from _split import KEYS, split_rows

from faithguard.models import Report, Status

_WORD = re.compile(r"[a-z]{3,}")


def _words(text: str) -> set[str]:
    return set(_WORD.findall(text.lower()))


def _map_requirements(questions: list[str], report: Report) -> list[tuple[int, Any]]:
    out = []
    for i, q in enumerate(questions):
        qw = _words(q)
        best, best_j = None, 0.0
        for c in report.constraints:
            cw = _words(c.text)
            if qw and cw:
                j = len(qw & cw) / len(qw | cw)
                if j > best_j:
                    best, best_j = c, j
        if best is not None and best_j >= 0.3:
            out.append((i, best))
    return out


def _run(guard: Any, rows: list[dict[str, Any]], mode: str) -> dict[str, Any]:
    ranks, labels, perfect_fail, covs = [], [], [], []
    pairs: list[tuple[bool, bool]] = []
    mapped = total_req = flagged_fail = flagged_pass = 0
    timer, again = Timer(), Timer()  # new requests; requests checked before (inline mode, no input)
    for row in rows:
        instruction, task_input, output = row["instruction"], row["input"], row["output"]
        if mode == "documents":
            query, docs = instruction, ([task_input] if task_input else None)
        else:
            query, docs = (instruction + ("\n\n" + task_input if task_input else "")), None
        with (again if mode == "inline" and not task_input else timer).time():
            report = guard.check(query, output, documents=docs)
        passed = all(v is True for v in row["eval"])
        ranks.append(rank_value(report))
        labels.append(int(passed))
        cov = coverage(report)
        covs.append(0.0 if cov is None else cov)
        if not passed:
            perfect_fail.append(report.perfect)
            flagged_fail += flagged(report)
        else:
            flagged_pass += flagged(report)
        total_req += len(row["eval"])
        for i, c in _map_requirements(row["decomposed_questions"], report):
            mapped += 1
            if c.status is not Status.UNKNOWN and row["eval"][i] is not None:
                pairs.append((c.status is Status.SATISFIED, bool(row["eval"][i])))
    n_fail = len(perfect_fail)
    return {
        "n": len(rows),
        "fail": n_fail,
        "auroc": auroc(ranks, labels),
        "perfect_fail": sum(perfect_fail) / n_fail if n_fail else float("nan"),
        "flag_fail": flagged_fail / n_fail if n_fail else float("nan"),
        "flag_pass": flagged_pass / max(1, len(rows) - n_fail),
        "coverage": sum(covs) / len(covs) if covs else float("nan"),
        "mapped": f"{mapped}/{total_req}",
        "decided": len(pairs),
        "agree": sum(a == b for a, b in pairs) / len(pairs) if pairs else float("nan"),
        "kappa": kappa(pairs),
        "time": timer.summary(),
        "again": f"; same request again (no input: as in documents mode; n={len(again.ms)}) {again.summary()}"
        if again.ms
        else "",
    }


def _caches(config: str, first: str, mode: str) -> str:
    """The cache state of a line's checks: module-level memos outlive a guard and a mode, so only the first
    configuration's documents-mode checks are all new requests."""
    if config != first:
        return f"warm-from-{first}"
    if mode == "documents":
        return "new-request"
    return "new-request(answer-seen-in-documents-mode)"


def main() -> None:
    """Print one line per (split, configuration, input mode)."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", type=Path, default=Path(__file__).resolve().parents[1].parent / "shared" / "data")
    ap.add_argument("--judge", action="store_true", help="also run offline + judge (FAITHGUARD_JUDGE_* env)")
    ap.add_argument("--limit", type=int, default=0, help="rows per split (0: all)")
    args = ap.parse_args()
    path = args.data / "infobench-dev" / "infobench_gpt4_dev.jsonl"
    if not path.exists():
        print(f"(skipped InFoBench: {path} not found)")
        return
    rows = [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]
    parts = split_rows("infobench", rows, KEYS["infobench"])
    configs = configurations(args.judge)
    for name, kwargs in configs:
        guard = make_guard(kwargs)
        for split in ("study", "holdout"):
            part = parts[split][: args.limit or None]
            tag = "study (read; semantic calibration fitted here)" if split == "study" else "holdout (unseen)"
            for mode in ("documents", "inline"):
                r = _run(guard, part, mode)
                print(
                    f"infobench split={tag} config={name} input={mode} caches={_caches(name, configs[0][0], mode)} "
                    f"n={r['n']} "
                    f"failing={r['fail']} | AUROC {r['auroc']:.3f} | perfect on failing {r['perfect_fail']:.1%} | "
                    f"flagged failing {r['flag_fail']:.1%} passing {r['flag_pass']:.1%} | "
                    f"coverage {r['coverage']:.2f} | requirements mapped {r['mapped']}, decided {r['decided']}, "
                    f"agreement {r['agree']:.2f}, kappa {r['kappa']:.2f} | check new request {r['time']}{r['again']}"
                    + judge_note(guard, r["n"])
                )
        guard.close()


if __name__ == "__main__":
    main()
