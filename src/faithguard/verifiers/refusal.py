"""A count bound on what a verb refuses: "the portal rejects any description shorter than 300 words" asks for at
least 300 words, the opposite of the bound the words "shorter than 300 words" state.

The refusing verb is found by WordNet (``wordnet_verbs.REFUSAL_ROOTS``: its most frequent sense is a rejection, refusal,
ban, discarding, removal, expulsion, disqualification or penalty, phrasal verbs included: "turn down", "throw out";
or an acceptance verb, ``ACCEPTANCE_ROOTS``, negated: "are not accepted") and placed by the sentence's tokens rather
than its dependency tree, which the small model often gets wrong around such verbs ("The portal rejects descriptions
..." parses "rejects" as a noun and "descriptions" as the verb):

- before the count in its clause, with no other verb between them but the refusal's own object or infinitive
  ("rejects essays that are over 300 words", "refuses to save anything with more than 2 paragraphs");
- after it, up to the clause's end: punctuation or a conjunction ("anything under 50 words gets rejected"; in "keep
  it under 60 words or the magazine will reject it" the refusal is the consequence and the bound stands);
- in the main clause of a condition holding the count ("if it is shorter than 200 words, the editor rejects it").

A count introduced by "in" or "within" measures what is made ("explain why the court rejected the appeal in at most
150 words"): never flipped. A negated refusal ("the portal doesn't reject descriptions over 300 words") permits and
asks nothing: the count is dropped; a negation inside the refused phrase ("rejects anything that isn't at least 500
words") leaves the bound as stated. Without spaCy or WordNet nothing changes.
Fixtures: tests/verifiers/test_refusal_bounds.py.
"""

from __future__ import annotations

import itertools
import re
from bisect import bisect_left
from functools import lru_cache
from typing import Any, Literal

from faithguard.lexical import wordnet_verbs
from faithguard.verifiers.spec import sentence_span

__all__ = ["Reading", "refused"]

#: What a refusal does to a count: ``flip`` (the opposite bound is asked), ``drop`` (a negated refusal permits,
#: asks nothing), ``None`` (the count stands as stated).
Reading = Literal["flip", "drop"] | None

_WORD = re.compile(r"[A-Za-z]+")
_NEGATION = frozenset({"not", "n't", "never", "no"})
#: Verbs that carry tense or voice around the refusing verb, and the copula of a relative clause ("essays that are
#: over 300 words", "for being over 80 words", "it had fewer than 800 words"): they do not start another clause's
#: verb between the refusal and its object.
_CARRIERS = frozenset({"be", "have", "do", "get", "will", "would", "can", "could", "may", "might", "must", "shall"})
#: Prepositions that make a count the measure of what is produced ("in at most 150 words", "within 200 words").
_MEASURE = frozenset({"in", "within"})
#: Clause breaks a refusal is not looked for across (before the count; after it, a comma also ends the search).
_BREAKS = frozenset({";", ":"})
#: Subordinators of a condition whose main clause decides ("if it is shorter than 200 words, the editor rejects it").
_CONDITIONS = frozenset({"if", "when", "whenever", "once"})
#: Particles that make a phrasal verb of refusal ("turn down", "throw out", "toss out").
_PARTICLES = frozenset({"down", "out", "back", "off"})
_ROOTS = wordnet_verbs.REFUSAL_ROOTS | wordnet_verbs.ACCEPTANCE_ROOTS


@lru_cache(maxsize=8)  # a run-on sentence holding many counts is read once
def _may_refuse(sentence: str) -> bool:
    """Cheap test before any parse: some word of the sentence (or a word and the particle after it: "throw out") is
    a refusal or acceptance verb by WordNet."""
    words = [w.lower() for w in _WORD.findall(sentence)]
    pairs = {wordnet_verbs.phrasal(a, b) for a, b in itertools.pairwise(words) if b in _PARTICLES}
    return any(wordnet_verbs.verb_sense_under(w, _ROOTS) for w in {*words, *pairs})


def _verb_form(tok: Any) -> str:
    """The verb a token may be: a phrasal verb with the particle after it when WordNet knows the pair ("turns down"
    -> "turn_down"), else the word itself with any hyphen prefix dropped ("auto-rejected" -> "rejected")."""
    word = str(tok.lower_).rsplit("-", 1)[-1]
    nxt = tok.nbor(1) if tok.i + 1 < len(tok.doc) else None
    if nxt is not None and nxt.lower_ in _PARTICLES:
        pair = wordnet_verbs.phrasal(word, nxt.lower_)  # the key the pre-test looked up too
        if wordnet_verbs.knows_verb(pair):
            return pair
    return word


def _kind(tok: Any) -> str | None:
    """'refuse' or 'accept' for a token that is such a verb by WordNet (whatever the tagger made of it), else
    'verb' for another verb, else None."""
    form = _verb_form(tok)
    if wordnet_verbs.verb_sense_under(form, wordnet_verbs.REFUSAL_ROOTS):
        return "refuse"
    if wordnet_verbs.verb_sense_under(form, wordnet_verbs.ACCEPTANCE_ROOTS) and tok.tag_.startswith("VB"):
        return "accept"
    if tok.tag_.startswith("VB") and tok.lemma_.lower() not in _CARRIERS:
        return "verb"
    return None


def _negated(tokens: list[Any], at: int) -> bool:
    """A negation among the three tokens before the verb at ``at`` (its auxiliaries: "won't accept", "are not
    accepted", "doesn't reject", "never refuses"), or right after it ("accepted not")."""
    near = tokens[max(0, at - 3) : at + 2]
    return any(t.lower_ in _NEGATION for t in near)


def _reading(tokens: list[Any], at: int, kind: str) -> Reading:
    """What the refusal or acceptance verb (``kind``) at ``at`` does to the count."""
    negated = _negated(tokens, at)
    if kind == "refuse":
        return "drop" if negated else "flip"
    if kind == "accept" and negated:
        return "flip"
    return None


def refused(text: str, start: int, end: int) -> Reading:
    """What a verb refusing the thing counted at ``text[start:end]`` does to its bound (see :data:`Reading`)."""
    s0, s1 = sentence_span(text, start, end)
    sentence = text[s0:s1]
    if not sentence or not _may_refuse(sentence):
        return None
    read = _tokens(sentence)
    if read is None:
        return None
    tokens, starts = read
    first, last = bisect_left(starts, start - s0), bisect_left(starts, end - s0) - 1
    if first > last:
        return None
    if tokens[first].lower_ in _MEASURE or (first > 0 and tokens[first - 1].lower_ in _MEASURE):
        return None  # "in at most 150 words": the measure of what is made, whatever verb governs it
    after = last + 1
    negated_between = False
    for i in range(first - 1, -1, -1):  # the clause before the count
        tok = tokens[i]
        if tok.text in _BREAKS:
            break
        if tok.lower_ in _CONDITIONS:  # "If it is shorter than 200 words, the editor will reject it"
            comma = next((j for j in range(last + 1, len(tokens)) if tokens[j].text == ","), None)
            after = last + 1 if comma is None else comma + 1
            continue  # and the clause before the condition: "Will they throw it out if it's over 300 words?"
        if tok.lower_ in _NEGATION:
            negated_between = True  # "rejects anything that isn't at least 500 words": the bound stands
        kind = _kind(tok)
        if kind in ("refuse", "accept"):
            return None if negated_between else _reading(tokens, i, kind)
        if kind == "verb" and not _complement_of_refusal(tokens, i):
            break
    for i in range(after, len(tokens)):  # after it (or after its condition clause), to the clause's end
        tok = tokens[i]
        if (tok.is_punct and not _inside_word(tokens, i)) or tok.pos_ in ("CCONJ", "SCONJ"):
            break  # "Keep it under 200 words or the site will refuse it": the refusal is the consequence
        kind = _kind(tok)
        if kind in ("refuse", "accept"):
            return _reading(tokens, i, kind)
        if kind == "verb":
            break
    return None


@lru_cache(maxsize=8)
def _tokens(sentence: str) -> tuple[list[Any], list[int]] | None:
    """The parsed tokens of a sentence and where each starts (None without a spaCy model), kept for the last few
    sentences: a run-on sentence holding many counts is listed once, not once per count (each count is then found
    by bisection)."""
    from faithguard.errors import ConfigError
    from faithguard.nlp import parse

    try:
        tokens = list(parse(sentence))
    except ConfigError:
        return None  # no spaCy model: the bound is read as stated
    return tokens, [t.idx for t in tokens]


def _complement_of_refusal(tokens: list[Any], i: int) -> bool:
    """Whether the verb at ``i`` is what a refusal just before it takes: its object misread as a verb ("discards
    essays", "refuses bios") or its infinitive ("refuses to publish anything ...")."""
    before = i - 2 if i >= 2 and tokens[i - 1].lower_ == "to" else i - 1
    return before >= 0 and _kind(tokens[before]) in ("refuse", "accept")


def _inside_word(tokens: list[Any], i: int) -> bool:
    """A hyphen joining two words ("auto-rejected"), not a dash between clauses."""
    tok = tokens[i]
    return tok.text == "-" and i > 0 and not tokens[i - 1].whitespace_ and not tok.whitespace_
