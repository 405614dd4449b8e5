"""The verifier registry: one place for built-in and third-party verifiers, fed by ``register_verifiers``.

A verifier is an id, an exact ``check(params, response)`` and, optionally, a ``detect(text)`` that finds
its constraint in a request. Built-ins are registered by :mod:`faithguard.verifiers.plugin` through the
same hook as any entry-point plugin; the registry only ever holds what a hook registered.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from faithguard.errors import ConfigError
from faithguard.models import Status
from faithguard.verifiers.spec import VerifiableSpec

__all__ = [
    "RELATION_SYMBOLS",
    "Checker",
    "CheckerTable",
    "Count",
    "ParamError",
    "SpecFinder",
    "Verifier",
    "VerifierOutcome",
    "VerifierRegistry",
    "compare",
    "counted",
    "get_int",
    "get_relation",
    "get_str",
    "get_str_list",
]


@dataclass(frozen=True)
class Count:
    """What a count verifier measured: ``found`` units, checked against ``relation`` ``want``.

    ``relation`` is one of :data:`RELATION_SYMBOLS` (IFEval's words, plus "at most" and "exactly").
    """

    found: int
    relation: str
    want: int


@dataclass(frozen=True)
class VerifierOutcome:
    """What a verifier decided about a response: a status, a short reason and, for counts, the measure."""

    status: Status
    reason: str
    count: Count | None = None


Checker = Callable[[Mapping[str, Any], str], VerifierOutcome]
#: Finds constraints in a request; may return specs of several ids (only registered ids are kept).
SpecFinder = Callable[[str], Sequence[VerifiableSpec]]


@dataclass(frozen=True)
class Verifier:
    """One verifiable constraint type: its id, its exact check and (optionally) how to find it in a request."""

    id: str
    check: Checker
    detect: SpecFinder | None = None
    description: str = ""


class ParamError(ValueError):
    """A verifier parameter is missing or has the wrong type."""


class CheckerTable:
    """A module's checkers, gathered by decorator so that its plugin can register them (no global state)."""

    def __init__(self) -> None:
        self._items: dict[str, Checker] = {}

    def add(self, verifier_id: str) -> Callable[[Checker], Checker]:
        """Decorator: ``fn`` checks ``verifier_id``."""

        def deco(fn: Checker) -> Checker:
            if verifier_id in self._items:
                raise ValueError(f"checker {verifier_id!r} defined twice")
            self._items[verifier_id] = fn
            return fn

        return deco

    def ids(self) -> tuple[str, ...]:
        """The ids in definition order."""
        return tuple(self._items)

    def items(self) -> Iterator[tuple[str, Checker]]:
        """``(id, checker)`` pairs in definition order."""
        return iter(self._items.items())


class VerifierRegistry:
    """Registered verifiers by id; detection runs each distinct finder once and keeps registered ids."""

    _serials = itertools.count(1)

    def __init__(self, verifiers: Iterable[Verifier] = ()) -> None:
        #: Unique per registry object in this process (callers key caches of detection results by it).
        self.serial = next(VerifierRegistry._serials)
        self._by_id: dict[str, Verifier] = {}
        for v in verifiers:
            self.add(v)

    def add(self, verifier: Verifier) -> None:
        """Register ``verifier``; a second verifier with the same id is a :class:`ConfigError`."""
        if not isinstance(verifier, Verifier):
            raise ConfigError(f"not a Verifier: {type(verifier).__name__}")
        if not verifier.id or verifier.id in self._by_id:
            raise ConfigError(f"verifier id {verifier.id!r} is empty or already registered")
        self._by_id[verifier.id] = verifier

    def ids(self) -> tuple[str, ...]:
        """Registered ids, in registration order."""
        return tuple(self._by_id)

    def __contains__(self, verifier_id: object) -> bool:
        return verifier_id in self._by_id

    def __len__(self) -> int:
        return len(self._by_id)

    def detect(self, text: str) -> list[VerifiableSpec]:
        """Specs found in ``text`` by every registered finder, deduplicated, for registered ids only."""
        finders: list[SpecFinder] = []
        for v in self._by_id.values():
            if v.detect is not None and all(v.detect is not f for f in finders):
                finders.append(v.detect)
        out: list[VerifiableSpec] = []
        seen: set[tuple[str, str, bool]] = set()
        for finder in finders:
            for spec in finder(text):
                key = (spec.verifier, repr(sorted(spec.params.items())), spec.negated)
                if spec.verifier in self._by_id and key not in seen:
                    seen.add(key)
                    out.append(spec)
        return out

    def verify(self, verifier_id: str, params: Mapping[str, Any], response: str) -> VerifierOutcome:
        """Run one checker; unknown id -> ConfigError, bad params or non-text -> UNKNOWN outcome."""
        v = self._by_id.get(verifier_id)
        if v is None:
            raise ConfigError(f"unknown verifier id {verifier_id!r} ({len(self._by_id)} registered)")
        if not isinstance(response, str):
            return VerifierOutcome(Status.UNKNOWN, "response is not text")
        try:
            return v.check(params or {}, response)
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


#: The relation words verifiers accept, as comparison symbols: the one table of relations (the parameter check
#: reads its keys; the engine reads a count's bound through its symbols).
RELATION_SYMBOLS = {"less than": "<", "at least": ">=", "at most": "<=", "exactly": "=="}

_RELATIONS = frozenset(RELATION_SYMBOLS)


def counted(found: int, relation: str, want: int, unit: str) -> VerifierOutcome:
    """A count verifier's outcome with its measure: "12 words (need at least 10)" and the :class:`Count` the
    engine reads as a bound when the count applies to a part of the answer."""
    reason = f"{found} {unit} (need {relation} {want})"
    status = Status.SATISFIED if compare(found, relation, want) else Status.VIOLATED
    return VerifierOutcome(status, reason, Count(found, relation, want))


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
