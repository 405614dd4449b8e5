"""The model's own rule components, made fast without changing what they annotate.

Attribute ruler: its patterns are matched by dictionary look-up instead of spaCy's Matcher.

spaCy's ``attribute_ruler`` runs a generic ``Matcher`` over every token for its ~180 patterns (tag map
and exceptions shipped with the model); on short texts that is about a fifth of the parse. Its patterns
only test token attributes for equality, set membership or a regex, over one or two tokens, so each
pattern is filed under the value its first token must have and a token looks up only the patterns
that can start at it. The result is the ruler's own: the same matches, sorted as
``AttributeRuler.match`` sorts them, applied by the ruler's own ``set_annotations``. A pattern this
module cannot read (another operator or attribute) leaves the ruler as spaCy built it.
Fixtures: tests/core/test_nlp_rules.py (every pipe output equal to the Matcher's on real text).

Lemmatizer: the rule lemmatizer asks whether a candidate form is a known lemma (``form in index``) of
the model's ``lemma_index`` table, whose entries are lists (57,528 nouns): each test scanned the list,
and lemmas cost as much CPU as the dependency parse (21 of 71 us per word of a long request, issue 16).
:func:`index_lemma_tables` turns each entry into a frozenset: the same members, so the same lemmas.
Fixtures: tests/core/test_nlp_rules.py (lemmas equal to the list-backed lemmatizer's).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

__all__ = ["index_attribute_ruler", "index_lemma_tables"]

#: Token attributes the patterns may test, in the order of the rows ``Doc.to_array`` gives (hash values, as
#: the Matcher compares them; IS_SPACE as 0/1).
_ATTRS = ("LOWER", "TAG", "DEP", "IS_SPACE")
_COLUMN = {name: i for i, name in enumerate(_ATTRS)}
#: Attributes a first token is filed under, in order of preference (the most selective first).
_FILE_BY = ("LOWER", "TAG", "DEP")

_Row = tuple[int, int, int, int]
_Test = Callable[[_Row], bool]
_Check = Callable[[list[_Row], int], bool]
_Item = tuple[int, int, int, _Check]


class _Unsupported(ValueError):
    """A pattern this module does not read: the Matcher stays."""


def _test(strings: Any, attr: str, value: Any) -> _Test:
    col = _COLUMN.get(attr)
    if col is None:
        raise _Unsupported(attr)
    if isinstance(value, bool):
        if attr != "IS_SPACE":
            raise _Unsupported(attr)
        want = int(value)
        return lambda row: row[col] == want
    if attr == "IS_SPACE":
        raise _Unsupported(attr)
    if isinstance(value, str):
        h = strings[value]
        return lambda row: row[col] == h
    if isinstance(value, dict) and len(value) == 1:
        ((op, arg),) = value.items()
        if op in ("IN", "NOT_IN") and isinstance(arg, list) and all(isinstance(v, str) for v in arg):
            members = frozenset(strings[v] for v in arg)
            if op == "IN":
                return lambda row: row[col] in members
            return lambda row: row[col] not in members
        if op == "REGEX" and isinstance(arg, str):
            rx = re.compile(arg)
            seen: dict[int, bool] = {}  # hash -> whether the text matches (bounded below)

            def search(row: _Row) -> bool:
                h = row[col]
                hit = seen.get(h)
                if hit is None:
                    hit = rx.search(strings[h]) is not None
                    if len(seen) < 65536:
                        seen[h] = hit
                return hit

            return search
    raise _Unsupported(f"{attr}:{value!r}")


def _check(tests: list[list[_Test]]) -> _Check:
    """One function testing a whole pattern at a position (one or two tests per token, usually)."""
    if len(tests) == 1 and len(tests[0]) == 1:
        (only,) = tests[0]
        return lambda rows, i: only(rows[i])
    if len(tests) == 1 and len(tests[0]) == 2:
        first, second = tests[0]
        return lambda rows, i: first(rows[i]) and second(rows[i])

    def every(rows: list[_Row], i: int) -> bool:
        for k, token_tests in enumerate(tests):
            row = rows[i + k]
            for test in token_tests:
                if not test(row):
                    return False
        return True

    return every


def _keys(strings: Any, first: dict[str, Any]) -> tuple[str, list[int]] | None:
    """(attribute, hash values) the first token is filed under, or None (tried at every token)."""
    for attr in _FILE_BY:
        value = first.get(attr)
        if isinstance(value, str):
            return attr, [strings[value]]
        if isinstance(value, dict) and list(value) == ["IN"]:
            return attr, list(dict.fromkeys(strings[v] for v in value["IN"]))
    return None


class _Index:
    """Patterns filed by a first-token value; ``match`` gives ``AttributeRuler.match``'s output."""

    def __init__(self, ruler: Any) -> None:
        from spacy.attrs import DEP, IS_SPACE, LOWER, TAG

        strings = ruler.vocab.strings
        self._columns = [LOWER, TAG, DEP, IS_SPACE]
        self._filed: dict[str, dict[int, list[_Item]]] = {a: {} for a in _FILE_BY}
        self._always: list[_Item] = []
        for attr_id, entry in enumerate(ruler.patterns):
            key = strings[str(attr_id)]
            for pattern in entry["patterns"]:
                if not pattern or not all(isinstance(tok, dict) for tok in pattern):
                    raise _Unsupported("empty pattern")
                tests = [[_test(strings, a, v) for a, v in tok.items()] for tok in pattern]
                item = (attr_id, key, len(pattern), _check(tests))
                filed = _keys(strings, pattern[0])
                if filed is None:
                    self._always.append(item)
                else:
                    table = self._filed[filed[0]]
                    for h in filed[1]:
                        table.setdefault(h, []).append(item)

    def match(self, doc: Any) -> list[tuple[int, int, int, int]]:
        """The (attribute id, match key, start, end) of every pattern match, sorted as the ruler sorts them."""
        if not len(doc):
            return []
        rows: list[_Row] = [tuple(r) for r in doc.to_array(self._columns).tolist()]
        n = len(rows)
        found: set[tuple[int, int, int, int]] = set()
        by_lower, by_tag, by_dep = self._filed["LOWER"], self._filed["TAG"], self._filed["DEP"]
        always = self._always
        for i, row in enumerate(rows):
            for candidates in (by_lower.get(row[0]), by_tag.get(row[1]), by_dep.get(row[2]), always):
                if not candidates:
                    continue
                for attr_id, key, length, check in candidates:
                    if i + length <= n and check(rows, i):
                        found.add((attr_id, key, i, i + length))
        return sorted(found)


def index_attribute_ruler(nlp: Any) -> bool:
    """Match ``nlp``'s attribute ruler by look-up (same annotations); False when left as it was."""
    if "attribute_ruler" not in nlp.pipe_names:
        return False
    ruler = nlp.get_pipe("attribute_ruler")
    try:
        index = _Index(ruler)
    except _Unsupported:
        return False
    ruler.match = index.match  # AttributeRuler.__call__ reads self.match; set_annotations stays spaCy's
    return True


def index_lemma_tables(nlp: Any) -> bool:
    """Answer the rule lemmatizer's "is this a known lemma" tests from sets; False when left as it was."""
    if "lemmatizer" not in nlp.pipe_names:
        return False
    lemmatizer = nlp.get_pipe("lemmatizer")
    if getattr(lemmatizer, "mode", None) != "rule" or "lemma_index" not in lemmatizer.lookups.tables:
        return False
    table = lemmatizer.lookups.get_table("lemma_index")
    for key, forms in list(table.items()):  # keys are the hashes of the parts of speech
        if isinstance(forms, list):
            table[key] = frozenset(forms)  # only ever tested for membership and truth (rule_lemmatize)
    return True
