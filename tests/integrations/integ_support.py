"""Helpers of the integration tests: a fast guard built from shipped fakes, scripted answers."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Sequence
from typing import Any

import httpx

from faithguard import Category, Constraint, Guard, Policy, Severity, Tier, Verdict
from faithguard.plugins import make_plugin_manager
from faithguard.testing import KeywordDetector, StaticDecomposer, StaticDetector

CONSTRAINTS = [
    Constraint(id="c1", text="paris", category=Category.LOCATION, tier=Tier.MANDATORY),
    Constraint(id="c2", text="museum", category=Category.SUBJECT, tier=Tier.MANDATORY),
]
GOOD = "Visit the Louvre museum in Paris."
CHAT = {"model": "m", "messages": [{"role": "user", "content": "Which museum in Paris should I visit?"}]}
URL = "/v1/chat/completions"
BAD = "Visit the Colosseum in Rome."


class OmissionDetector:
    """Output-stage verdicts from statuses: a violated mandatory constraint is a critical omission."""

    name = "omission-test"
    stage = "output"
    order = 300
    timeout: float | None = None

    def run(self, ctx):  # type: ignore[no-untyped-def]
        from faithguard import DetectorResult, Status

        ids = [c.id for c in ctx.constraints if c.status is Status.VIOLATED]
        if not ids:
            return DetectorResult()
        return DetectorResult(
            verdicts=[Verdict(kind="omission", severity=Severity.CRITICAL, constraint_ids=ids, explanation="missed")]
        )


class DocumentProbe:
    """Shares what the output stage saw: number of documents and their joined text."""

    name = "doc-probe"
    stage = "output"
    order = 400
    timeout: float | None = None

    def run(self, ctx):  # type: ignore[no-untyped-def]
        from faithguard import DetectorResult

        return DetectorResult(
            findings={"documents_seen": len(ctx.documents), "documents_text": " ".join(ctx.documents)}
        )


def make_guard(
    *,
    extra: Sequence[object] = (),
    policy: Policy | None = None,
    meter_provider: object = None,
    tracer_provider: object = None,
    judge: object = None,
    max_input_chars: int | None = None,
) -> Guard:
    """A guard with no built-in plugins: static decomposer, keyword satisfaction, omission verdicts."""
    pm, _ = make_plugin_manager(load_entrypoints=False, defaults=False)
    return Guard(
        decomposer=StaticDecomposer(CONSTRAINTS),
        extra_detectors=[KeywordDetector(), OmissionDetector(), DocumentProbe(), *extra],  # type: ignore[list-item]
        judge=judge,
        plugin_manager=pm,
        policy=policy,
        meter_provider=meter_provider,  # type: ignore[arg-type]
        tracer_provider=tracer_provider,  # type: ignore[arg-type]
        detector_timeout=10.0,
        **({} if max_input_chars is None else {"max_input_chars": max_input_chars}),
    )


def missing_content_detector() -> StaticDetector:
    """An input-stage detector that always reports missing content with a clarification."""
    return StaticDetector(
        verdicts=[Verdict(kind="missing_content", severity=Severity.CRITICAL, explanation="no text attached")],
        clarification="Please paste the text you want summarised.",
        name="missing-test",
    )


@contextlib.asynccontextmanager
async def client_for(guard: Guard, upstream: str, **kwargs: Any) -> AsyncIterator[httpx.AsyncClient]:
    """A client of the proxy app (its lifespan run: warm-up, then the scoring queue stopped at the end)."""
    from faithguard.integrations.proxy import create_app

    kwargs.setdefault("warmup", False)  # the fake guards load no models; test_serve covers warm-up
    app = create_app(guard, upstream, **kwargs)
    async with (
        app.router.lifespan_context(app),
        httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://proxy") as client,
    ):
        yield client
