"""Where the things an answer names lie: typed evidence for a place constraint ("three rivers in Spain").

A place asked of listed items holds of the answer only when it holds of every item: one river in Spain among three
is no evidence for the other two, and the place's own name in an intro line ("Here are rivers in Spain:") or in a
refusal ("Neither is in Canada") says nothing about the items. Each item is read by its first name (its head:
"The Ebro: flows to ..." is about the Ebro), placed by GeoNames and WordNet (:func:`places.contains`, then WordNet's
part-of chain). An item is *outside* only when GeoNames knows both places (``contains`` says False); WordNet's
"placed elsewhere" is weaker (its part-of chains are incomplete) and only keeps an answer from passing. An item nothing
places that names the place itself ("The Louvre, in Paris") is inside.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from faithguard.engine.named import COORDINATION
from faithguard.engine.places import contains
from faithguard.engine.response import ResponseView
from faithguard.lexical import wordnet
from faithguard.models import Constraint, Status

__all__ = [
    "Placement",
    "enumerated",
    "item_heads",
    "items_in",
    "listed",
    "name_parts",
    "named_items",
    "place_of_items",
    "typed_conjuncts",
    "typed_names",
]


@dataclass
class Placement:
    """Items of a list by where they lie relative to the asked place (each item by its head name)."""

    inside: list[str] = field(default_factory=list)
    outside: list[str] = field(default_factory=list)
    #: items placed elsewhere by WordNet only (weak: not a violation, but no pass)
    elsewhere: list[str] = field(default_factory=list)
    #: items with no name, or a name nothing places
    unplaced: int = 0


def _where(name: str, place: str) -> bool | None:
    """True inside, False outside (GeoNames knows both), None unknown; WordNet's part-of chain decides "inside"."""
    said = contains(place, name)
    if said is not None:
        return said
    return True if wordnet.located_in(name, place) is True else None


_RUN = re.compile(r"\w+")
_WORD_CHAR = re.compile(r"\w")


class _Heads:
    """The first of ``names`` an item's lower-cased text holds, word-bounded (no word character right before or
    after it; at one position the least name), found from the item's words: each name is filed under its first run
    of word characters and tried only where the item has that run. One search per name per item (each a regex
    compiled anew once the names outnumber ``re``'s cache) made a 14,000-item answer cost minutes."""

    def __init__(self, names: Sequence[str]) -> None:
        self._by_run: dict[str, list[str]] = {}
        self._other: list[tuple[str, re.Pattern[str]]] = []  # names that open with no word character
        for name in dict.fromkeys(names):
            run = _RUN.match(name)
            if run is None:
                self._other.append((name, re.compile(r"(?<!\w)" + re.escape(name) + r"(?!\w)")))
            else:
                self._by_run.setdefault(run.group(), []).append(name)

    def first(self, item: str) -> str | None:
        low = item.lower()
        best: tuple[int, str] | None = None
        for name, pattern in self._other:
            m = pattern.search(low)
            if m is not None and (best is None or (m.start(), name) < best):
                best = (m.start(), name)
        for run in _RUN.finditer(low):
            at = run.start()
            if best is not None and at > best[0]:
                break
            for name in self._by_run.get(run.group(), ()):
                end = at + len(name)
                if low.startswith(name, at) and not _WORD_CHAR.match(low, end) and (best is None or (at, name) < best):
                    best = (at, name)
        return best[1] if best is not None else None


#: A negation right before the place ("not in Canada", "outside Spain", "far from Paris").
_DENIED = re.compile(r"\b(?:not|never|outside|beyond|far\s+from)\s+(?:\w+\s+){0,2}$", re.I)


def _names_place(item: str, forms: Sequence[str]) -> bool:
    """Whether the item's text names the place (one of ``forms``, word-bounded) with no negation right before it."""
    low = item.lower()
    for form in forms:
        for m in re.finditer(r"(?<!\w)" + re.escape(form) + r"(?!\w)", low):
            if not _DENIED.search(low[: m.start()]):
                return True
    return False


def listed(view: ResponseView) -> tuple[str, ...]:
    """The items a list answer is made of: its outermost items when it has two or more, else every list-marked line;
    empty when the answer is no list (fewer than two)."""
    items = view.outer_items if len(view.outer_items) >= 2 else view.items
    return items if len(items) >= 2 else ()


def item_heads(items: Sequence[str], names: Sequence[str]) -> list[str | None]:
    """Each item's head: the first of ``names`` (lower case) its text holds, None when it holds none."""
    heads = _Heads(names)
    return [heads.first(item) for item in items]


def place_of_items(items: Sequence[str], names: Sequence[str], place: str, forms: Sequence[str] = ()) -> Placement:
    """Each item, by its head name among ``names`` (lower case), inside, outside, elsewhere or unplaced. An item
    nothing places that names the place itself ("The Louvre, in Paris"; ``forms``: the place's names and
    demonyms) is inside, unless the place follows a negation ("not in Canada")."""
    out = Placement()
    for item, head in zip(items, item_heads(items, names), strict=True):
        where = _where(head, place) if head is not None else None
        if where is None and _names_place(item, forms):
            out.inside.append(head or item.strip()[:40].lower())
        elif head is None:
            out.unplaced += 1
        elif where is True:
            out.inside.append(head)
        elif where is False:
            out.outside.append(head)
        elif wordnet.located_in(head, place) is False:
            out.elsewhere.append(head)
        else:
            out.unplaced += 1
    return out


def name_parts(view: ResponseView, names: Sequence[str] | None = None) -> list[str]:
    """Distinct names, a coordinated run ("Ebro and Tagus") read as separate names."""
    out: dict[str, None] = {}
    for name in view.named() if names is None else names:
        for part in COORDINATION.split(name):
            part = part.strip(" ,.;:")
            if part:
                out.setdefault(part, None)
    return list(out)


def typed_names(view: ResponseView, noun: str) -> tuple[list[str], list[str]]:
    """Names in the response that WordNet types as ``noun`` (instances or kinds), and names it cannot type.

    A coordinated run the name finder kept whole ("Ebro and Tagus") is read name by name.
    Names WordNet types as something else are in neither list.
    """
    typed: list[str] = []
    untyped: list[str] = []
    for part in name_parts(view):
        kind = wordnet.is_instance_of(part, noun)
        if kind is None:
            # "Sir Francis Drake": WordNet keys the name without its title; try the last word too.
            last = part.split()[-1]
            kind = wordnet.is_instance_of(last, noun) if last != part else None
        if kind:
            typed.append(part)
        elif kind is None:
            untyped.append(part)
    return typed, untyped


def enumerated(view: ResponseView, noun: str | None) -> tuple[str, ...]:
    """The items of an answer that is no list but joins two or more things WordNet types as the asked ``noun`` in one
    coordination ("Brazil, Argentina and Chile" for "countries"): that coordination's names, with the names in it
    WordNet cannot type ("the Ebro, the Tagus and the Douro"). A place asked of them holds only when it holds of each,
    as for a list; the place's own name elsewhere in the answer ("... are in Africa") is no evidence. Names outside
    the coordination are not items: "Rome, which is older than Paris" compares, "Kenya and Ghana. Ghana was ruled
    from the United Kingdom" adds context (reviewer 97)."""
    if noun is None or listed(view):
        return ()
    names = name_parts(view)
    kind = set(typed_names(view, noun)[0])
    best: tuple[str, ...] = ()
    for parts in view.coordinations():
        conjuncts = [p.lower().split() for p in parts]
        inside = [n for n in names if any(_ends(c, n.split()) for c in conjuncts)]
        if len([n for n in inside if n in kind]) >= 2 and len(inside) > len(best):
            best = tuple(inside)
    return best


def named_items(view: ResponseView, noun: str | None, want: int | None) -> tuple[str, ...]:
    """The items of an answer that is no list and joins no things of the asked kind: its names WordNet types as
    ``noun``, in order. Asked for one (``want`` 1), the first is the item, the answer's head ("Paris, which is bigger
    than Rome" for "a city in Italy": Paris); asked for several (or a plural with no count), each is ("France is one.
    Brazil is another." for "three countries in Europe": review 98). Names of other kinds are not items."""
    if noun is None or listed(view):
        return ()
    typed = typed_names(view, noun)[0]  # in the answer's order
    if not typed:
        return ()
    return tuple(typed[:1]) if want == 1 else tuple(typed)


def _ends(conjunct: list[str], name: list[str]) -> bool:
    """Whether a conjunct opens with the name ("the Ebro", "Peru are both in Europe": the last conjunct runs on into
    the sentence's predicate). A name later in a conjunct is not the conjunct: "the Tagus flow through Spain; the
    Douro reaches Portugal" is about the Tagus."""
    k = len(name)
    return conjunct[:k] == name or (conjunct[:1] == ["the"] and conjunct[1 : 1 + k] == name)


def typed_conjuncts(view: ResponseView, noun: str) -> int:
    """The most conjuncts one sentence joins that WordNet types as the asked ``noun``, as a name ("Jupiter and
    Saturn": planets) or a kind ("oaks, ashes and beeches": trees), by the conjunct or its last word: items the names
    found by capitalisation may miss. A tag line of other words ("Alpha, Bravo and Charlie") types none."""
    best = 0
    for parts in view.coordinations():
        typed = 0
        for part in parts:
            words = part.lower().split()
            if not words:
                continue
            tries = dict.fromkeys((" ".join(words), words[-1]))
            if any(wordnet.is_instance_of(w, noun) or wordnet.is_kind_of(w, noun) for w in tries):
                typed += 1
        best = max(best, typed)
    return best


def items_in(c: Constraint, where: Placement, count: int) -> tuple[Status, str]:
    """A place asked of a list's items: satisfied when every item lies in it, violated when one lies outside."""
    if where.outside:
        return Status.VIOLATED, f"offline: {where.outside[0]!r} is not in {c.text!r}"
    if len(where.inside) == count:
        return Status.SATISFIED, f"offline: every item lies {c.text!r} ({', '.join(where.inside[:3])})"
    told = f"{len(where.inside)} of {count} items placed {c.text!r}"
    return Status.UNKNOWN, f"offline: {told}; the rest cannot be told" + (
        f" ({where.elsewhere[0]!r} lies elsewhere by WordNet)" if where.elsewhere else ""
    )
