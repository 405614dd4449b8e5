"""The one reader of declarative specs kept as data (spaCy Matcher / DependencyMatcher patterns, detection regexes).

Every spec file holds a list of specs under ``specs``. Each spec names itself (``id``), says where it comes
from (``why``), carries its pattern(s) (``pattern`` or ``patterns``) and at least one positive and one negative
fixture written for it. A file that breaks this is refused when it is read, so no pattern ships without its
fixtures. The modules that use a file build their typed view and their matcher from what this
returns, and each runs its own fixtures for the one runner in ``tests/test_spec_fixtures.py``.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

__all__ = ["SPEC_FILES", "read_spec_file", "read_specs", "validate_specs"]

#: Every spec file shipped in the package: (package, path inside it). ``tests/test_spec_fixtures.py`` reads each
#: one and runs every fixture through the function of the module that owns the file.
SPEC_FILES: tuple[tuple[str, str], ...] = (
    ("faithguard.inputs", "specs/syntax.json"),
    ("faithguard.engine", "data/content_patterns.json"),
    ("faithguard.engine", "data/scope_patterns.json"),
    ("faithguard.engine", "data/language_request.json"),
    ("faithguard.verifiers", "data/ifeval.json"),
    ("faithguard.verifiers", "data/ifbench.json"),
    ("faithguard.verifiers", "data/per_unit.json"),
    ("faithguard.verifiers", "data/keyword_cues.json"),
)


def validate_specs(raw: object, where: str) -> tuple[dict[str, Any], ...]:
    """The specs of a parsed spec file, or ``ValueError`` naming the first spec that lacks something."""
    if not isinstance(raw, dict):
        raise ValueError(f"{where}: a spec file is a JSON object")
    items = raw.get("specs")
    if not isinstance(items, list) or not items:
        raise ValueError(f"{where}: no 'specs' list")
    for i, item in enumerate(items):
        if not isinstance(item, dict):
            raise ValueError(f"{where}: spec #{i} is not an object")
        ident = item.get("id")
        missing = [
            what
            for what, ok in (
                ("an id", bool(ident)),
                ("a why (its provenance)", bool(item.get("why"))),
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
def read_spec_file(package: str, path: str) -> tuple[dict[str, Any], tuple[dict[str, Any], ...]]:
    """The parsed file ``path`` inside ``package`` (for its other keys, e.g. regex macros) and its validated
    specs, read once per process."""
    text = resources.files(package).joinpath(path).read_text(encoding="utf-8")
    raw = json.loads(text)
    return raw, validate_specs(raw, f"{package}:{path}")


def read_specs(package: str, path: str) -> tuple[dict[str, Any], ...]:
    """The validated specs of ``path`` inside ``package`` (read once per process)."""
    return read_spec_file(package, path)[1]
