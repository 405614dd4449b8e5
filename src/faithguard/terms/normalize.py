"""Term normalisation: the HypoTermQA string match (appendix K) plus number variants."""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

__all__ = ["acronym", "contains_term", "fold_accents", "normalize", "number_variants", "strip_brackets"]

_BRACKETS = re.compile(r"\([^()]*\)|\[[^\[\]]*\]")
_PUNCT = re.compile(r"[^\w\s]", re.UNICODE)
_SPACES = re.compile(r"\s+")
_ES_ENDINGS = ("ches", "shes", "sses", "xes", "zes")


def strip_brackets(text: str) -> str:
    """Drop expressions inside round or square brackets."""
    return _BRACKETS.sub(" ", text)


def normalize(text: str) -> str:
    """Lowercase, hyphens/underscores to spaces, punctuation removed, spaces collapsed."""
    text = unicodedata.normalize("NFKC", text).lower()
    text = text.replace("_", " ").replace("-", " ").replace("\u2010", " ").replace("\u2013", " ")
    text = text.replace("'", "").replace("\u2019", "")
    text = _PUNCT.sub(" ", text)
    return _SPACES.sub(" ", text).strip()


def fold_accents(normalized: str) -> str:
    """The string without combining accents ("damgård" -> "damgard"); title lists spell names either way."""
    decomposed = unicodedata.normalize("NFKD", normalized)
    folded = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    # letters that do not decompose but are written without their stroke in ASCII spellings
    return folded.translate(_STROKES)


#: Unicode letters with a stroke or ligature (no combining mark to drop) and their ASCII spelling.
_STROKES = str.maketrans({"ø": "o", "đ": "d", "ł": "l", "ß": "ss", "æ": "ae", "œ": "oe", "ı": "i", "þ": "th"})


def _singular(word: str) -> str:
    if len(word) <= 3 or word.endswith("ss") or word.endswith("us") or word.endswith("is"):
        return word
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith(_ES_ENDINGS):
        return word[:-2]
    if word.endswith("s"):
        return word[:-1]
    return word


def _plural(word: str) -> str:
    if word.endswith("y") and len(word) > 2 and word[-2] not in "aeiou":
        return word[:-1] + "ies"
    if word.endswith(("s", "x", "z", "ch", "sh")):
        return word + "es"
    return word + "s"


def number_variants(normalized: str) -> list[str]:
    """The normalised phrase with its last word singular and plural (the phrase itself first)."""
    if not normalized:
        return []
    head, _, last = normalized.rpartition(" ")
    prefix = head + " " if head else ""
    out = [normalized]
    for form in (_singular(last), _plural(last)):
        candidate = prefix + form
        if candidate not in out:
            out.append(candidate)
    return out


def acronym(term: str) -> str | None:
    """Initials of a multiword term ("Nano-Sync Fusion Technology" -> "NSFT"), or None."""
    words = [w for w in normalize(term).split() if w not in {"of", "and", "the", "for", "in", "on", "a", "an"}]
    if len(words) < 2:
        return None
    return "".join(w[0] for w in words).upper()


@lru_cache(maxsize=8)
def _text_forms(text: str) -> tuple[str, str]:
    """The two forms of ``text`` :func:`contains_term` looks in, made once per text: a check asks for every term of a
    request in the same answer (400 terms in a 200,000-character answer rebuilt them 400 times: seconds)."""
    return _SPACES.sub(" ", text.lower()), " " + normalize(strip_brackets(text)) + " "


def contains_term(text: str, term: str) -> bool:
    """Appendix-K inclusion: case, brackets, hyphen/space, punctuation, plural and acronym forms."""
    if not term.strip():
        return False
    raw_text, padded = _text_forms(text)
    raw_term = _SPACES.sub(" ", term.lower()).strip()
    if raw_term and raw_term in raw_text:
        return True
    norm_term = normalize(strip_brackets(term)) or normalize(term)
    if not norm_term:
        return False
    if any(" " + v + " " in padded for v in number_variants(norm_term)):
        return True
    acr = acronym(term)
    return acr is not None and len(acr) >= 3 and re.search(r"\b" + re.escape(acr) + r"s?\b", text) is not None
