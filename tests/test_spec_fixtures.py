"""One runner for every declarative spec file: each spec meets its own positive and negative fixtures.

The files and the function that reads each one's fixtures are listed in :data:`faithguard.specfiles.SPEC_FILES`
(input syntax, the engine's content, scope and language readings, the verifiers' detection specs). It lives
outside ``tests/core`` because the checkers parse with the spaCy model and read WordNet.
"""

from __future__ import annotations

from typing import Any

import pytest

from faithguard.specfiles import SPEC_FILES, fixture_check, read_specs

#: Every fixture of every shipped spec file: (path, spec id, fixture, positive, checker).
_FIXTURES = [
    (path, str(spec.get("id") or spec.get("name")), fixture, polarity == "positive", checker)
    for package, path, checker in SPEC_FILES
    for spec in read_specs(package, path)
    for polarity in ("positive", "negative")
    for fixture in spec[polarity]
]


@pytest.mark.parametrize(
    ("path", "spec_id", "fixture", "positive", "checker"),
    _FIXTURES,
    ids=[f"{f[0].rsplit('/', 1)[-1]}:{f[1]}:{'+' if f[3] else '-'}{i}" for i, f in enumerate(_FIXTURES)],
)
def test_every_spec_meets_its_own_fixtures(path: str, spec_id: str, fixture: Any, positive: bool, checker: str) -> None:
    """One runner for all spec files: each file names the function that reads its fixtures."""
    assert fixture_check(checker)(path, spec_id, fixture, positive) is None


@pytest.mark.parametrize("checker", sorted({c for _, _, c in SPEC_FILES}))
def test_a_checker_reports_a_fixture_its_spec_does_not_meet(checker: str) -> None:
    # a positive fixture of one spec run under an id no spec has: never met, so always reported
    package, path = next((p, f) for p, f, c in SPEC_FILES if c == checker)
    fixture = read_specs(package, path)[0]["positive"][0]
    try:
        problem = fixture_check(checker)(path, "no-such-spec", fixture, True)
    except StopIteration:  # a checker that looks the spec up by id
        problem = "unknown spec"
    assert problem
