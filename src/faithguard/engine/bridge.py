"""Thin, lazily imported link to ``faithguard.verifiers`` (detect/verify)."""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any

from faithguard.models import Status

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


def _module() -> Any | None:
    try:
        mod = importlib.import_module("faithguard.verifiers")
    except ImportError:
        return None
    return mod if hasattr(mod, "detect") and hasattr(mod, "verify") else None


def available() -> bool:
    """Whether the verifiers package can be imported."""
    return _module() is not None


def detect_specs(text: str) -> list[Any]:
    """Verifiable specs found in ``text`` (empty when the verifiers package is absent)."""
    mod = _module()
    if mod is None:
        return []
    return list(mod.detect(text))


def registry_key() -> int:
    """Identifies the verifier registry active in this context (0 when the package is absent)."""
    mod = _module()
    return 0 if mod is None else int(mod.active_registry().serial)


def run_verifier(verifier: str, params: dict[str, Any], response: str) -> Checked:
    """Run one deterministic verifier; UNKNOWN with a reason when it cannot run."""
    mod = _module()
    if mod is None:
        return Checked(Status.UNKNOWN, "verifier: faithguard.verifiers is not installed")
    outcome = mod.verify(verifier, params, response)
    measured = outcome.count
    count = None
    if measured is not None and measured.relation in mod.RELATION_SYMBOLS:
        count = (measured.found, mod.RELATION_SYMBOLS[measured.relation], measured.want)
    unreadable = measured is not None and count is None
    return Checked(Status(str(outcome.status)), f"verifier: {outcome.reason}", count, unreadable)
