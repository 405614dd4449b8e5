"""faithguard: guard LLM calls against intent hallucination."""

from __future__ import annotations

from faithguard.errors import (
    ConfigError,
    DetectorError,
    FaithGuardError,
    HallucinationBlocked,
    InputError,
    JudgeError,
    JudgeOutputError,
    JudgeUnavailable,
    PluginError,
)
from faithguard.hookspecs import hookimpl
from faithguard.models import (
    Category,
    Constraint,
    Decomposition,
    DetectorFailure,
    DetectorResult,
    InspectReport,
    Message,
    Report,
    Severity,
    Status,
    SubQuestion,
    TermFinding,
    Tier,
    Verdict,
    VerdictKind,
)

__version__ = "0.1.0"
