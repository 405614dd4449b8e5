"""InFoBench (dev, STUDY part only): requirement questions by verifiable class, with the engine's agreement.

Each requirement question (GPT-4 judged yes/no) is put in one class by the form it asks about: counts of
words / sentences / paragraphs / lines / items, length limits, list / table / JSON format, starts or
ends with, language, tone and style, per-unit ("each", "every") requirements, form of the text ("is the
generated text a poem?"), otherwise content. The class patterns describe the *question* wording of
this benchmark, for measurement only; the engine never reads them. Requirements are mapped to guard
constraints as ``eval_infobench`` does (content-word Jaccard >= 0.3), and a requirement with a number
(> 1) that no constraint shares words with maps to the one quantity constraint asking for that number;
a class's agreement counts only mapped constraints the guard decided. The holdout part is never read here.

With ``--flags`` it lists instead the passing answers (every requirement YES) the guard flags, grouped by
the mechanism of the verdict (kind, detector, and the category and decider of the constraints it names).

Run: ``PYTHONPATH=src python benchmarks/infobench_classes.py [--data ../shared/data] [--flags]``.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _judged import OUTPUT_STAGE_KINDS, make_guard
from _split import KEYS, split_rows
from eval_infobench import _map_requirements

from faithguard.engine.lexicon import number_value
from faithguard.models import Category, Report, Severity, Status, Verdict

_NUM = r"(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten|twelve|twenty|fifty|hundred)"
#: (class, question pattern), first match wins; measurement only.
CLASSES: list[tuple[str, re.Pattern[str]]] = [
    ("per-unit count/form", re.compile(r"\b(each|every|per)\b", re.I)),
    (
        "length limit (words/chars)",
        re.compile(rf"\b{_NUM}[- ]word|\bword count|\bwords?\b.*\b(limit|exceed|less|more|approx)", re.I),
    ),
    ("count: words", re.compile(rf"\b{_NUM}\s+(?:\w+\s+)?words?\b", re.I)),
    ("count: sentences", re.compile(rf"\b{_NUM}\s+(?:\w+\s+)?sentences?\b|\bsentences? long\b", re.I)),
    (
        "count: paragraphs/sections",
        re.compile(rf"\b{_NUM}[- ](?:\w+\s+)?(?:paragraphs?|sections?|parts?|stanzas?)\b|single paragraph", re.I),
    ),
    ("count: lines", re.compile(rf"\b{_NUM}[- ](?:\w+\s+)?lines?\b", re.I)),
    (
        "count: items",
        re.compile(rf"\b(?:exactly|at least|at most|no more than|up to|minimum of|maximum of)?\s*{_NUM}\s+\w+", re.I),
    ),
    ("format: table", re.compile(r"\btables?\b|\bcolumns?\b|\brows?\b", re.I)),
    ("format: list/bullets", re.compile(r"\ba list\b|\bbullet|\bnumbered\b", re.I)),
    (
        "format: JSON/code/markup",
        re.compile(r"\bjson\b|\bhtml\b|\blatex\b|\bcode\b|\bsql\b|\bregex\b|\bcsv\b|\bmarkdown\b", re.I),
    ),
    ("starts/ends with", re.compile(r"\b(begin|start|end|conclude|commence|terminate|wrap up)s?\b.*\bwith\b", re.I)),
    ("language", re.compile(r"\b(english|chinese|spanish|french|german|japanese|language)\b", re.I)),
    (
        "tone/style",
        re.compile(r"\b(tone|concise|brief|formal|casual|professional|friendly|persuasive|style|clear|short)\b", re.I),
    ),
    (
        "form of text",
        re.compile(
            r"^(?:is|does) the (?:generated )?text (?:a|an|in the form of|formatted as|structured as|represent)\b", re.I
        ),
    ),
]


def klass(question: str) -> str:
    """The class of one requirement question."""
    return next((name for name, pat in CLASSES if pat.search(question)), "content (other)")


def _numbers(text: str) -> set[int]:
    out: set[int] = set()
    for w in re.findall(r"[a-z]+|\d+", text.lower()):
        v = number_value(w)
        if v is not None and v > 1:
            out.add(v)
    return out


def _map_by_number(questions: list[str], report: Report) -> list[tuple[int, Any]]:
    """A counting requirement maps to the quantity constraint asking for the same number (>1), if only one does."""
    out = []
    for i, q in enumerate(questions):
        nums = _numbers(q)
        if not nums:
            continue
        hits = [
            c
            for c in report.constraints
            if c.category is Category.QUANTITY
            and nums & (_numbers(c.text) | _numbers(" ".join(map(str, c.params.values()))))
        ]
        if len(hits) == 1:
            out.append((i, hits[0]))
    return out


def mechanism(verdict: Verdict, report: Report) -> str:
    """The mechanism of one output-stage verdict: its kind, the detector, and for a constraint verdict the
    category and decider of the constraints it names (so 'omission/offline location' and 'omission/verifier
    quantity' are told apart)."""
    named = [c for c in report.constraints if c.id in set(verdict.constraint_ids)]
    parts = sorted({f"{c.decided_by or '?'} {c.category}" for c in named})
    return f"{verdict.kind}/{verdict.detector}" + (f" [{', '.join(parts)}]" if parts else "")


def list_false_flags(study: list[dict[str, Any]]) -> None:
    """Passing answers (every GPT-4 requirement YES) that the guard flags, grouped by mechanism, both input modes.

    Study rows only: each flag is printed with its verdict and the constraints it names (status reason).
    """
    guard = make_guard({"judge": None, "exclude": ["semantic"]})
    for mode in ("documents", "inline"):
        by_class: dict[str, list[str]] = defaultdict(list)
        passing = 0
        for row in study:
            if not all(v is True for v in row["eval"]):
                continue
            passing += 1
            query, docs = row["instruction"], ([row["input"]] if row["input"] else None)
            if mode == "inline" and row["input"]:
                query, docs = query + "\n\n" + row["input"], None
            report = guard.check(query, row["output"], documents=docs)
            for v in report.verdicts:
                if v.kind not in OUTPUT_STAGE_KINDS or Severity(v.severity).rank < Severity.WARNING.rank:
                    continue
                lines = [f"  {row['id']}: {v.severity} {v.explanation[:200]}"]
                for c in report.constraints:
                    if c.id in v.constraint_ids:
                        lines.append(f"      {c.text[:80]!r} ({c.category}, {c.status}): {c.reason}")
                by_class[mechanism(v, report)].append("\n".join(lines))
        flagged_ids = {x.split(":")[0].strip() for xs in by_class.values() for x in xs}
        # The inline run follows the documents run in the same guard: a row without input is the same request again.
        again = sum(1 for r in study if all(v is True for v in r["eval"]) and not r["input"])
        caches = "new-request" if mode == "documents" else f"new-request-but-{again}-without-input-seen-again"
        print(
            f"infobench split=study (read) config=offline input={mode} caches={caches}: "
            f"{len(flagged_ids)}/{passing} passing answers flagged"
        )
        for name, items in sorted(by_class.items(), key=lambda kv: -len(kv[1])):
            print(f"{name}: {len(items)}")
            print("\n".join(items))
    guard.close()


def main() -> None:
    """Print the class table for the study part, documents mode (``--flags``: the false-flag listing)."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", type=Path, default=Path(__file__).resolve().parents[1].parent / "shared" / "data")
    ap.add_argument("--flags", action="store_true", help="list the passing answers the guard flags, by mechanism")
    args = ap.parse_args()
    path = args.data / "infobench-dev" / "infobench_gpt4_dev.jsonl"
    rows = [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]
    study = split_rows("infobench", rows, KEYS["infobench"])["study"]
    if args.flags:
        list_false_flags(study)
        return
    guard = make_guard({"judge": None, "exclude": ["semantic"]})
    stats: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0, 0, 0])  # n, no, mapped, decided, agree, wrong-fail
    for row in study:
        report = guard.check(row["instruction"], row["output"], documents=[row["input"]] if row["input"] else None)
        mapped = dict(_map_requirements(row["decomposed_questions"], report))
        mapped.update((i, c) for i, c in _map_by_number(row["decomposed_questions"], report) if i not in mapped)
        for i, (q, label) in enumerate(zip(row["decomposed_questions"], row["eval"], strict=True)):
            s = stats[klass(q)]
            s[0] += 1
            s[1] += label is False
            c = mapped.get(i)
            if c is None:
                continue
            s[2] += 1
            if c.status is Status.UNKNOWN or label is None:
                continue
            s[3] += 1
            s[4] += (c.status is Status.SATISFIED) == bool(label)
            s[5] += c.status is Status.VIOLATED and bool(label)
    guard.close()
    print("infobench split=study (read) config=offline input=documents caches=cold-per-query")
    print(f"{'class':30} {'n':>4} {'NO':>4} {'mapped':>6} {'decided':>7} {'agree':>6} {'wrong-violated':>14}")
    for name, s in sorted(stats.items(), key=lambda kv: -kv[1][0]):
        agree = f"{s[4] / s[3]:.2f}" if s[3] else "-"
        print(f"{name:30} {s[0]:4d} {s[1]:4d} {s[2]:6d} {s[3]:7d} {agree:>6} {s[5]:14d}")


if __name__ == "__main__":
    main()
