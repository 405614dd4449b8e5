"""A small reader for the WordNet 3.0 database files (Debian package ``wordnet-base``).

Only what the input and term checks need: the noun senses of a lemma, the hypernym closure of a
synset, and the lexicographer file a synset belongs to (the constraint engine reads the same files
through nltk, :mod:`faithguard.lexical.wordnet`; the package docstring says why there are two).
Lookups binary-search the memory-mapped sorted ``index.<pos>`` file and seek into ``data.<pos>``, so
opening the database costs nothing and memory stays flat (a full reader that loads the lemma index
first takes seconds).

The data path is ``$FAITHGUARD_WORDNET_DIR``, else ``/usr/share/wordnet`` (where ``apt-get install
wordnet-base`` puts it; WordNet 3.0 licence, Princeton University, free to use with the notice).
Without the files every lookup answers "not known" and :func:`available` is False: callers treat
that as *unknown*, never as evidence.
"""

from __future__ import annotations

import logging
import mmap
import os
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

__all__ = ["LEXNAMES", "WORDNET_ENV", "Synset", "WordNet", "available", "get_wordnet", "wordnet_dir"]

WORDNET_ENV = "FAITHGUARD_WORDNET_DIR"
_DEFAULT_DIR = Path("/usr/share/wordnet")
# WordNet's own morphological detachment rules for nouns (morph.c in the WordNet distribution).
_NOUN_RULES = (("ses", "s"), ("xes", "x"), ("zes", "z"), ("ches", "ch"), ("shes", "sh"), ("men", "man"), ("ies", "y"))
_NOUN_RULES_LAST = (("s", ""),)
#: Words whose base forms are kept; the memo is emptied when full (bounded memory, no eviction bookkeeping).
_MEMO_SIZE = 65536
#: Lexicographer file numbers (WordNet ``lexnames``).
LEXNAMES = {
    3: "noun.Tops",
    4: "noun.act",
    5: "noun.animal",
    6: "noun.artifact",
    7: "noun.attribute",
    8: "noun.body",
    9: "noun.cognition",
    10: "noun.communication",
    11: "noun.event",
    12: "noun.feeling",
    13: "noun.food",
    14: "noun.group",
    15: "noun.location",
    16: "noun.motive",
    17: "noun.object",
    18: "noun.person",
    19: "noun.phenomenon",
    20: "noun.plant",
    21: "noun.possession",
    22: "noun.process",
    23: "noun.quantity",
    24: "noun.relation",
    25: "noun.shape",
    26: "noun.state",
    27: "noun.substance",
    28: "noun.time",
}


def wordnet_dir() -> Path:
    """The WordNet database folder both readers use: ``$FAITHGUARD_WORDNET_DIR``, else ``/usr/share/wordnet``."""
    return Path(os.environ.get(WORDNET_ENV) or _DEFAULT_DIR)


@dataclass(frozen=True)
class Synset:
    """One noun synset: its offset, lexicographer file, lemmas and hypernym offsets."""

    offset: int
    lexname: str
    lemmas: tuple[str, ...]
    hypernyms: tuple[int, ...]
    instance: bool = False  # linked upward only by instance pointers (@i): a named individual ("Numbers")


class WordNet:
    """Noun lookups over one WordNet database folder."""

    def __init__(self, folder: str | os.PathLike[str] | None = None) -> None:
        self.folder = Path(folder) if folder is not None else wordnet_dir()
        self._index: mmap.mmap | None = None
        self._data: mmap.mmap | None = None
        self._exc: dict[str, str] = {}
        index, data = self.folder / "index.noun", self.folder / "data.noun"
        if index.is_file() and data.is_file():
            with index.open("rb") as fh:
                self._index = mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ)
            with data.open("rb") as fh:
                self._data = mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ)
            exc = self.folder / "noun.exc"
            if exc.is_file():
                for line in exc.read_text(encoding="utf-8", errors="replace").splitlines():
                    parts = line.split()
                    if len(parts) >= 2:
                        self._exc.setdefault(parts[0], parts[1])
        self._synsets: dict[int, Synset] = {}
        self._bases: dict[str, tuple[str, ...]] = {}
        self._verbs: mmap.mmap | None = None

    @property
    def available(self) -> bool:
        """Whether the database files were found."""
        return self._index is not None

    def is_verb(self, word: str) -> bool:
        """Whether ``word`` as written is a verb lemma (``index.verb``)."""
        if self._verbs is None:
            path = self.folder / "index.verb"
            if not path.is_file():
                return False
            with path.open("rb") as fh:
                self._verbs = mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ)
        return self._index_line(word.lower(), self._verbs) is not None

    def _index_line(self, lemma: str, mm: mmap.mmap | None = None) -> bytes | None:
        mm = self._index if mm is None else mm
        if mm is None or not lemma:
            return None
        key = lemma.encode("utf-8") + b" "
        lo, hi = 0, len(mm)
        while lo < hi:
            mid = (lo + hi) // 2
            start = mm.rfind(b"\n", 0, mid) + 1
            end = mm.find(b"\n", start)
            end = len(mm) if end < 0 else end
            line = mm[start:end]
            if line.startswith(b"  "):  # licence header lines sort first
                lo = end + 1
                continue
            if line.startswith(key):
                return line
            if line < key:
                lo = end + 1
            else:
                hi = start
        return None

    def base_forms(self, word: str) -> list[str]:
        """Candidate base forms of a noun (as written, exception list, detachment rules), known ones only (memoised
        per word: each costs up to four binary searches of the index, and the checks ask of the same words often)."""
        w = word.lower().strip().replace(" ", "_")
        known = self._bases.get(w)
        if known is None:
            known = tuple(self._base_forms(w))
            if len(self._bases) >= _MEMO_SIZE:
                self._bases.clear()
            self._bases[w] = known
        return list(known)

    def _base_forms(self, w: str) -> list[str]:
        seen: list[str] = []
        candidates = [w, self._exc.get(w, "")]
        candidates += [w[: -len(suf)] + rep for suf, rep in _NOUN_RULES if w.endswith(suf)]
        candidates += [w[: -len(suf)] + rep for suf, rep in _NOUN_RULES_LAST if w.endswith(suf) and len(w) > 3]
        for c in candidates:
            if c and c not in seen and self._index_line(c) is not None:
                seen.append(c)
        return seen

    def senses(self, word: str) -> list[int]:
        """Synset offsets of the noun ``word`` in WordNet's sense order (most frequent first)."""
        out: list[int] = []
        for base in self.base_forms(word):
            line = self._index_line(base)
            if line is None:
                continue
            parts = line.split()
            n_synsets = int(parts[2])
            for off in parts[len(parts) - n_synsets :]:
                o = int(off)
                if o not in out:
                    out.append(o)
        return out

    def synset(self, offset: int) -> Synset | None:
        """The synset at ``offset`` in ``data.noun``."""
        cached = self._synsets.get(offset)
        if cached is not None or self._data is None:
            return cached
        mm = self._data
        end = mm.find(b"\n", offset)
        line = mm[offset : len(mm) if end < 0 else end].decode("utf-8", "replace")
        head = line.split(" | ", 1)[0].split()
        try:
            lexname = LEXNAMES.get(int(head[1]), "")
            w_cnt = int(head[3], 16)
            lemmas = tuple(head[4 + 2 * i].lower() for i in range(w_cnt))
            p_at = 4 + 2 * w_cnt
            p_cnt = int(head[p_at])
        except (IndexError, ValueError):
            return None
        hypers = []
        kinds = set()
        for i in range(p_cnt):
            sym, off = head[p_at + 1 + 4 * i], head[p_at + 2 + 4 * i]
            if sym in ("@", "@i"):
                hypers.append(int(off))
                kinds.add(sym)
        syn = Synset(offset, lexname, lemmas, tuple(hypers), kinds == {"@i"})
        self._synsets[offset] = syn
        return syn

    def closure(self, offset: int, limit: int = 64) -> set[int]:
        """The synset and all its (instance) hypernyms."""
        seen: set[int] = set()
        todo = [offset]
        while todo and len(seen) < limit:
            cur = todo.pop()
            if cur in seen:
                continue
            seen.add(cur)
            syn = self.synset(cur)
            if syn is not None:
                todo.extend(syn.hypernyms)
        return seen

    def lemma_synsets(self, lemma: str) -> list[int]:
        """Synsets that list ``lemma`` exactly (underscored form), without morphological reduction."""
        line = self._index_line(lemma.lower().replace(" ", "_"))
        if line is None:
            return []
        parts = line.split()
        return [int(o) for o in parts[len(parts) - int(parts[2]) :]]

    def find_synsets(self, specs: Iterable[tuple[str, int]]) -> set[int]:
        """Resolve ``(lemma, sense number)`` pairs (1-based, WordNet order) to offsets; unknown ones are skipped."""
        out: set[int] = set()
        for lemma, sense in specs:
            offs = self.lemma_synsets(lemma)
            if 0 < sense <= len(offs):
                out.add(offs[sense - 1])
        return out


@lru_cache(maxsize=1)
def get_wordnet() -> WordNet:
    """The process-wide reader over the configured folder. A folder named by ``$FAITHGUARD_WORDNET_DIR`` that holds no
    database is said once in the log (the checks that read WordNet then decide less; nothing fails)."""
    reader = WordNet()
    if not reader.available and os.environ.get(WORDNET_ENV):
        logging.getLogger("faithguard").warning(
            "%s=%s holds no WordNet database (index.noun, data.noun): the checks that read WordNet decide less",
            WORDNET_ENV,
            reader.folder,
        )
    return reader


def available() -> bool:
    """Whether WordNet is installed where the reader looks."""
    return get_wordnet().available
