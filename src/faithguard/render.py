"""Readable terminal output for reports (rich)."""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.table import Table

from faithguard.models import InspectReport, Report

__all__ = ["print_inspect", "print_plugins", "print_report"]

_STATUS_STYLE = {"satisfied": "green", "violated": "bold red", "unknown": "yellow"}
_SEVERITY_STYLE = {"info": "cyan", "warning": "yellow", "critical": "bold red"}
_BAND_STYLE = {"aligned": "bold green", "partial": "bold yellow", "hallucinated": "bold red", "undetermined": "dim"}
_OUTCOME_STYLE = {"ok": "bold green", "hallucination": "bold red", "undetermined": "bold yellow"}


def _console(console: Console | None) -> Console:
    if console is not None:
        return console
    out = Console(highlight=False)
    # Pipes and CI logs get rich's 80 columns by default: too narrow for the constraint table.
    return out if out.is_terminal else Console(highlight=False, width=140)


def _constraints_table(constraints: list[Any], with_status: bool) -> Table:
    table = Table(show_header=True, header_style="bold", expand=False)
    for col in ("id", "tier", "category", "constraint", "verifier"):
        table.add_column(col)
    if with_status:
        table.add_column("status")
        table.add_column("why", overflow="fold", max_width=48)
    for c in constraints:
        already = c.text.lower().startswith(("not ", "no ", "never ", "without ", "don't ", "do not "))
        text = c.text if already or not c.negated else f"NOT {c.text}"
        verifier = f"{c.verifier} (tentative)" if c.verifier and c.tentative else c.verifier or ""
        row = [c.id, str(c.tier), str(c.category), text, verifier]
        if with_status:
            st = str(c.status)
            row += [f"[{_STATUS_STYLE[st]}]{st}[/]", c.reason or ""]
        table.add_row(*row)
    return table


def _verdicts_table(verdicts: list[Any]) -> Table:
    table = Table(show_header=True, header_style="bold")
    for col in ("verdict", "severity", "detector", "about", "explanation"):
        table.add_column(col, overflow="fold")
    for v in verdicts:
        sev = str(v.severity)
        about = v.term or ",".join(v.constraint_ids)
        table.add_row(v.kind, f"[{_SEVERITY_STYLE[sev]}]{sev}[/]", v.detector, about, v.explanation)
    return table


def print_report(report: Report, console: Console | None = None) -> None:
    """A report at a glance: score and band, constraints, verdicts, errors."""
    out = _console(console)
    score = report.constraint_score
    shown = "n/a" if score is None else f"{score:.1f}/10"
    rng = report.score_range
    span = "" if rng is None else f" · range {rng[0]:.1f}-{rng[1]:.1f}"
    cov = "" if report.coverage is None else f" · coverage {report.coverage:.0%}"
    out.print(
        f"Outcome [{_OUTCOME_STYLE[report.outcome]}]{report.outcome}[/]"
        f" · band [{_BAND_STYLE[report.band]}]{report.band}[/]"
        f" · Constraint Score {shown} over judged constraints{span}{cov}"
        f" · judged {report.judged}/{report.total} · perfect {'yes' if report.perfect else 'no'} · judge {report.judge}"
    )
    for reason in report.outcome_reasons:
        out.print(f"  [dim]why not ok:[/] {reason}")
    if report.constraints:
        out.print(_constraints_table(report.constraints, with_status=True))
    if report.verdicts:
        out.print(_verdicts_table(report.verdicts))
    else:
        out.print("[green]no verdicts[/]")
    if report.answer_label:
        out.print(f"answer label (HypoTermQA): {report.answer_label}")
    for e in report.errors:
        out.print(f"[yellow]detector {e.detector} ({e.stage}) failed: {e.error_type}: {e.message}[/]")


def print_inspect(pre: InspectReport, console: Console | None = None) -> None:
    """Input-stage findings: constraints found, missing content, unknown terms."""
    out = _console(console)
    out.print(f"{len(pre.constraints)} constraints · {len(pre.verdicts)} input verdicts")
    if pre.constraints:
        out.print(_constraints_table(pre.constraints, with_status=False))
    if pre.verdicts:
        out.print(_verdicts_table(pre.verdicts))
    if pre.clarification:
        out.print(f"[bold]clarification to send instead:[/] {pre.clarification}")
    for e in pre.errors:
        out.print(f"[yellow]detector {e.detector} ({e.stage}) failed: {e.error_type}: {e.message}[/]")
    for reason in pre.undetermined:
        out.print(f"[yellow]not checked: {reason}[/]")


def print_plugins(rows: list[dict[str, Any]], detectors: list[dict[str, Any]], decomposers: list[str]) -> None:
    """Plugins with hooks, then detectors in run order."""
    out = _console(None)
    table = Table("plugin", "version", "hooks", "status", header_style="bold")
    for r in rows:
        status = f"[red]{r['error']}[/]" if r.get("error") else ("built-in" if r.get("builtin") else "entry point")
        table.add_row(r["name"], r.get("version") or "", ", ".join(r["hooks"]), status)
    out.print(table)
    det = Table("detector", "stage", "order", header_style="bold")
    for d in detectors:
        det.add_row(d["name"], d["stage"], str(d["order"]))
    out.print(det)
    out.print("decomposers: " + (", ".join(decomposers) or "none"))
