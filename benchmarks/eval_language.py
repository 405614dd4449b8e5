"""Wrong-language answers on a small fresh set: is the asked language read, and is a wrong one flagged?

Usage: PYTHONPATH=src python benchmarks/eval_language.py [--data benchmarks/data/language_fresh.jsonl]

Each row: ``query``, ``response``, ``asked`` (the ISO 639 code the request asks for, or null) and ``flag``
(whether the answer is in a language the request did not ask for). The set was written by sh on 2026-11-23
before the mechanism was run on it; it is fresh (no split: no rule was written from it).
"""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
LANGUAGE = "language:response_language"


def _flagged(report: Any) -> bool:
    """A misinterpretation about the answer's language (an asked language violated, or an unasked one used)."""
    ids = {c.id for c in report.constraints if c.verifier == LANGUAGE}
    for v in report.verdicts:
        if str(v.kind) != "misinterpretation":
            continue
        if ids & set(v.constraint_ids) or "another language" in v.explanation:
            return True
    return False


def main() -> int:
    """Print reading accuracy, flag accuracy, recall and false-flag rate on the fresh set."""
    parser = argparse.ArgumentParser(description=__doc__)
    default = ROOT / "benchmarks" / "data" / "language_fresh.jsonl"
    parser.add_argument(
        "--data",
        type=Path,
        default=default,
        help="the set (a JSON Lines file); a folder (make eval passes the shared data folder) means the default set",
    )
    args = parser.parse_args()
    if args.data.is_dir():
        args.data = default  # the language set is the project's own, not part of the shared data
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    from faithguard import Guard

    rows = [json.loads(line) for line in args.data.read_text(encoding="utf-8").splitlines() if line.strip()]
    guard = Guard()
    guard.warmup()
    read_ok = flag_ok = tp = fp = positives = negatives = 0
    for row in rows:
        report = guard.check(row["query"], row["response"])
        codes = sorted({str(c.params.get("language")) for c in report.constraints if c.verifier == LANGUAGE})
        expected = [row["asked"]] if row["asked"] else []
        read_ok += codes == expected
        flagged = _flagged(report)
        flag_ok += flagged == row["flag"]
        if row["flag"]:
            positives += 1
            tp += flagged
        else:
            negatives += 1
            fp += flagged
    n = len(rows)
    distinct = len({" ".join(row["query"].split()) for row in rows})
    label = (
        "fresh set written by sh on 2026-11-23 (no split; never used to write rules); caches: one process, "
        f"{distinct} of {n} queries distinct, so {n - distinct} checks repeat an earlier query (decomposition cached)"
    )
    print(f"language_fresh ({label}): n={n}")
    print(f"  asked-language reading accuracy: {read_ok / n:.3f} ({read_ok}/{n})")
    print(f"  flag accuracy: {flag_ok / n:.3f}; recall on wrong-language answers: {tp}/{positives}; ", end="")
    print(f"false-flag rate on right-language answers: {fp}/{negatives} = {fp / max(1, negatives):.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
