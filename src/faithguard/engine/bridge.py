"""The engine's one link to verifiers: the :class:`~faithguard.verification.VerifierRuntime` a plugin provides."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from faithguard.models import Status
from faithguard.verification import FoundSpec, active_runtime

__all__ = ["Checked", "available", "detect_specs", "registry_key", "run_verifier"]


@dataclass(frozen=True)
class Checked:
    """A verifier's outcome as the engine reads it: status, reason, and for a count what it measured
    (``found`` units against ``rel`` ``want``, ``rel`` one of '<', '<=', '>=', '==')."""

    status: Status
    reason: str
    count: tuple[int, str, int] | None = None
    #: A count was measured but its relation is not one the engine can read as a bound.
    unreadable_count: bool = False


def available() -> bool:
    """Whether a plugin provides a verifier runtime."""
    return active_runtime() is not None


def detect_specs(text: str) -> list[FoundSpec]:
    """Verifiable specs found in ``text`` (empty when no plugin provides a verifier runtime)."""
    runtime = active_runtime()
    if runtime is None:
        return []
    return list(runtime.detect(text))


def registry_key() -> int:
    """Identifies the verifier registry active in this context (0 when no runtime is provided)."""
    runtime = active_runtime()
    return 0 if runtime is None else runtime.registry_key()


def run_verifier(verifier: str, params: Mapping[str, Any], response: str) -> Checked:
    """Run one deterministic verifier; UNKNOWN with a reason when it cannot run."""
    runtime = active_runtime()
    if runtime is None:
        return Checked(Status.UNKNOWN, "verifier: no plugin provides a verifier runtime")
    outcome = runtime.verify(verifier, params, response)
    measured = outcome.count
    count = None
    if measured is not None:
        symbol = runtime.relation_symbol(measured.relation)
        if symbol is not None:
            count = (measured.found, symbol, measured.want)
    unreadable = measured is not None and count is None
    return Checked(Status(str(outcome.status)), f"verifier: {outcome.reason}", count, unreadable)
