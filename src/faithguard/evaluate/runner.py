"""Batch evaluation of a logged JSONL/CSV file: resumable, concurrent, local or on Dask.

Per-row reports go to ``reports.jsonl`` (one JSON object per row, keyed by the row id or
``line:N``), appended and flushed row by row; a re-run skips keys already there, so a crash
loses at most the rows in flight. Bad input rows go to ``bad_rows.jsonl`` with their line.
The summary (``summary.json``) is always computed from the whole reports file.
"""

from __future__ import annotations

import importlib
import json
import os
import sys
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, Literal

from faithguard.errors import ConfigError
from faithguard.evaluate.records import BadRow, Row, count_rows, read_records
from faithguard.evaluate.summary import RowFacts, facts_from_row, summarize

if TYPE_CHECKING:
    from faithguard.guard import Guard
    from faithguard.models import Report

__all__ = ["EvalConfig", "EvalResult", "GuardSpec", "evaluate_row", "load_reports", "run_eval"]

REPORTS = "reports.jsonl"
BAD_ROWS = "bad_rows.jsonl"
SUMMARY = "summary.json"
HTML = "report.html"


@dataclass(frozen=True)
class GuardSpec:
    """A picklable recipe for a Guard: ``factory`` ("module:callable") or ``Guard(**options)``."""

    factory: str | None = None
    options: tuple[tuple[str, Any], ...] = ()

    def __call__(self) -> Guard:
        """Build the guard (once per process or run)."""
        kwargs = dict(self.options)
        if self.factory:
            module_name, _, attr = self.factory.partition(":")
            if not attr:
                raise ConfigError(f"guard factory must be 'module:callable', got {self.factory!r}")
            try:
                factory = importlib.import_module(module_name).__dict__[attr]
            except (ImportError, KeyError) as exc:
                raise ConfigError(f"guard factory {self.factory!r} cannot be loaded ({type(exc).__name__})") from exc
            from faithguard.guard import Guard

            if not callable(factory):
                raise ConfigError(f"guard factory {self.factory!r} is not callable")
            try:
                built = factory(**kwargs)
            except TypeError as exc:  # a factory that does not take an option the command passes (judge=None)
                raise ConfigError(f"guard factory {self.factory!r} does not take {sorted(kwargs)}: {exc}") from exc
            if not isinstance(built, Guard):
                raise ConfigError(f"guard factory {self.factory!r} returned a {type(built).__name__}, not a Guard")
            return built
        from faithguard.guard import Guard

        return Guard(**kwargs)


@dataclass
class EvalConfig:
    """Settings of one evaluation run."""

    input: Path
    out: Path
    fmt: str | None = None
    engine: Literal["local", "dask"] = "local"
    workers: int = 2
    concurrency: int = 1
    chunk_size: int = 200
    html: bool = False
    resume: bool = True
    limit: int | None = None
    progress: bool | None = None
    scheduler: str | None = None
    guard: Callable[[], Guard] = field(default_factory=GuardSpec)


@dataclass
class EvalResult:
    """What a run did and where it wrote."""

    summary: dict[str, Any]
    reports_path: Path
    summary_path: Path
    bad_rows_path: Path
    html_path: Path | None
    processed: int
    skipped: int
    bad_rows: int
    seconds: float
    #: Dask engine: per worker pid, RSS bytes after its first chunk ("first"), the peak, chunks done.
    worker_memory: dict[str, dict[str, int]] = field(default_factory=dict)


def _entry(row: Row, report: Report | None, error: str | None, seconds: float) -> dict[str, Any]:
    """The reports.jsonl entry of one row: its report, or the error that stopped it."""
    rec = row.record
    entry: dict[str, Any] = {"key": row.key, "line": row.line, "status": "error" if report is None else "ok"}
    entry["error"] = None if error is None else error[:500]
    entry["report"] = None if report is None else report.model_dump(mode="json")
    entry.update(seconds=round(seconds, 6), gold=rec.gold())
    if rec.model_extra:
        entry["meta"] = rec.model_extra
    return entry


def failed_entry(row: Row, error: str) -> dict[str, Any]:
    """The reports.jsonl entry of a row no guard could evaluate (its worker died): an error row, kept in the run."""
    return _entry(row, None, error, 0.0)


def evaluate_row(guard: Guard, row: Row) -> dict[str, Any]:
    """The reports.jsonl entry of one row: its report, or the error that stopped it."""
    rec = row.record
    messages = [m.model_dump() for m in rec.messages] if rec.messages else None
    t0 = time.perf_counter()
    try:
        report = guard.check(rec.query, rec.response, documents=rec.documents or None, messages=messages)
    except Exception as exc:  # noqa: BLE001 - one row's failure is recorded, the run goes on
        return _entry(row, None, f"{type(exc).__name__}: {exc}", time.perf_counter() - t0)
    return _entry(row, report, None, time.perf_counter() - t0)


# -- the reports file ---------------------------------------------------------------------------


def _repair_tail(path: Path) -> None:
    """Cut a half-written last line (a crash mid-write) so appends stay one row per line."""
    if not path.exists() or path.stat().st_size == 0:
        return
    with path.open("rb+") as fh:
        end = fh.seek(0, os.SEEK_END)
        fh.seek(end - 1)
        if fh.read(1) == b"\n":
            return
        pos = end
        while pos > 0:
            step = min(65536, pos)
            pos -= step
            fh.seek(pos)
            block = fh.read(step)
            nl = block.rfind(b"\n")
            if nl >= 0:
                fh.truncate(pos + nl + 1)
                return
        fh.truncate(0)


def load_reports(path: Path) -> Iterator[dict[str, Any]]:
    """Every complete row of a reports.jsonl (an unreadable line is skipped: it will be redone)."""
    if not path.exists():
        return
    with path.open("rb") as fh:
        for raw in fh:
            if not raw.endswith(b"\n"):
                return
            try:
                row = json.loads(raw)
            except ValueError:
                continue
            if isinstance(row, dict) and "key" in row:
                yield row


class ReportWriter:
    """Appends rows to reports.jsonl, one flushed line each; thread-safe."""

    def __init__(self, path: Path, done: set[str]) -> None:
        self.path = path
        self.done = done
        self._lock = threading.Lock()
        self._fh: IO[str] = path.open("a", encoding="utf-8")
        self.written = 0

    def write(self, entry: dict[str, Any]) -> None:
        """Append one row and flush it to the OS."""
        line = json.dumps(entry, ensure_ascii=False, separators=(",", ":")) + "\n"
        with self._lock:
            if entry["key"] in self.done:
                return
            self._fh.write(line)
            self._fh.flush()
            self.done.add(entry["key"])
            self.written += 1

    def close(self) -> None:
        """Sync and close the file."""
        with self._lock:
            if not self._fh.closed:
                self._fh.flush()
                os.fsync(self._fh.fileno())
                self._fh.close()


# -- progress -----------------------------------------------------------------------------------


class _Progress:
    """A rich progress bar with rate and ETA on stderr; silent when stderr is not a terminal."""

    def __init__(self, total: int, enabled: bool | None) -> None:
        self._bar: Any = None
        self._task: Any = None
        on = enabled if enabled is not None else sys.stderr.isatty()
        if not on:
            return
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )

        self._bar = Progress(
            TextColumn("eval"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("{task.fields[rate]} rows/s"),
            TimeElapsedColumn(),
            TextColumn("ETA"),
            TimeRemainingColumn(),
            console=Console(stderr=True),
            transient=False,
        )
        self._task = self._bar.add_task("eval", total=total, rate="-")
        self._bar.start()
        self._t0 = time.perf_counter()
        self._n = 0

    def advance(self, n: int = 1) -> None:
        """Count ``n`` more rows done."""
        if self._bar is None:
            return
        self._n += n
        rate = self._n / max(1e-9, time.perf_counter() - self._t0)
        self._bar.update(self._task, advance=n, rate=f"{rate:,.1f}")

    def close(self) -> None:
        """Stop drawing."""
        if self._bar is not None:
            self._bar.stop()


# -- engines ------------------------------------------------------------------------------------


def _pending(config: EvalConfig, done: set[str], bad: list[BadRow], progress: _Progress) -> Iterator[Row]:
    """Rows still to do, in file order; bad rows collected, finished rows skipped."""
    taken = 0
    for item in read_records(config.input, config.fmt):
        if isinstance(item, BadRow):
            bad.append(item)
            progress.advance()
            continue
        if item.key in done:
            progress.advance()
            continue
        if config.limit is not None and taken >= config.limit:
            return
        taken += 1
        yield item


def _run_local(config: EvalConfig, rows: Iterator[Row], writer: ReportWriter, progress: _Progress) -> None:
    guard = config.guard()
    try:
        if config.concurrency <= 1:
            for row in rows:
                writer.write(evaluate_row(guard, row))
                progress.advance()
            return
        window = 2 * config.concurrency
        with ThreadPoolExecutor(config.concurrency, thread_name_prefix="faithguard-eval") as pool:
            inflight: set[Future[dict[str, Any]]] = set()
            for row in rows:
                inflight.add(pool.submit(evaluate_row, guard, row))
                if len(inflight) >= window:
                    finished, inflight = wait(inflight, return_when=FIRST_COMPLETED)
                    for fut in finished:
                        writer.write(fut.result())
                        progress.advance()
            for fut in inflight:
                writer.write(fut.result())
                progress.advance()
    finally:
        guard.close()


def run_eval(config: EvalConfig) -> EvalResult:
    """Evaluate ``config.input`` into ``config.out``: reports, bad rows, summary (and HTML)."""
    if config.workers < 1 or config.concurrency < 1 or config.chunk_size < 1:
        raise ValueError("workers, concurrency and chunk_size must be >= 1")
    if not config.input.is_file():
        raise FileNotFoundError(f"no input file {config.input}")
    t0 = time.perf_counter()
    config.out.mkdir(parents=True, exist_ok=True)
    reports_path = config.out / REPORTS
    if not config.resume and reports_path.exists():
        reports_path.unlink()
    _repair_tail(reports_path)
    done = {str(r["key"]) for r in load_reports(reports_path)}
    before = len(done)
    bad: list[BadRow] = []
    progress = _Progress(count_rows(config.input, config.fmt), config.progress)
    writer = ReportWriter(reports_path, done)
    rss: dict[str, dict[str, int]] = {}
    try:
        rows = _pending(config, done, bad, progress)
        if config.engine == "dask":
            from faithguard.evaluate.distributed import run_dask

            rss = run_dask(config, rows, writer, progress)
        else:
            _run_local(config, rows, writer, progress)
    finally:
        writer.close()
        progress.close()
    bad_path = config.out / BAD_ROWS
    with bad_path.open("w", encoding="utf-8") as fh:
        for b in bad:
            fh.write(json.dumps(b.to_json(), ensure_ascii=False) + "\n")
    facts: list[RowFacts] = [facts_from_row(r) for r in load_reports(reports_path)]
    summary = summarize(facts, bad_rows=len(bad))
    summary["run"] = {
        "input": str(config.input),
        "engine": config.engine,
        "workers": config.workers if config.engine == "dask" else 1,
        "concurrency": config.concurrency,
        "processed": writer.written,
        "resumed_from": before,
        "seconds": round(time.perf_counter() - t0, 3),
    }
    summary_path = config.out / SUMMARY
    summary_path.write_text(json.dumps(summary, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    html_path = None
    if config.html:
        from faithguard.evaluate.report_html import render_html

        html_path = config.out / HTML
        html_path.write_text(render_html(summary), encoding="utf-8")
    return EvalResult(
        summary=summary,
        reports_path=reports_path,
        summary_path=summary_path,
        bad_rows_path=bad_path,
        html_path=html_path,
        processed=writer.written,
        skipped=before,
        bad_rows=len(bad),
        seconds=time.perf_counter() - t0,
        worker_memory=rss,
    )
