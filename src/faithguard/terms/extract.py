"""Candidate term extraction from a request: quoted names, Title-Cased runs, noun compounds, rare words."""

from __future__ import annotations

import bisect
import re
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from faithguard.cache import ANSWER_CACHE_SIZE, QUERY_CACHE_SIZE
from faithguard.terms.normalize import normalize

__all__ = [
    "Candidate",
    "NameContexts",
    "extract_candidates",
    "extract_from_doc",
    "extract_names",
    "name_regions",
    "name_window",
    "sentence_pieces",
]

#: Single words at or above this Zipf frequency are ordinary vocabulary, not term candidates.
COMMON_ZIPF = 3.0
_MAX_WORDS = 8
_QUOTED = re.compile(r"\"([^\"\n]{2,100})\"|“([^”\n]{2,100})”|‘([^’\n]{2,100})’|(?<![\w])'([^'\n]{2,100})'(?![\w])")
_LEAD_POS = {"DET", "PRON", "NUM", "PUNCT", "ADP", "CCONJ", "SCONJ", "PART", "AUX", "SPACE", "SYM"}
_RUN_POS = {"PROPN", "NOUN", "ADJ", "X", "NUM", "VERB"}
_CONNECTORS = {"of", "and", "de", "the", "for", "on", "in", "an'", "&"}
#: Words that open a request; a tagger may call them proper nouns when capitalised ("Explain X").
_REQUEST_VERBS = frozenset(
    [
        "explain",
        "describe",
        "compare",
        "contrast",
        "tell",
        "list",
        "summarize",
        "summarise",
        "define",
        "discuss",
        "give",
        "write",
        "show",
        "analyze",
        "analyse",
        "evaluate",
        "outline",
        "provide",
        "please",
        "name",
        "identify",
        "assess",
        "review",
        "suggest",
        "recommend",
        "find",
    ]
)
#: Pipes the extraction does not read (named entities alone cost about as much as the parse).
_PRIORITY = {"quoted": 0, "title_case": 1, "noun_chunk": 2, "rare_word": 3}
#: Generic modifiers that describe rather than name ("various applications").
_GENERIC_MODIFIERS = frozenset(
    [
        "various",
        "different",
        "several",
        "many",
        "other",
        "certain",
        "specific",
        "particular",
        "overall",
        "new",
        "old",
        "same",
        "such",
        "own",
        "main",
        "major",
        "minor",
        "key",
        "important",
        "significant",
        "general",
        "common",
        "current",
        "recent",
        "future",
        "potential",
        "possible",
        "whole",
        "entire",
        "full",
        "total",
        "individual",
        "personal",
        "public",
        "private",
        "modern",
        "traditional",
        "typical",
        "basic",
        "simple",
    ]
)


@dataclass(frozen=True)
class Candidate:
    """A candidate term and where it sits in the request."""

    text: str
    start: int
    end: int
    source: str
    #: Reads as the name of a concept, not a description: a title list's silence about it counts.
    name_like: bool = True


def _zipf(word: str) -> float:
    from faithguard.lexical.frequency import zipf

    return zipf(word)


def _rare_word(word: str) -> bool:
    return len(word) >= 4 and word.isalpha() and _zipf(word.lower()) < COMMON_ZIPF


def _noun_chunk(chunk: Any, starts: frozenset[int], dos: tuple[int, ...] = ()) -> Candidate | None:
    tokens = list(chunk)
    # A coordination ("health and fitness industry") or possessive ("a person's beliefs") is not one term:
    # keep what follows the last conjunction or possessive marker.
    cut = max((i for i, t in enumerate(tokens) if t.pos_ == "CCONJ" or t.tag_ == "POS"), default=-1)
    tokens = tokens[cut + 1 :]
    while tokens and (tokens[0].pos_ in _LEAD_POS or tokens[0].tag_ == "POS" or tokens[0].lower_ in _GENERIC_MODIFIERS):
        tokens = tokens[1:]
    while tokens and (tokens[-1].pos_ == "PUNCT" or tokens[-1].tag_ == "POS"):
        tokens = tokens[:-1]
    if len(tokens) > 1 and any(i < tokens[0].i for i in dos) and _do_support_verb(chunk.doc, tokens, starts):
        tokens = tokens[:-1]  # "How does viral load impact ...": the last word is the question's verb
    if not tokens:
        return None
    doc = chunk.doc
    start, end = tokens[0].idx, tokens[-1].idx + len(tokens[-1].text)
    # the span's own text: Doc.text would rebuild the whole document for every chunk (quadratic)
    text = doc[tokens[0].i : tokens[-1].i + 1].text
    words = normalize(text).split()
    if not words or len(words) > _MAX_WORDS:
        return None
    if len(tokens) == 1:
        tok = tokens[0]
        if tok.pos_ in {"NOUN", "PROPN", "X"} and _rare_word(tok.text):
            return Candidate(text, start, end, "rare_word")
        return None
    nouns = sum(1 for t in tokens if t.pos_ in {"NOUN", "PROPN"})
    hyphenated = any(t.text == "-" for t in tokens) or any("-" in t.text for t in tokens)
    titled = any(t.text[:1].isupper() and t.i not in starts for t in tokens)
    # A rare word inside a noun phrase ("quantoplexic resonance") marks a technical term.
    rare = any(t.pos_ in {"ADJ", "NOUN", "PROPN", "X"} and _rare_word(t.text) for t in tokens)
    if nouns >= 2 or hyphenated or titled or rare:
        return Candidate(text, start, end, "noun_chunk", _names_one_thing(tokens))
    return None


def _do_support_verb(doc: Any, tokens: list[Any], starts: frozenset[int]) -> bool:
    """Whether the chunk's last token is the main verb of a do-support question the tagger read as a noun."""
    last = tokens[-1]
    # The sentence from the precomputed starts (Token.sent rescans the whole doc on every call).
    begin = max((i for i in starts if i <= tokens[0].i), default=0)
    end = min((i for i in starts if i > last.i), default=len(doc))
    sent = doc[begin:end]
    if not any(t.lower_ in ("do", "does", "did") and t.i < tokens[0].i for t in sent):
        return False
    if last.dep_ == "ROOT" or last.head.i == last.i:
        return True
    # No main verb in the question at all: the verb hides in a noun chunk, as its bare-form last word.
    if any(t.tag_ in ("VB", "VBP") for t in sent):
        return False
    nxt = doc[last.i + 1] if last.i + 1 < len(doc) else None
    if nxt is None or nxt.pos_ != "ADP" or nxt.lower_ == "of":  # "relate to", never "reach of"
        return False
    from faithguard.lexical.wordnet_mmap import get_wordnet

    return get_wordnet().is_verb(last.text)


def _names_one_thing(tokens: list[Any]) -> bool:
    """A singular head names one concept ("information cascade"); a plural head describes a class of things
    ("social media platforms"), and a phrase ending in a verb form is a misparse, not a name."""
    head = tokens[-1]
    return head.tag_ not in {"NNS", "NNPS", "VB", "VBP", "VBZ", "VBD", "VBG", "VBN"}


def _title_runs(doc: Any, starts: frozenset[int]) -> list[Candidate]:
    out: list[Candidate] = []
    run: list[Any] = []

    def flush() -> None:
        # A sentence-initial capital on an ordinary word ("Explain Nano-Sync ...") is not part of a name.
        while (
            len(run) > 1
            and run[0].i in starts
            and (
                run[0].tag_ in {"VB", "VBP", "VBZ", "RB", "WRB", "WP", "DT", "IN", "MD"}
                or run[0].pos_ == "VERB"
                or run[0].lower_ in _REQUEST_VERBS
            )
            and run[1].text != "-"
        ):
            run.pop(0)
            while run and (run[0].lower_ in _CONNECTORS or run[0].text == "-"):
                run.pop(0)
        while run and (run[-1].lower_ in _CONNECTORS or run[-1].text == "-"):
            run.pop()
        if run:
            first, last = run[0], run[-1]
            capped = [t for t in run if t.text[:1].isupper()]
            long_enough = len(capped) >= 2 or (first.i not in starts and _rare_word(first.text))
            if long_enough and not (len(run) == 1 and first.i in starts):
                start, end = first.idx, last.idx + len(last.text)
                out.append(Candidate(doc[first.i : last.i + 1].text, start, end, "title_case"))
        run.clear()

    for tok in doc:
        is_cap = tok.text[:1].isupper() and tok.pos_ in _RUN_POS and tok.text != "I"
        joins = bool(run) and (
            (tok.text == "-" and not run[-1].whitespace_)
            or (run[-1].text == "-" and not run[-1].whitespace_)
            or (
                tok.lower_ in _CONNECTORS
                and tok.i + 1 < len(doc)
                and (doc[tok.i + 1].text[:1].isupper() or doc[tok.i + 1].like_num)
            )
            or (run[-1].lower_ in _CONNECTORS and (tok.like_num or is_cap))
        )
        if is_cap and run and tok.i in starts:
            flush()
        if is_cap or joins:
            if not run and tok.i in starts and tok.pos_ not in {"PROPN", "NOUN", "X"}:
                continue
            run.append(tok)
        else:
            flush()
    flush()
    return out


def _quoted(text: str) -> list[Candidate]:
    out: list[Candidate] = []
    for m in _QUOTED.finditer(text):
        group = next(i for i in range(1, 5) if m.group(i) is not None)
        inner = m.group(group).strip().strip("\\").strip()
        if inner and len(inner.split()) <= _MAX_WORDS and any(ch.isalpha() for ch in inner):
            start = m.start(group) + (len(m.group(group)) - len(m.group(group).lstrip()))
            out.append(Candidate(inner, start, start + len(inner), "quoted"))
    return out


def extract_from_doc(doc: Any) -> list[Candidate]:
    """Candidates in a parsed spaCy ``Doc``: maximal spans only, in text order, deduplicated."""
    # Token.is_sent_start rescans the doc on every call: compute sentence starts once.
    starts = frozenset(s.start for s in doc.sents) if len(doc) else frozenset()
    found: list[Candidate] = _quoted(doc.text)
    found.extend(_title_runs(doc, starts))
    dos = tuple(t.i for t in doc if t.lower_ in ("do", "does", "did"))  # do-support questions only
    for chunk in doc.noun_chunks:
        cand = _noun_chunk(chunk, starts, dos)
        if cand is not None:
            found.append(cand)
    for tok in doc:  # rare nouns outside noun chunks (e.g. after a preposition the parser missed)
        if tok.pos_ in {"NOUN", "PROPN"} and _rare_word(tok.text) and not tok.is_stop:
            found.append(Candidate(tok.text, tok.idx, tok.idx + len(tok.text), "rare_word"))
    return _maximal(found)


def _maximal(found: list[Candidate]) -> list[Candidate]:
    """Maximal spans only (by kind priority, then length), in text order, deduplicated by normal form."""
    found.sort(key=lambda c: (_PRIORITY[c.source], -(c.end - c.start), c.start))
    kept: list[Candidate] = []
    # The kept spans never overlap, so ordered by (start, end) their ends never decrease: the one kept span that can
    # overlap a candidate is the last starting before the candidate ends. Each candidate is one search, not a pass
    # over all kept spans (thousands of quoted names in an answer cost the square of their number; issue 16).
    spans: list[tuple[int, int]] = []
    for cand in found:
        i = bisect.bisect_left(spans, (cand.end, -1))
        if i and spans[i - 1][1] > cand.start:
            continue
        bisect.insort(spans, (cand.start, cand.end))
        kept.append(cand)
    kept.sort(key=lambda c: c.start)
    return _unique(kept)


def _unique(kept: list[Candidate]) -> list[Candidate]:
    """The first candidate of each normal form, in order (a candidate with an empty normal form is dropped)."""
    seen: set[str] = set()
    unique: list[Candidate] = []
    for cand in kept:
        key = normalize(cand.text)
        if key and key not in seen:
            seen.add(key)
            unique.append(cand)
    return unique


def extract_candidates(text: str) -> list[Candidate]:
    """Candidate terms in ``text`` using the shared spaCy pipeline (memoised by text: a pure function)."""
    if not text or not text.strip():
        return []
    return list(_candidates_of(text))


@lru_cache(maxsize=QUERY_CACHE_SIZE)
def _candidates_of(text: str) -> tuple[Candidate, ...]:
    from faithguard.nlp import parse

    return tuple(extract_from_doc(parse(text)))


# -- names in an answer -------------------------------------------------------------------------------
#
# The answer-side check reads only quoted names and Title-Cased runs. A quoted name is found by a pattern
# over the text; a Title-Cased run needs part-of-speech tags and sentence starts, and it always holds two
# capitalised words or one that does not open its sentence (see ``_title_runs``). A sentence with no such
# word cannot yield one, so only the sentences that can are parsed, instead of the whole answer.

#: A sentence ends at a line break, or after . ! ? (and closing quotes) that follow a lower-case word of two
#: letters or more, before white space. Elsewhere it is left whole ("e.g. Paris", "U.S. Army", "Dr. Smith",
#: "1. Paris", "in 1990. Then"), and so is a period after a capitalised word of three or four letters, the
#: shape of a title's abbreviation ("Mrs. Quorvel", "Sen. Tollin", "Prof. Marvek"; also "in Rome. Then"):
#: a piece too long only costs parsing, a cut too early could hide a name or the title that types it.
#: Fixtures: tests/terms/test_answer_names.py.
_SENTENCE_END = re.compile(
    r"\n+|(?<=[^\W\d_A-Z][^\W\d_A-Z])(?:(?<!\b[A-Z][a-z]{2})(?<!\b[A-Z][a-z]{3})\.|[!?])[.!?]*[\"'”’]*(?=\s)"
)
#: A word or number ("Nano-Sync" is two words, "O'Neill" two). Its first letter decides whether it is capitalised.
_WORDS = re.compile(r"[^\W_]+")
#: Pipes the names read: tags, part of speech (attribute ruler) and sentence starts (parser); no lemmas.
_NAME_EXCLUDE = ("ner", "lemmatizer")


#: A pure function of the text, memoised: the name reading, the language map, each unbacked name's window and the
#: acceptance cues all ask it of the same answer (each asking scanned the whole answer again).
@lru_cache(maxsize=8)
def sentence_pieces(text: str) -> tuple[tuple[int, int, int, bool], ...]:
    """``(begin, end, previous, unended)`` of each sentence piece of ``text``: where it begins (at its first
    word) and ends, where the piece before it began, and whether the mark before it ends no sentence."""
    pieces: list[tuple[int, int, int, bool]] = []
    begin = 0
    previous = 0  # where the previous piece began
    bounds = [m.end() for m in _SENTENCE_END.finditer(text)] + [len(text)]
    last = ""  # the last character before this piece that is not white space ("" at the start)
    for end in bounds:
        while begin < end and text[begin].isspace():
            begin += 1  # a piece starts at its first word, as the sentence does inside the whole text
        pieces.append((begin, end, previous, last != "" and last not in ".!?"))
        body = text[begin:end].rstrip()  # each character is read once over the whole text: linear
        if body:
            last = body[-1]
        previous, begin = begin, end
    return tuple(pieces)


def name_regions(text: str, keep: Callable[[str], bool] | None = None) -> list[tuple[int, int]]:
    """(start, end) of the stretches of ``text`` that can hold a Title-Cased name, merged when adjacent.

    A sentence qualifies when it holds two capitalised words with only connectors or numbers between them
    (a run, as ``_title_runs`` joins them), or a rare capitalised word that is not its first word (a
    one-word name). A line that follows one not ended by . ! ? (a list item, a heading) may continue that
    line's sentence, so its first word counts too, and the previous line is parsed with it, as it would be
    read inside the whole text; so does a first word after a mark ("#Name", "**Name**"). Qualifying
    sentences that touch are joined, so a name is never cut. ``keep`` narrows them further: a sentence (with
    the line it continues) is taken only when ``keep`` holds for its text.
    """
    regions: list[tuple[int, int]] = []
    for begin, end, previous, unended in sentence_pieces(text):
        words = list(_WORDS.finditer(text, begin, end))
        # a first word after a mark ("#LifeOnMars", "**Outro**") may not open the sentence for the parser
        continues = unended or bool(words and words[0].start() > begin)
        start = previous if unended else begin
        if _may_hold_name([m.group() for m in words], first_counts=continues) and (
            keep is None or keep(text[start:end])
        ):
            if regions and (regions[-1][1] > start or not text[regions[-1][1] : start].strip()):
                regions[-1] = (regions[-1][0], end)
            else:
                regions.append((start, end))
    return regions


def name_window(text: str, start: int, end: int) -> tuple[int, int]:
    """The stretch of ``text`` a name found at ``[start, end)`` is read in: the sentence pieces it spans, from
    the piece before the first when that one continues an unended line (as :func:`name_regions` joins them).
    """
    pieces = [p for p in sentence_pieces(text) if p[1] > start and p[0] < end] or [(start, end, start, False)]
    first = pieces[0]
    return (first[2] if first[3] else first[0]), pieces[-1][1]


def _may_hold_name(words: list[str], *, first_counts: bool) -> bool:
    previous_cap = False  # a capitalised word since which only connectors and numbers came
    for i, word in enumerate(words):
        if word[:1].isupper():  # "I" too: "I." can open a numbered heading ("I. Introduction")
            if previous_cap or ((i > 0 or first_counts) and _rare_word(word)):
                return True
            previous_cap = True
        elif not (word.lower() in _CONNECTORS or word[:1].isdigit()):
            previous_cap = False
    return False


def extract_names(text: str, regions: tuple[tuple[int, int], ...] | None = None) -> list[Candidate]:
    """The quoted and Title-Cased candidates of ``text`` (memoised), parsing only where one can be.

    Meant for answers: what :func:`extract_candidates` yields of these two kinds, without the whole-text
    parse (noun compounds and rare words, which need it, are not read here). ``regions`` narrows the
    Title-Cased reading to some of :func:`name_regions`' stretches (each is parsed on its own either way,
    so a kept stretch yields the same names); by default all of them.
    """
    if not text or not text.strip():
        return []
    return list(_names_of(text, tuple(name_regions(text)) if regions is None else regions))


#: The name parses of the last few answers, by region: a name found unbacked is then read in its region's parse,
#: completed (NER, lemmas) rather than parsed again. Not a cache of results: :func:`_names_of` is that.
_RECENT_DOCS: OrderedDict[tuple[str, tuple[tuple[int, int], ...]], dict[tuple[int, int], Any]] = OrderedDict()
_RECENT_LOCK = threading.Lock()
_RECENT_SIZE = 4


def _held_parses(reading: tuple[str, tuple[tuple[int, int], ...]]) -> dict[tuple[int, int], Any]:
    """The region parses kept for one name reading (made the most recent; the oldest reading is dropped past
    :data:`_RECENT_SIZE`). Call with :data:`_RECENT_LOCK` held."""
    held = _RECENT_DOCS.setdefault(reading, {})
    _RECENT_DOCS.move_to_end(reading)
    while len(_RECENT_DOCS) > _RECENT_SIZE:
        _RECENT_DOCS.popitem(last=False)
    return held


#: Sentences read on each side of a name when its entity type is needed (NER and lemmas run over that window of
#: its region's parse, not over the whole region: NER costs ~40 us a token, more than the tagger and parser
#: together). Provenance: over the Title-Cased names of every dev answer (both split parts, 2,366 names), one
#: sentence each side gave the whole region's entity label for all but 1 (the name's sentence alone: 65 differ).
#: Fixtures: tests/terms/test_answer_names.py.
NER_CONTEXT_SENTENCES = 1


class NameContexts:
    """Full parses (NER, lemmas) of the text around the names ``extract_names(text, regions)`` found, made on demand.

    A name is read in the sentences around it (:data:`NER_CONTEXT_SENTENCES` each side) of its region's parse
    from the name reading, completed rather than parsed again; once the windows read in a region would cost as
    much as the region, the whole region is completed instead, so the work never exceeds one pass over it.
    """

    def __init__(self, text: str, regions: tuple[tuple[int, int], ...]) -> None:
        self._text, self._regions = text, regions
        self._regions_read: dict[tuple[int, int], tuple[Any, int]] = {}  # region -> (doc, offset)
        self._windows: dict[tuple[int, int], tuple[Any, int]] = {}  # (start, end) in the text -> (doc, offset)
        self._spent: dict[tuple[int, int], int] = {}  # region -> tokens completed in windows

    def at(self, start: int, end: int) -> tuple[Any, int] | None:
        """(full parse, where it begins in the text) around the name at ``[start, end)``; None when the name lies
        in no region (or its region holds no token).

        When the name reading's parse of the region is no longer held (the names came from its memo, the parses
        were dropped since), the region is parsed again as the name reading parsed it: the name is read in the
        same window whatever the caches hold, so a call checked again gets the same verdict.
        """
        from faithguard.nlp import complete_parse, parse_many

        region = next((r for r in self._regions if r[0] <= start < r[1]), None)
        if region is None:
            return None
        if region in self._regions_read:
            return self._regions_read[region]
        reading = (self._text, self._regions)
        with _RECENT_LOCK:
            held = _RECENT_DOCS.get(reading, {}).get(region)
        if held is None:
            held = next(parse_many([self._text[region[0] : region[1]]], exclude=_NAME_EXCLUDE))
            with _RECENT_LOCK:
                _held_parses(reading)[region] = held
        if not len(held):
            return None
        a, b = _sentences_around(held, start - region[0], end - region[0])
        window = held[a:b]
        key = (region[0] + window.start_char, region[0] + window.end_char)
        if key in self._windows:
            return self._windows[key]
        spent = self._spent.get(region, 0) + len(window)
        if spent >= len(held):  # the windows would cost the whole region: complete it once
            self._regions_read[region] = (complete_parse(held, _NAME_EXCLUDE), region[0])
            return self._regions_read[region]
        self._spent[region] = spent
        self._windows[key] = (complete_parse(window.as_doc(), _NAME_EXCLUDE), key[0])
        return self._windows[key]


def _sentences_around(doc: Any, start: int, end: int) -> tuple[int, int]:
    """Token range of the sentences of ``doc`` holding characters ``[start, end)``, widened by
    :data:`NER_CONTEXT_SENTENCES` sentences on each side."""
    sents = list(doc.sents)
    first = next((i for i, s in enumerate(sents) if s.end_char > start), len(sents) - 1)
    last = next((i for i, s in enumerate(sents) if s.end_char >= end), len(sents) - 1)
    first, last = max(0, first - NER_CONTEXT_SENTENCES), min(len(sents) - 1, max(first, last) + NER_CONTEXT_SENTENCES)
    return sents[first].start, sents[last].end


@lru_cache(maxsize=ANSWER_CACHE_SIZE)
def _names_of(text: str, regions: tuple[tuple[int, int], ...]) -> tuple[Candidate, ...]:
    from faithguard.nlp import parse_many
    from faithguard.runner import checkpoint

    found: list[Candidate] = _quoted(text)
    docs = parse_many([text[s:e] for s, e in regions], exclude=_NAME_EXCLUDE)
    with _RECENT_LOCK:
        kept = _held_parses((text, regions))
    for (offset, end), doc in zip(regions, docs, strict=True):
        checkpoint()  # a long answer: stop at the budget rather than parse on after the check gave up
        kept[(offset, end)] = doc
        starts = frozenset(s.start for s in doc.sents) if len(doc) else frozenset()
        for cand in _title_runs(doc, starts):
            found.append(Candidate(cand.text, cand.start + offset, cand.end + offset, cand.source, cand.name_like))
    return tuple(_maximal(found))
