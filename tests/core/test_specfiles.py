"""The one spec reader: every shipped spec file passes it, and a spec without its fixtures is refused."""

from __future__ import annotations

import contextlib
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from faithguard.specfiles import SPEC_FILES, read_specs, validate_specs


def _spec(**overrides: Any) -> dict[str, Any]:
    spec: dict[str, Any] = {
        "id": "demo",
        "why": "written for this test",
        "pattern": [{"RIGHT_ID": "anchor", "RIGHT_ATTRS": {"LEMMA": "read"}}],
        "positive": ["Read this."],
        "negative": ["A read."],
    }
    spec.update(overrides)
    return spec


@pytest.mark.parametrize(("package", "path"), SPEC_FILES, ids=[p for _, p in SPEC_FILES])
def test_every_shipped_spec_file_has_fixtures_and_provenance(package: str, path: str) -> None:
    assert read_specs(package, path)


def test_a_complete_spec_is_read() -> None:
    assert validate_specs({"specs": [_spec()]}, "t") == (_spec(),)
    # the older spellings are refused: one schema for every file
    with pytest.raises(ValueError):
        validate_specs({"patterns": [_spec()]}, "t")
    with pytest.raises(ValueError):
        validate_specs({"specs": [_spec(id=None, name="by-name")]}, "t")


@pytest.mark.parametrize(
    ("field", "message"),
    [
        ("negative", "negative fixtures"),
        ("positive", "positive fixtures"),
        ("why", "a why"),
        ("pattern", "a pattern"),
        ("id", "an id"),
    ],
)
def test_a_spec_missing_a_part_is_refused(field: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        validate_specs({"specs": [_spec(**{field: []})]}, "t")


@given(
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.text(), lambda c: st.lists(c) | st.dictionaries(st.text(), c)
    )
)
def test_any_json_value_is_read_or_refused_with_value_error(raw: object) -> None:
    with contextlib.suppress(ValueError):
        validate_specs(raw, "t")
