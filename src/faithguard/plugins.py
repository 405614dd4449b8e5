"""Plugin manager: built-ins and entry points load through the same path.

Built-in detectors live in :data:`DEFAULT_PLUGINS` and are registered exactly
like third-party plugins found under the ``faithguard`` entry-point group.
A plugin that fails to import or register is recorded with its name in
:attr:`Registry.failures`; it never breaks ``import faithguard`` or a guard.
"""

from __future__ import annotations

import importlib
import importlib.metadata
import math
import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

import pluggy

from faithguard import hookspecs
from faithguard.detector import Decomposer, Detector, KnowledgeSource, RegisteredVerifier
from faithguard.errors import PluginError
from faithguard.judging import JudgeResolver
from faithguard.runner import budget_ok
from faithguard.verification import VerifierRuntime

__all__ = ["DEFAULT_PLUGINS", "ENTRY_POINT_GROUP", "PluginFailure", "Registry", "make_plugin_manager"]

ENTRY_POINT_GROUP = "faithguard"

#: Built-in plugin modules, registered like any entry point.
DEFAULT_PLUGINS: tuple[str, ...] = (
    "faithguard.engine.plugin",
    "faithguard.inputs.plugin",
    "faithguard.terms.plugin",
    "faithguard.judge.plugin",
    "faithguard.semantic.plugin",
    "faithguard.evaluate.plugin",
    "faithguard.integrations.plugin",
    "faithguard.verifiers.plugin",
    "faithguard.verifiers.runtime",
)


@dataclass(frozen=True)
class PluginFailure:
    """A plugin that could not be loaded or registered."""

    name: str
    error: str


@dataclass
class Registry:
    """What the plugins registered, collected once per guard."""

    detectors: list[Detector] = field(default_factory=list)
    decomposers: dict[str, Decomposer] = field(default_factory=dict)
    knowledge_sources: list[KnowledgeSource] = field(default_factory=list)
    judges: dict[str, Callable[..., Any]] = field(default_factory=dict)
    #: Asked in order (plugin names sorted) for a ``Guard(judge=spec)`` that is not a judge already.
    judge_resolvers: list[JudgeResolver] = field(default_factory=list)
    verifiers: list[RegisteredVerifier] = field(default_factory=list)
    #: What the engine detects and runs verifiers with (plugin names sorted; the first one is used).
    verifier_runtimes: list[VerifierRuntime] = field(default_factory=list)
    failures: list[PluginFailure] = field(default_factory=list)


def _env_list(name: str) -> set[str] | None:
    raw = os.environ.get(name)
    if raw is None:
        return None
    return {p.strip() for p in raw.split(",") if p.strip()}


def make_plugin_manager(
    *,
    load_entrypoints: bool = True,
    defaults: bool = True,
    only: Iterable[str] | None = None,
    blocked: Iterable[str] | None = None,
) -> tuple[pluggy.PluginManager, list[PluginFailure]]:
    """A fresh plugin manager with the hookspecs, built-ins and (optionally) entry points.

    ``only`` restricts entry points to those names (env ``FAITHGUARD_LOAD_PLUGINS``);
    ``blocked`` skips names (env ``FAITHGUARD_BLOCK_PLUGINS``). Returns the manager and the
    failures met while loading.
    """
    pm = pluggy.PluginManager(hookspecs.PROJECT)
    pm.add_hookspecs(hookspecs)
    failures: list[PluginFailure] = []
    blocked_set = set(blocked or ()) | (_env_list("FAITHGUARD_BLOCK_PLUGINS") or set())
    for name in blocked_set:
        pm.set_blocked(name)
    if defaults:
        for module_name in DEFAULT_PLUGINS:
            _register_module(pm, module_name, module_name, failures)
    if load_entrypoints:
        allowed = set(only) if only is not None else _env_list("FAITHGUARD_LOAD_PLUGINS")
        for ep in sorted(importlib.metadata.entry_points(group=ENTRY_POINT_GROUP), key=lambda e: e.name):
            if (allowed is not None and ep.name not in allowed) or pm.is_blocked(ep.name):
                continue
            if pm.get_plugin(ep.name) is not None:
                continue
            try:
                plugin = ep.load()
                pm.register(plugin, name=ep.name)
            except Exception as exc:  # noqa: BLE001 - any plugin error is recorded, not raised
                failures.append(PluginFailure(ep.name, f"{type(exc).__name__}: {exc}"))
    return pm, failures


def _register_module(pm: pluggy.PluginManager, name: str, module_name: str, failures: list[PluginFailure]) -> None:
    if pm.is_blocked(name):
        return
    try:
        pm.register(importlib.import_module(module_name), name=name)
    except Exception as exc:  # noqa: BLE001 - a broken built-in is reported like any plugin
        failures.append(PluginFailure(name, f"{type(exc).__name__}: {exc}"))


def collect(pm: pluggy.PluginManager, failures: list[PluginFailure] | None = None) -> Registry:
    """Call every ``register_*`` hook and gather the results in a :class:`Registry`.

    Detectors are sorted by ``(order, name)`` so results never depend on
    registration order. Duplicate detector names are an error of the later plugin.
    """
    reg = Registry(failures=list(failures or []))
    seen: set[str] = set()

    def add_detector(det: Detector) -> None:
        problem = detector_problem(det)
        if problem is not None:
            raise PluginError(str(getattr(det, "name", "?"))[:80], problem)
        if det.name in seen:
            raise PluginError(det.name, "a detector with this name is already registered")
        seen.add(det.name)
        reg.detectors.append(det)

    def add_decomposer(dec: Decomposer) -> None:
        if not isinstance(getattr(dec, "name", None), str) or not dec.name:
            raise PluginError(repr(dec)[:80], "a decomposer needs a non-empty name")
        if dec.name in reg.decomposers:
            raise PluginError(dec.name, "a decomposer with this name is already registered")
        reg.decomposers[dec.name] = dec

    def add_source(src: KnowledgeSource) -> None:
        reg.knowledge_sources.append(src)

    def add_judge(name: str, factory: Callable[..., Any]) -> None:
        reg.judges[name] = factory

    def add_judge_resolver(resolver: JudgeResolver) -> None:
        if not isinstance(resolver, JudgeResolver):
            raise PluginError(repr(resolver)[:80], "does not implement the JudgeResolver protocol")
        reg.judge_resolvers.append(resolver)

    verifier_ids: set[str] = set()

    def add_verifier(verifier: RegisteredVerifier) -> None:
        if not isinstance(verifier, RegisteredVerifier):
            raise PluginError(repr(verifier)[:80], "does not implement the RegisteredVerifier protocol")
        if verifier.id in verifier_ids:
            raise PluginError(verifier.id, "a verifier with this id is already registered")
        verifier_ids.add(verifier.id)
        reg.verifiers.append(verifier)

    def add_verifier_runtime(runtime: VerifierRuntime) -> None:
        if not isinstance(runtime, VerifierRuntime):
            raise PluginError(repr(runtime)[:80], "does not implement the VerifierRuntime protocol")
        reg.verifier_runtimes.append(runtime)

    hooks: list[tuple[str, Callable[..., Any]]] = [
        ("register_detectors", add_detector),
        ("register_decomposers", add_decomposer),
        ("register_knowledge_sources", add_source),
        ("register_judges", add_judge),
        ("register_judge_resolvers", add_judge_resolver),
        ("register_verifiers", add_verifier),
        ("register_verifier_runtime", add_verifier_runtime),
    ]
    current = ""

    def one_by_one(hook_name: str, add: Callable[..., None]) -> Callable[..., None]:
        # a registration refused (a name already taken, a malformed detector) is the plugin's failure and skips that
        # one object: the plugin's other registrations, and every other plugin's, still count
        def register(*args: Any) -> None:
            try:
                add(*args)
            except PluginError as exc:
                reg.failures.append(PluginFailure(current, f"{hook_name}: {type(exc).__name__}: {exc}"))

        return register

    # built-ins first, in their fixed order: a third-party plugin named to sort before them cannot take their names
    # and make the built-in registrations fail; then the rest by name
    plugins = sorted(pm.list_name_plugin(), key=lambda item: (item[0] not in DEFAULT_PLUGINS, _rank(item[0]), item[0]))
    for plugin_name, plugin in plugins:
        current = plugin_name
        for hook_name, add in hooks:
            impl = getattr(plugin, hook_name, None)
            if impl is None or not _is_hookimpl(impl):
                continue
            try:
                impl(register=one_by_one(hook_name, add))
            except Exception as exc:  # noqa: BLE001 - isolate a plugin that fails to register
                reg.failures.append(PluginFailure(plugin_name, f"{hook_name}: {type(exc).__name__}: {exc}"))
    reg.detectors.sort(key=lambda d: (d.order, d.name))
    reg.knowledge_sources.sort(key=lambda s: s.name)
    return reg


def _rank(name: str) -> int:
    return DEFAULT_PLUGINS.index(name) if name in DEFAULT_PLUGINS else 0


def detector_problem(det: object) -> str | None:
    """What makes ``det`` unusable as a detector (None: nothing): the protocol, a non-empty ``name``, a ``stage`` of
    "input" or "output", a finite number ``order`` and a ``timeout`` of None or a finite number of seconds above 0.
    A timeout of 0, below 0, NaN or infinity would leave a check without a budget (or jam the worker pool), an order
    that is no number would stop every guard from sorting its detectors."""
    if not callable(getattr(det, "run", None)) or not all(hasattr(det, a) for a in ("name", "stage", "order")):
        return "does not implement the Detector protocol (name, stage, order, run)"
    name, stage, order = getattr(det, "name"), getattr(det, "stage"), getattr(det, "order")  # noqa: B009
    timeout = getattr(det, "timeout", None)  # optional: None is the guard's budget
    if not isinstance(name, str) or not name:
        return "a detector needs a non-empty name"
    if stage not in ("input", "output"):
        return f"unknown stage {str(stage)[:40]!r} (input or output)"
    if not _finite(order):
        return f"order must be a finite number, not {str(order)[:40]!r}"
    if timeout is not None and not budget_ok(timeout):
        return f"timeout must be None or a finite number of seconds above 0, not {str(timeout)[:40]!r}"
    return None


def _finite(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def _is_hookimpl(obj: object) -> bool:
    return hasattr(obj, hookspecs.PROJECT + "_impl")


def describe(pm: pluggy.PluginManager, registry: Registry) -> list[dict[str, Any]]:
    """Rows for ``faithguard plugins``: each plugin with its hooks and version."""
    from faithguard import __version__

    versions = {ep.name: ep.dist.version for ep in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP) if ep.dist}
    rows: list[dict[str, Any]] = []
    for name, plugin in sorted(pm.list_name_plugin(), key=lambda item: item[0]):
        hooks = sorted(h.name for h in pm.get_hookcallers(plugin) or [])
        builtin = name in DEFAULT_PLUGINS
        rows.append(
            {
                "name": name,
                "hooks": hooks,
                # the distribution that registered it (faithguard's own for built-ins); None for a plugin registered
                # by hand
                "version": __version__ if builtin else versions.get(name),
                "builtin": builtin,
            }
        )
    for failure in registry.failures:
        rows.append({"name": failure.name, "hooks": [], "version": None, "builtin": False, "error": failure.error})
    return rows
