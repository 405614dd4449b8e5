"""Built-in plugin: registers every built-in verifier through ``register_verifiers``, like any plugin."""

from __future__ import annotations

from collections.abc import Callable

from faithguard.hookspecs import hookimpl
from faithguard.verifiers import check_creative, check_ifbench, check_ifbench_format, check_ifeval, units
from faithguard.verifiers.detect_builtin import detect_builtin
from faithguard.verifiers.registry import Verifier

__all__ = ["register_verifiers"]


@hookimpl
def register_verifiers(register: Callable[[Verifier], None]) -> None:
    """Register the IFEval, creative-writing, per-unit and IFBench verifiers."""
    for table in (
        check_ifeval.CHECKS,
        check_creative.CHECKS,
        units.CHECKS,
        check_ifbench.CHECKS,
        check_ifbench_format.CHECKS,
    ):
        for verifier_id, check in table.items():
            register(Verifier(verifier_id, check, detect_builtin))
