"""The judge's budget: calls per minute (token bucket), deterministic sampling, concurrency."""

from __future__ import annotations

import asyncio
import hashlib
import queue
import threading
import time
import weakref
from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any, cast

__all__ = ["Budget", "TokenBucket", "sample_fraction", "sampled", "slots"]


class TokenBucket:
    """A thread-safe token bucket refilled at ``per_minute / 60`` tokens per second."""

    def __init__(self, per_minute: float, *, clock: Callable[[], float] = time.monotonic) -> None:
        if per_minute <= 0:
            raise ValueError("per_minute must be positive")
        self.capacity = max(1.0, float(per_minute))
        self.rate = float(per_minute) / 60.0
        self._clock = clock
        self._tokens = self.capacity
        self._stamp = clock()
        self._lock = threading.Lock()

    def try_acquire(self) -> bool:
        """Take one token if available; never blocks."""
        with self._lock:
            now = self._clock()
            self._tokens = min(self.capacity, self._tokens + max(0.0, now - self._stamp) * self.rate)
            self._stamp = now
            if self._tokens >= 1.0:
                self._tokens -= 1.0
                return True
            return False


def sample_fraction(key: str) -> float:
    """A stable number in [0, 1) derived from ``key`` (SHA-256), the same in every process."""
    digest = hashlib.sha256(key.encode("utf-8", "surrogatepass")).digest()
    return int.from_bytes(digest[:8], "big") / float(1 << 64)


def sampled(key: str, rate: float) -> bool:
    """Whether the request identified by ``key`` falls inside a ``rate`` sample."""
    if rate >= 1.0:
        return True
    if rate <= 0.0:
        return False
    return sample_fraction(key) < rate


class Budget:
    """Calls-per-minute limit, sampling rate and concurrency limit of one judge."""

    def __init__(
        self,
        *,
        calls_per_minute: float | None = None,
        sample_rate: float = 1.0,
        max_concurrency: int = 4,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.calls_per_minute = calls_per_minute
        self.sample_rate = sample_rate
        self.max_concurrency = max_concurrency
        self._bucket = TokenBucket(calls_per_minute, clock=clock) if calls_per_minute else None
        self._thread_slot = slots(max_concurrency)
        self._async_sems: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Semaphore] = (
            weakref.WeakKeyDictionary()
        )
        self._lock = threading.Lock()
        self.calls = 0
        self.rejected = 0

    def admit(self) -> bool:
        """Count one call against the per-minute limit; False when the bucket is empty."""
        ok = self._bucket is None or self._bucket.try_acquire()
        with self._lock:
            if ok:
                self.calls += 1
            else:
                self.rejected += 1
        return ok

    def sampled(self, key: str) -> bool:
        """Whether the request with this key is in the judged sample."""
        return sampled(key, self.sample_rate)

    @property
    def thread_slot(self) -> AbstractContextManager[Any]:
        """The slot bounding concurrent sync calls (``with budget.thread_slot: ...``; :func:`slots`)."""
        return self._thread_slot

    def async_slot(self) -> asyncio.Semaphore:
        """Semaphore bounding concurrent async calls on the running event loop."""
        loop = asyncio.get_running_loop()
        with self._lock:
            sem = self._async_sems.get(loop)
            if sem is None:
                sem = asyncio.Semaphore(self.max_concurrency)
                self._async_sems[loop] = sem
            return sem


def slots(n: int) -> AbstractContextManager[Any]:
    """A context manager taking one of ``n`` slots for its block (``with slot: ...``), safe from interrupts.

    ``threading.BoundedSemaphore`` is Python code: an interrupt of an abandoned call (the runner's asynchronous
    exception, :mod:`faithguard.interrupts`) landing between its counter update and the ``with`` block kept the
    slot forever, and once every slot was lost every judge call would wait. Here ``with`` calls straight into C:
    ``__enter__`` takes a token from a ``queue.SimpleQueue`` and ``__exit__`` puts one back (builtin methods are
    not descriptors, so ``with`` calls them unbound: ``get()`` and ``put(exc_type, exc, tb)``, where the last two
    are put's ignored ``block`` and ``timeout``), and no Python frame runs where an interrupt could land between
    taking a slot and the block that gives it back.
    """
    tokens: queue.SimpleQueue[Any] = queue.SimpleQueue()
    for _ in range(n):
        tokens.put(None)
    slot_type = type("Slot", (), {"__enter__": tokens.get, "__exit__": tokens.put, "__slots__": ()})
    return cast(AbstractContextManager[Any], slot_type())
