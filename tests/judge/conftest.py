"""Fixtures for the judge tests: a real local chat server, an in-memory span exporter, payloads."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from faithguard.detector import CallContext
from faithguard.judge.testing import Reply, ScriptedChatServer
from faithguard.models import Category, Constraint, Status, Tier

DECOMPOSITION: dict[str, Any] = {
    "missing_content": [],
    "roles": {"subject": "vineyards", "action": "list", "context": "in Spain"},
    "task": "List",
    "subquestions": [{"text": "List three vineyards in Spain"}],
    "constraints": [
        {"text": "list vineyards", "category": "action", "negated": False, "subquestion": 0},
        {"text": "in Spain", "category": "location", "negated": False, "subquestion": 0},
        {"text": "three of them", "category": "quantity", "negated": False, "subquestion": 0},
        {"text": "not in Rioja", "category": "other", "negated": True, "subquestion": 5},
    ],
    "injection_suspected": False,
}


def satisfaction(*items: tuple[str, bool], injection: bool = False) -> dict[str, Any]:
    """A satisfaction payload."""
    return {
        "results": [{"id": cid, "satisfied": ok, "reason": f"{cid} {'met' if ok else 'missed'}"} for cid, ok in items],
        "injection_suspected": injection,
    }


@pytest.fixture
def decomposition_payload() -> dict[str, Any]:
    """A valid decomposition reply."""
    return {**DECOMPOSITION}


@pytest.fixture
def satisfaction_payload() -> Callable[..., dict[str, Any]]:
    """Builder of satisfaction replies."""
    return satisfaction


@pytest.fixture
def chat_server() -> Iterator[Callable[..., ScriptedChatServer]]:
    """Factory of started ScriptedChatServers, all stopped at teardown."""
    servers: list[ScriptedChatServer] = []

    def make(*replies: Reply | Any, **kwargs: Any) -> ScriptedChatServer:
        server = ScriptedChatServer(replies, **kwargs).start()
        servers.append(server)
        return server

    yield make
    for server in servers:
        server.stop()


@pytest.fixture
def spans() -> tuple[TracerProvider, InMemorySpanExporter]:
    """A private TracerProvider exporting to memory (never the global one)."""
    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    return provider, exporter


@pytest.fixture
def no_sleep() -> list[float]:
    """A list the client's injected sleep appends delays to (instead of sleeping)."""
    return []


@pytest.fixture
def ctx() -> CallContext:
    """A request with a response and three constraints."""
    return CallContext(
        query="List three vineyards in Spain.",
        response="Vega Sicilia, Pingus and Muga are three Spanish vineyards.",
        constraints=[
            Constraint(id="c1", text="list vineyards", category=Category.ACTION, tier=Tier.MANDATORY),
            Constraint(id="c2", text="in Spain", category=Category.LOCATION, tier=Tier.MANDATORY),
            Constraint(
                id="c3",
                text="three of them",
                category=Category.QUANTITY,
                tier=Tier.IMPORTANT,
                verifier="count_items",
                status=Status.SATISFIED,
                decided_by="verifier",
            ),
        ],
    )
