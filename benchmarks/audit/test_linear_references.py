"""Reading a request's references is linear in a run-on sentence of many phrases (issue 16).

A sentence holding n definite phrases, each with a pro-form "one" or a part "of" another text nearby, was scanned
whole once per phrase for pro-forms (quadratic: 25,000 characters took 2 s). Growth is judged as in
``test_linear_pieces.py``: the CPU time at 4x the length over the time at 1x (linear ~4, quadratic ~16), never an
absolute time; tiny timings are noise and pass. Text-keyed memos are cleared before each run.
"""

from __future__ import annotations

import time

import pytest

from faithguard.inputs import references
from faithguard.inputs.supply import scan

MAX_RATIO = 8.0
NOISE_FLOOR = 0.03
UNITS = (
    "compare the new memo with the old one and ",
    "the tone of the email and the findings of the report and ",
)


def _cpu(text: str) -> float:
    masked = scan(text).masked
    best = float("inf")
    for _ in range(3):
        for memo in (references._proforms, references._compares):
            memo.cache_clear()
        t0 = time.process_time()
        references.find_references(text, masked)
        best = min(best, time.process_time() - t0)
    return best


@pytest.mark.parametrize("unit", UNITS)
def test_references_grow_linearly_in_a_run_on_sentence(unit: str) -> None:
    short, long = unit * (5_000 // len(unit)), unit * (20_000 // len(unit))
    _cpu(unit)  # WordNet and the content classes load outside the measure
    small, large = _cpu(short), _cpu(long)
    if large < NOISE_FLOOR:
        return
    assert large / max(small, 1e-9) <= MAX_RATIO, f"{unit!r}: {small:.3f}s -> {large:.3f}s"
