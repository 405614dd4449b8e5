"""A numbered part the request asks about, looked up in the supplied text's own numbering.

"What does clause 14.2 of the contract say?" with a contract supplied: the whole is there, but the part may not be.
When the supplied text numbers its parts (two or more lines open with a number label: "1.1 ...", "Section 3 ...",
"2. Orders") and the asked number appears nowhere in it, the part is missing. A text with no numbering of its own
may be the part itself (an excerpt pasted without its number), and a part named in the text ("see clause 9.3") may
be there: both stay supplied, since nothing shows otherwise. A bare number ("within 7 days") names no part.
Fixtures: tests/inputs/test_numbered_parts.py.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from faithguard.inputs.references import Reference

__all__ = ["absent_part_findings"]

#: A line that opens with a number label, optionally after one word ("Section 3", "Article 2", "§ 4"): the text's own
#: numbering of its parts. Roman numerals are not read (a line opening "I ..." is a sentence).
_LABEL_LINE_RE = re.compile(r"(?m)^[ \t]*(?:[A-Za-z§]+\.?[ \t]+)?(?P<num>\d{1,3}(?:\.\d{1,3})*)[.):]?[ \t]+\S")
#: How many numbered lines make a numbering (one could be a date or an amount opening a line).
MIN_LABELS = 2


def _numbers(text: str) -> set[str]:
    return {m.group("num") for m in _LABEL_LINE_RE.finditer(text)}


def _mentions(text: str, number: str, part: str) -> bool:
    """Whether ``text`` names the part: a label line of that number, or the part noun (or a section sign) before
    the number ("see clause 9.3"), not inside "114.2" or "14.25". A bare number is not the part ("within 7 days")."""
    if number in _numbers(text):
        return True
    named = rf"(?i:\b{re.escape(part)}s?|§)[ \t]*{re.escape(number)}(?!\.?\d)"
    return re.search(named, text) is not None


def absent_part_findings(refs: Sequence[Reference], query: str, documents: Sequence[str]) -> list[dict[str, Any]]:
    """Findings for numbered parts (:attr:`Reference.part_number`) of a supplied whole that its numbering lacks.

    The supplied text is the documents and the request outside the referring sentence (a contract pasted after the
    question).
    """
    found: list[dict[str, Any]] = []
    for r in refs:
        number = r.part_number
        if r.source != "query" or number is None or not number[:1].isdigit():
            continue
        texts = [d for d in documents if d and d.strip()] + [query[: r.sentence[0]] + "\n" + query[r.sentence[1] :]]
        supplied = "\n".join(texts)
        part = r.text.split()[0]
        if len(_numbers(supplied)) < MIN_LABELS or _mentions(supplied, number, part):
            continue
        found.append(
            {
                "reference": r.text.strip(),
                "expected": 1,
                "found": 0,
                "explanation": f"The request refers to {r.text.strip()!r}; the supplied text numbers its parts but "
                f"has no {number}.",
            }
        )
    return found
