"""The semantic layer: small local sentence embeddings as evidence of topic and coverage.

``SemanticDetector`` is registered by :mod:`faithguard.semantic.plugin` when the ``semantic`` extra
and the model wheel are installed; see docs/semantic.md.
"""

from __future__ import annotations

from faithguard.semantic.detector import Calibration, SemanticDetector

__all__ = ["Calibration", "SemanticDetector"]
