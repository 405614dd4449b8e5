"""Requests for an answer in a named language, read by syntax (``data/language_request.json``).

"Answer in Spanish: ...", "Explain photosynthesis in French", "Translate 'good morning' into German",
"In Italian, please." Each spec is a spaCy ``Matcher`` or ``DependencyMatcher`` pattern with a node named
``lang`` (the language name) and, for verb patterns, ``verb``; the name is resolved to an ISO 639 code through
``data/language_names.json``, derived from spaCy's own language classes (:func:`derive_language_names`),
never a typed list. Every spec carries positive and negative fixtures written for it; one parametrised test
(``tests/engine/test_language_request.py``) runs them all.
"""

from __future__ import annotations

import json
import re
import threading
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any

from faithguard.specfiles import read_specs

__all__ = [
    "LanguageAsk",
    "LanguageSpec",
    "derive_language_names",
    "language_code",
    "load_specs",
    "requested_languages",
]

_KINDS = frozenset({"token", "dependency"})
#: A quoted stretch: straight or typographic quotes, single or double (Unicode punctuation classes Pi/Pf).
_QUOTED = re.compile(r"([\"'\u2018\u201c])[^\"'\u2018\u2019\u201c\u201d]+[\"'\u2019\u201d]")


@dataclass(frozen=True)
class LanguageSpec:
    """One declarative pattern with its fixtures."""

    name: str
    kind: str
    why: str
    translation: bool
    patterns: tuple[Any, ...]
    lang_node: tuple[int, ...]  # per pattern: position of the ``lang`` node (token index for token patterns)
    verb_node: tuple[int | None, ...]
    reject_verb_child: frozenset[str]  # a verb with a child of one of these (lower) forms is not an ask
    subjects: frozenset[str]  # a verb with a subject must have one of these (lower) forms ("you"), else a statement
    check_modifier: bool  # whether a name modifying a following noun ("Spanish history") is rejected
    positive: tuple[tuple[str, str], ...]  # (text, ISO code that must be read)
    negative: tuple[str, ...]  # texts that must not yield any ask from this spec
    #: a subject outside ``subjects`` may be a noun WordNet files mostly (share >= SUBJECT_SHARE) under this
    #: lexicographer file (10, noun.communication: "the poem", "your answer")
    subject_lexfile: int | None = None


@dataclass(frozen=True)
class LanguageAsk:
    """A request for output in a language: the code, the spec, and character spans in the request."""

    code: str
    name: str
    spec: str
    start: int  # first character of the ask (the verb, or the language phrase)
    end: int  # end of the language name
    name_start: int
    translation: bool
    #: the material a translation hands over: quoted text between the verb and 'into', or what follows a colon
    sources: tuple[tuple[int, int], ...]


def _node_index(pattern: list[dict[str, Any]], kind: str, name: str) -> int | None:
    for i, node in enumerate(pattern):
        ident = node.get("RIGHT_ID") if kind == "dependency" else node.get("_node")
        if ident == name:
            return i
    return None


def _strip(pattern: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    """A token pattern without the spec's own ``_node`` labels (spaCy rejects unknown keys)."""
    if kind == "dependency":
        return pattern
    return [{k: v for k, v in node.items() if k != "_node"} for node in pattern]


@lru_cache(maxsize=1)
def load_specs() -> tuple[LanguageSpec, ...]:
    """The specs of ``data/language_request.json`` (validated: known kind, a ``lang`` node, both polarities)."""
    out: list[LanguageSpec] = []
    for item in read_specs("faithguard.engine", "data/language_request.json"):
        kind = str(item["kind"])
        if kind not in _KINDS:
            raise ValueError(f"language spec {item['id']!r}: unknown kind {kind!r}")
        langs: list[int] = []
        verbs: list[int | None] = []
        for pat in item["patterns"]:
            lang = _node_index(pat, kind, "lang")
            if lang is None:
                raise ValueError(f"language spec {item['id']!r}: a pattern has no 'lang' node")
            langs.append(lang)
            verbs.append(_node_index(pat, kind, "verb"))
        out.append(
            LanguageSpec(
                name=str(item["id"]),
                kind=kind,
                why=str(item["why"]),
                translation=bool(item.get("translation", False)),
                patterns=tuple(_strip(p, kind) for p in item["patterns"]),
                lang_node=tuple(langs),
                verb_node=tuple(verbs),
                reject_verb_child=frozenset(str(w) for w in item.get("reject_verb_child", ())),
                subjects=frozenset(str(w) for w in item.get("subjects", ())),
                subject_lexfile=int(item["subject_lexfile"]) if "subject_lexfile" in item else None,
                check_modifier=bool(item.get("check_modifier", True)),
                positive=tuple((str(f["text"]), str(f["language"])) for f in item["positive"]),
                negative=tuple(str(t) for t in item["negative"]),
            )
        )
    return tuple(out)


@lru_cache(maxsize=1)
def _names() -> dict[str, str]:
    raw = json.loads(
        resources.files("faithguard.engine").joinpath("data/language_names.json").read_text(encoding="utf-8")
    )
    return {str(k): str(v) for k, v in raw["names"].items()}


def language_code(name: str) -> str | None:
    """The ISO 639 code of an English language name ("Spanish" -> "es"), or None."""
    return _names().get(" ".join(name.lower().split()))


def derive_language_names() -> dict[str, str]:
    """Language name (lower case) -> ISO 639 code, from the language classes spaCy ships (``spacy.lang.*``).

    Each ``spacy.lang.<code>`` package defines a ``Language`` subclass named after the language in English
    (``spacy.lang.es.Spanish``, ``spacy.lang.ht.HaitianCreole``); the class name split at capitals is the name.
    spaCy's multi-language class (``xx``) names no language and is left out. Slow (imports ~80 modules): run
    at build time; ``tests/engine/test_language_request.py`` rebuilds the shipped table and compares.
    """
    import importlib
    import pkgutil

    import spacy.lang
    from spacy.language import Language

    out: dict[str, str] = {}
    for info in pkgutil.iter_modules(spacy.lang.__path__):
        if not info.ispkg or info.name == "xx":
            continue
        try:
            module = importlib.import_module(f"spacy.lang.{info.name}")
        except ImportError:  # a language whose optional tokenizer dependency is missing still has its class
            continue
        for value in vars(module).values():
            if (
                isinstance(value, type)
                and issubclass(value, Language)
                and value.__module__ == module.__name__
                and getattr(value, "lang", None) == info.name
            ):
                name = " ".join(re.findall(r"[A-Z][a-z]+", value.__name__)).lower()
                if name:
                    out[name] = info.name
    return dict(sorted(out.items()))


_lock = threading.Lock()
_matchers: dict[int, tuple[Any, Any, dict[int, tuple[LanguageSpec, int]]]] = {}


def _matcher(vocab: Any) -> tuple[Any, Any, dict[int, tuple[LanguageSpec, int]]]:
    """One token Matcher and one DependencyMatcher per vocabulary, with every spec's patterns."""
    key = id(vocab)
    with _lock:
        cached = _matchers.get(key)
        if cached is not None:
            return cached
        from spacy.matcher import Matcher

        from faithguard.nlp_tree import TreeMatcher

        token, dep = Matcher(vocab), TreeMatcher(vocab)
        labels: dict[int, tuple[LanguageSpec, int]] = {}
        for spec in load_specs():
            for i, pat in enumerate(spec.patterns):
                label = f"lang:{spec.name}#{i}"
                (token if spec.kind == "token" else dep).add(label, [pat])
                labels[vocab.strings[label]] = (spec, i)
        _matchers[key] = (token, dep, labels)
        return _matchers[key]


def _modifies_following(tok: Any) -> bool:
    """'Spanish history', 'French Guiana': the name modifies a noun after it, so it is not a language ask."""
    return tok.dep_ in ("amod", "compound") and tok.head.i > tok.i


#: Share of a subject noun's tagged WordNet uses that must fall in the spec's ``subject_lexfile`` ("poem", "answer",
#: "email" are mostly communication; "meeting", "conference" are not). Fixtures: the text_is_in_language spec's.
SUBJECT_SHARE = 0.5


def _allowed_subject(spec: LanguageSpec, subject: Any) -> bool:
    if subject.lower_ in spec.subjects:
        return True
    if spec.subject_lexfile is None or subject.pos_ != "NOUN":
        return False
    from faithguard.lexical.senses import lexfile_share

    return lexfile_share(subject.lemma_.lower(), spec.subject_lexfile) >= SUBJECT_SHARE


def _ask(doc: Any, spec: LanguageSpec, lang_i: int, verb_i: int | None, first_i: int) -> LanguageAsk | None:
    lang = doc[lang_i]
    code = language_code(lang.text)
    if code is None or (spec.check_modifier and _modifies_following(lang)):
        return None
    if verb_i is not None:
        kids = list(doc[verb_i].children)
        if any(c.lower_ in spec.reject_verb_child for c in kids):
            return None
        if spec.subjects and any(c.dep_ == "nsubj" and not _allowed_subject(spec, c) for c in kids):
            return None
    sources: list[tuple[int, int]] = []
    if spec.translation and verb_i is not None:
        # quoted material between the verb and 'into' ("translate 'good morning' into"); a description of it
        # ("the following sentence") stays. After a colon following the name, the rest of the sentence.
        lo, hi = doc[verb_i].idx + len(doc[verb_i]), doc[lang_i - 1].idx
        sources.extend((lo + m.start(), lo + m.end()) for m in _QUOTED.finditer(doc.text[lo:hi]))
        after = doc[lang_i + 1] if lang_i + 1 < len(doc) else None
        if after is not None and after.text == ":":
            sources.append((after.idx, lang.sent.end_char))
    start = doc[first_i].idx
    return LanguageAsk(
        code=code,
        name=lang.text,
        spec=spec.name,
        start=start,
        end=lang.idx + len(lang),
        name_start=lang.idx,
        translation=spec.translation,
        sources=tuple(sources),
    )


def requested_languages(doc: Any) -> list[LanguageAsk]:
    """Every request for output in a named language in a parsed text (one per language code, first wins)."""
    from faithguard.nlp import tree_matches

    token, dep, labels = _matcher(doc.vocab)
    found: list[LanguageAsk] = []
    for match_id, start, end in token(doc):
        spec, i = labels[match_id]
        # nodes may be optional or repeated, so the name is found in the span: the last token that names a language
        names = [j for j in range(start, end) if doc[j].is_title and language_code(doc[j].text) is not None]
        if not names:
            continue
        lang_i = names[-1]
        verb_i = start if spec.verb_node[i] == 0 else None
        ask = _ask(doc, spec, lang_i, verb_i, start)
        if ask is not None:
            found.append(ask)
    for match_id, token_ids in tree_matches(dep, doc):
        spec, i = labels[match_id]
        verb_node = spec.verb_node[i]
        verb_i = token_ids[verb_node] if verb_node is not None else None
        ask = _ask(doc, spec, token_ids[spec.lang_node[i]], verb_i, min(token_ids))
        if ask is not None:
            found.append(ask)
    found.sort(key=lambda a: (a.start, not a.translation))
    seen: set[str] = set()
    out: list[LanguageAsk] = []
    for ask in found:
        if ask.code not in seen:
            seen.add(ask.code)
            out.append(ask)
    return out


def fixture_problem(path: str, spec_id: str, fixture: Any, positive: bool) -> str | None:
    """One fixture of ``data/language_request.json``: a positive one asks for its ``language``, a negative
    one asks for none through this spec (run by ``tests/test_spec_fixtures.py``)."""
    from faithguard.nlp import parse

    text = str(fixture["text"]) if positive else str(fixture)
    asks = [a for a in requested_languages(parse(text)) if a.spec == spec_id]
    if positive:
        want = str(fixture["language"])
        return None if any(a.code == want for a in asks) else f"{spec_id} did not read {want!r} in {text!r}"
    return None if not asks else f"{spec_id} read {[a.code for a in asks]} in {text!r}"
