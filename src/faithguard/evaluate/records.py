"""The evaluation input schema and a reader that reports bad rows with their line numbers.

One record is one logged call: ``query`` (or chat ``messages``) and the ``response``, with
optional ``documents`` and optional gold labels. JSONL (one object per line) and CSV (a
header row; list/object cells hold JSON) are read; a row that cannot be read or does not fit
the schema becomes a :class:`BadRow` naming its line, never a silent drop.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from pydantic import AliasChoices, BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from faithguard.models import Message

__all__ = ["BadRow", "EvalRecord", "GoldTerm", "Row", "count_rows", "detect_format", "read_records"]

Format = Literal["jsonl", "csv"]


class GoldTerm(BaseModel):
    """A term of the query with its HypoTermQA label (invented or real)."""

    model_config = ConfigDict(extra="ignore", populate_by_name=True)

    term: str = Field(min_length=1)
    is_hypothetical: bool = Field(
        default=False, validation_alias=AliasChoices("is_hypothetical", "isHypotheticalTerm", "hypothetical")
    )


class EvalRecord(BaseModel):
    """One logged call to evaluate, with optional gold labels."""

    model_config = ConfigDict(extra="allow", populate_by_name=True, str_strip_whitespace=False)

    id: str | None = Field(
        default=None,
        validation_alias=AliasChoices("id", "row_id", "key", "questionId"),
        description="Row id; resume keys on it (the line number when absent).",
    )
    query: str | None = Field(
        default=None,
        validation_alias=AliasChoices("query", "prompt", "question"),
        description="The user's request; optional when messages hold a user turn.",
    )
    response: str = Field(description="The LLM's answer to check.")
    documents: list[str] = Field(default_factory=list, description="Supplied documents.")
    messages: list[Message] | None = Field(default=None, description="Chat messages, OpenAI style.")
    gold_perfect: bool | None = Field(default=None, description="Gold: the response has no intent hallucination.")
    gold_score: float | None = Field(default=None, ge=0.0, le=10.0, description="Gold Constraint Score.")
    gold_verdicts: list[str] | None = Field(
        default=None, description="Gold verdict kinds the response deserves ([] = none)."
    )
    is_hypothetical: bool | None = Field(
        default=None,
        validation_alias=AliasChoices("is_hypothetical", "isHypotheticalQuestion"),
        description="Gold: the query holds an invented term (HypoTermQA).",
    )
    terms: list[GoldTerm] | None = Field(default=None, description="Gold labelled terms of the query.")
    gold_answer_label: Literal["valid", "hallucination", "irrelevant"] | None = Field(
        default=None, description="Gold HypoTermQA answer label."
    )

    @field_validator("documents", mode="before")
    @classmethod
    def _one_document(cls, value: Any) -> Any:
        if value is None:
            return []
        return [value] if isinstance(value, str) else value

    @field_validator("id", mode="before")
    @classmethod
    def _id_text(cls, value: Any) -> Any:
        if isinstance(value, int) and not isinstance(value, bool):
            return str(value)
        return value

    @field_validator("gold_verdicts", mode="before")
    @classmethod
    def _verdict_list(cls, value: Any) -> Any:
        if isinstance(value, str):
            return [v.strip() for v in value.replace(",", ";").split(";") if v.strip()]
        return value

    @model_validator(mode="after")
    def _has_request(self) -> EvalRecord:
        has_query = self.query is not None and self.query.strip() != ""
        has_user = any(m.role == "user" and m.content.strip() for m in self.messages or [])
        if not has_query and not has_user:
            raise ValueError("a record needs a non-empty 'query' or 'messages' with a user turn")
        return self

    @property
    def hypothetical(self) -> bool | None:
        """Gold 'holds an invented term': the explicit flag, else from labelled terms, else None."""
        if self.is_hypothetical is not None:
            return self.is_hypothetical
        if self.terms:
            return any(t.is_hypothetical for t in self.terms)
        return None

    def gold(self) -> dict[str, Any]:
        """The gold labels present on this record (absent ones left out)."""
        out: dict[str, Any] = {}
        for name in ("gold_perfect", "gold_score", "gold_verdicts", "gold_answer_label"):
            value = getattr(self, name)
            if value is not None:
                out[name] = value
        if self.hypothetical is not None:
            out["is_hypothetical"] = self.hypothetical
        if self.terms is not None:
            out["terms"] = [t.model_dump() for t in self.terms]
        return out


@dataclass(frozen=True)
class Row:
    """A valid record with its line number and resume key."""

    line: int
    key: str
    record: EvalRecord


@dataclass(frozen=True)
class BadRow:
    """A row that could not be read: its line, the reason and the start of its text."""

    line: int
    error: str
    raw: str

    def to_json(self) -> dict[str, Any]:
        """The bad_rows.jsonl entry."""
        return {"line": self.line, "error": self.error, "raw": self.raw}


def detect_format(path: Path, fmt: str | None = None) -> Format:
    """``jsonl`` or ``csv``: the explicit choice, else by file extension (default jsonl)."""
    if fmt in ("jsonl", "csv"):
        return fmt  # type: ignore[return-value]
    if fmt not in (None, "auto"):
        raise ValueError(f"unknown format {fmt!r}: use jsonl, csv or auto")
    return "csv" if path.suffix.lower() in (".csv", ".tsv") else "jsonl"


def _explain(exc: ValidationError) -> str:
    parts = []
    for err in exc.errors()[:4]:
        loc = ".".join(str(p) for p in err["loc"]) or "record"
        parts.append(f"{loc}: {err['msg']}")
    return "; ".join(parts)


def _validate(line: int, data: Any, raw: str, seen: set[str]) -> Row | BadRow:
    if not isinstance(data, dict):
        return BadRow(line, f"expected a JSON object, got {type(data).__name__}", raw[:500])
    try:
        record = EvalRecord.model_validate(data)
    except ValidationError as exc:
        return BadRow(line, _explain(exc), raw[:500])
    key = record.id if record.id else f"line:{line}"
    if key in seen:
        return BadRow(line, f"duplicate id {key!r}", raw[:500])
    seen.add(key)
    return Row(line, key, record)


def _jsonl(path: Path) -> Iterator[Row | BadRow]:
    seen: set[str] = set()
    with path.open("rb") as fh:
        for line_no, raw_bytes in enumerate(fh, 1):
            if not raw_bytes.strip():
                continue
            try:
                raw = raw_bytes.decode("utf-8-sig" if line_no == 1 else "utf-8")
            except UnicodeDecodeError as exc:
                yield BadRow(line_no, f"not UTF-8: {exc.reason} at byte {exc.start}", repr(raw_bytes[:200]))
                continue
            try:
                data = json.loads(raw)
            except json.JSONDecodeError as exc:
                yield BadRow(line_no, f"invalid JSON: {exc.msg} (column {exc.colno})", raw[:500])
                continue
            except (RecursionError, ValueError) as exc:  # nested past the parser's depth; an integer past 4,300 digits
                yield BadRow(line_no, f"unreadable JSON: {_unreadable(exc)}", raw[:500])
                continue
            yield _validate(line_no, data, raw, seen)


def _unreadable(exc: Exception) -> str:
    """Why JSON that is well-formed could not be read, in our words (Python's own name no content)."""
    if isinstance(exc, RecursionError):
        return "nested too deeply"
    return "a number too long to convert" if "digits" in str(exc) else type(exc).__name__


_JSON_CELLS = ("documents", "messages", "terms", "gold_verdicts")
_BOOL_CELLS = ("gold_perfect", "is_hypothetical", "isHypotheticalQuestion")


def _cell(name: str, value: str) -> Any:
    text = value.strip()
    if name in _JSON_CELLS and text[:1] in ("[", "{"):
        return json.loads(text)
    if name in _BOOL_CELLS:
        low = text.lower()
        if low in ("true", "1", "yes"):
            return True
        if low in ("false", "0", "no"):
            return False
    return value


def _csv(path: Path) -> Iterator[Row | BadRow]:
    seen: set[str] = set()
    try:
        text = path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as exc:
        yield BadRow(0, f"file is not UTF-8: {exc.reason} at byte {exc.start}", "")
        return
    dialect: type[csv.Dialect] = csv.excel_tab if path.suffix.lower() == ".tsv" else csv.excel
    reader = csv.reader(io.StringIO(text, newline=""), dialect)
    try:
        header = next(reader)
    except StopIteration:
        return
    except csv.Error as exc:
        yield BadRow(1, f"unreadable CSV header: {exc}", "")
        return
    names = [h.strip() for h in header]
    next_line = reader.line_num + 1
    while True:
        start = next_line
        try:
            cells = next(reader)
        except StopIteration:
            return
        except csv.Error as exc:
            next_line = reader.line_num + 1
            yield BadRow(start, f"unreadable CSV row: {exc}", "")
            continue
        next_line = reader.line_num + 1
        if not any(c.strip() for c in cells):
            continue
        raw = ",".join(cells)[:500]
        if len(cells) != len(names):
            yield BadRow(start, f"expected {len(names)} cells, got {len(cells)}", raw)
            continue
        try:
            data = {n: _cell(n, c) for n, c in zip(names, cells, strict=True) if c != ""}
        except json.JSONDecodeError as exc:
            yield BadRow(start, f"invalid JSON in a cell: {exc.msg}", raw)
            continue
        except (RecursionError, ValueError) as exc:
            yield BadRow(start, f"unreadable JSON in a cell: {_unreadable(exc)}", raw)
            continue
        yield _validate(start, data, raw, seen)


def read_records(path: Path, fmt: str | None = None) -> Iterator[Row | BadRow]:
    """Rows and bad rows of ``path`` in file order (blank lines are not rows)."""
    return _csv(path) if detect_format(path, fmt) == "csv" else _jsonl(path)


def count_rows(path: Path, fmt: str | None = None) -> int:
    """How many rows ``path`` holds (for the progress total): non-blank JSONL lines or CSV records."""
    if detect_format(path, fmt) == "jsonl":
        with path.open("rb") as fh:
            return sum(1 for raw in fh if raw.strip())
    return sum(1 for _ in read_records(path, "csv"))
