"""Year intervals: from a time constraint ("before the 18th century") and from response text."""

from __future__ import annotations

import re
from functools import lru_cache

from faithguard.numwords import ORDINALS

__all__ = ["allowed_interval", "mentioned_intervals"]

_CENTURY = re.compile(r"\b(\d{1,2})(?:st|nd|rd|th)\s+century\b", re.IGNORECASE)
_WORD_CENTURY = re.compile(
    r"\b(first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth|thirteenth|"
    r"fourteenth|fifteenth|sixteenth|seventeenth|eighteenth|nineteenth|twentieth|twenty-first)\s+century\b",
    re.IGNORECASE,
)
_ORDINALS = ORDINALS
_DECADE = re.compile(r"\b(1\d{3}|20\d{2})s\b")
_YEAR = re.compile(r"(?<![\d$£€.,])\b(1[0-9]{3}|20[0-9]{2})\b(?!\s*%|[.,]\d)")


def _century(n: int) -> tuple[int, int]:
    return (n - 1) * 100, (n - 1) * 100 + 99


def mentioned_intervals(text: str) -> list[tuple[int, int]]:
    """Every year, decade or century a text mentions, as inclusive [start, end] intervals."""
    return list(_intervals(text))


@lru_cache(maxsize=4096)
def _intervals(text: str) -> tuple[tuple[int, int], ...]:
    found: list[tuple[int, tuple[int, int]]] = []
    taken: list[tuple[int, int]] = []
    for m in _CENTURY.finditer(text):
        found.append((m.start(), _century(int(m.group(1)))))
        taken.append(m.span())
    for m in _WORD_CENTURY.finditer(text):
        found.append((m.start(), _century(_ORDINALS[m.group(1).lower()])))
        taken.append(m.span())
    for m in _DECADE.finditer(text):
        y = int(m.group(1))
        span = (y, y + 9) if y % 100 else (y, y + 99)
        found.append((m.start(), span))
        taken.append(m.span())
    for m in _YEAR.finditer(text):
        if any(a <= m.start() < b for a, b in taken):
            continue
        y = int(m.group(1))
        found.append((m.start(), (y, y)))
    found.sort(key=lambda item: item[0])
    return tuple(iv for _, iv in found)


def allowed_interval(constraint_text: str) -> tuple[int, int] | None:
    """The years a time constraint allows, or None when it names no concrete period."""
    low = constraint_text.lower()
    mentioned = mentioned_intervals(constraint_text)
    if not mentioned:
        return None
    first, last = mentioned[0], mentioned[-1]
    if re.search(r"\bbetween\b|\bfrom\b.*\b(to|until|till)\b", low) and len(mentioned) >= 2:
        return first[0], last[1]
    if re.search(r"\bbefore\b|\bprior to\b|\bearlier than\b", low):
        return -10_000, first[0] - 1
    if re.search(r"\b(until|till|by|up to)\b", low):
        return -10_000, first[1]
    if re.search(r"\bafter\b|\blater than\b", low):
        return first[1] + 1, 10_000
    # "since 1990" and "from 1990 on(wards)" are open-ended; "from the 1990s" means that decade.
    if re.search(r"\bsince\b|\bfrom\b.*\b(?:on|onwards?|forward|to date|to (?:the )?present(?: day)?|to today)\b", low):
        return first[0], 10_000
    return first[0], last[1]
