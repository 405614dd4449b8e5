"""Named-entity-like spans without a model: runs of capitalised words, labelled by gazetteer and shape."""

from __future__ import annotations

import re

from faithguard.engine.lexicon import words
from faithguard.engine.places import PLACE_PREFIXES, PLACE_SUFFIXES, demonym_place, geonames_place, is_place

__all__ = ["analyse_names", "capitalisation_informative", "find_name_spans", "find_names"]

_TOKEN = re.compile(r"\n|[.!?]+(?=[\s\"')\]]|$)|[^\W_]+(?:['’.&-][^\W_]+)*|[^\w\s]")
_CONNECTORS = words("van von de da di du del della der den la le bin ibn al of the y dos das do e")
_ABBREVIATIONS = words("mr mrs ms dr st mt jr sr prof gen lt col capt sgt gov sen rep rev fr no vs")
#: Capitalised words that start sentences without naming anything.
_STARTERS = words(
    """a an the this that these those it its he she they we you i my our your his her their there here what which
    who whom whose when where why how if in on at to for from by with about as after before during since until
    while although though because but and or so yet also however therefore thus then next finally first second
    third firstly secondly lastly overall moreover furthermore additionally meanwhile instead still many most
    some several few each every all both one two three four five six seven eight nine ten other another such
    yes no not note please today yesterday tomorrow now later earlier sure certainly of over under between
    among through against toward towards within without into onto upon like unlike despite including
    answer question step part section summary conclusion introduction example examples"""
)
_DATES = words(
    """january february march april may june july august september october november december monday tuesday
    wednesday thursday friday saturday sunday jan feb mar apr jun jul aug sep sept oct nov dec"""
)


def _is_norp(low: str) -> bool:
    """A demonym or place adjective ("french", "italians"), from the WordNet-derived table in places.py."""
    return demonym_place(low) is not None or (low.endswith("s") and demonym_place(low[:-1]) is not None)


_TITLES = words(
    "president king queen emperor empress prince princess duke sultan pope chancellor governor mayor minister "
    "premier leader capital history map flag economy culture government people"
)
_POSSESSIVE = re.compile(r"['’]s$")
_PERSONAL = frozenset({"i", "i'm", "i've", "i'd", "i'll", "ok", "okay"})


def _label(name: str) -> str:
    """PERSON (people and organisations together), GPE/LOC, NORP or DATE for a capitalised run."""
    low = name.lower()
    parts = low.split()
    if geonames_place(low):
        return "GPE"
    if len(parts) > 1 and (parts[-1] in PLACE_SUFFIXES or parts[0] in PLACE_PREFIXES):
        return "LOC"
    if is_place(low):
        return "GPE"
    if len(parts) == 1 and _is_norp(low):
        return "NORP"
    if low in _DATES or parts[0] in _DATES:
        return "DATE"
    return "PERSON"


def _is_cap(tok: str, shouting: bool) -> bool:
    if not tok[0].isupper():
        return False
    if shouting:
        low = tok.lower()
        return is_place(low) or _is_norp(low)
    if tok.isupper() and len(tok) > 1:
        return len(tok.rstrip(".")) <= 6
    return True


def _shouting(alpha: list[str]) -> bool:
    """Whether most words are written in capitals, so case says nothing about names."""
    upper_words = sum(1 for t in alpha if t.isupper() and len(t) > 1)
    return bool(alpha) and upper_words > 0.3 * len(alpha)


_ASCII_LETTER = re.compile(r"[A-Za-z]")
_NON_ASCII = re.compile(r"[^\x00-\x7f]")


def capitalisation_informative(text: str) -> bool:
    """Whether capital letters can mark names here: mostly Latin letters and not written in capitals."""
    return _informative(text, [m.group(0) for m in _TOKEN.finditer(text) if m.group(0)[0].isalpha()])


def _informative(text: str, alpha: list[str]) -> bool:
    ascii_letters = len(_ASCII_LETTER.findall(text))
    other_letters = sum(1 for ch in _NON_ASCII.findall(text) if ch.isalpha())
    if not ascii_letters + other_letters:
        return False
    return ascii_letters >= 0.9 * (ascii_letters + other_letters) and not _shouting(alpha)


def analyse_names(text: str) -> tuple[list[tuple[int, int, str]], bool]:
    """:func:`find_name_spans` and :func:`capitalisation_informative` from one tokenisation."""
    tokens = [(m.group(0), m.start()) for m in _TOKEN.finditer(text)]
    alpha = [t for t, _ in tokens if t[0].isalpha()]
    return _spans(text, tokens, alpha), _informative(text, alpha)


def find_names(text: str) -> tuple[tuple[str, str], ...]:
    """(name, label) for every capitalised run that reads as a name, in order of appearance."""
    return tuple((" ".join(text[a:b].split()), label) for a, b, label in find_name_spans(text))


def find_name_spans(text: str) -> list[tuple[int, int, str]]:
    """(start, end, label) of every capitalised run that reads as a name, in order of appearance.

    A run at the start of a sentence or line counts only when its first word is not a common
    sentence opener and the word never occurs in lower case in the text; a single such word counts
    only when it is a known place or people, is capitalised elsewhere mid-sentence, or stands alone
    as a list item ("2. Titian").
    """
    tokens = [(m.group(0), m.start()) for m in _TOKEN.finditer(text)]
    return _spans(text, tokens, [t for t, _ in tokens if t[0].isalpha()])


def _spans(text: str, tokens: list[tuple[str, int]], alpha: list[str]) -> list[tuple[int, int, str]]:
    shouting = _shouting(alpha)
    lower_seen = {t.lower() for t in alpha if t[0].islower()}
    runs: list[tuple[list[int], bool]] = []  # (token indices incl. abbreviation dots, starts a sentence)
    current: list[int] = []
    current_start = False
    at_start = True
    n = len(tokens)
    for i, (tok, _) in enumerate(tokens):
        if tok[0].islower() and not shouting:  # fast path: most tokens are lower-case words
            if current and tok in _CONNECTORS and _cap_follows(tokens, i + 1, shouting):
                current.append(i)
                continue
            if current:
                runs.append((current, current_start))
                current = []
            at_start = False
            continue
        if tok == "." and _abbreviation(tokens, i):
            if current:
                current.append(i)
            continue
        word = tok[0].isalnum()
        if word and tok[0].isalpha() and _is_cap(tok, shouting) and tok.lower() not in _PERSONAL:
            if not current:
                current_start = at_start
            current.append(i)
            at_start = False
        elif current and tok.lower() in _CONNECTORS and _cap_follows(tokens, i + 1, shouting):
            current.append(i)
        else:
            if current:
                runs.append((current, current_start))
                current = []
            if tok == "\n" or (tok[0] in ".!?" and not _abbreviation(tokens, i)):
                at_start = True
            elif word and not tok[0].isdigit():
                at_start = False
    if current:
        runs.append((current, current_start))
    mid_caps = {tokens[k][0].lower() for ks, start in runs for j, k in enumerate(ks) if not (start and j == 0)}
    out: list[tuple[int, int, str]] = []
    for ks, start in runs:
        if start:
            while ks and (tokens[ks[0]][0].lower() in _STARTERS or tokens[ks[0]][0].lower() in lower_seen):
                ks = ks[1:]
                while ks and tokens[ks[0]][0] == ".":
                    ks = ks[1:]
                start = False if ks else start
            if not ks:
                continue
            words_in = [k for k in ks if tokens[k][0] != "."]
            if start and len(words_in) == 1:
                low = tokens[words_in[0]][0].lower()
                after = ks[-1] + 1
                nxt = tokens[after][0] if after < n else "\n"
                if not (is_place(low) or _is_norp(low) or low in mid_caps or not nxt[0].isalpha()):
                    continue
        while ks and tokens[ks[-1]][0].lower() in _CONNECTORS:
            ks = ks[:-1]
        if not ks:
            continue
        for part in _split_titles(ks, tokens):
            a = tokens[part[0]][1]
            b = tokens[part[-1]][1] + len(tokens[part[-1]][0])
            m = _POSSESSIVE.search(text, a, b)
            if m is not None:
                b = m.start()
            out.append((a, b, _label(" ".join(text[a:b].split()))))
    return out


def _split_titles(ks: list[int], tokens: list[tuple[str, int]]) -> list[list[int]]:
    """'President of the United States' -> the title and the place, when the tail is a known place."""
    words = [tokens[k][0].lower() for k in ks]
    if words[0] not in _TITLES or "of" not in words:
        return [ks]
    j = words.index("of")
    tail = ks[j + 1 :]
    while tail and tokens[tail[0]][0].lower() in _CONNECTORS:
        tail = tail[1:]
    if tail and is_place(" ".join(tokens[k][0].lower() for k in tail)):
        return [ks[:j], tail]
    return [ks]


def _cap_follows(tokens: list[tuple[str, int]], j: int, shouting: bool) -> bool:
    """Whether a capitalised word follows position ``j`` after at most two more connectors."""
    for tok, _ in tokens[j : j + 3]:
        if tok.lower() in _CONNECTORS:
            continue
        return tok[0].isalpha() and _is_cap(tok, shouting)
    return False


def _abbreviation(tokens: list[tuple[str, int]], i: int) -> bool:
    """Whether the '.' at ``i`` ends an abbreviation or an initial rather than a sentence."""
    if i == 0:
        return False
    prev = tokens[i - 1][0]
    return prev.lower() in _ABBREVIATIONS or (len(prev) == 1 and prev.isupper()) or "." in prev
