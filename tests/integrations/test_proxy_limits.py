"""The proxy's bound on the answers it scores, and scoring that never holds the client's answer."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from integ_support import CHAT, GOOD, URL, client_for, make_guard

from faithguard import DetectorResult, Guard, Policy, Report
from faithguard.integrations.fake_upstream import FakeOpenAIServer
from faithguard.integrations.proxy import MAX_SCORE_CHARS, create_app

#: A marker no report reason, header or error may quote.
MARKER = "zqxmarker"
LIMIT = 200


class OutputProbe:
    """An output detector that counts its runs and, when gated, waits until the test opens the gate."""

    name = "output-probe-test"
    stage = "output"
    order = 450
    timeout: float | None = None

    def __init__(self, gated: bool = False) -> None:
        self.runs = 0
        self.gate = threading.Event()
        self.started = threading.Event()
        if not gated:
            self.gate.set()

    def run(self, ctx: Any) -> DetectorResult:
        self.runs += 1
        self.started.set()
        self.gate.wait(20)
        return DetectorResult()


def long_answer(n: int) -> str:
    """``GOOD`` padded with the marker to exactly ``n`` characters."""
    pad = (MARKER + " ") * (n // len(MARKER) + 1)
    return (GOOD + " " + pad)[:n]


@pytest.fixture
def probe() -> OutputProbe:
    return OutputProbe()


@pytest.fixture
def probed_guard(probe: OutputProbe) -> Iterator[Guard]:
    g = make_guard(extra=[probe])
    yield g
    g.close()


def _too_long(report: Report, n: int) -> bool:
    return any(r.startswith("answer_too_long") and f"{n} characters" in r for r in report.undetermined)


def _chat(guard: Guard, answer: str, **kwargs: Any) -> tuple[httpx.Response, list[Report]]:
    reports: list[Report] = []
    with FakeOpenAIServer([answer]) as upstream:

        async def go() -> httpx.Response:
            async with client_for(guard, upstream.url, on_report=reports.append, **kwargs) as client:
                resp = await client.post(URL, json=CHAT)
                scoring = client._transport.app.state.proxy.scoring  # type: ignore[attr-defined]
                assert await asyncio.to_thread(scoring.join, 30)
                return resp

        return asyncio.run(go()), reports


@pytest.mark.parametrize("scoring", ["inline", "background"])
def test_an_answer_over_the_limit_is_reported_undetermined_unscored(
    probed_guard: Guard, probe: OutputProbe, scoring: str
) -> None:
    answer = long_answer(LIMIT + 1)
    resp, reports = _chat(probed_guard, answer, scoring=scoring, max_score_chars=LIMIT)
    assert resp.status_code == 200
    assert resp.json()["choices"][0]["message"]["content"] == answer  # the client gets the answer untouched
    assert len(reports) == 1
    report = reports[0]
    assert report.outcome == "undetermined" and _too_long(report, LIMIT + 1)
    assert probe.runs == 0  # the output stage did not run
    assert report.constraint_score is None
    assert not any(MARKER in r for r in report.undetermined + report.outcome_reasons)
    if scoring == "inline":
        assert resp.headers["x-faithguard-outcome"] == "undetermined"
        assert MARKER not in str(resp.headers)


def test_an_answer_at_the_limit_is_scored(probed_guard: Guard, probe: OutputProbe) -> None:
    answer = long_answer(LIMIT)
    _, reports = _chat(probed_guard, answer, scoring="inline", max_score_chars=LIMIT)
    assert probe.runs == 1
    assert len(reports) == 1 and not _too_long(reports[0], LIMIT)
    assert reports[0].constraint_score == 10.0


def test_no_limit_scores_every_answer(probed_guard: Guard, probe: OutputProbe) -> None:
    _, reports = _chat(probed_guard, long_answer(5 * LIMIT), scoring="inline", max_score_chars=None)
    assert probe.runs == 1 and reports[0].constraint_score == 10.0


def test_input_verdicts_still_decide_for_an_answer_over_the_limit() -> None:
    from integ_support import missing_content_detector

    guard = make_guard(extra=[missing_content_detector()], policy=Policy.annotate())
    resp, reports = _chat(guard, long_answer(LIMIT + 1), max_score_chars=LIMIT)
    guard.close()
    assert reports and _too_long(reports[0], LIMIT + 1)
    assert reports[0].verdicts  # the input stage ran and its verdicts stand
    assert resp.json()["faithguard"]["outcome"] == reports[0].outcome


def test_a_stream_over_the_limit_is_reported_undetermined(probed_guard: Guard, probe: OutputProbe) -> None:
    answer = long_answer(LIMIT + 50)
    reports: list[Report] = []
    with FakeOpenAIServer([answer]) as upstream:

        async def go() -> str:
            async with client_for(probed_guard, upstream.url, on_report=reports.append, max_score_chars=LIMIT) as c:
                resp = await c.post(URL, json={**CHAT, "stream": True})
                scoring = c._transport.app.state.proxy.scoring  # type: ignore[attr-defined]
                assert await asyncio.to_thread(scoring.join, 30)
                return resp.text

        streamed = asyncio.run(go())
    assert streamed.rstrip().endswith("data: [DONE]")  # the whole stream reached the client
    assert "".join(stream_text(streamed)) == answer
    assert len(reports) == 1 and probe.runs == 0
    # reading stopped at the limit: the reason names the limit, not the length nor any of the text
    (reason,) = [r for r in reports[0].undetermined if r.startswith("answer_too_long")]
    assert f"{LIMIT} characters" in reason and MARKER not in reason
    assert reports[0].outcome == "undetermined" and reports[0].constraint_score is None


def stream_text(body: str) -> list[str]:
    """The content deltas of an SSE body, in order (the test's own reading of what the client got)."""
    import json

    out = []
    for line in body.splitlines():
        if line.startswith("data: {"):
            for choice in json.loads(line[6:])["choices"]:
                out.append(choice["delta"].get("content") or "")
    return out


def _events(parts: list[str]) -> bytes:
    import json

    lines = [{"choices": [{"index": 0, "delta": {"content": p}, "finish_reason": None}]} for p in parts]
    lines.append({"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]})
    return b"".join(b"data: " + json.dumps(x).encode() + b"\n\n" for x in lines) + b"data: [DONE]\n\n"


def test_reading_a_stream_stops_at_the_limit_of_characters_or_lines() -> None:
    from faithguard.integrations._proxy_io import SSEText

    # a million one-character lines cost the event loop ~6 s to read; past the limit nothing more is parsed
    many = SSEText(max_chars=100)
    many.feed(_events(["a"] * 5_000))
    assert many.over_limit and many.text is None and not many.parts  # what was read is let go
    assert (many.unscored or "").startswith("answer_too_long") and "100 characters" in (many.unscored or "")
    # lines that carry no text count too: a flood of empty deltas is not read to its end either
    empty = SSEText(max_chars=100)
    empty.feed(_events([""] * 5_000))
    assert empty.over_limit and empty.data_lines == 101
    # at the limit the answer is read whole and scored
    at = SSEText(max_chars=100)
    at.feed(_events(["ab"] * 50))
    assert not at.over_limit and at.text == "ab" * 50 and at.unscored is None
    unbounded = SSEText()
    unbounded.feed(_events(["a"] * 5_000))
    assert unbounded.text == "a" * 5_000


@settings(max_examples=60, deadline=None)
@given(
    parts=st.lists(st.text(max_size=8), max_size=40),
    limit=st.integers(1, 60),
    cuts=st.lists(st.integers(0, 10_000), max_size=6),
)
def test_how_a_stream_is_cut_into_chunks_never_changes_its_reading(
    parts: list[str], limit: int, cuts: list[int]
) -> None:
    from faithguard.integrations._proxy_io import SSEText

    body = _events(parts)
    whole, chunked = SSEText(max_chars=limit), SSEText(max_chars=limit)
    whole.feed(body)
    at = sorted({min(c, len(body)) for c in cuts})
    for a, b in zip([0, *at], [*at, len(body)], strict=True):
        chunked.feed(body[a:b])
    assert (chunked.over_limit, chunked.text, chunked.unscored) == (whole.over_limit, whole.text, whole.unscored)
    text = "".join(parts)
    assert whole.over_limit == (max(len(text), len(parts) + 1) > limit)  # text, or data lines with the finish line
    if not whole.over_limit:
        assert whole.text == text and not whole.pending


def test_check_endpoint_reports_an_answer_over_the_limit(probed_guard: Guard, probe: OutputProbe) -> None:
    question = CHAT["messages"][0]["content"]  # type: ignore[index]

    async def go() -> httpx.Response:
        async with client_for(probed_guard, "http://127.0.0.1:9", max_score_chars=LIMIT) as client:
            body = {"query": question, "response": long_answer(LIMIT + 1)}
            return await client.post("/faithguard/check", json=body)

    resp = asyncio.run(go())
    assert resp.status_code == 200
    report = resp.json()["report"]
    assert report["outcome"] == "undetermined" and probe.runs == 0
    assert any(r.startswith("answer_too_long") for r in report["undetermined"])
    assert MARKER not in " ".join(report["undetermined"] + report["outcome_reasons"])


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(extra=st.integers(-40, 40), text=st.text(min_size=1, max_size=30))
def test_scored_exactly_when_within_the_limit_and_reason_never_quotes(extra: int, text: str) -> None:
    probe = OutputProbe()
    guard = make_guard(extra=[probe])
    limit = 100
    answer = (text * (200 // len(text) + 1))[: limit + extra]
    question = CHAT["messages"][0]["content"]  # type: ignore[index]

    async def go() -> httpx.Response:
        async with client_for(guard, "http://127.0.0.1:9", max_score_chars=limit) as client:
            return await client.post("/faithguard/check", json={"query": question, "response": answer})

    resp = asyncio.run(go())
    guard.close()
    assert resp.status_code == 200
    reasons = resp.json()["report"]["undetermined"]
    over = len(answer) > limit
    assert probe.runs == (0 if over else 1)
    assert any(r.startswith("answer_too_long") for r in reasons) == over
    if over and len(answer.strip()) > 3:
        assert not any(answer.strip() in r for r in reasons)


def test_bad_limits_are_refused(guard: Guard) -> None:
    assert MAX_SCORE_CHARS >= 153_226  # every answer of the dev traffic is scored by default
    for bad in (0, -1):
        with pytest.raises(ValueError):
            create_app(guard, "http://127.0.0.1:9", max_score_chars=bad, warmup=False)
    for seconds in (0.0, float("inf"), float("nan")):  # inf or nan would leave a reply in the scoring pipe
        with pytest.raises(ValueError, match="score_timeout"):
            create_app(guard, "http://127.0.0.1:9", score_timeout=seconds, warmup=False)


def test_observe_answers_before_the_output_stage_ends() -> None:
    """The client has the upstream's answer while the output detector is still held: scoring is off the path."""
    probe = OutputProbe(gated=True)
    guard = make_guard(extra=[probe])
    reports: list[Report] = []
    with FakeOpenAIServer([GOOD]) as upstream:

        async def go() -> httpx.Response:
            async with client_for(guard, upstream.url, on_report=reports.append) as client:
                resp = await asyncio.wait_for(client.post(URL, json=CHAT), timeout=15)
                assert await asyncio.to_thread(probe.started.wait, 15)  # scoring had begun ...
                assert reports == []  # ... and had not ended when the answer was in the client's hands
                probe.gate.set()
                scoring = client._transport.app.state.proxy.scoring  # type: ignore[attr-defined]
                assert await asyncio.to_thread(scoring.join, 30)
                return resp

        resp = asyncio.run(go())
    guard.close()
    assert resp.status_code == 200 and resp.json()["choices"][0]["message"]["content"] == GOOD
    assert resp.headers["x-faithguard-score"] == "pending"
    assert len(reports) == 1 and reports[0].constraint_score == 10.0


def test_serve_defaults_to_the_library_limit_and_zero_turns_it_off() -> None:
    import argparse

    from faithguard.integrations.plugin import register_commands

    parser = argparse.ArgumentParser()
    register_commands(parser.add_subparsers())
    assert parser.parse_args(["serve", "--upstream", "u"]).max_score_chars == MAX_SCORE_CHARS
    assert parser.parse_args(["serve", "--upstream", "u", "--max-score-chars", "0"]).max_score_chars == 0


def test_serve_passes_the_scoring_process_limits_it_is_given() -> None:
    import argparse

    import pytest

    from faithguard.integrations.plugin import _scoring_limits, register_commands

    parser = argparse.ArgumentParser()
    register_commands(parser.add_subparsers())
    assert _scoring_limits(parser.parse_args(["serve", "--upstream", "u"])) == {}  # create_app's defaults
    given = parser.parse_args(
        ["serve", "--upstream", "u", "--score-timeout", "5", "--recycle-answers", "0", "--recycle-rss-mb", "512"]
    )
    assert _scoring_limits(given) == {"score_timeout": 5.0, "recycle_answers": None, "recycle_rss_mb": 512.0}
    for bad in (["--score-timeout", "0"], ["--score-timeout", "inf"], ["--score-timeout", "nan"]):
        with pytest.raises(ValueError, match="score-timeout"):
            _scoring_limits(parser.parse_args(["serve", "--upstream", "u", *bad]))
    with pytest.raises(ValueError, match="recycle-answers"):
        _scoring_limits(parser.parse_args(["serve", "--upstream", "u", "--recycle-answers", "-1"]))


def test_serve_refuses_arguments_that_would_misbehave_before_loading_anything(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # --port 99999 listened on another port, --timeout nan made every request a 500, ftp:// every request a 502
    import argparse

    import pytest

    from faithguard.integrations.plugin import argument_problem, register_commands

    parser = argparse.ArgumentParser()
    register_commands(parser.add_subparsers())
    base = ["serve", "--upstream", "http://127.0.0.1:9/v1"]
    assert argument_problem(parser.parse_args(base)) is None
    for extra, said in (
        (["--port", "99999"], "--port must be 0-65535"),
        (["--timeout", "nan"], "--timeout must be a finite number"),
        (["--shutdown-timeout", "inf"], "--shutdown-timeout must be"),
        (["--upstream", "ftp://x/v1"], "--upstream must be an http"),
        (["--upstream", "127.0.0.1:9"], "--upstream must be an http"),
    ):
        args = parser.parse_args([*base, *extra])
        problem = argument_problem(args)
        assert problem is not None and problem.startswith(said), problem
        assert args.handler(args) == 2 and capsys.readouterr().err.startswith(f"faithguard serve: {said}")
    with pytest.raises(SystemExit):  # argparse: not among the choices
        parser.parse_args([*base, "--log-level", "BOGUS"])
