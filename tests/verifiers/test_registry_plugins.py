"""One verifier registry fed by ``register_verifiers``: built-ins and third-party plugins alike."""

from __future__ import annotations

import importlib
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

import faithguard.verifiers as fv
from faithguard import Guard, plugins
from faithguard.errors import ConfigError
from faithguard.hookspecs import hookimpl
from faithguard.models import Status
from faithguard.verifiers import Verifier, VerifierOutcome, VerifierRegistry, use_registry
from faithguard.verifiers.spec import make_spec


def _shout_detect(text: str) -> list[fv.VerifiableSpec]:
    return [make_spec("acme:shout", {}, "shout")] if "SHOUTING" in text else []


def _shout_check(params: object, response: str) -> VerifierOutcome:
    ok = response.isupper()
    return VerifierOutcome(Status.SATISFIED if ok else Status.VIOLATED, "all caps" if ok else "not all caps")


class _InlinePlugin:
    @hookimpl
    def register_verifiers(self, register: object) -> None:
        register(Verifier("acme:shout", _shout_check, _shout_detect))  # type: ignore[operator]


def test_builtins_come_through_the_hook() -> None:
    pm, failures = plugins.make_plugin_manager(load_entrypoints=False)
    reg = VerifierRegistry(plugins.collect(pm, failures).verifiers)
    assert "creative:per_unit" in reg and "count:numbers" in reg and "keywords:existence" in reg
    assert len(reg) == len(set(reg.ids()))


def test_inline_plugin_is_detected_and_checked() -> None:
    pm, failures = plugins.make_plugin_manager(load_entrypoints=False)
    pm.register(_InlinePlugin(), name="acme")
    reg = VerifierRegistry(plugins.collect(pm, failures).verifiers)
    with use_registry(reg):
        specs = fv.detect("Reply SHOUTING, please.")
        assert [s.verifier for s in specs] == ["acme:shout"]
        assert fv.verify("acme:shout", {}, "HELLO").status is Status.SATISFIED
        assert fv.verify("acme:shout", {}, "hello").status is Status.VIOLATED


def test_duplicate_id_is_a_plugin_failure_not_a_crash() -> None:
    pm, failures = plugins.make_plugin_manager(load_entrypoints=False)
    pm.register(_InlinePlugin(), name="acme")
    pm.register(_InlinePlugin(), name="acme-again")
    reg = plugins.collect(pm, failures)
    assert any(f.name == "acme-again" for f in reg.failures)
    with pytest.raises(ConfigError):
        VerifierRegistry([Verifier("x", _shout_check), Verifier("x", _shout_check)])


def test_unknown_id_raises_and_bad_params_are_unknown() -> None:
    with pytest.raises(ConfigError):
        fv.verify("acme:nope", {}, "x")
    assert fv.verify("count:numbers", {"N": "many"}, "1 2").status is Status.UNKNOWN


@pytest.fixture
def fake_dist(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """An installed-looking distribution whose entry point registers a third-party verifier."""
    (tmp_path / "acme_fg_plugin.py").write_text(
        textwrap.dedent(
            """
            from faithguard.hookspecs import hookimpl
            from faithguard.models import Status
            from faithguard.verifiers import Verifier, VerifierOutcome
            from faithguard.verifiers.spec import make_spec

            def _detect(text):
                return [make_spec("acme:palindrome", {}, text)] if "palindrome" in text else []

            def _check(params, response):
                w = "".join(ch for ch in response.lower() if ch.isalnum())
                ok = bool(w) and w == w[::-1]
                return VerifierOutcome(Status.SATISFIED if ok else Status.VIOLATED, "palindrome" if ok else "not one")

            @hookimpl
            def register_verifiers(register):
                register(Verifier("acme:palindrome", _check, _detect))
            """
        )
    )
    dist = tmp_path / "acme_fg_plugin-0.1.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: acme-fg-plugin\nVersion: 0.1\n")
    (dist / "entry_points.txt").write_text("[faithguard]\nacme = acme_fg_plugin\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    importlib.invalidate_caches()
    fv.reset_default_registry()
    yield
    sys.modules.pop("acme_fg_plugin", None)
    fv.reset_default_registry()


@pytest.mark.usefixtures("fake_dist")
def test_entry_point_verifier_end_to_end_through_guard_check() -> None:
    assert "acme:palindrome" in fv.VERIFIER_IDS
    query = "Answer with a palindrome about a canal in Panama (test 7f3a)."
    guard = Guard(judge=None, detector_timeout=120)  # first use loads spaCy inside the budget
    good = guard.check(query, "A man, a plan, a canal: Panama")
    bad = guard.check(query, "The canal is in Panama")
    status = {c.verifier: c.status for c in good.constraints}
    assert status.get("acme:palindrome") is Status.SATISFIED
    assert {c.verifier: c.status for c in bad.constraints}.get("acme:palindrome") is Status.VIOLATED


def test_warmup_builds_the_active_registry() -> None:
    fv.warmup()
    assert "creative:per_unit" in fv.VERIFIER_IDS and len(fv.IFEVAL_IDS) == 25


def test_blocking_the_builtin_plugin_leaves_no_verifier(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FAITHGUARD_BLOCK_PLUGINS", "faithguard.verifiers.plugin")
    fv.reset_default_registry()
    try:
        assert fv.VERIFIER_IDS == ()
        assert fv.detect("Write exactly 3 paragraphs.") == []
    finally:
        monkeypatch.delenv("FAITHGUARD_BLOCK_PLUGINS")
        fv.reset_default_registry()
    assert "creative:paragraphs" in fv.VERIFIER_IDS


def test_a_guards_own_plugin_manager_scopes_its_verifiers() -> None:
    """A verifier plugin given to one guard's plugin manager is that guard's only (issue 10)."""
    pm, _ = plugins.make_plugin_manager(load_entrypoints=False)
    pm.register(_InlinePlugin(), name="acme")
    query = "Reply SHOUTING, please, about the weather in Lyon."
    with (
        Guard(plugin_manager=pm, judge=None, detector_timeout=120) as scoped,
        Guard(judge=None, detector_timeout=120) as plain,
    ):
        loud = scoped.check(query, "IT IS SUNNY IN LYON")
        quiet = scoped.check(query, "it is sunny in lyon")
        other = plain.check(query, "it is sunny in lyon")
    assert {c.verifier: c.status for c in loud.constraints}.get("acme:shout") is Status.SATISFIED
    assert {c.verifier: c.status for c in quiet.constraints}.get("acme:shout") is Status.VIOLATED
    assert "acme:shout" not in {c.verifier for c in other.constraints}
    assert "acme:shout" not in fv.VERIFIER_IDS  # outside a guarded call: the default registry


def test_a_guard_that_blocks_the_builtin_verifiers_runs_none() -> None:
    pm, _ = plugins.make_plugin_manager(load_entrypoints=False)
    pm.set_blocked("faithguard.verifiers.plugin")
    pm.unregister(name="faithguard.verifiers.plugin")
    with Guard(plugin_manager=pm, judge=None, detector_timeout=120) as guard:
        report = guard.check("Write exactly 3 paragraphs about Lyon.", "One paragraph about Lyon.")
    assert not any(c.verifier for c in report.constraints)
    assert "creative:paragraphs" in fv.VERIFIER_IDS
