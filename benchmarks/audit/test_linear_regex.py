"""Every module-level regex in faithguard scans pathological text in linear time (issue 16).

The audit imports every faithguard module, collects the compiled patterns bound at module level
(directly, or inside a module-level list/tuple/dict, or a tuple in one), and scans text built from
the families issue 16 names: a long run of one letter (lower and upper case, with and without
spaces) and random letters (as one run, and as words), and runs of blanks (spaces, newlines,
space-newline pairs, spaces and tabs mixed), where a pattern opening on blanks may rescan the rest of
the run from each start. Growth is judged by ratios of thread CPU time, never by an absolute time: a
linear scan takes ~4x as long on 100k characters as on 25k (quadratic: ~16x), so a ratio above
:data:`MAX_RATIO` fails; a run of one letter is also scanned at 1M characters (issue 16's answer).
Tiny timings are noise and pass under :data:`NOISE_FLOOR`.
A small run (5k vs 20k) goes first so a catastrophic pattern fails fast instead of hanging the suite.
Patterns known to grow super-linearly are ``xfail(strict=True)`` under their ``module:name``.
"""

from __future__ import annotations

import importlib
import pkgutil
import random
import re
import string
import time
from collections.abc import Callable, Iterator

import pytest

import faithguard

#: Linear growth gives 4 for a 4x longer text, quadratic 16; the slack covers a busy machine.
MAX_RATIO = 8.0
#: Below this many seconds on the longer text, timing noise dominates the ratio.
NOISE_FLOOR = 0.03


def _families() -> dict[str, Callable[[int], str]]:
    rnd = random.Random(16)
    letters = "".join(rnd.choice(string.ascii_letters) for _ in range(100_000))
    words = " ".join(
        "".join(rnd.choice(string.ascii_lowercase) for _ in range(rnd.randint(1, 9))).capitalize()
        if rnd.random() < 0.3
        else "".join(rnd.choice(string.ascii_lowercase) for _ in range(rnd.randint(1, 9)))
        for _ in range(25_000)
    )
    blanks = "".join(rnd.choice(" \t") for _ in range(100_000))
    return {
        "one-letter": lambda n: "a" * n,
        "one-capital": lambda n: "A" * n,
        "one-letter-spaced": lambda n: ("a " * n)[:n],
        "one-capital-spaced": lambda n: ("Aa " * n)[:n],
        "random-letters": lambda n: letters[:n],
        "random-words": lambda n: words[:n],
        "spaces": lambda n: " " * n,
        "newlines": lambda n: "\n" * n,
        "space-newline": lambda n: (" \n" * n)[:n],
        "spaces-tabs": lambda n: blanks[:n],
    }


FAMILIES = _families()


def _modules() -> Iterator[object]:
    for info in pkgutil.walk_packages(faithguard.__path__, "faithguard."):
        if info.name.endswith("__main__"):
            continue  # running it is the CLI
        try:
            yield importlib.import_module(info.name)
        except ImportError:
            continue  # an optional extra that is not installed


def _patterns() -> dict[str, re.Pattern[str]]:
    found: dict[str, re.Pattern[str]] = {}

    def add(name: str, value: object) -> None:
        if isinstance(value, re.Pattern) and isinstance(value.pattern, str):
            found[name] = value

    for module in _modules():
        for name, value in vars(module).items():
            where = f"{module.__name__}:{name}"
            add(where, value)
            if isinstance(value, list | tuple | dict):
                items = value.items() if isinstance(value, dict) else enumerate(value)
                for key, item in items:
                    add(f"{where}[{key!r}]", item)
                    if isinstance(item, list | tuple):
                        for i, inner in enumerate(item):
                            add(f"{where}[{key!r}][{i}]", inner)
    return found


PATTERNS = _patterns()

#: Patterns measured to grow super-linearly on this audit: module:name -> what grows.
KNOWN_SUPERLINEAR: dict[str, str] = {}


def _scan_seconds(pattern: re.Pattern[str], text: str) -> float:
    """CPU seconds of this thread for one full scan: the lesser of two (one when it is long).

    Thread CPU time, not wall time, so other work on a shared machine does not count.
    """
    best = float("inf")
    for _ in range(2):
        t0 = time.thread_time()
        for _match in pattern.finditer(text):
            pass
        best = min(best, time.thread_time() - t0)
        if best > 3 * NOISE_FLOOR:
            break
    return best


def _growth(pattern: re.Pattern[str], family: str, small: int, large: int) -> tuple[float, float]:
    build = FAMILIES[family]
    return _scan_seconds(pattern, build(small)), _scan_seconds(pattern, build(large))


def _params() -> list[object]:
    params = []
    for name in sorted(PATTERNS):
        marks = [pytest.mark.xfail(strict=True, reason=KNOWN_SUPERLINEAR[name])] if name in KNOWN_SUPERLINEAR else []
        params.append(pytest.param(name, id=name, marks=marks))
    return params


def test_the_audit_finds_patterns() -> None:
    # The collector must see the engine's and the verifiers' patterns, or the audit audits nothing.
    assert len(PATTERNS) > 50
    assert any(name.startswith("faithguard.engine.") for name in PATTERNS)
    assert any(name.startswith("faithguard.verifiers.") for name in PATTERNS)


def test_the_ratio_catches_a_quadratic_pattern() -> None:
    # The detector of the audit itself: a classic quadratic pattern must fail the ratio test.
    quadratic = re.compile(r"a+b")  # from each start it scans the whole run, then fails: n^2 / 2 steps
    small, large = _growth(quadratic, "one-letter", 4_000, 16_000)
    assert large > NOISE_FLOOR and large / small > MAX_RATIO


def test_the_ratio_catches_a_blank_run_rescan() -> None:
    # A leading blank run rescans the rest of the run from each start; the look-behind fix (a match starts
    # only at a run's first blank) makes the same pattern linear.
    quadratic = re.compile(r"\s+x")
    small, large = _growth(quadratic, "spaces", 4_000, 16_000)
    assert large > NOISE_FLOOR and large / small > MAX_RATIO
    anchored = re.compile(r"(?<!\s)\s+x")
    small, large = _growth(anchored, "spaces", 25_000, 100_000)
    assert large <= NOISE_FLOOR or large / small <= MAX_RATIO


@pytest.mark.parametrize("name", _params())
def test_pattern_scans_in_linear_time(name: str) -> None:
    pattern = PATTERNS[name]
    problems = []
    for family in FAMILIES:
        small, large = _growth(pattern, family, 5_000, 20_000)  # fail fast before the long texts
        if large > NOISE_FLOOR and large / small > MAX_RATIO:
            problems.append(f"{family}: 5k {small * 1e3:.1f} ms -> 20k {large * 1e3:.1f} ms")
            continue
        small, large = _growth(pattern, family, 25_000, 100_000)
        if large > NOISE_FLOOR and large / small > MAX_RATIO:
            problems.append(f"{family}: 25k {small * 1e3:.1f} ms -> 100k {large * 1e3:.1f} ms")
            continue
        if family == "one-letter":  # the 1M-character answer of issue 16: 10x the text, ~10x the time
            huge = _scan_seconds(pattern, FAMILIES[family](1_000_000))
            if huge > NOISE_FLOOR and huge / max(large, 1e-9) > 2.5 * MAX_RATIO:  # linear 10, quadratic 100
                problems.append(f"{family}: 100k {large * 1e3:.1f} ms -> 1M {huge * 1e3:.1f} ms")
    assert not problems, f"{name} ({pattern.pattern[:80]!r}) grows super-linearly: " + "; ".join(problems)
