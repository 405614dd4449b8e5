"""Built-in plugin of the integrations: the ``faithguard serve`` command (the guarding proxy)."""

from __future__ import annotations

import argparse
import math
from typing import Any

from faithguard.hookspecs import hookimpl

__all__ = ["register_commands", "serve"]

_POLICIES = ("observe", "annotate", "block")
#: Seconds between forced GIL hand-overs in ``faithguard serve`` (CPython's default is 0.005).
SWITCH_INTERVAL = 0.0005


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
    p.add_argument(
        "--scoring",
        choices=("auto", "inline", "background", "process"),
        default="auto",
        help="score before answering (inline) or after, in a bounded queue: on a thread (background) or in a "
        "scoring process at lower CPU priority (process); auto: process under observe, inline otherwise",
    )
    p.add_argument("--queue-size", type=int, default=256, help="background scoring queue (default 256)")
    p.add_argument("--timeout", type=float, default=120.0, help="seconds per upstream exchange before 504")
    p.add_argument("--max-body-bytes", type=int, default=8 * 1024 * 1024, help="request body limit (413 past it)")
    p.add_argument(
        "--max-score-chars",
        type=int,
        default=200_000,
        help="longest answer scored (characters); longer ones are reported undetermined (0: no limit)",
    )
    p.add_argument(
        "--score-timeout",
        type=float,
        default=None,
        help="seconds the scoring process may spend on one answer before it is ended and the report reads "
        "undetermined (default 30)",
    )
    p.add_argument(
        "--recycle-answers",
        type=int,
        default=None,
        help="restart the scoring process after this many answers (default 50000; 0: never)",
    )
    p.add_argument(
        "--recycle-rss-mb",
        type=float,
        default=None,
        help="restart the scoring process between answers once its resident memory passes this (MiB; default "
        "1024; 0: never)",
    )
    p.add_argument(
        "--otlp-endpoint",
        default=None,
        help="export spans and evaluation events over OTLP/HTTP, e.g. http://127.0.0.1:4318 (default: the "
        "OTEL_EXPORTER_OTLP_* variables when set)",
    )
    p.add_argument("--shutdown-timeout", type=float, default=3.0, help="seconds to finish requests on Ctrl-C")
    p.add_argument("--log-level", default="info", choices=_LOG_LEVELS, help="uvicorn log level (default info)")
    p.set_defaults(handler=serve)


_LOG_LEVELS = ("critical", "error", "warning", "info", "debug", "trace")


def argument_problem(args: argparse.Namespace) -> str | None:
    """What is wrong with ``serve``'s own arguments (None: nothing), found before any model loads: a port outside
    0-65535 (the socket layer wrapped it to another port), a time that is not a finite number (NaN made every
    request a 500), an upstream that is no http(s) URL (every request a 502)."""
    from urllib.parse import urlsplit

    if not 0 <= args.port <= 65535:
        return f"--port must be 0-65535, not {args.port}"
    if not (math.isfinite(args.timeout) and args.timeout > 0):
        return "--timeout must be a finite number of seconds > 0"
    if not (math.isfinite(args.shutdown_timeout) and args.shutdown_timeout >= 0):
        return "--shutdown-timeout must be a finite number of seconds >= 0"
    try:
        upstream = urlsplit(args.upstream)
    except ValueError:
        return "--upstream is not a URL"
    if upstream.scheme not in ("http", "https") or not upstream.hostname:
        return "--upstream must be an http:// or https:// URL with a host"
    return None


def _scoring_limits(args: argparse.Namespace) -> dict[str, Any]:
    """The scoring process's limits the command line sets (unset ones keep ``create_app``'s defaults; 0 turns a
    recycling limit off). Raises ValueError for a value that is no limit (negative, zero time, inf, nan)."""
    timeout, answers, rss = args.score_timeout, args.recycle_answers, args.recycle_rss_mb
    if timeout is not None and (not math.isfinite(timeout) or timeout <= 0):
        raise ValueError("--score-timeout must be a finite number of seconds > 0")
    if answers is not None and answers < 0:
        raise ValueError("--recycle-answers must be 0 (never) or more")
    if rss is not None and (not math.isfinite(rss) or rss < 0):
        raise ValueError("--recycle-rss-mb must be 0 (never) or a finite number of MiB")
    out: dict[str, Any] = {}
    if timeout is not None:
        out["score_timeout"] = timeout
    if answers is not None:
        out["recycle_answers"] = answers or None
    if rss is not None:
        out["recycle_rss_mb"] = rss or None
    return out


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
    """Run the proxy with uvicorn until interrupted; returns the exit code.

    The guard's models load in the app's startup, before uvicorn binds the port. On Ctrl-C
    uvicorn gives open requests ``--shutdown-timeout`` seconds; queued scoring is dropped
    (counted), telemetry is flushed, and scoring threads still busy are abandoned so that the
    process exits promptly.
    """
    import logging
    import sys

    problem = argument_problem(args)
    if problem is not None:
        print(f"faithguard serve: {problem}", file=sys.stderr)
        return 2
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
    from faithguard.integrations._proxy_io import redact_url
    from faithguard.integrations.tracing import otlp_configured, otlp_providers

    otlp = None
    if args.otlp_endpoint or otlp_configured():
        try:
            otlp = otlp_providers(args.otlp_endpoint, service_name="faithguard-proxy")
        except ImportError as exc:
            print(f"faithguard serve: {exc}", file=sys.stderr)
            return 2
    metrics = prometheus_metrics()
    guard = Guard(
        meter_provider=metrics.meter_provider,
        tracer_provider=otlp.tracer_provider if otlp else None,
        logger_provider=otlp.logger_provider if otlp else None,
    )
    try:
        app = create_app(
            guard,
            args.upstream,
            policy=build_policy(args.policy),
            metrics=metrics,
            timeout=args.timeout,
            scoring=args.scoring,
            scorer=Guard,  # the scoring process builds its guard as this one is (telemetry stays here)
            freeze_gc=True,  # this process is the proxy's own: its loaded models leave the collector's reach
            queue_size=args.queue_size,
            max_body_bytes=args.max_body_bytes,
            max_score_chars=args.max_score_chars or None,
            **_scoring_limits(args),
        )
    except ValueError as exc:
        print(f"faithguard serve: {exc}", file=sys.stderr)
        return 2
    # Background scoring holds the GIL in bursts; a short switch interval (default 5 ms) lets the event
    # loop answering clients take the interpreter back sooner. This process is ours: set it here only.
    sys.setswitchinterval(SWITCH_INTERVAL)
    # httpx logs every request's full URL at INFO; keys passed in the upstream's query string would show.
    logging.getLogger("httpx").setLevel(logging.WARNING)
    traced = f", traces to {redact_url(args.otlp_endpoint or 'OTEL_EXPORTER_OTLP_ENDPOINT')}" if otlp else ""
    print(
        f"faithguard proxy on http://{args.host}:{args.port}/v1 -> {redact_url(args.upstream)} "
        f"(policy {args.policy}{traced}); loading models first",
        file=sys.stderr,
    )
    try:
        uvicorn.run(
            app,
            host=args.host,
            port=args.port,
            log_level=args.log_level,
            timeout_graceful_shutdown=args.shutdown_timeout,
        )
    finally:
        guard.close()
        metrics.shutdown()
        if otlp is not None:
            otlp.shutdown()
    _exit_if_threads_hang()
    return 0


def _exit_if_threads_hang(grace: float = 1.0) -> None:
    """Exit now when non-daemon worker threads (a detector still running) would hold the interpreter open."""
    import os
    import sys
    import threading
    import time

    deadline = time.monotonic() + grace
    for t in threading.enumerate():
        if t is threading.main_thread() or t.daemon:
            continue
        t.join(timeout=max(0.0, deadline - time.monotonic()))
    busy = [t.name for t in threading.enumerate() if t is not threading.main_thread() and not t.daemon and t.is_alive()]
    if busy:
        print(f"faithguard serve: abandoning {len(busy)} busy worker thread(s) to exit promptly", file=sys.stderr)
        sys.stderr.flush()
        sys.stdout.flush()
        os._exit(0)
