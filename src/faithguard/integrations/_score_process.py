"""Scoring in a worker process: the proxy's answers scored outside the interpreter that serves clients.

Scoring is CPU work in Python: on a thread of the proxy it holds the interpreter lock that the
event loop needs, so every client waits behind it. :class:`ScoringProcess` runs it in a child
process instead (``spawn``: a fresh interpreter, no inherited threads) at a lower CPU priority, so
the operating system gives the request path the cores first and scoring the rest. The child builds
its own guard from a picklable factory, is sent the call's messages, documents, model and answer,
and returns the :class:`~faithguard.models.Report` and how many of its verdicts are the input
stage's; the proxy finishes the call (span, metrics, events, ``on_report``) with
:meth:`~faithguard.lifecycle.GuardedCall.complete`. The child never logs content; its failures
reach the proxy as exception type names only.

One request at a time per process (the proxy's scoring queue feeds it from one thread). If the
child dies, the answer in flight gets an ``undetermined`` report and the next one starts a new
child; when a child cannot be started (the factory raises, the start times out, the platform refuses),
:meth:`ScoringProcess.score` raises :class:`ScorerUnavailable` from then on and the proxy scores in
its own process.

Bounded work and memory. Each answer has its own time limit (:meth:`ScoringProcess.score`'s
``timeout``): past it the child is ended, :class:`ScorerTimedOut` says so, and the next answer starts
a new child. The child is recycled (ended between two answers; the next answer starts a new one) after
``recycle_answers`` answers or once its resident memory exceeds ``recycle_rss_mb`` (read from
``/proc``; where there is no ``/proc`` only the answer count applies). Provenance of the defaults
(``benchmarks/bench_proxy_scorer.py``, the dev traffic, AMD EPYC, Python 3.11): see
:data:`RECYCLE_RSS_MB` and :data:`RECYCLE_ANSWERS`.
"""

from __future__ import annotations

import contextlib
import gc
import logging
import multiprocessing
import os
import pickle
import signal
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import TYPE_CHECKING, Any

from faithguard.models import Report

if TYPE_CHECKING:
    from faithguard.guard import Guard

__all__ = [
    "RECYCLE_ANSWERS",
    "RECYCLE_RSS_MB",
    "ScoreRequest",
    "ScoreResult",
    "ScorerFailed",
    "ScorerTimedOut",
    "ScorerUnavailable",
    "ScoringProcess",
]

log = logging.getLogger("faithguard.proxy")
_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096

#: Niceness added to the scoring process: the request path gets the CPU first when both want it.
#: Provenance: Linux CFS weights, nice 0 vs 10 is about 1024 vs 110, so a busy scorer takes ~10% of a
#: core the event loop also wants and all of an idle one.
SCORER_NICE = 10
#: Seconds a new scoring process may take to build its guard (spaCy and wordfreq load in a few).
START_TIMEOUT = 120.0
#: Recycle the child once its resident memory exceeds this (MiB). Provenance: bench_proxy_scorer.py over
#: 5,000 answers of the dev traffic (663 distinct queries): 425 MiB after start, 616 after the first pass
#: (caches filling), then 617 -> 637 over 4,337 cached answers; 1024 is 1.6x that level, so only growth
#: beyond what the caches explain recycles.
RECYCLE_RSS_MB = 1024.0
#: Recycle the child after this many answers (the bound where /proc cannot be read). Provenance: the same
#: run: after the caches fill, ~4.7 KiB per answer (20 MiB / 4,337); 50,000 answers add ~230 MiB, keeping
#: the measured child under RECYCLE_RSS_MB; a recycle costs a restart (2.6 s there) and cold caches.
RECYCLE_ANSWERS = 50_000


@dataclass(frozen=True)
class ScoreRequest:
    """What the scoring process needs to score one answer (plain data: it is pickled)."""

    messages: list[Any]
    documents: list[Any] | None
    model: str | None
    text: str


@dataclass(frozen=True)
class ScoreResult:
    """The report of one answer, and how many of its first verdicts the input stage gave."""

    report: Report
    input_verdicts: int


class ScorerFailed(RuntimeError):
    """The scoring process failed on one answer (it died, or scoring raised); the message is a type name."""


class ScorerTimedOut(ScorerFailed):
    """One answer took longer than its time limit to score; the child was ended (the next answer starts one)."""


class ScorerUnavailable(RuntimeError):
    """No scoring process could be started."""


def _serve(conn: Connection, factory: Callable[[], Guard], nice: int) -> None:
    """The child: build the guard, then score requests until the pipe closes or ``None`` arrives."""
    from faithguard.lifecycle import GuardedCall
    from faithguard.policy import Policy

    if hasattr(signal, "SIGINT"):
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the proxy's to handle; it closes the pipe
    with contextlib.suppress(AttributeError, OSError):  # else scoring competes evenly for the CPU
        os.nice(nice)
    try:
        guard = factory()
    except Exception as exc:  # noqa: BLE001 - said to the proxy by type, which falls back
        conn.send(("failed", type(exc).__name__))
        return
    gc.freeze()  # the guard's models live as long as this process: full collections skip them
    conn.send(("ready", None))
    policy = Policy.observe()  # the proxy's policy decides; here only the report is wanted
    try:
        while True:
            try:
                request = conn.recv()
            except (EOFError, OSError):
                return
            if request is None:
                return
            try:
                call = GuardedCall(
                    guard,
                    policy,
                    messages=request.messages,
                    documents=request.documents,
                    model=request.model,
                    provider="openai",
                )
                report = call.after(text=request.text, background=False).report
                if not isinstance(report, Report) or call.run is None:
                    raise RuntimeError("no report")
                reply: tuple[str, Any] = ("ok", ScoreResult(report, call.run.input_verdicts))
            except Exception as exc:  # noqa: BLE001 - one answer's failure, reported by type
                reply = ("error", type(exc).__name__)
            try:
                conn.send(reply)
            except OSError:
                return  # the proxy closed the pipe (it stopped, or ended this answer's wait): nothing to tell it
            except Exception as exc:  # noqa: BLE001 - a finding that cannot travel (pickled whole before a byte)
                try:
                    conn.send(("error", type(exc).__name__))
                except OSError:
                    return
    finally:
        guard.close()


class ScoringProcess:
    """A child process that scores answers with its own guard; started on first use or by :meth:`start`.

    ``recycle_answers`` / ``recycle_rss_mb`` (None: no such limit) bound the child's life (module docs).
    """

    def __init__(
        self,
        factory: Callable[[], Guard],
        *,
        start_timeout: float = START_TIMEOUT,
        recycle_answers: int | None = RECYCLE_ANSWERS,
        recycle_rss_mb: float | None = RECYCLE_RSS_MB,
    ) -> None:
        if (recycle_answers is not None and recycle_answers < 1) or (
            recycle_rss_mb is not None and recycle_rss_mb <= 0
        ):
            raise ValueError("recycle_answers must be >= 1 and recycle_rss_mb > 0 (or None: no limit)")
        self.factory, self.start_timeout = factory, start_timeout
        self.recycle_answers, self.recycle_rss_mb = recycle_answers, recycle_rss_mb
        self._lock = threading.Lock()
        self._proc: Any = None
        self._conn: Connection | None = None
        self._failed = False
        self._stopped = False
        self._answers = 0  # answered by the running child
        self.counts = {"started": 0, "crashed": 0, "timed_out": 0, "recycled": 0}

    @property
    def stopped(self) -> bool:
        """Whether :meth:`stop` was called."""
        return self._stopped

    @property
    def available(self) -> bool:
        """False once a start has failed, or after :meth:`stop`."""
        return not self._stopped and not self._failed

    def start(self) -> bool:
        """Start the child now unless it runs; False when it could not be started."""
        with self._lock:
            return self._ensure()

    def _ensure(self) -> bool:
        if self._stopped:
            self._close()  # a stop() that could not take the lock while a start was in progress
            return False
        if self._conn is not None and self._proc is not None and self._proc.is_alive():
            return True
        self._close()
        if not self.available:
            return False
        ctx = multiprocessing.get_context("spawn")
        parent, child = ctx.Pipe()
        proc = ctx.Process(
            target=_serve, args=(child, self.factory, SCORER_NICE), name="faithguard-proxy-scorer", daemon=True
        )
        try:
            with _sigint_blocked():  # the child starts with Ctrl-C blocked, then ignores it
                proc.start()
            child.close()
            state, detail = parent.recv() if parent.poll(self.start_timeout) else ("failed", "start timed out")
        except Exception as exc:  # noqa: BLE001 - any start failure (e.g. a daemonic parent): fall back
            state, detail = "failed", type(exc).__name__
        if state != "ready":
            self._failed = True
            log.warning("scoring process did not start (%s)", detail)
            parent.close()
            child.close()  # closing twice is harmless; a start that raised left it open
            if proc.pid is not None:  # a process that never started cannot be joined
                _end(proc)
            return False
        self._proc, self._conn, self._answers = proc, parent, 0
        self.counts["started"] += 1
        if self._stopped:  # stopped while it was starting: end it now rather than keep a child nobody stops
            self._close()
            return False
        return True

    def score(self, request: ScoreRequest, timeout: float) -> ScoreResult:
        """Score one answer in the child, waiting up to ``timeout`` seconds.

        Raises :class:`ScorerUnavailable` when no child can be started, :class:`ScorerTimedOut` when the
        answer took longer than ``timeout`` (the child is then ended), :class:`ScorerFailed` when the child
        died or could not score this answer. After the answer, a child past its recycling limits is ended.
        """
        with self._lock:
            if not self._ensure():
                raise ScorerUnavailable("no scoring process")
            conn = self._conn
            assert conn is not None
            try:
                conn.send(request)  # pickled whole before a byte is written: a failure leaves the pipe clean
            except (pickle.PicklingError, TypeError, AttributeError, RecursionError) as exc:
                raise ScorerFailed(type(exc).__name__) from None
            except (OSError, ValueError):
                pass  # the child is gone: poll and recv below say so
            try:
                ready = conn.poll(timeout)
                if ready:
                    kind, value = conn.recv()
            except (OSError, EOFError, ValueError, pickle.UnpicklingError) as exc:
                self.counts["crashed"] += 1
                log.warning("scoring process lost (%s); a new one starts with the next answer", type(exc).__name__)
                self._close(grace=0.0)
                raise ScorerFailed(type(exc).__name__) from None
            except BaseException:
                # anything else between send and recv (an interrupt, a bad timeout value): the child may still
                # answer this request, so it is ended now, or the next answer would read this one's reply
                self._close(grace=0.0)
                raise
            if not ready:
                self.counts["timed_out"] += 1
                log.warning("scoring one answer took over %g s: the scoring process is ended", timeout)
                self._close(grace=0.0)  # it is busy with the answer: end it now
                raise ScorerTimedOut(f"longer than {timeout:g} s")
            self._answers += 1
            self._recycle_if_due()
        if kind != "ok":
            raise ScorerFailed(str(value))
        assert isinstance(value, ScoreResult)
        return value

    def _recycle_if_due(self) -> None:
        """End the child (between answers) once it has answered ``recycle_answers`` or outgrown ``recycle_rss_mb``."""
        by_count = self.recycle_answers is not None and self._answers >= self.recycle_answers
        rss = self.rss_mb() if self.recycle_rss_mb is not None and not by_count else None
        if not by_count and (rss is None or self.recycle_rss_mb is None or rss <= self.recycle_rss_mb):
            return
        self.counts["recycled"] += 1
        why = f"{self._answers} answers" if by_count else f"RSS {rss:.0f} MiB over {self.recycle_rss_mb:g}"
        log.info("scoring process recycled after %s; a new one starts with the next answer", why)
        self._close()

    def rss_mb(self) -> float | None:
        """The running child's resident memory in MiB (Linux ``/proc``); None without a child or ``/proc``."""
        proc = self._proc
        if proc is None or proc.pid is None:
            return None
        try:
            with open(f"/proc/{proc.pid}/statm", encoding="ascii") as statm:
                resident = int(statm.read().split()[1])
        except (OSError, ValueError, IndexError):
            return None
        return resident * _PAGE / (1024 * 1024)

    def _close(self, grace: float = 1.0) -> None:
        conn, proc, self._conn, self._proc = self._conn, self._proc, None, None
        if conn is not None:
            with contextlib.suppress(OSError, ValueError):
                conn.send(None)
            conn.close()
        if proc is not None:
            _end(proc, grace)

    def stop(self) -> None:
        """End the child (it finishes the answer in hand first, for up to a second) and start no other."""
        self._stopped = True
        if self._lock.acquire(timeout=2.0):
            try:
                self._close()
            finally:
                self._lock.release()
        elif self._proc is not None:  # a score() is waiting on the child: end it under that call
            _end(self._proc, grace=0.0)

    def pid(self) -> int | None:
        """The running child's process id (for tests and diagnostics)."""
        proc = self._proc
        return proc.pid if proc is not None and proc.is_alive() else None


def _end(proc: Any, grace: float = 1.0) -> None:
    """Let the child exit by itself for ``grace`` seconds, then terminate, then kill it."""
    proc.join(timeout=grace)
    for stop in (proc.terminate, proc.kill):
        if not proc.is_alive():
            break
        stop()
        proc.join(timeout=1.0)


@contextlib.contextmanager
def _sigint_blocked() -> Iterator[None]:
    """Block SIGINT in this thread while a child is spawned (the child inherits the mask), then restore
    this thread's mask as it was: a thread that had SIGINT blocked before keeps it blocked."""
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    before = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)
