"""Send faithguard traces by OTLP/HTTP to a local trace UI (Arize Phoenix: ``phoenix serve``).

Set ``OTEL_EXPORTER_OTLP_TRACES_ENDPOINT=http://127.0.0.1:6006/v1/traces`` to export; without
it (as in the tests) spans go to an in-memory exporter and are printed, so no network is used.
"""

from __future__ import annotations

import os

from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from faithguard import Guard


def main() -> None:
    endpoint = os.environ.get("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT")
    provider = TracerProvider(resource=Resource.create({"service.name": "faithguard-example"}))
    memory = InMemorySpanExporter()
    if endpoint:
        from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter

        provider.add_span_processor(SimpleSpanProcessor(OTLPSpanExporter(endpoint=endpoint)))
        print("exporting to", endpoint)
    provider.add_span_processor(SimpleSpanProcessor(memory))
    guard = Guard(judge=None, tracer_provider=provider)
    ask = guard.wrap(lambda prompt: "Visit the Louvre museum in Paris.", model="demo", provider="local")
    ask("Which museum in Paris should I visit?")
    provider.force_flush()
    for span in memory.get_finished_spans():
        attrs = span.attributes or {}
        score = attrs.get("faithguard.constraint_score", "")
        print(f"span {span.name!r} kind={attrs.get('openinference.span.kind', '-')} score={score}")
    guard.close()
    provider.shutdown()


if __name__ == "__main__":
    main()
