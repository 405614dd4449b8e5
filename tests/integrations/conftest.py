"""Fixtures of the integration tests: a fast guard, fake OpenAI upstreams on loopback."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from integ_support import BAD, GOOD, make_guard

from faithguard import Guard
from faithguard.integrations.fake_upstream import FakeOpenAIServer


@pytest.fixture
def guard() -> Iterator[Guard]:
    g = make_guard()
    yield g
    g.close()


@pytest.fixture
def upstream() -> Iterator[FakeOpenAIServer]:
    with FakeOpenAIServer([GOOD]) as srv:
        yield srv


@pytest.fixture
def bad_upstream() -> Iterator[FakeOpenAIServer]:
    with FakeOpenAIServer([BAD]) as srv:
        yield srv
