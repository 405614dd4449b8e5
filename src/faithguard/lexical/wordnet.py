"""Princeton WordNet 3.0 through nltk's reader: synonyms, derived forms and instance-of typing.

Source: Debian's ``wordnet-base`` (``/usr/share/wordnet``, WordNet licence, ~28 MB), or the folder
named by ``FAITHGUARD_WORDNET_DIR``. Debian leaves out the ``lexnames`` file nltk's reader opens;
it is rebuilt once from the same package's ``lexnames(5WN)`` manual page into a cache folder
(``FAITHGUARD_CACHE_DIR`` or ``~/.cache/faithguard``) beside a copy of the data files (nltk refuses
links that leave its root) and a ``PROVENANCE`` note. Without nltk or the data every function
answers "don't know" (None / empty), never an error: the checks then stay ``unknown``.

The input and term checks read the same folder with a memory-mapped noun reader,
:mod:`faithguard.lexical.wordnet_mmap`, which answers from the first call; the package docstring
says why nltk's reader does not serve them too.
"""

from __future__ import annotations

import gzip
import os
import re
import shutil
import threading
import warnings
from functools import lru_cache
from pathlib import Path
from typing import Any

from faithguard.interrupts import shielded
from faithguard.lexical.wordnet_mmap import wordnet_dir

__all__ = [
    "available",
    "exception_forms",
    "first_type_synset",
    "is_instance_of",
    "located_in",
    "preload",
    "related_forms",
    "settled",
    "type_synsets",
]

_MANPAGE = Path("/usr/share/man/man5/lexnames.5WN.gz")
_FILES = ("data.noun", "data.verb", "data.adj", "data.adv", "index.noun", "index.verb", "index.adj", "index.adv")
_EXC = ("noun.exc", "verb.exc", "adj.exc", "adv.exc")
_LEXNAME_ROW = re.compile(r"^(\d\d)\t(\w+)\.(\w+)\s*\t")
_POS_CODE = {"noun": 1, "verb": 2, "adj": 3, "adv": 4}

#: Synsets the reader keeps once read (oldest dropped first). Provenance: one pass over the dev traffic reads
#: ~11k; the checks' own caches (``_type_synsets`` and the rest) keep what they reuse, so this bounds memory.
SYNSETS_HELD = 8192

_lock = threading.Lock()
_start_lock = threading.Lock()  # never held while loading, so starting a preload cannot block
_state: dict[str, Any] = {}


def _lexnames_from_manpage(page: Path) -> str | None:
    """'NN<TAB>lexfile<TAB>pos' rows from the table in the ``lexnames(5WN)`` manual page."""
    try:
        text = gzip.decompress(page.read_bytes()).decode("utf-8", "replace")
    except OSError:
        return None
    rows = []
    for line in text.splitlines():
        m = _LEXNAME_ROW.match(line)
        if m is not None and m.group(2) in _POS_CODE:
            rows.append(f"{m.group(1)}\t{m.group(2)}.{m.group(3)}\t{_POS_CODE[m.group(2)]}")
    return "\n".join(rows) + "\n" if len(rows) == 45 else None


@lru_cache(maxsize=1)
def exception_forms() -> dict[str, str]:
    """Irregular inflections -> base form, from WordNet's ``*.exc`` files ("ran" -> "run", "mice" -> "mouse").

    Read straight from the data folder (no nltk, a few milliseconds); the first base listed wins,
    nouns before verbs before adjectives. Empty when WordNet is not installed.
    """
    out: dict[str, str] = {}
    for name in ("noun.exc", "verb.exc", "adj.exc"):
        try:
            lines = (wordnet_dir() / name).read_text(encoding="utf-8").splitlines()
        except OSError:
            continue
        for line in lines:
            parts = line.split()
            if len(parts) >= 2 and "_" not in parts[0]:
                out.setdefault(parts[0], parts[1])
    return out


def _prepared_dir() -> Path | None:
    """A folder nltk's reader accepts: the source itself when complete, else a built cache copy."""
    source = wordnet_dir()
    if not all((source / f).is_file() for f in _FILES):
        return None
    if (source / "lexnames").is_file():
        return source
    cache = Path(os.environ.get("FAITHGUARD_CACHE_DIR", Path.home() / ".cache" / "faithguard")) / "wordnet-3.0"
    if (cache / "PROVENANCE").is_file():
        return cache
    lexnames = _lexnames_from_manpage(_MANPAGE)
    origin = f"lexnames rebuilt from {_MANPAGE}"
    if lexnames is None:
        # No manual page (some images drop /usr/share/man): numbered placeholders keep nltk's reader
        # working; faithguard never reads a lexicographer file's name.
        lexnames = "".join(f"{i:02d}\tlexfile{i:02d}\t1\n" for i in range(45))
        origin = "lexnames: numbered placeholders (manual page missing)"
    tmp = cache.with_name(f"wordnet-3.0.tmp{os.getpid()}")
    # Shielded: an abandoned plugin call that triggered the first load must not be cut between the copy and the
    # clean-up (a half-written cache folder or a stray temporary copy would outlive it).
    with shielded():
        try:
            tmp.mkdir(parents=True, exist_ok=True)
            for name in _FILES + _EXC:
                if (source / name).is_file():
                    shutil.copyfile(source / name, tmp / name)
            (tmp / "lexnames").write_text(lexnames, encoding="utf-8")
            (tmp / "PROVENANCE").write_text(
                f"data files copied from {source}; {origin} (WordNet 3.0, Princeton licence)\n",
                encoding="utf-8",
            )
            if not cache.exists():
                tmp.rename(cache)
        except OSError:
            return None
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
    return cache if (cache / "PROVENANCE").is_file() else None


def _reader(wait: bool = False) -> Any | None:
    """The loaded reader, or None. Without ``wait`` it never blocks: a lookup before WordNet is loaded
    starts the load in the background and answers "don't know", so no check stalls past its budget
    (``Guard.warmup`` / :func:`available` load it up front).
    """
    if "reader" in _state:
        return _state["reader"]
    if not wait:
        preload()
        return None
    with _lock:
        if "reader" not in _state:
            _state["reader"] = _load()
    return _state["reader"]


def _load() -> Any | None:
    try:
        import nltk  # type: ignore[import-untyped]
        from nltk.corpus.reader.wordnet import WordNetCorpusReader  # type: ignore[import-untyped]
    except ImportError:
        return None
    prepared = _prepared_dir()
    if prepared is None:
        return None
    root: Path = prepared

    class _Reader(WordNetCorpusReader):  # type: ignore[misc]
        """nltk's reader; the two start-up scans read the files with plain Python (about 20x faster)."""

        def map_wn(self, version: str = "wordnet") -> None:
            """No mapping to another WordNet version: this is the 3.0 data itself."""
            return None

        def _scan_satellites(self) -> None:
            offsets: set[int] = set()
            with open(root / "data.adj", encoding="utf-8") as fp:
                for line in fp:
                    fields = line.split(None, 3)
                    if not line.startswith(" ") and len(fields) >= 3 and fields[2] == "s":
                        offsets.add(int(fields[0]))
            self.satellite_offsets = offsets

        def _load_lemma_pos_offset_map(self) -> None:
            # index.POS rows (wndb(5WN)): lemma pos synset_cnt p_cnt [ptr_symbol]*p_cnt sense_cnt
            # tagsense_cnt synset_offset*synset_cnt
            for suffix in self._FILEMAP.values():
                with open(root / f"index.{suffix}", encoding="utf-8") as fp:
                    for line in fp:
                        if line.startswith(" "):
                            continue
                        f = line.split()
                        n, p = int(f[2]), int(f[3])
                        offsets = [int(x) for x in f[6 + p : 6 + p + n]]
                        self._lemma_pos_offset_map[f[0]][f[1]] = offsets
                        if f[1] == "a":
                            self._lemma_pos_offset_map[f[0]]["s"] = [o for o in offsets if o in self.satellite_offsets]

        def __init__(self, *args: Any) -> None:
            self._read_lock = threading.RLock()  # a satellite adjective reads its head synset inside the read
            self._held: dict[tuple[str, int], Any] = {}
            super().__init__(*args)

        def synset_from_pos_and_offset(self, pos: str, offset: int) -> Any | None:
            """nltk's, safe across threads and with a bounded cache.

            nltk reads every synset through one shared file handle per part of speech (seek, then readline):
            two threads interleaving read each other's lines, and the lookup fails or answers None. Reads
            are serialised here. nltk also keeps every synset it ever read; here the last
            :data:`SYNSETS_HELD` are kept, so a long-running process's memory stays flat.
            """
            held = self._held.get((pos, offset))
            if held is not None:
                return held
            with shielded(), self._read_lock:  # an interrupt never leaves the lock held
                synset = super().synset_from_pos_and_offset(pos, offset)
                self._synset_offset_cache[pos].pop(offset, None)  # nltk's own cache is unbounded
                if synset is not None:
                    _compact(synset)
                    while len(self._held) >= SYNSETS_HELD:
                        del self._held[next(iter(self._held))]  # the oldest first
                    self._held[(pos, offset)] = synset
            return synset

        def first_synset(self, lemma: str, pos: str) -> Any | None:
            """``self.synsets(lemma, pos)[0]`` (None when empty) without reading the other senses' data lines."""
            index = self._lemma_pos_offset_map
            for form in self._morphy(lemma.lower(), pos):
                offsets = index.get(form, {}).get(pos, [])
                if offsets:
                    return self.synset_from_pos_and_offset(pos, offsets[0])
            return None

    if str(root) not in nltk.data.path:
        nltk.data.path.append(str(root))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "multilingual functions are not available": not used here
        try:
            return _Reader(str(root), None)
        except (OSError, ValueError, LookupError):
            return None


def _compact(synset: Any) -> None:
    """Rebuild a synset nltk has just read with tuples and plain dicts where it used lists, sets and defaultdicts.

    nltk fills these containers while it reads the data line and never changes them afterwards; read through its
    methods (``hypernyms()``, ``lemmas()``, ``antonyms()``, ...) the synset answers the same. The point is the
    garbage collector: a tuple holding only numbers and strings (and then a dict holding only such tuples) is no
    longer tracked, so a held synset costs the collector about 3 objects instead of about 17. One pass over the
    dev traffic holds ~10k synsets; their containers were ~170k of the objects every full collection walks, and
    the objects made during a pass decide how often one runs (measured with ``gc.callbacks``: two full
    collections of ~0.25 s in one pass, now one; docs/benchmarks.md). The lemma index keeps nltk's lists: as
    tuples (~320k fewer tracked objects) each full collection was shorter, but with less held at start the
    pass's new objects set one off twice as often (new-query p99 58 -> 75 ms on bench_check).
    """
    synset._frame_ids = tuple(synset._frame_ids)
    synset._lemma_names = tuple(synset._lemma_names)
    synset._examples = tuple(synset._examples)
    synset._lemmas = tuple(synset._lemmas)
    synset._pointers = {symbol: tuple(targets) for symbol, targets in synset._pointers.items()}
    synset._lemma_pointers = {key: tuple(targets) for key, targets in synset._lemma_pointers.items()}
    for lemma in synset._lemmas:
        lemma._frame_ids = tuple(lemma._frame_ids)
        lemma._frame_strings = tuple(lemma._frame_strings)


def preload() -> None:
    """Start loading WordNet in a daemon thread (a few seconds), so the first check rarely waits for it."""
    with _start_lock:
        if "reader" in _state or "preload" in _state:
            return
        _state["preload"] = threading.Thread(target=_reader, args=(True,), name="faithguard-wordnet", daemon=True)
    _state["preload"].start()


def settled() -> bool:
    """Whether loading is over (WordNet loaded, or known missing): answers no longer change with time."""
    return "reader" in _state


def available() -> bool:
    """Whether WordNet could be loaded (loads it, or waits for the preload, on first call)."""
    return _reader(wait=True) is not None


def _key(word: str) -> str:
    return "_".join(word.strip().split())


def type_synsets(noun: str) -> tuple[Any, ...]:
    """The noun synsets a (possibly plural) common noun names ("rivers" -> river.n.01, ...)."""
    wn = _reader()
    if wn is None or not noun.strip():
        return ()  # not cached: WordNet may still be loading
    return _type_synsets(noun)


@lru_cache(maxsize=8192)
def _type_synsets(noun: str) -> tuple[Any, ...]:
    wn = _state["reader"]  # loaded: only called once the public function has the reader
    base = wn.morphy(_key(noun).lower(), "n") or _key(noun).lower()
    return tuple(wn.synsets(base, "n"))


def first_type_synset(noun: str) -> Any | None:
    """``type_synsets(noun)[0]`` (None when there is none) without reading the other senses' data lines: a test
    that the most frequent sense settles ("is it a proper noun?") reads one synset, not every sense of "Second"."""
    wn = _reader()
    if wn is None or not noun.strip():
        return None  # not cached: WordNet may still be loading
    return _first_type_synset(noun)


@lru_cache(maxsize=8192)
def _first_type_synset(noun: str) -> Any | None:
    wn = _state["reader"]  # loaded: only called once the public function has the reader
    base = wn.morphy(_key(noun).lower(), "n") or _key(noun).lower()
    return wn.first_synset(base, "n")  # the first offset of the first form nltk's synsets() would read


def base_noun(noun: str) -> str:
    """The noun's base form by WordNet's morphology ("rivers" -> "river"); the noun itself when unknown."""
    wn = _reader()
    key = _key(noun).lower()
    return str(wn.morphy(key, "n") or key) if wn is not None else key


def _ancestors(synset: Any) -> set[Any]:
    return set(synset.closure(lambda s: s.instance_hypernyms() + s.hypernyms())) | {synset}


def is_instance_of(name: str, noun: str) -> bool | None:
    """Whether WordNet types ``name`` ("Ebro", "Francis Drake") as a ``noun`` ("river", "explorers").

    True: a sense of the name is an instance (or a kind) of a sense of the noun. False: WordNet
    knows the name and none of its senses is. None: WordNet is missing or knows neither word.
    """
    wn = _reader()
    if wn is None:
        return None
    return _is_instance_of(name, noun)


def is_kind_of(word: str, noun: str) -> bool | None:
    """Whether WordNet reads a common noun ("oaks", "strawberry") as a kind of ``noun`` ("trees", "fruit"): a sense
    of the word has a sense of ``noun`` among its ancestors. False when WordNet knows both and no sense is; None when
    it lacks either (or is not installed)."""
    wn = _reader()
    if wn is None:
        return None
    return _is_kind_of(word, noun)


@lru_cache(maxsize=16384)
def _is_kind_of(word: str, noun: str) -> bool | None:  # called once the public function has the reader
    types = _type_synsets(noun) if noun.strip() else ()
    senses = _type_synsets(word) if word.strip() else ()
    if not types or not senses:
        return None
    wanted = set(types)
    return any(_ancestors(s) & wanted for s in senses if s not in wanted)


def _proper_senses(wn: Any, name: str) -> list[Any]:
    """The instance senses of a name whose most frequent sense is an instance (a proper noun).

    "Ebro" -> [ebro.n.01]; "Red" (first a colour) and "welcome" -> []: a capitalised common word is
    not read as the rare proper noun it can also be.
    """
    first = wn.first_synset(_key(name), "n")  # most names are not proper nouns: read one sense, not all
    if first is None or not first.instance_hypernyms():
        return []
    return [s for s in wn.synsets(_key(name), "n") if s.instance_hypernyms()]


@lru_cache(maxsize=16384)
def _is_instance_of(name: str, noun: str) -> bool | None:
    wn = _state["reader"]  # loaded: only called once the public function has the reader
    types = _type_synsets(noun) if noun.strip() else ()
    if not types:
        return None
    senses = _proper_senses(wn, name)
    if not senses:
        return None
    wanted = set(types)
    return any(_ancestors(s) & wanted for s in senses)


def related_forms(word: str) -> frozenset[str]:
    """Synonyms in the word's most frequent sense and its own derived forms, lower case.

    "circumnavigate" -> {"circumnavigation", "compass"}. Only the first sense per part of speech is
    read, for the first part of speech that knows the word: rarer senses bring in unrelated words
    ("head" for "question", "range" for "place").
    """
    wn = _reader()
    if wn is None or not word.strip():
        return frozenset()
    return _related_forms(word)


@lru_cache(maxsize=16384)
def _related_forms(word: str) -> frozenset[str]:
    wn = _state["reader"]  # loaded: only called once the public function has the reader
    out: set[str] = set()
    for pos in ("n", "v", "a"):
        base = wn.morphy(_key(word).lower(), pos)
        if base is None:
            continue
        synset = wn.first_synset(base, pos)  # only the first sense is read (loading all costs most of the time)
        if synset is not None:
            for lemma in synset.lemmas():
                out.add(lemma.name().replace("_", " ").lower())
                if lemma.name().lower() == base:
                    out.update(d.name().replace("_", " ").lower() for d in lemma.derivationally_related_forms())
        break  # the first part of speech WordNet knows the word as (noun, then verb, then adjective)
    out.discard(word.lower())
    return frozenset(out)


def located_in(name: str, place: str) -> bool | None:
    """Whether WordNet places ``name`` ("Ebro", "Seville") inside ``place`` ("Spain") by part-holonymy.

    True: some sense of the name is (part of part of ...) the place. False: WordNet locates the
    name (it has holonyms) and never inside the place. None: WordNet is missing or cannot tell.
    """
    wn = _reader()
    if wn is None:
        return None
    return _located_in(name, place)


@lru_cache(maxsize=16384)
def _located_in(name: str, place: str) -> bool | None:
    wn = _state["reader"]  # loaded: only called once the public function has the reader
    places = set(wn.synsets(_key(place), "n"))
    senses = _proper_senses(wn, name)
    if not places or not senses:
        return None
    located = False
    for s in senses:
        wholes = set(s.closure(lambda x: x.part_holonyms()))
        if s in places or wholes & places:
            return True
        located = located or bool(wholes)
    return False if located else None


def whole_of(name: str) -> frozenset[str] | None:
    """The places WordNet says a name is *directly* part of ("Sydney" -> {"new south wales"}).

    For "the capital of Australia" a capital of a part of Australia is no evidence: only a name whose
    immediate whole is the place is. Empty: WordNet knows the name and places it nowhere. None: WordNet
    is missing or does not know the name as a proper noun.
    """
    wn = _reader()
    if wn is None:
        return None
    return _whole_of(name)


@lru_cache(maxsize=16384)
def _whole_of(name: str) -> frozenset[str] | None:
    wn = _state["reader"]  # loaded: only called once the public function has the reader
    senses = _proper_senses(wn, name)
    if not senses:
        return None
    return frozenset(
        lemma.name().replace("_", " ").lower() for s in senses for h in s.part_holonyms() for lemma in h.lemmas()
    )


def _first_sense_under(noun: str, roots: frozenset[str]) -> bool | None:
    """Whether the noun's most frequent sense (WordNet orders senses by tagged frequency) falls under one of
    ``roots``; None without WordNet. Only the first sense: a rarer one ("sentence" as a prison term, "term"
    as a period) must not decide. It waits for WordNet to load (the guard's warmup has loaded it already):
    the decomposition it feeds is cached, so it must not depend on how far loading had come."""
    wn = _reader(wait=True)
    if wn is None:
        return None
    return _under(noun.lower(), roots)


@lru_cache(maxsize=16384)
def _under(noun: str, roots: frozenset[str]) -> bool:
    return _falls_under(_first_type_synset(noun), roots)


def _falls_under(synset: Any | None, roots: frozenset[str]) -> bool:
    """Whether ``synset`` is, or has as an ancestor, one of ``roots`` (False for None)."""
    return synset is not None and bool({a.name() for a in _ancestors(synset)} & roots)


#: WordNet roots of nouns that name a stretch of time ("century", "reign", "childhood", "the Renaissance").
_TIME_ROOTS = frozenset({"time_period.n.01", "time_unit.n.01", "historic_period.n.01"})


def is_time_noun(noun: str) -> bool | None:
    """Whether the noun's most frequent sense is a period or unit of time; None without WordNet."""
    return _first_sense_under(noun, _TIME_ROOTS)


#: WordNet roots of nouns whose thing is made of questions: a question or interview (questioning.n.01), a
#: riddle or puzzle (question.n.02), a quiz or exam (examination.n.02), a questionnaire, an FAQ.
_QUESTION_ROOTS = frozenset({"questioning.n.01", "question.n.02", "examination.n.02", "questionnaire.n.01", "faq.n.01"})


def names_questions(noun: str) -> bool | None:
    """Whether the noun's most frequent sense is made of questions ("quiz", "interview questions", "FAQ")."""
    return _first_sense_under(noun, _QUESTION_ROOTS)


def has_kinds(noun: str) -> bool | None:
    """Whether the noun's most frequent sense is a common noun with kinds under it ("meat": beef, pork...).

    The absence of such a word from an answer is no evidence that none of its kinds is there. None without
    WordNet; False for names (instances) and for words WordNet does not know.
    """
    wn = _reader(wait=True)
    if wn is None:
        return None
    first = _first_type_synset(noun.lower())
    return first is not None and not first.instance_hypernyms() and bool(first.hyponyms())


#: WordNet roots of nouns that name several things at once ("a list", "a set", "a collection", "a series").
_SEVERAL_ROOTS = frozenset({"list.n.01", "collection.n.01", "series.n.01"})


def names_several(noun: str) -> bool | None:
    """Whether the noun's most frequent sense is a list or collection: "provide a list" asks for several."""
    return _first_sense_under(noun, _SEVERAL_ROOTS)


#: WordNet roots of fixed verse forms whose gloss may state their size: a poem (poem.n.01: haiku, limerick, sonnet)
#: or a stanza (stanza.n.01: quatrain, couplet).
_VERSE_ROOTS = frozenset({"poem.n.01", "stanza.n.01"})
#: The words of a gloss ("of 5 anapestic lines"): a count is read at most one word before "lines".
_GLOSS_WORD = re.compile(r"[a-z0-9]+")


def verse_lines(noun: str) -> int | None:
    """The number of lines WordNet's own gloss gives a verse form the noun names: 'haiku' 3 ("three short
    lines"), 'limerick' 5, 'sonnet' 14, 'quatrain' 4, 'couplet' 2. Read from the noun's first sense filed as
    communication, when it is under a poem or a stanza; None when that sense states no single count ('rondeau':
    "10 or 13 lines"), when it is another thing ('octave': a musical interval), or without WordNet."""
    from faithguard.numwords import cardinal

    wn = _reader(wait=True)
    if wn is None:
        return None
    counts: set[int] = set()
    # the word's first sense filed as communication must be the verse form: "limerick" (a city first, then the
    # verse), not "octave" (a musical interval before the stanza) or "sestet" (a composition for six)
    written = [s for s in wn.synsets(noun.lower(), pos="n") if s.lexname() == "noun.communication"][:1]
    for sense in written:
        if not {h.name() for h in sense.closure(lambda s: s.hypernyms())} & _VERSE_ROOTS:
            continue
        words = _GLOSS_WORD.findall(sense.definition().lower())
        for i in (i for i, w in enumerate(words) if w == "lines"):
            for j in (i - 1, i - 2):
                value = cardinal(words[j]) if j >= 0 else None
                if not value:
                    continue  # not a count ("short", "the"), or zero
                if j > 0 and words[j - 1] in ("or", "to"):
                    return None  # "10 or 13 lines": an alternative or a range is no fixed size
                counts.add(value)
                break
    return counts.pop() if len(counts) == 1 else None
