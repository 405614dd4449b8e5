"""A bounded, thread-safe TTL cache where concurrent misses for one key compute once.

cachetools caches are not thread-safe and ``@cached`` does not work on
``async def``; this wraps a ``TTLCache`` with a lock and single-flight futures
for both threads and asyncio tasks.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Awaitable, Callable, Hashable
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Generic, TypeVar

from cachetools import TTLCache

__all__ = ["CacheStats", "SingleFlightCache"]

V = TypeVar("V")


@dataclass
class CacheStats:
    """Hit and miss counts."""

    hits: int = 0
    misses: int = 0


class SingleFlightCache(Generic[V]):
    """TTL + LRU cache; ``get_or_compute`` runs ``fn`` once per key even under concurrency."""

    def __init__(self, maxsize: int = 1024, ttl: float = 3600.0) -> None:
        self._cache: TTLCache[Hashable, V] = TTLCache(maxsize=maxsize, ttl=ttl)
        self._lock = threading.Lock()
        self._inflight: dict[Hashable, Future[V]] = {}
        self._ainflight: dict[tuple[int, Hashable], asyncio.Future[V]] = {}
        self.stats = CacheStats()

    def __len__(self) -> int:
        with self._lock:
            return len(self._cache)

    def clear(self) -> None:
        """Drop every entry."""
        with self._lock:
            self._cache.clear()

    def get_or_compute(self, key: Hashable, fn: Callable[[], V]) -> V:
        """The cached value for ``key``, computing it with ``fn`` on a miss (once for concurrent callers)."""
        with self._lock:
            try:
                value = self._cache[key]
            except KeyError:
                pass
            else:
                self.stats.hits += 1
                return value
            future = self._inflight.get(key)
            owner = future is None
            if future is None:
                future = Future()
                self._inflight[key] = future
                self.stats.misses += 1
            else:
                self.stats.hits += 1
        if not owner:
            return future.result()
        try:
            value = fn()
        except BaseException as exc:
            with self._lock:
                self._inflight.pop(key, None)
            future.set_exception(exc)
            # Mark the exception as retrieved so an unobserved failure does not warn.
            future.exception()
            raise
        with self._lock:
            self._cache[key] = value
            self._inflight.pop(key, None)
        future.set_result(value)
        return value

    async def aget_or_compute(self, key: Hashable, fn: Callable[[], Awaitable[V]]) -> V:
        """Async twin of :meth:`get_or_compute`; concurrent tasks share one computation."""
        loop = asyncio.get_running_loop()
        akey = (id(loop), key)
        with self._lock:
            try:
                value = self._cache[key]
            except KeyError:
                pass
            else:
                self.stats.hits += 1
                return value
            future = self._ainflight.get(akey)
            owner = future is None
            if future is None:
                future = loop.create_future()
                self._ainflight[akey] = future
                self.stats.misses += 1
            else:
                self.stats.hits += 1
        if not owner:
            return await asyncio.shield(future)
        try:
            value = await fn()
        except BaseException as exc:
            with self._lock:
                self._ainflight.pop(akey, None)
            future.set_exception(exc)
            future.exception()
            raise
        with self._lock:
            self._cache[key] = value
            self._ainflight.pop(akey, None)
        future.set_result(value)
        return value
