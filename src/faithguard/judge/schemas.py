"""The judge's structured outputs (pydantic) and their strict JSON Schemas."""

from __future__ import annotations

import copy
import json
import re
from functools import cache
from typing import Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, field_validator

__all__ = [
    "ConstraintOut",
    "DecomposeOut",
    "MissingOut",
    "RolesOut",
    "SatisfyItem",
    "SatisfyOut",
    "SubQuestionOut",
    "TermItem",
    "TermsOut",
    "parse_structured",
    "strict_schema",
]

CategoryName = Literal["location", "time", "subject", "action", "qualifier", "quantity", "other"]
Acceptance = Literal["UNREAL", "MENTIONED", "UNKNOWN", "ABSENT"]
Meaning = Literal["consistent", "inconsistent", "not_checked"]

M = TypeVar("M", bound=BaseModel)


class _Out(BaseModel):
    model_config = ConfigDict(extra="ignore")


class MissingOut(_Out):
    """Referenced content the request needs but does not include."""

    reference: str
    expected: int = Field(ge=0)
    found: int = Field(ge=0)
    explanation: str


class RolesOut(_Out):
    """Semantic roles of the request."""

    subject: str
    action: str
    context: str


class SubQuestionOut(_Out):
    """One part of a multi-part request."""

    text: str


_CATEGORIES = ("location", "time", "subject", "action", "qualifier", "quantity", "other")


class ConstraintOut(_Out):
    """One intent constraint as the judge states it."""

    text: str = Field(min_length=1)
    category: CategoryName
    negated: bool
    subquestion: int = Field(ge=0)

    @field_validator("category", mode="before")
    @classmethod
    def _lenient_category(cls, value: Any) -> Any:
        """Accept case and plural variants ("Qualifiers"); anything else unknown is "other"."""
        if not isinstance(value, str):
            return value
        word = value.strip().lower()
        for name in _CATEGORIES:
            if word in (name, name + "s", name + "es", name[:-1] + "ies"):
                return name
        return "other"


class DecomposeOut(_Out):
    """Missing-content check, roles, sub-questions and constraints of one request."""

    missing_content: list[MissingOut]
    roles: RolesOut
    task: str
    subquestions: list[SubQuestionOut]
    constraints: list[ConstraintOut]
    injection_suspected: bool


class SatisfyItem(_Out):
    """Binary satisfaction of one constraint."""

    id: str
    satisfied: bool
    reason: str


class SatisfyOut(_Out):
    """Satisfaction of every listed constraint."""

    results: list[SatisfyItem]
    injection_suspected: bool


class YesNoOut(_Out):
    """Answers to numbered yes/no questions, in order: "yes", "no" or "unsure"."""

    answers: list[Literal["yes", "no", "unsure"]]

    @field_validator("answers", mode="before")
    @classmethod
    def _lower(cls, value: Any) -> Any:
        """Accept any letter case and surrounding blanks."""
        return [v.strip().lower() if isinstance(v, str) else v for v in value] if isinstance(value, list) else value


class TermItem(_Out):
    """How a response treats one term."""

    term: str
    acceptance: Acceptance
    meaning: Meaning
    reason: str

    @field_validator("acceptance", mode="before")
    @classmethod
    def _upper(cls, value: Any) -> Any:
        """Accept any letter case."""
        return value.strip().upper() if isinstance(value, str) else value


class TermsOut(_Out):
    """Acceptance (and meaning) labels for the terms of one response."""

    terms: list[TermItem]
    injection_suspected: bool


def _strictify(node: Any) -> Any:
    if isinstance(node, dict):
        node = {
            k: ({name: _strictify(sub) for name, sub in v.items()} if k in ("properties", "$defs") else _strictify(v))
            for k, v in node.items()
            if k not in ("title", "default", "description")
        }
        if node.get("type") == "object" and "properties" in node:
            node["required"] = list(node["properties"])
            node["additionalProperties"] = False
        # strict mode has no numeric bounds or string lengths: keep the schema portable
        for key in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "minLength", "maxLength"):
            node.pop(key, None)
        return node
    if isinstance(node, list):
        return [_strictify(v) for v in node]
    return node


@cache
def _schema_json(model: type[BaseModel]) -> str:
    return json.dumps(_strictify(model.model_json_schema()))


def strict_schema(model: type[BaseModel]) -> dict[str, Any]:
    """The model's JSON Schema in the strict subset: all fields required, no extra keys."""
    return copy.deepcopy(json.loads(_schema_json(model)))


_FENCE = re.compile(r"^\s*```(?:json|JSON)?\s*\n?(.*?)\n?```\s*$", re.DOTALL)


def parse_structured(content: str, model: type[M]) -> M:
    """Parse a judge reply into ``model``; tolerates code fences and <think> blocks.

    Raises ``ValueError`` (json) or ``pydantic.ValidationError`` on bad output.
    """
    # Reasoning models think first: keep what follows the last closing tag (linear, no regex scan).
    text = content.rsplit("</think>", 1)[-1].strip()
    fenced = _FENCE.match(text)
    if fenced:
        text = fenced.group(1).strip()
    if not text.startswith("{"):
        start, end = text.find("{"), text.rfind("}")
        if start != -1 and end > start:
            text = text[start : end + 1]
    return model.model_validate(json.loads(text))
