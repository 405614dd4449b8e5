"""The ``serve`` command registered through the register_commands hook."""

from __future__ import annotations

import argparse

import pytest

from faithguard.integrations import plugin
from faithguard.plugins import make_plugin_manager
from faithguard.policy import Action


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="faithguard")
    sub = parser.add_subparsers(dest="command")
    pm, failures = make_plugin_manager(load_entrypoints=False)
    assert not [f for f in failures if f.name == "faithguard.integrations.plugin"]
    pm.hook.register_commands(subparsers=sub)
    return parser


def test_serve_is_registered_with_defaults() -> None:
    args = _parser().parse_args(["serve", "--upstream", "http://127.0.0.1:11434/v1"])
    assert args.handler is plugin.serve
    assert (args.host, args.port, args.policy) == ("127.0.0.1", 8088, "observe")


def test_serve_options_and_policies() -> None:
    args = _parser().parse_args(
        ["serve", "--upstream", "http://x/v1", "--host", "0.0.0.0", "--port", "9000", "--policy", "block"]
    )
    assert (args.host, args.port, args.policy) == ("0.0.0.0", 9000, "block")
    assert plugin.build_policy("annotate").default is Action.ANNOTATE
    assert plugin.build_policy("observe").default is Action.OBSERVE
    assert any(r.action is Action.BLOCK for r in plugin.build_policy("block").rules)


def test_serve_rejects_bad_input() -> None:
    with pytest.raises(SystemExit):
        _parser().parse_args(["serve"])  # --upstream is required
    with pytest.raises(SystemExit):
        _parser().parse_args(["serve", "--upstream", "http://x", "--policy", "maybe"])
