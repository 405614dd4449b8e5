"""A spelling-based English rhyme heuristic: yes, no, or cannot tell (None)."""

from __future__ import annotations

import re

__all__ = ["rhyme_key", "rhymes"]

_VOWELS = "aeiouy"
# Spelled vowel groups (at the end of the word, open syllable) -> sound class.
_OPEN_SOUNDS = (
    ("eigh", "EY"),
    ("ay", "EY"),
    ("ey", "EY"),
    ("ae", "EY"),
    ("igh", "AY"),
    ("ye", "AY"),
    ("ie", "AY"),
    ("uy", "AY"),
    ("ough", "UW"),
    ("ue", "UW"),
    ("ew", "UW"),
    ("oo", "UW"),
    ("ou", "UW"),
    ("ee", "IY"),
    ("ea", "IY"),
    ("ei", "IY"),
    ("oe", "OW"),
    ("ow", "OW?"),
    ("aw", "AO"),
    ("au", "AO"),
)
# Vowel + consonant spellings with a silent final e, and other equivalent rimes.
_RIME_EQUIV = (
    (r"(?:ight|ite|yte)$", "AYT"),
    (r"(?:ine|yne)$", "AYN"),
    (r"(?:ime|yme)$", "AYM"),
    (r"(?:ire|yre)$", "AYR"),
    (r"(?:ide|yde)$", "AYD"),
    (r"(?:eet|eat|ete)$", "IYT"),
    (r"(?:een|ean|ene)$", "IYN"),
    (r"(?:eam|eem|eme)$", "IYM"),
    (r"(?:eal|eel)$", "IYL"),
    (r"(?:eep|eap)$", "IYP"),
    (r"(?:ain|ane|eign)$", "EYN"),
    (r"(?:ail|ale)$", "EYL"),
    (r"(?:ait|ate|eight)$", "EYT"),
    (r"(?:ade|aid|ayed)$", "EYD"),
    (r"(?:ame|aim)$", "EYM"),
    (r"(?:ake|ache)$", "EYK"),
    (r"(?:ace|ase)$", "EYS"),
    (r"(?:oan|one|own)$", "OWN?"),
    (r"(?:oat|ote)$", "OWT"),
    (r"(?:oal|ole|oll|owl)$", "OWL?"),
    (r"(?:ool|ule)$", "UWL"),
    (r"(?:oom|ume|omb)$", "UWM"),
    (r"(?:oon|une)$", "UWN"),
    (r"(?:ore|oar|oor|our)$", "AOR?"),
    (r"(?:air|are|ear|ere)$", "EHR?"),
    (r"(?:ound)$", "AWND"),
    (r"(?:ead|ed)$", "EHD?"),
)
_CONSONANT_CLASS = (
    ("dge", "J"),
    ("ge", "J"),
    ("ck", "K"),
    ("que", "K"),
    ("ke", "K"),
    ("ch", "CH"),
    ("tch", "CH"),
    ("sh", "SH"),
    ("th", "TH"),
    ("ph", "F"),
    ("gh", ""),
    ("mb", "M"),
    ("ng", "NG"),
    ("se", "S"),
    ("ce", "S"),
    ("ze", "Z"),
)


def rhyme_key(word: str) -> str:
    """An approximate sound key of the end of ``word`` (last vowel sound and what follows)."""
    w = re.sub(r"[^a-z]", "", word.lower())
    if not w:
        return ""
    for pattern, key in _RIME_EQUIV:
        if re.search(pattern, w):
            return key
    for spelled, key in _OPEN_SOUNDS:
        if w.endswith(spelled):
            return key
    m = re.search(r"[aeiouy]+[^aeiouy]*e?$", w)
    return m.group(0) if m else w


def _final_consonant(word: str) -> str | None:
    w = re.sub(r"[^a-z]", "", word.lower())
    if not w:
        return None
    for spelled, cls in sorted(_CONSONANT_CLASS, key=lambda x: -len(x[0])):
        if w.endswith(spelled) and len(w) > len(spelled):
            return cls
    if w[-1] == "e" and len(w) > 2 and w[-2] not in _VOWELS:
        w = w[:-1]
    m = re.search(r"[^aeiouy]+$", w)
    if not m:
        return ""
    tail = m.group(0)
    tail = re.sub(r"(.)\1", r"\1", tail)
    return {"c": "K", "k": "K", "s": "S", "z": "Z", "x": "KS", "w": ""}.get(tail[-1], tail[-1].upper())


def rhymes(a: str, b: str) -> bool | None:
    """True if the words rhyme by spelling, False if their final consonant sounds clearly differ, else None."""
    a, b = a.lower().strip(), b.lower().strip()
    if not a or not b:
        return None
    if a == b:
        return True
    ka, kb = rhyme_key(a), rhyme_key(b)
    if ka and ka == kb and not ka.endswith("?"):
        return True
    if ka.endswith("?") and ka == kb:
        return None  # spelling is ambiguous (now/know, bead/bread)
    if len(a) >= 3 and len(b) >= 3 and a[-3:] == b[-3:] and any(c in _VOWELS for c in a[-3:]):
        return True
    fa, fb = _final_consonant(a), _final_consonant(b)
    if fa is None or fb is None:
        return None
    if fa != fb and not ({fa, fb} <= {"S", "Z"}):
        return False
    return None
