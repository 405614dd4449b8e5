"""The engine reaches verifiers only through the VerifierRuntime a plugin provides (faithguard.verification)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from faithguard import hookimpl, plugins
from faithguard.engine import bridge
from faithguard.models import Category, Status
from faithguard.verification import VerifierRuntime, active_runtime, use_runtime


@dataclass(frozen=True)
class Spec:
    verifier: str
    params: dict[str, Any] = field(default_factory=dict)
    text: str = ""
    category: Category = Category.OTHER
    negated: bool = False


@dataclass(frozen=True)
class Measure:
    found: int
    relation: str
    want: int


@dataclass(frozen=True)
class Outcome:
    status: Status
    reason: str
    count: Measure | None = None


class FakeRuntime:
    """Finds "acme:lines" in any text mentioning lines; counts the response's lines against N."""

    def __init__(self, relation: str = "at most") -> None:
        self.relation = relation

    def detect(self, text: str) -> Sequence[Spec]:
        return [Spec("acme:lines", {"N": 2}, "two lines", Category.QUANTITY)] if "lines" in text else []

    def verify(self, verifier: str, params: Mapping[str, Any], response: str) -> Outcome:
        found = len(response.splitlines())
        status = Status.SATISFIED if found <= int(params["N"]) else Status.VIOLATED
        return Outcome(status, f"{found} lines", Measure(found, self.relation, int(params["N"])))

    def relation_symbol(self, relation: str) -> str | None:
        return {"at most": "<="}.get(relation)

    def registry_key(self) -> int:
        return 7


def test_the_fake_implements_the_protocol() -> None:
    assert isinstance(FakeRuntime(), VerifierRuntime)
    assert not isinstance(object(), VerifierRuntime)


def test_without_a_runtime_nothing_is_detected_and_a_verifier_is_unknown() -> None:
    with use_runtime(None):
        assert not bridge.available()
        assert bridge.detect_specs("Write exactly two lines.") == []
        assert bridge.registry_key() == 0
        checked = bridge.run_verifier("acme:lines", {"N": 2}, "one\ntwo")
    assert checked.status is Status.UNKNOWN and "no plugin provides a verifier runtime" in checked.reason
    assert checked.count is None and not checked.unreadable_count


def test_the_engine_reads_what_the_runtime_decides() -> None:
    with use_runtime(FakeRuntime()):
        assert bridge.available() and bridge.registry_key() == 7
        (spec,) = bridge.detect_specs("Write two lines.")
        assert (spec.verifier, dict(spec.params), spec.category) == ("acme:lines", {"N": 2}, Category.QUANTITY)
        ok = bridge.run_verifier("acme:lines", {"N": 2}, "one\ntwo")
        too_many = bridge.run_verifier("acme:lines", {"N": 2}, "one\ntwo\nthree")
    assert (ok.status, ok.reason, ok.count) == (Status.SATISFIED, "verifier: 2 lines", (2, "<=", 2))
    assert (too_many.status, too_many.count) == (Status.VIOLATED, (3, "<=", 2))


def test_a_count_whose_relation_is_no_bound_is_unreadable() -> None:
    with use_runtime(FakeRuntime(relation="roughly")):
        checked = bridge.run_verifier("acme:lines", {"N": 2}, "one")
    assert checked.status is Status.SATISFIED and checked.count is None and checked.unreadable_count


def test_by_default_the_builtin_runtime_detects_and_verifies() -> None:
    runtime = active_runtime()
    assert isinstance(runtime, VerifierRuntime) and type(runtime).__module__ == "faithguard.verifiers.runtime"
    specs = bridge.detect_specs("Write exactly 3 paragraphs about Lyon.")
    assert any(s.category is Category.QUANTITY and "paragraph" in s.verifier for s in specs)
    assert bridge.registry_key() > 0


def test_the_runtime_comes_through_the_hook_and_a_bad_one_is_a_plugin_failure() -> None:
    class Good:
        @hookimpl
        def register_verifier_runtime(self, register):  # type: ignore[no-untyped-def]
            register(FakeRuntime())

    class Bad:
        @hookimpl
        def register_verifier_runtime(self, register):  # type: ignore[no-untyped-def]
            register(object())

    pm, _ = plugins.make_plugin_manager(load_entrypoints=False, defaults=False)
    pm.register(Good(), name="good")
    pm.register(Bad(), name="bad")
    registry = plugins.collect(pm)
    assert [type(r) for r in registry.verifier_runtimes] == [FakeRuntime]
    assert [f.name for f in registry.failures] == ["bad"] and "VerifierRuntime protocol" in registry.failures[0].error
    builtin, _ = plugins.make_plugin_manager(load_entrypoints=False)
    assert [type(r).__name__ for r in plugins.collect(builtin).verifier_runtimes] == ["RegistryRuntime"]


def test_each_guard_runs_with_its_own_plugins_runtime() -> None:
    """A guard whose plugins provide no runtime has no verifier constraints, whatever another guard or the
    process's plugins provide; the default guard has them (the runtime is set for each of its plugin calls)."""
    from faithguard import Guard

    query = "Answer in all capital letters: what is the tallest mountain in Japan?"
    with_runtime, _ = plugins.make_plugin_manager(load_entrypoints=False)
    without, _ = plugins.make_plugin_manager(load_entrypoints=False, blocked=["faithguard.verifiers.runtime"])
    with Guard(plugin_manager=with_runtime, judge=None) as a, Guard(plugin_manager=without, judge=None) as b:
        verified_a = [c.verifier for c in a.check(query, "Mount Fuji.").constraints if c.verifier]
        verified_b = [c.verifier for c in b.check(query, "Mount Fuji.").constraints if c.verifier]
    assert "change_case:english_capital" in verified_a
    assert verified_b == []
