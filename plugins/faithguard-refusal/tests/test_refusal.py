from __future__ import annotations

import importlib.metadata

from faithguard_refusal import RefusalDetector

from faithguard import CallContext, Guard
from faithguard.plugins import collect, make_plugin_manager


def test_detector_flags_needless_refusal() -> None:
    det = RefusalDetector()
    ctx = CallContext(query="List three rivers in Spain", response="I'm sorry, but I can't help with that request.")
    assert [v.kind for v in det.run(ctx).verdicts] == ["refusal"]
    ctx.findings["missing_content"] = [{"reference": "the article"}]
    assert det.run(ctx).verdicts == []
    ok = CallContext(query="List three rivers in Spain", response="The Ebro, the Tagus and the Douro.")
    assert det.run(ok).verdicts == []


def test_discovered_through_entry_point() -> None:
    names = {ep.name for ep in importlib.metadata.entry_points(group="faithguard")}
    assert "refusal" in names
    pm, failures = make_plugin_manager(load_entrypoints=True, defaults=False, only=["refusal"])
    registry = collect(pm, failures)
    assert [d.name for d in registry.detectors] == ["refusal"]


def test_guard_loads_it_like_a_builtin() -> None:
    guard = Guard(judge=None)
    assert "refusal" in [d.name for d in guard.detectors]
    report = guard.check("List three rivers in Spain", "I cannot help with that.")
    assert "refusal" in [v.kind for v in report.verdicts]
