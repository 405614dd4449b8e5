"""The proxy's background scoring queue: bounded, sheds load by sampling then dropping, always closes."""

from __future__ import annotations

import threading

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from faithguard.integrations._scoring import ScoringQueue


def _blocked_queue(maxsize: int, sample_every: int = 4) -> tuple[ScoringQueue, threading.Event]:
    """A queue whose one worker is stuck on a first job until the event is set."""
    gate = threading.Event()
    started = threading.Event()
    q = ScoringQueue(maxsize, sample_every=sample_every, duty=1.0)

    def hold() -> None:
        started.set()
        gate.wait(10)

    assert q.submit(hold, lambda: None) == "queued"
    assert started.wait(5)
    return q, gate


def test_sampling_past_half_then_dropping_when_full() -> None:
    q, gate = _blocked_queue(8, sample_every=2)
    skipped: list[int] = []
    decisions = [q.submit(lambda: None, lambda i=i: skipped.append(i)) for i in range(20)]
    assert decisions[:4] == ["queued"] * 4  # up to half full: everything
    assert "sampled_out" in decisions and "dropped" in decisions
    assert q.depth <= 8
    stats = q.stats()
    assert stats["queued"] - 1 + stats["sampled_out"] + stats["dropped"] == 20
    assert len(skipped) == stats["sampled_out"] + stats["dropped"]  # every skipped answer closed its span
    gate.set()
    assert q.join(10)
    assert q.stats()["scored"] == q.stats()["queued"]
    q.stop()


def test_stop_skips_what_is_queued_and_refuses_more() -> None:
    q, gate = _blocked_queue(8)
    skipped: list[int] = []
    for i in range(3):
        q.submit(lambda: None, lambda i=i: skipped.append(i))
    gate.set()
    q.stop(timeout=5)
    assert q.submit(lambda: None, lambda: skipped.append(99)) == "dropped"
    assert 99 in skipped
    stats = q.stats()
    assert stats["scored"] + stats["dropped"] >= 3


def test_failing_jobs_are_counted_and_do_not_stop_the_worker() -> None:
    q = ScoringQueue(4, duty=1.0)

    def boom() -> None:
        raise RuntimeError("x")

    q.submit(boom, lambda: None)
    q.submit(lambda: None, lambda: None)
    assert q.join(10)
    assert q.stats()["failed"] == 1 and q.stats()["scored"] == 1
    q.stop()


def test_bad_settings_are_refused() -> None:
    for kwargs in ({"maxsize": 0}, {"workers": 0}, {"sample_every": 0}, {"duty": 0.0}, {"duty": 1.5}):
        with pytest.raises(ValueError):
            ScoringQueue(**kwargs)  # type: ignore[arg-type]


@settings(max_examples=30, deadline=None)
@given(maxsize=st.integers(1, 16), n=st.integers(0, 60), every=st.integers(1, 5))
def test_depth_never_exceeds_capacity_and_counts_add_up(maxsize: int, n: int, every: int) -> None:
    q, gate = _blocked_queue(maxsize, sample_every=every)
    for _ in range(n):
        q.submit(lambda: None, lambda: None)
        assert q.depth <= maxsize
    stats = q.stats()
    assert stats["queued"] + stats["sampled_out"] + stats["dropped"] == n + 1
    gate.set()
    q.stop(timeout=5)
