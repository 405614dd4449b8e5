"""Prometheus exposition of faithguard's metrics, on a dedicated registry (never the global one).

``metrics = prometheus_metrics(); guard = Guard(meter_provider=metrics.meter_provider)``;
then serve ``metrics.exposition()`` (the proxy's ``GET /metrics`` does). OpenTelemetry
names map to Prometheus ones by the exporter's rules: dots become underscores, counters
gain ``_total``, the ``s`` unit adds ``_seconds``; e.g. ``faithguard.verdicts`` with
attribute ``faithguard.verdict.kind`` is ``faithguard_verdicts_total{faithguard_verdict_kind=...}``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = ["CONTENT_TYPE", "METRIC_NAMES", "PrometheusMetrics", "prometheus_metrics"]

#: Content type of the text exposition format.
CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"

#: Prometheus series names faithguard exports (histograms add _bucket/_sum/_count).
METRIC_NAMES: tuple[str, ...] = (
    "faithguard_checks_total",
    "faithguard_verdicts_total",
    "faithguard_constraint_score",
    "faithguard_constraints_violated_total",
    "faithguard_detector_duration_seconds",
    "faithguard_detector_errors_total",
    "faithguard_judge_degraded_total",
)


@dataclass
class PrometheusMetrics:
    """A MeterProvider whose metrics are readable as Prometheus text from its own registry."""

    meter_provider: Any
    registry: Any
    reader: Any

    def exposition(self) -> bytes:
        """The current metrics in the Prometheus text format."""
        from prometheus_client import generate_latest

        return bytes(generate_latest(self.registry))

    def shutdown(self) -> None:
        """Stop the meter provider (flushes nothing: the reader is pull based)."""
        self.meter_provider.shutdown()


def prometheus_metrics(resource_attributes: dict[str, str] | None = None) -> PrometheusMetrics:
    """A fresh MeterProvider + PrometheusMetricReader bound to a new ``CollectorRegistry``.

    Needs ``faithguard[prometheus]`` (opentelemetry-exporter-prometheus, prometheus-client).
    The provider is returned, never installed globally.
    """
    try:
        from opentelemetry.exporter.prometheus import PrometheusMetricReader
        from opentelemetry.sdk.metrics import MeterProvider
        from opentelemetry.sdk.resources import Resource
        from prometheus_client import CollectorRegistry
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise ImportError("Prometheus metrics need: pip install 'faithguard[prometheus]'") from exc
    registry = CollectorRegistry(auto_describe=True)
    reader = PrometheusMetricReader(registry=registry)
    resource = Resource.create({"service.name": "faithguard", **(resource_attributes or {})})
    provider = MeterProvider(metric_readers=[reader], resource=resource)
    return PrometheusMetrics(meter_provider=provider, registry=registry, reader=reader)
