"""``faithguard serve`` in front of an OpenAI-compatible upstream, called by the OpenAI SDK from another process.

Run with no arguments: starts a scripted upstream on 127.0.0.1, the proxy as its own process
(``python -m faithguard serve --policy annotate``), then an OpenAI SDK client as a third
process (this file with ``--client URL``), and stops the proxy with Ctrl-C (SIGINT).
With a real model server, run only the proxy yourself and point ``base_url`` at it.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

QUESTION = "Which museum in Paris should I visit?"


def client(base_url: str) -> None:
    """The application: a plain OpenAI SDK client whose base_url is the proxy."""
    import openai

    sdk = openai.OpenAI(base_url=base_url, api_key=os.environ.get("OPENAI_API_KEY", "sk-local"), max_retries=0)
    raw = sdk.chat.completions.with_raw_response.create(model="local", messages=[{"role": "user", "content": QUESTION}])
    completion = raw.parse()
    print("answer:", completion.choices[0].message.content)
    for name in ("x-faithguard-score", "x-faithguard-band", "x-faithguard-verdicts", "x-faithguard-action"):
        print(f"{name}: {raw.headers.get(name)}")
    summary = (completion.model_extra or {}).get("faithguard") or {}
    print("faithguard field:", {k: summary.get(k) for k in ("score", "band", "action")})
    streamed = sdk.chat.completions.create(model="local", messages=[{"role": "user", "content": QUESTION}], stream=True)
    print("streamed:", "".join(c.choices[0].delta.content or "" for c in streamed if c.choices))


def main() -> None:
    from faithguard.integrations.fake_upstream import FakeOpenAIServer

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1] / "src")}
    with FakeOpenAIServer(["Visit the Colosseum in Rome."]) as upstream:
        cmd = [sys.executable, "-m", "faithguard", "serve", "--upstream", upstream.url, "--port", str(port)]
        proxy = subprocess.Popen([*cmd, "--policy", "annotate", "--log-level", "warning"], env=env)
        try:
            import httpx

            deadline = time.monotonic() + 180
            while True:  # the port opens once the guard's models are loaded
                try:
                    print("proxy healthz:", httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).json())
                    break
                except httpx.HTTPError:
                    if proxy.poll() is not None or time.monotonic() > deadline:
                        raise SystemExit("the proxy did not start") from None
                    time.sleep(0.3)
            sys.stdout.flush()
            subprocess.run([sys.executable, __file__, "--client", f"http://127.0.0.1:{port}/v1"], env=env, check=True)
        finally:
            proxy.send_signal(signal.SIGINT)
            print("proxy exit code:", proxy.wait(timeout=30))


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--client":
        client(sys.argv[2])
    else:
        main()
