"""Whether a count in a request applies to the whole answer, read from syntax (``data/scope_patterns.json``).

A count of sentences, lines, words or paragraphs is checked on the whole response. That is exact only
when the answer is the counted thing: when the request asks for two or more deliverables ("generate a
riddle of four lines, then provide a solution and an explanation") the whole response holds more than
the counted part, and when the count's sentence is distributive ("each item limited to one sentence")
it applies per unit. In both cases the whole-response count is only a bound: a part never has more
sentences, lines or words than the whole, so ``<= N`` on the whole proves ``<= N`` on the part and
``< N`` on the whole disproves ``>= N`` and ``== N`` on the part; the other outcomes are unknown.
Pasted material in the request (:func:`faithguard.engine.content.content_spans`) is not read for either.
"""

from __future__ import annotations

import re
import threading
from collections import OrderedDict
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from faithguard.cache import QUERY_CACHE_SIZE
from faithguard.engine.content import content_spans
from faithguard.engine.lexicon import TASK_VERBS
from faithguard.specfiles import read_specs

__all__ = ["RequestScope", "bound_verdict", "load_specs", "request_scope"]

_ROLES = frozenset({"deliverable", "per_unit"})
_MAX_QUERY = 20_000
_TOKEN = re.compile(r"[^\W_]+")


@lru_cache(maxsize=1)
def load_specs() -> tuple[dict[str, Any], ...]:
    """The specs of ``data/scope_patterns.json`` (validated: known role, both fixture polarities)."""
    specs = read_specs("faithguard.engine", "data/scope_patterns.json")
    for s in specs:
        if s["role"] not in _ROLES:
            raise ValueError(f"scope spec {s.get('id')!r}: unknown role {s['role']!r}")
    return specs


@lru_cache(maxsize=1)
def _matcher() -> Any:
    from faithguard.nlp import get_nlp
    from faithguard.nlp_tree import TreeMatcher

    matcher = TreeMatcher(get_nlp().vocab)
    for spec in load_specs():
        matcher.add(spec["id"], [spec["pattern"]])
    return matcher


def matches(doc: Any) -> list[tuple[str, list[int]]]:
    """(spec id, token indices) of every scope spec matching a parsed text."""
    from faithguard.nlp import tree_matches

    return [(doc.vocab.strings[mid], toks) for mid, toks in tree_matches(_matcher(), doc)]


@dataclass(frozen=True)
class RequestScope:
    """What a request's syntax says about the reach of its counts."""

    deliverables: frozenset[str]
    #: (start, end) character spans of the request's sentences that count per unit
    per_unit: tuple[tuple[int, int], ...]
    text: str
    #: (lower-case word, char offset) of each token a per-unit marker reaches without crossing a coordination
    reach: frozenset[tuple[str, int]] = frozenset()

    @property
    def several_deliverables(self) -> bool:
        """The request asks for two or more distinct things (by the lemma of the object noun)."""
        return len(self.deliverables) >= 2

    def distributive(self, phrase: str) -> bool:
        """Whether ``phrase`` belongs to a per-unit sentence.

        The phrase is looked up verbatim; a phrase the decomposer reassembled ("3 tasks" from "3-5
        crucial tasks") belongs to a per-unit sentence that holds each of its words.
        """
        phrase = phrase.strip()
        if not phrase or not self.per_unit:
            return False
        pos = self.text.find(phrase)
        if pos >= 0:
            sentences = [(a, b) for a, b in self.per_unit if a <= pos < b]
        else:
            words = [re.compile(r"(?<!\w)" + re.escape(w) + r"(?!\w)", re.I) for w in _TOKEN.findall(phrase)]
            sentences = [(a, b) for a, b in self.per_unit if words and all(w.search(self.text[a:b]) for w in words)]
        if not sentences:
            return False
        # "2 rows ..., and 3 columns for each group": the marker reaches "columns" but not the coordinated
        # "rows"; a count word the parse does not show is taken as reached (a bound, never a wrong verdict)
        head = _TOKEN.findall(phrase)[-1].lower()
        spots = [at for w, at in self.reach if w == head and any(a <= at < b for a, b in sentences)]
        located = [
            m.start()
            for a, b in sentences
            for m in re.finditer(r"(?<!\w)" + re.escape(head) + r"(?!\w)", self.text[a:b], re.I)
        ]
        return bool(spots) or not located

    def enumeration_marker(self, phrase: str) -> bool:
        """Whether ``phrase`` is a bare number the request uses only to number its lines ("2. Call to adventure")."""
        phrase = phrase.strip()
        if not phrase.isdigit():
            return False
        marker = re.compile(r"(?m)^[ \t]*" + phrase + r"[.)][ \t]+\S")
        anywhere = re.compile(r"(?<![\w.])" + phrase + r"(?![\w])")
        return marker.search(self.text) is not None and len(anywhere.findall(self.text)) == len(
            marker.findall(self.text)
        )


_lock = threading.Lock()
#: Holds as many requests as the decomposition cache (QUERY_CACHE_SIZE): the scope is read for every answer to a known
#: request, and a smaller cache (it held 256) read it again for each answer once more requests were in rotation.
_cache: OrderedDict[str, RequestScope] = OrderedDict()


def request_scope(query: str) -> RequestScope:
    """The scope reading of a request (read once per distinct query while the decomposition cache would hold it)."""
    with _lock:
        hit = _cache.get(query)
        if hit is not None:
            _cache.move_to_end(query)
            return hit
    from faithguard.nlp import parse

    text = query[:_MAX_QUERY]
    doc = parse(text)  # the decomposer's parse of the same text: a cache hit
    # pasted material (an article, a table, a role line) asks for nothing: its matches are skipped
    material = [(s.start, s.end) for s in content_spans(text, doc)]
    role = {s["id"]: s["role"] for s in load_specs()}
    objects: set[str] = set()
    spans: set[tuple[int, int]] = set()
    reach: set[tuple[str, int]] = set()
    for spec_id, toks in matches(doc):
        at = doc[toks[0]].idx
        if any(a <= at < b for a, b in material):
            continue
        if role[spec_id] == "deliverable":
            verb, obj = doc[toks[0]], doc[toks[-1]]
            if verb.lemma_.lower() in TASK_VERBS:
                objects.add(obj.lemma_.lower())
        else:
            marker = doc[toks[0]]
            sent = marker.sent
            spans.add((sent.start_char, sent.end_char))
            reach.update((t.lower_, t.idx) for t in sent if _uncoordinated(marker, t))
    scope = RequestScope(frozenset(objects), tuple(sorted(spans)), text, frozenset(reach))
    with _lock:
        _cache[query] = scope
        while len(_cache) > QUERY_CACHE_SIZE:
            _cache.popitem(last=False)
    return scope


def _uncoordinated(a: Any, b: Any) -> bool:
    """Whether the dependency path between tokens ``a`` and ``b`` crosses no coordination ('conj') edge."""
    up_a = [a, *a.ancestors]
    ids_a = {t.i for t in up_a}
    path_b = []
    for t in [b, *b.ancestors]:
        if t.i in ids_a:
            lca = t
            break
        path_b.append(t)
    else:
        return False
    path_a = [t for t in up_a[: [t.i for t in up_a].index(lca.i)]]
    return all(t.dep_ != "conj" for t in path_a + path_b)


def bound_verdict(found: int, want: int, rel: str) -> bool | None:
    """A whole-response count read as a bound on a part: True/False when it decides, None when not.

    ``found`` is the whole response's count, the part's count is at most ``found``. ``rel`` is one of
    '==', '>=', '<=', '>', '<' (what the request asks of the part).
    """
    if rel in ("<=", "<"):
        return True if (found <= want if rel == "<=" else found < want) else None
    if rel in (">=", "=="):
        return False if found < want else None
    if rel == ">":
        return False if found <= want else None
    return None


def fixture_problem(path: str, spec_id: str, fixture: Any, positive: bool) -> str | None:
    """One fixture of ``data/scope_patterns.json`` (run by ``tests/test_spec_fixtures.py``)."""
    from faithguard.nlp import parse

    found = spec_id in {k for k, _ in matches(parse(str(fixture)))}
    return None if found is positive else f"{spec_id} {'missed' if positive else 'matched'} {fixture!r}"
