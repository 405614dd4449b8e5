"""The maximal-span choice among candidate terms keeps what the pairwise overlap rule keeps (one ordered search per
candidate instead of a pass over every kept span; issue 16). Spans generated here, not read from any data."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from faithguard.terms.extract import _PRIORITY, Candidate, _maximal, _unique


def _pairwise(found: list[Candidate]) -> list[Candidate]:
    found = sorted(found, key=lambda c: (_PRIORITY[c.source], -(c.end - c.start), c.start))
    kept: list[Candidate] = []
    for cand in found:
        if not any(k.start < cand.end and cand.start < k.end for k in kept):
            kept.append(cand)
    kept.sort(key=lambda c: c.start)
    return _unique(kept)  # the normal-form deduplication that follows is shared


_CANDIDATES = st.lists(
    st.builds(
        lambda start, length, text, source: Candidate(text=text, start=start, end=start + length, source=source),
        st.integers(0, 30),
        st.integers(0, 8),
        st.sampled_from(["Ebro", "Nano Sync", "delta", "x y", "Tagus River"]),
        st.sampled_from(sorted(_PRIORITY)),
    ),
    max_size=14,
)


@settings(max_examples=500, deadline=None)
@given(_CANDIDATES)
def test_maximal_keeps_what_the_pairwise_rule_keeps(found: list[Candidate]) -> None:
    assert _maximal(list(found)) == _pairwise(list(found))
