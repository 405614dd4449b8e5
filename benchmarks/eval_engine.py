"""Evaluate the offline decomposer: IFEval gold-id recall and a golden-set category/tier table.

Run from the repo root: ``PYTHONPATH=src python benchmarks/eval_engine.py [--data ../shared/data]``.
"""

from __future__ import annotations

import argparse
import ast
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "engine"))
sys.path.insert(0, str(ROOT / "benchmarks"))

from _split import KEYS, split_rows  # noqa: E402
from golden import context_for, load_golden, matches  # noqa: E402

from faithguard.detector import CallContext  # noqa: E402
from faithguard.engine.content import load_language_id  # noqa: E402
from faithguard.engine.decompose import OfflineDecomposer, undetermined_reason  # noqa: E402
from faithguard.models import Category  # noqa: E402
from faithguard.scoring import tier_for  # noqa: E402
from faithguard.verifiers import detect  # noqa: E402


def _params_match(gold: dict[str, Any], got: dict[str, Any]) -> bool:
    return all(got.get(k) == v for k, v in gold.items() if v is not None)


def eval_ifeval(data: Path) -> None:
    """Recall of gold instruction ids (and parameter accuracy) through the decomposer, per split."""
    path = data / "ifeval-dev" / "input_data.jsonl"
    if not path.exists():
        print(f"(skipped IFEval: {path} not found)")
        return
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    for part, part_rows in split_rows("ifeval", rows, KEYS["ifeval"]).items():
        _eval_ifeval_rows(part_rows, part)


def _eval_ifeval_rows(rows: list[dict[str, Any]], part: str) -> None:
    dec = OfflineDecomposer()
    gold_n = hit = param_ok = raw_hit = 0
    per_group: Counter[str] = Counter()
    per_group_hit: Counter[str] = Counter()
    prompts = 0
    with_action = with_subject = 0
    n_content = 0
    undetermined = 0
    for row in rows:
        prompts += 1
        d = dec.decompose(CallContext(query=row["prompt"]))
        undetermined += undetermined_reason(row["prompt"]) is not None
        raw_ids = {s.verifier for s in detect(row["prompt"])}
        raw_hit += sum(1 for iid in row["instruction_id_list"] if iid in raw_ids)
        got: dict[str, list[dict[str, Any]]] = {}
        for c in d.constraints:
            if c.verifier:
                got.setdefault(c.verifier, []).append(c.params)
        cats = {str(c.category) for c in d.constraints if not c.verifier}
        with_action += "action" in cats
        with_subject += "subject" in cats
        n_content += sum(1 for c in d.constraints if not c.verifier)
        for iid, kw in zip(row["instruction_id_list"], row["kwargs"], strict=True):
            group = iid.split(":")[0]
            gold_n += 1
            per_group[group] += 1
            if iid in got:
                hit += 1
                per_group_hit[group] += 1
                param_ok += any(_params_match(kw, p) for p in got[iid])
    print(f"IFEval dev [split={part}]: {prompts} prompts, {gold_n} gold instructions")
    print(f"  id recall through the decomposer : {hit / gold_n:.3f} ({hit}/{gold_n})")
    print(f"  id recall of verifiers.detect    : {raw_hit / gold_n:.3f} ({raw_hit}/{gold_n}) (upper bound)")
    print(f"  parameter accuracy on found ids  : {param_ok / max(hit, 1):.3f} ({param_ok}/{hit})")
    print(f"  prompts with an action / subject : {with_action / prompts:.2f} / {with_subject / prompts:.2f}")
    print(f"  content constraints per prompt   : {n_content / prompts:.2f}")
    print(f"  prompts the engine declares undetermined: {undetermined}")
    print(f"  {'group':<24}{'gold':>6}{'recall':>9}")
    for group in sorted(per_group):
        print(f"  {group:<24}{per_group[group]:>6}{per_group_hit[group] / per_group[group]:>9.3f}")


def eval_golden(cases: list[dict[str, Any]], label: str) -> None:
    """Per-category and per-tier precision/recall on hand-written golden queries."""
    dec = OfflineDecomposer()
    tp: Counter[str] = Counter()
    fn: Counter[str] = Counter()
    fp: Counter[str] = Counter()
    task_ok = parts_ok = 0
    for case in cases:
        d = dec.decompose(context_for(case))
        task_ok += d.task == case["task"]
        parts_ok += len(d.subquestions) == case["parts"]
        for e in case["expect"]:
            key = e[0]
            if any(matches(e, c) for c in d.constraints):
                tp[key] += 1
            else:
                fn[key] += 1
        gold_cats = {e[0] for e in case["expect"]}
        for c in d.constraints:
            cat = str(c.category)
            if c.verifier or cat not in gold_cats:
                continue
            if not any(matches(e, c) for e in case["expect"]):
                fp[cat] += 1

    def row(name: str, t: int, f_n: int, f_p: int) -> str:
        rec = t / (t + f_n) if t + f_n else float("nan")
        prec = t / (t + f_p) if t + f_p else float("nan")
        return f"  {name:<12}{t + f_n:>6}{prec:>11.3f}{rec:>9.3f}"

    print(f"\n{label}: {len(cases)} hand-written queries")
    print(
        f"  task lemma accuracy: {task_ok / len(cases):.3f}; sub-question count accuracy: {parts_ok / len(cases):.3f}"
    )
    print(f"  {'category':<12}{'gold':>6}{'precision':>11}{'recall':>9}")
    for cat in Category:
        print(row(cat.value, tp[cat.value], fn[cat.value], fp[cat.value]))
    print(f"  {'tier':<12}{'gold':>6}{'precision':>11}{'recall':>9}")
    for tier in ("mandatory", "important", "optional"):
        cats = [c.value for c in Category if tier_for(c).value == tier]
        print(row(tier, sum(tp[c] for c in cats), sum(fn[c] for c in cats), sum(fp[c] for c in cats)))
    print("  (precision counts only categories the case lists; constraints the golden file does not name count as FP)")


#: The request-side modules whose hand-typed English is counted (issue 11).
REQUEST_MODULES = ("decompose", "roles", "places", "names", "lexicon", "split", "parts", "query_ents", "timespan")
_RE_CALLS = frozenset({"compile", "search", "match", "fullmatch", "finditer", "findall", "sub", "subn", "split"})


def _strings(node: ast.AST) -> list[str]:
    return [n.value for n in ast.walk(node) if isinstance(n, ast.Constant) and isinstance(n.value, str)]


def _regex_call(node: ast.AST) -> bool:
    """A call ``re.<compile|search|...>(pattern, ...)``."""
    if not isinstance(node, ast.Call) or not node.args or not isinstance(node.func, ast.Attribute):
        return False
    func = node.func
    return isinstance(func.value, ast.Name) and func.value.id == "re" and func.attr in _RE_CALLS


def inventory_module(source: str) -> Counter[str]:
    """Regex call sites, their alternatives (spliced module-level fragments included) and literal word tables
    of 5+ entries (``words("...")`` blocks, string sets/lists/tuples, string-keyed dicts) in one module."""
    tree = ast.parse(source)
    out: Counter[str] = Counter()
    inside: set[int] = set()
    for node in ast.walk(tree):
        if id(node) in inside:
            continue
        if _regex_call(node):
            assert isinstance(node, ast.Call)
            out["regex sites"] += 1
            out["alternatives"] += "".join(_strings(node.args[0])).count("|") + 1
            continue
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "words":
            n = len(" ".join(_strings(node)).split())
            if n >= 5:
                out["word tables"] += 1
                out["table entries"] += n
                inside.update(id(x) for x in ast.walk(node))
            continue
        if isinstance(node, (ast.Set, ast.List, ast.Tuple, ast.Dict)):
            elts = node.keys if isinstance(node, ast.Dict) else node.elts
            n = sum(1 for e in elts if isinstance(e, ast.Constant) and isinstance(e.value, str))
            if n >= 5:
                if isinstance(node, ast.Dict):  # values holding whitespace-separated name blocks
                    n += sum(
                        len(str(v.value).split()) - 1
                        for v in node.values
                        if isinstance(v, ast.Constant) and len(str(v.value).split()) > 3
                    )
                out["word tables"] += 1
                out["table entries"] += n
                inside.update(id(x) for x in ast.walk(node))
    for stmt in tree.body:  # regex fragments spliced into patterns through f-strings
        if isinstance(stmt, ast.Assign) and id(stmt.value) not in inside and not isinstance(stmt.value, ast.Call):
            pattern = "".join(_strings(stmt.value))
            if pattern.count("|") >= 2:
                out["alternatives"] += pattern.count("|") + 1
    return out


def _row(counts: Counter[str]) -> str:
    keys = ("regex sites", "alternatives", "word tables", "table entries")
    return "".join(f"{counts[k]:>6}" for k in keys)


def print_inventory() -> None:
    """Hand-typed English left in the request-side engine modules (issue 11 asks for it to shrink)."""
    total: Counter[str] = Counter()
    print("\nHand-typed English in the request-side engine modules (regex sites / alternatives / tables / entries)")
    for name in REQUEST_MODULES:
        path = ROOT / "src" / "faithguard" / "engine" / f"{name}.py"
        counts = inventory_module(path.read_text(encoding="utf-8"))
        total.update(counts)
        print(f"  {name:<12}" + _row(counts))
    print(f"  {'total':<12}" + _row(total))


def main() -> int:
    """Entry point."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data")
    args = parser.parse_args()
    load_language_id()  # as Guard.warmup would: no row is read while the model is still loading
    eval_ifeval(args.data)
    eval_golden(load_golden(), "Golden set (tests/engine/golden_queries.json, developed against)")
    heldout = json.loads((ROOT / "tests" / "engine" / "golden_heldout.json").read_text(encoding="utf-8"))
    eval_golden(heldout, "Held-out golden set (tests/engine/golden_heldout.json, written after tuning, not tuned on)")
    print_inventory()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
