"""One runner for every declarative spec file: each spec meets its own positive and negative fixtures.

The files are :data:`faithguard.specfiles.SPEC_FILES` (input syntax, the engine's content, scope and language
readings, the verifiers' detection specs); each is read by the module that owns it, whose ``fixture_problem``
runs one fixture. It lives outside ``tests/core`` because the checkers parse with the spaCy model.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

import pytest

from faithguard.specfiles import SPEC_FILES, read_specs

#: The module that reads each spec file (its ``fixture_problem(path, spec id, fixture, positive)``).
OWNERS = {
    "specs/syntax.json": "faithguard.inputs.syntax",
    "data/content_patterns.json": "faithguard.engine.content",
    "data/scope_patterns.json": "faithguard.engine.scope",
    "data/language_request.json": "faithguard.engine.language_request",
    "data/ifeval.json": "faithguard.verifiers.spec_loader",
    "data/ifbench.json": "faithguard.verifiers.spec_loader",
    "data/per_unit.json": "faithguard.verifiers.spec_loader",
    "data/keyword_cues.json": "faithguard.verifiers.detect_keyword_cues",
}


def _checker(path: str) -> Callable[[str, str, Any, bool], str | None]:
    check: Callable[[str, str, Any, bool], str | None] = importlib.import_module(OWNERS[path]).fixture_problem
    return check


def test_every_spec_file_has_an_owner() -> None:
    assert {path for _, path in SPEC_FILES} == set(OWNERS)


#: Every fixture of every shipped spec file: (path, spec id, fixture, positive).
_FIXTURES = [
    (path, str(spec["id"]), fixture, polarity == "positive")
    for package, path in SPEC_FILES
    for spec in read_specs(package, path)
    for polarity in ("positive", "negative")
    for fixture in spec[polarity]
]


@pytest.mark.parametrize(
    ("path", "spec_id", "fixture", "positive"),
    _FIXTURES,
    ids=[f"{f[0].rsplit('/', 1)[-1]}:{f[1]}:{'+' if f[3] else '-'}{i}" for i, f in enumerate(_FIXTURES)],
)
def test_every_spec_meets_its_own_fixtures(path: str, spec_id: str, fixture: Any, positive: bool) -> None:
    assert _checker(path)(path, spec_id, fixture, positive) is None


@pytest.mark.parametrize("path", sorted(OWNERS))
def test_a_checker_reports_a_fixture_its_spec_does_not_meet(path: str) -> None:
    # a positive fixture run under an id no spec has is never met, so it must be reported, not raised
    package = next(p for p, f in SPEC_FILES if f == path)
    fixture = read_specs(package, path)[0]["positive"][0]
    assert _checker(path)(path, "no-such-spec", fixture, True)
