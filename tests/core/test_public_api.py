from __future__ import annotations

import faithguard


def test_all_is_sorted_and_complete() -> None:
    public = {n for n in dir(faithguard) if not n.startswith("_")} - {
        # submodules are importable but not part of the flat surface
        "calls",
        "detector",
        "errors",
        "guard",
        "hookspecs",
        "models",
        "plugins",
        "policy",
        "runner",
        "scoring",
        "telemetry",
        "annotations",
        "wrapping",
        "cache",
        "nlp",
        "testing",
        "render",
        "cli",
        "engine",
        "inputs",
        "terms",
        "judge",
        "verifiers",
        "evaluate",
        "integrations",
    }
    assert faithguard.__all__ == sorted(faithguard.__all__)
    assert set(faithguard.__all__) == public | {"__version__"}


def test_pinned_surface() -> None:
    assert faithguard.__all__ == [
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


def test_exception_tree() -> None:
    for name in ("ConfigError", "InputError", "PluginError", "DetectorError", "JudgeError", "HallucinationBlocked"):
        assert issubclass(getattr(faithguard, name), faithguard.FaithGuardError)
    assert issubclass(faithguard.JudgeUnavailable, faithguard.JudgeError)
    assert issubclass(faithguard.JudgeOutputError, faithguard.JudgeError)
