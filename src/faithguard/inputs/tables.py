"""Tabular data pasted without markdown: rows of cells split by one delimiter (pipes, tabs or commas).

A table copied from a spreadsheet arrives as lines such as ``Jan | 4200`` or ``Jan,4200`` or ``Jan<TAB>4200``, without
markdown's separator row (which the scan reads as a markdown table). Three or more consecutive lines that split into
the same number of short cells (two or more) by the same delimiter, none ending like a sentence, are one such table:
the material a request points at ("the spreadsheet", "the table"). Prose lines rarely do: they end with a stop, and
their clauses differ in length and number. Fixtures:
``tests/inputs/test_delimited_tables.py``.
"""

from __future__ import annotations

import re

__all__ = ["delimited_blocks"]

#: Rows a block needs (a header and two rows, or three rows).
MIN_ROWS = 3
#: Words a cell may hold: a spreadsheet cell is a label or a value, not a sentence.
MAX_CELL_WORDS = 6
_DELIMITERS = ("|", "\t", ",", ";")
_LINE = re.compile(r"[^\n]*(?:\n|$)")


def _cells(line: str, delim: str) -> list[str] | None:
    body = line.strip()
    if body.endswith((".", "?", "!", ":")):
        return None  # a sentence of prose ("Use rhyme, rhythm and imagery."), not a row
    if delim == "|":
        body = body.strip("|")
    if delim not in body:
        return None
    cells = [c.strip() for c in body.split(delim)]
    if any(len(c.split()) > MAX_CELL_WORDS for c in cells) or not any(c for c in cells):
        return None
    return cells


def delimited_blocks(text: str) -> list[tuple[int, int]]:
    """(start, end) of each run of :data:`MIN_ROWS` or more lines that split into the same number of short cells by
    the same delimiter (in one pass over the lines)."""
    lines = [(m.start(), m.group()) for m in _LINE.finditer(text) if m.group()]
    out: list[tuple[int, int]] = []
    i = 0
    while i < len(lines):
        best = i + 1
        for delim in _DELIMITERS:
            first = _cells(lines[i][1], delim)
            if first is None:
                continue
            j = i + 1
            while j < len(lines) and (row := _cells(lines[j][1], delim)) is not None and len(row) == len(first):
                j += 1
            if j - i >= MIN_ROWS and j > best:
                best = j
        if best - i >= MIN_ROWS:
            start, (last_at, last) = lines[i][0], lines[best - 1]
            out.append((start, last_at + len(last.rstrip("\n"))))
        i = best
    return out
