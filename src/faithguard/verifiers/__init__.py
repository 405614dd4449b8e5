"""Deterministic verifiers: detect verifiable instructions in a query and check them in a response.

Covers the 25 IFEval instruction types and IFBench's 58 (their ids and kwargs names, strict
definitions), creative-writing constraints under ``creative:`` ids, and per-unit constraints
(``creative:per_unit``). Every verifier, built-in or third-party, reaches the registry through the
``register_verifiers`` hook; :func:`detect` and :func:`verify` use the active registry (see
:func:`use_registry`), by default the built-ins plus the installed entry points.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from faithguard.detector import guard_verifiers
from faithguard.verifiers.registry import RELATION_SYMBOLS, Count, Verifier, VerifierOutcome, VerifierRegistry
from faithguard.verifiers.spec import VerifiableSpec

__all__ = [
    "IFEVAL_IDS",
    "RELATION_SYMBOLS",
    "VERIFIER_IDS",
    "Count",
    "VerifiableSpec",
    "Verifier",
    "VerifierOutcome",
    "VerifierRegistry",
    "active_registry",
    "default_registry",
    "detect",
    "reset_default_registry",
    "use_registry",
    "verify",
    "warmup",
]

_BUILTIN_PLUGIN = "faithguard.verifiers.plugin"
_MAX_QUERY = 20_000
_ACTIVE: ContextVar[VerifierRegistry | None] = ContextVar("faithguard_verifiers", default=None)
_LOCK = threading.Lock()
_DEFAULT: list[VerifierRegistry] = []
#: Registries built from guards' verifier sets, keyed by the verifiers' identities (a few guards at most;
#: the tuple is kept beside the registry so a recycled id never matches another guard's set).
_SCOPED: OrderedDict[tuple[int, ...], tuple[tuple[object, ...], VerifierRegistry]] = OrderedDict()
_MAX_SCOPED = 32


def default_registry() -> VerifierRegistry:
    """The built-in verifiers plus those of installed entry-point plugins (built once, then cached)."""
    with _LOCK:
        if not _DEFAULT:
            import importlib

            from faithguard import plugins

            pm, failures = plugins.make_plugin_manager(defaults=False, load_entrypoints=True)
            if not pm.is_blocked(_BUILTIN_PLUGIN) and pm.get_plugin(_BUILTIN_PLUGIN) is None:
                pm.register(importlib.import_module(_BUILTIN_PLUGIN), name=_BUILTIN_PLUGIN)
            found = plugins.collect(pm, failures).verifiers
            _DEFAULT.append(VerifierRegistry(v for v in found if isinstance(v, Verifier)))
        return _DEFAULT[0]


def reset_default_registry() -> None:
    """Forget the cached default registry (after installing or removing a plugin)."""
    with _LOCK:
        _DEFAULT.clear()


def active_registry() -> VerifierRegistry:
    """The registry :func:`detect` and :func:`verify` use in this context.

    In order: one made active with :func:`use_registry`; inside a guarded call, the verifiers that
    guard's plugin manager registered; otherwise :func:`default_registry`.
    """
    chosen = _ACTIVE.get()
    if chosen is not None:
        return chosen
    scoped = guard_verifiers()
    if scoped is None:
        return default_registry()
    key = tuple(id(v) for v in scoped)
    with _LOCK:
        hit = _SCOPED.get(key)
        if hit is not None and hit[0] == scoped:
            _SCOPED.move_to_end(key)
            return hit[1]
    registry = VerifierRegistry(v for v in scoped if isinstance(v, Verifier))
    with _LOCK:
        _SCOPED[key] = (scoped, registry)
        while len(_SCOPED) > _MAX_SCOPED:
            _SCOPED.popitem(last=False)
    return registry


@contextmanager
def use_registry(registry: VerifierRegistry) -> Iterator[VerifierRegistry]:
    """Make ``registry`` the active one in this context (e.g. a guard's own plugins)."""
    token = _ACTIVE.set(registry)
    try:
        yield registry
    finally:
        _ACTIVE.reset(token)


def detect(text: str) -> list[VerifiableSpec]:
    """Find the verifiable instructions stated in a query, with their parameters."""
    if not isinstance(text, str) or not text.strip():
        return []
    return active_registry().detect(text[:_MAX_QUERY])


def verify(verifier: str, params: Mapping[str, Any], response: str) -> VerifierOutcome:
    """Check ``response`` against one verifier; raises ConfigError for an unknown verifier id."""
    return active_registry().verify(verifier, params or {}, response)


def warmup() -> None:
    """Build the active registry and compile the detection patterns (call it outside any time budget).

    Detection is run over the positive fixtures of the shipped detection specs: most patterns are compiled on
    first use (a request's gate words decide which), and those examples reach them, so no check pays for a
    compile (up to ~40 ms for one unit's count patterns) inside its budget. Measured: ~0.3 s, once a process
    (the compiled patterns are shared by every registry; later calls only build the active registry).
    """
    from faithguard.verifiers.detect_counts import precompile
    from faithguard.verifiers.spec_loader import spec_examples

    registry = active_registry()
    registry.detect("Write a poem of two stanzas; end each line with the word 'light'.")
    with _LOCK:
        if _WARMED:
            return
        _WARMED.append(True)
    precompile()  # every unit the built-in detectors count, whether or not an example reaches it
    for text in spec_examples():
        registry.detect(text)


_WARMED: list[bool] = []


def __getattr__(name: str) -> Any:
    if name == "VERIFIER_IDS":
        return active_registry().ids()
    if name == "IFEVAL_IDS":
        from faithguard.verifiers.check_ifeval import CHECKS

        return CHECKS.ids()
    raise AttributeError(name)
