"""A bounded, thread-safe TTL cache where concurrent misses for one key compute once.

cachetools caches are not thread-safe and ``@cached`` does not work on
``async def``; this wraps a ``TTLCache`` with a lock and single-flight futures
for both threads and asyncio tasks.
"""

from __future__ import annotations

import asyncio
import hashlib
import threading
from collections.abc import Awaitable, Callable, Hashable, Iterable
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass
from typing import Any, Generic, TypeVar, cast

from cachetools import TTLCache

from faithguard.errors import BudgetSpent
from faithguard.interrupts import Interrupted, shielded

__all__ = ["ANSWER_CACHE_SIZE", "QUERY_CACHE_SIZE", "CacheStats", "SingleFlightCache", "texts_key"]

#: Entries in every cache keyed by a request (the Guard's decomposition cache, the shared query parse, the
#: request's term candidates, the decomposer's own memos): one size for all, so a query one of them holds
#: is not recomputed because a smaller one dropped it. With more distinct queries than this in rotation a
#: check is a new-query check, as it should be, rather than a cached one at three times the cost.
QUERY_CACHE_SIZE = 2048
#: Entries in caches keyed by an answer (the names an answer introduces): an answer is re-checked only when
#: the same call is retried, so these stay smaller than the query caches.
ANSWER_CACHE_SIZE = 512

V = TypeVar("V")
_MISS: Any = object()


def texts_key(texts: Iterable[str]) -> bytes:
    """A cache key for a sequence of texts that holds none of them: a digest of the texts, each prefixed with its
    length, so no two different sequences share one (a separator inside a text cannot shift the boundaries)."""
    digest = hashlib.blake2b(digest_size=20)
    for text in texts:
        data = text.encode("utf-8", "surrogatepass")
        digest.update(b"%d:" % len(data))
        digest.update(data)
    return digest.digest()


#: How the computing caller's own time budget ends (the pool's interrupt, a checkpoint): says nothing about the
#: key, so a caller waiting for the same key computes it itself instead of failing with the owner's budget.
_OWNERS_BUDGET = (Interrupted, BudgetSpent)
#: Seconds a waiting caller blocks at a time: between waits it runs Python, so its own interrupt can land.
_POLL = 0.05


def _wait(future: Future[V]) -> V:
    """``future.result()``, waited for in short steps (a single blocking wait in C could not be interrupted)."""
    while True:
        try:
            return future.result(timeout=_POLL)
        except FutureTimeout:
            continue


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

    def _claim(
        self, key: Hashable, table: dict[Any, Any], slot: Hashable, new: Callable[[], Any]
    ) -> tuple[Any, Any, bool]:
        """Under the lock: (cached value or _MISS, in-flight future, whether this caller computes)."""
        with self._lock:
            try:
                value = self._cache[key]
            except KeyError:
                pass
            else:
                self.stats.hits += 1
                return value, None, False
            future = table.get(slot)
            if future is not None:
                self.stats.hits += 1
                return _MISS, future, False
            future = table[slot] = new()
            self.stats.misses += 1
            return _MISS, future, True

    def _release(
        self, key: Hashable, table: dict[Any, Any], slot: Hashable, value: Any = None, ok: bool = False
    ) -> None:
        with self._lock:
            if ok:
                self._cache[key] = value
            table.pop(slot, None)

    def get_or_compute(self, key: Hashable, fn: Callable[[], V], keep: Callable[[V], bool] | None = None) -> V:
        """The cached value for ``key``, computing it with ``fn`` on a miss (once for concurrent callers).

        A caller that waits for another's computation gets its value or its error, except when that caller's
        own time budget ended it (:data:`_OWNERS_BUDGET`): then the waiter claims the key again and computes it
        within its own budget. Publishing the result is shielded from interrupts, so no waiter is left with a
        future nobody will resolve. A value ``keep`` rejects goes to the callers waiting now, not into the cache.
        """
        while True:
            value, future, owner = self._claim(key, self._inflight, key, Future)
            if value is not _MISS:
                return cast(V, value)
            if owner:
                break
            try:
                return cast(V, _wait(future))
            except _OWNERS_BUDGET as exc:
                if future.done() and future.exception() is exc:
                    continue  # the computing call ran out of its own time, not this one
                raise  # this caller's own interrupt, landed while it waited
        try:
            computed = fn()
        except BaseException as exc:
            with shielded():
                self._release(key, self._inflight, key)
                future.set_exception(exc)
                future.exception()  # mark it retrieved so an unobserved failure does not warn
            raise
        with shielded():
            self._release(key, self._inflight, key, computed, ok=keep is None or keep(computed))
            future.set_result(computed)
        return computed

    async def aget_or_compute(self, key: Hashable, fn: Callable[[], Awaitable[V]]) -> V:
        """Async twin of :meth:`get_or_compute`; concurrent tasks share one computation."""
        loop = asyncio.get_running_loop()
        slot = (id(loop), key)
        value, future, owner = self._claim(key, self._ainflight, slot, loop.create_future)
        if value is not _MISS:
            return cast(V, value)
        if not owner:
            try:
                return cast(V, await asyncio.shield(future))
            except _OWNERS_BUDGET:
                return await self.aget_or_compute(key, fn)  # the computing task ran out of its own time
        try:
            computed = await fn()
        except BaseException as exc:
            self._release(key, self._ainflight, slot)
            future.set_exception(exc)
            future.exception()
            raise
        self._release(key, self._ainflight, slot, computed, ok=True)
        future.set_result(computed)
        return computed
