"""``faithguard serve`` as a process: OTLP export, the caller's trace, an OpenAI SDK client, Ctrl-C."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import openai
from otlp_receiver import OTLPReceiver, attributes

from faithguard.integrations.fake_upstream import FakeOpenAIServer

ROOT = Path(__file__).resolve().parents[2]
TRACE_ID = "0af7651916cd43dd8448eb211c80319c"
GOOD = "The Louvre in Paris is the museum to visit."


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _reply(body: dict[str, Any]) -> str:
    if "slowly" in str(body.get("messages")):
        time.sleep(20)  # holds this request open while the proxy is interrupted
    return GOOD


def _wait_healthy(base: str, proc: subprocess.Popen[str], limit: float = 120) -> dict[str, Any]:
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
        try:
            return dict(httpx.get(f"{base}/healthz", timeout=1).json())
        except httpx.HTTPError:
            time.sleep(0.3)
    raise AssertionError("the proxy never became healthy")


def test_serve_exports_joins_the_trace_and_stops_on_ctrl_c() -> None:
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    env = {k: v for k, v in os.environ.items() if not k.startswith("OTEL_")}
    env["PYTHONPATH"] = str(ROOT / "src") + os.pathsep + env.get("PYTHONPATH", "")
    with OTLPReceiver() as rx, FakeOpenAIServer(_reply) as upstream:
        secret_upstream = upstream.url.replace("http://", "http://bob:pa55word@")
        cmd = [sys.executable, "-m", "faithguard", "serve", "--upstream", secret_upstream, "--port", str(port)]
        cmd += ["--policy", "block", "--otlp-endpoint", rx.endpoint, "--shutdown-timeout", "1"]
        proc = subprocess.Popen(cmd, env=env, stderr=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        try:
            health = _wait_healthy(base, proc)
            assert health["policy"] == "block"
            client = openai.OpenAI(base_url=f"{base}/v1", api_key="sk-caller", max_retries=0)
            raw = client.chat.completions.with_raw_response.create(
                model="m",
                messages=[{"role": "user", "content": "Which museum in Paris should I visit?"}],
                extra_headers={"traceparent": f"00-{TRACE_ID}-b7ad6b7169203331-01"},
            )
            completion = raw.parse()
            assert completion.choices[0].message.content == GOOD
            assert raw.headers["x-faithguard-band"] in ("aligned", "partial", "hallucinated", "undetermined")
            # a request still waiting on the upstream when Ctrl-C comes
            slow = subprocess.Popen(
                [
                    sys.executable,
                    "-c",
                    f"import httpx; httpx.post('{base}/v1/chat/completions', timeout=60, "
                    "json={'model': 'm', 'messages': [{'role': 'user', 'content': 'Answer slowly: why?'}]})",
                ],
                stderr=subprocess.DEVNULL,
            )
            time.sleep(1.0)
            started = time.monotonic()
            proc.send_signal(signal.SIGINT)
            _, err = proc.communicate(timeout=30)
            stopped_in = time.monotonic() - started
            slow.kill()
            slow.wait()
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.communicate()
        spans = list(rx.spans)
        logs = list(rx.logs)
    assert stopped_in < 15, err[-2000:]  # the slow upstream would hold it for 20 s more
    assert "pa55word" not in err and "bob" not in err
    ours = [s for s in spans if s.trace_id.hex() == TRACE_ID]
    names = {s.name for s in ours}
    assert "guard default" in names and "chat m" in names, names
    root = next(s for s in ours if s.name == "guard default")
    assert root.parent_span_id.hex() == "b7ad6b7169203331"
    chat = next(s for s in ours if s.name == "chat m")
    assert attributes(chat)["gen_ai.response.model"] == "m"
    evaluations = [r for r in logs if r.event_name == "gen_ai.evaluation.result"]
    assert any(r.trace_id.hex() == TRACE_ID for r in evaluations)
