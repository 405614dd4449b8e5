"""How much of a noun's use is its communication sense, from WordNet's own tagged-corpus sense counts.

WordNet ships ``cntlist.rev`` (``lemma%1:LL:id:: sense_number count``): how often each noun sense was tagged in
the SemCor corpus; ``LL`` is the sense's lexicographer file (10 = ``noun.communication``). A noun whose uses are
mostly a communication ("the press release", "the recipe", "the transcript") names a text far more often than
anything else, whichever hypernym WordNet files it under. Nouns never tagged fall back to WordNet's sense order
(sense 1 most frequent), weighted 1/rank. Fixtures: tests/inputs/test_generalize.py (spec communication_share).
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from faithguard.lexical.wordnet_mmap import LEXNAMES, get_wordnet

__all__ = [
    "COMMUNICATION",
    "VERB_COMMUNICATION",
    "lexfile_share",
    "preload",
    "verb_lexfile_share",
    "verb_lexfiles_share",
]

#: The lexicographer file number of ``noun.communication`` in WordNet 3.0 (``lexnames`` file).
COMMUNICATION = next(n for n, name in LEXNAMES.items() if name == "noun.communication")
#: The lexicographer file number of ``verb.communication`` (WordNet 3.0 ``lexnames``: 32).
VERB_COMMUNICATION = 32


@lru_cache(maxsize=2)
def _counts(folder: str, ss_type: str = "1") -> dict[str, dict[int, int]]:
    """Lemma -> {lexicographer file number: tagged count} from ``cntlist.rev`` for one part of speech (``ss_type``
    1 = noun, 2 = verb); empty when the file is absent."""
    path = Path(folder) / "cntlist.rev"
    out: dict[str, dict[int, int]] = {}
    if not path.is_file():
        return out
    with path.open(encoding="utf-8", errors="replace") as fh:
        for line in fh:
            key, _, rest = line.partition(" ")
            lemma, _, code = key.partition("%")
            if not code.startswith(ss_type + ":"):
                continue
            try:
                lexfile = int(code.split(":")[1])
                count = int(rest.split()[1])
            except (IndexError, ValueError):
                continue
            per = out.setdefault(lemma, {})
            per[lexfile] = per.get(lexfile, 0) + count
    return out


def preload() -> bool:
    """Read the noun and verb sense counts now (~50 ms), outside any check's budget; False without WordNet."""
    wn = get_wordnet()
    if not wn.available:
        return False
    _counts(str(wn.folder), "1")
    _counts(str(wn.folder), "2")
    return True


@lru_cache(maxsize=8192)
def lexfile_share(word: str, lexfile: int = COMMUNICATION) -> float:
    """Share of the noun's use filed under ``lexfile`` (0.0 for a word WordNet does not know as a noun).

    Tagged counts of every base form are summed; a noun with no tagged sense is weighted by sense rank (1/rank).
    """
    wn = get_wordnet()
    if not wn.available:
        return 0.0
    counts = _counts(str(wn.folder), "1")  # the key preload() filled (a call without "1" is another key)
    hits = total = 0.0
    tagged = False
    for base in wn.base_forms(word.lower()):
        per = counts.get(base)
        if per:
            tagged = True
            hits += per.get(lexfile, 0)
            total += sum(per.values())
    if tagged:
        return hits / total if total else 0.0
    for rank, off in enumerate(wn.senses(word.lower()), start=1):
        syn = wn.synset(off)
        weight = 1.0 / rank
        total += weight
        if syn is not None and syn.lexname == LEXNAMES.get(lexfile):
            hits += weight
    return hits / total if total else 0.0


@lru_cache(maxsize=2048)
def verb_lexfile_share(lemma: str, lexfile: int = VERB_COMMUNICATION) -> float:
    """Share of a verb lemma's tagged uses filed under ``lexfile`` ("tell", "say": communication); 0.0 when untagged."""
    return verb_lexfiles_share(lemma, (lexfile,))


@lru_cache(maxsize=2048)
def verb_lexfiles_share(lemma: str, lexfiles: tuple[int, ...]) -> float:
    """Share of a verb lemma's tagged uses filed under any of ``lexfiles`` (perceiving or holding: "see", "have");
    0.0 when untagged."""
    wn = get_wordnet()
    if not wn.available:
        return 0.0
    per = _counts(str(wn.folder), "2").get(lemma.lower().replace(" ", "_"))
    if not per:
        return 0.0
    total = sum(per.values())
    return sum(per.get(f, 0) for f in lexfiles) / total if total else 0.0
