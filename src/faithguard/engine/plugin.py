"""Built-in plugin: the offline decomposer and the constraint/omission/misinterpretation detectors."""

from __future__ import annotations

from collections.abc import Callable

from faithguard.detector import Decomposer, Detector
from faithguard.engine.decompose import OfflineDecomposer
from faithguard.engine.verdicts import ConstraintsDetector, MisinterpretationDetector, OmissionDetector
from faithguard.hookspecs import hookimpl

__all__ = ["register_decomposers", "register_detectors"]


@hookimpl
def register_decomposers(register: Callable[[Decomposer], None]) -> None:
    """Register the offline (spaCy) decomposer."""
    register(OfflineDecomposer())


@hookimpl
def register_detectors(register: Callable[[Detector], None]) -> None:
    """Register the satisfaction detector and the omission/misinterpretation verdict producers."""
    register(ConstraintsDetector())
    register(OmissionDetector())
    register(MisinterpretationDetector())
