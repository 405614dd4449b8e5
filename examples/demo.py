"""Guard a handful of realistic LLM calls offline and print a report per call plus the trace summary.

Run with ``make demo`` (no network, no API key: the embedded spaCy + wordfreq default).
"""

from __future__ import annotations

import json
import sys
import time
from collections import Counter
from pathlib import Path

from opentelemetry.sdk._logs import LoggerProvider
from opentelemetry.sdk._logs.export import InMemoryLogRecordExporter, SimpleLogRecordProcessor
from opentelemetry.sdk.metrics import MeterProvider
from opentelemetry.sdk.metrics.export import InMemoryMetricReader
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from rich.console import Console
from rich.rule import Rule
from rich.table import Table

from faithguard import Guard
from faithguard.render import print_report

CALLS = Path(__file__).with_name("demo_calls.json")


def main() -> int:
    console = Console(highlight=False)
    if not console.is_terminal:
        console = Console(highlight=False, width=140)
    spans = InMemorySpanExporter()
    tracer_provider = TracerProvider()
    tracer_provider.add_span_processor(SimpleSpanProcessor(spans))
    logs = InMemoryLogRecordExporter()
    logger_provider = LoggerProvider()
    logger_provider.add_log_record_processor(SimpleLogRecordProcessor(logs))
    reader = InMemoryMetricReader()
    meter_provider = MeterProvider(metric_readers=[reader])

    t0 = time.perf_counter()
    guard = Guard(
        judge=None, tracer_provider=tracer_provider, meter_provider=meter_provider, logger_provider=logger_provider
    )
    for failure in guard.plugin_failures:
        console.print(f"[yellow]plugin {failure.name} not loaded: {failure.error}[/]")
    calls = json.loads(CALLS.read_text(encoding="utf-8"))
    for i, call in enumerate(calls, 1):
        console.print(Rule(f"[bold]{i}. {call['title']}[/]"))
        console.print(f"[bold]query:[/] {call['query']}")
        if call.get("documents"):
            console.print(f"[bold]documents:[/] {len(call['documents'])} supplied")
        console.print(f"[bold]response:[/] {call['response']}")
        report = guard.check(call["query"], call["response"], documents=call.get("documents"))
        print_report(report, console)
    elapsed = time.perf_counter() - t0

    console.print(Rule("[bold]trace summary[/]"))
    finished = spans.get_finished_spans()
    roots = [s for s in finished if s.name.startswith("guard ")]
    by_name = Counter(s.name.split(" ")[0] for s in finished)
    console.print(
        f"{len(roots)} guard spans, {by_name['decompose']} decompose spans, {by_name['detect']} detector spans;"
        f" {len(logs.get_finished_logs())} gen_ai.evaluation.result events; {elapsed:.2f}s incl. model load"
    )
    table = Table("trace id", "outcome", "band", "score (judged)", "coverage", "verdicts", header_style="bold")
    for span in roots:
        attrs = span.attributes or {}
        score = attrs.get("faithguard.constraint_score")
        coverage = attrs.get("faithguard.coverage")
        table.add_row(
            f"{span.context.trace_id:032x}"[:16],
            str(attrs.get("faithguard.outcome")),
            str(attrs.get("faithguard.band")),
            "n/a" if score is None else f"{score:.1f}",
            "n/a" if not isinstance(coverage, float) else f"{coverage:.0%}",
            ", ".join(attrs.get("faithguard.verdict.kinds", ())) or "-",
        )
    console.print(table)
    data = reader.get_metrics_data()
    verdicts: Counter[str] = Counter()
    for rm in data.resource_metrics if data else []:
        for sm in rm.scope_metrics:
            for metric in sm.metrics:
                if metric.name == "faithguard.verdicts":
                    for p in metric.data.data_points:
                        if p.value:  # every kind's series exists at 0 from start-up
                            verdicts[str(dict(p.attributes)["faithguard.verdict.kind"])] += int(p.value)
    console.print(
        "metric faithguard.verdicts by kind: " + (", ".join(f"{k}={v}" for k, v in sorted(verdicts.items())) or "none")
    )
    guard.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
