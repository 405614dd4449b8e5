"""Self-consistency: combine several judge samples by majority, field by field (pure)."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from typing import TypeVar

from faithguard.judge.schemas import ConstraintOut, DecomposeOut, SatisfyOut, TermItem, TermsOut

__all__ = ["majority", "norm_text", "vote_decompose", "vote_satisfy", "vote_terms"]

T = TypeVar("T")

_NON_WORD = re.compile(r"[^\w]+")


def norm_text(text: str) -> str:
    """Lower-cased words only, for matching the same item across samples."""
    return " ".join(_NON_WORD.sub(" ", text.lower()).split())


def majority(values: Sequence[T]) -> T:
    """The most common value; ties go to the value seen first."""
    if not values:
        raise ValueError("no values to vote on")
    counts = Counter(values)
    best = max(counts.values())
    return next(v for v in values if counts[v] == best)


def _jaccard(a: set[str], b: set[str]) -> float:
    return len(a & b) / len(a | b) if a | b else 1.0


def vote_decompose(samples: Sequence[DecomposeOut]) -> DecomposeOut:
    """Majority per field: missing content, constraints kept by more than half the samples."""
    if len(samples) == 1:
        return samples[0]
    n = len(samples)
    with_missing = [s for s in samples if s.missing_content]
    missing = with_missing[0].missing_content if 2 * len(with_missing) > n else []
    occurrences: dict[str, list[ConstraintOut]] = {}
    for sample in samples:
        seen: set[str] = set()
        for c in sample.constraints:
            key = norm_text(c.text)
            if key and key not in seen:
                seen.add(key)
                occurrences.setdefault(key, []).append(c)
    kept: list[ConstraintOut] = []
    for items in occurrences.values():
        if 2 * len(items) > n:
            kept.append(
                ConstraintOut(
                    text=items[0].text,
                    category=majority([c.category for c in items]),
                    negated=majority([c.negated for c in items]),
                    subquestion=majority([c.subquestion for c in items]),
                )
            )
    sub_count = majority([len(s.subquestions) for s in samples])
    base = next(s for s in samples if len(s.subquestions) == sub_count)
    if not kept and any(s.constraints for s in samples):
        # samples worded constraints differently: take the medoid sample's set
        keys = [{norm_text(c.text) for c in s.constraints} for s in samples]
        scores = [sum(_jaccard(k, other) for other in keys) for k in keys]
        medoid = samples[scores.index(max(scores))]
        kept = list(medoid.constraints)
        base = medoid
    return DecomposeOut(
        missing_content=missing,
        roles=base.roles,
        task=majority([s.task for s in samples]),
        subquestions=base.subquestions,
        constraints=kept,
        injection_suspected=any(s.injection_suspected for s in samples),
    )


#: Longest judge reason kept on a constraint (characters); a reply is free text of any length.
MAX_REASON_CHARS = 500


def _short(reason: str) -> str:
    return reason if len(reason) <= MAX_REASON_CHARS else reason[: MAX_REASON_CHARS - 1] + "…"


def vote_satisfy(samples: Sequence[SatisfyOut], ids: Sequence[str]) -> dict[str, tuple[bool | None, str]]:
    """Per constraint id: the majority boolean (None on a split) and a reason agreeing with it. A sample that
    answers one id both ways casts no vote for it; when no sample gives one answer, the id is None."""
    out: dict[str, tuple[bool | None, str]] = {}
    for cid in ids:
        votes = []
        torn = 0
        for sample in samples:
            given = [i for i in sample.results if i.id.strip() == cid]
            if len({i.satisfied for i in given}) > 1:
                torn += 1  # "c1 satisfied" and "c1 violated" in one reply: which one was meant is not known
            elif given:
                votes.append(given[0])
        if not votes:
            if torn:
                out[cid] = (None, "the judge answered this constraint both ways")
            continue
        yes = sum(1 for v in votes if v.satisfied)
        no = len(votes) - yes
        if yes == no:
            out[cid] = (None, f"judge samples split {yes}-{no}")
            continue
        decision = yes > no
        reason = next(v.reason for v in votes if v.satisfied is decision)
        out[cid] = (decision, _short(reason))
    return out


def _match_terms(sample: TermsOut, terms: Sequence[str]) -> dict[str, TermItem]:
    by_text = {norm_text(item.term): item for item in sample.terms}
    matched: dict[str, TermItem] = {}
    for i, term in enumerate(terms):
        item = by_text.get(norm_text(term))
        if item is None and len(sample.terms) == len(terms):
            item = sample.terms[i]
        if item is not None:
            matched[term] = item
    return matched


def vote_terms(samples: Sequence[TermsOut], terms: Sequence[str]) -> dict[str, TermItem]:
    """Per term: the majority acceptance label, its majority meaning, and a matching reason."""
    per_sample = [_match_terms(s, terms) for s in samples]
    out: dict[str, TermItem] = {}
    for term in terms:
        items = [m[term] for m in per_sample if term in m]
        if not items:
            continue
        label = majority([i.acceptance for i in items])
        agreeing = [i for i in items if i.acceptance == label]
        meaning = majority([i.meaning for i in agreeing])
        reason = next(i.reason for i in agreeing if i.meaning == meaning)
        out[term] = TermItem(term=term, acceptance=label, meaning=meaning, reason=_short(reason))
    return out
