"""Interrupting abandoned plugin calls, and the sections shared code shields from it.

A plugin call that outlives its time budget and never reaches a :func:`~faithguard.checkpoint` (a
pure-Python loop) is stopped by raising :class:`Interrupted` in its worker thread at its next
bytecode (CPython's asynchronous exception; see :class:`faithguard.runner.IsolationPool`). Such an
exception can land anywhere, including in the ``finally`` of shared code that restores global state
(a swapped module attribute, a temporary directory, a lock's bookkeeping), leaving that state broken
for every later call. Code that must not be cut there wraps the section in :func:`shielded`::

    with shielded():
        saved, module.setting = module.setting, temporary
        try:
            ...
        finally:
            module.setting = saved

An interrupt meant for a thread inside a shielded section is held and delivered when the thread
leaves its outermost shielded section (as :class:`Interrupted` raised from the ``with`` statement),
so the section always runs to its end. Keep shielded sections short: an abandoned call keeps its
thread (and the CPU) until it leaves the section. Outside a guarded plugin call :func:`shielded`
costs a few attribute updates and changes nothing.

Correctness: one lock orders the interrupter's look-then-act (is the thread in a section? mark the interrupt
pending, or send it now) against the thread's entering and leaving its sections (depth changes, and the pending
flag read on leaving the outermost one), so an interrupt is delivered exactly once and never inside a section.
An interrupt sent just before a thread enters a section lands at the section's entry, before its body runs (in
the worst case inside ``__enter__``'s own bookkeeping, which the pool's ``forget`` then clears).
"""

from __future__ import annotations

import sys
import threading
from types import TracebackType

__all__ = ["Interrupted", "interrupt", "shielded"]


class Interrupted(BaseException):
    """Raised *inside* a worker thread whose call was abandoned: a call that never reaches a checkpoint (a
    pure-Python loop) is stopped at its next bytecode instead of burning CPU forever. A call blocked in C (a
    lock, a socket) gets it when it returns to Python. Not an ``Exception``, so a plugin's ``except
    Exception`` does not swallow it."""


class _Section:
    """One thread's shielded-section state: how deep it is, and whether an interrupt waits for it."""

    __slots__ = ("depth", "pending")

    def __init__(self) -> None:
        self.depth = 0
        self.pending = False


#: thread ident -> its state, present only while the thread is inside a shielded section
_SECTIONS: dict[int, _Section] = {}
#: Orders a thread's entering and leaving its sections against an interrupter's look-then-act (taken after the
#: pool's lock, never before it).
_LOCK = threading.Lock()


def _land() -> None:
    """A call, so that an interrupt already sent to this thread is raised here (at the call's start)."""


class shielded:
    """Hold the guard's interrupt of this thread until the section ends (module docs); nests."""

    __slots__ = ("_section",)

    def __enter__(self) -> None:
        ident = threading.get_ident()
        with _LOCK:
            section = _SECTIONS.get(ident)
            if section is None:
                section = _SECTIONS[ident] = _Section()
            section.depth += 1
        self._section = section
        try:
            _land()  # an interrupt sent before the depth was visible is raised now, before the section
        except BaseException:
            with _LOCK:
                section.depth -= 1
                if section.depth == 0:
                    _SECTIONS.pop(ident, None)
            raise

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        section = self._section
        with _LOCK:
            section.depth -= 1
            if section.depth:
                return
            _SECTIONS.pop(threading.get_ident(), None)
            pending, section.pending = section.pending, False
        if pending:
            raise Interrupted  # the interrupt held while the section ran


def interrupt(ident: int) -> bool:
    """Interrupt thread ``ident``: now, or when it leaves its shielded section. False if it cannot be done.

    Call it at most once per abandoned call (the pool does, under its lock, while the call still runs).
    False, and nothing else happens, where the interpreter offers no asynchronous exception (not CPython):
    the abandoned call then keeps its thread until it returns, as a call blocked in C does.
    """
    if sys.implementation.name != "cpython":
        return False
    with _LOCK:  # the thread enters and leaves sections under the same lock: look and act as one step
        section = _SECTIONS.get(ident)
        if section is not None and section.depth > 0:
            section.pending = True
            return True
        return _raise_in(ident)


def _raise_in(ident: int) -> bool:
    """Raise :class:`Interrupted` in thread ``ident`` at its next bytecode (CPython's async exception)."""
    try:
        import ctypes

        set_async = ctypes.pythonapi.PyThreadState_SetAsyncExc
        done = int(set_async(ctypes.c_ulong(ident), ctypes.py_object(Interrupted)))
        if done > 1:  # more than one thread state touched: undo (cannot happen for a live ident)
            set_async(ctypes.c_ulong(ident), None)
            return False
        return done == 1
    except Exception:  # noqa: BLE001 - interrupting is best effort; it never breaks the guarded call
        return False


def forget(ident: int) -> None:
    """Drop thread ``ident``'s section state (the pool, when its worker finishes a call)."""
    _SECTIONS.pop(ident, None)
