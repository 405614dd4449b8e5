"""Evaluate the term checks.

1. Unknown-term detection on HypoTermQA-dev (read from --data, never copied):
   question-level P/R/F1 against isHypotheticalQuestion, term-level recall on the
   invented terms, false-positive rate on valid questions and the flip rate on
   minimal pairs, (a) with the default sources and (b) with a term index built
   from a simulated trusted-titles file: the dataset's *real* term names plus
   wordfreq's 50,000 most frequent English words (no invented term is added).
2. The offline acceptance classifier on benchmarks/data/acceptance.jsonl
   (answers written for this project): per-class precision/recall, overall error.

Run: PYTHONPATH=src python benchmarks/eval_terms.py [--data ../shared/data]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from faithguard.detector import CallContext, KnowledgeSource
from faithguard.terms.acceptance import classify_terms
from faithguard.terms.detectors import UnknownTermsDetector
from faithguard.terms.extract import extract_candidates
from faithguard.terms.kbindex import build_index
from faithguard.terms.normalize import normalize
from faithguard.terms.sources import ContextSource, IndexSource, LexiconSource

ROOT = Path(__file__).resolve().parent.parent
LABELS = ("UNREAL", "UNKNOWN", "MENTIONED", "ABSENT")


def load_hypoterm(data: Path) -> list[dict[str, Any]]:
    path = data / "hypotermqa-dev" / "HypoTermQA_180.jsonl"
    with path.open(encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def minimal_pairs(rows: list[dict[str, Any]]) -> list[tuple[int, int]]:
    """(invented question index, programmatic twin index): the twin differs only in the swapped term."""
    pairs = []
    for i, row in enumerate(rows):
        if not row["isHypotheticalQuestion"]:
            continue
        hypo = next(t["term"] for t in row["terms"] if t["isHypotheticalTerm"])
        for j in range(i + 1, min(i + 4, len(rows))):
            twin = rows[j]
            if twin["replacementType"] != "programmatic":
                continue
            head = row["question"].lower().split(hypo.lower())[0]
            if head and twin["question"].lower().startswith(head):
                pairs.append((i, j))
                break
    return pairs


def titles_file(rows: list[dict[str, Any]], folder: Path) -> Path:
    """Simulated trusted titles: real term names of the dataset + generic frequent words."""
    import wordfreq

    real = {t["term"] for r in rows for t in r["terms"] if not t["isHypotheticalTerm"]}
    hypothetical = {normalize(t["term"]) for r in rows for t in r["terms"] if t["isHypotheticalTerm"]}
    words = wordfreq.top_n_list("en", 50000)
    lines = [t for t in sorted(real) if normalize(t) not in hypothetical] + [w for w in words if w not in hypothetical]
    path = folder / "titles.txt"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def overlaps(flagged: str, gold: str) -> bool:
    f, g = normalize(flagged), normalize(gold)
    return bool(f and g) and (f in g or g in f)


def detect(rows: list[dict[str, Any]], sources: list[KnowledgeSource]) -> dict[str, Any]:
    det = UnknownTermsDetector(sources)
    flagged_q: list[bool] = []
    flagged_terms: list[list[str]] = []
    undecided = 0
    started = time.perf_counter()
    for row in rows:
        res = det.run(CallContext(query=row["question"]))
        terms = res.findings["unknown_terms"]
        undecided += sum(1 for t in res.terms if t.known is None)
        flagged_q.append(bool(terms))
        flagged_terms.append(terms)
    took = time.perf_counter() - started
    gold = [bool(r["isHypotheticalQuestion"]) for r in rows]
    tp = sum(f and g for f, g in zip(flagged_q, gold, strict=True))
    fp = sum(f and not g for f, g in zip(flagged_q, gold, strict=True))
    fn = sum(g and not f for f, g in zip(flagged_q, gold, strict=True))
    p = tp / (tp + fp) if tp + fp else 0.0
    r = tp / (tp + fn) if tp + fn else 0.0
    f1 = 2 * p * r / (p + r) if p + r else 0.0
    hypo_terms = [(i, t["term"]) for i, row in enumerate(rows) for t in row["terms"] if t["isHypotheticalTerm"]]
    term_hits = sum(any(overlaps(f, t) for f in flagged_terms[i]) for i, t in hypo_terms)
    valid_idx = [i for i, g in enumerate(gold) if not g]
    pairs = minimal_pairs(rows)
    flips = sum(flagged_q[i] and not flagged_q[j] for i, j in pairs)
    return {
        "precision": p,
        "recall": r,
        "f1": f1,
        "term_recall": term_hits / len(hypo_terms) if hypo_terms else 0.0,
        "fp_rate_valid": sum(flagged_q[i] for i in valid_idx) / len(valid_idx) if valid_idx else 0.0,
        "flip_rate": flips / len(pairs) if pairs else 0.0,
        "pairs": len(pairs),
        "undecided": undecided,
        "ms_per_query": 1000 * took / len(rows),
    }


def candidate_recall(rows: list[dict[str, Any]]) -> float:
    """Share of gold terms (both kinds) that some candidate overlaps: the ceiling for detection."""
    total = hit = 0
    for row in rows:
        cands = [c.text for c in extract_candidates(row["question"])]
        for t in row["terms"]:
            if normalize(t["term"]) in normalize(row["question"]):
                total += 1
                hit += any(overlaps(c, t["term"]) for c in cands)
    return hit / total if total else 0.0


def eval_acceptance(path: Path, split: str | None = None) -> tuple[dict[str, dict[str, float]], float, int, list[str]]:
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    rows = [r for r in rows if split is None or r.get("split", "dev") == split]
    gold: list[str] = []
    pred: list[str] = []
    errors: list[str] = []
    for row in rows:
        context = [c.text for c in extract_candidates(row.get("question", ""))]
        got = classify_terms(row["answer"], [row["term"]], context_terms=context)[row["term"]]
        gold.append(row["label"])
        pred.append(got)
        if got != row["label"]:
            errors.append(f"  {row.get('id', '?')}: gold {row['label']} got {got} ({row['term']})")
    per: dict[str, dict[str, float]] = {}
    for label in LABELS:
        tp = sum(g == label and p == label for g, p in zip(gold, pred, strict=True))
        npred = sum(p == label for p in pred)
        ngold = sum(g == label for g in gold)
        per[label] = {
            "precision": tp / npred if npred else 0.0,
            "recall": tp / ngold if ngold else 0.0,
            "n": float(ngold),
        }
    error = sum(g != p for g, p in zip(gold, pred, strict=True)) / len(gold) if gold else 0.0
    return per, error, len(gold), errors


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data")
    parser.add_argument("--acceptance", type=Path, default=ROOT / "benchmarks" / "data" / "acceptance.jsonl")
    args = parser.parse_args(argv)
    data = args.data if args.data.is_absolute() else (ROOT / args.data)
    rows = load_hypoterm(data)
    print(f"HypoTermQA-dev: {len(rows)} questions, {sum(r['isHypotheticalQuestion'] for r in rows)} invented")
    print(
        f"candidate recall (gold terms written in the question that a candidate overlaps): {candidate_recall(rows):.3f}"
    )
    with tempfile.TemporaryDirectory() as tmp:
        titles = titles_file(rows, Path(tmp))
        index_path = Path(tmp) / "kb.idx"
        stats = build_index(titles, index_path)
        configs = {
            "(a) default: context+lexicon": [ContextSource(), LexiconSource()],
            f"(b) + index ({stats.titles} simulated titles)": [
                ContextSource(),
                IndexSource(index_path),
                LexiconSource(),
            ],
        }
        results = {name: detect(rows, srcs) for name, srcs in configs.items()}
    keys = ["precision", "recall", "f1", "term_recall", "fp_rate_valid", "flip_rate", "undecided", "ms_per_query"]
    print()
    print(f"{'sources':<45}" + "".join(f"{k:>14}" for k in keys))
    for name, res in results.items():
        print(
            f"{name:<45}" + "".join(f"{res[k]:>14.3f}" if isinstance(res[k], float) else f"{res[k]:>14}" for k in keys)
        )
    print(
        f"(minimal pairs found: {next(iter(results.values()))['pairs']}; "
        "undecided = candidate terms no source could decide)"
    )
    if args.acceptance.is_file():
        for split, title in (
            ("dev", "dev split (rules were revised while looking at these)"),
            ("holdout", "holdout split (written after the rules were frozen)"),
            (None, "all"),
        ):
            per, error, n, errors = eval_acceptance(args.acceptance, split)
            print()
            print(f"acceptance classifier, {title}: {n} labelled answers")
            print(f"{'label':<12}{'n':>5}{'precision':>11}{'recall':>9}")
            for label, m in per.items():
                print(f"{label:<12}{int(m['n']):>5}{m['precision']:>11.3f}{m['recall']:>9.3f}")
            print(f"overall error: {error:.3f} ({round(error * n)} of {n})")
            if split is not None:
                for line in errors:
                    print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
