"""The sentence cut that the answer-name and acceptance readers share is linear on white space runs (issue 16).

Line breaks and spaces in long runs put many cuts inside one run of white space; each cut used to scan back over
the whole run. Growth is judged as in ``test_linear_regex.py``: the CPU time at 4x the length over the time at 1x
(linear ~4, quadratic ~16), never an absolute time; tiny timings are noise and pass.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest

from faithguard.terms.extract import name_regions, sentence_pieces

MAX_RATIO = 8.0
NOISE_FLOOR = 0.03
UNITS = ("\r\n", "  \n", " \r\n", "\n\n", "a.\n  ")


def _cpu(fn: Callable[[], object]) -> float:
    best = float("inf")
    for _ in range(3):
        t0 = time.process_time()
        fn()
        best = min(best, time.process_time() - t0)
    return best


@pytest.mark.parametrize("unit", UNITS)
@pytest.mark.parametrize("reader", [sentence_pieces, name_regions])
def test_cost_grows_linearly_with_white_space_runs(unit: str, reader: Callable[[str], object]) -> None:
    short, long = unit * (25_000 // len(unit)), unit * (100_000 // len(unit))
    small, large = _cpu(lambda: reader(short)), _cpu(lambda: reader(long))
    if large < NOISE_FLOOR:
        return
    assert large / max(small, 1e-9) <= MAX_RATIO, f"{reader.__name__} on {unit!r}: {small:.3f}s -> {large:.3f}s"
