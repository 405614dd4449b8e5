"""Verifier registry: ids, outcome type, parameter helpers and the ``verify`` entry point."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from faithguard.errors import ConfigError
from faithguard.models import Status

__all__ = [
    "Checker",
    "ParamError",
    "VerifierOutcome",
    "checker",
    "get_int",
    "get_relation",
    "get_str",
    "get_str_list",
    "registered_ids",
    "run_checker",
]


@dataclass(frozen=True)
class VerifierOutcome:
    """What a verifier decided about a response: a status and a short reason."""

    status: Status
    reason: str


Checker = Callable[[Mapping[str, Any], str], VerifierOutcome]

_CHECKERS: dict[str, Checker] = {}


class ParamError(ValueError):
    """A verifier parameter is missing or has the wrong type."""


def checker(verifier_id: str) -> Callable[[Checker], Checker]:
    """Register ``fn`` as the checker for ``verifier_id``."""

    def deco(fn: Checker) -> Checker:
        _CHECKERS[verifier_id] = fn
        return fn

    return deco


def registered_ids() -> tuple[str, ...]:
    """All registered verifier ids, in registration order."""
    return tuple(_CHECKERS)


def run_checker(verifier_id: str, params: Mapping[str, Any], response: str) -> VerifierOutcome:
    """Run one checker; unknown id -> ConfigError, bad params -> UNKNOWN outcome."""
    fn = _CHECKERS.get(verifier_id)
    if fn is None:
        raise ConfigError(f"unknown verifier id {verifier_id!r}; known: {', '.join(sorted(_CHECKERS))}")
    if not isinstance(response, str):
        return VerifierOutcome(Status.UNKNOWN, "response is not text")
    try:
        return fn(params, response)
    except ParamError as exc:
        return VerifierOutcome(Status.UNKNOWN, f"bad parameters: {exc}")


def get_int(params: Mapping[str, Any], name: str, default: int | None = None) -> int:
    """Integer parameter ``name`` (bool rejected)."""
    value = params.get(name, default)
    if isinstance(value, bool) or value is None:
        raise ParamError(f"{name} must be an integer")
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str) and value.strip().isdecimal():  # isdigit() admits "²", which int() rejects
        return int(value.strip())
    raise ParamError(f"{name} must be an integer, got {value!r}")


def get_str(params: Mapping[str, Any], name: str, default: str | None = None) -> str:
    """Non-empty string parameter ``name``."""
    value = params.get(name, default)
    if not isinstance(value, str) or not value:
        raise ParamError(f"{name} must be a non-empty string")
    return value


def get_str_list(params: Mapping[str, Any], name: str) -> list[str]:
    """List-of-strings parameter ``name`` (a single string is accepted as a one-item list)."""
    value = params.get(name)
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list | tuple) or not all(isinstance(v, str) and v for v in value):
        raise ParamError(f"{name} must be a list of non-empty strings")
    return list(value)


_RELATIONS = {"less than", "at least", "exactly", "at most"}


def get_relation(params: Mapping[str, Any], name: str = "relation", allowed: set[str] | None = None) -> str:
    """Relation parameter: 'less than' / 'at least' (IFEval), plus 'exactly' / 'at most' where allowed."""
    value = params.get(name)
    ok = allowed or _RELATIONS
    if not isinstance(value, str) or value not in ok:
        raise ParamError(f"{name} must be one of {sorted(ok)}")
    return value


def compare(count: int, relation: str, target: int) -> bool:
    """``count`` <relation> ``target``."""
    if relation == "less than":
        return count < target
    if relation == "at least":
        return count >= target
    if relation == "at most":
        return count <= target
    return count == target
