"""``Guard(judge=spec)`` goes through the judge resolvers plugins registered, and nothing else.

Every guard here has a bare plugin manager (no built-in plugin): the resolvers are inline plugins, so
these tests say what the core does without the judge plugin.
"""

from __future__ import annotations

from typing import Any

import pytest

from faithguard import CallContext, ConfigError, Constraint, Decomposition, Guard, Status, hookimpl
from faithguard.judging import JudgeResolver
from faithguard.plugins import make_plugin_manager
from faithguard.testing import StaticDecomposer

from .helpers import PARIS


class TinyJudge:
    """A judge that gives every constraint one status."""

    cache_key = "tiny-v1"

    def __init__(self, verdict: str, tracer: Any = None) -> None:
        self.name = f"judge:tiny-{verdict}"
        self.verdict = Status(verdict)
        self.tracer = tracer

    def decompose(self, ctx: CallContext) -> Decomposition:
        return Decomposition()

    def satisfy(self, ctx: CallContext, constraints: list[Constraint]) -> dict[str, tuple[Status, str]]:
        return {c.id: (self.verdict, "tiny") for c in constraints}


class TinyResolver:
    """Reads ``"tiny:<status>"``; ``"tiny:env"`` means no judge, ``"tiny:broken"`` gives a non-judge."""

    accepted = "'tiny:<status>'"

    def accepts(self, spec: object) -> bool:
        return isinstance(spec, str) and spec.startswith("tiny:")

    def resolve(self, spec: object, *, tracer: Any = None) -> Any:
        verdict = str(spec).removeprefix("tiny:")
        if verdict == "env":
            return None
        if verdict == "broken":
            return object()
        return TinyJudge(verdict, tracer)


class ResolverPlugin:
    def __init__(self, resolver: object) -> None:
        self.resolver = resolver

    @hookimpl
    def register_judge_resolvers(self, register):  # type: ignore[no-untyped-def]
        register(self.resolver)


def guard_with(*resolvers: object, **kw: Any) -> Guard:
    pm, _ = make_plugin_manager(load_entrypoints=False, defaults=False)
    for i, resolver in enumerate(resolvers):
        pm.register(ResolverPlugin(resolver), name=f"resolver-{i}")
    return Guard(plugin_manager=pm, decomposer=StaticDecomposer(PARIS), warmup=False, **kw)


def test_without_a_resolver_env_and_off_leave_the_guard_offline() -> None:
    for spec in ("env", "off", None, False):
        guard = guard_with(judge=spec)
        assert guard.judge is None
        guard.close()


def test_without_a_resolver_any_other_spec_is_a_config_error() -> None:
    for spec in ("tiny:satisfied", object()):
        with pytest.raises(ConfigError, match=r"^the LLM judge is not available: no plugin registered a judge"):
            guard_with(judge=spec)


def test_a_judge_object_needs_no_resolver() -> None:
    judge = TinyJudge("violated")
    guard = guard_with(judge=judge)
    assert guard.judge is judge
    guard.close()


def test_a_registered_resolver_builds_the_judge_with_the_guards_tracer() -> None:
    guard = guard_with(TinyResolver(), judge="tiny:satisfied")
    assert isinstance(guard.judge, TinyJudge) and guard.judge.verdict is Status.SATISFIED
    assert guard.judge.tracer is guard.telemetry.tracer
    assert guard.check("q", "Paris museum three").judge == "unused"  # keyword detector decided nothing
    guard.close()
    assert guard_with(TinyResolver(), judge="tiny:env").judge is None


def test_specs_no_resolver_accepts_get_the_same_errors_as_before() -> None:
    with pytest.raises(ConfigError) as info:
        guard_with(TinyResolver(), judge="gpt-4o")
    assert str(info.value) == "unknown judge spec 'gpt-4o': use None, 'off', 'tiny:<status>'"
    with pytest.raises(ConfigError) as info:
        guard_with(TinyResolver(), judge=42)
    assert str(info.value) == "cannot build a judge from int"
    # "env" is a spec like any other once a resolver exists: this one does not read it
    with pytest.raises(ConfigError, match="unknown judge spec 'env'"):
        guard_with(TinyResolver(), judge="env")


def test_a_resolver_that_builds_no_judge_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match="object does not implement the Judge protocol"):
        guard_with(TinyResolver(), judge="tiny:broken")


def test_the_first_resolver_that_accepts_wins_in_plugin_name_order() -> None:
    class Other(TinyResolver):
        def resolve(self, spec: object, *, tracer: Any = None) -> Any:
            return TinyJudge("violated")

    guard = guard_with(Other(), TinyResolver(), judge="tiny:satisfied")  # "resolver-0" sorts first
    assert isinstance(guard.judge, TinyJudge) and guard.judge.verdict is Status.VIOLATED
    guard.close()


def test_a_resolver_without_the_protocol_is_a_plugin_failure() -> None:
    assert isinstance(TinyResolver(), JudgeResolver)
    guard = guard_with(object(), judge=None)
    assert [f.name for f in guard.plugin_failures] == ["resolver-0"]
    assert "JudgeResolver protocol" in guard.plugin_failures[0].error
    assert guard.registry.judge_resolvers == []
    guard.close()


def test_env_asking_for_a_judge_no_plugin_can_build_is_logged(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setenv("FAITHGUARD_JUDGE_BASE_URL", "http://127.0.0.1:9/v1")
    pm, _ = make_plugin_manager(load_entrypoints=False, blocked=["faithguard.judge.plugin"])
    with caplog.at_level("WARNING", logger="faithguard.guard"), Guard(plugin_manager=pm, judge="env") as guard:
        assert guard.judge is None
    assert any("no plugin registered a judge resolver" in r.getMessage() for r in caplog.records)
    assert not any("127.0.0.1" in r.getMessage() for r in caplog.records)  # the URL itself is not logged
