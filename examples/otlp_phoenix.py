"""Traces and evaluations in Arize Phoenix: spans by OTLP/HTTP, verdicts as span annotations.

Start Phoenix (``phoenix serve``) and set ``PHOENIX_URL=http://127.0.0.1:6006``: spans go to
``$PHOENIX_URL/v1/traces`` and each verdict is posted as an annotation on the chat span it
evaluates (Phoenix shows them in the span's Annotations tab). Without ``PHOENIX_URL`` (as in the
tests) nothing leaves the process: spans are kept in memory and the annotations that would be
posted are printed.
"""

from __future__ import annotations

import os
from typing import Any

from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from faithguard import Guard
from faithguard.integrations.phoenix import PhoenixAnnotations, annotations_of
from faithguard.integrations.warmup import warm


def fake_llm(prompt: str) -> dict[str, Any]:
    """Stands in for an LLM client: an OpenAI-shaped completion with an id."""
    message = {"role": "assistant", "content": "Try the Colosseum in Rome."}
    return {"id": "chatcmpl-example-1", "model": "demo-1", "choices": [{"message": message, "finish_reason": "stop"}]}


def main() -> None:
    phoenix = os.environ.get("PHOENIX_URL")
    provider = TracerProvider(resource=Resource.create({"service.name": "faithguard-example"}))
    memory = InMemorySpanExporter()
    annotations = None
    if phoenix:
        from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter

        annotations = PhoenixAnnotations(phoenix)
        provider.add_span_processor(annotations)
        provider.add_span_processor(SimpleSpanProcessor(OTLPSpanExporter(endpoint=f"{phoenix}/v1/traces")))
        print("exporting to", phoenix)
    provider.add_span_processor(SimpleSpanProcessor(memory))
    guard = Guard(judge=None, tracer_provider=provider)
    warm(guard)  # load the models now: the first call is then scored like the rest
    ask = guard.wrap(fake_llm, model="demo-1", provider="local")
    ask("Which museum in Paris should I visit?")
    guard.close()
    spans = memory.get_finished_spans()
    for span in spans:
        attrs = span.attributes or {}
        score = attrs.get("faithguard.constraint_score", "")
        print(f"span {span.name!r} kind={attrs.get('openinference.span.kind', '-')} score={score}")
    chat = next(s for s in spans if s.name.startswith("chat "))
    root = next(s for s in spans if s.name.startswith("guard "))
    print(f"chat span id: {chat.context.span_id:016x}")
    if annotations is not None:
        annotations.force_flush()
        print("annotations posted:", annotations.posted, "failed:", annotations.failed)
    else:
        rid = (chat.attributes or {}).get("gen_ai.response.id")
        for record in annotations_of(root, f"{chat.context.span_id:016x}", rid if isinstance(rid, str) else None):
            result = record["result"]
            print(f"would annotate: {record['name']} label={result['label']} score={result['score']}")
    provider.shutdown()


if __name__ == "__main__":
    main()
