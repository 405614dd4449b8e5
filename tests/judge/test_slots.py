"""The judge's concurrency slots: a bound on concurrent calls that an interrupt never shrinks."""

from __future__ import annotations

import sys
import threading
import time

from faithguard.interrupts import Interrupted, _raise_in
from faithguard.judge.budget import slots


def _free(slot: object) -> int:
    return int(slot.__enter__.__self__.qsize())  # type: ignore[attr-defined]


def test_slots_bound_concurrent_holders() -> None:
    slot = slots(2)
    inside = threading.Barrier(3)
    release = threading.Event()
    third: list[str] = []

    def hold() -> None:
        with slot:
            inside.wait(5)
            release.wait(5)

    holders = [threading.Thread(target=hold) for _ in range(2)]
    for t in holders:
        t.start()
    inside.wait(5)  # both slots taken
    waiter = threading.Thread(target=lambda: (slot.__enter__(), third.append("in")), daemon=True)
    waiter.start()
    waiter.join(0.3)
    assert waiter.is_alive() and third == []  # the third waits for a slot
    release.set()
    waiter.join(5)
    assert third == ["in"]


def test_interrupts_landing_anywhere_never_keep_a_slot() -> None:
    # raw asynchronous exceptions (not even held by shielded sections) at random points of a take/give-back loop:
    # threading.BoundedSemaphore, Python code, lost slots this way
    slot = slots(4)
    stop = threading.Event()
    hits = [0]

    def worker() -> None:
        while not stop.is_set():
            try:
                while not stop.is_set():
                    with slot:
                        pass
            except Interrupted:
                hits[0] += 1

    old = sys.getswitchinterval()
    sys.setswitchinterval(0.0005)
    try:
        t = threading.Thread(target=worker, daemon=True)
        t.start()
        t0 = time.monotonic()
        while time.monotonic() - t0 < 1.0:
            _raise_in(t.ident or 0)
            time.sleep(0.0003)
        stop.set()
        t.join(5)
    finally:
        sys.setswitchinterval(old)
    assert hits[0] > 50  # the interrupts did land
    assert _free(slot) == 4
