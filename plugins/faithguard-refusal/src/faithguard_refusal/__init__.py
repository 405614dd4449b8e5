"""Example faithguard plugin: a detector for needless refusals."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from faithguard import CallContext, DetectorResult, Severity, Verdict, hookimpl

__all__ = ["RefusalDetector", "register_detectors"]

_REFUSAL = re.compile(
    r"^\W*(?:i(?:'m| am)? (?:sorry,? (?:but )?)?(?:i )?(?:can(?:'|no)?t|cannot|won't|am unable to|am not able to)"
    r" (?:help|assist|provide|do|answer|comply|write)|as an ai\b[^.]{0,80}\b(?:can(?:'|no)?t|cannot|unable))",
    re.IGNORECASE,
)


@dataclass
class RefusalDetector:
    """Flags a response that opens by refusing, unless the input checks gave a reason to."""

    name: str = "refusal"
    stage: str = "output"
    order: int = 310
    timeout: float | None = None

    def run(self, ctx: CallContext) -> DetectorResult:
        """A ``refusal`` verdict when the response's first sentence declines the task."""
        response = (ctx.response or "").strip()
        if not response or not _REFUSAL.search(response[:300]):
            return DetectorResult()
        if ctx.findings.get("missing_content") or ctx.findings.get("unknown_terms"):
            return DetectorResult(findings={"refusal": "justified"})
        verdict = Verdict(
            kind="refusal",
            severity=Severity.WARNING,
            explanation="the response declines the request although the input checks found no reason to",
            detector=self.name,
        )
        return DetectorResult(verdicts=[verdict], findings={"refusal": "unjustified"})


@hookimpl
def register_detectors(register: Any) -> None:
    """Register the refusal detector."""
    register(RefusalDetector())
