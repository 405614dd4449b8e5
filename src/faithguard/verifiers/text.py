"""Text helpers shared by the verifiers: numbers in words, tokens, sentences, paragraphs."""

from __future__ import annotations

import re

from faithguard.numwords import CARDINALS, ORDINALS

__all__ = [
    "NUMBER_RE",
    "count_sentences",
    "count_words",
    "lines_of",
    "parse_number",
    "split_sentences",
    "stanzas_of",
    "treebank_tokens",
    "words_of",
]

_UNITS = {w: n for w, n in CARDINALS.items() if n < 20} | {
    "a single": 1,
    "single": 1,
    "a couple of": 2,
    "a dozen": 12,
    "half a dozen": 6,
    "dozen": 12,
    "once": 1,
    "twice": 2,
    "thrice": 3,
}
_TENS = {w: n for w, n in CARDINALS.items() if n >= 20}
_ORDINALS = {w: n for w, n in ORDINALS.items() if n <= 12}

_unit_alt = "|".join(sorted((re.escape(k) for k in _UNITS), key=len, reverse=True))
_tens_alt = "|".join(_TENS)
#: A cardinal number in digits (with thousands separators) or in English words.
_small = rf"(?:(?:{_tens_alt})(?:[- ](?:one|two|three|four|five|six|seven|eight|nine)\b)?|{_unit_alt})(?![a-z])"
NUMBER_RE = (
    r"(?:\d{1,3}(?:,\d{3})+(?!\d)|\d+"
    rf"|(?:{_small}(?:\s+hundred(?:\s+(?:and\s+)?{_small})?)?(?:\s+thousand)?))"
)
ORDINAL_RE = r"(?:\d+(?:st|nd|rd|th)|" + "|".join(_ORDINALS) + r"|last|final)"


def parse_number(text: str) -> int | None:
    """The integer written in ``text`` (digits or English words), or None."""
    t = text.strip().lower().replace(",", "")
    if not t:
        return None
    if t.isdecimal():
        return int(t)
    if t in _ORDINALS:
        return _ORDINALS[t]
    m = re.fullmatch(r"(\d+)(?:st|nd|rd|th)", t)
    if m:
        return int(m.group(1))
    total = 0
    current = 0
    seen = False
    for phrase in sorted(_UNITS, key=len, reverse=True):
        if " " in phrase and phrase in t:
            t = t.replace(phrase, str(_UNITS[phrase]))
    for tok in re.split(r"[\s-]+", t):
        if not tok or tok == "and" or tok == "a":
            continue
        if tok.isdecimal():
            current += int(tok)
        elif tok in _UNITS:
            current += _UNITS[tok]
        elif tok in _TENS:
            current += _TENS[tok]
        elif tok == "hundred":
            current = max(current, 1) * 100
        elif tok == "thousand":
            total += max(current, 1) * 1000
            current = 0
        else:
            return None
        seen = True
    return total + current if seen else None


_WORD_RE = re.compile(r"\w+")


def words_of(text: str) -> list[str]:
    """Runs of word characters (Unicode aware), the IFEval notion of a word."""
    return _WORD_RE.findall(text)


def count_words(text: str) -> int:
    """Number of ``\\w+`` runs in ``text``."""
    return len(words_of(text))


_CONTRACTION_RE = re.compile(r"(?i)(n't|'s|'re|'ll|'ve|'d|'m)$")
_TOKEN_RE = re.compile(r"\w+(?:[-'’.]\w+)*\.?|[^\w\s]")


def treebank_tokens(text: str) -> list[str]:
    """Word tokens in the style of a Penn-Treebank tokenizer: punctuation and clitics split off."""
    out: list[str] = []
    for tok in _TOKEN_RE.findall(text):
        if tok.endswith(".") and tok.count(".") == 1 and len(tok) > 1:
            out.append(tok[:-1])
            out.append(".")
            continue
        m = _CONTRACTION_RE.search(tok.replace("’", "'"))
        if m and m.start() > 0:
            out.append(tok[: m.start()])
            out.append(tok[m.start() :])
        else:
            out.append(tok)
    return out


_ABBREVIATIONS = frozenset(
    [
        "mr",
        "mrs",
        "ms",
        "dr",
        "prof",
        "sr",
        "jr",
        "st",
        "vs",
        "etc",
        "e.g",
        "i.e",
        "cf",
        "inc",
        "ltd",
        "co",
        "corp",
        "dept",
        "univ",
        "approx",
        "est",
        "fig",
        "no",
        "vol",
        "jan",
        "feb",
        "mar",
        "apr",
        "jun",
        "jul",
        "aug",
        "sep",
        "sept",
        "oct",
        "nov",
        "dec",
        "mt",
        "ft",
        "gen",
        "col",
        "capt",
        "lt",
        "sgt",
        "rev",
        "gov",
        "sen",
        "rep",
        "u.s",
        "u.k",
        "u.n",
        "a.m",
        "p.m",
        "ph.d",
        "b.c",
        "a.d",
    ]
)
# A sentence ends at . ? ! (plus closing quotes/brackets) followed by whitespace. Look-behind: a match starts at the
# first mark of a run, so a run of marks is scanned once ("." * 20,000 took 4.5 s scanned from every mark; issue 16).
_BOUNDARY_RE = re.compile(r"(?<![.?!])[.?!]+[\"'”’)\]]*(?=\s+\S)")
#: Longest word read before a period to tell an abbreviation or an initial (the longest listed abbreviation is far
#: shorter); the read is bounded so a long run before each period costs no more than this.
_WORD_BEFORE_CHARS = 32
# look-behind: read right after a mark (never mid-run of blanks), so a scan of a blank run is linear (issue 16)
_NEXT_VISIBLE = re.compile(r"(?<!\s)\s*(\S)")


def _word_before(text: str, start: int, end: int) -> str:
    r"""The run of word characters and periods ending at ``end`` (not before ``start``), lower-cased; "" when it is
    longer than :data:`_WORD_BEFORE_CHARS` (no abbreviation is). One line break just before ``end`` is passed over,
    as the pattern ``[\w.]+$`` this replaces read it ("$" matches before a final newline)."""
    if end > start and text[end - 1] == "\n":
        end -= 1
    i = end
    floor = max(start, end - _WORD_BEFORE_CHARS - 1)
    while i > floor and _in_word(text[i - 1]):
        i -= 1
    if i == floor and i > start and _in_word(text[i - 1]):
        return ""
    return text[i:end].lower()


def _in_word(ch: str) -> bool:
    r"""Whether ``ch`` is one the pattern ``[\w.]`` matches: a letter or digit, an underscore or a period."""
    return ch == "." or ch == "_" or ch.isalnum()


def _next_visible(text: str, end: int) -> str:
    """The first non-blank character at or after ``end`` ("" at the end)."""
    m = _NEXT_VISIBLE.match(text, end)
    return m.group(1) if m else ""


def split_sentences(text: str) -> list[str]:
    """Split ``text`` into sentences (Punkt-like rules, no trained model needed).

    Breaks after ``.``, ``?`` or ``!`` that are followed by whitespace, except after a known
    abbreviation or a single-letter initial followed by a capitalised word. Line breaks alone do
    not end a sentence.
    """
    sentences: list[str] = []
    start = 0
    for m in _BOUNDARY_RE.finditer(text):
        end = m.end()
        punct = m.group(0)
        if punct.startswith(".") and not punct.startswith(".."):
            # the word before the period, read back from it (not re-searched in the growing text since the last
            # break: "e.g. " repeated kept the start in place and cost the square of its length)
            word = _word_before(text, start, m.start())
            if word in _ABBREVIATIONS:
                continue
            if len(word) == 1 and word.isalpha() and _next_visible(text, end).isupper():
                continue
        elif punct.startswith("..") and _next_visible(text, end).islower():
            continue
        chunk = text[start:end].strip()
        if chunk:
            sentences.append(chunk)
        start = end
    tail = text[start:].strip()
    if tail:
        sentences.append(tail)
    return sentences


def count_sentences(text: str) -> int:
    """Number of sentences by :func:`split_sentences`."""
    return len(split_sentences(text))


_SEPARATOR_LINE = re.compile(r"^\s*(?:[*\-_=~#]\s*){3,}$")
_HEADING_LINE = re.compile(r"^\s*(?:#{1,6}\s+.*|\*\*[^*]+\*\*:?|<<[^>]+>>|stanza\s+\d+:?|verse\s+\d+:?)\s*$", re.I)


def lines_of(text: str, *, skip_headings: bool = True) -> list[str]:
    """Non-empty content lines: blank lines, separators (``***``) and headings/titles dropped."""
    out = []
    for line in text.splitlines():
        if not line.strip() or _SEPARATOR_LINE.match(line):
            continue
        if skip_headings and _HEADING_LINE.match(line):
            continue
        if not re.search(r"\w", line):
            continue
        out.append(line.strip())
    return out


def stanzas_of(text: str) -> list[list[str]]:
    """Blocks of content lines separated by blank lines or separator lines."""
    blocks: list[list[str]] = []
    current: list[str] = []
    for line in text.splitlines():
        if not line.strip() or _SEPARATOR_LINE.match(line):
            if current:
                blocks.append(current)
                current = []
            continue
        if _HEADING_LINE.match(line) or not re.search(r"\w", line):
            continue
        current.append(line.strip())
    if current:
        blocks.append(current)
    return blocks
