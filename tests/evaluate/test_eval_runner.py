"""The local engine end to end: reports, bad rows, summary, resume after a crash, HTML, CLI."""

from __future__ import annotations

import argparse
import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from eval_fixtures import make_crashing_guard, make_guard, sample_rows, write_jsonl

from faithguard.evaluate import plugin
from faithguard.evaluate.report_html import render_html
from faithguard.evaluate.runner import EvalConfig, GuardSpec, load_reports, run_eval
from faithguard.models import Verdict
from faithguard.testing import StaticDetector


def _keys(path: Path) -> list[str]:
    return [r["key"] for r in load_reports(path)]


def test_local_run_writes_reports_bad_rows_and_summary(tmp_path: Path) -> None:
    rows = sample_rows(12)
    src = write_jsonl(tmp_path / "log.jsonl", rows, extra_lines=["{oops", json.dumps({"query": "no response"})])
    result = run_eval(EvalConfig(input=src, out=tmp_path / "out", guard=make_guard, progress=False))
    assert result.processed == 12 and result.bad_rows == 2
    bad = [json.loads(x) for x in result.bad_rows_path.read_text().splitlines()]
    assert [b["line"] for b in bad] == [13, 14]
    assert sorted(_keys(result.reports_path)) == sorted(r["id"] for r in rows)
    s = json.loads(result.summary_path.read_text())
    assert s["rows"] == {"evaluated": 12, "ok": 12, "errors": 0, "bad_rows": 2, "with_stage_failures": 0}
    # every 3rd row omits its last keyword: 4 of 12 rows are not perfect
    assert s["perfect_rate"] == pytest.approx(8 / 12)
    assert s["difficulty"]["easy"]["rows"] + s["difficulty"]["hard"]["rows"] == 12
    # 2..6 constraints cycling: rows with k = 2, 3, 4 are easy
    assert s["difficulty"]["easy"]["rows"] == sum(1 for i in range(12) if 2 + i % 5 <= 4)
    assert s["violations_by_category"]["total"] == 4
    assert s["gold"]["perfect"]["accuracy"] == 1.0
    assert s["run"]["processed"] == 12


def test_resume_after_crash_loses_nothing_and_duplicates_nothing(tmp_path: Path) -> None:
    src = write_jsonl(tmp_path / "log.jsonl", sample_rows(10))
    out = tmp_path / "out"
    with pytest.raises(KeyboardInterrupt):
        run_eval(EvalConfig(input=src, out=out, guard=make_crashing_guard, progress=False))
    assert _keys(out / "reports.jsonl") == ["r0", "r1", "r2"]
    # a crash in the middle of a write leaves half a line: it is cut and redone
    with (out / "reports.jsonl").open("a", encoding="utf-8") as fh:
        fh.write('{"key": "r3", "line": 4, "status": "o')
    result = run_eval(EvalConfig(input=src, out=out, guard=make_guard, progress=False))
    assert result.skipped == 3 and result.processed == 7
    keys = _keys(out / "reports.jsonl")
    assert sorted(keys) == sorted(f"r{i}" for i in range(10)) and len(keys) == 10
    assert result.summary["rows"]["evaluated"] == 10
    again = run_eval(EvalConfig(input=src, out=out, guard=make_guard, progress=False))
    assert again.processed == 0 and again.summary["rows"]["evaluated"] == 10
    fresh = run_eval(EvalConfig(input=src, out=out, guard=make_guard, progress=False, resume=False))
    assert fresh.processed == 10 and len(_keys(out / "reports.jsonl")) == 10


def test_limit_and_concurrency_give_the_same_reports(tmp_path: Path) -> None:
    src = write_jsonl(tmp_path / "log.jsonl", sample_rows(9))
    first = run_eval(EvalConfig(input=src, out=tmp_path / "a", guard=make_guard, progress=False, limit=4))
    assert first.processed == 4
    rest = run_eval(EvalConfig(input=src, out=tmp_path / "a", guard=make_guard, progress=False, concurrency=3))
    assert rest.processed == 5
    serial = run_eval(EvalConfig(input=src, out=tmp_path / "b", guard=make_guard, progress=False))

    def scores(p: Path) -> dict[str, float]:
        return {r["key"]: r["report"]["constraint_score"] for r in load_reports(p)}

    assert scores(rest.reports_path) == scores(serial.reports_path)
    drop = ("run",)
    assert {k: v for k, v in rest.summary.items() if k not in drop} == {
        k: v for k, v in serial.summary.items() if k not in drop
    }


def test_a_row_the_guard_rejects_is_recorded_as_an_error(tmp_path: Path) -> None:
    huge = {"id": "big", "query": "q " * 100, "response": "r"}
    src = write_jsonl(tmp_path / "log.jsonl", [huge, *sample_rows(2)])
    result = run_eval(
        EvalConfig(input=src, out=tmp_path / "o", guard=lambda: make_guard(max_input_chars=100), progress=False)
    )
    entry = next(r for r in load_reports(result.reports_path) if r["key"] == "big")
    assert entry["status"] == "error" and "InputError" in entry["error"]
    assert result.summary["rows"]["errors"] == 1


def test_html_report_is_self_contained_and_well_formed(tmp_path: Path) -> None:
    src = write_jsonl(tmp_path / "log.jsonl", sample_rows(7))
    verdict = Verdict(kind="omission", severity="warning", explanation="fake")
    result = run_eval(
        EvalConfig(
            input=src,
            out=tmp_path / "o",
            guard=lambda: make_guard([StaticDetector(verdicts=[verdict], stage="output")]),
            progress=False,
            html=True,
        )
    )
    assert result.html_path is not None
    page = result.html_path.read_text(encoding="utf-8")
    assert page.count("<svg") == 4
    assert "http://" not in page.replace("http://www.w3.org/2000/svg", "")
    assert "<script" not in page and "src=" not in page
    for chunk in page.split("<svg")[1:]:
        ET.fromstring("<svg" + chunk.split("</svg>")[0] + "</svg>")  # each chart is valid XML
    assert "Easy (≤ 4 constraints)" in page and "omission" in page and "100.0%" in page


def test_html_escapes_untrusted_labels() -> None:
    from faithguard.evaluate.summary import RowFacts, summarize

    s = summarize([RowFacts(key="x", judged=1, verdict_kinds=("<script>alert(1)</script>",))])
    page = render_html(s)
    assert "<script>" not in page and "&lt;script&gt;" in page


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="faithguard")
    sub = parser.add_subparsers(dest="command")
    plugin.register_commands(subparsers=sub)
    return parser


def test_cli_eval_end_to_end(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = write_jsonl(tmp_path / "log.jsonl", sample_rows(6), extra_lines=["[1, 2]"])
    out = tmp_path / "out"
    args = _parser().parse_args(
        ["eval", str(src), "--out", str(out), "--html", "--guard", "eval_fixtures:make_guard", "--concurrency", "2"]
    )
    assert args.handler(args) == 0
    printed = capsys.readouterr().out
    assert "Perfect rate" in printed and "1 bad row(s)" in printed
    assert (out / "report.html").exists() and (out / "summary.json").exists()
    assert len(_keys(out / "reports.jsonl")) == 6
    args = _parser().parse_args(["eval", str(src), "--out", str(out), "--guard", "eval_fixtures:make_guard", "--json"])
    assert args.handler(args) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["run"]["processed"] == 0 and summary["rows"]["evaluated"] == 6


def test_cli_rejects_bad_arguments(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    args = _parser().parse_args(["eval", str(tmp_path / "missing.jsonl")])
    assert args.handler(args) == 2
    src = write_jsonl(tmp_path / "log.jsonl", sample_rows(1))
    args = _parser().parse_args(["eval", str(src), "--workers", "0"])
    assert args.handler(args) == 2
    assert "faithguard eval" in capsys.readouterr().err
    # an --out that is a file, a guard factory that cannot be loaded or does not take --no-judge: one line, exit 2
    (tmp_path / "a_file").write_text("x")
    for argv in (
        ["--out", str(tmp_path / "a_file")],
        ["--guard", "no_such_module_xyz:make", "--out", str(tmp_path / "o1")],
        ["--guard", "json:loads", "--no-judge", "--out", str(tmp_path / "o2")],
        # an --out that cannot be made, a factory that builds no Guard, one that is no callable (helper 95)
        ["--out", str(tmp_path / "a_file" / "below")],
        ["--guard", "os:getcwd", "--out", str(tmp_path / "o3")],
        ["--guard", "os:sep", "--out", str(tmp_path / "o4")],
    ):
        args = _parser().parse_args(["eval", str(src), *argv])
        assert args.handler(args) == 2, argv
        err = capsys.readouterr().err
        assert err.startswith("faithguard eval:") and "Traceback" not in err


def test_the_printed_summary_shows_outcomes_and_failed_checks(capsys: pytest.CaptureFixture[str]) -> None:
    """'0 errors' never hides rows whose checks failed: the table prints the outcomes and those rows."""
    from faithguard.evaluate.summary import summarize

    summary = summarize([])
    summary["rows"]["with_stage_failures"] = 3
    summary["outcomes"] = {"ok": 1, "hallucination": 0, "undetermined": 3}
    plugin.print_summary(summary)
    printed = capsys.readouterr().out
    assert "undetermined 3" in printed and "rows with a failed check" in printed


def test_guard_spec_is_picklable_and_builds() -> None:
    import pickle

    spec = pickle.loads(pickle.dumps(GuardSpec("eval_fixtures:make_guard")))
    guard = spec()
    try:
        assert guard.decomposer.name == "tags"
    finally:
        guard.close()
    from faithguard import ConfigError

    for bad in ("no_colon", "no_such_module_xyz:make", "json:no_such_callable"):
        with pytest.raises(ConfigError):  # one exception tree: the command turns it into exit 2, not a traceback
            GuardSpec(bad)()
    with pytest.raises(ConfigError, match="does not take"):
        GuardSpec("json:loads", (("judge", None),))()


def test_progress_bar_goes_to_stderr_only(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = write_jsonl(tmp_path / "log.jsonl", sample_rows(3))
    run_eval(EvalConfig(input=src, out=tmp_path / "o", guard=make_guard, progress=True))
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "3/3" in captured.err and "rows/s" in captured.err
