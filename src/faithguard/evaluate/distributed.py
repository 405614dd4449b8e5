"""The Dask engine: the same evaluation, chunked over a distributed LocalCluster (processes).

Each worker process builds its Guard once (a per-process cache keyed by the run) and returns
the same per-row entries as the local engine; the driver writes them through the same writer,
so reports.jsonl, resume and the summary do not depend on the engine.
"""

from __future__ import annotations

import importlib
import itertools
import logging
import os
import threading
import uuid
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from faithguard.evaluate.records import Row

if TYPE_CHECKING:
    from faithguard.evaluate.runner import EvalConfig, ReportWriter, _Progress
    from faithguard.guard import Guard

__all__ = ["process_chunk", "run_dask", "worker_rss"]

_GUARDS: dict[str, Guard] = {}
_LOCK = threading.Lock()


def _guard_for(token: str, factory: Callable[[], Guard]) -> Guard:
    """This process's guard for ``token`` (built on first use; one guard kept per process)."""
    with _LOCK:
        guard = _GUARDS.get(token)
        if guard is None:
            for old in _GUARDS.values():
                old.close()
            _GUARDS.clear()
            guard = _GUARDS[token] = factory()
        return guard


def worker_rss() -> int:
    """Resident memory of this process in bytes."""
    psutil: Any = importlib.import_module("psutil")
    return int(psutil.Process().memory_info().rss)


def process_chunk(token: str, factory: Callable[[], Guard], rows: list[Row]) -> tuple[list[dict[str, Any]], str, int]:
    """Evaluate one chunk on a worker: (entries, worker pid, RSS after the chunk)."""
    from faithguard.evaluate.runner import evaluate_row

    guard = _guard_for(token, factory)
    entries = [evaluate_row(guard, row) for row in rows]
    return entries, str(os.getpid()), worker_rss()


def _chunks(rows: Iterator[Row], size: int) -> Iterator[list[Row]]:
    while True:
        chunk = list(itertools.islice(rows, size))
        if not chunk:
            return
        yield chunk


def run_dask(
    config: EvalConfig, rows: Iterator[Row], writer: ReportWriter, progress: _Progress
) -> dict[str, dict[str, int]]:
    """Evaluate ``rows`` on a Dask cluster; returns per worker pid its RSS after the first chunk, peak, chunks."""
    from faithguard.evaluate.runner import GuardSpec, failed_entry

    dist: Any = importlib.import_module("distributed")
    Client, LocalCluster, as_completed = dist.Client, dist.LocalCluster, dist.as_completed
    cluster: Any = None
    if config.scheduler:
        client = Client(config.scheduler)
    else:
        cluster = LocalCluster(
            n_workers=config.workers,
            processes=True,
            threads_per_worker=1,
            dashboard_address=":0",  # a free port: never clash with another cluster on this host
            host="127.0.0.1",
            silence_logs=logging.ERROR,
        )
        client = Client(cluster)
    # A GuardSpec is a plain recipe: workers of a long-lived cluster reuse the guard across runs.
    token = repr(config.guard) if isinstance(config.guard, GuardSpec) else uuid.uuid4().hex
    memory: dict[str, dict[str, int]] = {}
    try:
        chunks = _chunks(rows, config.chunk_size)
        window = 2 * max(1, len(client.scheduler_info().get("workers", {})) or config.workers)
        pending = as_completed()
        carried: dict[Any, list[Row]] = {}

        def submit(chunk: list[Row]) -> None:
            future = client.submit(process_chunk, token, config.guard, chunk, pure=False)
            carried[future] = chunk
            pending.add(future)

        for chunk in itertools.islice(chunks, window):
            submit(chunk)
        for future in pending:
            chunk = carried.pop(future)
            try:
                entries, pid, rss = future.result()
            except Exception as exc:  # noqa: BLE001 - a chunk that kills its worker must not end the run
                future.release()
                if len(chunk) > 1:  # find the row at fault: each row of the chunk again, alone
                    for row in chunk:
                        submit([row])
                else:
                    writer.write(failed_entry(chunk[0], f"{type(exc).__name__} while evaluating it on a worker"))
                    progress.advance(1)
                    nxt = next(chunks, None)  # keep the window full: the rest of the input still runs
                    if nxt is not None:
                        submit(nxt)
                continue
            for entry in entries:
                writer.write(entry)
            progress.advance(len(entries))
            seen = memory.setdefault(pid, {"first": rss, "peak": rss, "chunks": 0})
            seen["peak"] = max(seen["peak"], rss)
            seen["chunks"] += 1
            future.release()
            nxt = next(chunks, None)
            if nxt is not None:
                submit(nxt)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
    return memory
