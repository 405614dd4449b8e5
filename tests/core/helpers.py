"""Builders for core tests: a guard with no built-in plugins, only what the test passes."""

from __future__ import annotations

from typing import Any

from faithguard import Constraint, Guard
from faithguard.plugins import make_plugin_manager
from faithguard.testing import KeywordDetector, StaticDecomposer

PARIS = [
    Constraint(id="c1", text="Paris", category="location", tier="mandatory"),
    Constraint(id="c2", text="museum", category="subject", tier="mandatory"),
    Constraint(id="c3", text="three", category="quantity", tier="important"),
    Constraint(id="c4", text="Louvre", category="other", tier="optional", negated=True),
]


def bare_guard(constraints: list[Constraint] | None = None, *, extra: list[Any] | None = None, **kw: Any) -> Guard:
    pm, _ = make_plugin_manager(load_entrypoints=False, defaults=False)
    kw.setdefault("decomposer", StaticDecomposer(constraints if constraints is not None else PARIS))
    return Guard(
        plugin_manager=pm,
        extra_detectors=[KeywordDetector(), *(extra or [])],
        judge=None,
        **kw,
    )
