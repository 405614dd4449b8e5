"""spaCy's ``DependencyMatcher`` with its node test done on arrays: the same matches, in the same order.

spaCy finds a dependency pattern in two steps: a token ``Matcher`` holding one single-token pattern per node
of every pattern, then, for each token a node matched, a climb to the token's root. On a long request both
are per-token loops over every node (about 25 us per token with this package's 150 nodes), the largest share
of the time the input checks spend on long pasted material. Here both run on the columns of
``Doc.to_array``: each column is coded once per text by the values the tests name, each distinct node is a
few table lookups over the codes (nodes that repeat across patterns, such as ``{"POS": "VERB"}``, are tested
once), and the roots come from pointer jumping over the head offsets. The tree search that follows is
spaCy's own. Measured on the 40 longest dev requests (the input checks' specs): 282 ms -> 60 ms.

Only the attribute tests this package's specs use are vectorised (exact value, ``IN``, ``NOT_IN`` on token
attributes, boolean flags such as ``IS_TITLE``, ``IS_SUPERSET`` on ``MORPH``); a matcher holding any other
test falls back to spaCy's step unchanged. ``tests/core/test_nlp_tree.py`` checks the two give identical
output on every spec set.

Import this module lazily: it imports spaCy.
"""

from __future__ import annotations

import threading
from collections import defaultdict
from typing import Any

import numpy as np
from spacy.attrs import (
    DEP,
    HEAD,
    IS_ALPHA,
    IS_DIGIT,
    IS_LOWER,
    IS_PUNCT,
    IS_SPACE,
    IS_TITLE,
    IS_UPPER,
    LEMMA,
    LIKE_NUM,
    LOWER,
    NORM,
    ORTH,
    POS,
    TAG,
)
from spacy.matcher import DependencyMatcher

__all__ = ["TreeMatcher"]

#: Token attributes a node may test on the array path (pattern name -> spaCy attribute id).
_COLUMNS = {"POS": POS, "TAG": TAG, "DEP": DEP, "LEMMA": LEMMA, "LOWER": LOWER, "NORM": NORM, "ORTH": ORTH}
_COLUMNS["TEXT"] = ORTH
#: Boolean token flags a node may test (``{"IS_TITLE": True}``); their column holds 0 or 1.
_FLAGS = {
    "IS_ALPHA": IS_ALPHA,
    "IS_DIGIT": IS_DIGIT,
    "IS_LOWER": IS_LOWER,
    "IS_PUNCT": IS_PUNCT,
    "IS_SPACE": IS_SPACE,
    "IS_TITLE": IS_TITLE,
    "IS_UPPER": IS_UPPER,
    "LIKE_NUM": LIKE_NUM,
}
_COLUMNS.update(_FLAGS)
#: The attributes spaCy's Matcher refuses to test on a text lacking their annotation (its error E155).
_ANNOTATED = ("POS", "TAG", "DEP", "LEMMA", "MORPH")

#: One attribute test of a node before compilation: (column, "eq" | "in" | "not_in", the values it names).
_Raw = tuple[int, str, list[int]]
#: One distinct node before compilation: its attribute tests, its MORPH feature sets, the node keys it stands for.
_RawNode = tuple[list[_Raw], list[frozenset[str]], list[int]]


class _Node:
    """One distinct node test: a lookup table per column it tests, the MORPH feature sets it needs, its keys."""

    def __init__(self, tables: list[tuple[int, np.ndarray]], morph: list[frozenset[str]], keys: list[int]) -> None:
        self.tables = tables
        self.morph = morph
        self.keys = keys


class _Plan:
    """The matcher's distinct node tests over coded columns.

    Each column's values named by some test are kept sorted; a token's code in that column is the value's place
    in that list plus one, or 0 for a value no test names. A test is then a boolean table indexed by code.
    """

    def __init__(self, columns: list[int], values: list[np.ndarray], nodes: list[_Node], needs: set[str]):
        self.columns = columns
        self.values = values
        self.nodes = nodes
        self.needs = needs

    def codes(self, doc: Any) -> np.ndarray:
        """(tokens, columns) codes of ``doc``."""
        n = len(doc)
        out = np.zeros((n, len(self.columns)), dtype=np.int64)
        if not self.columns or not n:
            return out
        cols = doc.to_array(self.columns).reshape(n, -1)
        for c, values in enumerate(self.values):
            if len(values):
                at = np.minimum(np.searchsorted(values, cols[:, c]), len(values) - 1)
                out[:, c] = np.where(values[at] == cols[:, c], at + 1, 0)
        return out

    def mask(self, node: _Node, codes: np.ndarray, doc: Any, morph_cache: dict[frozenset[str], np.ndarray]) -> Any:
        """Which tokens pass ``node``'s test."""
        mask = np.ones(len(codes), dtype=bool)
        for c, table in node.tables:
            mask &= table[codes[:, c]]
        for wanted in node.morph:
            if wanted not in morph_cache:
                morph_cache[wanted] = np.fromiter((wanted <= set(t.morph) for t in doc), dtype=bool, count=len(doc))
            mask &= morph_cache[wanted]
        return mask


def _raw_test(vocab: Any, name: str, at: int, spec: Any) -> _Raw | None:
    """The test of attribute ``name`` of a node on column ``at``; None for a test not vectorised here."""
    if name in _FLAGS or isinstance(spec, bool):
        if not (name in _FLAGS and isinstance(spec, bool)):
            return None
        return at, "eq", [int(spec)]
    if isinstance(spec, str):
        return at, "eq", [vocab.strings.add(spec)]
    if isinstance(spec, dict) and len(spec) == 1:
        op, values = next(iter(spec.items()))
        if op in ("IN", "NOT_IN") and isinstance(values, list) and all(isinstance(v, str) for v in values):
            return at, op.lower(), [vocab.strings.add(v) for v in values]
    return None


def _morph_set(spec: Any) -> frozenset[str] | None:
    """``{"MORPH": {"IS_SUPERSET": [...]}}``: the features a token must all have; None for another MORPH test."""
    if not (isinstance(spec, dict) and list(spec) == ["IS_SUPERSET"] and isinstance(spec["IS_SUPERSET"], list)):
        return None
    return frozenset(spec["IS_SUPERSET"])


def _compile(raw_nodes: list[_RawNode], width: int) -> tuple[list[np.ndarray], list[_Node]]:
    """Sorted values per column and each node's code tables."""
    named: list[set[int]] = [set() for _ in range(width)]
    for raws, _, _ in raw_nodes:
        for at, _op, ids in raws:
            named[at].update(ids)
    values = [np.array(sorted(v), dtype=np.uint64) for v in named]
    place = [{int(v): i + 1 for i, v in enumerate(vals)} for vals in values]
    nodes: list[_Node] = []
    for raws, morph, keys in raw_nodes:
        tables: list[tuple[int, np.ndarray]] = []
        for at, op, ids in raws:
            table = np.full(len(values[at]) + 1, op == "not_in", dtype=bool)
            table[[place[at][i] for i in ids]] = op != "not_in"
            tables.append((at, table))
        nodes.append(_Node(tables, morph, keys))
    return values, nodes


class TreeMatcher(DependencyMatcher):
    """A ``spacy.matcher.DependencyMatcher`` whose node matching and root finding run on arrays."""

    _plan_lock = threading.Lock()
    #: The node tests (None when a test is not supported) and the pattern version they were built for; every add or
    #: remove starts a new version, so tests built while patterns changed are never kept for the new ones.
    _cached_plan: _Plan | None = None
    _built_for = -1
    _version = 0

    def add(self, key: str | int, patterns: list[list[dict[str, Any]]], *, on_match: Any = None) -> None:
        """spaCy's ``add``; the node tests are rebuilt on the next call."""
        super().add(key, patterns, on_match=on_match)
        self._version += 1

    def remove(self, key: str | int) -> None:
        """spaCy's ``remove``; the node tests are rebuilt on the next call."""
        super().remove(key)
        self._version += 1

    def _node_plan(self) -> _Plan | None:
        """The vectorised node tests, rebuilt after patterns were added or removed; None when one is not supported."""
        if self._built_for == self._version:
            return self._cached_plan
        with self._plan_lock:
            version = self._version
            try:
                built = self._build_plan()
            except (AttributeError, KeyError, TypeError, ValueError):
                built = None  # spaCy's private layout of patterns changed: its own step stays exact
            self._cached_plan, self._built_for = built, version
        return built

    def _build_plan(self) -> _Plan | None:
        vocab = self.vocab
        names = sorted({name for pats in self._patterns.values() for pat in pats for node in pat for name in node[0]})
        if any(name not in _COLUMNS and name != "MORPH" for name in names):
            return None
        column_names = [n for n in names if n in _COLUMNS]
        at = {name: i for i, name in enumerate(column_names)}
        index: dict[str, int] = {}
        raw_nodes: list[_RawNode] = []
        for key, pats in self._patterns.items():
            for pat, node_keys in zip(pats, self._tokens_to_key[key], strict=True):
                for node, node_key in zip(pat, node_keys, strict=True):
                    attrs = node[0]
                    ident = repr(sorted(attrs.items()))
                    if ident not in index:
                        raws: list[_Raw] = []
                        morph: list[frozenset[str]] = []
                        for name, spec in attrs.items():
                            if name == "MORPH":
                                wanted = _morph_set(spec)
                                if wanted is None:
                                    return None
                                morph.append(wanted)
                                continue
                            raw = _raw_test(vocab, name, at[name], spec)
                            if raw is None:
                                return None
                            raws.append(raw)
                        index[ident] = len(raw_nodes)
                        raw_nodes.append((raws, morph, []))
                    raw_nodes[index[ident]][2].append(node_key)
        values, nodes = _compile(raw_nodes, len(column_names))
        needs = {n for n in names if n in _ANNOTATED}
        return _Plan([_COLUMNS[n] for n in column_names], values, nodes, needs)

    def _get_keys_to_position_maps(self, doc: Any) -> Any:
        """root index -> node key -> positions, as spaCy's step builds it (roots in order of first match)."""
        plan = self._node_plan()
        if plan is None or any(not doc.has_annotation(name) for name in plan.needs):
            # an unsupported test, or a text lacking an annotation (spaCy's own error E155): spaCy's step
            return super()._get_keys_to_position_maps(doc)  # type: ignore[misc]
        n = len(doc)
        codes = plan.codes(doc)
        morph_cache: dict[frozenset[str], np.ndarray] = {}
        root = np.arange(n, dtype=np.int64) + doc.to_array(HEAD).astype(np.int64)
        # pointer jumping halves every path each round: a tree of n tokens is done within log2(n) + 1 rounds; heads
        # that still move after that form a cycle (a hand-built Doc), where spaCy's own climb stops by its count
        for _ in range(n.bit_length() + 1):
            nxt = root[root]
            if np.array_equal(nxt, root):
                break
            root = nxt
        else:
            if n:
                return super()._get_keys_to_position_maps(doc)  # type: ignore[misc]
        found: list[tuple[list[int], np.ndarray]] = []
        first: set[int] = set()
        for node in plan.nodes:
            where = np.flatnonzero(plan.mask(node, codes, doc, morph_cache))
            if len(where):
                found.append((node.keys, where))
                first.update(where.tolist())
        out: defaultdict[int, defaultdict[int, list[int]]] = defaultdict(lambda: defaultdict(list))
        for position in sorted(first):
            out[int(root[position])]  # roots in the order of their first matched token, as spaCy's loop
        for node_keys, where in found:
            positions = where.tolist()
            roots = root[where].tolist()
            for node_key in node_keys:
                for position, r in zip(positions, roots, strict=True):
                    out[r][node_key].append(position)
        return out
