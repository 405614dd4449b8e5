"""Evaluate the missing-content detector and its follow-up classifier on the project's own labelled sets.

Sets (all written for this project, none copied from an evaluation set):
- ``missing_content.jsonl``: the project's own set. The rules were tuned on it: its figures are TUNED-ON.
- ``missing_content_fresh.jsonl`` (fresh #1): 63 requests (32 positive) written on 2026-11-23 at 06:55 UTC,
  after the rules of commit 607c2de were frozen. Scored once there: recall 0.656, FPR 0.000. The rules were
  then revised on the classes of its misses (do-support parse, ids by label name, "the attached X", links,
  definite counts), so its later figures are TUNED-ON too.
- ``missing_content_fresh2.jsonl`` (fresh #2): 60 requests (30 positive) written on 2026-11-23 at 07:02 UTC,
  after the rules were frozen again at commit 21a1a87. Never to be used for tuning.
  Both fresh sets were written by the engineer who wrote the rules: fresh, not independent of their author.

Run from the repo root: PYTHONPATH=src python benchmarks/eval_missing.py
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections import Counter
from pathlib import Path
from typing import Any

from faithguard.detector import CallContext
from faithguard.inputs.followup import classify_followup
from faithguard.inputs.missing import MissingContentDetector
from faithguard.models import Message

HERE = Path(__file__).resolve().parent


def _ctx(item: dict[str, Any]) -> CallContext:
    history = [Message(role=m["role"], content=m["content"]) for m in item.get("messages") or []]
    return CallContext(
        query=item["query"],
        documents=list(item.get("documents") or []),
        system=item.get("system") or "",
        history=history,
    )


def _rates(rows: list[tuple[bool, bool]]) -> dict[str, float]:
    tp = sum(1 for g, p in rows if g and p)
    fp = sum(1 for g, p in rows if not g and p)
    fn = sum(1 for g, p in rows if g and not p)
    tn = sum(1 for g, p in rows if not g and not p)
    return {
        "n": len(rows),
        "pos": tp + fn,
        "neg": fp + tn,
        "recall": tp / (tp + fn) if tp + fn else float("nan"),
        "fpr": fp / (fp + tn) if fp + tn else float("nan"),
        "precision": tp / (tp + fp) if tp + fp else float("nan"),
    }


def _print(title: str, r: dict[str, float]) -> None:
    print(f"\n== {title} ==")
    print(f"{'items':>8} {'pos':>5} {'neg':>5} {'recall':>8} {'FPR':>7} {'precision':>10}")
    print(f"{r['n']:>8} {r['pos']:>5} {r['neg']:>5} {r['recall']:>8.3f} {r['fpr']:>7.3f} {r['precision']:>10.3f}")


def eval_input(path: Path, verbose: bool, title: str = "") -> None:
    det = MissingContentDetector()
    items = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    rows, errors = [], Counter()
    per_note: Counter[str] = Counter()
    for it in items:
        res = det.run(_ctx(it))
        pred = bool(res.findings.get("missing_content"))
        rows.append((bool(it["label"]), pred))
        per_note[it["note"]] += 1
        if pred != it["label"]:
            errors[it["note"]] += 1
            if verbose:
                print(f"  ERR [{it['note']}] gold={it['label']} query={it['query'][:90]!r}")
                for f in res.findings.get("missing_content", []):
                    print(f"      -> {f['explanation']}")
    _print(f"input detector: {path.name} {title}".rstrip(), _rates(rows))
    print("errors by note:" if errors else "errors by note: none")
    for note, n in sorted(errors.items()):
        print(f"  {note:<28} {n}/{per_note[note]}")


def eval_followup(path: Path, verbose: bool) -> None:
    items = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    rows, undecided, errors = [], 0, Counter()
    for it in items:
        decision, reason = classify_followup(it["response"])
        undecided += decision == "undecided"
        pred = decision == "proceeds"
        rows.append((bool(it["label"]), pred))
        if pred != it["label"]:
            errors[it["note"]] += 1
            if verbose:
                print(f"  ERR [{it['note']}] gold={it['label']} {decision}: {reason} | {it['response'][:80]!r}")
    _print(f"follow-up classifier (positive = proceeds despite missing content): {path.name}", _rates(rows))
    print(f"undecided: {undecided}")
    print("errors by note:" if errors else "errors by note: none")
    for note, n in sorted(errors.items()):
        print(f"  {note:<34} {n}")


_WORDS = [
    "the",
    "council",
    "reviewed",
    "budget",
    "figures",
    "and",
    "transit",
    "plans",
    "while",
    "residents",
    "asked",
    "about",
    "parking",
    "safety",
    "schools",
    "and",
    "the",
    "new",
    "library",
    "hours",
    "across",
    "several",
    "neighbourhoods",
    "during",
    "the",
    "spring",
    "session",
]


def _doc(n: int, seed: int) -> str:
    return " ".join(_WORDS[(i * 7 + seed) % len(_WORDS)] for i in range(n)) + "."


def bench_speed(runs: int) -> None:
    query = (
        "I have attached three reports from our city planning team. Please compare the three reports, "
        "explain where the second report contradicts the first, and tell me whether the third report supports "
        "either of them. Keep the answer under two hundred words and use plain language suitable for a "
        "resident newsletter."
    )
    docs = [_doc(200, s) for s in range(3)]
    det = MissingContentDetector()
    ctx = CallContext(query=query, documents=docs)
    det.run(CallContext(query="Summarize the article."))  # load the parser once
    timings = []
    for _ in range(runs):
        t0 = time.perf_counter()
        det.run(ctx)
        timings.append((time.perf_counter() - t0) * 1000)
    timings.sort()
    p99 = timings[min(len(timings) - 1, int(0.99 * len(timings)))]
    short = CallContext(query=query, documents=docs[:2])
    t_short = []
    for _ in range(runs // 4 or 1):
        t0 = time.perf_counter()
        det.run(short)
        t_short.append((time.perf_counter() - t0) * 1000)
    t_short.sort()
    print(f"\n== speed: {word_count_of(query)}-word query, 3 x 200-word documents, {runs} runs ==")
    print(f"all supplied : p50 {statistics.median(timings):.2f} ms   p99 {p99:.2f} ms")
    print(
        f"one missing  : p50 {statistics.median(t_short):.2f} ms   p99 {t_short[int(0.99 * (len(t_short) - 1))]:.2f} ms"
        "  (parser consulted)"
    )


def word_count_of(text: str) -> int:
    """Whitespace word count."""
    return len(text.split())


def eval_engagement(data: Path) -> None:
    """False alarms of the 'answer ignores the supplied content' check on on-task answers (InFoBench-dev GPT-4)."""
    import sys

    sys.path.insert(0, str(HERE))
    from _split import KEYS, split_rows

    from faithguard.inputs.followup import FollowupDetector

    path = data / "infobench-dev" / "infobench_gpt4_dev.jsonl"
    if not path.is_file():
        print(f"\n(engagement check: {path} not found, skipped)")
        return
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    det = FollowupDetector()
    print(
        "\n== answer ignores supplied content (misinterpretation candidate): InFoBench-dev =="
    )
    print("(its GPT-4 answers are on task: every flag is a false alarm; no labelled positives exist here)")
    for part, prow in split_rows("infobench", rows, KEYS["infobench"]).items():
        n = checked = flagged = 0
        for r in prow:
            if not r.get("input"):
                continue
            for ctx in (
                CallContext(query=r["instruction"], documents=[r["input"]], response=r["output"]),
                CallContext(query=r["instruction"] + "\n\n" + r["input"], response=r["output"]),
            ):
                n += 1
                res = det.run(ctx)
                checked += bool(res.findings.get("missing_content_followup"))
                flagged += bool(res.verdicts)
        print(f"[split: {part}] contexts {n}, decided {checked}, false alarms {flagged}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--set", type=Path, default=HERE / "data" / "missing_content.jsonl")
    ap.add_argument("--fresh", type=Path, default=HERE / "data" / "missing_content_fresh.jsonl")
    ap.add_argument("--fresh2", type=Path, default=HERE / "data" / "missing_content_fresh2.jsonl")
    ap.add_argument("--followup", type=Path, default=HERE / "data" / "missing_followup.jsonl")
    ap.add_argument("--runs", type=int, default=400)
    ap.add_argument("--data", type=Path, default=HERE.parent.parent / "shared" / "data", help="shared eval data")
    ap.add_argument("-v", "--verbose", action="store_true", help="print every error")
    args = ap.parse_args()
    eval_input(args.set, args.verbose, "[split: own set, TUNED-ON]")
    if args.fresh.is_file():
        eval_input(args.fresh, args.verbose, "[split: fresh #1, first scored 0.656/0.000, since TUNED-ON]")
    if args.fresh2.is_file():
        eval_input(args.fresh2, args.verbose, "[split: fresh #2, written after the final freeze, never tuned on]")
    eval_followup(args.followup, args.verbose)
    eval_engagement(args.data)
    bench_speed(args.runs)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
