"""Counts told of an earlier answer (issue 11): "last time you went over 200 words", "the last list you gave me had
12 bullets". They tell what an earlier answer did, not what this one must do.
"""

from __future__ import annotations

from typing import Any

__all__ = ["narrated"]

#: Subjects that stand for the assistant or its answer.
_ANSWER_SUBJECTS = frozenset({"you", "u", "it", "ya"})
#: Modifiers that mark a thing as the earlier one (a closed set of English adjectives and the possessive "your").
_EARLIER = frozenset({"last", "previous", "earlier", "first", "prior", "your"})


def narrated(doc: Any, pos: int) -> bool:
    """Whether the token at character ``pos`` belongs to a clause told in the past ("last time you went over 200
    words", "the last list you gave me had 12 bullets"): its governing verb is a simple past (Penn VBD) or a
    present perfect ("you've written 900 words"). It tells what an earlier answer did, not what this one must do.
    """
    tok = next((t for t in doc if t.idx <= pos < t.idx + len(t.text)), None)
    steps = 0
    while tok is not None and tok.pos_ not in ("VERB", "AUX") and tok.head.i != tok.i and steps < 12:
        tok, steps = tok.head, steps + 1
    if tok is None or tok.pos_ not in ("VERB", "AUX"):
        return False
    modal = any(c.dep_ == "aux" and c.tag_ == "MD" for c in tok.children)  # "you should have written 300 words"
    past = not modal and (
        tok.tag_ == "VBD" or (tok.tag_ == "VBN" and any(c.dep_ == "aux" and c.lemma_ == "have" for c in tok.children))
    )
    return past and any(_earlier_answer(c) for c in tok.children if c.dep_ in ("nsubj", "nsubjpass"))


def _earlier_answer(subject: Any) -> bool:
    """The subject is the assistant or what it gave: "you", "it", or a noun the assistant made ("the list you gave
    me") or marked as earlier ("your last draft", "the previous version"). "a man who ran 100 miles" is not."""
    if subject.lower_ in _ANSWER_SUBJECTS:
        return True
    made = any(
        c.dep_ == "relcl" and any(s.dep_ == "nsubj" and s.lower_ in ("you", "u") for s in c.children)
        for c in subject.children
    )
    return made or any(c.dep_ in ("amod", "poss") and c.lower_ in _EARLIER for c in subject.children)
