"""Relational subjects: "the capital *of* Australia" asks for a name typed for the relation, not the noun alone.

WordNet types Sydney as a capital (a state capital, part of New South Wales). For a singular subject
whose place is given by an "of" phrase in the same sub-question, a typed name is evidence only when
WordNet makes it *directly* part of that place (Canberra is part of Australia); a name WordNet places
elsewhere, or cannot place, is no evidence (the constraint stays unknown). A plural subject ("rivers of
Spain") asks for members anywhere inside the place, which the location check reads (part-of closure).
"""

from __future__ import annotations

from collections.abc import Sequence

from faithguard.lexical import wordnet
from faithguard.models import Category, Constraint

__all__ = ["of_place", "related_names"]


def of_place(c: Constraint, others: Sequence[Constraint]) -> str | None:
    """The place of an "of P" location constraint in ``c``'s sub-question ("of Australia" -> "australia")."""
    for o in others:
        if o.category is Category.LOCATION and o.subquestion == c.subquestion and not o.negated:
            toks = o.text.lower().split()
            if len(toks) >= 2 and toks[0] == "of":
                return " ".join(t for t in toks[1:] if t != "the")
    return None


def related_names(noun: str, names: Sequence[str], place: str | None) -> list[str]:
    """The typed ``names`` that also stand in the relation: all of them for a plural noun or no "of" place."""
    if place is None or wordnet.first_type_synset(noun) is None or _plural(noun):
        return list(names)
    return [n for n in names if place in (wordnet.whole_of(n) or ())]


def _plural(noun: str) -> bool:
    """A noun WordNet's morphology reads as an inflected form ("rivers" -> "river")."""
    return wordnet.base_noun(noun) != noun.lower()
