"""Run the engine's output stage the way the guard does, on a directly built CallContext."""

from __future__ import annotations

from faithguard.detector import CallContext
from faithguard.engine.decompose import OfflineDecomposer
from faithguard.engine.verdicts import ConstraintsDetector, MisinterpretationDetector, OmissionDetector
from faithguard.models import Message, Verdict


def judge(
    query: str, response: str, history: list[str] | None = None, documents: list[str] | None = None
) -> tuple[CallContext, list[Verdict]]:
    """Decompose, apply the constraints detector's updates, then run the verdict detectors."""
    msgs = [Message(role="user", content=h) for h in history or []]
    ctx = CallContext(query=query, history=msgs, documents=documents or [])
    ctx.decomposition = OfflineDecomposer().decompose(ctx)
    ctx.constraints = [c.model_copy() for c in ctx.decomposition.constraints]
    ctx.response = response
    result = ConstraintsDetector().run(ctx)
    for c in ctx.constraints:
        if c.id in result.updates:
            c.status, c.reason = result.updates[c.id]
    verdicts: list[Verdict] = []
    for det in (MisinterpretationDetector(), OmissionDetector()):
        verdicts += det.run(ctx).verdicts
    return ctx, verdicts


def status_of(ctx: CallContext, text: str) -> str:
    """Status of the first constraint whose text contains ``text``."""
    for c in ctx.constraints:
        if text.lower() in c.text.lower():
            return str(c.status)
    raise KeyError(text)
