"""How a sentence of a request reads: an order to the reader, or material to work on.

The first paragraph of a request is read by its opening words (:func:`is_instruction`) and, when those say
nothing, by syntax for an order to produce a text (:func:`asks_for_text`); a later paragraph is read by syntax alone
(:func:`orders_reader`), since pasted material often opens with the same words a request does.
"""

from __future__ import annotations

import re
from typing import Any

__all__ = ["WORD_RE", "asks_for_text", "is_instruction", "orders_reader", "parsed_for_orders", "word_count"]

#: A word: letters and digits, joined by apostrophes and hyphens ("don't", "Nano-Sync").
WORD_RE = re.compile(r"[^\W_]+(?:['’-][^\W_]+)*")

_INSTR_RE = re.compile(
    r"^\s*(?:please|pls|kindly|can|could|would|will|also|then|and|thanks|thank|make\s+sure|keep|focus|use|using|"
    r"don'?t|do\s+not|do|avoid|be|write|give|tell|list|explain|summari[sz]e|translate|rewrite|answer|include|add|"
    r"read|check|compare|review|based\s+on|according\s+to|i'?m|i\s+am|i\s+want|i\s+need|i'?d\s+like|here'?s|"
    r"here\s+is|here\s+are|here\s+it|what|how|why|who|which|when|where|is|are|does|you|your|if|never|always|only|"
    r"respond|reply|follow|ensure|note|remember|ok|okay|hi|hello|hey)\b",
    re.I,
)


def word_count(text: str) -> int:
    """Number of words in ``text``."""
    return len(WORD_RE.findall(text))


def is_instruction(sentence: str) -> bool:
    """Whether a sentence reads like part of the request rather than supplied content."""
    s = sentence.strip()
    return bool(_INSTR_RE.match(s)) or (s.endswith("?") and word_count(s) < 20)


#: Modals that make "you ..." an order ("you should", "you must"); "you would have ..." is a statement.
_DIRECTIVE_MODALS = frozenset({"should", "must", "shall", "need"})


def parsed_for_orders(s: str) -> bool:
    """Whether :func:`orders_reader` parses the (stripped) sentence: not empty, not a short question."""
    return bool(s) and not (s.endswith("?") and word_count(s) < 20)


def orders_reader(sentence: str) -> bool:
    """Whether a sentence of a later paragraph gives the reader an order, read by syntax from how it opens (past
    linking adverbs and conjunctions): an imperative (a base-form verb with no subject, or negated: "Don't ..."),
    "please"/"kindly", "you" with a directive modal ("you should ..."), a modal asking "you" ("can you ..."), or a
    short question.

    The first paragraph is the request and :func:`is_instruction`'s opening words read it; in a paragraph after it,
    statements that merely open with such a word ("If you'd told me ...", "Your support had ...", "Also, the
    tone ...") are pasted content. Without the spaCy model, :func:`is_instruction` decides.
    """
    s = sentence.strip()
    if not parsed_for_orders(s):
        return bool(s)
    from faithguard.errors import ConfigError
    from faithguard.nlp import parse

    try:
        doc = parse(s)
    except ConfigError:
        return is_instruction(s)
    for sent in doc.sents:
        lead = _lead(sent)
        if lead is None:
            continue
        if lead.lower_ in ("please", "kindly", "pls") or _imperative(lead) or _negated_imperative(lead):
            return True
        nxt = lead.nbor(1) if lead.i + 1 < len(doc) else None
        if lead.lower_ == "you" and nxt is not None and nxt.lower_ in _DIRECTIVE_MODALS:
            return True
        if lead.tag_ == "MD" and nxt is not None and nxt.lower_ in ("you", "u"):
            return True  # "can you pull out the action items", its question mark left off
    return False


def _lead(sent: Any) -> Any | None:
    """The word a sentence opens with, past linking adverbs and conjunctions ("Also, keep it short"): pasted
    material may end in someone else's order ("Mum is cooking ..., so let me know by Friday"), which is not ours."""
    words = [t for t in sent if t.is_alpha]
    return next(
        (t for t in words if t.pos_ not in ("ADV", "CCONJ", "SCONJ", "INTJ") or t.lower_ in ("please", "kindly")),
        None,
    )


def _imperative(lead: Any) -> bool:
    """A base-form verb with no subject."""
    return bool(lead.tag_ == "VB" and not any(c.dep_ in ("nsubj", "nsubjpass", "expl") for c in lead.children))


def _negated_imperative(lead: Any) -> bool:
    """Whether ``lead`` is "do" as the auxiliary of a negated imperative ("Don't change the API", "Do not add
    comments"): the tagger reads the auxiliary as a present tense, the order's verb as its head."""
    head = lead.head
    return (
        lead.lemma_.lower() == "do"
        and lead.dep_ == "aux"
        and head.i > lead.i
        and _imperative(head)
        and any(c.dep_ == "neg" for c in head.children)
    )


#: Object pronouns of the writer: an order to call, text or send *me* something is a message between people
#: ("Call me when you land"), not a task given to the model, which the opening words already read ("Tell me ...").
_WRITER_OBJECTS = frozenset({"me", "us"})


def asks_for_text(sentence: str) -> bool:
    """Whether a sentence of the request's first paragraph orders the reader to produce a text, read by syntax when
    its opening words say nothing (:func:`is_instruction`): an imperative whose verb's most frequent sense
    communicates ("Outline the risks", "Describe the mood"), that creates a text ("Draft a response"), or that
    works on the material itself, named by a pronoun ("make it sound less robotic").

    Provenance: WordNet's lexicographer file of the verb's first sense (``lexical.wordnet_verbs.verb_file``; a verb
    with a communication sense further down, "put" as in "put into words", stays an everyday order); the object must
    have a communication sense among its first three; the pronouns are "it" and "them". Everyday orders quoted as
    material ("Close the door", "Bake the cake for an hour") and messages to the writer ("Call me tomorrow") are not
    ours.
    Fixtures: tests/inputs/test_orders.py.
    """
    s = sentence.strip()
    if not s or not parsed_for_orders(s):
        return False
    from faithguard.errors import ConfigError
    from faithguard.lexical import wordnet_verbs
    from faithguard.nlp import parse

    try:
        doc = parse(s)
    except ConfigError:
        return False
    for sent in doc.sents:
        lead = _lead(sent)
        if lead is None or not _imperative(lead) or any(t.lower_ in _WRITER_OBJECTS for t in sent):
            continue
        filed = wordnet_verbs.verb_file(lead.lemma_)
        if filed == "verb.communication":
            return True
        if any(_works_on_text(c, makes=filed == "verb.creation") for c in lead.children):
            return True
    return False


#: Pronouns an order uses for the material it points at ("make it sound less robotic", "sort them by date").
_MATERIAL_PRONOUNS = frozenset({"it", "them"})


def _works_on_text(child: Any, *, makes: bool) -> bool:
    """Whether a dependent of the imperative verb is a text it makes or the material it works on: for a verb that
    creates (``makes``), an object with a communication sense ("Draft a response"); for any verb, a pronoun for the
    material, as object or as the subject of the verb's complement ("make it shorter", "make it sound less
    robotic"). Other verbs with a text object stay material: "Put the answer in quotes" may be the request's own
    format rule as well as pasted text."""
    if makes and child.dep_ == "dobj" and _names_text(child.lemma_):
        return True
    if child.lower_ in _MATERIAL_PRONOUNS and child.dep_ in ("dobj", "nsubj"):
        return True
    return any(g.lower_ in _MATERIAL_PRONOUNS and g.dep_ == "nsubj" for g in child.children) and child.dep_ in (
        "ccomp",
        "xcomp",
    )


def _names_text(noun: str) -> bool:
    """Whether one of the noun's three most frequent WordNet senses is filed as communication ("a response", "an
    email", "an outline"; not "a cake", "a fence")."""
    from faithguard.lexical.wordnet_mmap import get_wordnet

    wn = get_wordnet()
    return any((syn := wn.synset(o)) is not None and syn.lexname == "noun.communication" for o in wn.senses(noun)[:3])
