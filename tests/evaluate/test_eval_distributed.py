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
