"""What one call shares with others (the decomposition cache, a computation another call waits for) never leaks
into them: the cache key holds the whole request and conversation, each call edits its own copy, a reading made
while resources load is not kept, and one call's time budget ending never fails another. Found by a fresh
reviewer's attack (session 7); every test here fails on the code before the fix."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest

from faithguard import ConfigError, Decomposition, DetectorResult, Guard, InputError, Message, Status
from faithguard.detector import CallContext

_ANSWER = "The Ebro, the Tagus and the Douro."


class _Spin:
    """A decomposer stuck in a pure-Python loop, never reaching a checkpoint (interrupted at its budget)."""

    name = "spin"
    timeout = 0.3

    def decompose(self, ctx: CallContext) -> Decomposition:
        t = time.monotonic()
        while time.monotonic() - t < 2:
            pass
        return Decomposition(decomposer="spin")


def test_a_call_waiting_for_anothers_decomposition_never_gets_its_interrupt() -> None:
    guard = Guard(decomposer=[_Spin(), "offline"], judge=None, warmup=False)
    outcomes: dict[str, Any] = {}

    def call(tag: str, delay: float) -> None:
        time.sleep(delay)
        try:
            outcomes[tag] = guard.check("List three rivers in Spain.", _ANSWER)
        except BaseException as exc:  # the failure under test: Interrupted escaped the public API
            outcomes[tag] = exc

    threads = [threading.Thread(target=call, args=(tag, delay)) for tag, delay in (("first", 0.0), ("second", 0.1))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(20)
    for report in outcomes.values():
        assert not isinstance(report, BaseException), repr(report)
        assert ("spin", "timeout") in {(e.detector, e.error_type) for e in report.errors}
        assert report.outcome == "undetermined"


def _constraints(guard: Guard, query: str, history: list[Message] | None = None) -> list[tuple[str, str]]:
    report = guard.inspect(query, messages=[*(history or []), Message(role="user", content=query)])
    return [(c.text, str(c.category)) for c in report.constraints]


def test_conversations_differing_before_their_last_2000_characters_are_not_confused() -> None:
    pasted = " ".join(f"Sentence {i} of the pasted field notes on moorland birds." for i in range(60))
    assert len(pasted) > 2000

    def history(instruction: str) -> list[Message]:
        return [
            Message(role="user", content=f"{instruction}\n{pasted}"),
            Message(role="assistant", content="Done."),
        ]

    fresh = _constraints(Guard(judge=None), "Now make it shorter.", history("Translate these notes into German:"))
    shared = Guard(judge=None)
    _constraints(shared, "Now make it shorter.", history("Summarise these notes:"))
    assert _constraints(shared, "Now make it shorter.", history("Translate these notes into German:")) == fresh


def test_line_breaks_are_part_of_the_cache_key() -> None:
    multiline = "Compare two cities:\nParis\nRome"
    fresh = _constraints(Guard(judge=None), multiline)
    shared = Guard(judge=None)
    _constraints(shared, " ".join(multiline.split()))  # the same words on one line, seen first
    assert _constraints(shared, multiline) == fresh


def test_a_report_edited_by_its_caller_does_not_edit_later_reports() -> None:
    guard = Guard(judge=None)
    query = "List three rivers in Spain that flow into the Atlantic."
    before = [c.text for c in guard.inspect(query).constraints]
    edited = guard.inspect(query)
    assert edited.decomposition is not None
    edited.decomposition.constraints[1].text = "EDITED"
    edited.decomposition.constraints.pop()
    edited.decomposition.subquestions.clear()
    later = guard.check(query, _ANSWER)
    assert [c.text for c in later.constraints] == before
    assert later.subquestions


class _Counting:
    """A decomposer that says its reading is provisional (its resources were still loading)."""

    name = "counting"
    timeout = None

    def __init__(self) -> None:
        self.calls = 0

    def decompose(self, ctx: CallContext) -> Decomposition:
        self.calls += 1
        return Decomposition(decomposer=self.name, provisional=self.calls == 1)


def test_a_provisional_decomposition_is_used_once_and_not_cached() -> None:
    decomposer = _Counting()
    guard = Guard(decomposer=[decomposer], judge=None, warmup=False)
    for _ in range(3):
        guard.inspect("List three rivers in Spain.")
    assert decomposer.calls == 2  # the provisional reading again, then the lasting one, then from the cache


class _AllSatisfied:
    name = "all_satisfied"
    stage = "output"
    order = 10
    timeout = None

    def run(self, ctx: CallContext) -> DetectorResult:
        return DetectorResult(updates={c.id: (Status.SATISFIED, "decided") for c in ctx.constraints})


class _Fails:
    name = "fails"
    order = 200
    timeout = None

    def __init__(self, stage: str) -> None:
        self.stage = stage

    def run(self, ctx: CallContext) -> DetectorResult:
        raise RuntimeError("this check broke")


@pytest.mark.parametrize("stage", ["input", "output"])
def test_nothing_reads_aligned_or_perfect_beside_a_failed_check(stage: str) -> None:
    report = Guard(extra_detectors=[_AllSatisfied(), _Fails(stage)], judge=None).check(
        "List three rivers in Spain.", _ANSWER
    )
    assert report.errors and report.outcome == "undetermined"
    assert report.band == "undetermined" and report.perfect is False
    clean = Guard(extra_detectors=[_AllSatisfied()], judge=None).check("List three rivers in Spain.", _ANSWER)
    assert clean.band == "aligned" and clean.perfect is True  # the same answer with every check run


@pytest.mark.parametrize("weight", [float("inf"), 1e308, float("nan"), -1.0])
def test_weights_that_overflow_or_make_no_sense_are_refused(weight: float) -> None:
    with pytest.raises(ConfigError):
        Guard(judge=None, weights={"mandatory": weight}, warmup=False)


def test_a_model_name_that_is_not_text_is_an_input_error() -> None:
    with pytest.raises(InputError, match="model must be a string"):
        Guard(judge=None).check("List three rivers in Spain.", _ANSWER, model=5)  # type: ignore[arg-type]
