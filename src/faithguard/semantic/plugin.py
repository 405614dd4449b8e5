"""Built-in plugin: the "semantic" output detector, registered when its model is installed.

Without the ``semantic`` extra and the model wheel nothing is registered (and nothing heavy is
imported); ``FAITHGUARD_SEMANTIC=0`` switches it off even when installed.
"""

from __future__ import annotations

import os
from collections.abc import Callable

from faithguard.detector import Detector
from faithguard.hookspecs import hookimpl

__all__ = ["register_detectors"]


@hookimpl
def register_detectors(register: Callable[[Detector], None]) -> None:
    """The "semantic" detector (order 150), when the model is installed and not switched off."""
    if os.environ.get("FAITHGUARD_SEMANTIC", "").strip().lower() in ("0", "off", "false", "no"):
        return
    from faithguard.semantic._model import available

    if not available():
        return
    from faithguard.semantic.detector import SemanticDetector

    register(SemanticDetector())
