"""Tracing for services that run faithguard: OTLP export and the caller's W3C trace context.

:func:`otlp_providers` builds a tracer and a logger provider exporting over OTLP/HTTP (the
``otlp`` extra), configured by an explicit endpoint or by the standard ``OTEL_*`` variables
(``OTEL_EXPORTER_OTLP_ENDPOINT``, ``OTEL_EXPORTER_OTLP_TRACES_ENDPOINT``,
``OTEL_EXPORTER_OTLP_HEADERS``, ``OTEL_SERVICE_NAME``, ``OTEL_RESOURCE_ATTRIBUTES``). No global
provider is set. :func:`caller_context` reads ``traceparent``/``tracestate`` from request
headers so that guard spans join the caller's trace.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from opentelemetry.context import Context
from opentelemetry.trace.propagation.tracecontext import TraceContextTextMapPropagator

__all__ = ["OTLPProviders", "caller_context", "inject_context", "otlp_configured", "otlp_providers"]

_W3C = TraceContextTextMapPropagator()


def caller_context(headers: Mapping[str, str]) -> Context:
    """The W3C trace context (``traceparent``, ``tracestate``) a request carries; empty when it has none."""
    return _W3C.extract({k.lower(): v for k, v in headers.items() if k.lower() in ("traceparent", "tracestate")})


def inject_context(headers: dict[str, str]) -> None:
    """Replace ``traceparent``/``tracestate`` in ``headers`` with the current span's context."""
    for key in [k for k in headers if k.lower() in ("traceparent", "tracestate")]:
        del headers[key]
    _W3C.inject(headers)


def otlp_configured() -> bool:
    """Whether the standard variables ask for OTLP trace export."""
    if os.environ.get("OTEL_SDK_DISABLED", "").strip().lower() == "true":
        return False
    exporter = os.environ.get("OTEL_TRACES_EXPORTER", "").strip().lower()
    if exporter == "none":
        return False
    return exporter == "otlp" or any(
        os.environ.get(v) for v in ("OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT")
    )


@dataclass
class OTLPProviders:
    """A tracer and a logger provider exporting over OTLP/HTTP; ``shutdown()`` flushes both."""

    tracer_provider: Any
    logger_provider: Any

    def shutdown(self) -> None:
        """Flush pending spans and events, then stop the exporters."""
        self.tracer_provider.shutdown()
        self.logger_provider.shutdown()


def _signal_endpoint(base: str, signal: str) -> str:
    return base.rstrip("/") + f"/v1/{signal}"


def otlp_providers(
    endpoint: str | None = None, *, service_name: str = "faithguard", batch: bool = True
) -> OTLPProviders:
    """Providers exporting spans and evaluation events to ``endpoint`` (e.g. ``http://127.0.0.1:4318``).

    With ``endpoint=None`` the exporters read the ``OTEL_EXPORTER_OTLP_*`` variables (default
    ``http://localhost:4318``). ``OTEL_SERVICE_NAME`` overrides ``service_name``.
    """
    try:
        from opentelemetry.exporter.otlp.proto.http._log_exporter import OTLPLogExporter
        from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
    except ImportError as exc:
        raise ImportError(f"OTLP export needs: pip install 'faithguard[otlp]' ({exc})") from exc
    from opentelemetry.sdk._logs import LoggerProvider
    from opentelemetry.sdk._logs.export import BatchLogRecordProcessor, SimpleLogRecordProcessor
    from opentelemetry.sdk.resources import Resource
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import BatchSpanProcessor, SimpleSpanProcessor

    attrs: dict[str, Any] = {} if os.environ.get("OTEL_SERVICE_NAME") else {"service.name": service_name}
    resource = Resource.create(attrs)
    span_exporter = OTLPSpanExporter(endpoint=_signal_endpoint(endpoint, "traces") if endpoint else None)
    log_exporter = OTLPLogExporter(endpoint=_signal_endpoint(endpoint, "logs") if endpoint else None)
    tracer_provider = TracerProvider(resource=resource)
    logger_provider = LoggerProvider(resource=resource)
    if batch:
        tracer_provider.add_span_processor(BatchSpanProcessor(span_exporter))
        logger_provider.add_log_record_processor(BatchLogRecordProcessor(log_exporter))
    else:
        tracer_provider.add_span_processor(SimpleSpanProcessor(span_exporter))
        logger_provider.add_log_record_processor(SimpleLogRecordProcessor(log_exporter))
    return OTLPProviders(tracer_provider, logger_provider)
