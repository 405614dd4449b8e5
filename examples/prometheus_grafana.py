"""The proxy's /metrics scraped by a real Prometheus, with the shipped alert rules and dashboard queries.

Runs the guarding proxy on 127.0.0.1 in front of a scripted upstream, sends a few requests,
then -- when the ``prometheus`` binary is installed (Debian: ``apt-get install prometheus``) --
starts Prometheus with a throw-away config that scrapes the proxy every second and loads
``deploy/prometheus/faithguard-alerts.yml``, and evaluates every query of
``deploy/grafana/faithguard-dashboard.json`` (Grafana variables filled in) through Prometheus's
HTTP API. Import the dashboard JSON into Grafana with a Prometheus data source to see the same
panels. Without Prometheus, it prints the exposition it would scrape.
"""

from __future__ import annotations

import asyncio
import json
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import uvicorn

from faithguard import Guard, Policy
from faithguard.integrations.fake_upstream import FakeOpenAIServer
from faithguard.integrations.prometheus import prometheus_metrics
from faithguard.integrations.proxy import create_app

ROOT = Path(__file__).resolve().parents[1]
RULES = ROOT / "deploy" / "prometheus" / "faithguard-alerts.yml"
DASHBOARD = ROOT / "deploy" / "grafana" / "faithguard-dashboard.json"
ANSWERS = ["Visit the Louvre museum in Paris.", "Try the Colosseum in Rome.", "The Orsay museum in Paris."]
GRAFANA_VARS = {"$guard": ".*", "$__rate_interval": "1m", "$__range": "5m"}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def dashboard_queries() -> list[tuple[str, str]]:
    """(panel title, PromQL) of every dashboard target, with Grafana's variables filled in."""
    dash = json.loads(DASHBOARD.read_text())
    out = []
    for panel in dash["panels"]:
        for target in panel.get("targets", []):
            expr = target["expr"]
            for var, value in GRAFANA_VARS.items():
                expr = expr.replace(var, value)
            out.append((panel["title"], expr))
    return out


def scrape_with_prometheus(binary: str, target: str) -> None:
    port = _free_port()
    with tempfile.TemporaryDirectory() as tmp:
        config = Path(tmp) / "prometheus.yml"
        config.write_text(
            "global: {scrape_interval: 1s, evaluation_interval: 1s}\n"
            f"rule_files: ['{RULES}']\n"
            f"scrape_configs: [{{job_name: faithguard, static_configs: [{{targets: ['{target}']}}]}}]\n"
        )
        cmd = [binary, f"--config.file={config}", f"--storage.tsdb.path={tmp}/data"]
        cmd += [f"--web.listen-address=127.0.0.1:{port}"]
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        api = f"http://127.0.0.1:{port}/api/v1"
        try:
            deadline = time.monotonic() + 60
            while True:  # wait for two scrapes: rate() needs two samples
                try:
                    data = httpx.get(f"{api}/query", params={"query": "count_over_time(up[1m])"}, timeout=2).json()
                    if data["data"]["result"] and float(data["data"]["result"][0]["value"][1]) >= 3:
                        break
                except (httpx.HTTPError, KeyError, IndexError, ValueError):
                    pass
                if time.monotonic() > deadline or proc.poll() is not None:
                    raise SystemExit("prometheus did not scrape the proxy")
                time.sleep(0.5)
            up = httpx.get(f"{api}/targets").json()["data"]["activeTargets"][0]
            print(f"prometheus scraped {up['scrapeUrl']}: health={up['health']}")
            for group in httpx.get(f"{api}/rules").json()["data"]["groups"]:
                for rule in group["rules"]:
                    print(f"rule {rule['name']}: health={rule['health']}")
            for title, expr in dashboard_queries():
                result = httpx.get(f"{api}/query", params={"query": expr}).json()
                status = result["status"]
                series = len(result["data"]["result"]) if status == "success" else 0
                print(f"dashboard panel {title!r}: {status}, {series} series")
        finally:
            proc.terminate()
            proc.wait(timeout=20)


async def main() -> None:
    metrics = prometheus_metrics()
    guard = Guard(judge=None, meter_provider=metrics.meter_provider)
    with FakeOpenAIServer(ANSWERS) as upstream:
        app = create_app(guard, upstream.url, policy=Policy.annotate(), metrics=metrics)
        server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning"))
        task = asyncio.create_task(server.serve())
        while not server.started:  # the app's startup loads the models first
            await asyncio.sleep(0.05)
        port = server.servers[0].sockets[0].getsockname()[1]
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}") as client:
            body: dict[str, Any] = {"model": "m", "messages": [{"role": "user", "content": "Which museum in Paris?"}]}
            for _ in ANSWERS:
                resp = await client.post("/v1/chat/completions", json=body)
                print(
                    f"answer {resp.json()['choices'][0]['message']['content']!r}: {resp.headers['x-faithguard-band']}"
                )
            binary = shutil.which("prometheus")
            if binary is None:
                print("prometheus is not installed; the exposition it would scrape:")
                text = (await client.get("/metrics")).text
                print("\n".join(line for line in text.splitlines() if line.startswith("faithguard_checks_total")))
            else:
                await asyncio.to_thread(scrape_with_prometheus, binary, f"127.0.0.1:{port}")
        server.should_exit = True
        await task
    guard.close()
    metrics.shutdown()


if __name__ == "__main__":
    asyncio.run(main())
