from __future__ import annotations

import asyncio
import threading
import time

import pytest
from hypothesis import given
from hypothesis import strategies as st

from faithguard.cache import SingleFlightCache


def test_concurrent_thread_misses_compute_once() -> None:
    cache: SingleFlightCache[int] = SingleFlightCache(maxsize=8, ttl=60)
    calls: list[int] = []
    start = threading.Barrier(8)

    def compute() -> int:
        calls.append(1)
        time.sleep(0.05)
        return 42

    results: list[int] = []

    def worker() -> None:
        start.wait()
        results.append(cache.get_or_compute("k", compute))

    threads = [threading.Thread(target=worker) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == [42] * 8 and len(calls) == 1
    assert cache.stats.misses == 1 and cache.stats.hits == 7


def test_async_misses_compute_once_and_cached_coroutines_are_not_reused() -> None:
    cache: SingleFlightCache[str] = SingleFlightCache()
    calls = 0

    async def compute() -> str:
        nonlocal calls
        calls += 1
        await asyncio.sleep(0.02)
        return "v"

    async def main() -> list[str]:
        first = await asyncio.gather(*(cache.aget_or_compute("k", compute) for _ in range(10)))
        again = await cache.aget_or_compute("k", compute)  # a plain @cached would re-await a used coroutine
        return [*first, again]

    assert asyncio.run(main()) == ["v"] * 11 and calls == 1


def test_failures_are_not_cached_and_reach_every_waiter() -> None:
    cache: SingleFlightCache[int] = SingleFlightCache()
    attempts = 0

    def flaky() -> int:
        nonlocal attempts
        attempts += 1
        if attempts == 1:
            raise RuntimeError("first try fails")
        return 7

    with pytest.raises(RuntimeError):
        cache.get_or_compute("k", flaky)
    assert cache.get_or_compute("k", flaky) == 7 and attempts == 2

    async def boom() -> int:
        raise ValueError("async failure")

    async def main() -> None:
        with pytest.raises(ValueError):
            await cache.aget_or_compute("a", boom)
        assert await cache.aget_or_compute("a", lambda: asyncio.sleep(0, result=3)) == 3

    asyncio.run(main())


def test_bounded_and_ttl() -> None:
    cache: SingleFlightCache[int] = SingleFlightCache(maxsize=2, ttl=0.05)
    for i in range(5):
        cache.get_or_compute(i, lambda i=i: i)
    assert len(cache) == 2
    time.sleep(0.08)
    assert len(cache) == 0
    cache.get_or_compute("x", lambda: 1)
    cache.clear()
    assert len(cache) == 0


@pytest.mark.parametrize("owners_end", ["interrupted", "budget"])
def test_a_waiter_computes_itself_when_the_owners_own_budget_ends_it(owners_end: str) -> None:
    # the owner's time budget says nothing about the key: the waiter must not fail with it
    from faithguard.errors import BudgetSpent
    from faithguard.interrupts import Interrupted

    cache: SingleFlightCache[str] = SingleFlightCache()
    owner_inside = threading.Event()
    waiter_waiting = threading.Event()

    def owner_fn() -> str:
        owner_inside.set()
        waiter_waiting.wait(5)
        time.sleep(0.1)  # the waiter is blocked on the owner's future by now
        raise Interrupted() if owners_end == "interrupted" else BudgetSpent("owner", "budget spent")

    got: list[object] = []

    def waiter() -> None:
        owner_inside.wait(5)
        waiter_waiting.set()
        try:
            got.append(cache.get_or_compute("k", lambda: "computed by the waiter"))
        except BaseException as exc:  # the failure under test
            got.append(exc)

    t = threading.Thread(target=waiter)
    t.start()
    with pytest.raises((Interrupted, BudgetSpent)):
        cache.get_or_compute("k", owner_fn)
    t.join(10)
    assert got == ["computed by the waiter"]


def test_a_waiter_still_gets_the_owners_real_failure() -> None:
    cache: SingleFlightCache[int] = SingleFlightCache()
    owner_inside = threading.Event()
    release = threading.Event()

    def owner_fn() -> int:
        owner_inside.set()
        release.wait(5)
        raise ValueError("the computation itself failed")

    got: list[object] = []

    def waiter() -> None:
        owner_inside.wait(5)
        try:
            got.append(cache.get_or_compute("k", lambda: 1))
        except ValueError as exc:
            got.append(type(exc))

    def release_later() -> None:
        owner_inside.wait(5)
        time.sleep(0.1)  # the waiter is blocked on the owner's future by now
        release.set()

    t = threading.Thread(target=waiter)
    t.start()
    threading.Thread(target=release_later).start()
    with pytest.raises(ValueError):
        cache.get_or_compute("k", owner_fn)
    t.join(10)
    assert got == [ValueError]


def test_a_waiter_interrupted_itself_stops_waiting() -> None:
    # the waiter's own interrupt lands while it waits: it must not be taken for the owner's and swallowed
    from faithguard.interrupts import Interrupted, _raise_in

    cache: SingleFlightCache[str] = SingleFlightCache()
    owner_inside = threading.Event()
    release = threading.Event()
    outcome: list[object] = []

    def owner() -> None:
        cache.get_or_compute("k", lambda: (owner_inside.set(), release.wait(5), "v")[2])

    def waiter() -> None:
        owner_inside.wait(5)
        t0 = time.monotonic()
        try:
            outcome.append(cache.get_or_compute("k", lambda: "computed by the waiter"))
        except Interrupted:
            outcome.append(("interrupted", time.monotonic() - t0))

    threading.Thread(target=owner).start()
    w = threading.Thread(target=waiter)
    w.start()
    owner_inside.wait(5)
    time.sleep(0.2)
    _raise_in(w.ident or 0)
    w.join(2)
    release.set()
    assert outcome and outcome[0][0] == "interrupted"  # type: ignore[index]


@given(st.lists(st.text(max_size=8), max_size=5), st.lists(st.text(max_size=8), max_size=5))
def test_texts_key_tells_every_two_sequences_apart(a: list[str], b: list[str]) -> None:
    from faithguard.cache import texts_key

    assert (texts_key(a) == texts_key(b)) == (a == b)
    assert texts_key(["ab", "c"]) != texts_key(["a", "bc"]) != texts_key(["a\x1fbc"])  # boundaries count
