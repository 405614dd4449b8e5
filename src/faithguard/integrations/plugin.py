"""Built-in plugin of the integrations: the ``faithguard serve`` command (the guarding proxy)."""

from __future__ import annotations

import argparse
from typing import Any

from faithguard.hookspecs import hookimpl

__all__ = ["register_commands", "serve"]

_POLICIES = ("observe", "annotate", "block")


@hookimpl
def register_commands(subparsers: Any) -> None:
    """Add ``serve``: run the OpenAI-compatible guarding proxy in front of ``--upstream``."""
    p = subparsers.add_parser(
        "serve",
        help="run the guarding OpenAI-compatible proxy",
        description="Forward /v1/chat/completions to --upstream, checking inputs before and scoring answers after.",
    )
    p.add_argument("--upstream", required=True, help="upstream base URL, e.g. http://127.0.0.1:11434/v1")
    p.add_argument("--host", default="127.0.0.1", help="bind address (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=8088, help="bind port (default 8088)")
    p.add_argument("--policy", choices=_POLICIES, default="observe", help="what verdicts do (default observe)")
    p.add_argument("--log-level", default="info", help="uvicorn log level (default info)")
    p.set_defaults(handler=serve)


def build_policy(name: str) -> Any:
    """The :class:`~faithguard.policy.Policy` for a ``--policy`` name."""
    from faithguard.policy import Policy

    if name == "observe":
        return Policy.observe()
    if name == "annotate":
        return Policy.annotate()
    if name == "block":
        return Policy.block()
    raise ValueError(f"unknown policy {name!r}; choose from {', '.join(_POLICIES)}")


def serve(args: argparse.Namespace) -> int:
    """Run the proxy with uvicorn until interrupted; returns the exit code."""
    import sys

    try:
        import uvicorn

        from faithguard.integrations.prometheus import prometheus_metrics
        from faithguard.integrations.proxy import create_app
    except ImportError as exc:
        print(
            f"faithguard serve needs the proxy extras: pip install 'faithguard[proxy,prometheus]' ({exc})",
            file=sys.stderr,
        )
        return 2
    from faithguard.guard import Guard

    metrics = prometheus_metrics()
    guard = Guard(meter_provider=metrics.meter_provider)
    app = create_app(guard, args.upstream, policy=build_policy(args.policy), metrics=metrics)
    print(
        f"faithguard proxy on http://{args.host}:{args.port}/v1 -> {args.upstream} (policy {args.policy})",
        file=sys.stderr,
    )
    try:
        uvicorn.run(app, host=args.host, port=args.port, log_level=args.log_level)
    finally:
        guard.close()
        metrics.shutdown()
    return 0
