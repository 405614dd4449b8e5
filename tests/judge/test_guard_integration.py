"""The judge inside a real Guard, over the scripted local server."""

from __future__ import annotations

import json

from faithguard.guard import Guard
from faithguard.judge import JudgeConfig
from faithguard.judge.testing import Reply, default_reply_for


def test_guard_uses_judge_and_caches_decomposition(chat_server, spans) -> None:
    provider, exporter = spans
    server = chat_server(default=default_reply_for)
    # the judge's decomposition is opt-in: tried first, the offline decomposer as fallback
    guard = Guard(
        judge=JudgeConfig(base_url=server.base_url, model="m"),
        decomposer=("judge", "offline"),
        load_entrypoints=False,
        tracer_provider=provider,
    )
    query = "Explain why the sky is blue."
    first = guard.check(query, "Rayleigh scattering of sunlight makes the sky blue.")
    second = guard.check(query, "Rayleigh scattering of sunlight makes the sky blue.")
    assert first.judge == "ok" and second.judge == "ok"
    judged = [c for c in second.constraints if c.reason and c.reason.startswith("judge:m")]
    assert judged, second.constraints
    names = [body["response_format"]["json_schema"]["name"] for _, _, body in server.requests]
    assert names.count("faithguard_decomposition") == 1  # cached by the guard
    assert names.count("faithguard_satisfaction") == 1  # the identical request was judged once
    third = guard.check(query, "Blue light scatters more than red light in air.")
    assert third.judge == "ok"
    names = [body["response_format"]["json_schema"]["name"] for _, _, body in server.requests]
    assert names.count("faithguard_decomposition") == 1 and names.count("faithguard_satisfaction") == 2
    assert any(s.name == "chat m" for s in exporter.get_finished_spans())


def test_guard_degrades_when_judge_breaks(chat_server) -> None:
    server = chat_server(*[Reply(status=503, raw_body=json.dumps({"error": "down"}))] * 10)
    guard = Guard(
        judge=JudgeConfig(base_url=server.base_url, model="m", max_retries=0),
        decomposer=("judge", "offline"),
        load_entrypoints=False,
    )
    report = guard.check("Name two rivers in France.", "The Loire and the Rhone.")
    assert report.judge == "degraded"
    assert report.judge_reason and "JudgeUnavailable" in report.judge_reason  # the type, never the body
    assert report.constraints  # the offline decomposition is kept
    assert report.outcome != "ok" or report.coverage == 1.0
