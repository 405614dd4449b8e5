"""Text units as IFBench defines them: words, sentences, punctuation stripping (own implementation).

IFBench's checker (AllenAI, Apache-2.0) counts ``\\w+`` runs as words, strips ASCII punctuation with
``str.translate`` and splits sentences after ``.``, ``?`` and ``!`` with a few exceptions (decimals,
initials, titles such as "Dr.", web suffixes, ellipses). These helpers follow those definitions so the
verdicts agree with the official ones; they are written for this project.
"""

from __future__ import annotations

import re
import string
from collections.abc import Callable

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


_HOLD, _STOP = "\x00", "\x01"
_STARTER = (
    r"(?:Mr|Mrs|Ms|Dr|Prof|Capt|Cpt|Lt|He\s|She\s|It\s|They\s|Their\s|Our\s|We\s|But\s|However\s|That\s"
    r"|This\s|Wherever)"
)
_Repl = str | Callable[[re.Match[str]], str]


def _hold(m: re.Match[str]) -> str:
    return m.group(0).replace(".", _HOLD)


# Periods that do not end a sentence, in the order IFBench applies them (titles, web suffixes, decimals,
# initials, acronyms, company suffixes); an acronym or suffix followed by a sentence starter does end one.
_STEPS: tuple[tuple[re.Pattern[str], _Repl], ...] = (
    (re.compile(r"(?:Mr|St|Mrs|Ms|Dr)\."), _hold),
    (re.compile(r"\.(?=(?:com|net|org|io|gov|edu|me))"), _HOLD),
    (re.compile(r"(?<=[0-9])\.(?=[0-9])"), _HOLD),
)
_LATE_STEPS: tuple[tuple[re.Pattern[str], _Repl], ...] = (
    (re.compile(r"(?<=\s[A-Za-z])\.(?= )"), _HOLD),
    (re.compile(r"([A-Z]\.[A-Z]\.(?:[A-Z]\.)?)(?= " + _STARTER + ")"), lambda m: m.group(1) + _STOP),
    (re.compile(r"[A-Za-z]\.[A-Za-z]\.[A-Za-z]\."), _hold),
    (re.compile(r"[A-Za-z]\.[A-Za-z]\."), _hold),
    (re.compile(r"(?<= )((?:Inc|Ltd|Jr|Sr|Co)\.)(?= " + _STARTER + ")"), lambda m: m.group(1) + _STOP),
    (re.compile(r"(?<= )(?:Inc|Ltd|Jr|Sr|Co)\."), _hold),
    (re.compile(r"(?<= [A-Za-z])\."), _HOLD),
)


def _apply(text: str, steps: tuple[tuple[re.Pattern[str], _Repl], ...]) -> str:
    for pattern, repl in steps:
        text = pattern.sub(repl, text)
    return text


def sentences(text: str) -> list[str]:
    """Sentences the way IFBench splits them: newlines are spaces, ``.?!`` end a sentence."""
    t = _apply(" " + text.replace("\n", " ") + "  ", _STEPS)
    t = re.sub(r"\.{2,}", lambda m: _HOLD * len(m.group(0)) + _STOP, t)
    t = t.replace("Ph.D.", f"Ph{_HOLD}D{_HOLD}")
    t = _apply(t, _LATE_STEPS)
    # Closing quotes travel before the terminator, so "Hi." ends after the quote.
    t = t.replace(".”", "”.").replace('."', '".').replace('!"', '"!').replace('?"', '"?')
    t = re.sub(r"([.?!])", "\\1" + _STOP, t)
    t = t.replace(_HOLD, ".")
    parts = [p.strip() for p in t.split(_STOP)]
    if parts and not parts[-1]:
        parts.pop()
    return parts
