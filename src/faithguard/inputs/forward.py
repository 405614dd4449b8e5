"""Forward pointers: the request says its material comes next ("the following class", "It is below", "here it is").

A forward-pointing deictic (spec ``forward_pointer`` in ``specs/syntax.json``) promises material later in the
same message, whatever noun names it: so the check needs no content vocabulary. It is missing when nothing but
the request's own words comes after the pointer: no paragraph of content, no list, quote, code block or labelled
section, nothing after a colon or dash in the pointer's own sentence, and no document supplied beside the text.
Earlier turns never supply it: the pointer looks ahead, not back.
"""

from __future__ import annotations

import re
from typing import Any

from faithguard.inputs.content_kinds import lexname_test
from faithguard.inputs.supply import free_units, is_instruction, scan, sentence_spans, word_count
from faithguard.inputs.vocab import CREATION_VERBS, kind_of

__all__ = ["FORWARD_TRIGGER", "forward_findings", "settled_pointers"]

#: The words the spec anchors on: the parse runs only when one of them is in the request.
FORWARD_TRIGGER = re.compile(r"\b(?:following|below|follows|here)\b", re.I)
#: What opens material inside the pointer's own sentence ("Here are my notes: ...", "Translate the following --
#: where is the station?"): a colon or a dash.
_INTRODUCER = re.compile(r":|—|–|\s-\s")
#: Quoted words after the pointer inside its sentence ("End with the following phrase 'See you soon'"): any
#: quotation marks, straight or curly, single or double, opening after a space and closing before one.
_QUOTED = re.compile(r"(?:^|\s)[\"'“‘«]\S[^\n]{0,300}?[\"'”’»](?=[\s.,;:!?)]|$)")
#: A presentative sentence that runs on past its subject with a statement of at least this many words says the
#: thing it presents ("Here's the thing, I can't cook."). Fixtures: tests/inputs/test_forward.py.
_RUN_ON_WORDS = 4


def _pointers(doc: Any, masked: str) -> list[tuple[Any, tuple[int, int]]]:
    """The forward pointers of the request with their phrase spans (never inside supplied content)."""
    from faithguard.inputs.syntax import role_anchors

    offs = role_anchors(doc, "forward")
    out = []
    for tok in doc:
        if tok.idx in offs and masked[tok.idx : tok.idx + len(tok.text)].strip():
            phrase = _pointer_phrase(tok)
            if phrase is not None:
                out.append((tok, phrase))
    return out


def settled_pointers(doc: Any, text: str, masked: str) -> list[tuple[int, int]]:
    """Phrase spans of the forward pointers that need nothing more: material comes after them ("the following
    list: ..."), or they name what the answer is to create ("while writing the following piece")."""
    return [phrase for tok, phrase in _pointers(doc, masked) if _creates(tok) or _followed(tok, phrase, text, masked)]


def forward_findings(doc: Any, text: str, masked: str) -> list[dict[str, Any]]:
    """Findings for forward pointers with nothing after them (``doc`` parses ``text``; ``masked`` blanks what
    the scan already took as supplied content, at the same offsets)."""
    for tok, phrase in _pointers(doc, masked):
        if _creates(tok) or _followed(tok, phrase, text, masked):
            continue
        shown = " ".join(text[phrase[0] : phrase[1]].split())
        return [
            {
                "reference": shown,
                "expected": 1,
                "found": 0,
                "explanation": f"The request points ahead to material ({shown!r}) but nothing follows it.",
            }
        ]
    return []


def _pointer_phrase(tok: Any) -> tuple[int, int] | None:
    """Character span of the pointer's phrase, or None when this reading of the word is not a pointer."""
    word = tok.lower_
    if word == "following":
        noun = tok.head if tok.dep_ == "amod" else tok
        if noun is not tok and lexname_test("time", noun.text):
            return None  # "the following year": a time, not material
        return _span(noun)
    if word == "below":
        if any(c.dep_ == "pobj" for c in tok.children):
            return None  # "below the bridge", "below zero": a place or a level
        # "the rubric below": the noun just before it, however the parser attached the adverb
        prev = tok.nbor(-1) if tok.i > tok.sent.start else None
        if prev is not None and prev.pos_ in ("NOUN", "PROPN"):
            return min([prev.idx] + [c.left_edge.idx for c in prev.lefts]), tok.idx + len(tok.text)
        return tok.idx, tok.idx + len(tok.text)
    if word == "here":
        subjects = [c for c in tok.head.children if c.dep_ in ("nsubj", "attr") and c is not tok]
        if not subjects:
            return None  # "Here's what I think: ..." reads no presented thing
        last = subjects[0].right_edge  # the whole subject: "the clause my landlord wants me to sign"
        return (min(tok.idx, subjects[0].left_edge.idx), last.idx + len(last.text))
    return (tok.idx, tok.idx + len(tok.text))  # "as follows"


def _span(tok: Any) -> tuple[int, int]:
    """A noun phrase's span without its relative or clausal modifiers (those are the request's own words)."""
    left = min([tok.idx] + [c.left_edge.idx for c in tok.lefts])
    right = tok.idx + len(tok.text)
    for c in tok.rights:
        if c.dep_ in ("prep", "amod", "compound", "advmod", "appos"):
            last = c.right_edge
            right = max(right, last.idx + len(last.text))
    return left, right


def _followed(tok: Any, phrase: tuple[int, int], text: str, masked: str) -> bool:
    """Whether anything after the pointer is material rather than the request's own words."""
    if text[tok.idx :] != masked[tok.idx :]:
        return True  # a quote, code block or template block the scan took as supplied content comes after it
    sent_end = tok.sent.end_char
    after_word = text[tok.idx + len(tok.text) : sent_end]
    if _QUOTED.search(after_word):
        return True  # "Close with the following line 'Stay curious'"
    intro = _INTRODUCER.search(after_word)
    if intro is not None and _material(after_word[intro.start() :], after_word[intro.end() :]):
        return True  # "Here are my notes: eggs, flour", "Translate the following - the station is near."
    rest = text[max(phrase[1], tok.idx + len(tok.text)) : sent_end]
    if tok.lower_ == "here" and _states(rest):
        return True  # "Here's the thing, I can't cook": the run-on says what it presents
    tail = text[sent_end:]
    if not tail.strip():
        return False
    after = scan(tail)
    # "Answer the following question. Why ...?": a pointer to questions is followed by a question
    asks = kind_of(_head(tok).text) == "query"
    return bool(after.typed) or any(u.words for u in free_units(after, questions=asks))


def _creates(tok: Any) -> bool:
    """Whether the pointer names what the answer is to create ("when writing the following content")."""
    noun = _head(tok)
    return noun.dep_ == "dobj" and noun.head.lemma_.lower() in CREATION_VERBS


def _head(tok: Any) -> Any:
    """The noun a pointer word belongs to ("following" -> "question" in "the following question")."""
    return tok.head if tok.dep_ in ("amod", "advmod", "prep") and tok.head.pos_ in ("NOUN", "PROPN") else tok


def _material(opener: str, tail: str) -> bool:
    """Whether the words after a colon or dash inside the pointer's sentence are material: anything after a
    colon; after a dash, only what is not the request's own question or order ("- which sounds best?")."""
    if not word_count(tail):
        return False
    if opener.startswith(":"):
        return True
    return not all(is_instruction(tail[a:b]) for a, b in sentence_spans(tail))


def _states(rest: str) -> bool:
    """Whether the rest of a presentative sentence is a statement of its own (not a question or an order)."""
    body = rest.strip(" ,;.!")
    if body.endswith("?") or word_count(body) < _RUN_ON_WORDS:
        return False
    return not any(is_instruction(body[a:b]) for a, b in sentence_spans(body))
