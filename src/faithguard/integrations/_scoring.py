"""Scoring off the response path: a bounded queue, daemon workers, and back-pressure by sampling.

The proxy answers the client at upstream speed and hands the answer's scoring to this queue.
Up to half full, every answer is queued. Past half, only one answer in ``sample_every`` is
queued ("sampled_out" counts the rest); when full, answers are not queued ("dropped"). A job
that is not run calls its ``skip`` callback, which closes the call's guard span unscored, so
memory stays bounded and every span still ends. Each worker rests after a job in proportion to
its length (``duty`` 0.5: as long as the job took), so scoring, which holds the GIL, leaves the
event loop at least half of the interpreter's time; the queue sheds the load that does not fit.
Counts are kept here and as the ``faithguard.proxy.scoring.skipped`` counter (attribute ``reason``).
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

__all__ = ["ScoringQueue"]

log = logging.getLogger("faithguard.proxy")


@dataclass
class _Job:
    run: Callable[[], None]
    skip: Callable[[], None]


class ScoringQueue:
    """Bounded background scoring with sampling under load; daemon workers never hold up exit."""

    def __init__(
        self, maxsize: int = 256, *, workers: int = 1, sample_every: int = 4, duty: float = 0.5, meter: Any = None
    ) -> None:
        if maxsize < 1 or workers < 1 or sample_every < 1 or not 0 < duty <= 1:
            raise ValueError("maxsize, workers and sample_every must be >= 1, and 0 < duty <= 1")
        self.maxsize, self.sample_every, self.duty = maxsize, sample_every, duty
        self._queue: queue.Queue[_Job | None] = queue.Queue(maxsize=maxsize)
        self._lock = threading.Lock()
        self._seen_busy = 0
        self.counts = {"queued": 0, "scored": 0, "failed": 0, "sampled_out": 0, "dropped": 0}
        self._skipped = (
            meter.create_counter(
                "faithguard.proxy.scoring.skipped", unit="{answer}", description="Answers the proxy did not score"
            )
            if meter is not None
            else None
        )
        self._stopping = False
        self._threads = [
            threading.Thread(target=self._work, name=f"faithguard-proxy-scoring-{i}", daemon=True)
            for i in range(workers)
        ]
        for t in self._threads:
            t.start()

    @property
    def depth(self) -> int:
        """Answers waiting to be scored."""
        return self._queue.qsize()

    def submit(self, run: Callable[[], None], skip: Callable[[], None]) -> str:
        """Queue ``run``; returns "queued", "sampled_out" or "dropped" (then ``skip`` has been called)."""
        with self._lock:
            if self._stopping:
                decision = "dropped"
            elif self._queue.qsize() >= self.maxsize // 2 and self.maxsize > 1:
                self._seen_busy += 1
                decision = "queued" if self._seen_busy % self.sample_every == 0 else "sampled_out"
            else:
                decision = "queued"
            if decision == "queued":
                try:
                    self._queue.put_nowait(_Job(run, skip))
                except queue.Full:
                    decision = "dropped"
            self.counts[decision] += 1
        if decision != "queued":
            self._skip(skip, decision)
        return decision

    def _skip(self, skip: Callable[[], None], reason: str) -> None:
        if self._skipped is not None:
            self._skipped.add(1, {"reason": reason})
        try:
            skip()
        except Exception:  # closing a span must not break the request path
            log.debug("skip callback failed", exc_info=True)

    def _work(self) -> None:
        while True:
            job = self._queue.get()
            if job is None:
                self._queue.task_done()
                return
            started = time.monotonic()
            try:
                job.run()
                outcome = "scored"
            except Exception:  # one failed scoring never stops the worker
                log.warning("background scoring failed", exc_info=True)
                outcome = "failed"
            with self._lock:
                self.counts[outcome] += 1
            self._queue.task_done()
            if self.duty < 1 and not self._stopping:
                # Scoring is CPU work under the GIL: rest in proportion, so the event loop answering
                # clients gets the interpreter at least (1 - duty) of the time. Load beyond that is shed.
                time.sleep((time.monotonic() - started) * (1 - self.duty) / self.duty)

    def join(self, timeout: float | None = None) -> bool:
        """Wait until every queued answer is scored; False on timeout."""
        with self._queue.all_tasks_done:
            return self._queue.all_tasks_done.wait_for(lambda: not self._queue.unfinished_tasks, timeout)

    def stop(self, timeout: float = 2.0) -> None:
        """Skip what is still queued (counted as dropped), then wait up to ``timeout`` for running jobs."""
        with self._lock:
            self._stopping = True
        while True:
            try:
                job = self._queue.get_nowait()
            except queue.Empty:
                break
            self._queue.task_done()
            if job is not None:
                with self._lock:
                    self.counts["dropped"] += 1
                self._skip(job.skip, "shutdown")
        for _ in self._threads:
            self._queue.put(None)
        for t in self._threads:
            t.join(timeout=timeout / len(self._threads))

    def stats(self) -> dict[str, int]:
        """Counts so far, and the current depth."""
        with self._lock:
            return {**self.counts, "depth": self._queue.qsize(), "capacity": self.maxsize}
