"""Checks for IFBench's count, ratio, words and sentence constraints (IFBench ids and kwargs names).

Each check follows the definition of the official IFBench checker (AllenAI, Apache-2.0), written anew
for this project. Where a check needs a resource that is not installed (syllable counts, emoji data,
a part-of-speech model) it returns UNKNOWN instead of guessing.
"""

from __future__ import annotations

import itertools
import re
from collections import Counter
from collections.abc import Mapping
from typing import Any

from faithguard.lexical.frequency import stop_words
from faithguard.models import Status
from faithguard.verifiers.ifbench_text import PUNCT, sentences, strip_punct, words, ws_words
from faithguard.verifiers.registry import CheckerTable, ParamError, VerifierOutcome, get_int, get_str, get_str_list

__all__ = ["CHECKS"]

#: This module's checkers; :mod:`faithguard.verifiers.plugin` registers them.
CHECKS = CheckerTable()

_S, _V, _U = Status.SATISFIED, Status.VIOLATED, Status.UNKNOWN


def _ok(cond: bool, why: str) -> VerifierOutcome:
    return VerifierOutcome(_S if cond else _V, why)


@CHECKS.add("count:word_count_range")
def _word_range(p: Mapping[str, Any], r: str) -> VerifierOutcome:
    lo, hi, n = get_int(p, "min_words"), get_int(p, "max_words"), len(words(r))
    return _ok(lo <= n <= hi, f"{n} words (need {lo}-{hi})")


@CHECKS.add("count:unique_word_count")
def _unique_words(p: Mapping[str, Any], r: str) -> VerifierOutcome:
    n = len({w.strip(PUNCT + " ") for w in r.lower().split()})
    return _ok(n >= get_int(p, "N"), f"{n} unique words (need at least {get_int(p, 'N')})")


@CHECKS.add("ratio:stop_words")
def _stop_ratio(p: Mapping[str, Any], r: str) -> VerifierOutcome:
    ws = words(r)
    if not ws:
        return VerifierOutcome(_V, "no words")
    stops = stop_words()  # spaCy's English list (IFBench uses NLTK's, which needs a corpus download; lists differ)
    pct = 100 * sum(w.lower() in stops for w in ws) / len(ws)
    return _ok(pct <= get_int(p, "percentage"), f"{pct:.1f}% stop words (max {get_int(p, 'percentage')}%)")


def _ends(r: str) -> tuple[int, int, int]:
    ss = sentences(r)
    return sum(s.endswith(".") for s in ss), sum(s.endswith("?") for s in ss), sum(s.endswith("!") for s in ss)


@CHECKS.add("ratio:sentence_type")
def _sentence_type(p: Mapping[str, Any], r: str) -> VerifierOutcome:
    d, q, _ = _ends(r)
    return _ok(d == 2 * q, f"{d} declarative vs {q} interrogative (need 2:1)")


@CHECKS.add("ratio:sentence_balance")
def _sentence_balance(p: Mapping[str, Any], r: str) -> VerifierOutcome:
    d, q, e = _ends(r)
    return _ok(d == q == e, f"{d} declarative, {q} interrogative, {e} exclamatory (need equal)")


#: Coordinating conjunctions: the closed class "for, and, nor, but, or, yet, so" (grammar definition).
_FANBOYS = frozenset({"for", "and", "nor", "but", "or", "yet", "so"})


@CHECKS.add("count:conjunctions")
def _conjunctions(p: Mapping[str, Any], r: str) -> VerifierOutcome:
    used = {w.lower() for w in ws_words(r) if w.lower() in _FANBOYS}
    return _ok(len(used) >= get_int(p, "small_n"), f"{len(used)} different coordinating conjunctions")


@CHECKS.add("count:person_names")
def _person_names(p: Mapping[str, Any], r: str) -> VerifierOutcome:
    if "names" not in p:
        return VerifierOutcome(_U, "the list of allowed names was not found in the request")
    names = get_str_list(p, "names")
    found = {n for n in names if n in r}
    return _ok(len(found) >= get_int(p, "N"), f"{len(found)} of the listed names used (need {get_int(p, 'N')})")


@CHECKS.add("ratio:overlap")
def _overlap(p: Mapping[str, Any], r: str) -> VerifierOutcome:
    ref, pct = get_str(p, "reference_text"), get_int(p, "percentage")
    grams = {r[i : i + 3] for i in range(len(r) - 2)}
    if not grams:
        return VerifierOutcome(_V, "response too short for trigrams")
    ref_grams = {ref[i : i + 3] for i in range(len(ref) - 2)}
    got = 100 * len(grams & ref_grams) / len(grams)
    return _ok(pct - 2 <= got <= pct + 2, f"character-trigram overlap {got:.1f}% (need {pct}±2%)")


@CHECKS.add("count:numbers")
def _numbers(p: Mapping[str, Any], r: str) -> VerifierOutcome:
    n = len(re.findall(r"\d+", strip_punct(r)))
    return _ok(n == get_int(p, "N"), f"{n} numbers (need exactly {get_int(p, 'N')})")


@CHECKS.add("words:alphabet")
def _alphabet(p: Mapping[str, Any], r: str) -> VerifierOutcome:
    ws = [w for w in strip_punct(r).split() if w]
    if not ws or not ("a" <= ws[0][0].lower() <= "z"):
        return VerifierOutcome(_V, "the first word does not start with a letter")
    want = ws[0][0].lower()
    for i, w in enumerate(ws[1:], start=2):
        want = chr((ord(want) - 97 + 1) % 26 + 97)
        if w[0].lower() != want:
            return VerifierOutcome(_V, f"word {i} {w!r} should start with {want!r}")
    return VerifierOutcome(_S, "every word starts with the next letter")


@CHECKS.add("words:vowel")
def _vowel(p: Mapping[str, Any], r: str) -> VerifierOutcome:
    paras = r.strip().split("\n")
    if len(paras) != 1:
        return VerifierOutcome(_V, f"{len(paras)} lines, need a single paragraph")
    used = set(paras[0].lower()) & set("aeiou")
    return _ok(len(used) <= 3, f"{len(used)} different vowels used (max 3)")


_CONSONANTS = set("bcdfghjklmnpqrstvwxyz")


@CHECKS.add("words:consonants")
def _consonants(p: Mapping[str, Any], r: str) -> VerifierOutcome:
    for w in r.lower().split():
        if not any(a in _CONSONANTS and b in _CONSONANTS for a, b in itertools.pairwise(w)):
            return VerifierOutcome(_V, f"{w!r} has no consonant cluster")
    return VerifierOutcome(_S, "every word has a consonant cluster")


def _alliteration(sentence: str) -> int:
    ws = [w.lstrip(PUNCT + " ") for w in sentence.lower().split()]
    ws = [w for w in ws if w]
    score, run = 0, False
    for a, b in itertools.pairwise(ws):
        if a[0] == b[0]:
            score += 1 if run else 2
            run = True
        else:
            run = False
    return score


@CHECKS.add("sentence:alliteration_increment")
def _alliteration_increment(p: Mapping[str, Any], r: str) -> VerifierOutcome:
    prev = -1
    for i, s in enumerate(sentences(r), start=1):
        a = _alliteration(s)
        if a <= prev:
            return VerifierOutcome(_V, f"sentence {i} has {a} alliterative words, not more than {prev}")
        prev = a
    return VerifierOutcome(_S, "alliteration grows sentence by sentence")


@CHECKS.add("words:palindrome")
def _palindrome(p: Mapping[str, Any], r: str) -> VerifierOutcome:
    found = [w for w in strip_punct(r).lower().split() if len(w) >= 5 and w == w[::-1]]
    return _ok(len(found) >= 10, f"{len(found)} palindromes of 5+ letters (need 10)")


@CHECKS.add("count:punctuation")
def _punctuation(p: Mapping[str, Any], r: str) -> VerifierOutcome:
    if not ("!?" in r or "?!" in r or "‽" in r):
        return VerifierOutcome(_V, "no interrobang")
    rest = r.replace("?!", "", 1)
    if len(rest) == len(r):
        rest = r.replace("!?", "", 1)
    missing = sorted(set(".,!?;:") - set(rest))
    return _ok(not missing, f"missing: {' '.join(missing)}" if missing else "every mark used")


@CHECKS.add("words:prime_lengths")
def _prime_lengths(p: Mapping[str, Any], r: str) -> VerifierOutcome:
    def prime(n: int) -> bool:
        return n > 1 and all(n % k for k in range(2, int(n**0.5) + 1))

    for w in strip_punct(r).split():
        if not prime(len(w)):
            return VerifierOutcome(_V, f"{w!r} has {len(w)} letters, not a prime")
    return VerifierOutcome(_S, "every word length is prime")


def _emoji_check() -> Any | None:
    try:
        import emoji  # type: ignore[import-not-found, unused-ignore]
    except ImportError:
        return None
    return emoji.is_emoji


@CHECKS.add("format:emoji")
def _emoji(p: Mapping[str, Any], r: str) -> VerifierOutcome:
    is_emoji = _emoji_check()
    if is_emoji is None:
        return VerifierOutcome(_U, "the 'emoji' package is not installed (pip install faithguard[ifbench])")
    ss = sentences(r)
    for i, s in enumerate(ss):
        t = strip_punct(s).strip()
        if not t:
            return VerifierOutcome(_V, f"sentence {i + 1} is empty")
        if is_emoji(t[-1]) or is_emoji(t[-2] if len(t) > 1 else t[-1]):
            continue
        nxt = strip_punct(ss[i + 1]).strip() if i + 1 < len(ss) else ""
        if not nxt or not is_emoji(nxt[0]):
            return VerifierOutcome(_V, f"sentence {i + 1} does not end with an emoji")
    return VerifierOutcome(_S, "every sentence ends with an emoji")


@CHECKS.add("ratio:sentence_words")
def _sentence_chars(p: Mapping[str, Any], r: str) -> VerifierOutcome:
    ss = sentences(r)
    if len(ss) != 3:
        return VerifierOutcome(_V, f"{len(ss)} sentences, need 3")
    lengths = {len(s.strip()) for s in ss}
    return _ok(len(lengths) == 1, f"sentence lengths {sorted(lengths)} (need equal)")


_JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")


@CHECKS.add("count:words_japanese")
def _japanese(p: Mapping[str, Any], r: str) -> VerifierOutcome:
    n = get_int(p, "N")
    if n < 1:
        raise ParamError("N must be positive")
    for i, w in enumerate(r.split(), start=1):
        w = w.strip(PUNCT + " ")
        if i % n == 0 and w and not w.isdigit() and not _JAPANESE.search(w):
            return VerifierOutcome(_V, f"word {i} is not Japanese")
    return VerifierOutcome(_S, f"every {n}th word is Japanese")


@CHECKS.add("words:start_verb")
def _start_verb(p: Mapping[str, Any], r: str) -> VerifierOutcome:
    try:
        from faithguard.nlp import parse  # lazily: the shared spaCy pipeline

        doc = parse(r.strip()[:400])
    except (ImportError, OSError):
        return VerifierOutcome(_U, "no part-of-speech tagger available")
    first = next((t for t in doc if not t.is_space), None)
    if first is None:
        return VerifierOutcome(_V, "empty response")
    return _ok(first.tag_.startswith("VB"), f"first word {first.text!r} is tagged {first.tag_}")


@CHECKS.add("words:repeats")
def _repeats(p: Mapping[str, Any], r: str) -> VerifierOutcome:
    counts = Counter(strip_punct(r.lower()).split())
    worst = max(counts.items(), key=lambda kv: kv[1], default=("", 0))
    return _ok(worst[1] <= get_int(p, "small_n"), f"most repeated: {worst[0]!r} x{worst[1]}")


@CHECKS.add("sentence:keyword")
def _keyword_in_sentence(p: Mapping[str, Any], r: str) -> VerifierOutcome:
    word, n = get_str(p, "word"), get_int(p, "N")
    ss = sentences(r)
    if len(ss) < n:
        return VerifierOutcome(_V, f"only {len(ss)} sentences")
    has = word.lower() in ss[n - 1].lower()
    return _ok(has, f"sentence {n} {'has' if has else 'lacks'} {word!r}")


#: Personal, possessive and reflexive pronouns of English (grammar definition, IFBench's set).
_PRONOUNS = frozenset(
    [
        "i",
        "me",
        "my",
        "mine",
        "myself",
        "we",
        "us",
        "our",
        "ours",
        "ourselves",
        "you",
        "your",
        "yours",
        "yourself",
        "yourselves",
        "he",
        "him",
        "his",
        "himself",
        "she",
        "her",
        "hers",
        "herself",
        "it",
        "its",
        "itself",
        "they",
        "them",
        "their",
        "theirs",
        "themselves",
    ]
)


@CHECKS.add("count:pronouns")
def _pronouns(p: Mapping[str, Any], r: str) -> VerifierOutcome:
    n = sum(w in _PRONOUNS for w in strip_punct(r.replace("/", " ").lower()).split())
    return _ok(n >= get_int(p, "N"), f"{n} pronouns (need at least {get_int(p, 'N')})")


@CHECKS.add("words:odd_even_syllables")
def _syllables(p: Mapping[str, Any], r: str) -> VerifierOutcome:
    try:
        import syllapy  # type: ignore[import-untyped, import-not-found, unused-ignore]
    except ImportError:
        return VerifierOutcome(_U, "the 'syllapy' package is not installed (pip install faithguard[ifbench])")
    parity = [syllapy.count(w) % 2 for w in strip_punct(r).lower().split()]
    for i, (a, b) in enumerate(itertools.pairwise(parity), start=1):
        if a == b:
            return VerifierOutcome(_V, f"words {i} and {i + 1} have the same syllable parity")
    return VerifierOutcome(_S, "syllable parity alternates")


@CHECKS.add("words:last_first")
def _last_first(p: Mapping[str, Any], r: str) -> VerifierOutcome:
    ss = sentences(r)
    for i, (a, b) in enumerate(itertools.pairwise(ss), start=1):
        wa, wb = a.rstrip(PUNCT + " ").split(), b.lstrip(PUNCT + " ").split()
        if not wa or not wb or wa[-1].lower() != wb[0].lower():
            return VerifierOutcome(_V, f"sentence {i + 1} does not start with the last word of sentence {i}")
    return VerifierOutcome(_S, "each sentence starts with the previous one's last word")


@CHECKS.add("words:paragraph_last_first")
def _paragraph_last_first(p: Mapping[str, Any], r: str) -> VerifierOutcome:
    for i, para in enumerate(r.split("\n"), start=1):
        para = para.strip().lower()
        if not para:
            continue
        ws = para.strip(PUNCT + " ").split()
        if not ws or ws[0] != ws[-1]:
            return VerifierOutcome(_V, f"paragraph {i} does not end with its first word")
    return VerifierOutcome(_S, "every paragraph ends with its first word")


def _clean_len(sentence: str) -> int:
    return len([w for w in strip_punct(sentence).strip().split() if w])


@CHECKS.add("sentence:increment")
def _increment(p: Mapping[str, Any], r: str) -> VerifierOutcome:
    step = get_int(p, "small_n")
    ss = sentences(r)
    if not ss:
        return VerifierOutcome(_V, "no sentences")
    prev = _clean_len(ss[0])
    for i, s in enumerate(ss[1:], start=2):
        if _clean_len(s) != prev + step:
            return VerifierOutcome(_V, f"sentence {i} has {_clean_len(s)} words, need {prev + step}")
        prev = _clean_len(s)
    return VerifierOutcome(_S, f"each sentence adds {step} words")


@CHECKS.add("words:no_consecutive")
def _no_consecutive(p: Mapping[str, Any], r: str) -> VerifierOutcome:
    ws = [w for w in strip_punct(r.lower()).split() if w]
    for a, b in itertools.pairwise(ws):
        if a[0] == b[0]:
            return VerifierOutcome(_V, f"{a!r} and {b!r} share a first letter")
    return VerifierOutcome(_S, "no two consecutive words share a first letter")


@CHECKS.add("count:keywords_multiple")
def _keywords_multiple(p: Mapping[str, Any], r: str) -> VerifierOutcome:
    low = r.lower()
    for key, want in (("keyword1", 1), ("keyword2", 2), ("keyword3", 3), ("keyword4", 5), ("keyword5", 7)):
        kw = get_str(p, key).strip().lower()
        if low.count(kw) != want:
            return VerifierOutcome(_V, f"{kw!r} occurs {low.count(kw)} times, need {want}")
    return VerifierOutcome(_S, "every keyword occurs the asked number of times")
