"""Attachment claims: the user says a file comes with the message ("Resume attached", "I've uploaded the slides").

A claim (spec ``attachment_claim`` in ``specs/syntax.json``) names material that travels beside or inside the
message, whatever the noun. It is missing when nothing carries it: no document beside the text, no piece of
content in the text outside the claim's own sentence (a photo or a chart only as a document: it cannot be pasted as
prose), and, for an upload said to be earlier ("i uploaded it earlier"), no earlier turn with content either.
"""

from __future__ import annotations

import re
from typing import Any

from faithguard.inputs.content_kinds import classify_noun, lexname_test
from faithguard.inputs.supply import FULL_WORDS, Scan, free_units
from faithguard.inputs.vocab import kind_of

__all__ = ["ATTACHMENT_TRIGGER", "attachment_findings"]

#: The stems the spec anchors on: the parse runs only when one of them is in the request.
ATTACHMENT_TRIGGER = re.compile(r"\b(?:attach|upload|enclos|past)\w*", re.I)
#: The speaker of a claim: the user (a first-person subject) or nobody (a participle: "CV attached").
_SPEAKER = frozenset({"i", "we"})


def attachment_findings(doc: Any, q: Scan, *, earlier_content: bool) -> list[dict[str, Any]]:
    """Findings for attachment claims that nothing in the call carries (no document came with the request).

    ``doc`` parses ``q.text``; ``earlier_content`` says whether an earlier turn holds content (it carries only
    what the claim says was given earlier).
    """
    from faithguard.inputs.syntax import role_anchors

    offs = role_anchors(doc, "attachment")
    for verb in doc:
        if verb.idx not in offs or not q.masked[verb.idx : verb.idx + len(verb.text)].strip():
            continue
        item = _claimed_item(verb)
        if item is None:
            continue
        sent = (verb.sent.start_char, verb.sent.end_char)
        pictured = item.pos_ in ("NOUN", "PROPN") and _pictured(item.text)
        inline = sum(u.words >= FULL_WORDS or u.full for u in free_units(q, [sent])) + len(q.typed)
        if inline and not pictured:
            continue
        if earlier_content and any(c.dep_ == "advmod" and c.tag_ in ("RBR", "RB") for c in verb.children):
            continue  # "I uploaded it earlier": an earlier turn may carry it
        shown = " ".join(q.text[sent[0] : sent[1]].split()[:8])
        return [
            {
                "reference": item.text,
                "expected": 1,
                "found": 0,
                "explanation": f"The request says something was attached or uploaded ({shown!r}) but no document "
                "or pasted content came with it.",
            }
        ]
    return []


def _claimed_item(verb: Any) -> Any | None:
    """The item a claim is about (its object, or the participle's noun), or None when the reading is not a claim."""
    kids = list(verb.children)
    if any(c.dep_ == "prep" and c.lower_ == "to" for c in kids):
        return None  # "attached to the wall", "I attached it to the form": fastened somewhere, not sent here
    subjects = [c for c in kids if c.dep_ in ("nsubj", "nsubjpass")]
    passive = any(c.dep_ == "auxpass" for c in kids)
    objects = [c for c in kids if c.dep_ == "dobj"]
    if subjects and subjects[0].tag_ == "PRP" and subjects[0].lower_ not in _SPEAKER:
        return None  # "He attached the files": someone else's act
    if passive and subjects and subjects[0].tag_ != "PRP":
        return None  # "The shelf is attached ...": a state of a thing
    if subjects and subjects[0].tag_ != "PRP" and objects:
        return None  # "My sister uploaded a video": someone else's act
    if objects:
        item = objects[0]
    elif subjects and subjects[0].tag_ != "PRP":
        item = subjects[0]  # "Resume attached": the participle's noun
    elif verb.dep_ in ("acl", "amod") and verb.head.pos_ in ("NOUN", "PROPN"):
        item = verb.head  # "pic attached -"
    else:
        attr = next((c for c in verb.head.children if c.dep_ in ("attr", "nsubj") and c.i != verb.i), None)
        item = attr if attr is not None else verb  # "Attached is my letter", "see attached"
    if item.pos_ in ("NOUN", "PROPN") and not _information(item.text):
        return None  # "We enclosed a cheque": a physical thing
    return item


def _information(word: str) -> bool:
    """Whether a noun can be material: the kind table, a WordNet content class, the 'handed' lexname test, or a
    word WordNet does not know ("the slides deck")."""
    from faithguard.lexical.wordnet_mmap import get_wordnet

    if kind_of(word) is not None or classify_noun(word) is not None or lexname_test("handed", word):
        return True
    return not get_wordnet().senses(word.lower())


def _pictured(word: str) -> bool:
    """A photo, scan or chart: content that cannot arrive as prose (the content classes' ``inline`` flag)."""
    cls = classify_noun(word)
    return cls is not None and not cls.inline
