"""Scoring in a worker process: reports and spans as in-process, a crash or a failed start never breaks a response."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import importlib.util
import multiprocessing
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from integ_support import BAD, CHAT, GOOD, URL, client_for, make_guard
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from faithguard import DetectorResult, Guard, Report
from faithguard.integrations._score_process import ScoreRequest, ScorerFailed, ScoringProcess
from faithguard.integrations.fake_upstream import FakeOpenAIServer
from faithguard.integrations.proxy import SCORING_FAILED, create_app

CRASH = "Visit the museum in Paris. CRASH"


class CrashInWorker:
    """Ends the scoring process abruptly on an answer containing CRASH (only in a child process)."""

    name = "crash-test"
    stage = "output"
    order = 350
    timeout: float | None = None

    def run(self, ctx: Any) -> DetectorResult:
        if "CRASH" in (ctx.response or "") and multiprocessing.parent_process() is not None:
            os._exit(3)
        return DetectorResult(findings={"scored_in_child": multiprocessing.parent_process() is not None})


def build_guard() -> Guard:
    """The scoring process's guard: built like the test's (a picklable module-level factory)."""
    return make_guard(extra=[CrashInWorker()])


def broken_factory() -> Guard:
    raise RuntimeError("this guard cannot be built")


def traced_guard() -> tuple[Guard, InMemorySpanExporter]:
    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    return make_guard(extra=[CrashInWorker()], tracer_provider=provider), exporter


async def _exchange(guard: Guard, upstream: str, bodies: list[dict[str, Any]], **kw: Any) -> list[httpx.Response]:
    """Send each body in turn; the scoring queue is drained before the app stops."""
    async with client_for(guard, upstream, **kw) as client:
        resps = [await client.post(URL, json=b) for b in bodies]
        proxy = client._transport.app.state.proxy  # type: ignore[attr-defined]
        assert await asyncio.to_thread(proxy.scoring.join, 60)
        resps.append(await client.get("/healthz"))
    return resps


def test_reports_are_scored_in_the_process_and_spans_close(upstream: FakeOpenAIServer) -> None:
    guard, exporter = traced_guard()
    reports: list[Report] = []
    body = {**CHAT, "faithguard": {"documents": ["The Louvre is in Paris."]}}
    *resps, health = asyncio.run(
        _exchange(guard, upstream.url, [body, CHAT], scoring="process", scorer=build_guard, on_report=reports.append)
    )
    guard.close()
    assert [r.status_code for r in resps] == [200, 200]
    assert all(r.json()["choices"][0]["message"]["content"] == GOOD for r in resps)
    assert all(r.headers["x-faithguard-score"] == "pending" for r in resps)
    assert health.json()["scoring"] == "process"
    assert len(reports) == 2
    first = reports[0]
    assert first.response == GOOD and first.constraint_score == 10.0 and first.outcome != "undetermined"
    assert first.findings["scored_in_child"] is True  # scored by the child's guard, not here
    assert first.findings["documents_seen"] == 1  # the request's documents reached the child
    roots = [s for s in exporter.get_finished_spans() if s.name.startswith("guard ")]
    assert len(roots) == 2 and all(s.end_time is not None for s in roots)
    for root in roots:  # what the child scored is on this process's spans
        assert root.attributes is not None and root.attributes["faithguard.constraint_score"] == 10.0
        assert root.attributes["faithguard.response.length"] == len(GOOD)


def test_verdicts_from_the_process_reach_telemetry_and_observers(bad_upstream: FakeOpenAIServer) -> None:
    guard, exporter = traced_guard()
    reports: list[Report] = []
    *_, health = asyncio.run(
        _exchange(guard, bad_upstream.url, [CHAT], scoring="process", scorer=build_guard, on_report=reports.append)
    )
    guard.close()
    [report] = reports
    assert report.response == BAD and [v.kind for v in report.verdicts] == ["omission"]
    [root] = [s for s in exporter.get_finished_spans() if s.name.startswith("guard ")]
    assert root.end_time is not None and root.attributes is not None
    assert list(root.attributes["faithguard.verdict.kinds"]) == ["omission"]  # type: ignore[arg-type]
    assert health.json()["queue"]["scored"] == 1


def test_a_crash_gives_an_undetermined_report_and_the_next_answer_a_new_process() -> None:
    guard, exporter = traced_guard()
    reports: list[Report] = []
    with FakeOpenAIServer([CRASH, GOOD]) as upstream:
        *resps, health = asyncio.run(
            _exchange(
                guard, upstream.url, [CHAT, CHAT], scoring="process", scorer=build_guard, on_report=reports.append
            )
        )
    guard.close()
    # the client never notices: both answers arrive untouched
    assert [r.status_code for r in resps] == [200, 200]
    assert [r.json()["choices"][0]["message"]["content"] for r in resps] == [CRASH, GOOD]
    crashed, scored = reports
    assert crashed.outcome == "undetermined"
    assert any(reason.startswith(SCORING_FAILED) for reason in crashed.undetermined)
    assert "CRASH" not in " ".join(crashed.undetermined)  # the reason names no content
    assert scored.constraint_score == 10.0 and scored.findings["scored_in_child"] is True
    roots = [s for s in exporter.get_finished_spans() if s.name.startswith("guard ")]
    assert len(roots) == 2 and all(s.end_time is not None for s in roots)
    assert health.json()["scoring"] == "process"
    assert health.json()["process"] == {"started": 2, "crashed": 1, "timed_out": 0, "recycled": 0}


def test_a_process_that_cannot_start_falls_back_to_scoring_here(upstream: FakeOpenAIServer) -> None:
    guard = make_guard(extra=[CrashInWorker()])
    reports: list[Report] = []
    *resps, health = asyncio.run(
        _exchange(guard, upstream.url, [CHAT], scoring="process", scorer=broken_factory, on_report=reports.append)
    )
    guard.close()
    assert resps[0].status_code == 200
    [report] = reports
    assert report.constraint_score == 10.0 and report.findings["scored_in_child"] is False  # scored here
    assert health.json()["scoring"] == "background"


def test_process_scoring_needs_a_factory_and_auto_uses_it_under_observe(upstream: FakeOpenAIServer) -> None:
    guard = make_guard()
    with pytest.raises(ValueError, match="scorer"):
        create_app(guard, upstream.url, scoring="process")
    assert create_app(guard, upstream.url, scorer=build_guard).state.proxy.process is not None
    assert create_app(guard, upstream.url).state.proxy.process is None
    guard.close()


def test_scoring_process_stops_and_reports_a_stall_as_failed() -> None:
    scorer = ScoringProcess(functools.partial(make_guard, extra=[SlowInWorker()]))
    assert scorer.start()
    pid = scorer.pid()
    assert pid is not None and pid != os.getpid()
    with pytest.raises(ScorerFailed, match=r"PicklingError|AttributeError|TypeError"):  # cannot be sent
        scorer.score(ScoreRequest([{"role": "user", "content": lambda: 0}], None, "m", GOOD), timeout=60)
    assert scorer.pid() == pid  # nothing was written: the same child carries on
    request = ScoreRequest(CHAT["messages"], None, "m", GOOD)  # type: ignore[arg-type]
    with pytest.raises(ScorerFailed):
        scorer.score(request, timeout=0.5)  # the child sleeps far longer: it is ended, not waited for
    assert scorer.pid() is None
    assert scorer.score(ScoreRequest(CHAT["messages"], None, "m", "quick"), timeout=60).report.response == "quick"  # type: ignore[arg-type]
    scorer.stop()
    assert scorer.pid() is None and not scorer.available


class SlowInWorker:
    """Sleeps 60 s on the answer GOOD (only in a child process), so a short wait gives up on it."""

    name = "slow-child-test"
    stage = "output"
    order = 360
    timeout: float | None = None

    def run(self, ctx: Any) -> DetectorResult:
        if ctx.response == GOOD and multiprocessing.parent_process() is not None:
            import time

            time.sleep(60)
        return DetectorResult()


def _children(pid: int) -> list[int]:
    """Live child processes of ``pid`` (Linux /proc)."""
    kids: list[int] = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        with contextlib.suppress(OSError):
            kids += [int(k) for k in (task / "children").read_text().split()]
    return kids


def _gone(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return True
    return state == "Z"


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="reads child processes from /proc")
def test_serve_with_a_scoring_process_stops_on_ctrl_c(tmp_path: Path) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = int(s.getsockname()[1])
    base = f"http://127.0.0.1:{port}"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OTEL_", "FAITHGUARD_JUDGE"))}
    env["PYTHONPATH"] = str(Path(__file__).resolve().parents[2] / "src") + os.pathsep + env.get("PYTHONPATH", "")
    with FakeOpenAIServer([GOOD]) as upstream:
        cmd = [sys.executable, "-m", "faithguard", "serve", "--upstream", upstream.url, "--port", str(port)]
        cmd += ["--scoring", "process", "--shutdown-timeout", "1"]
        proc = subprocess.Popen(cmd, env=env, stderr=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        try:
            deadline = time.monotonic() + 180
            health: dict[str, Any] = {}
            while time.monotonic() < deadline and not health:
                assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
                with contextlib.suppress(httpx.HTTPError):
                    health = httpx.get(f"{base}/healthz", timeout=1).json()
                time.sleep(0.3)
            assert health["scoring"] == "process"
            resp = httpx.post(f"{base}/v1/chat/completions", json=CHAT, timeout=60)
            assert resp.status_code == 200 and resp.json()["choices"][0]["message"]["content"] == GOOD
            kids = _children(proc.pid)
            assert kids  # the scoring process
            proc.send_signal(signal.SIGINT)
            _, err = proc.communicate(timeout=60)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.communicate()
    assert proc.returncode == 0, err[-2000:]
    assert "Traceback" not in err, err[-2000:]
    assert GOOD not in err  # no content in the logs
    # the server says what it runs on; with the proxy extra installed, uvloop and httptools
    assert health["server"]["loop"] in err and f"HTTP parser: {health['server']['http_auto']}" in err
    if importlib.util.find_spec("uvloop") is not None:
        assert health["server"]["loop"] == "uvloop.Loop"
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and not all(_gone(k) for k in kids):
        time.sleep(0.1)
    assert all(_gone(k) for k in kids)


def test_complete_finishes_a_call_with_a_report_from_elsewhere() -> None:
    """GuardedCall.complete: the policy decides on the given report; observers and the span get it."""
    from faithguard import Policy
    from faithguard.lifecycle import GuardedCall

    elsewhere = make_guard()
    scored = GuardedCall(elsewhere, messages=CHAT["messages"])  # type: ignore[arg-type]
    report = scored.after(text=BAD, background=False).report
    assert isinstance(report, Report) and scored.run is not None
    elsewhere.close()
    guard, exporter = traced_guard()
    seen: list[Report] = []
    policy = Policy.block(["omission"], fallback="Not sure.")
    call = GuardedCall(guard, policy, messages=CHAT["messages"], on_report=seen.append)  # type: ignore[arg-type]
    decision = call.complete(report, scored.run.input_verdicts)
    guard.close()
    assert decision.blocked and decision.text == "Not sure." and decision.report is report
    assert seen == [report] and call.report is report
    [root] = [s for s in exporter.get_finished_spans() if s.name.startswith("guard ")]
    assert root.attributes is not None and root.attributes["faithguard.constraint_score"] == 0.0
