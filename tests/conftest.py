"""Shared fixtures: fresh plugin managers and OTel SDK in-memory exporters."""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass

import pytest
from opentelemetry.sdk._logs import LoggerProvider
from opentelemetry.sdk._logs.export import SimpleLogRecordProcessor

try:  # opentelemetry-sdk >= 1.39
    from opentelemetry.sdk._logs.export import InMemoryLogRecordExporter
except ImportError:  # the declared floor (1.38) names it InMemoryLogExporter
    from opentelemetry.sdk._logs.export import InMemoryLogExporter as InMemoryLogRecordExporter
from opentelemetry.sdk.metrics import MeterProvider
from opentelemetry.sdk.metrics.export import InMemoryMetricReader
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

# Tests never reach a real judge unless a live test opts in explicitly.
for _var in ("FAITHGUARD_JUDGE_BASE_URL", "FAITHGUARD_JUDGE_MODEL"):
    os.environ.pop(_var, None) if not os.environ.get("FAITHGUARD_LIVE_TESTS") else None


@dataclass
class OTel:
    """SDK providers wired to in-memory exporters."""

    spans: InMemorySpanExporter
    logs: InMemoryLogRecordExporter
    metrics: InMemoryMetricReader
    tracer_provider: TracerProvider
    meter_provider: MeterProvider
    logger_provider: LoggerProvider

    def providers(self) -> dict[str, object]:
        return {
            "tracer_provider": self.tracer_provider,
            "meter_provider": self.meter_provider,
            "logger_provider": self.logger_provider,
        }

    def metric_points(self, name: str) -> list[object]:
        data = self.metrics.get_metrics_data()
        points: list[object] = []
        for rm in data.resource_metrics if data else []:
            for sm in rm.scope_metrics:
                for m in sm.metrics:
                    if m.name == name:
                        points.extend(m.data.data_points)
        return points


@pytest.fixture
def otel() -> Iterator[OTel]:
    spans = InMemorySpanExporter()
    tp = TracerProvider()
    tp.add_span_processor(SimpleSpanProcessor(spans))
    logs = InMemoryLogRecordExporter()
    lp = LoggerProvider()
    lp.add_log_record_processor(SimpleLogRecordProcessor(logs))
    reader = InMemoryMetricReader()
    mp = MeterProvider(metric_readers=[reader])
    yield OTel(spans, logs, reader, tp, mp, lp)
    tp.shutdown()
    lp.shutdown()
    mp.shutdown()
