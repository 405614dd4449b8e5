"""A cached view of a response: words, stems, name-like spans, list items, sentences, form cues.

Model-free on purpose: a regex tokeniser, :func:`wordforms.stem` and capitalisation-based names
(:mod:`faithguard.engine.names`) instead of a tagger/NER pass, so a 400-word response costs about a
millisecond rather than a neural pipeline run.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from faithguard.engine.names import analyse_names
from faithguard.engine.wordforms import stem

__all__ = ["ResponseView", "abbreviations", "norm", "pipe_table_spans", "pipe_tables", "view_of"]

_WORD = re.compile(r"[^\W_]+(?:['’-][^\W_]+)*", re.UNICODE)
#: a sentence joining words with "and" / "or", and where its conjuncts part (commas, those words)
_JOINED = re.compile(r"(?<!\w)(?:and|or)(?!\w)", re.I)
_CONJUNCT_CUT = re.compile(r",|(?<!\w)(?:and|or)(?!\w)", re.I)
#: A list item: a bullet or a number at a line's start, the number also inside bold or after a heading mark
#: ("**1. Keep a schedule.**", "### 2. Avoid screens"). Fixtures: tests/engine/test_list_levels.py.
#: ``number`` is the marker when it enumerates (a number, "(2)", "a."), absent for a bullet.
_LIST_ITEM = re.compile(
    r"^[ ]{0,3}(?:(?P<number>(?:\*\*|__|#{1,6}[ ]+)?\d{1,3}[.)]|\(\d{1,3}\)|[a-z][.)])|[-*•+])\s+(?P<item>\S.*)$",
    re.MULTILINE,
)
_SENT = re.compile(r"(?<=[.?!])[\"')\]]*\s+(?=[\"'(\[]?[A-Z0-9])")
#: Code cues; ``^[ \t]*`` (not ``^\s*``) so the indentation scan never runs across following blank lines.
_CODE = re.compile(r"```|^[ \t]*(def |class |import |function |#include|public static|SELECT |<\w+>)|[{};]\s*$", re.M)
_COMPARATIVE = re.compile(
    r"\b(than|whereas|unlike|both|similar(?:ly)?|similarit\w*|differ\w*|in contrast|compared|comparison|"
    r"on the other hand|while|vs\.?|versus|likewise|alike)\b",
    re.IGNORECASE,
)
_EVALUATIVE = re.compile(
    r"\b(i would rate|rating|score of|scores?:|\d+(?:\.\d+)?\s*/\s*10|out of (?:10|ten|5|five)|strengths?|"
    r"weakness(?:es)?|well[- ]written|poorly|assessment|evaluation|i recommend|overall,? (?:the|this) "
    r"(?:response|essay|answer|article|text) is)\b",
    re.IGNORECASE,
)
_SUMMARY = re.compile(
    r"\b(in summary|to summari[sz]e|in short|this (?:article|text|passage|document|report) "
    r"(?:discusses|describes|explains|argues|covers|is about)|the (?:article|text|author) (?:discusses|argues|"
    r"describes|explains))\b",
    re.IGNORECASE,
)
#: A Markdown/GFM pipe table: a header row, a delimiter row of dashes (optionally with colons) and body rows.
# possessive runs: a long run of spaces is never re-split between adjacent blank groups (linear, audited)
_TABLE_DELIMITER = re.compile(r"^[ \t]*+\|?[ \t]*+:?-++:?[ \t]*+(?:\|[ \t]*+:?-++:?[ \t]*+)++\|?[ \t]*+$")


def _cells(line: str) -> int:
    """Cells of one pipe-table row (outer pipes optional)."""
    inner = line.strip()
    inner = inner[1:] if inner.startswith("|") else inner
    inner = inner[:-1] if inner.endswith("|") else inner
    return inner.count("|") + 1


def pipe_table_spans(text: str) -> tuple[tuple[int, int, int, int], ...]:
    """(start, end, body rows, columns) of each GFM pipe table in ``text``, in order.

    A table is a row with a pipe, then a delimiter row with as many cells, then the rows with a pipe
    that follow; its columns are the header row's cells.
    """
    lines = text.splitlines(keepends=True)
    offsets = [0]
    for ln in lines:
        offsets.append(offsets[-1] + len(ln))
    out: list[tuple[int, int, int, int]] = []
    i = 1
    while i < len(lines):
        head, delim = lines[i - 1].rstrip("\r\n"), lines[i].rstrip("\r\n")
        if "|" in head and _TABLE_DELIMITER.match(delim) and _cells(head) == _cells(delim):
            j = i + 1
            while j < len(lines) and "|" in lines[j] and lines[j].strip():
                j += 1
            out.append((offsets[i - 1], offsets[j], j - i - 1, _cells(head)))
            i = j + 1
        else:
            i += 1
    return tuple(out)


def pipe_tables(text: str) -> tuple[tuple[int, int], ...]:
    """(body rows, columns) of each GFM pipe table in ``text``, in order (columns from the header row)."""
    return tuple((rows, cols) for _, _, rows, cols in pipe_table_spans(text))


_GROUPS = (
    frozenset({"PERSON", "ORG"}),
    frozenset({"GPE", "LOC"}),
    frozenset({"WORK_OF_ART", "PRODUCT", "EVENT", "FAC"}),
)
_NAMED = frozenset({"PERSON", "ORG", "GPE", "LOC", "NORP", "WORK_OF_ART", "PRODUCT", "EVENT", "FAC", "LANGUAGE"})


_ALPHA_WORD = re.compile(r"[^\W\d_]+")


def _prose_line(line: str) -> bool:
    """Whether a line has a word that does not start with a capital (lower case, or a script without case)."""
    return any(not m.group(0)[0].isupper() for m in _ALPHA_WORD.finditer(line))


def evidence_text(text: str) -> str:
    """The lines of ``text`` that can carry evidence: capitalisation alone is never evidence.

    When the response has a prose line (one with a lower-case word), lines without any lower-case
    word that are not list items (tag lines, signatures, title-case banners: "Verified By Acme") are
    left out: appended capitalised words must not count as named answers or mentions. A response
    with no prose line at all ("Ebro\nTagus") keeps every line.
    """
    lines = text.splitlines()
    prose = [_prose_line(ln) for ln in lines]
    if not any(prose) or all(prose):
        return text
    return "\n".join(ln for ln, p in zip(lines, prose, strict=True) if p or _LIST_ITEM.match(ln) is not None)


def norm(word: str) -> str:
    """A crude stem: lower case, plural and past endings dropped."""
    w = word.lower().strip("'’")
    if len(w) > 4 and w.endswith("ies"):
        return w[:-3] + "y"
    if len(w) > 4 and w.endswith(("sses", "shes", "ches", "xes")):
        return w[:-2]
    if len(w) > 3 and w.endswith("s") and not w.endswith(("ss", "us", "is")):
        return w[:-1]
    if len(w) > 5 and w.endswith("ed"):
        return w[:-2]
    return w


@dataclass(frozen=True)
class ResponseView:
    """Everything the offline checks read from one response."""

    text: str
    #: :func:`evidence_text` of the response, lower-cased: what mentions and names are read from.
    lower: str
    words: tuple[str, ...]
    lowered: frozenset[str]
    stems: frozenset[str]
    entities: tuple[tuple[str, str], ...]
    items: tuple[str, ...]
    #: The main list's items at its outermost level, and at every level (:func:`_lists`); ``items`` holds every
    #: list-marked line, sub-items indented up to three spaces and lines of other lists and of code included.
    outer_items: tuple[str, ...]
    list_items: tuple[str, ...]
    #: the headings opening the answer's markdown sections (:func:`_sections`)
    sections: tuple[str, ...]
    sentences: tuple[str, ...]
    lines: tuple[str, ...]
    blocks: tuple[str, ...]
    has_code: bool
    names_reliable: bool
    comparative: bool
    evaluative: bool
    summary_cues: bool
    #: (body rows, columns) of each pipe table (:func:`pipe_tables`)
    tables: tuple[tuple[int, int], ...] = ()
    #: breaks between ``sentences`` that follow an abbreviation (:func:`_abbreviation_stops`): the answer has
    #: between ``len(sentences) - abbreviation_stops`` and ``len(sentences)`` sentences
    abbreviation_stops: int = 0

    @property
    def empty(self) -> bool:
        """No word at all."""
        return not self.words

    @property
    def units(self) -> tuple[str, ...]:
        """List items when the response is a list, else sentences."""
        return self.items if len(self.items) >= 2 else self.sentences

    def coordinations(self) -> list[tuple[str, ...]]:
        """The conjuncts of each sentence that joins with "and" / "or", cut at its commas and those words
        ("strawberries, cherries and raspberries" -> 3): what the sentence may enumerate. Names found by
        capitalisation can undercount the items of an answer (common nouns, a name opening the sentence); whether
        the conjuncts are items of the asked kind is for WordNet to say (``placed.typed_conjuncts``).
        Fixtures: tests/engine/test_coordinated.py."""
        out: list[tuple[str, ...]] = []
        for sentence in self.sentences:
            if _JOINED.search(sentence):
                parts = tuple(p.strip(" .;:!?") for p in _CONJUNCT_CUT.split(sentence))
                out.append(tuple(p for p in parts if p))
        return out

    def named(self, labels: frozenset[str] = _NAMED) -> list[str]:
        """Distinct named entities of the given labels, in order."""
        seen: dict[str, None] = {}
        for text, label in self.entities:
            if label in labels:
                seen.setdefault(text.lower(), None)
        return list(seen)

    def dominant_named(self) -> list[str]:
        """Distinct entities of the largest entity group (people/organisations, places, works)."""
        best: list[str] = []
        for group in _GROUPS:
            names = self.named(group)
            if len(names) > len(best):
                best = names
        return best

    def has_term(self, term: str) -> bool:
        """Whether a word (by stem, or a 7-letter prefix for long words) or a phrase occurs."""
        t = term.lower().strip()
        if not t:
            return False
        if " " in t or not t.isalpha():
            return re.search(r"(?<!\w)" + re.escape(t) + r"(?!\w)", self.lower) is not None
        if len(t) <= 3:
            return t in self.lowered  # short words ("us", "art") match only as themselves
        s = stem(t)
        if s in self.stems:
            return True
        if len(s) >= 8:
            prefix = s[:7]
            return any(w.startswith(prefix) for w in self.stems)
        return False


#: A fenced code block: its lines ("# 1. Load the data", "- x") are code, not list items.
_FENCED = re.compile(r"(?ms)^[ \t]*```.*?(?:^[ \t]*```|\Z)")


def _unfenced(text: str) -> str:
    """``text`` with fenced code blocks blanked (same length, line breaks kept)."""
    if "```" not in text:
        return text
    return _FENCED.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)


def without_code(text: str) -> str:
    """``text`` with its fenced code blocks left out (each becomes one space): the answer's prose."""
    return _FENCED.sub(" ", text) if "```" in text else text


def _lists(unfenced: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The answer's main list (``unfenced``: the answer with its fenced code blanked, :func:`_unfenced`): its items
    at the outermost level, and its items at every level.

    An item indented two or more spaces further than the least indented one is a sub-item of the item above it
    ("1. Health:" then "   - better heart"); one space is alignment (" 9." above "10."). Where bullets sit
    between numbered items at that level, the numbered ones head the list and the bullets detail them
    ("**1. Better health**" then "- Lowers stress"). Otherwise a numbered list before or after bullets is a list
    of its own (steps after tips, a bulleted summary after numbered sections), and the longest of them is the
    answer's main list. Lines in fenced code are not items. Fixtures: tests/engine/test_list_levels.py.
    """
    found = [
        (len(m.group(0)) - len(m.group(0).lstrip(" ")), m.group("number") is not None, m.group("item").strip())
        for m in _LIST_ITEM.finditer(unfenced)
    ]
    if not found:
        return (), ()
    outer = min(indent for indent, _, _ in found)
    top = [(numbered, item) for indent, numbered, item in found if indent <= outer + 1]
    numbered_at = [i for i, (numbered, _) in enumerate(top) if numbered]
    if numbered_at and any(not top[i][0] for i in range(numbered_at[0], numbered_at[-1])):
        return tuple(item for numbered, item in top if numbered), tuple(item for _, _, item in found)
    # runs of one marker kind at the outer level, each with the sub-items under its items
    runs: list[tuple[bool, list[str], list[str]]] = []
    for indent, numbered, item in found:
        if indent > outer + 1:
            if runs:
                runs[-1][2].append(item)
        elif runs and runs[-1][0] == numbered:
            runs[-1][1].append(item)
            runs[-1][2].append(item)
        else:
            runs.append((numbered, [item], [item]))
    _, heads, every = max(runs, key=lambda run: len(run[1]))
    return tuple(heads), tuple(every)


#: A markdown heading line: one to six "#" and a space (CommonMark ATX heading).
_HEADING = re.compile(r"^[ ]{0,3}(#{1,6})[ \t]+(\S.*)$", re.MULTILINE)


def _sections(unfenced: str) -> tuple[str, ...]:
    """The headings that open the answer's sections (``unfenced``: fenced code blanked, so its lines are no
    headings): those of the shallowest heading level, or of the next level when the shallowest holds only a title
    above them ("# Essay" over "## Intro", "## Body"). Fixtures: tests/engine/test_list_levels.py."""
    found = [(len(m.group(1)), m.group(2).strip()) for m in _HEADING.finditer(unfenced)]
    if not found:
        return ()
    levels = sorted({level for level, _ in found})
    level = levels[0]
    if len(levels) > 1 and sum(1 for lv, _ in found if lv == level) == 1 and found[0][0] == level:
        level = levels[1]
    return tuple(heading for lv, heading in found if lv == level)


@lru_cache(maxsize=1)
def abbreviations() -> frozenset[str]:
    """Abbreviations spaCy's English tokenizer keeps whole with their full stop ("Mr.", "Inc.", "e.g."): 117 in
    spaCy 3.8, read from the installed package (its tokenizer exceptions), not typed here."""
    from spacy.lang.en import English

    exceptions = English.Defaults.tokenizer_exceptions
    return frozenset(k for k, v in exceptions.items() if len(k) > 1 and k.endswith(".") and len(v) == 1)


def _abbreviation_stops(pieces: Sequence[str]) -> int:
    """How many sentence breaks between ``pieces`` follow an abbreviation: there the text may go on
    ("Mr. Lee") or a new sentence may start ("... Acme Inc. It grew"), so the sentence count is a range."""
    if len(pieces) < 2:
        return 0
    known = abbreviations()
    return sum(1 for piece in pieces[:-1] if piece.rsplit(None, 1)[-1] in known)


@lru_cache(maxsize=64)
def view_of(text: str, parse: bool = True) -> ResponseView:
    """Build (and cache) the view of one response; ``parse=False`` skips name spans."""
    words = tuple(_WORD.findall(text))
    evidence = evidence_text(text)
    ev_words = tuple(_WORD.findall(evidence)) if evidence is not text else words
    stems = {stem(w) for w in ev_words}
    stems.update(stem(p) for w in ev_words if "-" in w for p in w.split("-") if p)
    entities: tuple[tuple[str, str], ...] = ()
    reliable = False
    if parse and words:
        head = evidence[:20000]
        spans, reliable = analyse_names(head)
        entities = tuple((" ".join(head[a:b].split()), label) for a, b, label in spans)
    lines = tuple(ln.strip() for ln in text.splitlines() if ln.strip())
    unfenced = _unfenced(text)
    outer_items, list_items = _lists(unfenced)
    blocks = tuple(b.strip() for b in re.split(r"\n\s*\n", text) if b.strip())
    flat = " ".join(text.split())
    sentences = tuple(s.strip() for s in _SENT.split(flat) if s.strip()) if flat else ()
    return ResponseView(
        text=text,
        lower=evidence.lower(),
        words=words,
        lowered=frozenset(w.lower() for w in ev_words),
        stems=frozenset(stems),
        entities=entities,
        items=tuple(m.group("item").strip() for m in _LIST_ITEM.finditer(text)),
        outer_items=outer_items,
        list_items=list_items,
        sections=_sections(unfenced),
        abbreviation_stops=_abbreviation_stops(sentences),
        sentences=sentences,
        lines=lines,
        blocks=blocks,
        has_code=_CODE.search(text) is not None,
        names_reliable=reliable,
        comparative=_COMPARATIVE.search(text) is not None,
        evaluative=len(_EVALUATIVE.findall(text)) >= 2,
        summary_cues=_SUMMARY.search(text) is not None,
        tables=pipe_tables(text) if "|" in text else (),
    )
