"""Offline language identification from Unicode scripts, marker letters and stopword profiles.

Deterministic and dependency free. ``identify(text)`` returns an ISO 639-1 code and a
confidence in [0, 1]; callers treat low confidence as "cannot decide".
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from dataclasses import dataclass
from functools import cache, lru_cache

from faithguard.lexical.langid_data import STOPWORDS

__all__ = ["LANGUAGE_NAMES", "Identification", "identify", "script_letters"]

#: ISO 639-1 code -> English name, for the languages this module can tell apart.
LANGUAGE_NAMES: dict[str, str] = {
    "en": "English",
    "es": "Spanish",
    "pt": "Portuguese",
    "fr": "French",
    "de": "German",
    "it": "Italian",
    "nl": "Dutch",
    "pl": "Polish",
    "vi": "Vietnamese",
    "sw": "Swahili",
    "fi": "Finnish",
    "id": "Indonesian",
    "tr": "Turkish",
    "sv": "Swedish",
    "ro": "Romanian",
    "ru": "Russian",
    "uk": "Ukrainian",
    "bg": "Bulgarian",
    "ar": "Arabic",
    "fa": "Persian",
    "ur": "Urdu",
    "hi": "Hindi",
    "mr": "Marathi",
    "ne": "Nepali",
    "bn": "Bengali",
    "pa": "Punjabi",
    "gu": "Gujarati",
    "kn": "Kannada",
    "ta": "Tamil",
    "te": "Telugu",
    "ml": "Malayalam",
    "th": "Thai",
    "he": "Hebrew",
    "ko": "Korean",
    "ja": "Japanese",
    "zh": "Chinese",
    "el": "Greek",
    "hy": "Armenian",
    "ka": "Georgian",
    "si": "Sinhala",
    "or": "Odia",
    "am": "Amharic",
}

# Scripts that (for our purposes) identify one language on their own.
_SCRIPT_LANG = {
    "BENGALI": "bn",
    "GURMUKHI": "pa",
    "GUJARATI": "gu",
    "KANNADA": "kn",
    "TAMIL": "ta",
    "TELUGU": "te",
    "MALAYALAM": "ml",
    "THAI": "th",
    "HEBREW": "he",
    "HANGUL": "ko",
    "GREEK": "el",
    "ARMENIAN": "hy",
    "GEORGIAN": "ka",
    "SINHALA": "si",
    "ORIYA": "or",
    "ETHIOPIC": "am",
}

_STOPWORDS = STOPWORDS

_LATIN_MARKERS = {
    "vi": "ăâđêôơưạảấầẩẫậắằẳẵặẹẻẽếềểễệỉịọỏốồổỗộớờởỡợụủứừửữựỳỵỷỹ",
    "pl": "ąćęłńśźż",
    "de": "äöüß",
    "es": "ñ¡¿",
    "pt": "ãõç",
    "fr": "œçèêëîïû",
    "ro": "șțăâî",
    "tr": "ğışç",
    "fi": "äö",
    "sv": "åäö",
}
_CYRILLIC_MARKERS = {"uk": "ієїґ", "ru": "ыэё", "bg": "ъ"}
_ARABIC_MARKERS = {"fa": "پچژگیک", "ur": "ےںٹڈڑھ", "ar": "ةىأإ"}


@dataclass(frozen=True)
class Identification:
    """Result of :func:`identify`: language code (None if undecided) and confidence."""

    language: str | None
    confidence: float


@lru_cache(maxsize=8192)  # a pure function of one character; a text repeats few characters many times
def _script(ch: str) -> str | None:
    if not ch.isalpha():
        return None
    try:
        name = unicodedata.name(ch)
    except ValueError:
        return None
    if name.startswith(("HIRAGANA", "KATAKANA")):
        return "KANA"
    if name.startswith("CJK"):
        return "HAN"
    if name.startswith(("HANGUL",)):
        return "HANGUL"
    return name.split(" ", 1)[0]


def _profile_scores(words: list[str], script: str) -> dict[str, float]:
    scores: dict[str, float] = dict.fromkeys(_STOPWORDS[script], 0.0)
    langs_of = _languages_of_word(script)
    for w in words:
        for lang in langs_of.get(w, ()):
            scores[lang] += 1.0
    return scores


@cache  # one table per script (a handful)
def _languages_of_word(script: str) -> dict[str, tuple[str, ...]]:
    """Stopword -> the languages of ``script`` whose profile holds it (one look-up a word, not one per language)."""
    index: dict[str, list[str]] = {}
    for lang, stop in _STOPWORDS[script].items():
        for w in stop:
            index.setdefault(w, []).append(lang)
    return {w: tuple(langs) for w, langs in index.items()}


def _by_profile(text: str, script: str, markers: dict[str, str]) -> Identification:
    lowered = text.lower()
    words = re.findall(r"\w+", lowered)
    if not words:
        return Identification(None, 0.0)
    scores = _profile_scores(words, script)
    for lang, chars in markers.items():
        hits = sum(lowered.count(c) for c in chars)
        if hits:
            scores[lang] = scores.get(lang, 0.0) + min(hits, len(words)) * 0.5
    ranked = sorted(((k, v) for k, v in scores.items() if v > 0), key=lambda kv: -kv[1])
    if not ranked:
        return Identification(None, 0.0)
    best, top = ranked[0]
    second = ranked[1][1] if len(ranked) > 1 else 0.0
    coverage = min(1.0, top / max(3.0, len(words) * 0.15))
    margin = (top - second) / top
    return Identification(best, round(coverage * (0.5 + 0.5 * margin), 3))


#: Scripts several languages share: the language is told by stopword profiles, which need running text.
_SHARED_SCRIPTS = frozenset({"LATIN", "CYRILLIC", "ARABIC", "DEVANAGARI"})


def script_letters(text: str) -> tuple[int, bool]:
    """(letters in ``text``, whether its main script is shared by several languages, as Latin is).

    A few letters of a shared script ("Bonjour !") cannot tell one language from another; a few characters
    of a script one language owns (Hangul, Thai) already can.
    """
    scripts: Counter[str] = Counter(s for s in map(_script, text) if s is not None)
    total = sum(scripts.values())
    if not total:
        return 0, True
    return total, scripts.most_common(1)[0][0] in _SHARED_SCRIPTS


@lru_cache(maxsize=64)  # a pure function of the text: one check asks it of the same answer up to three times
def identify(text: str) -> Identification:
    """Identify the main language of ``text`` (code, confidence); None when it cannot tell."""
    scripts: Counter[str] = Counter()
    for ch in text:
        s = _script(ch)
        if s is not None:
            scripts[s] += 1
    total = sum(scripts.values())
    if total < 3:
        return Identification(None, 0.0)
    script, count = scripts.most_common(1)[0]
    share = count / total
    if script == "HAN" and scripts.get("KANA", 0) > 0.05 * total:
        script, share = "KANA", (count + scripts["KANA"]) / total
    if script == "KANA":
        return Identification("ja", round(share, 3))
    if script == "HAN":
        return Identification("zh", round(share, 3))
    if script in _SCRIPT_LANG:
        return Identification(_SCRIPT_LANG[script], round(share, 3))
    if script == "DEVANAGARI":
        ident = _by_profile(text, script, {})
        if ident.language not in (None, "hi"):
            words = re.findall(r"\w+", text.lower())
            hi_score = sum(1 for w in words if w in _STOPWORDS["DEVANAGARI"]["hi"])
            other = sum(1 for w in words if w in _STOPWORDS["DEVANAGARI"][str(ident.language)])
            if hi_score * 1.5 >= other:
                ident = Identification("hi", ident.confidence)
        if ident.language is None:
            return Identification("hi", round(0.5 * share, 3))
        return Identification(ident.language, round(max(ident.confidence, 0.6) * share, 3))
    if script == "CYRILLIC":
        ident = _by_profile(text, script, _CYRILLIC_MARKERS)
    elif script == "ARABIC":
        ident = _by_profile(text, script, _ARABIC_MARKERS)
    elif script == "LATIN":
        ident = _by_profile(text, script, _LATIN_MARKERS)
    else:
        return Identification(None, 0.0)
    return Identification(ident.language, round(ident.confidence * share, 3))
