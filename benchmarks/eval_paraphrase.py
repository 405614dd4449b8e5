"""Verifiable instructions in fresh wording: detection recall, parameter accuracy and false constraints (issue 11).

IFEval's own prompts state their instructions in template wording; the engine's detectors were developed on
them (``eval_ifeval.py``). This scores requests that state the same instruction types the way users write them,
on the product path: the verifiable constraints of ``Guard(judge=None).inspect(prompt)`` (the decomposition,
which merges the verifier detectors with the engine's own syntax readings such as a requested language).
``--detect-only`` scores ``faithguard.verifiers.detect`` alone, as ``eval_ifeval.py`` does.

Sets (``benchmarks/data``, written for this project, none copied from an evaluation set):
- ``paraphrase_fresh1.jsonl`` (80 requests: 64 with 1-3 instructions, 16 with none but tempting wording), written
  blind by a separate writer (helper bw9, finished 2026-11-24 00:57 UTC) who read no code, test, doc or data of the
  project, from a list of the instruction ids and their parameter names; committed before being scored; never
  read: a generalization set. Only aggregates are printed for it (``--show-misses`` refuses it).

- ``paraphrase_study1.jsonl`` (100 requests: 80 with 1-3 instructions, 20 with none), written by a second
  separate writer (helper bw10, finished 2026-11-24 00:59 UTC) under the same conditions, as the STUDY set: read,
  and the detection's paraphrase classes fixed from it, so its figures are tuned-on.
- ``paraphrase_fresh2.jsonl`` (80 requests, 16 with none; 111 gold instructions) written blind as #1 was (helper
  bw11, finished 2026-11-24 ~02:19 UTC, from a written spec of the ids and the relation conventions), committed
  before being scored; never read. Scored once at the code of that commit and once at the session's end.
- ``paraphrase_study2.jsonl`` (100 requests, 20 with none; 133 gold instructions), the second STUDY set (helper
  bw12, same spec and time, asked for varied attachment: clauses, passives, questions, requirement lists): read.
- ``paraphrase_fresh3.jsonl`` (80 requests, 16 with none; 116 gold instructions), written blind (helper 56,
  2026-11-24 ~06:55 UTC, same spec, asked for long requests with context, instructions in sub-clauses, brackets and
  follow-up complaints, and no-instruction requests that ask about a format or address someone else); committed
  before being scored; never read. First scored at the session-start code f7ca7bd.
- ``paraphrase_study4.jsonl`` (100 requests, 25 with none; 141 gold instructions), the fourth STUDY set (helper 57,
  2026-11-24 ~06:55 UTC, same spec, asked for conditions, preferences, contrasts and indirect asks, and traps: a
  format someone else must follow, counts of the user's own text, literal format words, requests to explain or
  check a format). Scored once unseen at f7ca7bd (recall 0.876, params 0.962, false 0.130), then read.
- ``paraphrase_study5.jsonl`` (100 requests, 22 with none; 134 gold instructions), the fifth STUDY set (helper 64,
  2026-11-24 ~11:35 UTC, same spec, asked for negations and limits, conditions and preferences, counts split over two
  sentences, approximate number words, instructions after a sign-off or in requirement lists, non-native English and
  numbers that are not instructions). Committed before being scored; its first score is its unseen figure.
- ``paraphrase_study6.jsonl`` (100 requests, 20 with none; 156 gold instructions), the sixth STUDY set (helper 68,
  2026-11-24 ~13:50 UTC, same spec, asked for marketing staff, teachers, hobby writers, job seekers and developers,
  requirements mid-message, as afterthoughts or numbered rules, numbers in words). Committed before being scored; its
  first score is its unseen figure.
- ``paraphrase_fresh4.jsonl`` (80 requests, 16 with none; 124 gold instructions), written blind (helper 69,
  2026-11-24 ~13:50 UTC, same spec, asked for students, parents, support agents, scientists and non-native writers,
  terse and chatty requests and limits stated in unusual ways); committed before being scored; never read. First
  scored at the session-13 start code 94608ad.
- ``paraphrase_study3.jsonl`` (100 requests, 20 with none; 130 gold instructions), the third STUDY set (helper
  bw15, 2026-11-24 ~04:50 UTC, same spec, asked for instructions inside long requests, sub-clauses, complaints
  about an earlier answer and requirement lists): read.

Each line: ``{"prompt", "gold": [{"id", "params"}], "note"}``. Recall is over gold instructions (micro), parameter
accuracy over recalled ones, false constraints are detected IFEval ids absent from the gold, per request.
Cache state: each request is new to the guard (distinct requests; the decomposition cache is cold for each).

Run: ``PYTHONPATH=src python benchmarks/eval_paraphrase.py [--sets benchmarks/data]``.
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from pathlib import Path
from typing import Any

from eval_ifeval import _norm

from faithguard.verifiers import IFEVAL_IDS, detect

HERE = Path(__file__).resolve().parent
#: (file, split line, blind): a blind set is scored by aggregates only.
SETS = (
    ("paraphrase_study1.jsonl", "study: paraphrases #1 (read; detection fixed from it)", False),
    ("paraphrase_study2.jsonl", "study: paraphrases #2 (read; detection fixed from it)", False),
    ("paraphrase_study3.jsonl", "study: paraphrases #3 (read; detection fixed from it)", False),
    ("paraphrase_study4.jsonl", "study: paraphrases #4 (read; first scored unseen 0.876/0.962/0.130)", False),
    ("paraphrase_study5.jsonl", "study: paraphrases #5 (written 2026-11-24 ~11:35 UTC by helper 64; read)", False),
    ("paraphrase_study6.jsonl", "study: paraphrases #6 (written 2026-11-24 ~13:50 UTC by helper 68; read)", False),
    ("paraphrase_fresh1.jsonl", "generalization: fresh paraphrases #1 (blind, never read)", True),
    ("paraphrase_fresh2.jsonl", "generalization: fresh paraphrases #2 (blind, never read)", True),
    ("paraphrase_fresh3.jsonl", "generalization: fresh paraphrases #3 (blind, never read)", True),
    ("paraphrase_fresh4.jsonl", "generalization: fresh paraphrases #4 (blind, never read)", True),
)
TARGETS = {"recall": 0.97, "params": 0.97, "false_per_prompt": 0.03}


def _params_match(gold: dict[str, Any], got: dict[str, Any]) -> bool:
    """As ``eval_ifeval``'s, but a text parameter compares without regard to case: the writer kept the case the
    user typed ("Part" for a section marker, "Storms" for a first word), which the checks ignore or the request
    does not fix."""

    def same(a: Any, b: Any) -> bool:
        return a.lower() == b.lower() if isinstance(a, str) and isinstance(b, str) else bool(a == b)

    return all(same(_norm(got.get(k)), _norm(v)) for k, v in gold.items() if v is not None)


def _found(prompt: str, guard: Any | None) -> list[tuple[str, dict[str, Any], bool]]:
    """(verifier id, params, tentative) read from ``prompt``: the guard's verifiable constraints, or the detectors
    alone (never tentative: the question reading is the engine's)."""
    if guard is None:
        return [(s.verifier, dict(s.params), False) for s in detect(prompt)]
    constraints = guard.inspect(prompt).constraints
    return [(c.verifier, dict(c.params), c.tentative) for c in constraints if c.verifier is not None]


def score(rows: list[dict[str, Any]], guard: Any | None = None) -> dict[str, Any]:
    """Micro recall of gold instructions, parameter accuracy of the recalled ones, false constraints per request.

    A tentative constraint (read from a question about its form: an answer without the form leaves it unknown,
    never an omission) counts as read for recall, and the share recalled only tentatively is given apart; false
    constraints count the asserted ones, and the tentative false ones are given apart."""
    gold_n = recalled = params_ok = false_total = tentative_false = tentative_only = 0
    per_id: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])  # gold, recalled, params right
    misses: list[str] = []
    for row in rows:
        found = _found(row["prompt"], guard)
        got = {verifier for verifier, _, _ in found}
        asserted = {verifier for verifier, _, tentative in found if not tentative}
        gold = row.get("gold") or []
        gold_ids = {g["id"] for g in gold}
        false_total += sum(1 for v in asserted if v in IFEVAL_IDS and v not in gold_ids)
        tentative_false += sum(1 for v in got - asserted if v in IFEVAL_IDS and v not in gold_ids)
        tentative_only += sum(1 for g in gold if g["id"] in got - asserted)
        for g in gold:
            gold_n += 1
            per_id[g["id"]][0] += 1
            if g["id"] not in got:
                misses.append(f"miss {g['id']} | {row['prompt'][:100]!r}")
                continue
            recalled += 1
            per_id[g["id"]][1] += 1
            cands = [params for verifier, params, _ in found if verifier == g["id"]]
            if any(_params_match(g.get("params") or {}, c) for c in cands):
                params_ok += 1
                per_id[g["id"]][2] += 1
            else:
                misses.append(f"param {g['id']} gold={g.get('params')} got={cands}"[:220])
    n = len(rows)
    return {
        "n": n,
        "gold": gold_n,
        "recall": recalled / max(1, gold_n),
        "params": params_ok / max(1, recalled),
        "false_total": false_total,
        "false_per_prompt": false_total / max(1, n),
        "tentative_false": tentative_false,
        "tentative_only": tentative_only,
        "per_id": dict(per_id),
        "misses": misses,
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sets", type=Path, default=HERE / "data", help="folder of the sets")
    ap.add_argument("--show-misses", action="store_true", help="print misses (refused for blind sets)")
    ap.add_argument("--data", type=Path, default=None, help="accepted for `make eval`; unused")
    ap.add_argument("--detect-only", action="store_true", help="score the verifier detectors alone")
    args = ap.parse_args()
    guard: Any | None = None
    if not args.detect_only:
        from faithguard import Guard

        guard = Guard(judge=None)
    path_name = "verifiers.detect alone" if guard is None else "product path (Guard.inspect, offline)"
    for name, split, blind in SETS:
        path = args.sets / name
        if not path.is_file():
            print(f"[split: {split}] {name}: not found, skipped")
            continue
        rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
        r = score(rows, guard)
        print(
            f"[split: {split}] {name} ({path_name}): requests {r['n']}, gold instructions {r['gold']} | "
            f"recall {r['recall']:.3f} "
            f"(target {TARGETS['recall']}) | params {r['params']:.3f} (target {TARGETS['params']}) | false "
            f"constraints {r['false_total']}, {r['false_per_prompt']:.3f} per request (target <= "
            f"{TARGETS['false_per_prompt']}) | tentative (read where the request may not ask it): "
            f"{r['tentative_only']} gold read only so, {r['tentative_false']} false | cache: cold per request"
        )
        weak = sorted((iid, g, rec, ok) for iid, (g, rec, ok) in r["per_id"].items() if rec < g or ok < rec)
        for iid, g, rec, ok in [] if blind else weak:  # a blind set's weak types would guide fixes: not shown
            print(f"    {iid:48} gold {g:2}  recalled {rec:2}  params right {ok:2}")
        if args.show_misses:
            if blind:
                print("    --show-misses refused: a blind set is scored by aggregates only")
            else:
                for line in r["misses"]:
                    print("    " + line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
