"""What a text supplies: labelled sections, tagged blocks, fences, quotes, free paragraphs, placeholders."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from faithguard.inputs.orders import WORD_RE as _WORD_RE
from faithguard.inputs.orders import is_instruction, orders_reader, word_count
from faithguard.inputs.tables import delimited_blocks
from faithguard.inputs.vocab import kind_of
from faithguard.inputs.word_tests import imperative

__all__ = [
    "FULL_WORDS",
    "Block",
    "Scan",
    "ends_with_answer_field",
    "is_instruction",
    "orders_reader",
    "overlaps",
    "scan",
    "sentence_spans",
    "word_count",
]

#: A free paragraph or colon tail with at least this many words counts as a full document.
FULL_WORDS = 12

_LABEL_RE = re.compile(
    r"(?m)^[ \t]*(?:[#*>\-]+[ \t]*)?(?P<name>[A-Za-z][A-Za-z-]*(?:[ \t]+[A-Za-z][A-Za-z-]*)?)"
    r"(?:[ \t]*#?(?P<idx>\d{1,2}|[A-H]))?[ \t]*\**[ \t]*[:：][ \t]*"
    # a markdown heading is a label too: "## Article 2" on a line of its own
    r"|^[ \t]*#{1,6}[ \t]+(?P<hname>[A-Za-z][A-Za-z-]*(?:[ \t]+[A-Za-z][A-Za-z-]*)?)"
    r"(?:[ \t]*#?(?P<hidx>\d{1,2}|[A-H]))?[ \t]*(?=\n|$)"
)
_HEADING_RE = re.compile(r"(?m)^[ \t]*#{1,6}[ \t]+\S")
_TAG_RE = re.compile(
    r"<(?P<tag>[A-Za-z][\w-]{0,30})(?:\s[^<>]*)?>(?P<body>(?:(?!<(?P=tag)[\s>]).)*?)</(?P=tag)\s*>", re.S
)
_SELF_TAG_RE = re.compile(r"<(?P<tag>[A-Za-z][\w-]{0,30})\s*/>")
_OPEN_TAG_RE = re.compile(r"<(?P<tag>[A-Za-z][\w-]{0,30})(?:\s[^<>]*)?>")
#: Triple quotes with only whitespace between them. Fixtures: tests/inputs/test_generalize.py (empty_quote_block).
_EMPTY_QUOTE_RE = re.compile(r"(\"\"\"|''')[ \t\r\n]*\1")
_FENCE_RE = re.compile(r"```[^\n`]*\n?(?P<body>.*?)```", re.S)
_QUOTE_RE = re.compile(
    r"\"\"\"(?P<b1>.+?)\"\"\"|'''(?P<b2>.+?)'''|\"(?P<b3>[^\"\n]{3,3000})\"|“(?P<b4>[^”]{3,3000})”"
    # single quotes: an apostrophe between two letters stays inside ('Please send me the files, I can't wait.')
    r"|(?<![\w'])'(?P<b5>(?:[^'\n]|(?<=\w)'(?=\w)){3,3000})'(?![\w'])",
    re.S,
)
_BRACE_RE = re.compile(r"\$?\{\{?\s*\$?(?P<name>[A-Za-z_][\w.\- ]{0,40}?)\s*\}\}?")
_BRACKET_RE = re.compile(r"\[(?P<inner>[^\[\]\n]{1,60})\](?!\()")
_ANGLE_PH_RE = re.compile(r"<(?P<inner>(?:insert|paste|add|enter|put|your|place)\b[^<>\n]{0,60})>", re.I)
_PH_WORD_RE = re.compile(r"^\s*(?:insert|paste|add|enter|put|include|attach|place|your)\b|\bhere\s*$", re.I)
_EXTRA_PH_NAMES = frozenset({"chunk", "chunks", "retrieved", "body", "docs", "passages", "user_input"})
_PARA_RE = re.compile(r"\n[ \t]*\n")
#: Paragraph breaks (a blank line), shared with the voice reader (inputs/voice.py).
PARA_RE = _PARA_RE
#: Markdown's own block syntax for pasted material: a table (two or more lines opening with "|") or a blockquote
#: (lines opening with ">"). A table needs its separator row ("|---|"). Fixtures: tests/inputs/test_markdown_blocks.py.
_MD_BLOCK_RE = re.compile(r"(?m)(?P<table>(?:^[ \t]*\|[^\n]*(?:\n|$)){2,})|(?:^[ \t]*>[^\n]*(?:\n|$))+")
# possessive: the indent before a "|" is read once, not split with the blanks after it (issue 16)
_TABLE_RULE_RE = re.compile(r"(?m)^[ \t]*+\|?[ \t]*:?-{2,}")
_SENT_RE = re.compile(r"[^.!?\n]+(?:[.!?]+|$)|\n", re.M)


@dataclass(frozen=True)
class Block:
    """One supplied (or explicitly empty) piece of content."""

    origin: str  # label | section | tag | fence | quote | table | placeholder | paragraph | colon
    kind: str | None  # canonical kind for typed blocks, None when untyped
    start: int
    end: int
    words: int
    label: str = ""
    index: int | None = None
    slot: bool = False  # an empty label directly followed by another label: an unfilled template slot
    sentences: int = 1  # content sentences in a free paragraph ("Compare these two sentences. A. B." holds two)

    @property
    def full(self) -> bool:
        """Large enough to stand for a whole document."""
        return self.origin in ("label", "tag", "fence", "quote", "table", "item", "letter") or self.words >= FULL_WORDS


@dataclass
class Scan:
    """The blocks of one text and a copy of the text with supplied content blanked out."""

    text: str
    masked: str
    typed: list[Block] = field(default_factory=list)
    empties: list[Block] = field(default_factory=list)
    untyped: list[Block] = field(default_factory=list)


def sentence_spans(text: str) -> list[tuple[int, int]]:
    """Character spans of the sentences of ``text`` (newlines split sentences). A period that closes an
    abbreviation (:func:`_abbreviations`) ends no sentence before a word in lower case or a number ("e.g. apples",
    "at 5 p.m. then"); a piece that is an abbreviation alone ("Mrs.", "Dr." opening a sentence) joins the words after
    it ("Mrs. Okafor said ..."). Before any other capitalised word the period ends the sentence, as it does after
    "6 p.m. Rewrite this" or "Acme Inc. Please review": whether a capitalised word is a name or opens a sentence is
    not read here. Linear: each join looks only at the abbreviation's end. Fixtures:
    tests/inputs/test_sentence_spans.py."""
    out: list[tuple[int, int]] = []
    broken = True  # a line break (or the start) since the last sentence: nothing joins across it
    for m in _SENT_RE.finditer(text):
        if not m.group().strip():
            broken = True  # a line break, or the blanks that end a line
            continue
        if not broken and _continues(text, out[-1], m.group()):
            out[-1] = (out[-1][0], m.end())
        else:
            out.append((m.start(), m.end()))
        broken = False
    return out


#: Characters before a period looked at for an abbreviation: more than the longest one ("Messrs.", "Ph.D.").
_ABBREVIATION_CHARS = 16
_OPENING_MARKS = "([{\"'“‘"


def _continues(text: str, span: tuple[int, int], sentence: str) -> bool:
    """Whether ``sentence`` goes on the one at ``span`` of ``text``, cut only at the period of an abbreviation."""
    start, end = span
    tail = text[max(start, end - _ABBREVIATION_CHARS) : end]
    words = tail.split()
    following = sentence.split(None, 1)
    if not words or not following:
        return False
    word = words[-1].lstrip(_OPENING_MARKS)
    if word not in _abbreviations():
        return False
    first = following[0].lstrip(_OPENING_MARKS)[:1]
    if first.islower() or first.isdigit():
        return True
    # the piece is the abbreviation alone ("Mrs." opening a sentence): it has no sentence of its own to end
    return end - start <= _ABBREVIATION_CHARS and len(words) == 1 and tail.strip() == text[start:end].strip()


@lru_cache(maxsize=1)
def _abbreviations() -> frozenset[str]:
    """Abbreviations written with periods ("Mrs.", "Dr.", "e.g.", "p.m.", "Ph.D.", and the pieces the scan cuts a
    dotted one into: "Ph.", "e."). Provenance: spaCy's English tokenizer exceptions
    (``English.Defaults.tokenizer_exceptions``, the 146 entries ending in a period that hold a letter: tokens spaCy
    itself keeps whole rather than cut at the period)."""
    try:
        from spacy.lang.en import English
    except ImportError:  # pragma: no cover - spaCy is a core dependency
        return frozenset()
    whole = {k for k in English.Defaults.tokenizer_exceptions if k.endswith(".") and any(c.isalpha() for c in k)}
    pieces = {w[: i + 1] for w in whole for i, c in enumerate(w[:-1]) if c == "."}
    return frozenset(whole | pieces)


def _placeholder_kind(name: str) -> str | None:
    parts = [p for p in re.split(r"[_.\-\s]+", name.lower()) if p]
    for part in parts:
        k = kind_of(part)
        if k is not None:
            return k
        if part in _EXTRA_PH_NAMES:
            return "content"
    return None


def names_material(label: str) -> bool:
    """Whether a placeholder's label names a kind of material ("[paste the article]", "{context}") rather than a
    field of a draft or form ("[Your name]", "[date]")."""
    return _placeholder_kind(label.strip("$[]{}<> ")) is not None


def _tag_kind(tag: str) -> str | None:
    return _placeholder_kind(tag)


def _blank(chars: list[str], start: int, end: int) -> None:
    for i in range(start, min(end, len(chars))):
        if chars[i] != "\n":
            chars[i] = " "


def overlaps(spans: Sequence[tuple[int, int]], start: int, end: int) -> bool:
    """Whether ``[start, end)`` overlaps any of ``spans``."""
    return any(s < end and start < e for s, e in spans)


def scan(text: str) -> Scan:
    """Find what ``text`` supplies; the masked copy keeps only request prose for reference search."""
    result = Scan(text=text, masked=text)
    if not text:
        return result
    chars = list(text)
    spans: list[tuple[int, int]] = []
    # Placeholders first: they make a block empty wherever they sit.
    ph_spans: list[tuple[int, int]] = []
    for m in _BRACE_RE.finditer(text):
        k = _placeholder_kind(m.group("name"))
        if k is not None:
            ph_spans.append((m.start(), m.end()))
            result.empties.append(Block("placeholder", k, m.start(), m.end(), 0, m.group()))
    for regex in (_BRACKET_RE, _ANGLE_PH_RE):
        for m in regex.finditer(text):
            inner = m.group("inner")
            k = kind_of(inner.strip())
            if _PH_WORD_RE.search(inner) or k is not None:
                ph_spans.append((m.start(), m.end()))
                result.empties.append(
                    Block("placeholder", k or _placeholder_kind(inner) or "content", m.start(), m.end(), 0, m.group())
                )
    for s, e in ph_spans:
        _blank(chars, s, e)
    clean = "".join(chars)  # text with placeholders blanked: used to measure block bodies
    for m in _FENCE_RE.finditer(clean):
        n = word_count(m.group("body")) + len(re.findall(r"[^\w\s]", m.group("body")))
        block = Block("fence", "code", m.start(), m.end(), n, "```")
        (result.untyped if m.group("body").strip() else result.empties).append(block)
        spans.append((m.start(), m.end()))
    for m in _EMPTY_ITEMS_RE.finditer(clean):
        if overlaps(spans, m.start(), m.end()):
            continue  # list markers inside a code block are code
        # bullets or numbers with nothing after them: a list the user meant to fill ("my stats:\n- \n- \n- ")
        head = clean[: m.start()].rstrip().rsplit("\n", 1)[-1].strip()
        if is_instruction(head) or imperative(head):
            continue  # "Make a packing list with five bullets:" then empty bullets: the answer's own outline
        label = head if head.endswith((":", "：")) else m.group().strip()
        result.empties.append(Block("placeholder", "content", m.start(), m.end(), 0, label))
        spans.append((m.start(), m.end()))
    for m in _EMPTY_QUOTE_RE.finditer(clean):
        if overlaps(spans, m.start(), m.end()):
            continue  # inside a code fence: an empty docstring is code
        # a triple-quoted block with nothing between its delimiters is an explicit gap, like an empty fence
        result.empties.append(Block("quote", "content", m.start(), m.end(), 0, m.group(1)))
        spans.append((m.start(), m.end()))
    for m in _TAG_RE.finditer(clean):
        k = _tag_kind(m.group("tag"))
        if k is None or overlaps(spans, m.start(), m.end()):
            continue
        n = word_count(m.group("body"))
        block = Block("tag", k, m.start(), m.end(), n, f"<{m.group('tag')}>")
        (result.typed if n else result.empties).append(block)
        spans.append((m.start(), m.end()))
    for m in _SELF_TAG_RE.finditer(clean):
        k = _tag_kind(m.group("tag"))
        if k is not None and not overlaps(spans, m.start(), m.end()):
            result.empties.append(Block("tag", k, m.start(), m.end(), 0, m.group()))
            spans.append((m.start(), m.end()))
    for m in _OPEN_TAG_RE.finditer(clean):
        k = _tag_kind(m.group("tag"))
        if k is None or overlaps(spans, m.start(), m.end()) or f"</{m.group('tag')}" in clean:
            continue
        rest = clean[m.end() :]
        nxt = rest.find("<")
        body = rest if nxt < 0 else rest[:nxt]
        if not body.strip():
            result.empties.append(Block("tag", k, m.start(), m.end(), 0, m.group()))
            spans.append((m.start(), m.end()))
    for m in _MD_BLOCK_RE.finditer(clean):
        # a markdown table (pipe rows with a separator row) or a blockquote ("> ..." lines): pasted material
        body = m.group()
        is_table = bool(m.group("table"))
        if overlaps(spans, m.start(), m.end()) or (is_table and not _TABLE_RULE_RE.search(body)):
            continue
        n = word_count(body) + (len(re.findall(r"\|", body)) if is_table else 0)
        if n:
            origin = "table" if is_table else "quote"
            result.untyped.append(Block(origin, None, m.start(), m.end(), n, origin))
            spans.append((m.start(), m.end()))
    for start, end in delimited_blocks(clean):
        # rows of cells split by one delimiter, pasted from a spreadsheet without markdown
        if not overlaps(spans, start, end):
            body = clean[start:end]
            result.untyped.append(Block("table", None, start, end, word_count(body) + body.count("\n") + 1, "table"))
            spans.append((start, end))
    _scan_labels(clean, result, spans)
    _empty_sections(clean, result)
    for m in _QUOTE_RE.finditer(clean):
        body = next(g for g in m.groups() if g is not None)
        if word_count(body) >= 4 and not overlaps(spans, m.start(), m.end()):
            result.untyped.append(Block("quote", None, m.start(), m.end(), word_count(body), "quote"))
            spans.append((m.start(), m.end()))
    for s, e in spans:
        _blank(chars, s, e)
    result.masked = "".join(chars)
    return result


def _scan_labels(clean: str, result: Scan, spans: list[tuple[int, int]]) -> None:
    heads = []
    for m in _LABEL_RE.finditer(clean):
        name = (m.group("name") or m.group("hname")).split()
        letter = len(name) == 2 and len(name[1]) == 1 and "A" <= name[1] <= "H"
        if letter:
            name = name[:1]  # "Proposal B:" is item B of the proposals
        k = _label_kind(name[-1])
        if k is None and (letter or m.group("idx") or m.group("hidx")) and name[-1][:1].isupper():
            k = name[-1].lower()  # any item labelled with an id is an item of its own kind
        if k is None or overlaps(spans, m.start(), m.end()):
            continue
        heads.append((m, k, letter))
    for i, (m, k, letter) in enumerate(heads):
        stop = heads[i + 1][0].start() if i + 1 < len(heads) else len(clean)
        body_start = m.end()
        region = clean[body_start:stop]
        heading = _HEADING_RE.search(region)  # any markdown heading closes the section above it
        if heading is not None:
            region = region[: heading.start()]
        lead = len(region) - len(region.lstrip())
        body = region.lstrip()
        chained = "\n" in region[:lead] or not lead
        first_line = _LABEL_RE.match(body)
        if chained and first_line is not None and first_line.group("name") and _ends_line(body, first_line.end()):
            # "Model output:\nScore:\nRate it.": an empty label followed by another empty label of any name
            body, region = "", region[:lead]
        brk = _PARA_RE.search(body)
        if (
            brk is not None
            and m.group(0).rstrip(" \t").endswith((":", "："))
            and clean[body_start : body_start + 1] not in ("\n", "")
        ) or (brk is not None and i + 1 == len(heads)):
            body = body[: brk.start()]
        closing = "\n" in region[:lead] and _closing_instruction(region, lead, body)
        if "\n" in region[:lead] and (_talks_about(body, k) or closing):
            body = ""  # "Response:\n\nRate the response above.": the next line is the request about it, not its text
        else:
            # "Document 1: ...\nWhich of the three documents ...?": a later line about the kind ends the body
            cut = next(
                (lm.start() for lm in _LINE_RE.finditer(body) if lm.start() > 0 and _talks_about(lm.group(), k)), None
            )
            if cut is not None:
                body = body[:cut].rstrip()
        end = body_start + lead + len(body)
        idx_raw = (
            m.group("idx") or m.group("hidx") or (m.group(0).split(":")[0].split()[-1].strip("#*") if letter else None)
        )
        idx = None if idx_raw is None else (int(idx_raw) if idx_raw.isdecimal() else ord(idx_raw) - 64)
        n = word_count(body)
        slot = not n and (
            (i + 1 < len(heads) and not clean[m.end() : heads[i + 1][0].start()].strip())
            or (first_line is not None and not body)
            or closing
        )
        block = Block("label", k, m.start(), max(end, m.end()), n, m.group(0).strip(), idx, slot)
        (result.typed if n else result.empties).append(block)
        spans.append((m.start(), max(end, m.end())))


def _closing_instruction(region: str, lead: int, body: str) -> bool:
    """A blank line after an empty label, then one imperative line that ends the text ('Customer message:\n\nWrite
    a reply.'): the line is the request about the labelled item, which is missing.

    The line opens with a verb lemma as written (WordNet ``index.verb``), not a greeting. Fixtures:
    tests/inputs/test_generalize.py (spec empty_section).
    """
    if region[:lead].count("\n") < 2:
        return False  # no blank line: the line may be the item's own text ("Email:\nSend the invoice by Friday.")
    text = body.strip()
    if not text or "\n" in text or len(sentence_spans(text)) > 2 or region.strip() != text:
        return False  # one line that ends the section
    first = _WORD_RE.match(text)
    if first is None:
        return False
    from faithguard.lexical.wordnet_mmap import get_wordnet

    word = first.group().lower()
    return word not in _GREETINGS and get_wordnet().is_verb(word)


#: Openers of a letter or message, never an instruction about one (they are WordNet verbs too: "hail", "thank").
_GREETINGS = frozenset({"hi", "hello", "hey", "dear", "thanks", "thank", "greetings", "please"})


def _empty_sections(clean: str, result: Scan) -> None:
    """A markdown heading or a bare 'Name:' line of any name with nothing under it, which the request then names
    with a definite article ('## Background' left empty, then 'what does the background imply?').

    Only empty sections are recorded, so a heading the content lists do not know never supplies anything.
    Fixtures: tests/inputs/test_generalize.py (spec empty_section).
    """
    lines = [(m.start(), m.group()) for m in _LINE_ALL_RE.finditer(clean)]
    # the first non-empty line after each line, found in one backward pass (a scan of the rest for every heading
    # was quadratic in the number of lines)
    following: list[str | None] = [None] * len(lines)
    nxt: str | None = None
    for i in range(len(lines) - 1, -1, -1):
        following[i] = nxt
        if lines[i][1].strip():
            nxt = lines[i][1]
    mentions: dict[str, list[tuple[int, int]]] = {}  # where "the <name>" stands, read once per name
    index: list[_DefiniteIndex] = []  # made on first need
    for i, (pos, line) in enumerate(lines):
        m = _EMPTY_HEAD_RE.match(line)
        if m is None:
            continue
        name = m.group("h") or m.group("c")
        if _label_kind(name.split()[-1]) is not None:
            continue  # a known content label: _scan_labels reads it
        under = following[i]
        if under is not None and not _LABEL_RE.match(under):
            continue  # something is under it
        if name.lower() not in mentions:
            if not index:
                index.append(_DefiniteIndex(clean))
            mentions[name.lower()] = index[0].mentions(name)
        if not any(a >= pos + len(line) or b <= pos for a, b in mentions[name.lower()]):
            continue
        result.empties.append(Block("section", name.lower(), pos, pos + len(line), 0, line.strip(), None, True))


#: "the", "this" or "that" and the blanks after it: where a definite mention of a section can begin.
_DEFINITE_RE = re.compile(r"\b(?:the|this|that)\s+", re.I)
_RUN_RE = re.compile(r"\w+")
#: Index keys of mentions whose next word is not plain ASCII (``re.IGNORECASE`` may equal it to an ASCII name: "K"
#: is "k") and of those followed by no word at all.
_OTHER, _NO_WORD = "\x00", "\x01"


class _DefiniteIndex:
    r"""Where ``the|this|that <name>`` stands in a text, for many names: the determiners are found once and filed
    under the word after them, and a name is matched only where its first word follows one. The spans are those of
    ``re.finditer(r"\b(?:the|this|that)\s+NAME\b", text, re.I)``; a search of the whole text per empty heading
    made a document of a thousand empty headings quadratic (80,000 characters: the whole budget)."""

    def __init__(self, text: str) -> None:
        self._text = text
        self._at: dict[str, list[int]] = {}
        for m in _DEFINITE_RE.finditer(text):
            run = _RUN_RE.match(text, m.end())
            key = _NO_WORD if run is None else run.group().lower() if run.group().isascii() else _OTHER
            self._at.setdefault(key, []).append(m.start())

    def mentions(self, name: str) -> list[tuple[int, int]]:
        pattern = re.compile(rf"\b(?:the|this|that)\s+{re.escape(name)}\b", re.I)
        run = _RUN_RE.match(name)
        if run is not None and not run.group().isascii():
            return [x.span() for x in pattern.finditer(self._text)]  # the index cannot narrow a name outside ASCII
        keys = (_NO_WORD,) if run is None else (run.group().lower(), _OTHER)
        out: list[tuple[int, int]] = []
        end = 0
        for start in sorted(p for k in keys for p in self._at.get(k, ())):
            if start < end:
                continue  # inside the last mention: a search resumes after it
            m = pattern.match(self._text, start)
            if m is not None:
                out.append(m.span())
                end = m.end()
        return out


def ends_with_answer_field(sc: Scan) -> bool:
    """Whether the text ends with an empty label line after a filled label ("Review: <text>" ... "Sentiment:"): the
    answer field of an input/output template or of a few-shot prompt's last item, which the reply fills, not a slot
    the user left empty. Fixtures: tests/inputs/test_generalize.py (spec answer_field)."""
    body = sc.text.rstrip()
    start = body.rfind("\n") + 1
    last = _EMPTY_HEAD_RE.match(body[start:])
    if last is None or last.group("c") is None:
        return False  # a markdown heading closes a document's outline, not an input/output template
    # a filled label line of any name before it ("English: Where is the station?", "Review: ..."), whether or not the
    # scan typed it (a typed label's block may run on over the last line)
    if any(t.origin == "label" and t.words > 0 and t.start < start for t in sc.typed):
        return True
    for m in _LABEL_RE.finditer(sc.text, 0, start):
        line_end = sc.text.find("\n", m.end())
        if m.group("name") and sc.text[m.end() : line_end if line_end >= 0 else len(sc.text)].strip():
            return True
    return False


#: Two or more consecutive list items with no text: a bullet or a number ("1." / "2)") alone on its line. A
#: horizontal rule ("---", "***") is one mark of three or more, never a list item. Fixtures:
#: tests/inputs/test_generalize.py (spec empty_list_items).
_EMPTY_ITEMS_RE = re.compile(r"(?m)^[ \t]*(?:[-*•+]|\d{1,2}[.)])[ \t]*(?:\n[ \t]*(?:[-*•+]|\d{1,2}[.)])[ \t]*)+$")
_LINE_ALL_RE = re.compile(r"[^\n]*")
#: A heading line ("## Background") or a label line with nothing after its colon ("Background:").
_EMPTY_HEAD_RE = re.compile(
    r"^[ \t]*(?:#{1,6}[ \t]+(?P<h>[A-Za-z][A-Za-z-]*(?:[ \t]+[A-Za-z][A-Za-z-]*)?)[ \t]*#*[ \t]*$"
    r"|(?:[*>\-]+[ \t]*)?(?P<c>[A-Za-z][A-Za-z-]*(?:[ \t]+[A-Za-z][A-Za-z-]*)?)[ \t]*\**[ \t]*[:：][ \t]*$)"
)


def _ends_line(text: str, pos: int) -> bool:
    """Whether nothing but spaces follows ``pos`` on its line (an empty label)."""
    nl = text.find("\n", pos)
    return not text[pos : nl if nl >= 0 else len(text)].strip()


def _talks_about(body: str, kind: str) -> bool:
    """Whether the first sentence under a label is a request that names the label's own kind."""
    spans = sentence_spans(body)
    if not spans:
        return False
    first = body[spans[0][0] : spans[0][1]]
    # the kind named after a determiner ("the response above", "which answer"): a request about the block
    return any(any(kind_of(w) == kind for w in _WORD_RE.findall(m.group(1))) for m in _POINTED_RE.finditer(first))


_LINE_RE = re.compile(r"[^\n]+")
_POINTED_RE = re.compile(r"\b(?:the|this|that|these|which|each|both|either)\s+(?=((?:[\w'’-]+\s+){0,2}[\w'’-]+))", re.I)


def _label_kind(word: str) -> str | None:
    """Kind of a label's last word: the kind table, else a WordNet content noun."""
    k = kind_of(word)
    if k is not None:
        return k
    from faithguard.inputs.content_kinds import classify_noun

    cls = classify_noun(word)
    if cls is None:
        return None
    return "image" if not cls.inline else ("document" if cls.strength == "strong" else "message")
