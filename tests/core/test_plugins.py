from __future__ import annotations

import sys
from pathlib import Path

import pytest

import faithguard
from faithguard import Guard
from faithguard.plugins import DEFAULT_PLUGINS, collect, describe, make_plugin_manager


def _fake_dist(tmp_path: Path, name: str, entry_points: str) -> None:
    info = tmp_path / f"{name}-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(entry_points)


@pytest.fixture
def plugin_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.syspath_prepend(str(tmp_path))
    return tmp_path


def test_broken_entry_point_is_reported_by_name(plugin_path: Path) -> None:
    _fake_dist(plugin_path, "fg_broken", "[faithguard]\nbroken = fg_no_such_module_xyz\n")
    pm, failures = make_plugin_manager(defaults=False, only=["broken"])
    assert [f.name for f in failures] == ["broken"]
    assert "ModuleNotFoundError" in failures[0].error
    rows = describe(pm, collect(pm, failures))
    assert rows[-1]["name"] == "broken" and "error" in rows[-1]


def test_entry_point_plugin_registers_detector(plugin_path: Path) -> None:
    (plugin_path / "fg_example_plugin.py").write_text(
        "from faithguard import hookimpl, DetectorResult\n"
        "class D:\n"
        "    name, stage, order, timeout = 'example', 'output', 5, None\n"
        "    def run(self, ctx):\n"
        "        return DetectorResult()\n"
        "@hookimpl\n"
        "def register_detectors(register):\n"
        "    register(D())\n"
    )
    _fake_dist(plugin_path, "fg_example", "[faithguard]\nexample = fg_example_plugin\n")
    pm, failures = make_plugin_manager(defaults=False, only=["example"])
    assert failures == []
    assert [d.name for d in collect(pm).detectors] == ["example"]
    # `faithguard plugins` names the distribution's version (it showed none for every plugin)
    assert [(row["name"], row["version"]) for row in describe(pm, collect(pm))] == [("example", "0.1")]
    builtins, _ = make_plugin_manager(load_entrypoints=False)
    assert {row["version"] for row in describe(builtins, collect(builtins))} == {faithguard.__version__}
    sys.modules.pop("fg_example_plugin", None)


def test_plugin_that_fails_to_register_is_isolated() -> None:
    class Bad:
        @faithguard.hookimpl
        def register_detectors(self, register):  # type: ignore[no-untyped-def]
            register(object())

    class Good:
        @faithguard.hookimpl
        def register_detectors(self, register):  # type: ignore[no-untyped-def]
            from faithguard.testing import KeywordDetector

            register(KeywordDetector())

    pm, _ = make_plugin_manager(load_entrypoints=False, defaults=False)
    pm.register(Bad(), name="bad")
    pm.register(Good(), name="good")
    reg = collect(pm)
    assert [d.name for d in reg.detectors] == ["keywords"]
    assert [f.name for f in reg.failures] == ["bad"]


def test_detectors_sorted_by_order_then_name() -> None:
    from faithguard.testing import StaticDetector

    class P:
        @faithguard.hookimpl
        def register_detectors(self, register):  # type: ignore[no-untyped-def]
            register(StaticDetector(name="b", order=2))
            register(StaticDetector(name="c", order=1))
            register(StaticDetector(name="a", order=2))

    pm, _ = make_plugin_manager(load_entrypoints=False, defaults=False)
    pm.register(P(), name="p")
    assert [d.name for d in collect(pm).detectors] == ["c", "a", "b"]


def test_builtins_load_through_the_plugin_path() -> None:
    pm, failures = make_plugin_manager(load_entrypoints=False)
    assert failures == [], failures
    names = {n for n, _ in pm.list_name_plugin()}
    assert set(DEFAULT_PLUGINS) <= names
    guard = Guard(judge=None, load_entrypoints=False)
    assert guard.plugin_failures == []
    assert {"constraints", "omission", "missing_content", "unknown_terms", "fabricated_terms"} <= {
        d.name for d in guard.detectors
    }


def test_blocked_builtin(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FAITHGUARD_BLOCK_PLUGINS", "faithguard.terms.plugin")
    pm, _ = make_plugin_manager(load_entrypoints=False)
    assert pm.is_blocked("faithguard.terms.plugin") and pm.get_plugin("faithguard.terms.plugin") is None


def test_a_plugin_cannot_take_a_builtin_name_or_register_a_malformed_detector() -> None:
    # a plugin named to sort before the built-ins took "omission" and the built-in plugin's registration then failed
    # part-way, silently dropping its checks (helper 95); malformed attributes jammed or broke every guard
    from faithguard.testing import StaticDetector

    class Early:
        @faithguard.hookimpl
        def register_detectors(self, register):  # type: ignore[no-untyped-def]
            register(StaticDetector(name="omission", stage="output"))  # taken by a built-in
            register(StaticDetector(name="slow", timeout=float("inf")))
            register(StaticDetector(name="never", timeout=0))
            register(StaticDetector(name="typo", stage="Output"))
            register(StaticDetector(name="ranked", order="5"))  # type: ignore[arg-type]
            register(StaticDetector(name="fine"))  # the plugin's other registrations still count

        @faithguard.hookimpl
        def register_decomposers(self, register):  # type: ignore[no-untyped-def]
            class Offline:
                name = "offline"

                def decompose(self, ctx):  # type: ignore[no-untyped-def]
                    raise AssertionError("never used")

            register(Offline())

    builtin, _ = make_plugin_manager(load_entrypoints=False)
    expected = {d.name for d in collect(builtin).detectors}
    pm, _ = make_plugin_manager(load_entrypoints=False)
    pm.register(Early(), name="aaa")
    reg = collect(pm)
    assert {d.name for d in reg.detectors} == expected | {"fine"}
    assert type(reg.decomposers["offline"]).__module__.startswith("faithguard.")
    problems = [f.error for f in reg.failures]
    assert all(f.name == "aaa" for f in reg.failures) and len(problems) == 6, problems
    for said in ("already registered", "timeout must be", "unknown stage", "order must be a finite number"):
        assert any(said in p for p in problems), (said, problems)
    guard = Guard(judge=None, plugin_manager=pm)  # sorting its detectors needs numbers: it builds
    assert "fine" in {d.name for d in guard.detectors}
    guard.close()


def test_extra_detectors_are_checked_like_plugins() -> None:
    from faithguard import ConfigError
    from faithguard.testing import StaticDetector

    pm, _ = make_plugin_manager(load_entrypoints=False, defaults=False)
    for bad, said in (
        (StaticDetector(name="typo", stage="Output"), "unknown stage"),
        (StaticDetector(name="slow", timeout=float("nan")), "timeout must be"),
    ):
        with pytest.raises(ConfigError, match=said):
            Guard(judge=None, plugin_manager=pm, extra_detectors=[bad])
    with pytest.raises(ConfigError, match="already registered"):
        Guard(judge=None, plugin_manager=pm, extra_detectors=[StaticDetector(name="x"), StaticDetector(name="x")])
