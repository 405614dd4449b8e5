"""Verdicts as evaluations in a real Arize Phoenix server started on 127.0.0.1 by the test.

Phoenix is heavy (hundreds of MB) and pins its own dependency versions, so it is not a
dependency of faithguard or of its test environment: the test runs the ``phoenix``
executable of a separate environment and skips, saying how to install one, when none is found.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import openai
import pytest
from integ_support import BAD, make_guard

from faithguard.integrations.fake_upstream import FakeOpenAIServer
from faithguard.integrations.openai import wrap
from faithguard.integrations.phoenix import PhoenixAnnotations

HOW = (
    "arize-phoenix is not installed: python -m venv /tmp/phoenix-venv && "
    "/tmp/phoenix-venv/bin/pip install arize-phoenix (or set FAITHGUARD_PHOENIX to a `phoenix` executable)"
)


def _phoenix_executable() -> str | None:
    for candidate in (os.environ.get("FAITHGUARD_PHOENIX"), shutil.which("phoenix"), "/tmp/phoenix-venv/bin/phoenix"):
        if candidate and Path(candidate).is_file() and os.access(candidate, os.X_OK):
            return candidate
    return None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def phoenix(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    exe = _phoenix_executable()
    if exe is None:
        pytest.skip(HOW)
    port, grpc = _free_port(), _free_port()
    work = tmp_path_factory.mktemp("phoenix")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OTEL_", "PHOENIX_"))}
    env.update(PHOENIX_HOST="127.0.0.1", PHOENIX_PORT=str(port), PHOENIX_GRPC_PORT=str(grpc))
    env.update(PHOENIX_WORKING_DIR=str(work), PHOENIX_TELEMETRY_ENABLED="false")
    log = (work / "phoenix.log").open("w")
    proc = subprocess.Popen([exe, "serve"], env=env, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 300  # its first start imports a lot; on a busy 2-core machine ~80 s
        while True:
            if proc.poll() is not None:
                pytest.fail("phoenix exited: " + (work / "phoenix.log").read_text()[-2000:])
            try:
                if httpx.get(f"{base}/healthz", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                pytest.fail("phoenix did not start in 300 s")
            time.sleep(1)
        yield base
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


def _annotations(base: str, span_id: str, expect: int) -> list[dict[str, Any]]:
    url = f"{base}/v1/projects/default/span_annotations"
    deadline = time.monotonic() + 60
    while True:
        data = httpx.get(url, params={"span_ids": [span_id], "limit": 100}, timeout=5).json().get("data", [])
        if len(data) >= expect or time.monotonic() > deadline:
            return list(data)
        time.sleep(0.5)


def test_verdicts_appear_as_annotations_on_the_chat_span(phoenix: str) -> None:
    from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import SimpleSpanProcessor
    from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

    memory = InMemorySpanExporter()
    annotations = PhoenixAnnotations(phoenix)
    provider = TracerProvider()
    provider.add_span_processor(annotations)  # first: gives spans their OpenInference kind at start
    provider.add_span_processor(SimpleSpanProcessor(OTLPSpanExporter(endpoint=f"{phoenix}/v1/traces")))
    provider.add_span_processor(SimpleSpanProcessor(memory))
    guard = make_guard(tracer_provider=provider)
    with FakeOpenAIServer([BAD]) as upstream, openai.OpenAI(base_url=upstream.url, api_key="k") as client:
        wrap(client, guard)
        completion = client.chat.completions.create(
            model="m", messages=[{"role": "user", "content": "Which museum in Paris should I visit?"}]
        )
    guard.close()
    assert annotations.force_flush(10_000)
    provider.shutdown()
    assert annotations.posted >= 2 and annotations.failed == 0

    chat = next(s for s in memory.get_finished_spans() if s.name == "chat m")
    assert chat.attributes is not None and chat.attributes["openinference.span.kind"] == "LLM"
    detectors = [s for s in memory.get_finished_spans() if s.name.startswith("detect ")]
    assert detectors and all((s.attributes or {}).get("openinference.span.kind") == "EVALUATOR" for s in detectors)
    found = _annotations(phoenix, f"{chat.context.span_id:016x}", expect=3)
    by_name = {a["name"]: a for a in found}
    assert set(by_name) == {"faithguard.outcome", "faithguard.constraint_score", "faithguard.omission"}, found
    assert by_name["faithguard.outcome"]["result"]["label"] == "hallucination"
    score = by_name["faithguard.constraint_score"]
    assert score["result"]["score"] == 0.0 and score["result"]["label"] == "hallucinated"
    assert score["annotator_kind"] == "CODE"
    assert score["metadata"]["gen_ai.response.id"] == completion.id
    assert by_name["faithguard.omission"]["result"]["label"] == "fail"


def test_the_phoenix_example_posts_to_phoenix(phoenix: str) -> None:
    import sys

    root = Path(__file__).resolve().parents[2]
    env = {k: v for k, v in os.environ.items() if not k.startswith("OTEL_")}
    env.update(PHOENIX_URL=phoenix, PYTHONPATH=str(root / "src") + os.pathsep + env.get("PYTHONPATH", ""))
    proc = subprocess.run(
        [sys.executable, str(root / "examples" / "otlp_phoenix.py")],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "failed: 0" in proc.stdout, proc.stdout
    chat_id = next(line.split(": ")[1] for line in proc.stdout.splitlines() if line.startswith("chat span id: "))
    names = {a["name"] for a in _annotations(phoenix, chat_id, expect=2)}
    assert "faithguard.constraint_score" in names
