"""A spoken event standing for its record: "Summarize the meeting", "What did they decide in the meeting?".

The assistant was not at the user's meeting, interview or lecture: asked what was said or decided there, it needs
the transcript or the notes, whatever the request calls them. The spec ``recorded_event`` (``specs/syntax.json``,
role ``recorded``) finds "the X" as the object of a verb, as the object of a verb's "in/during/at/from", or of a
noun's "from/of/in/during". Code keeps it when

- X's first WordNet sense is an event where people speak (lexname test ``spoken_event`` in
  ``specs/content_classes.json``: a gathering, spoken communication or a speech act), X is not a kind-table noun
  (those have their own readings), no name is in its sentence ("the Yalta conference", "what did Kennedy say in
  the speech") and nothing after it says whose it is or what it is about ("the lecture I'll give tomorrow", "the
  controversy over daylight saving time");
- and the request reports on it: a communication verb (WordNet: one of its first three senses) addressed to the
  assistant ("Summarize the meeting"), a past-tense verb in a wh-question ("What did they decide in the meeting?"),
  or a noun that names information ("the decisions from the conference").

Fixtures: ``tests/inputs/test_recorded.py`` (positive and negative rows) and the spec's own.
"""

from __future__ import annotations

import re
from typing import Any

from faithguard.inputs.discourse import sentence_of, sentences
from faithguard.inputs.references import Reference

__all__ = ["EVENT_TRIGGER", "recorded_refs"]

#: The parse runs for this reading only when "the" precedes a word (the spec anchors on a definite noun).
EVENT_TRIGGER = re.compile(r"\bthe\s+[\w'’-]+", re.I)


def recorded_refs(doc: Any, masked: str, have: set[int], source: str = "query") -> list[Reference]:
    """References for spoken events whose record the request needs (``have``: noun offsets already referenced)."""
    from faithguard.inputs.content_kinds import lexname_test
    from faithguard.inputs.syntax import anchored_tokens, role_anchors
    from faithguard.inputs.vocab import kind_of

    offs = role_anchors(doc, "recorded") - have
    if not offs:
        return []
    sents = sentences(masked)
    out: list[Reference] = []
    for tok in anchored_tokens(doc, masked, offs):
        if kind_of(tok.text) is not None or not lexname_test("spoken_event", tok.lemma_ or tok.text):
            continue
        if any(t.pos_ == "PROPN" or (t.i != tok.sent.start and t.text[:1].isupper()) for t in tok.sent):
            continue  # "the Yalta conference", "what did Kennedy say in the speech": a named event of the world
        if any(c.dep_ in ("relcl", "acl", "appos") for c in tok.rights) or _topic_after(tok):
            continue  # "the lecture I'll give tomorrow", "the controversy over daylight saving": said what it is
        if not _reported(tok):
            continue
        start = min(t.idx for t in tok.subtree if t.i <= tok.i)
        end = tok.idx + len(tok.text)
        sent = sentence_of(sents, tok.idx)
        out.append(Reference(masked[start:end], "transcript", 1, start, end, sent, source, True, None, tok.idx))
    return out


#: Prepositions that give an event's topic or parties right after its noun (the parser may hang them on the verb):
#: "the controversy over ...", "the debate about ...", "the meeting between ...". Closed-class grammar words.
_TOPIC_PREPS = frozenset({"over", "about", "on", "of", "regarding", "between", "with", "at"})


def _topic_after(tok: Any) -> bool:
    nxt = tok.nbor(1) if tok.i + 1 < len(tok.doc) else None
    return nxt is not None and nxt.lower_ in _TOPIC_PREPS


def _reported(tok: Any) -> bool:
    """Whether the request asks what was said or decided at the event."""
    from faithguard.inputs.content_kinds import names_information
    from faithguard.lexical import wordnet_verbs

    if tok.dep_ == "dobj":
        verb = tok.head
        subjects = [c for c in verb.children if c.dep_ in ("nsubj", "nsubjpass")]
        addressed = (not subjects and verb.tag_ == "VB") or any(c.lower_ in ("you", "u") for c in subjects)
        return addressed and bool(wordnet_verbs.communicates(verb.lemma_))
    head = tok.head.head
    if head.pos_ == "NOUN":
        return head.tag_ == "NNS" and names_information(head.text)  # "the decisions from the conference"
    past = head.tag_ == "VBD" or any(c.dep_ == "aux" and c.tag_ == "VBD" for c in head.children)
    asked = any(t.tag_.startswith("W") for t in head.subtree if t.i < tok.i)
    return past and asked
