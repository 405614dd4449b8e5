"""WordNet's verbs and adjectives for reading requests: the lexicographer file of a verb's senses ("describe"
communicates, "draft" creates), roots of refusing, accepting and omitting, and the adjectives of falling short.

Read through the same nltk reader and the same folder as :mod:`faithguard.lexical.wordnet` (which holds the nouns);
every test answers None, or False, without WordNet, and callers treat that as "not known".
"""

from __future__ import annotations

from functools import lru_cache

from faithguard.lexical.wordnet import _falls_under, _key, _reader, _state

__all__ = [
    "ACCEPTANCE_ROOTS",
    "OMISSION_ROOTS",
    "REFUSAL_ROOTS",
    "communicates",
    "creates",
    "falls_short",
    "knows_verb",
    "only_verb",
    "phrasal",
    "verb_file",
    "verb_sense_under",
]


#: WordNet roots of verbs that refuse or take away what they take ("reject", "dismiss", "veto", "refuse", "turn
#: down", "ban", "forbid", "prohibit", "discard", "trash", "delete", "remove", "throw out", "disqualify",
#: "penalize"): a count bound on what such a verb refuses is the opposite bound asked of what is kept.
REFUSAL_ROOTS = frozenset(
    {
        "reject.v.01",
        "refuse.v.01",
        "refuse.v.02",
        "forbid.v.01",
        "get_rid_of.v.01",
        "remove.v.01",
        "expel.v.01",
        "disqualify.v.01",
        "punish.v.01",
    }
)
#: WordNet roots of verbs that leave something out ("skip", "omit", "leave out", "ditch", "forgo", "remove"): said
#: of a mark or a word in a request, they ban it from the answer. Not "drop", "cut", "strip" (first senses of
#: moving, separating, depriving). Fixtures: tests/verifiers/test_count_paraphrases.py.
OMISSION_ROOTS = frozenset(
    {
        "neglect.v.01",
        "exclude.v.01",
        "refrain.v.01",
        "avoid.v.01",
        "abandon.v.01",
        "abandon.v.05",
        "get_rid_of.v.01",
        "remove.v.01",
        "waive.v.01",
    }
)
#: WordNet roots of verbs that accept what they take ("accept", "allow", "permit", "let"): negated, they refuse.
ACCEPTANCE_ROOTS = frozenset({"accept.v.01", "accept.v.02", "accept.v.03", "permit.v.01", "let.v.01"})


def verb_sense_under(verb: str, roots: frozenset[str]) -> bool | None:
    """Whether the verb's most frequent sense is, or falls under, one of ``roots`` ("dismisses" under
    reject.v.01; "decline", first "worsen", not); None without WordNet. Only the first sense: "bounce" refuses a
    cheque only in a rare sense."""
    wn = _reader(wait=True)
    if wn is None or not verb.strip():
        return None
    return _verb_under(verb.lower(), roots)


def phrasal(verb: str, particle: str) -> str:
    """The WordNet key of a phrasal verb from an inflected verb and its particle ("turns", "down" -> "turn_down")."""
    wn = _reader(wait=True)
    base = (wn.morphy(verb.lower(), "v") if wn is not None else None) or verb.lower()
    return f"{base}_{particle.lower()}"


def knows_verb(verb: str) -> bool:
    """Whether WordNet knows ``verb`` (inflected, or a phrasal verb joined by "_": "turn_down") as a verb."""
    wn = _reader(wait=True)
    return wn is not None and bool(verb.strip()) and wn.first_synset(_key(verb), "v") is not None


@lru_cache(maxsize=16384)
def _verb_under(verb: str, roots: frozenset[str]) -> bool:
    return _falls_under(_state["reader"].first_synset(_key(verb), "v"), roots)


def creates(verb: str) -> bool | None:
    """Whether one of the verb's two most frequent senses is filed as creation ('write', 'compose', 'craft');
    None without WordNet."""
    return _verb_filed(verb, "verb.creation", 2)


def communicates(verb: str) -> bool | None:
    """Whether one of the verb's three most frequent senses is filed as communication ('send', 'write', 'email',
    'tell'; not 'buy', 'bake'); None without WordNet."""
    return _verb_filed(verb, "verb.communication", 3)


#: The adjective clusters of falling short of an amount ("eleven is one shy of a dozen", "two chairs short").
_INSUFFICIENT = frozenset({"insufficient.a.01", "inadequate.a.01"})


def falls_short(adjective: str) -> bool | None:
    """Whether one of the adjective's senses is, or is a satellite of, WordNet's insufficient / inadequate cluster
    ("shy", "short", "deficient"; not "clear", "ahead"): said of a count, it bounds it from above ("shy of five
    sentences"). None without WordNet."""
    wn = _reader(wait=True)
    if wn is None:
        return None
    return _falls_short(adjective.lower())


@lru_cache(maxsize=4096)
def _falls_short(adjective: str) -> bool:
    for synset in _state["reader"].synsets(adjective, pos="a"):
        heads = {synset.name(), *(s.name() for s in synset.similar_tos())}
        if heads & _INSUFFICIENT:
            return True
    return False


def verb_file(verb: str) -> str | None:
    """The lexicographer file of the verb's most frequent sense ("verb.communication" for "describe", "verb.contact"
    for "put"); None when WordNet lacks the verb or is not installed."""
    wn = _reader(wait=True)
    if wn is None:
        return None
    found = wn.synsets(verb.lower(), pos="v")
    return str(found[0].lexname()) if found else None


def only_verb(word: str) -> bool | None:
    """Whether WordNet knows ``word`` as a verb and never as a noun or adjective ("respond", "summarize"; not
    "list", "answer", "draft"); None without WordNet. A capitalised first word so known is a verb the tagger may
    have read as a name ("Respond only with ...")."""
    wn = _reader(wait=True)
    if wn is None:
        return None
    w = word.lower()
    return bool(wn.synsets(w, pos="v")) and not wn.synsets(w, pos="n") and not wn.synsets(w, pos="a")


def _verb_filed(verb: str, lexname: str, senses: int) -> bool | None:
    """Whether one of the verb's ``senses`` most frequent senses is filed under ``lexname``; None without WordNet."""
    wn = _reader(wait=True)
    if wn is None:
        return None
    return any(s.lexname() == lexname for s in wn.synsets(verb.lower(), pos="v")[:senses])
