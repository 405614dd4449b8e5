"""Every integration example runs offline with ``python examples/X.py``."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXPECT = {
    "wrap_function.py": "constraint score:",
    "openai_sdk.py": "streamed: Visit the Louvre museum in Paris.",
    "langchain_rag.py": "enforced:",
    "proxy.py": "x-faithguard-band:",
    "alerts.py": "faithguard_checks_total{",
    "otlp_phoenix.py": "kind=GUARDRAIL",
}


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(EXPECT))
def test_example_runs(name: str) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("OTEL_EXPORTER_OTLP")}
    env["PYTHONPATH"] = str(ROOT / "src") + os.pathsep + env.get("PYTHONPATH", "")
    proc = subprocess.run(
        [sys.executable, str(ROOT / "examples" / name)],
        capture_output=True,
        text=True,
        timeout=180,
        cwd=ROOT,
        env=env,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert EXPECT[name] in proc.stdout, proc.stdout[-2000:]
