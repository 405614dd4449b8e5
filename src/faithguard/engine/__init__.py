"""The offline intent engine: decomposition, constraint satisfaction, omission/misinterpretation verdicts."""

from __future__ import annotations

from faithguard.engine.decompose import OfflineDecomposer, decompose_text
from faithguard.engine.satisfy import check_constraint
from faithguard.engine.verdicts import ConstraintsDetector, MisinterpretationDetector, OmissionDetector

__all__ = [
    "ConstraintsDetector",
    "MisinterpretationDetector",
    "OfflineDecomposer",
    "OmissionDetector",
    "check_constraint",
    "decompose_text",
]
