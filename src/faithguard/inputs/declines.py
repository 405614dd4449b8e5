"""An answer that says it cannot answer: a decline ("I don't know.", "I can't tell from what I have") and a sentence
that says the material holds nothing on the matter ("The notes say nothing about the supplier."). Read by the
follow-up check (inputs/followup.py): an answer that keeps to its decline does not proceed as if it had the missing
input. Fixtures: tests/inputs/test_declines.py."""

from __future__ import annotations

import re
from typing import Any

from faithguard.inputs.absence import HOLDING_SHARE

__all__ = ["SENTENCES", "declines_first", "notes_silence", "root_of"]

#: Where an answer's sentences part (after . ! ? and at line breaks); the follow-up check reads them the same way.
SENTENCES = re.compile(r"(?<=[.!?])\s+|\n+")


def root_of(doc: Any) -> Any | None:
    """The main verb of a parsed sentence (its first root, if the parser split it)."""
    return next((t for t in doc if t.dep_ == "ROOT"), None)


#: WordNet 3.0 verb files of knowing, saying and finding (31 verb.cognition, 32 verb.communication, 39
#: verb.perception): "I don't know", "I can't answer that", "I couldn't find it in the context".
_DECLINING_FILES = (31, 32, 39)
_KNOWING_FILES = (31,)
#: Words that open a clause asking what is not known ("I don't know what the window is"): the clause is a gap.
_WH_TAGS = frozenset({"WDT", "WP", "WP$", "WRB"})


def declines_first(sentence: str) -> bool:
    """Whether an answer's first ``sentence`` says the answerer cannot know, say or find the answer: "I" as subject
    (a company's "we do not accept returns" states a policy), a negation (or "unable"), and a verb of knowing,
    saying or finding as the main verb or its complement
    ("I don't know.", "I can't answer that from what I have.", "I'm not able to find it in the context.",
    "I don't know what the return window is."). An answer that declines does not proceed as if it had the input.
    A negated opinion is no decline: "I don't think that's right; it is 30 days" (a clause of its own after the verb,
    not a question word's). Fixtures: tests/inputs/test_declines.py."""
    from faithguard.lexical.senses import verb_lexfiles_share
    from faithguard.nlp import parse_many

    root = root_of(next(parse_many([sentence])))
    if root is None:
        return False
    # the main clause, or one joined to it ("The context does not mention it, so I cannot say.")
    heads = [root, *(c for c in root.children if c.dep_ in ("conj", "advcl"))]
    return any(_declining_clause(head, verb_lexfiles_share) for head in heads)


#: WordNet 3.0 verb files of saying and of holding (32 verb.communication, 42 verb.stative: "contain", "include").
_SAYING_FILES = (32, 42)


def notes_silence(doc: Any) -> bool:
    """Whether a sentence says that something says or holds nothing on the matter: a negated verb of saying or holding,
    or one whose subject or object is "nothing" ("The context doesn't say anything about returns.", "Nothing in what
    I was given mentions a date.", "The notes say nothing about the supplier."). After a decline it explains the
    decline; it delivers nothing."""
    from faithguard.lexical.senses import verb_lexfiles_share

    root = root_of(doc)
    # the tagger may read the verb as a noun ("Nothing ... mentions a date"): a subject makes it the verb
    if root is None or not any(c.dep_ in ("nsubj", "nsubjpass") for c in root.children):
        return False
    empty = any(c.dep_ in ("nsubj", "dobj") and c.lower_ in ("nothing", "none") for c in root.children)
    negated = empty or any(c.dep_ == "neg" for c in root.children)
    return negated and verb_lexfiles_share(root.lemma_, _SAYING_FILES) >= HOLDING_SHARE


def _declining_clause(head: Any, share: Any) -> bool:
    """One clause of :func:`_declines_first`: "I" as subject, negated or "unable", a verb of knowing (or, with "can",
    "could" or "able", of saying or finding) as the head, its complement, or the complement of "able"."""
    if not any(c.dep_ in ("nsubj", "nsubjpass") and c.lower_ == "i" for c in head.children):
        return False
    able = [c for c in head.children if c.dep_ == "acomp" and c.lower_ in ("able", "unable")]
    negated = any(c.dep_ == "neg" for c in head.children) or any(a.lower_ == "unable" for a in able)
    if not negated:
        return False
    can = bool(able) or any(c.tag_ == "MD" and c.lemma_.lower() in ("can", "could") for c in head.children)
    verbs = [head, *(c for c in head.children if c.dep_ == "xcomp")]
    verbs += [c for a in able for c in a.children if c.dep_ == "xcomp"]
    for verb in verbs:
        if verb.pos_ != "VERB":
            continue
        # not knowing is a decline as it stands ("I don't know"); not saying or finding only as an inability ("I
        # can't say", "I'm unable to find"): "I do not recommend paying it" advises
        knows = share(verb.lemma_, _KNOWING_FILES) >= HOLDING_SHARE
        if not knows and not (can and share(verb.lemma_, _DECLINING_FILES) >= HOLDING_SHARE):
            continue
        clauses = [c for c in verb.children if c.dep_ == "ccomp" and c.i > verb.i]  # what follows it is its object
        if all(any(t.tag_ in _WH_TAGS or t.lower_ in ("whether", "if") for t in c.subtree) for c in clauses):
            return True
    return False
