"""The typed link between the offline engine and whatever detects and runs deterministic verifiers.

A plugin provides a :class:`VerifierRuntime` through the ``register_verifier_runtime`` hook (the built-in
one is ``faithguard.verifiers.runtime``); the engine asks :func:`active_runtime` and never names the
package behind it. The runtime is found once per process through the ordinary plugin path (built-ins
plus entry points, honouring ``FAITHGUARD_LOAD_PLUGINS``/``FAITHGUARD_BLOCK_PLUGINS``); which verifiers
it runs inside a guarded call is that guard's business (:func:`faithguard.detector.guard_verifiers`).
:func:`use_runtime` makes another runtime (or none) active in one context, e.g. in tests.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, Protocol, runtime_checkable

from faithguard.models import Category, Status

__all__ = ["FoundSpec", "MeasuredCount", "VerifierResult", "VerifierRuntime", "active_runtime", "use_runtime"]


class FoundSpec(Protocol):
    """A verifiable constraint found in a request: verifier id, its parameters, the phrase that states it."""

    @property
    def verifier(self) -> str:
        """The verifier id (IFEval / IFBench ids where they apply)."""
        ...

    @property
    def params(self) -> Mapping[str, Any]:
        """The verifier's parameters."""
        ...

    @property
    def text(self) -> str:
        """The request's phrase that states the constraint."""
        ...

    @property
    def category(self) -> Category:
        """The constraint's category."""
        ...

    @property
    def negated(self) -> bool:
        """Whether the request forbids rather than asks."""
        ...


class MeasuredCount(Protocol):
    """What a count verifier measured: ``found`` units against ``relation`` ``want``."""

    @property
    def found(self) -> int:
        """Units found in the response."""
        ...

    @property
    def relation(self) -> str:
        """The relation's name (read with :meth:`VerifierRuntime.relation_symbol`)."""
        ...

    @property
    def want(self) -> int:
        """The bound the request set."""
        ...


class VerifierResult(Protocol):
    """What a verifier decided: a status, a short reason and, for a count, what it measured."""

    @property
    def status(self) -> Status:
        """Satisfied, violated or unknown."""
        ...

    @property
    def reason(self) -> str:
        """A short reason (no response content beyond what the check names)."""
        ...

    @property
    def count(self) -> MeasuredCount | None:
        """The measure of a count verifier, else None."""
        ...


@runtime_checkable
class VerifierRuntime(Protocol):
    """Detects verifiable constraints in a request and checks one in a response."""

    def detect(self, text: str) -> Sequence[FoundSpec]:
        """The verifiable constraints stated in ``text``."""
        ...

    def verify(self, verifier: str, params: Mapping[str, Any], response: str) -> VerifierResult:
        """Check ``response`` against one verifier; ConfigError for an unknown verifier id."""
        ...

    def relation_symbol(self, relation: str) -> str | None:
        """'<', '<=', '>=' or '==' for a count's relation name; None when it is no bound."""
        ...

    def registry_key(self) -> int:
        """Identifies the set of verifiers active in this context (callers key caches by it)."""
        ...


_OVERRIDE: ContextVar[tuple[VerifierRuntime | None] | None] = ContextVar("faithguard_verifier_runtime", default=None)
_LOCK = threading.Lock()
_FOUND: list[VerifierRuntime] = []


def active_runtime() -> VerifierRuntime | None:
    """The runtime of this context: inside a guard's plugin call, the guard's own (its run sets it with
    :func:`use_runtime`); elsewhere (engine functions called directly) the one the installed plugins provide,
    found once (None: none, looked for again next time)."""
    chosen = _OVERRIDE.get()
    if chosen is not None:
        return chosen[0]
    with _LOCK:
        if _FOUND:
            return _FOUND[0]
    found = _discover()
    with _LOCK:
        if found is not None and not _FOUND:
            _FOUND.append(found)
        return _FOUND[0] if _FOUND else None


def _discover() -> VerifierRuntime | None:
    from faithguard import plugins

    pm, failures = plugins.make_plugin_manager()
    runtimes = plugins.collect(pm, failures).verifier_runtimes
    return runtimes[0] if runtimes else None


@contextmanager
def use_runtime(runtime: VerifierRuntime | None) -> Iterator[None]:
    """Make ``runtime`` (None: no runtime at all) what :func:`active_runtime` returns in this context."""
    token = _OVERRIDE.set((runtime,))
    try:
        yield
    finally:
        _OVERRIDE.reset(token)
