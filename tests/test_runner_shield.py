"""Issue 16: an abandoned call's interrupt never lands inside a section shared code shields (its cleanup)."""

from __future__ import annotations

import threading
import time
from typing import Any

from faithguard import Category, Constraint, Guard, Tier
from faithguard.interrupts import _SECTIONS, Interrupted, interrupt, shielded
from faithguard.plugins import make_plugin_manager
from faithguard.testing import KeywordDetector, RestoringDetector, StaticDecomposer

WAIT = 30.0  # generous waits for events (never a timing assertion)
PARIS = [Constraint(id="c1", text="paris", category=Category.LOCATION, tier=Tier.MANDATORY)]


def guard_with(*extra: Any, max_workers: int = 2) -> Guard:
    pm, _ = make_plugin_manager(load_entrypoints=False, defaults=False)
    return Guard(
        plugin_manager=pm,
        decomposer=StaticDecomposer(PARIS),
        extra_detectors=[KeywordDetector(), *extra],
        judge=None,
        max_workers=max_workers,
    )


def test_an_unshielded_cleanup_is_cut_short_by_the_interrupt() -> None:
    # the failure the shield exists for: the interrupt lands in the finally, the global state stays changed
    det = RestoringDetector(shield=False, timeout=0.05)
    guard = guard_with(det)
    report = guard.check("Name a museum in Paris", "Paris has the Louvre.")
    assert [e.error_type for e in report.errors] == ["timeout"]
    assert det.stopped.wait(WAIT), "the abandoned call was not interrupted"
    assert det.state["value"] == "changed" and not det.after_section.is_set()
    det.release()
    guard.close()


def test_a_shielded_cleanup_runs_to_its_end_and_the_call_stops_after_it() -> None:
    det = RestoringDetector(shield=True, timeout=0.05)
    guard = guard_with(det)
    report = guard.check("Name a museum in Paris", "Paris has the Louvre.")
    # the guard stopped waiting (and sent the interrupt) before check returned; the cleanup still spins
    assert [e.error_type for e in report.errors] == ["timeout"]
    assert det.entered.is_set() and not det.stopped.is_set()
    assert det.state["value"] == "changed"
    det.release()
    assert det.stopped.wait(WAIT)
    assert det.state["value"] == "original"  # the cleanup was not cut
    assert not det.after_section.is_set()  # the held interrupt stopped the call where the section ended
    guard.close()


def test_the_worker_of_a_shielded_interrupted_call_serves_the_next_call() -> None:
    det = RestoringDetector(shield=True, timeout=0.05)
    guard = guard_with(det, max_workers=1)
    first = guard.check("Name a museum in Paris", "Paris has the Louvre.")
    assert [e.error_type for e in first.errors] == ["timeout"]
    det.release()
    assert det.stopped.wait(WAIT)
    deadline = time.monotonic() + WAIT
    while guard._pool._abandoned and time.monotonic() < deadline:
        time.sleep(0.01)
    assert guard._pool._abandoned == 0 and not guard._pool.stuck(det.name)
    det.stopped.clear()
    det.after_section.clear()
    # released: the next call's cleanup is quick, and no interrupt is left over for it
    later = guard.check("Name a museum in Paris", "Paris has the Louvre.")
    assert later.errors == []
    assert det.after_section.is_set() and det.state["value"] == "original"
    assert not _SECTIONS
    guard.close()


def test_nested_sections_hold_the_interrupt_until_the_outermost_ends() -> None:
    entered, inner_left, caught, after = (threading.Event() for _ in range(4))
    gates = [threading.Event(), threading.Event()]

    def spin(gate: threading.Event) -> None:
        while not gate.is_set():
            pass

    def body() -> None:
        try:
            with shielded():
                with shielded():
                    entered.set()
                    spin(gates[0])
                inner_left.set()
                spin(gates[1])
            after.set()
            spin(threading.Event())  # never released: only the interrupt ends it
        except Interrupted:
            caught.set()

    thread = threading.Thread(target=body, daemon=True)
    thread.start()
    assert entered.wait(WAIT)
    assert thread.ident is not None and interrupt(thread.ident)
    gates[0].set()
    assert inner_left.wait(WAIT)  # leaving the inner section did not deliver it
    assert not caught.is_set()
    gates[1].set()
    assert caught.wait(WAIT)
    assert not after.is_set()  # delivered on leaving the outer section, before the code after it
    thread.join(WAIT)
    assert not _SECTIONS


def test_an_interrupt_outside_any_section_lands_at_once() -> None:
    started, caught = threading.Event(), threading.Event()

    def body() -> None:
        try:
            started.set()
            while True:
                pass
        except Interrupted:
            caught.set()

    thread = threading.Thread(target=body, daemon=True)
    thread.start()
    assert started.wait(WAIT)
    assert thread.ident is not None and interrupt(thread.ident)
    assert caught.wait(WAIT)
    thread.join(WAIT)


def test_a_section_without_an_interrupt_changes_nothing() -> None:
    with shielded(), shielded():
        value = 1
    assert value == 1 and not _SECTIONS
    try:
        with shielded():
            raise KeyError("x")
    except KeyError:
        pass
    assert not _SECTIONS
