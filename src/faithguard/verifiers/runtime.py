"""Built-in plugin: the verifier runtime the engine uses (``register_verifier_runtime``).

Separate from :mod:`faithguard.verifiers.plugin` on purpose: blocking the built-in verifiers leaves this
runtime, so verifiers other plugins register still run (inside a guarded call, the guard's own set).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from faithguard.hookspecs import hookimpl
from faithguard.verification import VerifierRuntime
from faithguard.verifiers import (
    RELATION_SYMBOLS,
    VerifiableSpec,
    VerifierOutcome,
    active_registry,
    detect,
    verify,
    warmup,
)

__all__ = ["RegistryRuntime", "register_verifier_runtime"]


class RegistryRuntime:
    """:func:`faithguard.verifiers.detect` / :func:`~faithguard.verifiers.verify` over the active registry."""

    def detect(self, text: str) -> Sequence[VerifiableSpec]:
        """The verifiable constraints stated in ``text``."""
        return detect(text)

    def verify(self, verifier: str, params: Mapping[str, Any], response: str) -> VerifierOutcome:
        """Check ``response`` against one verifier; ConfigError for an unknown verifier id."""
        return verify(verifier, params, response)

    def relation_symbol(self, relation: str) -> str | None:
        """The symbol of a count relation (:data:`faithguard.verifiers.RELATION_SYMBOLS`)."""
        return RELATION_SYMBOLS.get(relation)

    def registry_key(self) -> int:
        """The serial of the active registry."""
        return int(active_registry().serial)

    def warmup(self) -> None:
        """Build the registry and compile its detection patterns (:func:`faithguard.verifiers.warmup`)."""
        warmup()


@hookimpl
def register_verifier_runtime(register: Callable[[VerifierRuntime], None]) -> None:
    """The runtime over the active verifier registry."""
    register(RegistryRuntime())
