"""The ``faithguard`` command line: check, inspect, plugins, and commands plugins add."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from faithguard.calls import MAX_INPUT_CHARS
from faithguard.errors import FaithGuardError, InputError

__all__ = ["main", "read_text_arg"]


def read_text_arg(value: str, *, what: str, stdin_used: list[bool] | None = None) -> str:
    """Resolve a text argument: ``@path`` reads a file, ``-`` reads stdin, anything else is literal."""
    if value == "-":
        if stdin_used is not None:
            if stdin_used and stdin_used[0]:
                raise InputError(f"{what}: stdin ('-') can be used only once")
            stdin_used[:] = [True]
        data = sys.stdin.buffer.read(MAX_INPUT_CHARS * 4 + 1)
        return _decode(data, f"{what} from stdin")
    if value.startswith("@"):
        return read_file(Path(value[1:]), what=what)
    return value


def read_file(path: Path, *, what: str) -> str:
    """Read a UTF-8 text file or raise :class:`InputError` with a one-line reason."""
    try:
        size = path.stat().st_size
    except FileNotFoundError:
        raise InputError(f"{what}: no such file: {path}") from None
    except OSError as exc:
        raise InputError(f"{what}: cannot read {path}: {exc.strerror}") from None
    if path.is_dir():
        raise InputError(f"{what}: {path} is a directory")
    limit = MAX_INPUT_CHARS * 4
    if size > limit:
        raise InputError(f"{what}: {path} is {size} bytes; the limit is {MAX_INPUT_CHARS} characters")
    try:
        # read at most one byte past the limit: a device, pipe or FIFO (/dev/zero, <(cmd)) reports size 0
        with path.open("rb") as fh:
            data = fh.read(limit + 1)
    except OSError as exc:
        raise InputError(f"{what}: cannot read {path}: {exc.strerror}") from None
    if len(data) > limit:
        raise InputError(f"{what}: {path} holds over {limit} bytes; the limit is {MAX_INPUT_CHARS} characters")
    return _decode(data, f"{what} ({path})")


def _decode(data: bytes, what: str) -> str:
    if b"\x00" in data:
        raise InputError(f"{what} looks binary (NUL bytes); give UTF-8 text")
    try:
        text = data.decode("utf-8-sig")  # a leading byte-order mark is not part of the text
    except UnicodeDecodeError as exc:
        raise InputError(f"{what} is not valid UTF-8 (byte {exc.start})") from None
    if len(text) > MAX_INPUT_CHARS:
        raise InputError(f"{what} is {len(text)} characters; the limit is {MAX_INPUT_CHARS}")
    return text


def _add_call_args(p: argparse.ArgumentParser, *, response: bool) -> None:
    p.add_argument("--query", "-q", required=True, help="the user's request: text, @file or - for stdin")
    if response:
        p.add_argument("--response", "-r", required=True, help="the LLM's answer: text, @file or -")
    p.add_argument("--document", "-d", action="append", default=[], metavar="FILE", help="a supplied document (repeat)")
    p.add_argument("--format", "-f", choices=("table", "json"), default="table")
    p.add_argument(
        "--fail-on",
        choices=("never", "warning", "critical", "unchecked"),
        default="never",
        help="exit 3 when a verdict at this severity or above fired; 'unchecked': exit 3 on a warning or critical "
        "verdict, else 4 when the call was not fully checked (outcome undetermined, a check failed) (default: never)",
    )


#: Exit code of ``--fail-on unchecked`` when no alarm fired but the call was not fully checked.
UNCHECKED_EXIT = 4


def _exit_code(report: Any, fail_on: str) -> int:
    """0; 3 when a verdict reached ``fail_on``; with ``unchecked``, 3 on a warning or critical verdict, else 4 when the
    report is not ``ok`` (a check report) or not every input check judged the request (an input report). 1 is kept
    for errors, 2 for bad input.
    """
    if fail_on == "never":
        return 0
    from faithguard.models import Report, Severity

    floor = Severity("warning" if fail_on == "unchecked" else fail_on).rank
    if any(Severity(v.severity).rank >= floor for v in report.verdicts):
        return 3
    if fail_on != "unchecked":
        return 0
    if isinstance(report, Report) and report.outcome == "hallucination":
        return 3  # the score's band fails the answer, with no verdict at the floor: an alarm, not an unchecked call
    unchecked = report.outcome != "ok" if isinstance(report, Report) else not report.checked
    return UNCHECKED_EXIT if unchecked else 0


def build_parser() -> argparse.ArgumentParser:
    """The argument parser, with the commands plugins register."""
    parser = argparse.ArgumentParser(prog="faithguard", description="Guard LLM calls against intent hallucination.")
    parser.add_argument("--version", action="store_true", help="print the version and exit")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    check = sub.add_parser("check", help="score a response against its query")
    _add_call_args(check, response=True)
    check.set_defaults(handler=_cmd_check)
    insp = sub.add_parser("inspect", help="input checks before the call (missing content, unknown terms)")
    _add_call_args(insp, response=False)
    insp.set_defaults(handler=_cmd_inspect)
    plug = sub.add_parser("plugins", help="list plugins, their hooks and detectors")
    plug.add_argument("--format", "-f", choices=("table", "json"), default="table")
    plug.set_defaults(handler=_cmd_plugins)
    from faithguard import plugins as plugin_mod

    pm, _ = plugin_mod.make_plugin_manager()
    for impl in pm.hook.register_commands.get_hookimpls():
        try:
            impl.function(subparsers=sub)
        except Exception as exc:  # noqa: BLE001 - a plugin's broken command must not break the CLI
            print(f"faithguard: plugin {impl.plugin_name!r} could not add its commands: {exc}", file=sys.stderr)
    return parser


def _guard() -> Any:
    from faithguard.guard import Guard

    return Guard()


def _call_inputs(args: argparse.Namespace) -> tuple[str, list[str]]:
    used: list[bool] = [False]
    query = read_text_arg(args.query, what="query", stdin_used=used)
    if not query.strip():
        raise InputError("query is empty")
    docs = [read_file(Path(p), what="document") for p in args.document]
    args._stdin_used = used
    return query, docs


def _cmd_check(args: argparse.Namespace) -> int:
    query, docs = _call_inputs(args)
    response = read_text_arg(args.response, what="response", stdin_used=args._stdin_used)
    report = _guard().check(query, response, documents=docs or None)
    if args.format == "json":
        print(json.dumps(report.model_dump(mode="json"), ensure_ascii=False, indent=2))
    else:
        from faithguard.render import print_report

        print_report(report)
    return _exit_code(report, args.fail_on)


def _cmd_inspect(args: argparse.Namespace) -> int:
    query, docs = _call_inputs(args)
    pre = _guard().inspect(query, documents=docs or None)
    if args.format == "json":
        print(json.dumps(pre.model_dump(mode="json"), ensure_ascii=False, indent=2))
    else:
        from faithguard.render import print_inspect

        print_inspect(pre)
    return _exit_code(pre, args.fail_on)


def _cmd_plugins(args: argparse.Namespace) -> int:
    from faithguard import plugins as plugin_mod

    pm, failures = plugin_mod.make_plugin_manager()
    registry = plugin_mod.collect(pm, failures)
    rows = plugin_mod.describe(pm, registry)
    detectors = [{"name": d.name, "stage": d.stage, "order": d.order} for d in registry.detectors]
    if args.format == "json":
        out = {"plugins": rows, "detectors": detectors, "decomposers": sorted(registry.decomposers)}
        print(json.dumps(out, indent=2))
        return 0
    from faithguard.render import print_plugins

    print_plugins(rows, detectors, sorted(registry.decomposers))
    return 0


#: BLAS thread variables the CLI sets to 1 when the user set none: one BLAS thread lets spaCy multiply through
#: numpy (about a quarter less parse CPU, the same annotations: ``faithguard.nlp.blas_choice``); a threaded
#: OpenBLAS was three times slower per text here (``benchmarks/bench_blas.py``).
_BLAS_THREADS = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")


def _single_threaded_blas() -> None:
    """In the command's own process, before numpy loads: one BLAS thread unless the user chose a number."""
    if "numpy" in sys.modules or any(os.environ.get(v) for v in _BLAS_THREADS):
        return
    for var in _BLAS_THREADS:
        os.environ[var] = "1"


def console() -> int:
    """The ``faithguard`` command and ``python -m faithguard``: :func:`main` in a process of its own, where one
    BLAS thread is set first (a host calling :func:`main` keeps its environment)."""
    _single_threaded_blas()
    return main()


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; returns the exit code (0 ok, 1 failure, 2 bad input or usage, 3 verdicts at ``--fail-on``, 4 with
    ``--fail-on unchecked`` when the call was not fully checked)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.version:
        from faithguard import __version__

        print(__version__)
        return 0
    handler = getattr(args, "handler", None)
    if handler is None:
        parser.print_help()
        return 2
    try:
        return int(handler(args))
    except InputError as exc:
        print(f"faithguard: {exc}", file=sys.stderr)
        return 2
    except FaithGuardError as exc:
        print(f"faithguard: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # the reader went away ("... | head"): the rest of the output is dropped, no traceback
        _drop_stdout()
        return 1


def _drop_stdout() -> None:
    """Point stdout at the null device, so the interpreter's last flush at exit does not fail on the closed pipe."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # stdout replaced by an object with no file descriptor
        pass


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
