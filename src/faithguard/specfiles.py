"""The one reader of declarative syntax specs (spaCy Matcher / DependencyMatcher patterns kept as data).

Every spec file holds a list of specs under ``specs`` (``patterns`` in older files). Each spec names itself (``id`` or
``name``), says where it comes from (``provenance`` or ``why``), carries its pattern(s) (``pattern`` or
``patterns``) and at least one positive and one negative fixture written for it. A file that breaks
this is refused when it is read, so no pattern ships without its fixtures. The modules that use a
file (input checks, the engine's content, scope and language readings) build their typed view and
their matcher from what this returns.
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Callable
from functools import cache
from importlib import resources
from typing import Any

__all__ = ["SPEC_FILES", "FixtureCheck", "fixture_check", "read_specs", "validate_specs"]

#: Runs one fixture of one spec: ``(path, spec id, fixture, positive)`` -> what is wrong, or None when the
#: spec matches a positive fixture (with its expected value) and misses a negative one.
FixtureCheck = Callable[[str, str, Any, bool], "str | None"]

#: Every spec file shipped in the package: (package, path inside it, the "module:function" that runs its
#: fixtures). One parametrised test reads each file and runs every fixture through its checker.
SPEC_FILES: tuple[tuple[str, str, str], ...] = (
    ("faithguard.inputs", "specs/syntax.json", "faithguard.inputs.syntax:fixture_problem"),
    ("faithguard.engine", "data/content_patterns.json", "faithguard.engine.content:fixture_problem"),
    ("faithguard.engine", "data/scope_patterns.json", "faithguard.engine.scope:fixture_problem"),
    ("faithguard.engine", "data/language_request.json", "faithguard.engine.language_request:fixture_problem"),
    ("faithguard.verifiers", "data/ifeval.json", "faithguard.verifiers.spec_loader:fixture_problem"),
    ("faithguard.verifiers", "data/ifbench.json", "faithguard.verifiers.spec_loader:fixture_problem"),
    ("faithguard.verifiers", "data/per_unit.json", "faithguard.verifiers.spec_loader:fixture_problem"),
)


def fixture_check(target: str) -> FixtureCheck:
    """The fixture checker named ``"module:function"`` (imported when asked, so reading stays light)."""
    module, _, name = target.partition(":")
    check: FixtureCheck = getattr(importlib.import_module(module), name)
    return check


def validate_specs(raw: object, where: str) -> tuple[dict[str, Any], ...]:
    """The specs of a parsed spec file, or ``ValueError`` naming the first spec that lacks something."""
    if not isinstance(raw, dict):
        raise ValueError(f"{where}: a spec file is a JSON object")
    items = raw.get("specs", raw.get("patterns"))
    if not isinstance(items, list) or not items:
        raise ValueError(f"{where}: no 'specs' or 'patterns' list")
    for i, item in enumerate(items):
        if not isinstance(item, dict):
            raise ValueError(f"{where}: spec #{i} is not an object")
        ident = item.get("id") or item.get("name")
        missing = [
            what
            for what, ok in (
                ("an id or name", bool(ident)),
                ("a provenance or why", bool(item.get("provenance") or item.get("why"))),
                ("a pattern", bool(item.get("pattern") or item.get("patterns"))),
                ("positive fixtures", bool(item.get("positive"))),
                ("negative fixtures", bool(item.get("negative"))),
            )
            if not ok
        ]
        if missing:
            raise ValueError(f"{where}: spec {ident or i!r} needs " + ", ".join(missing))
    return tuple(items)


@cache
def read_specs(package: str, path: str) -> tuple[dict[str, Any], ...]:
    """The validated specs of ``path`` inside ``package`` (read once per process)."""
    text = resources.files(package).joinpath(path).read_text(encoding="utf-8")
    return validate_specs(json.loads(text), f"{package}:{path}")
