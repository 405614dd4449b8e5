"""The Dask engine on a real LocalCluster: same reports and summary as the local engine."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from eval_fixtures import sample_rows, write_jsonl

from faithguard.evaluate.runner import EvalConfig, GuardSpec, load_reports, run_eval

pytest.importorskip("distributed")


def test_dask_engine_matches_local_engine(tmp_path: Path) -> None:
    src = write_jsonl(tmp_path / "log.jsonl", sample_rows(40), extra_lines=["not json"])
    spec = GuardSpec("eval_fixtures:make_guard")
    local = run_eval(EvalConfig(input=src, out=tmp_path / "local", guard=spec, progress=False))
    # a first partial run, then the Dask run resumes it
    run_eval(EvalConfig(input=src, out=tmp_path / "dask", guard=spec, progress=False, limit=5))
    dask = run_eval(
        EvalConfig(input=src, out=tmp_path / "dask", guard=spec, progress=False, engine="dask", workers=2, chunk_size=7)
    )
    assert dask.processed == 35 and dask.skipped == 5 and dask.bad_rows == 1
    assert len(dask.worker_memory) == 2  # both worker processes took chunks
    for mem in dask.worker_memory.values():
        assert 0 < mem["first"] <= mem["peak"] and mem["chunks"] >= 1
    assert sum(m["chunks"] for m in dask.worker_memory.values()) == 5  # 35 rows in chunks of 7

    def by_key(p: Path) -> dict[str, object]:
        return {r["key"]: r["report"]["constraints"] for r in load_reports(p)}

    assert by_key(dask.reports_path) == by_key(local.reports_path)
    strip = ("run",)
    d = {k: v for k, v in json.loads(dask.summary_path.read_text()).items() if k not in strip}
    loc = {k: v for k, v in json.loads(local.summary_path.read_text()).items() if k not in strip}
    assert d == loc


@pytest.mark.parametrize("chunk_size", [3, 1])
def test_a_row_that_kills_its_worker_is_an_error_row_and_the_run_finishes(tmp_path: Path, chunk_size: int) -> None:
    """The chunk whose worker died is evaluated again row by row: the row at fault is recorded as an error, the rest
    of the chunk and of the run are evaluated, and the summary is written (the run had raised KilledWorker; with
    single-row chunks a failure must still refill the window, or the rows after it were never run)."""
    rows = sample_rows(6)
    for i in (2, 3):  # two in a row: with single-row chunks both slots of the window fail at once
        rows[i] = {**rows[i], "response": "POISON " + str(rows[i]["response"])}
    src = write_jsonl(tmp_path / "log.jsonl", rows)
    spec = GuardSpec("eval_fixtures:make_poisoned_guard")
    config = EvalConfig(
        input=src, out=tmp_path / "out", guard=spec, progress=False, engine="dask", workers=1, chunk_size=chunk_size
    )
    result = run_eval(config)
    entries = {r["key"]: r for r in load_reports(result.reports_path)}
    assert len(entries) == 6 and result.summary_path.is_file()
    failed = sorted(r["line"] for r in entries.values() if r["status"] == "error")
    assert failed == [3, 4]
    assert json.loads(result.summary_path.read_text())["rows"]["errors"] == 2
