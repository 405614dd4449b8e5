"""HypoTermQA term- and answer-level labels, and the optional lexical meaning check."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Literal

from faithguard.terms.acceptance import find_mentions

__all__ = ["AnswerLabel", "answer_label", "meaning_check", "term_label"]

AnswerLabel = Literal["valid", "hallucination", "irrelevant"]
_WORD = re.compile(r"[a-z][a-z0-9]+")
_STOP_WORDS = """
    a an the of and or in on to for with by as at from is are was were be been being it its this that these those
    which who whom what when where how why than then there their they them such can may might will would should could
    into over under about also more most other some any each not no so do does did has have had used use using"""
_STOP = frozenset(_STOP_WORDS.split())


def term_label(known: bool, acceptance: str, meaning: bool | None = None) -> Literal["v", "h", "i"]:
    """Term-level label (section 3.1): ``known`` is the term type (True valid, False hypothetical)."""
    if acceptance == "ABSENT":
        return "i"
    if not known:
        return "h" if acceptance == "MENTIONED" else "v"
    if acceptance == "UNKNOWN":
        return "i"
    if acceptance == "UNREAL":
        return "h"
    return "h" if meaning is False else "v"


def answer_label(term_labels: Iterable[str]) -> AnswerLabel | None:
    """Answer-level label (section 3.2): any h -> hallucination, else any i -> irrelevant, else valid."""
    labels = list(term_labels)
    if not labels:
        return None
    if "h" in labels:
        return "hallucination"
    if "i" in labels:
        return "irrelevant"
    return "valid"


def _content(text: str) -> set[str]:
    return {w[:6] for w in _WORD.findall(text.lower()) if w not in _STOP}


def meaning_check(response: str, term: str, definition: str) -> bool | None:
    """Lexical overlap between a definition and the sentences using the term; None when unsure.

    True when at least a quarter of the definition's content stems occur near the
    mentions; False only when a long passage around the term shares none of them.
    """
    spans = find_mentions(response, term)
    defn = _content(definition) - _content(term)
    if not spans or len(defn) < 3:
        return None
    window = " ".join(response[max(0, s - 300) : e + 300] for s, e in spans)
    near = _content(window) - _content(term)
    overlap = len(defn & near) / len(defn)
    if overlap >= 0.25:
        return True
    if not (defn & near) and len(near) >= 15:
        return False
    return None
