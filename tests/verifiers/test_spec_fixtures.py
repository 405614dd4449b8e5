"""Every declarative detection spec carries its own fixtures; one parametrised test runs them all."""

from __future__ import annotations

import pytest

from faithguard.verifiers.spec_loader import DetectionSpec, load_specs, matches

_FILES = ("per_unit", "ifbench", "ifeval")
_SPECS = [spec for name in _FILES for spec in load_specs(name)]


@pytest.mark.parametrize("spec", _SPECS, ids=lambda s: s.id)
def test_spec_positive_fixtures_match_with_their_params(spec: DetectionSpec) -> None:
    assert spec.why and spec.positive and spec.negative
    for text, want in spec.positive:
        got = [p for _, p in matches(spec, text)]
        assert want in got, (text, got)


@pytest.mark.parametrize("spec", _SPECS, ids=lambda s: s.id)
def test_spec_negative_fixtures_do_not_match(spec: DetectionSpec) -> None:
    for text in spec.negative:
        assert [p for _, p in matches(spec, text)] == [], text


def test_every_ifbench_type_has_a_spec() -> None:
    from faithguard.verifiers import check_ifbench, check_ifbench_format

    ids = set(check_ifbench.CHECKS.ids()) | set(check_ifbench_format.CHECKS.ids())
    assert len(ids) == 58
    assert {s.verifier for s in load_specs("ifbench")} == ids
