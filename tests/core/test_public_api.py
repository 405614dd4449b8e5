from __future__ import annotations

import types

import faithguard


def test_all_is_sorted_and_complete() -> None:
    # submodules are importable but not part of the flat surface
    public = {
        n for n in dir(faithguard) if not n.startswith("_") and not isinstance(getattr(faithguard, n), types.ModuleType)
    } - {"annotations"}
    assert faithguard.__all__ == sorted(faithguard.__all__)
    assert set(faithguard.__all__) == public | {"__version__"}


def test_pinned_surface() -> None:
    assert faithguard.__all__ == [
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


def test_exception_tree() -> None:
    for name in ("ConfigError", "InputError", "PluginError", "DetectorError", "JudgeError", "HallucinationBlocked"):
        assert issubclass(getattr(faithguard, name), faithguard.FaithGuardError)
    assert issubclass(faithguard.InputTooLarge, faithguard.InputError)
    assert issubclass(faithguard.JudgeUnavailable, faithguard.JudgeError)
    assert issubclass(faithguard.JudgeOutputError, faithguard.JudgeError)
