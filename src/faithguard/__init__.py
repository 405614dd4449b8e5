"""faithguard: guard LLM calls against intent hallucination."""

from __future__ import annotations

__version__ = "0.1.0"

from faithguard.detector import CallContext, Decomposer, Detector, KnowledgeSource
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
from faithguard.guard import Guard
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
from faithguard.policy import Action, Policy, Rule
from faithguard.wrapping import AnnotatedText

__all__ = [
    "Action",
    "AnnotatedText",
    "CallContext",
    "Category",
    "ConfigError",
    "Constraint",
    "Decomposer",
    "Decomposition",
    "Detector",
    "DetectorError",
    "DetectorFailure",
    "DetectorResult",
    "FaithGuardError",
    "Guard",
    "HallucinationBlocked",
    "InputError",
    "InspectReport",
    "JudgeError",
    "JudgeOutputError",
    "JudgeUnavailable",
    "KnowledgeSource",
    "Message",
    "PluginError",
    "Policy",
    "Report",
    "Rule",
    "Severity",
    "Status",
    "SubQuestion",
    "TermFinding",
    "Tier",
    "Verdict",
    "VerdictKind",
    "__version__",
    "hookimpl",
]
