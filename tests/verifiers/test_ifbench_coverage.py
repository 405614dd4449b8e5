"""Every IFBench type has a detection spec (the specs' own fixtures run in ``tests/test_spec_fixtures.py``)."""

from __future__ import annotations

from faithguard.verifiers.spec_loader import load_specs


def test_every_ifbench_type_has_a_spec() -> None:
    from faithguard.verifiers import check_ifbench, check_ifbench_format

    ids = set(check_ifbench.CHECKS.ids()) | set(check_ifbench_format.CHECKS.ids())
    assert len(ids) == 58
    assert {s.verifier for s in load_specs("ifbench")} == ids
