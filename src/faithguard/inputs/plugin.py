"""Built-in plugin: registers the missing-content detectors."""

from __future__ import annotations

from collections.abc import Callable

from faithguard.detector import Detector
from faithguard.hookspecs import hookimpl
from faithguard.inputs.followup import FollowupDetector
from faithguard.inputs.missing import MissingContentDetector

__all__ = ["register_detectors"]


@hookimpl
def register_detectors(register: Callable[[Detector], None]) -> None:
    """Register the input-stage missing-content check and its output-stage follow-up."""
    register(MissingContentDetector())
    register(FollowupDetector())
