"""A compact on-disk term index: sorted 64-bit fingerprints of normalised titles.

File layout (little-endian)::

    magic  b"FGKBIDX1"                      8 bytes
    count  uint64                           number of fingerprints
    bits   uint32, meta uint32              directory bits B; meta = longest title in words (low 8 bits,
                                            0 = not recorded) | declared coverage in 1/1000 << 8 (0 = none)
    dir    uint64 * (2**B + 1)              start index of each top-B-bit bucket
    keys   uint64 * count                   sorted, unique fingerprints

A lookup normalises the term, hashes each number variant (blake2b, 8 bytes) and
binary-searches one bucket of the memory-mapped key array. False positives happen
at a rate of about count / 2**64 (negligible); there are no false negatives.
The build partitions fingerprints into temporary files so memory stays bounded.
"""

from __future__ import annotations

import bisect
import hashlib
import mmap
import os
import struct
import sys
import tempfile
from array import array
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from faithguard.errors import ConfigError, InputError
from faithguard.terms.normalize import fold_accents, normalize, number_variants, strip_brackets

__all__ = ["MAGIC", "BuildStats", "TermIndex", "build_index", "fingerprint", "title_keys"]

MAGIC = b"FGKBIDX1"
_HEADER = struct.Struct("<8sQII")
_PARTITIONS = 256


def fingerprint(normalized: str) -> int:
    """64-bit fingerprint of an already normalised string."""
    return int.from_bytes(hashlib.blake2b(normalized.encode("utf-8"), digest_size=8).digest(), "little")


def title_keys(title: str) -> set[str]:
    """Normalised forms a title is stored under: as written, without bracketed qualifiers, and without accents."""
    keys = {normalize(title), normalize(strip_brackets(title))}
    keys |= {fold_accents(k) for k in keys}  # "Damgård-Jurik" is also looked up as "damgard jurik"
    keys.discard("")
    return keys


class BuildStats:
    """Figures of one index build."""

    def __init__(self, titles: int, keys: int, size_bytes: int) -> None:
        self.titles = titles
        self.keys = keys
        self.size_bytes = size_bytes

    def __repr__(self) -> str:
        return f"BuildStats(titles={self.titles}, keys={self.keys}, size_bytes={self.size_bytes})"


def _iter_titles(path: Path) -> Iterator[str]:
    """The titles of a UTF-8 file, one per line; a line that is not UTF-8 is an :class:`InputError` naming it (read
    as replacement characters, a binary file became an index of garbage)."""
    with path.open("rb") as fh:
        for number, raw in enumerate(fh, 1):
            try:
                line = raw.decode("utf-8-sig" if number == 1 else "utf-8")
            except UnicodeDecodeError as exc:
                raise InputError(f"titles file line {number} is not UTF-8 ({exc.reason})") from None
            title = line.rstrip("\r\n").strip()
            if title:
                yield title


def _bits_for(count: int) -> int:
    bits = max(1, (max(count, 1)).bit_length() - 3)  # about 8 keys per bucket
    return min(bits, 24)


def build_index(titles: Path | Iterable[str], out: Path, coverage: float | None = None) -> BuildStats:
    """Build the index file ``out`` from a titles file (one per line) or an iterable of titles.

    ``coverage`` is the share of real names of the user's domain the titles are known to hold (measured by
    the user); an index with a declared coverage may report a name-like term it lacks as evidence against it.
    """
    if coverage is not None and not 0.0 <= coverage <= 1.0:
        raise ConfigError("coverage must be between 0 and 1")
    source: Iterable[str] = _iter_titles(titles) if isinstance(titles, Path) else titles
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="fgkb-", dir=out.parent) as tmp:
        parts = [open(os.path.join(tmp, f"p{i:03d}"), "wb") for i in range(_PARTITIONS)]  # noqa: SIM115
        n_titles = 0
        max_words = 0
        try:
            buffers = [array("Q") for _ in range(_PARTITIONS)]
            for title in source:
                n_titles += 1
                max_words = max(max_words, min(len(title.split()), 255))
                for key in title_keys(title):
                    fp = fingerprint(key)
                    buf = buffers[fp >> 56]
                    buf.append(fp)
                    if len(buf) >= 4096:
                        _write_le(buf, parts[fp >> 56])
                        del buf[:]
            for i, buf in enumerate(buffers):
                _write_le(buf, parts[i])
        finally:
            for fh in parts:
                fh.close()
        total = 0
        for i in range(_PARTITIONS):
            arr = _read_le(Path(tmp, f"p{i:03d}"))
            uniq = array("Q", sorted(set(arr)))
            total += len(uniq)
            _write_le(uniq, None, Path(tmp, f"s{i:03d}"))
            del arr, uniq
        bits = _bits_for(total)
        directory = _directory(tmp, bits, total)
        tmp_out = out.with_name(out.name + ".tmp")
        with tmp_out.open("wb") as fh:
            meta = max_words | (round((coverage or 0.0) * 1000) << 8)
            fh.write(_HEADER.pack(MAGIC, total, bits, meta))
            _write_le(directory, fh)
            for i in range(_PARTITIONS):
                with open(os.path.join(tmp, f"s{i:03d}"), "rb") as part:
                    fh.write(part.read())
        os.replace(tmp_out, out)
    return BuildStats(n_titles, total, out.stat().st_size)


def _directory(tmp: str, bits: int, total: int) -> array[int]:
    """Start offsets of each top-``bits`` bucket, computed by streaming the sorted partitions."""
    n_buckets = 1 << bits
    directory = array("Q", [0]) * (n_buckets + 1)
    counts = array("Q", [0]) * n_buckets
    shift = 64 - bits
    for i in range(_PARTITIONS):
        for fp in _read_le(Path(tmp, f"s{i:03d}")):
            counts[fp >> shift] += 1
    running = 0
    for b in range(n_buckets):
        directory[b] = running
        running += counts[b]
    directory[n_buckets] = running
    if running != total:
        raise ConfigError("index build: bucket counts do not add up")
    return directory


def _write_le(arr: array[int], fh: Any, path: Path | None = None) -> None:
    data = arr
    if sys.byteorder != "little":
        data = array("Q", arr)
        data.byteswap()
    if path is not None:
        with path.open("wb") as out:
            data.tofile(out)
    else:
        data.tofile(fh)


def _read_le(path: Path) -> array[int]:
    arr = array("Q")
    with path.open("rb") as fh:
        arr.frombytes(fh.read())
    if sys.byteorder != "little":
        arr.byteswap()
    return arr


class TermIndex:
    """A read-only, memory-mapped term index built by :func:`build_index`."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        try:
            self._fh = self.path.open("rb")
        except OSError as exc:
            raise ConfigError(f"cannot open term index {self.path}: {exc}") from exc
        try:
            self._mm = mmap.mmap(self._fh.fileno(), 0, access=mmap.ACCESS_READ)
        except ValueError as exc:
            raise ConfigError(f"term index {self.path} is empty") from exc
        finally:
            self._fh.close()  # the map keeps its own handle
        if len(self._mm) < _HEADER.size:
            self.close()
            raise ConfigError(f"term index {self.path} is truncated")
        magic, count, bits, meta = _HEADER.unpack_from(self._mm, 0)
        expected = _HEADER.size + 8 * ((1 << bits) + 1) + 8 * count
        if magic != MAGIC or bits > 32 or len(self._mm) != expected:
            self.close()
            raise ConfigError(f"{self.path} is not a faithguard term index (bad header or size)")
        self.count: int = count
        #: Longest title in words (0: not recorded) and declared coverage (None: not declared).
        self.max_words: int = meta & 0xFF
        self.coverage: float | None = ((meta >> 8) & 0xFFFF) / 1000 or None
        self._bits: int = bits
        self._shift = 64 - bits
        dir_start = _HEADER.size
        keys_start = dir_start + 8 * ((1 << bits) + 1)
        view = memoryview(self._mm)
        self._view: memoryview | None = view
        if sys.byteorder == "little":
            self._dir: Any = view[dir_start:keys_start].cast("Q")
            self._keys: Any = view[keys_start:].cast("Q")
        else:  # pragma: no cover - big-endian hosts copy and swap once
            d = array("Q", bytes(view[dir_start:keys_start]))
            k = array("Q", bytes(view[keys_start:]))
            d.byteswap()
            k.byteswap()
            self._dir, self._keys = d, k

    def contains_normalized(self, normalized: str) -> bool:
        """Whether one exact normalised string is in the index."""
        fp = fingerprint(normalized)
        b = fp >> self._shift
        lo, hi = self._dir[b], self._dir[b + 1]
        i = bisect.bisect_left(self._keys, fp, lo, hi)
        return i < hi and bool(self._keys[i] == fp)

    def __contains__(self, term: object) -> bool:
        """Whether ``term`` (any form: case, hyphens, underscores, number) is in the index."""
        if not isinstance(term, str):
            return False
        norm = normalize(strip_brackets(term)) or normalize(term)
        if any(self.contains_normalized(v) for v in number_variants(norm)):
            return True
        folded = fold_accents(norm)  # an index may hold the accented or the ASCII spelling
        return folded != norm and any(self.contains_normalized(v) for v in number_variants(folded))

    def close(self) -> None:
        """Release the memory map and file."""
        for attr in ("_dir", "_keys", "_view"):
            obj = getattr(self, attr, None)
            if isinstance(obj, memoryview):
                obj.release()
        mm = getattr(self, "_mm", None)
        if mm is not None:
            mm.close()

    def __enter__(self) -> TermIndex:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
