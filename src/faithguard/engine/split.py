"""Split one message into ordered sub-questions (character spans), without a model."""

from __future__ import annotations

import re
from dataclasses import dataclass

from faithguard.engine.lexicon import SPLIT_MARKERS

__all__ = ["Part", "split_parts"]

_ITEM_LINE = re.compile(r"^[ \t]*(?:\d{1,2}[.)]|\(\d{1,2}\)|[-*•]|[a-h][.)])[ \t]+(?=\S)", re.MULTILINE)
_INLINE_NUM = re.compile(r"(?:(?<=\s)|^)\(?(\d{1,2})[.)]\s+(?=\S)")
_SENT_END = re.compile(r"(?<=[.?!])[\"')\]]*\s+(?=\S)")
#: ", and also": the look-behind starts a match at the first blank of a run (a long run of blanks is scanned once).
_AND_ALSO = re.compile(r",?(?<!\s)\s+and also\s+", re.IGNORECASE)
#: "When was it painted, and where is it shown?": a second wh-question joined into one sentence. Without the comma
#: ("What is the capital and what is its population?") the wh-word must open a question clause of its own (an
#: auxiliary or a quantity word after it, at most one word between and that one no personal pronoun), not a free
#: relative ("between what I said and what you did"). The look-behind starts a match at the first blank of a run, as in
#: :data:`_AND_ALSO` (a long run of blanks is scanned once).
_AND_WH = re.compile(
    r",\s+and\s+(?=(?:when|where|who|whom|how|what|which|why)\b)"
    r"|(?<!\s)\s+and\s+(?=(?:when|where|who|whom|how|what|which|why)\s+(?:(?!(?:i|you|he|she|we|they|it)\b)[\w'’-]+\s+)?"
    r"(?:is|are|was|were|do|does|did|can|could|will|would|should|has|have|had|many|much|long|old|far|big)\b)",
    re.IGNORECASE,
)
_WH_START = re.compile(r"^\W*(?:when|where|who|whom|how|what|which|why|is|are|was|were|do|does|did|can|could)\b", re.I)


@dataclass(frozen=True)
class Part:
    """One sub-question as a character span of the message."""

    start: int
    end: int
    text: str


def _part(text: str, start: int, end: int) -> Part | None:
    """A trimmed part, or None when it holds no word."""
    while start < end and not text[start].isalnum() and text[start] not in "\"'(":
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    if not re.search(r"[^\W\d_]{2,}", text[start:end]):
        return None
    return Part(start, end, text[start:end])


def _by_markers(text: str, starts: list[tuple[int, int]]) -> list[Part]:
    """Parts from (marker start, content start) pairs; the preamble becomes a part when it has words."""
    parts: list[Part] = []
    pre = _part(text, 0, starts[0][0])
    if pre is not None:
        parts.append(pre)
    for i, (_, content) in enumerate(starts):
        end = starts[i + 1][0] if i + 1 < len(starts) else len(text)
        p = _part(text, content, end)
        if p is not None:
            parts.append(p)
    return parts


def _sentences(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """Sentence spans of text[start:end] by punctuation."""
    spans: list[tuple[int, int]] = []
    pos = start
    for m in _SENT_END.finditer(text, start, end):
        spans.append((pos, m.start()))
        pos = m.end()
    spans.append((pos, end))
    return [(a, b) for a, b in spans if text[a:b].strip()]


def _starts_new(sentence: str) -> bool:
    low = sentence.lstrip().lower()
    return any(low.startswith(m) for m in SPLIT_MARKERS)


def split_parts(text: str) -> list[Part]:
    """Ordered sub-question spans: numbered/bulleted items, several questions, or 'Additionally,'-style joins."""
    items = [(m.start(), m.end()) for m in _ITEM_LINE.finditer(text)]
    if len(items) >= 2:
        return _by_markers(text, items)
    inline = [(m.start(), m.end()) for m in _INLINE_NUM.finditer(text)]
    numbers = [int(m.group(1)) for m in _INLINE_NUM.finditer(text)]
    if len(inline) >= 2 and numbers == list(range(1, len(numbers) + 1)):
        return _by_markers(text, inline)
    groups: list[list[tuple[int, int]]] = []
    has_question: list[bool] = []
    for a, b in _sentences(text, 0, len(text)):
        chunk = text[a:b]
        pieces = [(a, b)]
        m = _AND_ALSO.search(chunk)
        if m is None and chunk.rstrip().endswith("?") and _WH_START.match(chunk):
            m = _AND_WH.search(chunk)
        if m is not None and m.start() > 0:
            pieces = [(a, a + m.start()), (a + m.end(), b)]
        for k, (pa, pb) in enumerate(pieces):
            sentence = text[pa:pb]
            is_q = sentence.rstrip().endswith("?")
            new = not groups or k > 0 or _starts_new(sentence) or (is_q and has_question[-1])
            if new:
                groups.append([(pa, pb)])
                has_question.append(is_q)
            else:
                groups[-1].append((pa, pb))
                has_question[-1] = has_question[-1] or is_q
    parts = [_part(text, g[0][0], g[-1][1]) for g in groups]
    found = [p for p in parts if p is not None]
    if not found:
        stripped = text.strip()
        start = text.find(stripped) if stripped else 0
        return [Part(start, start + len(stripped), stripped)]
    return found
