"""Built-in plugin: the "semantic" output detector, registered when its model is installed.

Without the ``semantic`` extra and the model wheel nothing is registered (and nothing heavy is
imported); ``FAITHGUARD_SEMANTIC=0`` switches it off even when installed.
"""

from __future__ import annotations

import os
from collections.abc import Callable

from faithguard.detector import Detector
from faithguard.errors import ConfigError
from faithguard.hookspecs import hookimpl

__all__ = ["register_detectors"]


@hookimpl
def register_detectors(register: Callable[[Detector], None]) -> None:
    """The "semantic" detector (order 150), when the model is installed and not switched off."""
    switch = os.environ.get("FAITHGUARD_SEMANTIC", "").strip().lower()
    if switch in ("0", "off", "false", "no"):
        return
    if switch not in ("", "1", "on", "true", "yes"):  # a typo would leave the layer on while meant off
        raise ConfigError("FAITHGUARD_SEMANTIC must be 1/on/true/yes or 0/off/false/no")
    from faithguard.semantic._model import available

    if not available():
        return
    from faithguard.semantic.detector import SemanticDetector

    register(SemanticDetector())
