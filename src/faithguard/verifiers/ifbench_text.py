"""Text units as IFBench defines them: words, sentences, punctuation stripping (own implementation).

IFBench's checker (AllenAI, Apache-2.0) counts ``\\w+`` runs as words, strips ASCII punctuation with
``str.translate`` and splits sentences after ``.``, ``?`` and ``!`` with a few exceptions (decimals,
initials, titles such as "Dr.", web suffixes, ellipses). These helpers follow those definitions so the
verdicts agree with the official ones; they are written for this project.
"""

from __future__ import annotations

import re
import string

__all__ = ["PUNCT", "sentences", "strip_punct", "words", "ws_words"]

PUNCT = string.punctuation
_STRIP = str.maketrans("", "", PUNCT)
_WORD = re.compile(r"\w+")


def strip_punct(text: str) -> str:
    """``text`` without ASCII punctuation."""
    return text.translate(_STRIP)


def words(text: str) -> list[str]:
    """``\\w+`` runs: IFBench's word count unit."""
    return _WORD.findall(text)


def ws_words(text: str) -> list[str]:
    """Whitespace-separated tokens with punctuation stripped from both ends, empties dropped."""
    out = []
    for tok in text.split():
        t = tok.strip(PUNCT + " ")
        if t:
            out.append(t)
    return out


# A period that does not end a sentence: titles, company suffixes, single-letter initials, decimals,
# acronyms, web suffixes. Protected periods are swapped for a placeholder before splitting.
_PROTECT = (
    re.compile(r"\b(Mr|St|Mrs|Ms|Dr)\."),
    re.compile(r"\.(?=(?:com|net|org|io|gov|edu|me)\b)"),
    re.compile(r"(?<=\d)\.(?=\d)"),
    re.compile(r"(?<=\s[A-Za-z])\.(?= )"),
    re.compile(r"(?<=\b[A-Za-z])\.(?=[A-Za-z]\.)"),
    re.compile(r"(?<=\b[A-Za-z]\.[A-Za-z])\.(?=\s+[a-z])"),
    re.compile(r"(?<= )(?:Inc|Ltd|Jr|Sr|Co)\.(?! (?:He|She|It|They|Their|Our|We|But|However|That|This)\b)"),
    re.compile(r"(?<= [A-Za-z])\."),
)
_HOLD = "\x00"


def sentences(text: str) -> list[str]:
    """Sentences the way IFBench splits them: newlines are spaces, ``.?!`` end a sentence."""
    t = " " + text.replace("\n", " ") + "  "
    t = re.sub(r"\.{2,}", lambda m: _HOLD * len(m.group(0)) + "\x01", t)
    if "Ph.D" in t:
        t = t.replace("Ph.D.", f"Ph{_HOLD}D{_HOLD}")
    for pat in _PROTECT:
        t = pat.sub(lambda m: m.group(0).replace(".", _HOLD) if m.group(0) != "." else _HOLD, t)
    # Closing quotes travel before the terminator, so "Hi." ends after the quote.
    t = t.replace(".”", "”.").replace('."', '".').replace('!"', '"!').replace('?"', '"?')
    t = re.sub(r"([.?!])", "\\1\x01", t)
    t = t.replace(_HOLD, ".")
    parts = [p.strip() for p in t.split("\x01")]
    if parts and not parts[-1]:
        parts.pop()
    return parts
