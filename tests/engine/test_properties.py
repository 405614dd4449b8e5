"""Arbitrary text never crashes decomposition or satisfaction."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from faithguard.detector import CallContext
from faithguard.engine.decompose import OfflineDecomposer
from faithguard.engine.verdicts import ConstraintsDetector, MisinterpretationDetector, OmissionDetector
from faithguard.models import Message, Status

WORDS = st.sampled_from(
    ["List", "three", "not", "in", "Paris", "before", "1999", "1.", "?", "and also", "\n", "- ", "compare", "poem",
     "each", "word", "", "Additionally,", "18th century", "excluding", "Ünïcode", "🙂", "(2)"]
)  # fmt: skip
TEXT = st.one_of(st.text(max_size=200), st.lists(WORDS, max_size=30).map(" ".join))
SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(query=TEXT, previous=st.one_of(st.none(), TEXT))
def test_decompose_never_crashes(query: str, previous: str | None) -> None:
    history = [Message(role="user", content=previous)] if previous is not None else []
    d = OfflineDecomposer().decompose(CallContext(query=query, history=history))
    ids = [c.id for c in d.constraints]
    assert ids == [f"c{i}" for i in range(1, len(ids) + 1)]
    assert all(0.0 <= s.position <= 1.0 for s in d.subquestions)
    assert all(c.subquestion < max(1, len(d.subquestions)) for c in d.constraints)


@SETTINGS
@given(query=TEXT, response=TEXT)
def test_satisfaction_never_crashes(query: str, response: str) -> None:
    ctx = CallContext(query=query, response=response)
    ctx.decomposition = OfflineDecomposer().decompose(ctx)
    ctx.constraints = list(ctx.decomposition.constraints)
    updates = ConstraintsDetector().run(ctx).updates
    assert set(updates) == {c.id for c in ctx.constraints}
    assert all(isinstance(s, Status) for s, _ in updates.values())
    for c in ctx.constraints:
        c.status = updates[c.id][0]
    MisinterpretationDetector().run(ctx)
    OmissionDetector().run(ctx)
