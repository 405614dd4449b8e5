"""Every integration example runs offline with ``python examples/X.py`` and prints what its docs promise."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXPECT: dict[str, list[str]] = {
    "wrap_function.py": ["constraint score:"],
    "openai_sdk.py": ["streamed: Visit the Louvre museum in Paris."],
    "langchain_rag.py": ["enforced:"],
    "langchain_agent.py": [
        "steps: HumanMessage -> AIMessage (tool call) -> ToolMessage -> AIMessage",
        "answers scored: 2 (tool-call steps are never scored)",
    ],
    "proxy.py": ["x-faithguard-band:"],
    "proxy_openai_client.py": ["x-faithguard-band:", "streamed: Visit the Colosseum in Rome.", "proxy exit code: 0"],
    "alerts.py": ["faithguard_checks_total{"],
    "otlp_phoenix.py": ["kind=GUARDRAIL", "would annotate: faithguard.constraint_score"],
    # with the prometheus binary the example scrapes for real; without it, it prints the exposition
    "prometheus_grafana.py": (
        ["health=up", "rule FaithGuardHighOmissionRate: health=ok", "dashboard panel 'Detector latency p95': success"]
        if shutil.which("prometheus")
        else ["prometheus is not installed", "faithguard_checks_total{"]
    ),
}


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(EXPECT))
def test_example_runs(name: str) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OTEL_EXPORTER_OTLP", "PHOENIX_"))}
    env["PYTHONPATH"] = str(ROOT / "src") + os.pathsep + env.get("PYTHONPATH", "")
    proc = subprocess.run(
        [sys.executable, str(ROOT / "examples" / name)],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=ROOT,
        env=env,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    for expected in EXPECT[name]:
        assert expected in proc.stdout, proc.stdout[-2000:]


def test_every_example_is_run() -> None:
    shipped = {p.name for p in (ROOT / "examples").glob("*.py")} - {"demo.py"}  # demo.py runs in `make demo`
    assert shipped == set(EXPECT)
