"""Majority voting over judge samples (pure): contradictions and long reasons (helper 92, session 18)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from faithguard.judge.schemas import SatisfyItem, SatisfyOut
from faithguard.judge.voting import MAX_REASON_CHARS, vote_satisfy


def _sample(*items: tuple[str, bool, str]) -> SatisfyOut:
    return SatisfyOut(
        results=[SatisfyItem(id=i, satisfied=s, reason=r) for i, s, r in items], injection_suspected=False
    )


def test_a_reply_answering_one_constraint_both_ways_decides_nothing_for_it() -> None:
    for order in ((True, False), (False, True)):
        sample = _sample(("c1", order[0], "a"), ("c1", order[1], "b"), ("c2", True, "fine"))
        votes = vote_satisfy([sample], ["c1", "c2"])
        assert votes["c1"][0] is None and "both ways" in votes["c1"][1]
        assert votes["c2"] == (True, "fine")


def test_a_repeated_consistent_answer_counts_once() -> None:
    assert vote_satisfy([_sample(("c1", False, "no"), ("c1", False, "no again"))], ["c1"]) == {"c1": (False, "no")}


def test_a_long_reason_is_cut() -> None:
    (decision, reason) = vote_satisfy([_sample(("c1", True, "x" * 100_000))], ["c1"])["c1"]
    assert decision is True and len(reason) == MAX_REASON_CHARS


@given(st.lists(st.lists(st.tuples(st.sampled_from(["c1", "c2"]), st.booleans()), max_size=4), min_size=1, max_size=5))
def test_a_decision_is_never_taken_from_a_torn_sample(samples: list[list[tuple[str, bool]]]) -> None:
    built = [_sample(*((cid, sat, "r") for cid, sat in items)) for items in samples]
    votes = vote_satisfy(built, ["c1", "c2"])
    for cid, (decision, _) in votes.items():
        clear = [{s for c, s in items if c == cid} for items in samples]
        clear = [answers for answers in clear if len(answers) == 1]
        yes = sum(1 for answers in clear if answers == {True})
        no = len(clear) - yes
        assert decision is (None if yes == no else yes > no)
