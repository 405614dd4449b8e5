"""Per-unit constraints: one mechanism for "each line has five words", "start paragraph 2 with 'Roots'".

A per-unit constraint names a *unit* of the response (line, stanza, paragraph, sentence, bullet, word),
a *scope* ("each" unit, or the unit at a 1-based ``index``; -1 is the last) and a *relation*:

- ``count``: the unit holds ``comparison`` ``n`` sub-units ``of`` (word, line, sentence, letter);
- ``starts_with`` / ``ends_with`` / ``contains``: the unit's first / last / any ``kind`` (word, letter,
  phrase) equals ``value``.

Checking is definitional; the request side is found by the declarative specs in ``data/per_unit.json``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from faithguard.models import Status
from faithguard.verifiers.registry import (
    CheckerTable,
    ParamError,
    VerifierOutcome,
    compare,
    get_int,
    get_relation,
    get_str,
)
from faithguard.verifiers.text import lines_of, split_sentences, stanzas_of

__all__ = ["CHECKS", "PER_UNIT", "UNITS", "segments"]

#: The verifier id of every per-unit constraint.
PER_UNIT = "creative:per_unit"
#: Units a per-unit constraint may range over.
UNITS = ("line", "stanza", "paragraph", "sentence", "bullet", "word")
_MEASURES = ("word", "line", "sentence", "letter", "stanza", "paragraph", "bullet")
_RELATIONS = ("count", "starts_with", "ends_with", "contains")
_KINDS = ("word", "letter", "phrase")

CHECKS = CheckerTable()

_WORD = re.compile(r"[^\W_]+(?:['’-][^\W_]+)*")
_BULLET = re.compile(r"^\s*(?:[-*•+]|\d+[.)])\s+(?P<body>.+)$")


def _words(text: str) -> list[str]:
    return _WORD.findall(text)


def segments(unit: str, text: str) -> list[str]:
    """The response cut into ``unit``s, in order (stanzas and paragraphs are blank-line blocks)."""
    if unit == "line":
        return lines_of(text)
    if unit in ("stanza", "paragraph"):
        return ["\n".join(block) for block in stanzas_of(text)]
    if unit == "sentence":
        return [s for s in (s.strip() for s in split_sentences(text)) if s]
    if unit == "bullet":
        return [m.group("body").strip() for ln in text.splitlines() if (m := _BULLET.match(ln))]
    if unit == "word":
        return _words(text)
    raise ParamError(f"unit must be one of {UNITS}")


def _measure(of: str, segment: str) -> int:
    if of == "letter":
        return sum(ch.isalpha() for ch in segment)
    if of == "word":
        return len(_words(segment))
    return len(segments(of, segment))


def _matches(relation: str, kind: str, value: str, segment: str) -> bool:
    words = [w.lower() for w in _words(segment)]
    v = value.lower()
    if kind == "letter":
        if relation == "contains":
            return v in segment.lower()
        if not words:
            return False
        return words[0].startswith(v) if relation == "starts_with" else words[-1].endswith(v)
    target = [w.lower() for w in _words(value)]
    if not target:
        raise ParamError("value has no word")
    n = len(target)
    if relation == "starts_with":
        return words[:n] == target
    if relation == "ends_with":
        return len(words) >= n and words[-n:] == target
    return any(words[i : i + n] == target for i in range(len(words) - n + 1))


def _choice(params: Mapping[str, Any], name: str, allowed: tuple[str, ...], default: str | None = None) -> str:
    value = params.get(name, default)
    if value not in allowed:
        raise ParamError(f"{name} must be one of {allowed}")
    return str(value)


@CHECKS.add(PER_UNIT)
def check_per_unit(params: Mapping[str, Any], response: str) -> VerifierOutcome:
    """Check one per-unit constraint (see the module docstring for the parameters)."""
    unit = _choice(params, "unit", UNITS)
    relation = _choice(params, "relation", _RELATIONS)
    scope = params.get("scope", "index" if "index" in params else "each")
    segs = segments(unit, response)
    if not segs:
        return VerifierOutcome(Status.VIOLATED, f"the response has no {unit}s")
    if scope == "each":
        chosen = list(enumerate(segs, start=1))
        where = f"every {unit}"
    else:
        index = get_int(params, "index")
        if index == 0 or abs(index) > len(segs):
            return VerifierOutcome(Status.VIOLATED, f"there is no {unit} {index} (found {len(segs)})")
        pos = index if index > 0 else len(segs) + 1 + index
        chosen = [(pos, segs[pos - 1])]
        where = f"{unit} {pos}"
    if relation == "count":
        of = _choice(params, "of", _MEASURES)
        comparison = get_relation(params, "comparison") if "comparison" in params else "exactly"
        n = get_int(params, "n")
        bad = [(i, _measure(of, s)) for i, s in chosen if not compare(_measure(of, s), comparison, n)]
        want = f"{comparison} {n} {of}s"
        if not bad:
            return VerifierOutcome(Status.SATISFIED, f"{where} has {want}")
        shown = ", ".join(f"{unit} {i}: {k}" for i, k in bad[:3])
        return VerifierOutcome(Status.VIOLATED, f"{len(bad)} of {len(chosen)} {unit}s break '{want}' ({shown})")
    kind = _choice(params, "kind", _KINDS, "word")
    value = get_str(params, "value").strip()
    if kind == "letter" and len(value) != 1:
        raise ParamError("a letter value is one character")
    failed = [i for i, s in chosen if not _matches(relation, kind, value, s)]
    verb = {"starts_with": "start with", "ends_with": "end with", "contains": "contain"}[relation]
    if not failed:
        return VerifierOutcome(Status.SATISFIED, f"{where}: {verb} the {kind} {value!r}")
    return VerifierOutcome(Status.VIOLATED, f"{unit}s {failed[:5]} do not {verb} the {kind} {value!r}")
