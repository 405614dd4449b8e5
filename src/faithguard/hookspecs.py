"""Every faithguard extension point. Plugins implement these with ``faithguard.hookimpl``."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import pluggy

if TYPE_CHECKING:
    from faithguard.detector import Decomposer, Detector, KnowledgeSource, RegisteredVerifier
    from faithguard.judging import JudgeResolver
    from faithguard.models import Report
    from faithguard.verification import VerifierRuntime

__all__ = ["PROJECT", "hookimpl", "hookspec"]

PROJECT = "faithguard"
hookspec = pluggy.HookspecMarker(PROJECT)
hookimpl = pluggy.HookimplMarker(PROJECT)


@hookspec
def register_detectors(register: Callable[[Detector], None]) -> None:
    """Register input- or output-stage detectors: ``register(detector)``."""


@hookspec
def register_decomposers(register: Callable[[Decomposer], None]) -> None:
    """Register decomposers by their ``name``: ``register(decomposer)``."""


@hookspec
def register_knowledge_sources(register: Callable[[KnowledgeSource], None]) -> None:
    """Register knowledge sources that back (or not) candidate terms."""


@hookspec
def register_judges(register: Callable[[str, Callable[..., Any]], None]) -> None:
    """Register judge factories: ``register(name, factory)``; ``factory(**options)`` builds a judge."""


@hookspec
def register_judge_resolvers(register: Callable[[JudgeResolver], None]) -> None:
    """Register what turns a ``Guard(judge=spec)`` value into a judge: ``register(resolver)``."""


@hookspec
def register_verifiers(register: Callable[[RegisteredVerifier], None]) -> None:
    """Register deterministic verifiers (id, exact check, optional request finder): ``register(verifier)``."""


@hookspec
def register_verifier_runtime(register: Callable[[VerifierRuntime], None]) -> None:
    """Register what detects and runs verifiers for the engine: ``register(runtime)`` (the first one is used)."""


@hookspec
def on_report(report: Report) -> None:
    """Observe every finished report (side effects only; errors are isolated)."""


@hookspec
def register_commands(subparsers: Any) -> None:
    """Add CLI sub-commands to the ``faithguard`` argparse sub-parsers.

    Each parser sets ``handler=fn`` with ``fn(args) -> int`` (the exit code).
    """
