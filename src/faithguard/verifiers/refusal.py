"""A count bound on what a verb refuses: "the portal rejects any description shorter than 300 words" asks for at
least 300 words, the opposite of the bound the words "shorter than 300 words" state.

Read from the sentence's parse (the count's clause verb, or the verb a conditional clause holding it depends on:
"if it is shorter than 300 words, the portal rejects it") and from WordNet: a verb whose most frequent sense falls
under a refusal (``wordnet.REFUSAL_ROOTS``: reject, refuse, dismiss, ban, forbid, prohibit, discard, penalize), or an
acceptance verb negated ("are not accepted", "won't allow"). Without spaCy or WordNet nothing is flipped.
Fixtures: tests/verifiers/test_refusal_bounds.py.
"""

from __future__ import annotations

import re
from typing import Any

from faithguard.lexical import wordnet
from faithguard.verifiers.spec import sentence_span

__all__ = ["refused"]

_WORD = re.compile(r"[A-Za-z]+")
#: Negation words that can make an acceptance verb a refusal ("not", "n't", "never").
_NEGATION = re.compile(r"(?i)\bnot\b|n't\b|\bnever\b")
#: Subordinators of a condition whose main clause then decides ("if ..., the portal rejects it").
_CONDITIONS = frozenset({"if", "when", "whenever", "once"})


def _may_refuse(sentence: str) -> bool:
    """Cheap test before any parse: a word of the sentence is a refusal verb, or an acceptance verb beside a
    negation."""
    words = {w.lower() for w in _WORD.findall(sentence)}
    if any(wordnet.verb_sense_under(w, wordnet.REFUSAL_ROOTS) for w in words):
        return True
    return bool(_NEGATION.search(sentence)) and any(
        wordnet.verb_sense_under(w, wordnet.ACCEPTANCE_ROOTS) for w in words
    )


def _refuses(verb: Any) -> bool:
    negated = any(c.dep_ == "neg" for c in verb.children)
    if wordnet.verb_sense_under(verb.lemma_, wordnet.REFUSAL_ROOTS):
        return not negated
    return negated and bool(wordnet.verb_sense_under(verb.lemma_, wordnet.ACCEPTANCE_ROOTS))


def _clause_verbs(token: Any) -> list[Any]:
    """The verb of the clause holding ``token``, then the verb its condition clause depends on, if any."""
    node = token
    while node.head.i != node.i and node.pos_ not in ("VERB", "AUX"):
        node = node.head
    if node.pos_ not in ("VERB", "AUX"):
        return []
    verbs = [node]
    if node.dep_ == "advcl" and any(c.dep_ == "mark" and c.lower_ in _CONDITIONS for c in node.children):
        verbs.append(node.head)
    return verbs


def refused(text: str, start: int, end: int) -> bool:
    """Whether the count stated at ``text[start:end]`` bounds what a verb refuses (its bound is then the
    opposite of the one asked of the answer)."""
    s0, s1 = sentence_span(text, start, end)
    sentence = text[s0:s1]
    if not sentence or not _may_refuse(sentence):
        return False
    from faithguard.errors import ConfigError
    from faithguard.nlp import parse

    try:
        doc = parse(sentence)
    except ConfigError:
        return False  # no spaCy model: the bound is read as stated
    inside = [t for t in doc if start - s0 <= t.idx < end - s0]
    if not inside:
        return False
    number = next((t for t in inside if t.like_num), inside[-1])
    return any(_refuses(v) for v in _clause_verbs(number))
