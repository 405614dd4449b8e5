"""A process that ends while a background guard still has reports queued exits cleanly with every report delivered
(issue 16: never crash the process at exit). Run in a child interpreter, as a user's script would end."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

SCRIPT = textwrap.dedent(
    """
    from faithguard import Guard

    delivered = []
    guard = Guard(background=True, judge=None)
    answer = "The Musee d'Orsay in Paris has Impressionist paintings. " * 400
    wrapped = guard.wrap(lambda prompt: answer, on_report=delivered.append)
    for _ in range(20):
        wrapped("Which museum in Paris should I visit in 2024 for under 20 euros?")
    import atexit
    atexit.register(lambda: print("delivered", len(delivered), flush=True))
    print("returned", flush=True)
    """
)


def test_queued_background_reports_are_finished_before_the_interpreter_tears_down(tmp_path: Path) -> None:
    script = tmp_path / "ends_early.py"
    script.write_text(SCRIPT, encoding="utf-8")
    env = {**os.environ, "FAITHGUARD_SEMANTIC": "0", "PYTHONPATH": os.pathsep.join(sys.path)}
    done = subprocess.run([sys.executable, str(script)], env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]  # was SIGSEGV / SIGABRT in the model's threads
    assert "returned" in done.stdout and "delivered 20" in done.stdout
