"""The guarding proxy on loopback in front of a fake upstream: one request, then stop."""

from __future__ import annotations

import asyncio

import httpx
import uvicorn

from faithguard import Guard, Policy
from faithguard.integrations.fake_upstream import FakeOpenAIServer
from faithguard.integrations.prometheus import prometheus_metrics
from faithguard.integrations.proxy import create_app


async def main() -> None:
    metrics = prometheus_metrics()
    guard = Guard(judge=None, meter_provider=metrics.meter_provider)
    with FakeOpenAIServer(["Visit the Colosseum in Rome."]) as upstream:
        app = create_app(guard, upstream.url, policy=Policy.annotate(), metrics=metrics)
        server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning"))
        task = asyncio.create_task(server.serve())
        while not server.started:
            await asyncio.sleep(0.01)
        port = server.servers[0].sockets[0].getsockname()[1]
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}") as client:
            body = {
                "model": "local",
                "messages": [{"role": "user", "content": "Which museum in Paris should I visit?"}],
            }
            resp = await client.post("/v1/chat/completions", json=body, headers={"Authorization": "Bearer sk-local"})
            print("status:", resp.status_code)
            for name in ("x-faithguard-score", "x-faithguard-band", "x-faithguard-verdicts"):
                print(f"{name}: {resp.headers[name]}")
            print("answer:", resp.json()["choices"][0]["message"]["content"])
            print("faithguard field:", {k: resp.json()["faithguard"][k] for k in ("score", "band", "action")})
        server.should_exit = True
        await task
    guard.close()


if __name__ == "__main__":
    asyncio.run(main())
