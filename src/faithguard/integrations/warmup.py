"""Load a guard's models before the first guarded call, so that the first call is scored like the rest."""

from __future__ import annotations

import logging
import time
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from faithguard.guard import Guard

__all__ = ["warm"]

log = logging.getLogger("faithguard")


def warm(guard: Guard) -> None:
    """Load the guard's models now, so that the first request is scored like every other."""
    started = time.perf_counter()
    # TODO(lead): Guard.warmup() lands with the core issue; call it directly then and drop the fallback.
    warmup = getattr(guard, "warmup", None)
    if warmup is not None:
        warmup()
    else:
        _warm_shared_models()
    log.info("models loaded in %.1f s", time.perf_counter() - started)


def _warm_shared_models() -> None:
    """Fallback: one check on a throwaway guard loads the process-wide models (spaCy, word lists).

    The throwaway guard has no telemetry, no entry-point plugins and a long detector budget,
    so nothing of the warm-up reaches the real guard's spans, metrics or ``on_report`` hooks.
    """
    from opentelemetry._logs import NoOpLoggerProvider
    from opentelemetry.metrics import NoOpMeterProvider
    from opentelemetry.trace import NoOpTracerProvider

    from faithguard.guard import Guard

    with Guard(
        name="warmup",
        judge=None,
        load_entrypoints=False,
        detector_timeout=300.0,
        tracer_provider=NoOpTracerProvider(),
        meter_provider=NoOpMeterProvider(),
        logger_provider=NoOpLoggerProvider(),
    ) as throwaway:
        throwaway.check("Name one museum in Paris in a sentence.", "The Louvre is a museum in Paris.")
