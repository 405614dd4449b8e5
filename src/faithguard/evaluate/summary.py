"""Pure metric functions over per-row results: the papers' figures, no I/O.

FaithQA: Perfect rate and mean Constraint Score, split Easy (<= 4 constraints) vs Hard (> 4),
and the violated constraints by category (its Fig. 4). HypoTermQA: the share of valid answers
to questions holding an invented term. Plus verdict rates by kind, agreement with gold labels,
and the short-long consistency figures (SLAQ) when the probe ran.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from faithguard.evaluate.slaq import slaq_metrics

__all__ = [
    "EASY_MAX_CONSTRAINTS",
    "PartFacts",
    "RowFacts",
    "binary_agreement",
    "consistency_summary",
    "difficulty",
    "difficulty_split",
    "facts_from_row",
    "gold_agreement",
    "hypoterm_summary",
    "mean_score",
    "perfect_rate",
    "score_histogram",
    "summarize",
    "verdict_rates",
    "violations_by_category",
]

#: FaithQA: Easy problems have at most 4 constraints, Hard ones more.
EASY_MAX_CONSTRAINTS = 4
CATEGORIES = ("location", "time", "subject", "action", "qualifier", "quantity", "other")


@dataclass(frozen=True)
class PartFacts:
    """One probed part of a multi-part query (short-long consistency)."""

    query_position: float
    agree: bool | None
    short_correct: bool | None = None
    long_correct: bool | None = None


@dataclass(frozen=True)
class RowFacts:
    """What the metrics need from one evaluated row."""

    key: str
    ok: bool = True
    perfect: bool = False
    band: str = "undetermined"
    outcome: str = "undetermined"
    #: detectors or decomposers that failed or timed out on this row (the row still has a report)
    stage_failures: int = 0
    score: float | None = None
    total: int = 0
    judged: int = 0
    violated_categories: tuple[str, ...] = ()
    verdict_kinds: tuple[str, ...] = ()
    answer_label: str | None = None
    flagged_terms: frozenset[str] = frozenset()
    gold_perfect: bool | None = None
    gold_score: float | None = None
    gold_verdicts: tuple[str, ...] | None = None
    is_hypothetical: bool | None = None
    gold_terms: tuple[tuple[str, bool], ...] = ()
    gold_answer_label: str | None = None
    parts: tuple[PartFacts, ...] = field(default_factory=tuple)

    @property
    def decided(self) -> bool:
        """The guard reached a decision on the row: it is perfect, or its outcome is ``ok`` or ``hallucination``.

        A row whose outcome is ``undetermined`` (constraints left unknown, a stage that failed) is not counted as
        a hallucination in the Perfect rate or the gold agreement: it is undecided, and counted as such."""
        return self.ok and (self.perfect or self.outcome != "undetermined")


def _flagged(report: Mapping[str, Any]) -> frozenset[str]:
    out = {str(v["term"]).lower() for v in report.get("verdicts", []) if v.get("term")}
    out |= {str(t["term"]).lower() for t in report.get("terms", []) if t.get("known") is False}
    return frozenset(out)


def _parts(report: Mapping[str, Any]) -> tuple[PartFacts, ...]:
    probe = (report.get("findings") or {}).get("consistency")
    if not isinstance(probe, Mapping):
        return ()
    out = []
    for p in probe.get("parts") or []:
        if not isinstance(p, Mapping):
            continue
        out.append(
            PartFacts(
                query_position=float(p.get("query_position") or 0.0),
                agree=p.get("agree"),
                short_correct=p.get("short_correct"),
                long_correct=p.get("long_correct"),
            )
        )
    return tuple(out)


def facts_from_row(row: Mapping[str, Any]) -> RowFacts:
    """The facts of one line of reports.jsonl (as written by the runner)."""
    gold = row.get("gold") or {}
    gold_kw: dict[str, Any] = {
        "gold_perfect": gold.get("gold_perfect"),
        "gold_score": gold.get("gold_score"),
        "gold_verdicts": tuple(gold["gold_verdicts"]) if gold.get("gold_verdicts") is not None else None,
        "is_hypothetical": gold.get("is_hypothetical"),
        "gold_terms": tuple((str(t["term"]), bool(t.get("is_hypothetical"))) for t in gold.get("terms") or []),
        "gold_answer_label": gold.get("gold_answer_label"),
    }
    report = row.get("report")
    if row.get("status") != "ok" or not isinstance(report, Mapping):
        return RowFacts(key=str(row.get("key")), ok=False, **gold_kw)
    constraints = report.get("constraints") or []
    return RowFacts(
        key=str(row.get("key")),
        perfect=bool(report.get("perfect")),
        band=str(report.get("band") or "undetermined"),
        outcome=str(report.get("outcome") or "undetermined"),
        stage_failures=sum(1 for e in report.get("errors") or [] if e.get("stage") != "observe"),
        score=report.get("constraint_score"),
        total=len(constraints),
        judged=sum(1 for c in constraints if c.get("status") in ("satisfied", "violated")),
        violated_categories=tuple(str(c.get("category")) for c in constraints if c.get("status") == "violated"),
        verdict_kinds=tuple(sorted({str(v.get("kind")) for v in report.get("verdicts") or []})),
        answer_label=report.get("answer_label"),
        flagged_terms=_flagged(report),
        parts=_parts(report),
        **gold_kw,
    )


def _ratio(num: int, den: int) -> float | None:
    return num / den if den else None


def perfect_rate(facts: Iterable[RowFacts]) -> float | None:
    """Share of decided rows that are perfect (no violated constraint, no verdict); None if none decided."""
    decided = [f for f in facts if f.decided]
    return _ratio(sum(1 for f in decided if f.perfect), len(decided))


def mean_score(facts: Iterable[RowFacts]) -> float | None:
    """Mean Constraint Score over rows that have one."""
    scores = [f.score for f in facts if f.ok and f.score is not None]
    return math.fsum(scores) / len(scores) if scores else None


def score_histogram(facts: Iterable[RowFacts], bins: int = 10) -> list[int]:
    """Counts of scores in ``bins`` equal bins over [0, 10] (10 falls in the last)."""
    counts = [0] * bins
    for f in facts:
        if f.ok and f.score is not None:
            counts[min(bins - 1, max(0, int(f.score / 10.0 * bins)))] += 1
    return counts


def difficulty(total_constraints: int) -> str:
    """``easy`` (1..4 constraints), ``hard`` (> 4) or ``none`` (nothing decomposed)."""
    if total_constraints <= 0:
        return "none"
    return "easy" if total_constraints <= EASY_MAX_CONSTRAINTS else "hard"


def difficulty_split(facts: Sequence[RowFacts]) -> dict[str, dict[str, Any]]:
    """Perfect rate and mean score per difficulty; the ``rows`` counts add up to the ok rows."""
    out: dict[str, dict[str, Any]] = {}
    for level in ("easy", "hard", "none"):
        group = [f for f in facts if f.ok and difficulty(f.total) == level]
        out[level] = {
            "rows": len(group),
            "perfect_rate": perfect_rate(group),
            "mean_constraint_score": mean_score(group),
        }
    return out


def violations_by_category(facts: Iterable[RowFacts]) -> dict[str, Any]:
    """Violated constraints per category: counts, shares of all violations, total."""
    counts: Counter[str] = Counter()
    for f in facts:
        counts.update(f.violated_categories)
    total = sum(counts.values())
    keys = [c for c in CATEGORIES if c in counts] + sorted(k for k in counts if k not in CATEGORIES)
    return {
        "total": total,
        "counts": {k: counts[k] for k in keys},
        "share": {k: counts[k] / total for k in keys} if total else {},
    }


def verdict_rates(facts: Sequence[RowFacts]) -> dict[str, dict[str, float | int]]:
    """Per verdict kind: rows with at least one such verdict, and that count over ok rows."""
    ok = [f for f in facts if f.ok]
    counts: Counter[str] = Counter()
    for f in ok:
        counts.update(set(f.verdict_kinds))
    return {k: {"rows": n, "rate": n / len(ok)} for k, n in sorted(counts.items())}


def binary_agreement(pairs: Iterable[tuple[bool, bool]]) -> dict[str, Any]:
    """Accuracy, precision, recall, F1 and the confusion counts of (predicted, gold) pairs; True = positive."""
    tp = fp = fn = tn = 0
    for pred, gold in pairs:
        if pred and gold:
            tp += 1
        elif pred:
            fp += 1
        elif gold:
            fn += 1
        else:
            tn += 1
    n = tp + fp + fn + tn
    precision = _ratio(tp, tp + fp)
    recall = _ratio(tp, tp + fn)
    f1 = 2 * precision * recall / (precision + recall) if precision and recall else (0.0 if n else None)
    return {
        "n": n,
        "accuracy": _ratio(tp + tn, n),
        "precision": precision,
        "recall": recall,
        "f1": f1,
        "tp": tp,
        "fp": fp,
        "fn": fn,
        "tn": tn,
    }


def gold_agreement(facts: Sequence[RowFacts]) -> dict[str, Any] | None:
    """Agreement with the gold labels present; None when no row carries any."""
    ok = [f for f in facts if f.ok]
    out: dict[str, Any] = {}
    labelled = [f for f in ok if f.gold_perfect is not None]
    if labelled:
        decided = [f for f in labelled if f.decided]
        agreement = binary_agreement((not f.perfect, not f.gold_perfect) for f in decided)
        agreement["positive"] = "hallucinated (not perfect)"
        agreement["undecided"] = len(labelled) - len(decided)
        out["perfect"] = agreement
    with_verdicts = [f for f in ok if f.gold_verdicts is not None]
    if with_verdicts:
        kinds = sorted({k for f in with_verdicts for k in (*f.verdict_kinds, *(f.gold_verdicts or ()))})
        out["verdicts"] = {
            kind: binary_agreement((kind in f.verdict_kinds, kind in (f.gold_verdicts or ())) for f in with_verdicts)
            for kind in kinds
        }
    scored = [f for f in ok if f.gold_score is not None and f.score is not None]
    if scored:
        out["score_mae"] = math.fsum(abs(float(f.score or 0.0) - float(f.gold_score or 0.0)) for f in scored) / len(
            scored
        )
        out["score_n"] = len(scored)
    labels = [f for f in ok if f.gold_answer_label is not None and f.answer_label is not None]
    if labels:
        out["answer_label"] = {
            "n": len(labels),
            "accuracy": sum(1 for f in labels if f.answer_label == f.gold_answer_label) / len(labels),
        }
    return out or None


def hypoterm_summary(facts: Sequence[RowFacts]) -> dict[str, Any] | None:
    """HypoTermQA score (valid answers to questions with an invented term) and term detection; None if unlabelled."""
    ok = [f for f in facts if f.ok]
    hypo = [f for f in ok if f.is_hypothetical]
    if not any(f.is_hypothetical is not None for f in ok):
        return None
    labelled = [f for f in hypo if f.answer_label is not None]
    by_label = Counter(str(f.answer_label) for f in labelled)
    out: dict[str, Any] = {
        "hypothetical_questions": len(hypo),
        "labelled": len(labelled),
        "unlabelled": len(hypo) - len(labelled),
        "by_label": dict(sorted(by_label.items())),
        "score": _ratio(by_label.get("valid", 0), len(labelled)),
    }
    gold_labelled = [f for f in hypo if f.gold_answer_label is not None]
    if gold_labelled:
        out["gold_score"] = sum(1 for f in gold_labelled if f.gold_answer_label == "valid") / len(gold_labelled)
    term_pairs = [(term.lower() in f.flagged_terms, hyp) for f in ok for term, hyp in f.gold_terms]
    if term_pairs:
        out["term_detection"] = binary_agreement(term_pairs)
    question_pairs = [(bool(f.flagged_terms), bool(f.is_hypothetical)) for f in ok if f.is_hypothetical is not None]
    out["question_detection"] = binary_agreement(question_pairs)
    return out


def _bucket(position: float) -> str:
    if position < 1 / 3:
        return "early"
    return "middle" if position < 2 / 3 else "late"


def consistency_summary(facts: Sequence[RowFacts]) -> dict[str, Any] | None:
    """Short-long consistency over all probed parts (agreement, SLAQ alignment by position); None if never run."""
    parts = [p for f in facts if f.ok for p in f.parts]
    if not parts:
        return None
    decided = [p for p in parts if p.agree is not None]
    by_position: dict[str, dict[str, Any]] = {}
    for name in ("early", "middle", "late"):
        group = [p for p in decided if _bucket(p.query_position) == name]
        by_position[name] = {"parts": len(group), "agreement": _ratio(sum(1 for p in group if p.agree), len(group))}
    pairs = [
        (bool(p.short_correct), bool(p.long_correct))
        for p in parts
        if p.short_correct is not None and p.long_correct is not None
    ]
    return {
        "rows": sum(1 for f in facts if f.parts),
        "parts": len(parts),
        "decided": len(decided),
        "agreement": _ratio(sum(1 for p in decided if p.agree), len(decided)),
        "by_position": by_position,
        "slaq": slaq_metrics(pairs),
    }


def summarize(facts: Sequence[RowFacts], *, bad_rows: int = 0) -> dict[str, Any]:
    """The whole summary (JSON-ready) of an evaluation run."""
    ok = [f for f in facts if f.ok]
    decided = [f for f in ok if f.decided]
    bands = Counter(f.band for f in ok)
    outcomes = Counter(f.outcome for f in ok)
    return {
        "rows": {
            "evaluated": len(facts),
            "ok": len(ok),
            "errors": len(facts) - len(ok),
            "bad_rows": bad_rows,
            # rows that have a report but lost a stage (timeout, failure): their outcome is undetermined
            "with_stage_failures": sum(1 for f in ok if f.stage_failures),
        },
        "outcomes": {k: outcomes.get(k, 0) for k in ("ok", "hallucination", "undetermined")},
        "perfect_rate": perfect_rate(ok),
        "perfect": sum(1 for f in decided if f.perfect),
        "decided": len(decided),
        "mean_constraint_score": mean_score(ok),
        "scored": sum(1 for f in ok if f.score is not None),
        "bands": {k: bands.get(k, 0) for k in ("aligned", "partial", "hallucinated", "undetermined")},
        "score_histogram": score_histogram(ok),
        "difficulty": difficulty_split(ok),
        "violations_by_category": violations_by_category(ok),
        "verdict_rates": verdict_rates(ok),
        "hypoterm": hypoterm_summary(ok),
        "gold": gold_agreement(ok),
        "consistency": consistency_summary(ok),
    }
