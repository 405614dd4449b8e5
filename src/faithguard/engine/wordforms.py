"""A model-free word normaliser: irregular forms (WordNet's exception lists), then plural and verb suffixes
stripped the same way on both sides."""

from __future__ import annotations

from functools import lru_cache

from faithguard.lexical.wordnet import exception_forms

__all__ = ["stem"]

_VOWELS = frozenset("aeiouy")


def _strip_suffix(w: str) -> str:
    if w.endswith("sses"):
        w = w[:-2]
    elif w.endswith("ies") and len(w) > 4:
        w = w[:-3] + "y"
    elif w.endswith("s") and len(w) > 3 and not w.endswith(("ss", "us", "is", "'s")):
        w = w[:-1]
    verb = False
    for suffix in ("ing", "ed"):
        if w.endswith(suffix):
            rest = w[: -len(suffix)]
            if len(rest) >= 2 and any(ch in _VOWELS for ch in rest):
                w, verb = rest, True
                if len(w) > 2 and w[-1] == w[-2] and w[-1] not in _VOWELS and w[-1] not in "lsz":
                    w = w[:-1]
            break
    if not verb and len(w) > 2 and w.endswith("e"):
        w = w[:-1]
    if len(w) > 3 and w.endswith("y") and w[-2] not in _VOWELS:
        w = w[:-1] + "i"
    return w


@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """A matching key: lower case, possessive and irregular forms resolved, then suffixes stripped.

    Applied identically to request terms and response words, so "circumnavigated" and
    "circumnavigate", "stories" and "story", "ran" and "running" share a key.
    """
    w = word.lower().strip("'’")
    if w.endswith(("'s", "’s")):
        w = w[:-2]
    w = exception_forms().get(w, w)
    if len(w) <= 2 or not w.isalpha():
        return w
    return _strip_suffix(w)
