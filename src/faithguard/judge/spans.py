"""The judge's own ``chat {model}`` CLIENT spans (OpenTelemetry GenAI attributes), for its HTTP and LangChain
transports. Split from :mod:`faithguard.judge.client`."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from opentelemetry import trace

if TYPE_CHECKING:
    from faithguard.judge.client import ChatResult

__all__ = ["chat_span", "get_tracer", "record_error", "record_result"]

#: Characters of an (already redacted) error message kept as a span's status description.
_STATUS_SNIPPET = 200


def get_tracer(tracer: Any = None) -> trace.Tracer:
    """A Tracer from a Tracer, a TracerProvider, or (None) the API's current provider."""
    if tracer is None:
        return trace.get_tracer("faithguard.judge")
    if isinstance(tracer, trace.Tracer):
        return tracer
    if hasattr(tracer, "get_tracer"):
        got: trace.Tracer = tracer.get_tracer("faithguard.judge")
        return got
    raise TypeError("tracer must be an opentelemetry Tracer or TracerProvider")


@contextmanager
def chat_span(
    tracer: trace.Tracer,
    model: str,
    provider: str,
    *,
    address: str | None = None,
    port: int | None = None,
    temperature: float | None = None,
) -> Iterator[trace.Span]:
    """A ``chat {model}`` CLIENT span with the GenAI request attributes set at start."""
    attributes: dict[str, Any] = {
        "gen_ai.operation.name": "chat",
        "gen_ai.provider.name": provider,
        "gen_ai.request.model": model,
        "gen_ai.output.type": "json",
    }
    if temperature is not None:
        attributes["gen_ai.request.temperature"] = float(temperature)
    if address:
        attributes["server.address"] = address
    if port is not None:
        attributes["server.port"] = port
    with tracer.start_as_current_span(
        f"chat {model}",
        kind=trace.SpanKind.CLIENT,
        attributes=attributes,
        record_exception=False,
        set_status_on_exception=False,
    ) as span:
        yield span


def record_result(span: trace.Span, result: ChatResult) -> None:
    """Put response id/model, finish reason and token usage on a span."""
    if result.response_id:
        span.set_attribute("gen_ai.response.id", result.response_id)
    if result.model:
        span.set_attribute("gen_ai.response.model", result.model)
    if result.finish_reason:
        span.set_attribute("gen_ai.response.finish_reasons", [result.finish_reason])
    if result.input_tokens is not None:
        span.set_attribute("gen_ai.usage.input_tokens", result.input_tokens)
    if result.output_tokens is not None:
        span.set_attribute("gen_ai.usage.output_tokens", result.output_tokens)


def record_error(span: trace.Span, error_type: str, message: str) -> None:
    """Mark a span failed with ``error.type`` (message already redacted)."""
    span.set_attribute("error.type", error_type)
    span.set_status(trace.Status(trace.StatusCode.ERROR, message[:_STATUS_SNIPPET]))
