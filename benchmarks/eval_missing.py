"""Evaluate the missing-content detector, its follow-up classifier and the end-to-end misinterpretation verdict.

Sets (all written for this project, none copied from an evaluation set); every line printed names its split:
- ``missing_content.jsonl``: the project's own set. The rules were tuned on it: TUNED-ON (study).
- ``missing_content_fresh.jsonl`` (fresh #1, 63 requests): first scored 0.656/0.000 at 607c2de, since TUNED-ON.
- ``missing_content_fresh2.jsonl`` (fresh #2, 60 requests): first scored 0.633/0.133 at 21a1a87 (never tuned on
  then); read and tuned on from 2026-11-23 09:30 UTC, so now study.
- ``missing_content_fresh3.jsonl`` (fresh #3, 65 requests, 32 missing) and ``misinterpretation_fresh3.jsonl``
  (24 request/response pairs): written 2026-11-23 10:43 UTC, after the rules were frozen at commit cda272a, by the
  engineer who wrote the rules (no separate writer was available); scored once, never tuned on: the
  generalization estimate then. Read and tuned on from 2026-11-23 14:00 UTC (branch sk): now study.
- ``missing_content_fresh4.jsonl`` (fresh #4, 60 requests, 30 missing) and ``misinterpretation_fresh4.jsonl``
  (24 pairs): written 2026-11-23 ~13:55 UTC before the changes of branch sk, by the engineer who then changed the
  rules; scored at 7e52789 before any change. Partly read since (by the lead), so it is no longer blind; branch sm
  (round 5) scored it without reading its rows.
- ``missing_content_fresh5.jsonl`` (fresh #5, 70 requests, 35 missing) and ``misinterpretation_fresh5.jsonl``
  (30 pairs): written blind by a separate writer (helper sw, 2026-11-23 17:38 UTC) who read no code, test or
  data of the project; the generalization set of session 4 (first scored 0.543/0.029 at 01cad01); read and
  tuned on from 2026-11-23 19:52 UTC, so now study.
- ``missing_content_fresh6.jsonl`` (fresh #6, 70 requests, 35 missing) and ``misinterpretation_fresh6.jsonl``
  (30 pairs): written blind by a separate writer (helper bw, 2026-11-23 ~20:05 UTC) who read no code, test, doc
  or data of the project; committed before being scored; never read: a generalization set (session 5's).
- ``missing_content_fresh7.jsonl`` (fresh #7, 70 requests, 35 missing) and ``misinterpretation_fresh7.jsonl``
  (30 pairs): written blind by a separate writer (helper bw7, 2026-11-23 ~22:05 UTC) who read no code, test, doc
  or data of the project; committed before being scored (first scored 0.714/0.114 at cadfc26, this session's
  start); never read: the generalization set of session 6.
- ``missing_content_fresh8.jsonl`` (fresh #8, 70 requests, 35 missing) and ``misinterpretation_fresh8.jsonl``
  (30 pairs): written blind by a separate writer (helper bw8, 2026-11-24 ~00:50 UTC) who read no code, test, doc
  or data of the project; committed before being scored (first scored 0.714/0.114 at c247a1c); never read: the
  generalization set of session 7.
- ``missing_content_fresh9.jsonl`` (fresh #9, 100 requests, 50 missing) and ``misinterpretation_fresh9.jsonl``
  (30 pairs): written by a separate writer (helper bw13, 2026-11-24 ~04:50 UTC) from a written spec, reading nothing
  of the project; the STUDY set of session 9 (read; classes fixed from it).
- ``missing_content_fresh10.jsonl`` (fresh #10, 70 requests, 35 missing) and ``misinterpretation_fresh10.jsonl``
  (30 pairs): written blind by helper bw14 at the same time from the same spec; committed before being scored;
  never read: the generalization set of session 9.
- ``missing_content_fresh11.jsonl`` (fresh #11, 100 requests, 50 missing) and ``misinterpretation_fresh11.jsonl``
  (40 pairs): written by helper 66 (2026-11-24 ~13:50 UTC) from the written spec, reading nothing of the project; the
  STUDY set of session 13 (committed before it was scored: its first score is its unseen figure; then read).
- ``missing_content_fresh12.jsonl`` (fresh #12, 70 requests, 35 missing) and ``misinterpretation_fresh12.jsonl``
  (30 pairs): written blind by helper 67 at the same time from the same spec; committed before being scored; never
  read: the generalization set of session 13.
- ``misinterpretation_fresh13.jsonl`` (60 pairs: 20 proceeding, 20 asking, 20 general answers): written by helper 71
  (2026-11-24 ~14:10 UTC) from the same spec, reading nothing of the project, asked for varied asking and general
  answers; a STUDY set of session 13 for the follow-up classifier (committed before it was scored; then read).
- ``missing_content_fresh14.jsonl`` (fresh #14, 70 requests, 35 missing) and ``misinterpretation_fresh14.jsonl``
  (30 pairs: 10 proceeding, 10 asking, 10 general answers): written blind by helper 73 (2026-11-24 ~17:20 UTC) from
  the same spec, reading nothing of the project; committed before being scored; never read: the generalization set
  of session 14.
- ``missing_content_fresh15.jsonl`` (100 requests, 50 missing; at least 15 positives where the user talks of the
  material as if given, without "attached"/"below"/"paste"): written by helper 74 (2026-11-24 ~18:05 UTC) from the
  same spec, reading nothing of the project; committed before it was scored; a STUDY set of session 14 (then read).

Run from the repo root: PYTHONPATH=src python benchmarks/eval_missing.py [-v]
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


def eval_input(path: Path, verbose: bool, title: str = "") -> dict[str, float]:
    """Recall and FPR of the input detector on one set. A set whose split is ``generalization`` prints aggregates
    only: its notes describe its rows, so neither the per-note error counts nor ``-v`` rows are shown for it."""
    blind = "generalization" in title
    verbose = verbose and not blind
    det = MissingContentDetector()
    items = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    rows: list[tuple[bool, bool]] = []
    errors: Counter[str] = Counter()
    per_note: Counter[str] = Counter()
    lines: list[str] = []
    for it in items:
        res = det.run(_ctx(it))
        pred = bool(res.findings.get("missing_content"))
        rows.append((bool(it["label"]), pred))
        per_note[it["note"]] += 1
        if pred != it["label"]:
            errors[it["note"]] += 1
            if verbose:
                lines.append(f"  ERR [{it['note']}] gold={it['label']} query={it['query'][:90]!r}")
                lines.extend(f"      -> {f['explanation']}" for f in res.findings.get("missing_content", []))
    rates = _rates(rows)
    _print(f"input detector: {path.name} {title}".rstrip(), rates)
    for line in lines:
        print(line)
    if blind:
        print("errors by note: not shown (a blind set's notes describe its rows)")
        return rates
    print("errors by note:" if errors else "errors by note: none")
    for note, n in sorted(errors.items()):
        print(f"  {note:<28} {n}/{per_note[note]}")
    return rates


def eval_followup(path: Path, verbose: bool) -> dict[str, float]:
    items = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    rows: list[tuple[bool, bool]] = []
    undecided = 0
    errors: Counter[str] = Counter()
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
    print(f"accuracy: {sum(g == p for g, p in rows) / len(rows):.3f}")
    print(f"undecided: {undecided}")
    print("errors by note:" if errors else "errors by note: none")
    for note, n in sorted(errors.items()):
        print(f"  {note:<34} {n}")
    return _rates(rows)


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


#: A 60-word request over three documents (the issue's speed target is on a 60-word query).
_QUERY60 = (
    "I have attached three reports from our city planning team. Please compare the three reports, "
    "explain where the second report contradicts the first, and tell me whether the third report supports "
    "either of them. Keep the answer under two hundred words, use plain language suitable for a resident "
    "newsletter, and end with one short practical question for the council members."
)


def _time(ctx: CallContext, runs: int, *, parse_warm: bool, memo_warm: bool = False) -> tuple[float, float]:
    """p50 wall and CPU milliseconds of one detector run on ``ctx``.

    Each run is a new request to the detector (a new detector, so its result memo is empty, and the
    text-keyed memos of the input modules cleared) unless ``memo_warm``; ``parse_warm`` keeps the shared
    parse cache (as when the engine parsed the request first), else it is cleared too. Word-keyed memos
    (a word's WordNet classes) stay warm, as they are in a process that has served other requests.
    """
    from faithguard.inputs import discourse, missing, references, syntax
    from faithguard.nlp import clear_parse_cache

    wall, cpu = [], []
    det = MissingContentDetector()
    det.run(ctx)
    for _ in range(runs):
        if not memo_warm:
            det = MissingContentDetector()
            syntax._memo.clear()
            for memo in (missing._placeholder_like, discourse._word_index, discourse._sentences_of):
                memo.cache_clear()
            discourse._introductions.cache_clear()
            references._compares.cache_clear()
        if not parse_warm:
            clear_parse_cache()
        t0, c0 = time.perf_counter(), time.process_time()
        det.run(ctx)
        wall.append((time.perf_counter() - t0) * 1000)
        cpu.append((time.process_time() - c0) * 1000)
    return statistics.median(wall), statistics.median(cpu)


def bench_speed(runs: int) -> None:
    import os

    docs = [_doc(200, s) for s in range(3)]
    MissingContentDetector().run(CallContext(query="Summarize the article."))  # load the parser once
    load = os.getloadavg()[0]
    print(
        f"\n== speed: {word_count_of(_QUERY60)}-word query, 200-word documents, {runs} runs, load {load:.2f}"
        " (process warm; each run a new request unless said) =="
    )
    full, short = CallContext(query=_QUERY60, documents=docs), CallContext(query=_QUERY60, documents=docs[:2])
    for label, ctx, parse_warm, memo_warm in (
        ("all 3 documents supplied, parse cache cold", full, False, False),
        ("one document missing, shared parse warm", short, True, False),
        ("one document missing, parse cache cold", short, False, False),
        ("the same request again (result memo)", short, True, True),
    ):
        wall, cpu = _time(ctx, runs if parse_warm else max(runs // 4, 1), parse_warm=parse_warm, memo_warm=memo_warm)
        print(f"{label:<44} p50 wall {wall:6.2f} ms   p50 CPU {cpu:6.2f} ms")
    print("(warm parse: the engine and the term checks parse the same request; the first detector pays the parse)")


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
    print("\n== answer ignores supplied content (misinterpretation candidate): InFoBench-dev ==")
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


def eval_self_contained(data: Path) -> list[str]:
    """False flags on prompts that carry everything they need (IFEval-dev and IFBench-dev prompts: every flag is false).

    Both sets are generation prompts with constraints ("write a poem ... separate the stanzas"), so a flag there is a
    definite noun the request itself introduced or a part of the text it asks for. Split by ``benchmarks/_split.py``;
    only counts are printed (no rows), so the holdout part stays unread.
    """
    import sys

    sys.path.insert(0, str(HERE))
    from _split import KEYS, split_rows

    det = MissingContentDetector()
    out: list[str] = []
    print("\n== false flags on self-contained prompts (every flag is false) ==")
    for name, rel in (("ifeval", "ifeval-dev/input_data.jsonl"), ("ifbench", "ifbench-dev/IFBench_test.jsonl")):
        path = data / rel
        if not path.is_file():
            print(f"({path} not found, skipped)")
            continue
        rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
        for part, prow in split_rows(name, rows, KEYS[name]).items():
            flagged = sum(bool(det.run(CallContext(query=r["prompt"])).findings.get("missing_content")) for r in prow)
            line = f"[split: {part}] {name}-dev prompts {len(prow)}: flagged {flagged} (rate {flagged / len(prow):.3f})"
            print(line)
            out.append(line)
    return out


def eval_misinterpretation(path: Path, verbose: bool) -> float:
    """End to end: input detector, then the follow-up detector on the response; is a misinterpretation flagged?

    Each row: a request (query, documents, system, messages), a ``response`` and ``label`` (True when the
    response misinterprets: it carries on although content is missing, or ignores supplied content).
    """
    from faithguard.inputs.followup import FollowupDetector

    det, fol = MissingContentDetector(), FollowupDetector()
    items = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    right, lines = 0, []
    for it in items:
        ctx = _ctx(it)
        found = det.run(ctx).findings
        ctx.findings.update(found)
        ctx.response = it["response"]
        res = fol.run(ctx)
        pred = any(v.kind == "misinterpretation" for v in res.verdicts)
        right += pred == bool(it["label"])
        if pred != bool(it["label"]) and verbose:
            lines.append(f"  ERR [{it.get('note', '')}] gold={it['label']} {res.findings} | {it['response'][:70]!r}")
    acc = right / len(items) if items else float("nan")
    print(f"\n== misinterpretation after the call (end to end): {path.name} ==")
    print(f"items {len(items)}  flagged-positive {sum(1 for it in items if it['label'])}  accuracy {acc:.3f}")
    for line in lines:
        print(line)
    return acc


def eval_guard_misreading(path: Path) -> dict[str, float]:
    """The product path: ``Guard(judge=None).check`` on each pair; flagged when any omission or misinterpretation
    verdict fires (the follow-up line above reads only the input-stage follow-up detector). Aggregates only."""
    from faithguard import Guard

    guard = Guard(judge=None)
    items = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    tp = fp = pos = 0
    for it in items:
        turns = [Message(role=m["role"], content=m["content"]) for m in it.get("messages") or []]
        report = guard.check(it["query"], it["response"], documents=it.get("documents") or [], messages=turns or None)
        pred = any(str(v.kind) in ("omission", "misinterpretation") for v in report.verdicts)
        pos += bool(it["label"])
        tp += pred and bool(it["label"])
        fp += pred and not it["label"]
    neg = len(items) - pos
    right = tp + (neg - fp)
    semantic = any(d.name == "semantic" for d in guard.registry.detectors)  # what the guard really registered
    return {
        "acc": right / len(items),
        "recall": tp / pos if pos else float("nan"),
        "fpr": fp / neg if neg else 0.0,
        "semantic": float(semantic),
    }


#: The generalization set of rounds 4-5: written before the mechanisms of branch sk changed, scored once then; partly
#: read since (by the lead), so no longer blind. Branch sm (round 5) scored it without reading its rows.
FRESH4 = "fresh #4 (written 2026-11-23 before branch sk; partly read since, not blind)"
#: Written blind by a separate writer who read no code; scored blind through session 4, read and studied from
#: 2026-11-23 19:52 UTC (session 5), so now study.
FRESH5 = "fresh #5 (written blind by sw 2026-11-23 17:38 UTC; read and TUNED-ON since 19:52 UTC)"
#: The blind set: written by a separate writer (helper bw, 2026-11-23 ~20:05 UTC) who read no code, test, doc or data
#: of the project; never read by anyone who changes the rules.
FRESH6 = "fresh #6 (written blind by bw 2026-11-23 20:05 UTC; never read)"
#: Session 6's blind set (helper bw7, read nothing of the project), committed before it was scored.
FRESH7 = "fresh #7 (written blind by bw7 2026-11-23 22:05 UTC; first scored 0.714/0.114 at cadfc26; never read)"

#: Session 7's blind set (helper bw8, read nothing of the project), committed before it was scored.
FRESH8 = "fresh #8 (written blind by bw8 2026-11-24 00:50 UTC; first scored 0.714/0.114 at c247a1c; never read)"

#: Session 9's study set (helper bw13, read nothing of the project, from a written spec): read and tuned on.
FRESH9 = "fresh #9 (written by bw13 2026-11-24 ~04:50 UTC from a spec, read nothing of the project; STUDY, read)"
#: Session 9's blind set (helper bw14, same spec and time), committed before it was scored.
FRESH10 = "fresh #10 (written blind by bw14 2026-11-24 ~04:50 UTC; never read)"
#: Session 13's study set (helper 66, read nothing of the project, from the written spec): read and tuned on.
FRESH11 = "fresh #11 (written by helper 66 2026-11-24 ~13:50 UTC from the spec; STUDY, read after its first score)"
#: Session 13's follow-up study set (helper 71, from the spec, read nothing of the project): read and tuned on.
FRESH13 = "fresh #13 follow-ups (written by helper 71 2026-11-24 ~14:10 UTC; STUDY, read after its first score)"
#: Session 13's blind set (helper 67, same spec and time), committed before it was scored.
FRESH12 = "fresh #12 (written blind by helper 67 2026-11-24 ~13:50 UTC; never read)"
FRESH14 = "fresh #14 (written blind by helper 73 2026-11-24 ~17:20 UTC; never read)"
FRESH15 = "fresh #15 (written by helper 74 2026-11-24 ~18:05 UTC from the spec; STUDY, read after its first score)"
#: Session 15's blind set (helper 76, read nothing of the project; from the writer spec), committed before scoring.
FRESH16 = "fresh #16 (written blind by helper 76 2026-11-24 ~20:50 UTC; never read)"

#: (file, split label) of the input sets, in print order. The split says what the set may be used for.
INPUT_SETS = (
    ("missing_content.jsonl", "study: own set, TUNED-ON"),
    ("missing_content_fresh.jsonl", "study: fresh #1 (first scored 0.656/0.000 at 607c2de), TUNED-ON"),
    (
        "missing_content_fresh2.jsonl",
        "study: fresh #2 (first scored 0.633/0.133 at 21a1a87), TUNED-ON since 2026-11-23 09:30",
    ),
    (
        "missing_content_fresh3.jsonl",
        "study: fresh #3 (first scored 0.750/0.030 at 7e52789, never tuned on then), TUNED-ON since 2026-11-23 14:00",
    ),
    ("missing_content_fresh4.jsonl", f"study: {FRESH4}"),
    ("missing_content_fresh5.jsonl", f"study: {FRESH5}"),
    ("missing_content_fresh6.jsonl", f"generalization: {FRESH6}"),
    ("missing_content_fresh7.jsonl", f"generalization: {FRESH7}"),
    ("missing_content_fresh8.jsonl", f"generalization: {FRESH8}"),
    ("missing_content_fresh9.jsonl", f"study: {FRESH9}"),
    ("missing_content_fresh10.jsonl", f"generalization: {FRESH10}"),
    ("missing_content_fresh11.jsonl", f"study: {FRESH11}"),
    ("missing_content_fresh12.jsonl", f"generalization: {FRESH12}"),
    ("missing_content_fresh14.jsonl", f"generalization: {FRESH14}"),
    ("missing_content_fresh15.jsonl", f"study: {FRESH15}"),
    ("missing_content_fresh16.jsonl", f"generalization: {FRESH16}"),
)
MISREAD_SETS = (
    (
        "misinterpretation_fresh3.jsonl",
        "study: fresh #3 responses (first scored 0.833 at 7e52789), TUNED-ON since 2026-11-23 14:00",
    ),
    ("misinterpretation_fresh4.jsonl", f"study: {FRESH4} responses"),
    ("misinterpretation_fresh5.jsonl", f"study: {FRESH5} responses"),
    ("misinterpretation_fresh6.jsonl", f"generalization: {FRESH6} responses"),
    ("misinterpretation_fresh7.jsonl", f"generalization: {FRESH7} responses"),
    ("misinterpretation_fresh8.jsonl", f"generalization: {FRESH8} responses"),
    ("misinterpretation_fresh9.jsonl", f"study: {FRESH9} responses"),
    ("misinterpretation_fresh10.jsonl", f"generalization: {FRESH10} responses"),
    ("misinterpretation_fresh11.jsonl", f"study: {FRESH11} responses"),
    ("misinterpretation_fresh12.jsonl", f"generalization: {FRESH12} responses"),
    ("misinterpretation_fresh13.jsonl", f"study: {FRESH13}"),
    ("misinterpretation_fresh14.jsonl", f"generalization: {FRESH14} responses"),
    ("misinterpretation_fresh16.jsonl", f"generalization: {FRESH16} responses"),
)


def _default_data() -> Path:
    for cand in (HERE.parent.parent / "shared" / "data", HERE.parent.parent.parent / "shared" / "data"):
        if cand.is_dir():
            return cand
    return HERE.parent.parent / "shared" / "data"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--sets", type=Path, default=HERE / "data", help="folder of the labelled sets")
    ap.add_argument("--followup", type=Path, default=HERE / "data" / "missing_followup.jsonl")
    ap.add_argument("--runs", type=int, default=400)
    ap.add_argument("--data", type=Path, default=_default_data(), help="shared eval data")
    ap.add_argument("-v", "--verbose", action="store_true", help="print every error")
    args = ap.parse_args()
    summary: list[str] = []
    for name, split in INPUT_SETS:
        path = args.sets / name
        if path.is_file():
            r = eval_input(path, args.verbose, f"[split: {split}]")
            summary.append(
                f"[split: {split}] {name}: items {r['n']} (pos {r['pos']}) recall {r['recall']:.3f} FPR {r['fpr']:.3f}"
            )
    r = eval_followup(args.followup, args.verbose)
    summary.append(
        f"[split: study: own follow-up set, TUNED-ON] {args.followup.name}: recall {r['recall']:.3f} FPR {r['fpr']:.3f}"
    )
    for name, split in MISREAD_SETS:
        path = args.sets / name
        if path.is_file():
            acc = eval_misinterpretation(path, args.verbose and not split.startswith("generalization"))
            summary.append(f"[split: {split}] {name}: misinterpretation accuracy {acc:.3f}")
            g = eval_guard_misreading(path)
            layer = "on" if g["semantic"] else "off"
            summary.append(
                f"[split: {split}] {name}: Guard.check offline (semantic layer {layer}), omission or "
                f"misinterpretation verdict: accuracy {g['acc']:.3f} recall {g['recall']:.3f} FPR {g['fpr']:.3f}"
            )
    eval_engagement(args.data)
    summary.extend(eval_self_contained(args.data))
    bench_speed(args.runs)
    print("\n== summary: one line per set, split named ==")
    for line in summary:
        print(line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
