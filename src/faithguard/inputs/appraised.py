"""The user's own work the assistant is asked to judge: "check my math", "is my reasoning sound?".

A judgement of something the user holds needs that thing: "What do you think of my plan?" cannot be answered
without the plan, whatever noun names it, and the kind table and the WordNet content classes do not know "math",
"reasoning" or "plan" as texts. The spec ``appraised_possession`` (``specs/syntax.json``, role ``appraised``)
finds "my/our X" as the object of a verb, as the object of a verb's preposition ("think of my plan"), or as the
subject of "be" with an adjective ("is my proof correct?"). Code keeps it when

- the verb is mostly a judgement: WordNet's tagged counts file most of its uses as ``verb.cognition`` (check,
  review, evaluate, judge, rate, grade, think, verify, analyse; not "improve", "fix" or "like"), or the phrase is
  the subject of "be" with an adjective;
- the noun's first WordNet sense is a thought, a text, an act or a holding (``noun.cognition``,
  ``noun.communication``, ``noun.act``, ``noun.possession``): never a physical thing, a person, a body part, a
  state or a feeling ("check my car", "is my sister ok", "is my health good");
- nothing after the noun says what it is or what it is about ("my understanding of tides", "my idea to open a
  bakery": the request states it, or asks about a subject).

Fixtures: ``tests/inputs/test_appraised.py`` (positive and negative rows) and the spec's own.
"""

from __future__ import annotations

import re
from typing import Any

from faithguard.inputs.discourse import sentence_of, sentences
from faithguard.inputs.references import Reference

__all__ = ["APPRAISAL_TRIGGER", "appraised_refs"]

#: The parse runs for this reading only when the request has "my"/"our" before a word.
APPRAISAL_TRIGGER = re.compile(r"\b(?:my|our)\s+[\w'’-]+", re.I)
#: WordNet 3.0 lexicographer file of judgement verbs (``lexnames``: 31 verb.cognition).
_VERB_COGNITION = 31
#: A verb counts as a judgement when at least this share of its tagged uses is ``verb.cognition`` (the same kind of
#: reading as ``parsed.MOSTLY_SAYING``). Fixtures: tests/inputs/test_appraised.py.
MOSTLY_JUDGING = 0.5
#: The noun's first sense must be filed under one of these: a thought, a text, an act or a holding.
_HELD_WORK = frozenset({"noun.cognition", "noun.communication", "noun.act", "noun.possession"})
#: Dependents after the noun that say what it is or what it is about: then nothing is missing.
_SAID_AFTER = frozenset({"prep", "acl", "relcl", "appos", "ccomp", "advcl"})


def appraised_refs(doc: Any, masked: str, have: set[int], source: str = "query") -> list[Reference]:
    """References for the user's own things the request asks the assistant to judge (``have``: noun offsets that
    already carry a reference)."""
    from faithguard.inputs.syntax import anchored_tokens, role_anchors

    faults = {o for o in role_anchors(doc, "faults") - have if _fault_of_unseen_text(doc, o)}
    offs = (role_anchors(doc, "appraised") - have) | faults
    if not offs:
        return []
    sents = sentences(masked)
    out: list[Reference] = []
    for tok in anchored_tokens(doc, masked, offs):
        if tok.idx not in faults and not (_judged(tok) and _held_work(tok.lemma_ or tok.text)):
            continue
        if any(c.dep_ in _SAID_AFTER for c in tok.rights) or not _ends_clause(tok):
            continue  # "my understanding of tides", "my idea to open a bakery": the phrase says what it is
        start = min(t.idx for t in tok.lefts) if any(True for _ in tok.lefts) else tok.idx
        end = tok.idx + len(tok.text)
        sent = sentence_of(sents, tok.idx)
        out.append(Reference(masked[start:end], "content", 1, start, end, sent, source, True, None, tok.idx))
    return out


def _fault_of_unseen_text(doc: Any, off: int) -> bool:
    """Spec ``faults_of_text``: "fix typos", "correct the spelling mistakes": faults (lexname test ``fault``) as the
    object of a verb addressed to the assistant, with nothing after them saying where they are."""
    from faithguard.inputs.content_kinds import lexname_test

    tok = next((t for t in doc if t.idx == off), None)
    if tok is None or not lexname_test("fault", tok.lemma_ or tok.text):
        return False
    verb = tok.head
    subjects = [c for c in verb.children if c.dep_ in ("nsubj", "nsubjpass")]
    addressed = (not subjects and verb.tag_ == "VB") or any(c.lower_ in ("you", "u") for c in subjects)
    said = any(c.dep_ == "prep" for c in (*tok.rights, *verb.rights) if c.i > tok.i)
    return addressed and not said  # "fix the typos in my essay": the essay is the reference, read on its own


def _judged(tok: Any) -> bool:
    """The phrase is what a judgement verb addressed to the assistant acts on (an imperative or a "you" subject:
    not "How do I check my credit score?"), or the subject of "be" with an adjective."""
    if tok.dep_ == "nsubj":
        return True  # the spec's third pattern: "is my proof correct?"
    verb = tok.head if tok.dep_ == "dobj" else tok.head.head
    from faithguard.lexical.senses import verb_lexfile_share

    subjects = [c for c in verb.children if c.dep_ in ("nsubj", "nsubjpass")]
    if subjects and not any(c.lower_ in ("you", "u") for c in subjects):
        return False
    return verb_lexfile_share(verb.lemma_, _VERB_COGNITION) >= MOSTLY_JUDGING


def _ends_clause(tok: Any) -> bool:
    """Nothing but punctuation, adverbs, interjections, the copula's adjective or "for me" follows the phrase in
    its sentence: a tail would say what the thing is about ("Is my memory normal for my age?", "Review my options
    for a cheap flight to Rome"), and then the request asks about a subject, not about a text it lacks."""
    rest = [t for t in tok.doc[tok.i + 1 : tok.sent.end] if not t.is_punct]
    for k, t in enumerate(rest):
        if t.pos_ in ("ADV", "INTJ", "PART", "AUX") or (tok.dep_ == "nsubj" and t.dep_ == "acomp"):
            continue
        if t.pos_ == "ADP" and k + 1 < len(rest) and rest[k + 1].lower_ in ("me", "us"):
            continue  # "for me"
        if t.lower_ in ("me", "us") and k > 0 and rest[k - 1].pos_ == "ADP":
            continue
        return False
    return True


def _held_work(noun: str) -> bool:
    """Whether the noun's first WordNet sense is a thought, a text, an act or a holding."""
    from faithguard.lexical.wordnet_mmap import get_wordnet

    wn = get_wordnet()
    senses = wn.senses(noun.lower())
    first = wn.synset(senses[0]) if senses else None
    return first is not None and first.lexname in _HELD_WORK
