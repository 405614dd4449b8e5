"""Batch evaluation with the papers' metrics, the short-long consistency probe, and Dask scale-out."""

from __future__ import annotations

from faithguard.evaluate.records import BadRow, EvalRecord, GoldTerm, Row, read_records
from faithguard.evaluate.runner import EvalConfig, EvalResult, GuardSpec, run_eval
from faithguard.evaluate.slaq import ConsistencyProbe, slaq_metrics
from faithguard.evaluate.summary import summarize

__all__ = [
    "BadRow",
    "ConsistencyProbe",
    "EvalConfig",
    "EvalRecord",
    "EvalResult",
    "GoldTerm",
    "GuardSpec",
    "Row",
    "read_records",
    "run_eval",
    "slaq_metrics",
    "summarize",
]
