"""Material the assistant asked for in its last turn that the user's next turn still does not carry.

"Can you share the function?" followed by "Find the bug." leaves the request about a function nobody supplied,
although the new turn names no content noun at all. The assistant's last turn is parsed for the object of a
hand-over verb (spec ``requested_handover`` in ``specs/syntax.json``, role ``requested``) addressed to the user
(an imperative, or "you" as its subject) and not sent elsewhere ("with the team"). The object must name a text
(the kind table, a WordNet content class, or a word WordNet lacks: "the contract", "the log output", "the CVs")
or be "it"/"them", never an opinion or detail ("your thoughts", "more details": a clarifying question). The
request is then missing that material when no document came with it, the new turn supplies no content of its
own (no labelled block, quote, code, colon tail or paragraph long enough to be a text), and the user does not
decline ("I don't have it").

Fixtures: ``tests/inputs/test_asked.py`` (detector-level, positive and negative) and the spec's own.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from faithguard.detector import CallContext
from faithguard.inputs.supply import Scan
from faithguard.inputs.units import free_units

__all__ = ["HANDOVER_TRIGGER", "asked_for_findings"]

#: The inflected forms of the spec's hand-over verbs: the assistant's turn is parsed only when one is in it.
HANDOVER_TRIGGER = re.compile(r"\b(?:send|paste|share|upload|attach|forward|post|provid)\w*", re.I)
#: A longer assistant turn is an answer that may mention sharing in passing, not a request for material.
_MAX_ASK_CHARS = 600


def asked_for_findings(ctx: CallContext, q: Scan, parser: Callable[[str], Any] | None) -> list[dict[str, Any]]:
    """A finding when the assistant's last turn asked for material the new request still lacks (empty list
    otherwise)."""
    if parser is None or any(d and d.strip() for d in ctx.documents) or q.typed:
        return []
    turns = [m for m in ctx.history if m.role != "system" and m.content and m.content.strip()]
    if not turns or turns[-1].role != "assistant":
        return []
    ask = turns[-1].content
    if len(ask) > _MAX_ASK_CHARS or not HANDOVER_TRIGGER.search(ask):
        return []
    if any(u.full or u.origin in ("colon", "after_colon") for u in free_units(q)):
        return []  # the new turn carries content of its own (not only its short request): it may be what was asked
    asked = _asked_objects(parser(ask))
    if not asked:
        return []
    doc = parser(q.text)
    if doc is None or any(t.dep_ == "neg" for t in doc):
        return []  # "I don't have it, just guess": the user declines; nothing is pointed at
    what = asked[0]
    return [
        {
            "reference": what,
            "expected": 1,
            "found": 0,
            "explanation": f"The assistant asked for {what!r} in its last turn, and the request still does not "
            "include it.",
        }
    ]


def _asked_objects(doc: Any) -> list[str]:
    """The phrases the assistant asked the user to hand over ("the contract", "it")."""
    if doc is None:
        return []
    from faithguard.inputs.parsed import sent_elsewhere
    from faithguard.inputs.syntax import role_anchors

    offs = role_anchors(doc, "requested")
    out: list[str] = []
    for tok in doc:
        if tok.idx not in offs or not _addressed_to_user(tok.head) or sent_elsewhere(tok):
            continue  # "share your thoughts with the team": handed to someone else
        if tok.pos_ == "PRON":
            if tok.lower_ in ("it", "them"):
                out.append(tok.text)
        elif _names_text(tok.text):
            out.append(doc[tok.left_edge.i : tok.i + 1].text)
    return out


def _names_text(noun: str) -> bool:
    """A text or file by the kind table or a WordNet content class ("the contract", "the config"), or a word WordNet
    does not know ("the CVs"); not an opinion or a detail the assistant asks about ("your thoughts", "more
    details": a clarifying question, not material)."""
    from faithguard.inputs.content_kinds import classify_noun, known_noun
    from faithguard.inputs.vocab import kind_of

    return kind_of(noun) is not None or classify_noun(noun) is not None or not known_noun(noun)


def _addressed_to_user(verb: Any) -> bool:
    """An imperative (no subject) or a clause whose subject is "you" ("Could you paste ...")."""
    subjects = [c for c in verb.children if c.dep_ in ("nsubj", "nsubjpass")]
    if not subjects:
        return bool(verb.tag_ == "VB")  # "Please share the log", not a participle or a noun misread
    return any(s.lower_ in ("you", "u") for s in subjects)
