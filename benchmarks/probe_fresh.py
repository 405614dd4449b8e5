"""Fresh generalisation probe of the offline checker on phrasings nobody on the team wrote.

Usage: PYTHONPATH=src python benchmarks/probe_fresh.py [--data benchmarks/data/probe_fresh_sm.jsonl] [--embeddings] [-v]

Each row: ``id``, ``family``, ``query``, ``answer``, ``expect`` ("flag": the answer clearly misses an
explicit instruction; "pass": it follows every instruction). The set was written by sm on 2026-11-23
and committed before anything was run on it; it has since been partly studied (session 3). Runs with
FAITHGUARD_SEMANTIC=0 (the offline checker only), or with the embedding layer on (``--embeddings``).
``semantic_fresh5.jsonl`` (off-topic, neighbouring-question and ignored-content-constraint answers beside
good ones) was written blind by sw on 2026-11-23 17:38 UTC, without reading code or data; it is scored,
never read (do not run it with ``-v``); ``semantic_fresh6.jsonl`` likewise (written blind by bw, 2026-11-23
~20:05 UTC), and ``semantic_fresh7.jsonl`` (written blind by bw7, 2026-11-23 ~22:05 UTC).

A row is *flagged* when the outcome is ``hallucination`` or any verdict fired, *passed* when the outcome
is ``ok`` (and no verdict), otherwise *undetermined*. For each verifiable family the probe also reports
whether the expected verifier id was among the request's constraints, and, when it was, whether its
status agrees with ``expect``.
"""

from __future__ import annotations

import argparse
import json
import os
from collections import Counter, defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
LABELS = {
    "probe_fresh_sm.jsonl": "fresh probe written by sm on 2026-11-23 (partly studied since session 3)",
    "semantic_fresh5.jsonl": (
        "fresh #5 semantic probe written blind by sw on 2026-11-23 17:38 UTC (never read, never tuned on)"
    ),
    "semantic_fresh6.jsonl": (
        "fresh #6 semantic probe written blind by bw on 2026-11-23 ~20:05 UTC (never read, never tuned on)"
    ),
    "semantic_fresh7.jsonl": (
        "fresh #7 semantic probe written blind by bw7 on 2026-11-23 ~22:05 UTC (never read, never tuned on)"
    ),
}

# family -> predicate on a verifier id (IFEval ids; the opening phrase has no single IFEval id)
FAMILIES: dict[str, Callable[[str], bool]] = {
    "words": lambda v: v == "length_constraints:number_words",
    "sentences": lambda v: v == "length_constraints:number_sentences",
    "paragraphs": lambda v: v == "length_constraints:number_paragraphs",
    "bullets": lambda v: v == "detectable_format:number_bullet_lists",
    "ending": lambda v: v == "startend:end_checker",
    "opening": lambda v: "start" in v or "first_word" in v or "begin" in v,
    "lowercase": lambda v: v == "change_case:english_lowercase",
    "uppercase": lambda v: v == "change_case:english_capital",
    "keyword_include": lambda v: v in {"keywords:existence", "keywords:frequency"},
    "keyword_avoid": lambda v: v == "keywords:forbidden_words",
    "json": lambda v: v == "detectable_format:json_format",
    "title": lambda v: v == "detectable_format:title",
    "language": lambda v: v == "language:response_language",
    "sections": lambda v: v == "detectable_format:multiple_sections",
    "placeholders": lambda v: v == "detectable_content:number_placeholders",
}


def classify(report: Any) -> str:
    """flagged / passed / undetermined as the brief defines them."""
    if str(report.outcome) == "hallucination" or report.verdicts:
        return "flagged"
    if str(report.outcome) == "ok":
        return "passed"
    return "undetermined"


def _status(c: Any) -> str:
    s = c.status
    return str(getattr(s, "value", s))


def main() -> int:
    """Run Guard().check on every row and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--data", type=Path, default=ROOT / "benchmarks" / "data" / "probe_fresh_sm.jsonl")
    parser.add_argument("-v", "--verbose", action="store_true", help="one line per row")
    parser.add_argument("--embeddings", action="store_true", help="turn the embedding layer on (needs its model)")
    args = parser.parse_args()
    if args.verbose and "never read" in LABELS.get(args.data.name, ""):
        parser.error(f"{args.data.name} is a blind set: its rows are scored, never printed (drop -v)")
    os.environ["FAITHGUARD_SEMANTIC"] = "1" if args.embeddings else "0"
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    from faithguard import Guard

    rows = [json.loads(line) for line in args.data.read_text(encoding="utf-8").splitlines() if line.strip()]
    guard = Guard()
    tally: dict[str, Counter[str]] = defaultdict(Counter)
    fam: dict[str, Counter[str]] = defaultdict(Counter)
    print(LABELS.get(args.data.name, f"{args.data.name}: provenance not recorded"))
    config = "offline + embeddings" if args.embeddings else "offline"
    print(f"configuration: {config}; caches cold (one process, each row once)")
    print(f"data: {args.data.relative_to(ROOT) if args.data.is_relative_to(ROOT) else args.data}  rows: {len(rows)}")
    for row in rows:
        r = guard.check(row["query"], row["answer"])
        cls = classify(r)
        tally[row["expect"]][cls] += 1
        family = row.get("family", "")
        f = fam[family]
        f["rows"] += 1
        f[f"{row['expect']}:{cls}"] += 1
        match = FAMILIES.get(family)
        hits = [c for c in r.constraints if c.verifier and match and match(c.verifier)]
        if match:
            f["detected"] += bool(hits)
            if hits:
                bad = any(_status(c) == "violated" for c in hits)
                ok = all(_status(c) == "satisfied" for c in hits)
                right = bad if row["expect"] == "flag" else ok
                f["status_right"] += right
        if args.verbose:
            vs = ",".join(f"{c.verifier}={_status(c)}" for c in r.constraints if c.verifier) or "-"
            kinds = ",".join(f"{v.kind}/{v.severity}" for v in r.verdicts) or "-"
            print(
                f"  {row['id']} {family:15s} expect={row['expect']:4s} -> {cls:12s} outcome={r.outcome} "
                f"score={r.constraint_score} verifiers[{vs}] verdicts[{kinds}]"
            )

    print("\nper expect class (flagged = outcome 'hallucination' or any verdict; passed = outcome 'ok'):")
    for exp in ("flag", "pass"):
        t = tally[exp]
        n = sum(t.values())
        print(f"  expect={exp}: n={n}  flagged={t['flagged']}  passed={t['passed']}  undetermined={t['undetermined']}")
    nf, np_ = sum(tally["flag"].values()), sum(tally["pass"].values())
    ntot = nf + np_
    und = tally["flag"]["undetermined"] + tally["pass"]["undetermined"]
    flagged, false_flags, passed = tally["flag"]["flagged"], tally["pass"]["flagged"], tally["pass"]["passed"]
    print(f"\ndetection rate on 'flag' rows: {flagged}/{nf} = {flagged / max(nf, 1):.2f}")
    print(f"false-flag rate on 'pass' rows: {false_flags}/{np_} = {false_flags / max(np_, 1):.2f}")
    print(f"pass rate on 'pass' rows (outcome ok): {passed}/{np_} = {passed / max(np_, 1):.2f}")
    print(f"share undetermined (all rows): {und}/{ntot} = {und / max(ntot, 1):.2f}")

    print(
        "\nper instruction family: expected verifier detected in r.constraints / rows; status agrees with expect;"
        " row outcomes"
    )
    missed = []
    for family in sorted(fam, key=lambda k: (k not in FAMILIES, k)):
        f = fam[family]
        outs = " ".join(f"{k}={v}" for k, v in sorted(f.items()) if ":" in k)
        if family in FAMILIES:
            found = f"detected {f['detected']}/{f['rows']}  status right {f['status_right']}/{f['detected']}"
            print(f"  {family:15s} {found}  {outs}")
            if f["detected"] < f["rows"]:
                missed.append(f"{family} ({f['rows'] - f['detected']}/{f['rows']} not detected)")
        else:
            print(f"  {family:15s} (content, no verifier)  {outs}")
    print("\nfamilies whose expected constraint was not detected on every row: " + (", ".join(missed) or "none"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
