"""Syntactic readings of a request, as declarative spaCy DependencyMatcher specs (``specs/syntax.json``).

Each spec names an ``anchor`` node (the noun the reading is about) and a role: ``pointer`` (the noun picks
out an item the user holds, like a possessive), ``narrative`` (told about, not handed over) or ``modifier``
(it modifies another noun). Every spec carries its own positive and negative fixtures in the same file;
``tests/inputs/test_syntax_specs.py`` runs them all.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from faithguard.specfiles import read_specs

__all__ = ["SyntaxSpec", "anchored_tokens", "anchors", "load_specs", "role_anchors", "role_of"]

_ROLES = frozenset(
    {
        "pointer",
        "narrative",
        "modifier",
        "deictic",
        "generic",
        "history",
        "forward",
        "attachment",
        "voice",
        "requested",
        "appraised",
        "recorded",
        "faults",
    }
)


@dataclass(frozen=True)
class SyntaxSpec:
    """One declarative pattern with its fixtures."""

    name: str
    role: str
    why: str
    patterns: tuple[Any, ...]
    positive: tuple[tuple[str, str], ...]  # (text, anchor word that must match)
    negative: tuple[tuple[str, str], ...]  # (text, word that must not match)


@lru_cache(maxsize=1)
def load_specs() -> tuple[SyntaxSpec, ...]:
    """The specs of ``specs/syntax.json`` (validated: known role, an anchor node, both fixture polarities)."""
    out: list[SyntaxSpec] = []
    for item in read_specs("faithguard.inputs", "specs/syntax.json"):
        role = str(item["role"])
        if role not in _ROLES:
            raise ValueError(f"syntax spec {item['id']!r}: unknown role {role!r}")
        for pat in item["patterns"]:
            if not any(node.get("RIGHT_ID") == "anchor" for node in pat):
                raise ValueError(f"syntax spec {item['id']!r}: a pattern has no 'anchor' node")
        out.append(
            SyntaxSpec(
                name=str(item["id"]),
                role=role,
                why=str(item["why"]),
                patterns=tuple(item["patterns"]),
                positive=tuple((str(f["text"]), str(f["anchor"])) for f in item["positive"]),
                negative=tuple((str(f["text"]), str(f["word"])) for f in item["negative"]),
            )
        )
    return tuple(out)


_lock = threading.Lock()
_matchers: dict[int, tuple[Any, dict[int, str], dict[str, int]]] = {}


def _matcher(vocab: Any) -> tuple[Any, dict[int, str], dict[str, int]]:
    """One DependencyMatcher per vocabulary, with every spec added; and each pattern's anchor position."""
    key = id(vocab)
    with _lock:
        cached = _matchers.get(key)
        if cached is not None:
            return cached
        from faithguard.nlp_tree import TreeMatcher

        matcher = TreeMatcher(vocab)
        names: dict[int, str] = {}
        anchor_at: dict[str, int] = {}
        for spec in load_specs():
            for i, pat in enumerate(spec.patterns):
                label = f"{spec.name}#{i}"
                matcher.add(label, [pat])
                names[vocab.strings[label]] = spec.name
                anchor_at[label] = next(j for j, node in enumerate(pat) if node["RIGHT_ID"] == "anchor")
        _matchers[key] = (matcher, names, anchor_at)
        return _matchers[key]


_memo: OrderedDict[str, dict[str, set[int]]] = OrderedDict()
_MEMO_SIZE = 256


def anchors(doc: Any) -> dict[str, set[int]]:
    """Spec name -> character offsets of the anchor tokens it matched in ``doc``.

    Memoised by the parsed text (the shared parse is a pure function of it): the detector asks twice per call.
    """
    with _lock:
        hit = _memo.get(doc.text)
        if hit is not None:
            return hit
    out = _match(doc)
    with _lock:
        _memo[doc.text] = out
        while len(_memo) > _MEMO_SIZE:
            _memo.popitem(last=False)
    return out


def _match(doc: Any) -> dict[str, set[int]]:
    """Anchors of every spec, matched sentence by sentence (bounded: :func:`faithguard.nlp.tree_matches`)."""
    from faithguard.nlp import tree_matches

    matcher, names, anchor_at = _matcher(doc.vocab)
    out: dict[str, set[int]] = {}
    for match_id, token_ids in tree_matches(matcher, doc):
        label = doc.vocab.strings[match_id]
        out.setdefault(names[match_id], set()).add(doc[token_ids[anchor_at[label]]].idx)
    return out


def role_anchors(doc: Any, role: str) -> set[int]:
    """Character offsets of the anchors of every spec with ``role``."""
    roles = {s.name: s.role for s in load_specs()}
    out: set[int] = set()
    for name, offs in anchors(doc).items():
        if roles[name] == role:
            out |= offs
    return out


def anchored_tokens(doc: Any, masked: str, offsets: set[int]) -> Iterator[Any]:
    """The tokens of ``doc`` at ``offsets`` (anchors of some role) whose text the scan did not mask as content."""
    for tok in doc:
        if tok.idx in offsets and masked[tok.idx : tok.idx + len(tok.text)].strip():
            yield tok


def role_of(spec_name: str) -> str:
    """The role of a spec by name."""
    return next(s.role for s in load_specs() if s.name == spec_name)


def fixture_problem(path: str, spec_id: str, fixture: Any, positive: bool) -> str | None:
    """One fixture of ``specs/syntax.json``: the spec anchors on the fixture's word (``anchor`` in a positive
    fixture, ``word`` in a negative one) or not (run by ``tests/test_spec_fixtures.py``)."""
    from faithguard.nlp import parse

    text, word = str(fixture["text"]), str(fixture["anchor" if positive else "word"])
    doc = parse(text)
    offsets = {t.idx for t in doc if t.text == word}
    if not offsets:
        return f"fixture word {word!r} is not a token of {text!r}"
    hit = bool(offsets & anchors(doc).get(spec_id, set()))
    return None if hit is positive else f"{spec_id} {'missed' if positive else 'anchored'} {word!r} in {text!r}"
