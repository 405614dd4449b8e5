"""faithguard: guard LLM calls against intent hallucination."""

from __future__ import annotations

__version__ = "0.1.0"

from faithguard.detector import CallContext, Decomposer, Detector, Judge, JudgeUse, KnowledgeSource, Warmable
from faithguard.errors import (
    BudgetSpent,
    ConfigError,
    DetectorError,
    FaithGuardError,
    HallucinationBlocked,
    InputError,
    InputTooLarge,
    JudgeError,
    JudgeOutputError,
    JudgeUnavailable,
    PluginError,
    Skipped,
)
from faithguard.guard import Guard
from faithguard.hookspecs import hookimpl
from faithguard.lifecycle import Decision, GuardedCall
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
from faithguard.runner import checkpoint
from faithguard.wrapping import AnnotatedText

__all__ = [
    "Action",
    "AnnotatedText",
    "BudgetSpent",
    "CallContext",
    "Category",
    "ConfigError",
    "Constraint",
    "Decision",
    "Decomposer",
    "Decomposition",
    "Detector",
    "DetectorError",
    "DetectorFailure",
    "DetectorResult",
    "FaithGuardError",
    "Guard",
    "GuardedCall",
    "HallucinationBlocked",
    "InputError",
    "InputTooLarge",
    "InspectReport",
    "Judge",
    "JudgeError",
    "JudgeOutputError",
    "JudgeUnavailable",
    "JudgeUse",
    "KnowledgeSource",
    "Message",
    "PluginError",
    "Policy",
    "Report",
    "Rule",
    "Severity",
    "Skipped",
    "Status",
    "SubQuestion",
    "TermFinding",
    "Tier",
    "Verdict",
    "VerdictKind",
    "Warmable",
    "__version__",
    "checkpoint",
    "hookimpl",
]
