"""Loader and matcher for the hand-written golden decompositions (shared by tests and the eval)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from faithguard.detector import CallContext
from faithguard.models import Constraint, Decomposition, Message

GOLDEN_PATH = Path(__file__).with_name("golden_queries.json")


def load_golden() -> list[dict[str, Any]]:
    """The golden cases, in file order."""
    data: list[dict[str, Any]] = json.loads(GOLDEN_PATH.read_text(encoding="utf-8"))
    return data


def context_for(case: dict[str, Any]) -> CallContext:
    """A CallContext for one case (history given as earlier user turns)."""
    history = []
    for turn in case.get("history", []):
        history += [Message(role="user", content=turn), Message(role="assistant", content="(answer)")]
    return CallContext(query=case["query"], history=history)


def matches(expected: list[Any], c: Constraint) -> bool:
    """Whether constraint ``c`` is the expected [category, text, negated?, subquestion?]."""
    category, text = expected[0], expected[1]
    negated = expected[2] if len(expected) > 2 else False
    sub = expected[3] if len(expected) > 3 else None
    if str(c.category) != category or c.negated != negated:
        return False
    if sub is not None and c.subquestion != sub:
        return False
    a, b = text.lower(), c.text.lower()
    return a in b or b in a


def missing(case: dict[str, Any], d: Decomposition) -> list[list[Any]]:
    """Expected constraints that the decomposition lacks."""
    return [e for e in case["expect"] if not any(matches(e, c) for c in d.constraints)]
