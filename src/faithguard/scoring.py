"""Pure scoring maths: the FaithQA Constraint Score, the range it could take, bands and outcomes. No I/O.

``score = 10 * sum_g(w_g * satisfied_g) / sum_g(w_g * judged_g)`` over the tiers
g in {mandatory, important, optional}. Constraints whose status is unknown are
left out of both sums: they are reported as unjudged, never counted as passes.

Because unknown constraints are left out, the score alone overstates what was checked. The
*range* says what the score could be once every constraint is decided: ``lower`` counts every
unknown constraint as unsatisfied (the paper's ``W_t`` over all constraints), ``upper`` as
satisfied. ``coverage`` is the judged share of the total weight. Bands and the call's outcome are
read from the range, never from the score alone.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Literal, Protocol

if TYPE_CHECKING:
    from faithguard.models import Category, Status, Tier

__all__ = [
    "ALIGNED_AT",
    "BANDS",
    "DEFAULT_WEIGHTS",
    "OUTCOMES",
    "PARTIAL_AT",
    "TIER_OF_CATEGORY",
    "Band",
    "OutcomeLabel",
    "band",
    "band_of_range",
    "constraint_score",
    "coverage",
    "outcome_of",
    "score_from_counts",
    "score_range",
    "tier_for",
]

Band = Literal["aligned", "partial", "hallucinated", "undetermined"]
OutcomeLabel = Literal["ok", "hallucination", "undetermined"]
#: Every band and outcome, in a fixed order (telemetry pre-creates one series for each).
BANDS: tuple[Band, ...] = ("aligned", "partial", "hallucinated", "undetermined")
OUTCOMES: tuple[OutcomeLabel, ...] = ("ok", "hallucination", "undetermined")

#: The project's default tier weights (mandatory 3, important 2, optional 1). FaithQA ranks the tiers
#: but publishes no weights; these are faithguard's choice and are configurable (``Guard(weights=...)``).
DEFAULT_WEIGHTS: dict[str, float] = {"mandatory": 3.0, "important": 2.0, "optional": 1.0}

#: Band thresholds on the 0-10 scale (the project's choice; FaithQA only defines "perfect = 10").
ALIGNED_AT = 9.0
PARTIAL_AT = 7.0

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
    """The band of one fully known score: aligned (>= 9), partial (7 <= s < 9), hallucinated (< 7); None for None."""
    if score is None:
        return None
    if score >= ALIGNED_AT:
        return "aligned"
    if score >= PARTIAL_AT:
        return "partial"
    return "hallucinated"


def _weighted(
    constraints: Iterable[_Scorable], weights: Mapping[Tier, float] | Mapping[str, float] | None
) -> tuple[float, float, float]:
    """(satisfied weight, unknown weight, total weight)."""
    w = {str(k): float(v) for k, v in (weights or DEFAULT_WEIGHTS).items()}
    sat = unk = total = 0.0
    for c in constraints:
        weight = w[str(c.tier)]
        total += weight
        status = str(c.status)
        if status == "satisfied":
            sat += weight
        elif status == "unknown":
            unk += weight
    return sat, unk, total


def score_range(
    constraints: Iterable[_Scorable], weights: Mapping[Tier, float] | Mapping[str, float] | None = None
) -> tuple[float, float] | None:
    """(lower, upper): the score with every unknown constraint unsatisfied / satisfied; None without weight."""
    sat, unk, total = _weighted(constraints, weights)
    if total <= 0:
        return None
    lower = max(0.0, min(10.0, 10.0 * sat / total))
    upper = max(lower, min(10.0, 10.0 * (sat + unk) / total))
    return lower, upper


def coverage(
    constraints: Iterable[_Scorable], weights: Mapping[Tier, float] | Mapping[str, float] | None = None
) -> float | None:
    """Judged weight / total weight in [0, 1]; None when there is no weight at all."""
    _, unk, total = _weighted(constraints, weights)
    if total <= 0:
        return None
    return max(0.0, min(1.0, (total - unk) / total))


def band_of_range(rng: tuple[float, float] | None) -> Band:
    """aligned when lower >= 9, hallucinated when upper < 7, partial when both lie in [7, 9), else undetermined."""
    if rng is None:
        return "undetermined"
    lower, upper = rng
    if lower >= ALIGNED_AT:
        return "aligned"
    if upper < PARTIAL_AT:
        return "hallucinated"
    if lower >= PARTIAL_AT and upper < ALIGNED_AT:
        return "partial"
    return "undetermined"


def outcome_of(
    rng_band: Band,
    alarms: Iterable[tuple[str, str]],
    undetermined: Iterable[str] = (),
) -> tuple[OutcomeLabel, list[str]]:
    """The call's outcome and its reasons.

    ``alarms`` are ``(stage, "kind (severity)")`` of the warning/critical verdicts; ``undetermined`` the
    reasons some part of the call could not be judged. ``hallucination`` when an output-stage alarm fired
    or the band is partial/hallucinated; ``ok`` only when the band is aligned with no alarm at any stage
    and nothing undetermined; ``undetermined`` otherwise (input-stage alarms alone say the request is at
    risk, not that the answer failed).
    """
    alarms = list(alarms)
    reasons = [f"{stage}: {what}" for stage, what in alarms]
    output_alarm = any(stage != "input" for stage, _ in alarms)
    if output_alarm or rng_band in ("partial", "hallucinated"):
        if rng_band in ("partial", "hallucinated"):
            reasons.insert(0, f"band: {rng_band}")
        return "hallucination", reasons
    rest = list(undetermined)
    if rng_band == "aligned" and not alarms and not rest:
        return "ok", []
    if rng_band == "undetermined":
        rest.insert(0, "band: undetermined (unknown constraints leave the score open)")
    return "undetermined", reasons + rest
