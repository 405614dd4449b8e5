"""Built-in plugin: the ``faithguard eval`` command (batch evaluation of a logged file)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from faithguard.errors import ConfigError, InputError
from faithguard.hookspecs import hookimpl

__all__ = ["cmd_eval", "print_summary", "register_commands"]


@hookimpl
def register_commands(subparsers: Any) -> None:
    """Add ``eval``."""
    p = subparsers.add_parser(
        "eval",
        help="evaluate a JSONL/CSV log of calls: per-row reports and the papers' metrics",
        description="Evaluate logged calls (query, response, optional documents and gold labels).",
    )
    p.add_argument("input", type=Path, help="JSONL or CSV file, one call per row")
    p.add_argument("--out", type=Path, default=None, help="output directory (default: <input>.eval/)")
    p.add_argument("--format", dest="fmt", choices=("auto", "jsonl", "csv"), default="auto", help="input format")
    p.add_argument("--engine", choices=("local", "dask"), default="local", help="local threads or a Dask cluster")
    p.add_argument("--workers", type=int, default=2, help="Dask worker processes (default 2)")
    p.add_argument("--scheduler", default=None, help="address of a running Dask scheduler (default: a LocalCluster)")
    p.add_argument("--concurrency", type=int, default=1, help="rows checked at once (threads; for the judge path)")
    p.add_argument("--chunk-size", type=int, default=200, help="rows per Dask task (default 200)")
    p.add_argument("--limit", type=int, default=None, help="check at most N new rows this run")
    p.add_argument("--html", action="store_true", help="also write a self-contained report.html")
    p.add_argument("--resume", action=argparse.BooleanOptionalAction, default=True, help="skip rows already done")
    p.add_argument("--no-judge", action="store_true", help="offline only, even if a judge is configured")
    p.add_argument("--guard", default=None, metavar="MODULE:FACTORY", help="build the Guard with this factory")
    p.add_argument("--json", action="store_true", help="print the summary as JSON instead of a table")
    p.set_defaults(handler=cmd_eval)


def cmd_eval(args: argparse.Namespace) -> int:
    """Handler of ``faithguard eval``; exit code 0 on success, 2 on bad arguments or input."""
    from faithguard.evaluate.runner import EvalConfig, GuardSpec, run_eval

    if args.workers < 1 or args.concurrency < 1 or args.chunk_size < 1 or (args.limit is not None and args.limit < 0):
        print("faithguard eval: --workers, --concurrency, --chunk-size must be >= 1, --limit >= 0", file=sys.stderr)
        return 2
    if not args.input.is_file():
        print(f"faithguard eval: no such file: {args.input}", file=sys.stderr)
        return 2
    options: dict[str, Any] = {}
    if args.guard is None:
        options["max_workers"] = max(4, args.concurrency + 2)
    if args.no_judge:
        options["judge"] = None
    out = args.out or args.input.with_name(args.input.name + ".eval")
    if out.exists() and not out.is_dir():
        print(f"faithguard eval: --out must be a directory, not a file: {out}", file=sys.stderr)
        return 2
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        print(f"faithguard eval: cannot create --out {out}: {exc.strerror or type(exc).__name__}", file=sys.stderr)
        return 2
    config = EvalConfig(
        input=args.input,
        out=out,
        fmt=None if args.fmt == "auto" else args.fmt,
        engine=args.engine,
        workers=args.workers,
        concurrency=args.concurrency,
        chunk_size=args.chunk_size,
        html=args.html,
        resume=args.resume,
        limit=args.limit,
        scheduler=args.scheduler,
        guard=GuardSpec(args.guard, tuple(sorted(options.items()))),
    )
    try:
        result = run_eval(config)
    except (ConfigError, InputError) as exc:  # a guard factory that cannot be loaded or built, unreadable input
        print(f"faithguard eval: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(result.summary, indent=2, ensure_ascii=False))
    else:
        print_summary(result.summary)
        print(f"reports: {result.reports_path}  summary: {result.summary_path}", end="")
        print(f"  html: {result.html_path}" if result.html_path else "")
        if result.bad_rows:
            print(f"{result.bad_rows} bad row(s) skipped, see {result.bad_rows_path}")
    return 0


def _fmt(value: Any, pct: bool = False) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:.1%}" if pct else f"{value:.2f}"
    return str(value)


def print_summary(summary: dict[str, Any], file: Any = None) -> None:
    """Print the summary as rich tables (stdout by default)."""
    from rich.console import Console
    from rich.table import Table

    console = Console(file=file or sys.stdout)
    rows = summary["rows"]
    head = Table(title="faithguard eval", show_header=False)
    head.add_row("rows evaluated", f"{rows['evaluated']} ({rows['ok']} ok, {rows['errors']} errors)")
    head.add_row("bad rows", str(rows["bad_rows"]))
    outcomes = summary.get("outcomes") or {}
    head.add_row("outcomes", ", ".join(f"{k} {v}" for k, v in outcomes.items()))
    if rows.get("with_stage_failures"):
        head.add_row("rows with a failed check", f"{rows['with_stage_failures']} (their outcome is undetermined)")
    head.add_row("Perfect rate", f"{_fmt(summary['perfect_rate'], True)} of {summary['decided']} decided")
    head.add_row("mean Constraint Score", f"{_fmt(summary['mean_constraint_score'])} over {summary['scored']}")
    for level, stats in summary["difficulty"].items():
        head.add_row(
            f"  {level}",
            f"{stats['rows']} rows, Perfect {_fmt(stats['perfect_rate'], True)}, "
            f"CS {_fmt(stats['mean_constraint_score'])}",
        )
    hypo = summary.get("hypoterm")
    if hypo:
        head.add_row(
            "HypoTermQA score",
            f"{_fmt(hypo['score'], True)} over {hypo['labelled']} answer-labelled of "
            f"{hypo['hypothetical_questions']} invented-term questions",
        )
    cons = summary.get("consistency")
    if cons:
        slaq = cons["slaq"]
        head.add_row("short-long agreement", f"{_fmt(cons['agreement'], True)} of {cons['decided']} parts")
        if slaq["facts"]:
            head.add_row("SLAQ alignment / signed", f"{_fmt(slaq['alignment'])} / {_fmt(slaq['signed_alignment'])}")
    console.print(head)
    viol = summary["violations_by_category"]
    if viol["total"]:
        t = Table(title="violated constraints by category")
        t.add_column("category")
        t.add_column("count", justify="right")
        t.add_column("share", justify="right")
        for cat, n in viol["counts"].items():
            t.add_row(cat, str(n), _fmt(viol["share"][cat], True))
        console.print(t)
    if summary["verdict_rates"]:
        t = Table(title="verdicts by kind")
        t.add_column("kind")
        t.add_column("rows", justify="right")
        t.add_column("rate", justify="right")
        for kind, v in summary["verdict_rates"].items():
            t.add_row(kind, str(v["rows"]), _fmt(v["rate"], True))
        console.print(t)
    gold = summary.get("gold")
    if gold:
        t = Table(title="agreement with gold labels")
        for col in ("label", "n", "accuracy", "precision", "recall"):
            t.add_column(col, justify="left" if col == "label" else "right")
        items = [("perfect (positive: hallucinated)", gold["perfect"])] if "perfect" in gold else []
        items += [(f"verdict {k}", v) for k, v in (gold.get("verdicts") or {}).items()]
        for label, a in items:
            t.add_row(
                label, str(a["n"]), _fmt(a["accuracy"], True), _fmt(a["precision"], True), _fmt(a["recall"], True)
            )
        console.print(t)
        if "score_mae" in gold:
            console.print(f"Constraint Score MAE vs gold: {gold['score_mae']:.2f} over {gold['score_n']} rows")
