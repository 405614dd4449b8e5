"""The one split rule for every dev set: a *study* part you may read, a *holdout* part you only score.

A row's part is a pure function of (data set name, row key): ``sha256("{dataset}:{key}")``; the first
byte < 103 (about 40%) puts it in the holdout. The rule was fixed before any row was read, so
figures on the holdout estimate how the rules generalise. Every eval script prints both parts, named.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from typing import Literal, TypeVar

__all__ = ["HOLDOUT_SHARE", "KEYS", "Part", "part_of", "row_key", "split_rows"]

Part = Literal["study", "holdout"]
#: First-byte threshold: 103/256 ~ 0.40 of the rows are held out.
HOLDOUT_SHARE = 103

T = TypeVar("T")


def part_of(dataset: str, key: object) -> Part:
    """Which part a row belongs to; stable across runs, machines and Python versions."""
    digest = hashlib.sha256(f"{dataset}:{key}".encode()).digest()
    return "holdout" if digest[0] < HOLDOUT_SHARE else "study"


def split_rows(dataset: str, rows: Iterable[T], key: str) -> dict[Part, list[T]]:
    """``{"study": [...], "holdout": [...]}`` keyed by ``row[key]`` (see :data:`KEYS`; rows are mappings)."""
    out: dict[Part, list[T]] = {"study": [], "holdout": []}
    for row in rows:
        out[part_of(dataset, row_key(row, key))].append(row)
    return out


def row_key(row: object, key: str) -> str:
    """``row[key]``, or ``"a:b"`` joined from ``row["a"]`` and ``row["b"]`` for a compound key."""
    return ":".join(str(row[k]) for k in key.split(":"))  # type: ignore[index]


#: The key of each shared dev set (llmbar's ``index`` restarts per subset, so its key is ``subset:index``).
KEYS = {
    "ifeval": "key",
    "ifbench": "key",
    "infobench": "id",
    "llmbar": "subset:index",
    "hypotermqa": "questionId",
}
