"""Attachment claims: the user says a file comes with the message ("Resume attached", "I've uploaded the slides").

A claim (spec ``attachment_claim`` in ``specs/syntax.json``) names material that travels beside or inside the
message, whatever the noun. It is missing when nothing carries it: no document beside the text, no piece of
content in the text outside the claim's own sentence (a photo or a chart only as a document: it cannot be pasted as
prose). With earlier turns that hold content nothing is claimed: which turn carries the upload is not read.
"""

from __future__ import annotations

import itertools
import re
from typing import Any

from faithguard.inputs.content_kinds import classify_noun, names_information
from faithguard.inputs.forward import MAX_CHARS
from faithguard.inputs.supply import FULL_WORDS, PARA_RE, Scan, sentence_spans
from faithguard.inputs.units import free_units

__all__ = ["ATTACHMENT_TRIGGER", "attachment_findings"]

#: The stems the spec anchors on: the parse runs only when one of them is in the request.
ATTACHMENT_TRIGGER = re.compile(r"\b(?:attach|upload|enclos|past|cop(?:y|ie)|includ|insert|put)\w*", re.I)
#: A straight quotation mark that is not an apostrophe (not between two letters or digits).
_STRAIGHT_QUOTE = re.compile(r"\"|(?<![^\W_])'|'(?![^\W_])")
#: Only the first claims are read: a request that claims many attachments and carries the first ones carries the
#: rest in the same way, and each claim costs a pass over the request (linear time overall).
_MAX_CLAIMS = 3


def attachment_findings(doc: Any, q: Scan, *, earlier_content: bool) -> list[dict[str, Any]]:
    """Findings for attachment claims that nothing in the call carries (no document came with the request).

    ``doc`` parses ``q.text``. With ``earlier_content`` (an earlier turn holds content) nothing is claimed missing:
    the upload may be there, and which turn carries it is not read. The first claim decides (one finding at most).
    """
    from faithguard.inputs.syntax import role_anchors

    if earlier_content or len(q.text) > MAX_CHARS:
        return []  # an earlier turn may carry what was uploaded; a long request carries its material
    offs = role_anchors(doc, "attachment")
    seen = 0
    for verb in doc:
        if verb.idx not in offs or not q.masked[verb.idx : verb.idx + len(verb.text)].strip():
            continue
        item = _claimed_item(verb)
        if item is None or _quoted(verb, q.text):
            continue
        seen += 1
        if seen > _MAX_CLAIMS:
            break  # bounded work: each claim reads the whole request once
        sent = (verb.sent.start_char, verb.sent.end_char)
        pictured = item.pos_ in ("NOUN", "PROPN") and _pictured(item.text)
        talk = [sent, *_talk_beside(doc, q, sent)]
        inline = sum(u.words >= FULL_WORDS or u.full for u in free_units(q, talk)) + len(q.typed)
        if inline and not pictured:
            continue
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


def _talk_beside(doc: Any, q: Scan, claim: tuple[int, int]) -> list[tuple[int, int]]:
    """The sentences of the claim's own paragraph that are the user talking, not the pasted material: questions to
    the reader and sentences the parse reads as the user's voice ("I want to know what changed", spec
    ``user_voice_*``). Pasted material starts its own paragraph or follows a colon; a paragraph with a colon is left
    as it is."""
    from faithguard.inputs.voice import voice_spans

    bounds = [0, *(m.end() for m in PARA_RE.finditer(q.masked)), len(q.masked) + 1]
    start, end = next(((a, b) for a, b in itertools.pairwise(bounds) if a <= claim[0] < b), (0, 0))
    para = q.masked[start:end]
    if ":" in para:
        return []
    others = [
        (start + a, start + b) for a, b in sentence_spans(para) if not (start + a < claim[1] and claim[0] < start + b)
    ]
    asked = [(a, b) for a, b in others if q.masked[a:b].rstrip().endswith("?")]
    return asked + voice_spans(doc, [span for span in others if span not in asked])


def _claimed_item(verb: Any) -> Any | None:
    """The item a claim is about (its object, or the participle's noun), or None when the reading is not a claim."""
    kids = list(verb.children)
    if any(c.dep_ == "neg" for c in kids):
        return None  # "I haven't attached anything yet"
    if _fastened_elsewhere(verb):
        return None  # "attached to the wall", "uploaded it to the client portal": not sent here
    subjects = [c for c in kids if c.dep_ in ("nsubj", "nsubjpass")]
    passive = any(c.dep_ == "auxpass" for c in kids)
    objects = [c for c in kids if c.dep_ == "dobj"]
    if subjects and subjects[0].tag_ == "PRP" and "1" not in subjects[0].morph.get("Person"):
        return None  # "He attached the files": someone else's act (the speaker is a first-person subject, or none)
    if passive and subjects and subjects[0].tag_ != "PRP":
        return None  # "The shelf is attached ...": a state of a thing
    if subjects and subjects[0].tag_ != "PRP" and objects:
        return None  # "My sister uploaded a video": someone else's act
    named = objects and (objects[0].tag_ == "DT" or {"Prs", "Dem"} & set(objects[0].morph.get("PronType")))
    if objects and objects[0].pos_ == "PRON" and not named:
        return None  # "I've attached nothing", "something": no item named ("both", "these": the items just named)
    if objects:
        item = objects[0]
    elif subjects and subjects[0].tag_ != "PRP":
        item = subjects[0]  # "Resume attached": the participle's noun
    elif verb.dep_ in ("acl", "amod") and verb.head.pos_ in ("NOUN", "PROPN"):
        item = verb.head  # "pic attached -"
    else:
        attr = next((c for c in verb.head.children if c.dep_ in ("attr", "nsubj") and c.i != verb.i), None)
        item = attr if attr is not None else verb  # "Attached is my letter", "see attached"
    if item.pos_ in ("NOUN", "PROPN") and not names_information(item.text):
        return None  # "We enclosed a cheque": a physical thing
    return item


def _fastened_elsewhere(verb: Any) -> bool:
    """A destination other than this chat: "to the wall", "to the client portal" (not "to this message", "to
    you", "here")."""
    objects = [c for c in verb.children if c.dep_ == "dobj"]
    # the place may hang on the verb or on its object ("included a budget section in my grant plan")
    for c in [*verb.children, *(g for o in objects for g in o.children)]:
        if c.dep_ != "prep" or c.lower_ not in ("to", "onto", "into", "in"):
            continue
        target = next((g for g in c.children if g.dep_ == "pobj"), None)
        if target is None or target.lower_ in ("you", "u", "here"):
            continue
        # "to this message", "to my email": the message itself; put "in" something, only "this" one is ("included
        # it in this message"; "in my grant plan" is the user's own document)
        owners = ("this",) if c.lower_ == "in" else ("this", "my")
        if any(d.dep_ == "det" and d.lower_ in owners for d in target.children) and names_information(target.text):
            continue
        return True
    return False


def _quoted(verb: Any, text: str) -> bool:
    """Whether the claim sits inside quotation marks ("What does 'see attached' mean?"): a mention, not a claim.
    Curly quotes by their open/close balance, straight ones by the parity of the marks that are not apostrophes
    (a mark between two letters, "don't", is one)."""
    before = text[verb.sent.start_char : verb.idx]
    if before.count("“") > before.count("”") or before.count("‘") > before.count("’"):
        return True
    return len(_STRAIGHT_QUOTE.findall(before)) % 2 == 1


def _pictured(word: str) -> bool:
    """A photo, scan or chart: content that cannot arrive as prose (the content classes' ``inline`` flag)."""
    cls = classify_noun(word)
    return cls is not None and not cls.inline
