"""Fakes for the evaluate tests: a tag decomposer and guard factories (importable by Dask workers)."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from faithguard import plugins
from faithguard.detector import CallContext, Detector
from faithguard.guard import Guard
from faithguard.models import Constraint, Decomposition, SubQuestion
from faithguard.scoring import tier_for
from faithguard.testing import KeywordDetector

_TAG = re.compile(r"\[(\w+):([^\]]+)\]")


@dataclass
class TagDecomposer:
    """Constraints from ``[category:text]`` tags; sub-questions split on `` | ``."""

    name: str = "tags"

    def decompose(self, ctx: CallContext) -> Decomposition:
        pieces = [p for p in ctx.query.split(" | ") if p.strip()]
        subs = [
            SubQuestion(index=i, text=_TAG.sub("", p).strip(), position=i / max(1, len(pieces) - 1))
            for i, p in enumerate(pieces)
        ]
        constraints = []
        for i, piece in enumerate(pieces):
            for cat, text in _TAG.findall(piece):
                constraints.append(
                    Constraint(
                        id=f"c{len(constraints) + 1}", text=text, category=cat, tier=tier_for(cat), subquestion=i
                    )
                )
        return Decomposition(subquestions=subs, constraints=constraints, decomposer=self.name)


def make_guard(extra: Sequence[Detector] = (), **options: Any) -> Guard:
    """A fast deterministic guard: tag decomposer + keyword satisfaction, no built-in plugins."""
    pm, _ = plugins.make_plugin_manager(defaults=False, load_entrypoints=False)
    return Guard(
        decomposer=TagDecomposer(),
        extra_detectors=[KeywordDetector(), *extra],
        judge=None,
        plugin_manager=pm,
        **options,
    )


class CrashingGuard(Guard):
    """A guard whose process 'dies' (KeyboardInterrupt) on the call after ``crash_after`` checks."""

    crash_after = 3

    def check(self, *args: Any, **kwargs: Any) -> Any:
        self._n = getattr(self, "_n", 0) + 1
        if self._n > self.crash_after:
            raise KeyboardInterrupt("simulated crash")
        return super().check(*args, **kwargs)


def make_crashing_guard() -> Guard:
    """A tag guard that crashes on its 4th check."""
    pm, _ = plugins.make_plugin_manager(defaults=False, load_entrypoints=False)
    return CrashingGuard(decomposer=TagDecomposer(), extra_detectors=[KeywordDetector()], judge=None, plugin_manager=pm)


def sample_rows(n: int) -> list[dict[str, Any]]:
    """``n`` varied rows: easy/hard, satisfied/violated, with gold labels."""
    rows = []
    for i in range(n):
        k = 2 + (i % 5)  # 2..6 constraints: easy (<= 4) and hard (> 4)
        tags = [
            "[location:paris]",
            "[time:1999]",
            "[subject:cats]",
            "[quantity:three]",
            "[other:haiku]",
            "[action:sing]",
        ]
        query = f"Question {i} " + " ".join(tags[:k])
        words = ["paris", "1999", "cats", "three", "haiku", "sing"][:k]
        if i % 3 == 0:
            words = words[:-1]  # one omission
        response = f"Answer {i}: " + " ".join(words)
        rows.append(
            {
                "id": f"r{i}",
                "query": query,
                "response": response,
                "gold_perfect": i % 3 != 0,
                "gold_verdicts": [],
            }
        )
    return rows


def write_jsonl(path: Path, rows: Sequence[object], extra_lines: Sequence[str] = ()) -> Path:
    """Write rows (dicts are dumped, strings written raw) then extra raw lines."""
    with path.open("w", encoding="utf-8") as fh:
        for row in rows:
            fh.write((row if isinstance(row, str) else json.dumps(row)) + "\n")
        for line in extra_lines:
            fh.write(line + "\n")
    return path


class _KillsItsProcess:
    """An output detector whose process dies (``os._exit``, as a native crash or an OOM kill) on one answer."""

    name, stage, order, timeout = "kills_process", "output", 150, None

    def run(self, ctx: Any) -> Any:
        import os

        from faithguard import DetectorResult

        if "POISON" in (ctx.response or ""):
            os._exit(1)
        return DetectorResult()


def make_poisoned_guard() -> Guard:
    """A tag guard whose worker process dies on an answer holding the word POISON."""
    return make_guard(extra=[_KillsItsProcess()])
