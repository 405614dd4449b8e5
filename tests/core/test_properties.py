"""Arbitrary text from the outside world never crashes the default guard."""

from __future__ import annotations

from functools import cache

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from faithguard import Guard, InputError, Report


@cache
def default_guard() -> Guard:
    # crashes are what these tests look for: a generous budget keeps a loaded machine from reading as one
    return Guard(judge=None, detector_timeout=60.0)


texts = st.text(st.characters(codec="utf-8"), max_size=300)
docs = st.lists(st.text(max_size=200), max_size=3)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(texts, texts, docs)
def test_check_never_crashes(query: str, response: str, documents: list[str]) -> None:
    try:
        report = default_guard().check(query, response, documents=documents)
    except InputError:
        assert not query.strip()
        return
    assert isinstance(report, Report)
    assert report.constraint_score is None or 0.0 <= report.constraint_score <= 10.0
    crashes = [e for e in report.errors if e.error_type not in ("timeout", "stuck")]
    assert crashes == [], crashes  # no detector may crash on odd text either


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(texts, docs)
def test_inspect_never_crashes(query: str, documents: list[str]) -> None:
    try:
        pre = default_guard().inspect(query, documents=documents)
    except InputError:
        assert not query.strip()
        return
    crashes = [e for e in pre.errors if e.error_type not in ("timeout", "stuck")]
    assert crashes == [], crashes
