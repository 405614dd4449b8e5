"""Instruction versus content in one request, by structure: pasted material is used, not obeyed.

A request often carries material the answer works on: an article after "Summarize this:", code in a
fence, a pasted pipe table, a transcript of labelled turns, few-shot "Input:/Output:" examples, a long quotation, a role
line ("You are a mathematician."). Their facts ("40 km", "by 2026") are not constraints on the
answer. Content is found from layout alone (delimiters, a colon that ends a line, quotes, labels,
the subject-"be" syntax of a role line) and masked with blanks so character offsets stay valid.
"""

from __future__ import annotations

import bisect
import re
import sys
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from faithguard.engine.response import pipe_table_spans

__all__ = [
    "ContentSpan",
    "content_spans",
    "instruction_text",
    "language_of",
    "load_language_id",
    "outside_reach",
    "quotations",
    "role_sentences",
]

#: ```...``` or ~~~...~~~ fenced blocks (an unclosed fence runs to the end).
_FENCE = re.compile(r"^[ \t]*(```|~~~)[^\n]*\n.*?(?:^[ \t]*\1[ \t]*$|\Z)", re.MULTILINE | re.DOTALL)
#: Triple-quoted blocks and <tag>...</tag> blocks.
_TRIPLE = re.compile(r'"""(?:(?!""").)*(?:"""|\Z)|\'\'\'(?:(?!\'\'\').)*(?:\'\'\'|\Z)', re.DOTALL)
_TAGGED = re.compile(r"<([A-Za-z][\w-]{0,30})>(?:(?!</\1>).)*</\1>", re.DOTALL)
#: Straight or curly double quotes around text (one line or several).
_QUOTED = re.compile(
    r"\"[^\"\n]{1,2000}\"|“[^”]{1,2000}”"
    # single quotes too: one opens after no letter and closes before none; an apostrophe inside a word stays
    # (not an elision: "'90s"; the closing one before a stop, a line end or a capital, not "the artists' work")
    r"|(?<![\w'‘’])['‘](?!\d)(?:[^'‘’\n]|(?<=\w)['’](?=\w)){1,2000}['’](?![\w'’])(?=\s*(?:$|[.,;:!?)\]\n]|[A-Z]))"
)
#: "Label: text" at a line start (Input:, Output:, Q:, Speaker 1:, Article:). Up to three words of label.
_LABEL_LINE = re.compile(r"^[ \t]*([A-Z][\w'.-]*(?:[ \t]+[\w'.-]+){0,2})[ \t]*:[ \t]*(\S.*)?$", re.MULTILINE)
_ITEM = re.compile(r"^[ \t]*(?:\d{1,2}[.)]|[-*•]|\(\d{1,2}\)|[a-h][.)])[ \t]+\S")
_WORD = re.compile(r"[^\W_]+")

#: A quotation this long is material, not a phrase the answer must use (IFEval-style exact phrases are short).
QUOTE_MIN_WORDS = 12
#: A block after a line-ending colon this long is material; shorter blocks may be the request itself.
BLOCK_MIN_WORDS = 25


@dataclass(frozen=True)
class ContentSpan:
    """One stretch of pasted material: [start, end) and the structure that marked it."""

    start: int
    end: int
    kind: str


def quotations(text: str) -> list[tuple[int, int]]:
    """Character spans of every quotation in ``text`` (double or single quotes, any length), quote marks included:
    short ones too, which :func:`content_spans` leaves in the request (an exact phrase to use is short)."""
    return [(m.start(), m.end()) for m in _QUOTED.finditer(text)]


def _words(text: str) -> int:
    return len(_WORD.findall(text))


class _Addressing:
    """The tokens of a parse that speak to the answerer, by their end offsets: a second-person word, or an imperative
    main verb. Requirements written after a colon ("Follow these rules:\n Your essay must...; Use...") are the
    request, not material; an article or a draft rarely gives the reader orders. Whether a stretch holds one is a
    search, not a walk over its tokens (a request of 2,000 ``Label:`` lines asked it of every block after every
    colon, each running to the end of the text)."""

    def __init__(self, doc: Any) -> None:
        self._spans: list[tuple[int, int]] = []  # (end, start) of each addressing token, in text order
        for tok in doc:
            subject = tok.dep_ == "ROOT" and tok.tag_ == "VB"
            if tok.lower_ in ("you", "your", "yours", "yourself") or (
                subject and not any(c.dep_ in ("nsubj", "nsubjpass") for c in tok.children)
            ):
                self._spans.append((tok.idx + len(tok.text), tok.idx))

    def within(self, start: int, end: int) -> bool:
        """Whether a token overlapping ``[start, end)`` speaks to the answerer (``char_span``'s "expand" reading)."""
        i = bisect.bisect_right(self._spans, (start, sys.maxsize))
        return i < len(self._spans) and self._spans[i][1] < end and start < end


class _Lines:
    """A text's lines (as ``str.splitlines`` cuts them) with suffix counts of its non-blank, list-item and question
    lines, and its word starts: a block from any line start reads its counts at once instead of splitting and
    searching the rest of the text again."""

    def __init__(self, text: str) -> None:
        self.starts: list[int] = []
        flags: list[tuple[bool, bool, bool]] = []
        at = 0
        for line in text.splitlines(keepends=True):
            self.starts.append(at)
            at += len(line)
            body = next(iter(line.splitlines()), "")  # the line without its break
            filled = bool(body.strip())
            flags.append((filled, _ITEM.match(body) is not None, body.rstrip().endswith("?")))
        n = len(flags)
        self._after = [(0, 0, 0)] * (n + 1)
        for i in range(n - 1, -1, -1):
            filled, item, question = flags[i]
            tail = self._after[i + 1]
            self._after[i] = (tail[0] + filled, tail[1] + item, tail[2] + question)
        self._words = [m.start() for m in _WORD.finditer(text)]

    def counts(self, start: int) -> tuple[int, int, int]:
        """(non-blank lines, list-item lines, question lines) of the text from the line starting at ``start``."""
        return self._after[bisect.bisect_left(self.starts, start)]

    def words(self, start: int) -> int:
        """``_words(text[start:])``: the word pattern cannot cross the line break before a line start."""
        return len(self._words) - bisect.bisect_left(self._words, start)


#: A first paragraph that ends by pointing forward to what follows ("... the plan described below.", "Critique
#: the following proposal."): "below" as its last word, or "the following" and a noun or two as its last words.
#: English's forward deictics, a closed class; "the flat below mine", "below zero", "a dog following its owner"
#: do not end the paragraph pointing.
_ENDS_POINTING = re.compile(r"(?i)(?:\bbelow|\bthe\s+following(?:\s+[\w-]+){1,2})\s*[.:!]?\s*$")


def _block_starts(text: str) -> list[int]:
    """Where pasted material may start: after a line ending with ':', or after the paragraph break that follows
    a first paragraph ending by pointing forward ("List three risks in the plan described below.\n\nThe ...")."""
    starts = [m.end() for m in re.finditer(r":[ \t]*\n", text)]
    first_break = re.search(r"\n[ \t]*\n", text)
    if first_break and _ENDS_POINTING.search(text[: first_break.start()]):
        starts.append(first_break.end())
    return sorted(starts)


def _colon_blocks(text: str, doc: Any | None = None) -> list[ContentSpan]:
    """Text after a line that ends with ':' (or after a first paragraph pointing forward to it) up to the end,
    when it is prose material (not items, questions or orders to the answerer)."""
    out: list[ContentSpan] = []
    starts = _block_starts(text)
    if not starts:
        return out
    read = _Lines(text)
    addressing = _Addressing(doc) if doc is not None else None
    for start in starts:
        block = text[start:]
        filled, items, questions = read.counts(start)
        if not filled or read.words(start) < BLOCK_MIN_WORDS:
            continue
        if items >= 2:
            continue  # a numbered/bulleted list after a colon is usually the request's own parts
        if questions >= max(1, filled // 2):
            continue  # questions to answer
        # the material ends where a blank line is followed by a short closing request line
        end = len(text)
        paragraphs = list(re.finditer(r"\n[ \t]*\n", block))
        if paragraphs:
            tail = block[paragraphs[-1].end() :]
            if 0 < _words(tail) <= 40 and not _LABEL_LINE.match(tail) and "\n" not in tail.strip():
                end = start + paragraphs[-1].start()
        if addressing is not None and addressing.within(start, end):
            continue
        out.append(ContentSpan(start, end, "block"))
        break  # the first such colon opens the material
    return out


def _labelled_lines(text: str) -> list[ContentSpan]:
    """'Label: text' lines whose label repeats (turns of a transcript, Input/Output examples) are material.

    A label used once ("Note: ...", "Title: ...") is how requests state their own requirements.
    """
    lines = [m for m in _LABEL_LINE.finditer(text) if m.group(2)]
    labels = [m.group(1).split()[0].lower() for m in lines]
    repeated = {lab for lab in labels if labels.count(lab) >= 2}
    return [
        ContentSpan(m.start(), m.end(), "labelled") for m, lab in zip(lines, labels, strict=True) if lab in repeated
    ]


def _gives_orders(text: str) -> bool:
    """Whether a line states a requirement by its syntax (its own parse): a modal verb ("must be short") or an
    imperative main verb ("mention three flowers"). A pasted sentence states facts ("A storm hits the coast.")."""
    from faithguard.nlp import parse

    for tok in parse(text[:1000]):
        if tok.tag_ == "MD":
            return True
        if tok.dep_ == "ROOT" and tok.tag_ == "VB" and not any(c.dep_ in ("nsubj", "nsubjpass") for c in tok.children):
            return True
    return False


def _definite_referents(doc: Any, before: int) -> set[str]:
    """Lemmas of nouns the text names as a known thing to work on before offset ``before``: the direct object of
    a verb ("Translate *the sentence*", "Rewrite *this message*") whose determiner spaCy's morphology marks
    definite or demonstrative. A noun in a prepositional phrase ("according to *the rule*", "in *the style*",
    "using *the format*") names how to work: its label line states requirements, not material."""
    out: set[str] = set()
    for tok in doc:
        obj = tok.head if tok.dep_ == "conj" else tok  # "the title and *the abstract*"
        if tok.idx >= before or tok.pos_ != "NOUN" or obj.dep_ != "dobj":
            continue
        verb = obj.head
        if verb.dep_ not in ("ROOT", "conj") or verb.tag_ == "VBG":  # "using the format": a manner, not a task
            continue
        for det in tok.children:
            if det.dep_ == "det" and ("Def" in det.morph.get("Definite") or "Dem" in det.morph.get("PronType")):
                out.add(tok.lemma_.lower())
    return out


def _referenced_labels(text: str, doc: Any) -> list[ContentSpan]:
    """'Label: text' lines whose label the request names before them as the definite object of its verb.

    "Translate the sentence into French.\nSentence: The cat sleeps." points to its material by the label; a
    line that states a requirement (a modal, an imperative: "Title: must be short") is the request itself.
    """
    lines = [m for m in _LABEL_LINE.finditer(text) if m.group(2)]
    if not lines:
        return []
    referents = _definite_referents(doc, lines[0].start())
    if not referents:
        return []
    out: list[ContentSpan] = []
    for m in lines:
        head = doc.char_span(m.start(1), m.end(1), alignment_mode="expand")
        if head is None or not len(head) or head[-1].lemma_.lower() not in referents:
            continue
        if not _gives_orders(m.group(2)):
            out.append(ContentSpan(m.start(), m.end(), "labelled"))
    return out


@lru_cache(maxsize=1)
def _role_specs() -> list[dict[str, Any]]:
    from faithguard.specfiles import read_specs

    return list(read_specs("faithguard.engine", "data/content_patterns.json"))


@lru_cache(maxsize=1)
def _matcher() -> Any:
    from faithguard.nlp import get_nlp
    from faithguard.nlp_tree import TreeMatcher

    matcher = TreeMatcher(get_nlp().vocab)
    for spec in _role_specs():
        matcher.add(spec["id"], [spec["pattern"]])
    return matcher


def role_sentences(doc: Any) -> list[tuple[int, int, str]]:
    """(start char, end char, spec id) of sentences a role/persona spec matches ("You are a mathematician.")."""
    from faithguard.nlp import tree_matches

    out: dict[tuple[int, int], str] = {}
    for match_id, token_ids in tree_matches(_matcher(), doc):
        sent = doc[token_ids[0]].sent
        out.setdefault((sent.start_char, sent.end_char), doc.vocab.strings[match_id])
    return [(a, b, k) for (a, b), k in sorted(out.items())]


def content_spans(text: str, doc: Any | None = None) -> list[ContentSpan]:
    """Pasted material in ``text``, merged and sorted; ``doc`` (a parse of ``text``) adds role lines."""
    spans: list[ContentSpan] = []
    spans += [ContentSpan(m.start(), m.end(), "fence") for m in _FENCE.finditer(text)]
    spans += [ContentSpan(m.start(), m.end(), "triple-quote") for m in _TRIPLE.finditer(text)]
    spans += [ContentSpan(m.start(), m.end(), "tagged") for m in _TAGGED.finditer(text)]
    spans += [
        ContentSpan(m.start(), m.end(), "quote")
        for m in _QUOTED.finditer(text)
        if _words(m.group(0)) >= QUOTE_MIN_WORDS
    ]
    spans += _colon_blocks(text, doc)
    spans += _labelled_lines(text)
    if "|" in text:
        spans += [ContentSpan(a, b, "table") for a, b, _, _ in pipe_table_spans(text)]
    if doc is not None:
        spans += [ContentSpan(a, b, "role") for a, b, _ in role_sentences(doc)]
        spans += _referenced_labels(text, doc)
    spans.sort(key=lambda s: (s.start, -s.end))
    merged: list[ContentSpan] = []
    for s in spans:
        if merged and s.start < merged[-1].end:
            last = merged[-1]
            merged[-1] = ContentSpan(last.start, max(last.end, s.end), last.kind)
        else:
            merged.append(s)
    return merged


#: Content kinds that stand apart from the surrounding sentences: their blank ends with a sentence stop.
_STANDALONE = frozenset({"fence", "triple-quote", "tagged", "block", "labelled", "table"})


def instruction_text(text: str, spans: list[ContentSpan]) -> str:
    """``text`` with every content span blanked (newlines kept), so offsets still index the original.

    A standalone block's blank ends in a '.', so the request before it and the one after it
    ("Here is an article: ... List three facts.") are read as separate sentences.
    """
    if not spans:
        return text
    chars = list(text)
    for s in spans:
        last = None
        for i in range(s.start, s.end):
            if chars[i] != "\n":
                chars[i] = " "
                last = i
        if s.kind in _STANDALONE and last is not None:
            chars[last] = "."
    return "".join(chars)


#: A request is read as another language when py3langid gives English less than this probability...
ENGLISH_MAX_PROB = 0.01
#: ...and its top language at least this one.
OTHER_LANGUAGE_MIN_PROB = 0.5
#: ...and it has at least this many words (shorter texts give unstable language ids).
LANGUAGE_MIN_WORDS = 4


def load_language_id(wait: bool = True) -> None:
    """Load py3langid's model (BSD-3-Clause, ~4 MB, ~0.4 s; ``faithguard.lexical.langid.load_model``, shared with the
    verifiers and the term checks); without ``wait``, in a daemon thread."""
    from faithguard.lexical.langid import load_model

    load_model(wait=wait)


def language_of(text: str) -> tuple[str, float, float] | None:
    """(top ISO 639-1 code, its probability, English's probability) from py3langid.

    None when py3langid is not installed or its model is still loading (a load is then started).
    """
    from faithguard.lexical.langid import load_model, model_ranking

    if load_model(wait=False) is None:
        return None
    ranked = model_ranking(text)
    english = next((p for lang, p in ranked if lang == "en"), 0.0)
    return ranked[0][0], ranked[0][1], english


def outside_reach(instruction: str) -> str | None:
    """Why the engine cannot read this request's instruction (text left after masking content), or None."""
    if _words(instruction) == 0:
        return "the request holds no instruction outside pasted material (code, quotes, examples)"
    if _words(instruction) >= LANGUAGE_MIN_WORDS:
        found = language_of(" ".join(instruction.split()))
        if found is not None and found[2] < ENGLISH_MAX_PROB and found[1] >= OTHER_LANGUAGE_MIN_PROB:
            return f"the request is written in another language ({found[0]!r}); the offline engine reads English"
    return None


def fixture_problem(path: str, spec_id: str, fixture: Any, positive: bool) -> str | None:
    """One fixture of ``data/content_patterns.json`` (run by ``tests/test_spec_fixtures.py``)."""
    from faithguard.nlp import parse

    found = spec_id in {k for _, _, k in role_sentences(parse(str(fixture)))}
    return None if found is positive else f"{spec_id} {'missed' if positive else 'matched'} {fixture!r}"
