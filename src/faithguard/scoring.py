"""Pure scoring maths: the FaithQA Constraint Score and its bands. No I/O.

``score = 10 * sum_g(w_g * satisfied_g) / sum_g(w_g * judged_g)`` over the tiers
g in {mandatory, important, optional}. Constraints whose status is unknown are
left out of both sums: they are reported as unjudged, never counted as passes.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Literal, Protocol

if TYPE_CHECKING:
    from faithguard.models import Category, Status, Tier

__all__ = [
    "DEFAULT_WEIGHTS",
    "TIER_OF_CATEGORY",
    "band",
    "constraint_score",
    "score_from_counts",
    "tier_for",
]

#: The paper's weights: mandatory 3, important 2, optional 1.
DEFAULT_WEIGHTS: dict[str, float] = {"mandatory": 3.0, "important": 2.0, "optional": 1.0}

#: location/time/subject/action -> mandatory; qualifier/quantity -> important; other -> optional.
TIER_OF_CATEGORY: dict[str, str] = {
    "location": "mandatory",
    "time": "mandatory",
    "subject": "mandatory",
    "action": "mandatory",
    "qualifier": "important",
    "quantity": "important",
    "other": "optional",
}


class _Scorable(Protocol):
    @property
    def tier(self) -> Tier: ...

    @property
    def status(self) -> Status: ...


def tier_for(category: Category | str) -> Tier:
    """The tier the paper assigns to a category."""
    from faithguard.models import Tier

    return Tier(TIER_OF_CATEGORY[str(category)])


def score_from_counts(
    satisfied: Mapping[str, int], judged: Mapping[str, int], weights: Mapping[str, float] | None = None
) -> float | None:
    """Constraint Score from per-tier counts; None when nothing was judged (zero weight mass)."""
    w = DEFAULT_WEIGHTS if weights is None else weights
    for tier, n in judged.items():
        if n < 0 or satisfied.get(tier, 0) < 0 or satisfied.get(tier, 0) > n:
            raise ValueError(f"invalid counts for tier {tier!r}")
    denominator = sum(float(w[str(t)]) * n for t, n in judged.items())
    if denominator <= 0:
        return None
    numerator = sum(float(w[str(t)]) * satisfied.get(t, 0) for t in judged)
    return max(0.0, min(10.0, 10.0 * numerator / denominator))


def constraint_score(
    constraints: Iterable[_Scorable], weights: Mapping[Tier, float] | Mapping[str, float] | None = None
) -> float | None:
    """Constraint Score over the judged constraints, in [0, 10], or None."""
    satisfied: dict[str, int] = {}
    judged: dict[str, int] = {}
    for c in constraints:
        status = str(c.status)
        if status == "unknown":
            continue
        tier = str(c.tier)
        judged[tier] = judged.get(tier, 0) + 1
        if status == "satisfied":
            satisfied[tier] = satisfied.get(tier, 0) + 1
    w = {str(k): float(v) for k, v in (weights or DEFAULT_WEIGHTS).items()}
    return score_from_counts(satisfied, judged, w)


def band(score: float | None) -> Literal["aligned", "partial", "hallucinated"] | None:
    """aligned (>= 9), partial (7 <= s < 9), hallucinated (< 7); None for None."""
    if score is None:
        return None
    if score >= 9.0:
        return "aligned"
    if score >= 7.0:
        return "partial"
    return "hallucinated"
