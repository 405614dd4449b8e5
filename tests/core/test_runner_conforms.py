"""The runner's memoised protocol test answers as ``isinstance`` does."""

from __future__ import annotations

from typing import Any

import pytest

from faithguard.runner import _CallsJudge, _conforms, _Timed


class _ClassTimeout:
    timeout: float | None = 1.0


class _InstanceTimeout:
    def __init__(self) -> None:
        self.timeout = None


class _Nothing:
    pass


class _Judging:
    calls_judge = True
    timeout = 2.0


class _Slots:
    __slots__ = ("calls_judge",)

    def __init__(self, set_it: bool) -> None:
        if set_it:
            self.calls_judge = False


@pytest.mark.parametrize(
    "obj",
    [_ClassTimeout(), _InstanceTimeout(), _Nothing(), _Judging(), _Slots(True), _Slots(False), object(), "text", 3],
)
@pytest.mark.parametrize("protocol", [_Timed, _CallsJudge])
def test_conforms_is_isinstance(obj: Any, protocol: type) -> None:
    assert _conforms(obj, protocol) is isinstance(obj, protocol)


def test_positive_and_negative() -> None:
    assert _conforms(_Judging(), _CallsJudge) and _conforms(_Judging(), _Timed)
    assert not _conforms(_Nothing(), _Timed) and not _conforms(_Slots(False), _CallsJudge)
