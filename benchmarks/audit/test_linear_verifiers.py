"""Every registered verifier checks an answer in time linear in its length, on runs of marks as well as of letters
(issue 16).

The module-level regex audit (``test_linear_regex.py``) does not see patterns written inside a checker, and its
families are letters and blanks; a run of periods took IFEval's sentence split 4.5 s at 20,000 characters, a run of
"[" its placeholder count 1.5 s. Each checker of each verifier module runs here on long runs of one mark (and a few
mixed units) at 5,000 and 20,000 characters; growth is judged as in the regex audit, by the ratio of CPU times
(linear ~4, quadratic ~16), never by an absolute time, and tiny timings are noise. A checker that cannot run on the
generic parameters below is left out (it raises on the short text), and the test that every module contributes
checkers keeps that from hiding them all.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from typing import Any

import pytest

from faithguard.verifiers import check_creative, check_ifbench, check_ifbench_format, check_ifeval

MAX_RATIO = 8.0
NOISE_FLOOR = 0.03
UNITS = (".", "!", "[", "]", "<<", ">>", "*", "-", "#", "|", "\n", " ", "e.g. ", "x\n", "a. ", "P.S. ", "Section 1 ")

#: Parameters every checker may read, one value each (a checker reads the ones it needs).
PARAMS: Mapping[str, Any] = {
    "capital_frequency": 3, "capital_relation": "at least", "comparison": "at least", "end_phrase": "Done.",
    "first_word": "rivers", "forbidden_words": ["ocean"], "form": "haiku", "frequency": 2, "index": 1,
    "keyword": "river", "keywords": ["river", "delta"], "language": "en", "let_frequency": 3,
    "let_relation": "at least",
    "letter": "r", "min_repeats": 2, "n": 3, "nth_paragraph": 2, "num_bullets": 3, "num_highlights": 2,
    "num_lines": 4, "num_paragraphs": 3, "num_placeholders": 2, "num_sections": 2, "num_sentences": 3,
    "num_words": 50, "postscript_marker": "P.S.", "prompt_to_repeat": "Say rivers.", "relation": "at least",
    "scheme": "ABAB", "section_spliter": "Section", "start_phrase": "Rivers", "value": 3, "words": ["river"],
}  # fmt: skip

MODULES = (check_ifeval, check_ifbench, check_ifbench_format, check_creative)


Checker = Callable[[Mapping[str, Any], str], object]


def _runnable() -> list[tuple[str, Checker]]:
    found = []
    for module in MODULES:
        for verifier_id, check in module.CHECKS.items():
            try:
                check(PARAMS, "Rivers run. " * 20)
            except Exception:  # noqa: BLE001 - a checker that needs other parameters is left out
                continue
            found.append((verifier_id, check))
    return found


CHECKERS = _runnable()


def _cpu(check: Checker, text: str) -> float:
    best = float("inf")
    for _ in range(2):
        t0 = time.process_time()
        check(PARAMS, text)
        best = min(best, time.process_time() - t0)
        if best > 3 * NOISE_FLOOR:
            break
    return best


def test_every_module_contributes_checkers() -> None:
    ids = {verifier_id for verifier_id, _ in CHECKERS}
    for module in MODULES:
        assert ids & set(module.CHECKS.ids()), f"no checker of {module.__name__} runs on the generic parameters"
    assert len(CHECKERS) > 40


@pytest.mark.parametrize(("verifier_id", "check"), CHECKERS, ids=[v for v, _ in CHECKERS])
def test_checker_is_linear_on_runs_of_one_mark(verifier_id: str, check: Checker) -> None:
    slow = []
    for unit in UNITS:
        short, long = "Rivers " + unit * (5_000 // len(unit)), "Rivers " + unit * (20_000 // len(unit))
        small, large = _cpu(check, short), _cpu(check, long)
        if large >= NOISE_FLOOR and large / max(small, 1e-9) > MAX_RATIO:
            slow.append(f"{unit!r}: {small:.3f}s -> {large:.3f}s")
    assert not slow, f"{verifier_id} grows faster than linear: " + "; ".join(slow)
