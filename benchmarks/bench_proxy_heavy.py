"""`faithguard serve` under pathological load: a 1M-character answer, three 490k-character requests, Ctrl-C.

Starts the real CLI (default offline guard, observe policy, background scoring) in front of a
scripted upstream that answers the dev traffic's queries with their recorded answers (both
split parts; no label is read) and ``BIGANSWER`` queries with one letter repeated 1M times.
Four clients send ordinary requests throughout; the script prints their latency per window
(baseline, during the 1M-character answer, then 10 s windows after three 490k-character
requests), ``/healthz`` latency while the long answer is scored, the scoring queue's counts
(back-pressure: sampled out, dropped) and how long the server takes to exit after SIGINT.
Wall-clock figures on a shared machine: the load average is printed with them. Bounded.

    PYTHONPATH=src python benchmarks/bench_proxy_heavy.py [--data ../shared/data] [--windows 3]
"""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _machine import load_line, machine, pct
from traffic import default_data, load_traffic

from faithguard.integrations.fake_upstream import FakeOpenAIServer

BIG = "x" * 1_000_000


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def main(argv: list[str] | None = None) -> int:
    """Run the scenario and print one line per window."""
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--data", type=Path, default=default_data(), help="the shared dev sets")
    ap.add_argument("--windows", type=int, default=3, help="10 s windows after the 490k-character requests")
    args = ap.parse_args(argv)
    calls, _ = load_traffic(args.data)
    if not calls:
        print(f"bench_proxy_heavy: no dev traffic under {args.data}", file=sys.stderr)
        return 2
    answers = {c.query: c.response for c in calls}
    queries = [c.query for c in calls]

    def reply(body: dict[str, Any]) -> str:
        q = str(body["messages"][-1]["content"])
        return BIG if q.startswith("BIGANSWER") else answers.get(q, "I do not know.")

    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    env = dict(os.environ)
    env["PYTHONPATH"] = str(Path(__file__).resolve().parents[1] / "src") + os.pathsep + env.get("PYTHONPATH", "")
    print(f"bench_proxy_heavy on {machine()}; {load_line()}")
    print(f"traffic: {len(calls)} dev calls (both split parts), {len(set(queries))} distinct queries")
    latencies: list[tuple[float, float, bool]] = []
    stop = threading.Event()

    def client(i: int) -> None:
        with httpx.Client(timeout=60) as c:
            n = i
            while not stop.is_set():
                q = queries[n % len(queries)]
                n += 7
                t = time.perf_counter()
                try:
                    r = c.post(
                        f"{base}/v1/chat/completions", json={"model": "m", "messages": [{"role": "user", "content": q}]}
                    )
                    ok = r.status_code == 200
                except httpx.HTTPError:
                    ok = False
                latencies.append((time.time(), (time.perf_counter() - t) * 1000, ok))
                time.sleep(0.05)

    def send(content: str) -> None:
        body = {"model": "m", "messages": [{"role": "user", "content": content}]}
        with contextlib.suppress(httpx.HTTPError):  # its answer is not what is measured
            httpx.post(f"{base}/v1/chat/completions", json=body, timeout=120)

    def window(name: str, seconds: float) -> None:
        start = time.time()
        time.sleep(seconds)
        lat = [ms for ts, ms, _ in latencies if ts >= start]
        errors = sum(1 for ts, _, ok in latencies if ts >= start and not ok)
        queue = httpx.get(f"{base}/healthz", timeout=60).json()["queue"]
        p50, p99 = (pct(lat, 0.5), pct(lat, 0.99)) if lat else (float("nan"), float("nan"))
        print(
            f"{name:<30} requests {len(lat):>4}  p50 {p50:>7.1f} ms  p99 {p99:>7.1f} ms  errors {errors}  "
            f"queue scored {queue['scored']} sampled_out {queue['sampled_out']} dropped {queue['dropped']} "
            f"depth {queue['depth']}/{queue['capacity']}",
            flush=True,
        )

    with FakeOpenAIServer(reply) as upstream:
        cmd = [sys.executable, "-m", "faithguard", "serve", "--upstream", upstream.url, "--port", str(port)]
        cmd += ["--log-level", "warning", "--shutdown-timeout", "1"]
        proc = subprocess.Popen(cmd, env=env, stderr=subprocess.DEVNULL)
        try:
            while True:
                try:
                    httpx.get(f"{base}/healthz", timeout=1)
                    break
                except httpx.HTTPError:
                    if proc.poll() is not None:
                        print("bench_proxy_heavy: the server exited", file=sys.stderr)
                        return 1
                    time.sleep(0.3)
            threads = [threading.Thread(target=client, args=(i,), daemon=True) for i in range(4)]
            for th in threads:
                th.start()
            window("baseline, 4 clients", 10)
            threading.Thread(target=send, args=("BIGANSWER please",), daemon=True).start()
            health: list[float] = []
            with httpx.Client(timeout=60) as probe:  # one connection: a new client per probe costs ~50 ms itself
                for _ in range(100):
                    t = time.perf_counter()
                    probe.get(f"{base}/healthz")
                    health.append((time.perf_counter() - t) * 1000)
                    time.sleep(0.02)
            print(f"/healthz during a 1M-character answer: p50 {pct(health, 0.5):.1f} ms, max {max(health):.1f} ms")
            window("after the 1M-character answer", 5)
            big = " ".join(c.response for c in calls)[:490_000]
            for k in range(3):
                threading.Thread(target=send, args=(f"{k} {big}",), daemon=True).start()
            for i in range(args.windows):
                window(f"3 x 490k requests, {i * 10}-{i * 10 + 10} s", 10)
            print(load_line())
            started = time.monotonic()
            proc.send_signal(signal.SIGINT)
            try:
                proc.wait(60)
                print(f"SIGINT -> exit in {time.monotonic() - started:.1f} s (code {proc.returncode})")
            except subprocess.TimeoutExpired:
                print("SIGINT -> still running after 60 s")
        finally:
            stop.set()
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    return 0


if __name__ == "__main__":
    sys.exit(main())
