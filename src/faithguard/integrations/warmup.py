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
    guard.warmup()
    log.info("models loaded in %.1f s", time.perf_counter() - started)
