"""Detect whole-response creative-writing constraints (lines, stanzas, paragraphs, rhyme, refrain).

Per-unit constraints (per line, stanza, sentence...) are found by ``data/per_unit.json``.
"""

from __future__ import annotations

import re
from typing import Any

from faithguard.verifiers.detect_counts import N, count_unit, find_counts
from faithguard.verifiers.spec import VerifiableSpec, make_spec, number, quoted_items, sentence_at

__all__ = ["detect_creative"]

_EACH_LINE = r"(?:each|every|all(?:\s+the)?|all\s+of\s+the)\s+(?:single\s+)?lines?"
_EACH_WORD = r"(?:each|every|all(?:\s+the)?|all\s+of\s+the)\s+(?:single\s+)?words?"
_MODAL = r"(?:\s+(?:must|should|will|has\s+to|have\s+to|needs?\s+to|is\s+to|are\s+to))?(?:\s+(?:all|each))?"
_LETTER = r"(?:the\s+)?(?:letter\s+)?[\"'“‘]?(?P<l>[A-Za-z])[\"'”’]?(?![\w'])"


#: Units counted here (declared: warm-up compiles their count patterns).
_TIMES = count_unit(r"times")
_LINES = count_unit(r"lines?")
_STANZAS = count_unit(r"stanzas?|verses?")
_PARAGRAPHS = count_unit(r"paragraphs?")


def _counted(
    text: str, unit: str, key: str, verifier: str, *, exclude_tail: str | None = None, exclude_head: str | None = None
) -> list[VerifiableSpec]:
    out: list[VerifiableSpec] = []
    for c in find_counts(text, unit):
        tail = text[c.end : c.end + 40]
        head = text[max(0, c.start - 40) : c.start]
        if exclude_tail and re.match(exclude_tail, tail):
            continue
        if exclude_head and re.search(exclude_head, head):
            continue
        relation = c.relation
        if re.match(r"(?i)(?:a|an|the)\s+\S+\s*-\s*\w", text[c.start : c.end]):
            relation = "exactly"  # 'a 14-line sonnet' states the exact size
        out.append(make_spec(verifier, {"relation": relation, key: c.n}, sentence_at(text, c.start, c.end)))
    if out:
        return out
    m = re.search(rf"(?i)\b(?:a|an|the|in|of|with|into|has|have|write|compose)\s+{N}\s*-?\s*(?:{unit})\b", text)
    if m:
        tail = text[m.end() : m.end() + 40]
        head = text[max(0, m.start() - 40) : m.start()]
        if (exclude_tail and re.match(exclude_tail, tail)) or (exclude_head and re.search(exclude_head, head)):
            return out
        n = number(m.group("n"))
        if n is not None and n > 0:
            out.append(make_spec(verifier, {"relation": "exactly", key: n}, sentence_at(text, m.start())))
    return out


def _rhyme(text: str) -> list[VerifiableSpec]:
    m = re.search(r"(?i)\brhym\w*", text)
    if not m:
        return []
    sent = sentence_at(text, m.start())
    sm = re.search(r"\b((?:[A-H]\s?){2,12})\b", sent)
    if sm and len(set(sm.group(1).replace(" ", ""))) < len(sm.group(1).replace(" ", "")):
        return [make_spec("creative:rhyme_scheme", {"scheme": sm.group(1).replace(" ", "")}, sent)]
    if re.search(r"(?i)\b(?:rhym\w*\s+couplets?|couplets?\s+(?:that\s+)?rhym\w*)", sent):
        return [make_spec("creative:rhyme_scheme", {"scheme": "AABB"}, sent)]
    if re.search(r"(?i)\balternat\w*\s+rhym\w*|rhym\w*\s+alternat\w*", sent):
        return [make_spec("creative:rhyme_scheme", {"scheme": "ABAB"}, sent)]
    return []


def _refrain(text: str) -> list[VerifiableSpec]:
    m = re.search(
        r"(?i)\b(?:refrain(?!\s+from)|repeated\s+line|recurring\s+line|line\s+that\s+(?:is\s+)?repeat\w*)\b", text
    )
    if not m:
        return []
    sent = sentence_at(text, m.start())
    params: dict[str, object] = {"min_repeats": 2}
    counts = find_counts(sent, _TIMES)
    if counts:
        params["min_repeats"] = max(2, counts[0].n)
    quoted = quoted_items(text[m.start() : m.start() + 200])
    if quoted and len(quoted[0].split()) >= 2:
        params["line"] = quoted[0]
    return [make_spec("creative:refrain", params, sent)]


def detect_creative(text: str, *, has_paragraph_spec: bool = False) -> list[VerifiableSpec]:
    """All creative-writing constraints found in ``text``."""
    specs: list[VerifiableSpec] = []
    per_stanza = r"(?i)\s*(?:per|in\s+each|each|for\s+each|in\s+every)\s+(?:stanza|verse)"
    lines = _counted(
        text,
        _LINES,
        "num_lines",
        "creative:lines",
        exclude_tail=per_stanza,
        exclude_head=r"(?i)(?:first|last|final|opening|closing)\s*$",
    )
    specs.extend(lines)
    if not re.search(r"\*\*\*|(?i:markdown\s+divider)", text):
        specs.extend(_counted(text, _STANZAS, "num_stanzas", "creative:stanzas"))
    if not has_paragraph_spec:
        specs.extend(
            _counted(
                text,
                _PARAGRAPHS,
                "num_paragraphs",
                "creative:paragraphs",
                exclude_head=r"(?i)(?:first|last|final|each|every)\s*$",
            )
        )
    specs.extend(_rhyme(text))
    specs.extend(_refrain(text))
    if not lines:
        specs.extend(_verse_form(text))
    return specs


#: Words that trigger the parse for a named verse form: any noun may be one, so the gate is the creation request.
_WRITE_GATE = re.compile(r"(?i)\b(?:a|an|one)\s+\S")


def _verse_form(text: str) -> list[VerifiableSpec]:
    """One verse form the request asks to be written ("Write a limerick about ...") whose WordNet gloss gives its
    size in lines: the answer must have that many (an explicit line count, found first, wins). Read from the
    shared parse: a singular noun, object of a verb WordNet files as creation, with no count above one; two forms
    in one request, or none known, give nothing."""
    if not _WRITE_GATE.search(text):
        return []
    from faithguard.errors import ConfigError
    from faithguard.lexical import wordnet, wordnet_verbs
    from faithguard.nlp import parse

    try:
        doc = parse(text)
    except ConfigError:
        return []
    found: list[tuple[str, int, int]] = []
    last_order: list[int] = []  # computed once, on first need: one pass over the sentences, not one per verb
    for tok in doc:
        obj = tok.head if tok.dep_ == "conj" else tok  # "a haiku and a limerick": both are written
        if tok.tag_ != "NN" or obj.dep_ != "dobj" or obj.head.pos_ != "VERB":
            continue
        if any(c.dep_ == "nummod" for c in tok.children) or any(c.dep_ == "compound" for c in tok.children):
            continue  # "two haikus", "a haiku sequence" is caught by the tag; "a sonnet-style poem" by compound
        if not any(c.dep_ == "det" and c.lower_ in ("a", "an", "one") for c in tok.children):
            continue  # "this sonnet", "the sonnet above": a text that exists, not one to write
        verb = obj.head
        if not wordnet_verbs.creates(verb.lemma_) or _negated(verb):
            continue
        if not last_order:
            last_order.append(_last_order(doc))
        if _more_asked(verb, last_order[0]):
            continue
        n = wordnet.verse_lines(tok.lemma_)
        if n is not None:
            found.append((tok.lemma_, n, tok.idx))
            if len(found) > 1:
                return []  # two forms: which one the line count belongs to is not known
    if len(found) != 1:
        return []
    form, n, at = found[0]
    return [make_spec("creative:verse_form", {"form": form, "num_lines": n}, sentence_at(text, at))]


def _negated(verb: Any) -> bool:
    """The writing is ruled out: "Don't write a sonnet" (a negation on the verb or on a verb above it)."""
    node = verb
    for _ in range(4):
        if any(c.dep_ == "neg" for c in node.children):
            return True
        if node.head.i == node.i:
            return False
        node = node.head
    return False


def _produces(verb: Any) -> bool:
    """A verb WordNet files as creation or communication: writing or telling something more."""
    from faithguard.lexical import wordnet_verbs

    return verb.pos_ == "VERB" and bool(wordnet_verbs.creates(verb.lemma_) or wordnet_verbs.communicates(verb.lemma_))


def _last_order(doc: Any) -> int:
    """Start of the last sentence of ``doc`` that orders more writing or telling ("Then translate it.": a bare verb
    with no subject, :func:`_produces`), -1 when none does."""
    last = -1
    for sent in doc.sents:
        r = sent.root
        if r.tag_ == "VB" and not any(c.dep_.startswith("nsubj") for c in r.children) and _produces(r):
            last = sent.start
    return last


def _more_asked(verb: Any, last_order: int) -> bool:
    """The answer holds more than the poem: another verb of writing or telling (WordNet's creation and
    communication verbs) joined to this one ("Write a sonnet and then explain its rhyme scheme") or ordering a
    later sentence ("Then translate it.", ``last_order`` from :func:`_last_order`); "Keep it clean" asks nothing
    more."""
    if any(c.dep_ in ("conj", "dep", "advcl") and _produces(c) for c in verb.children):
        return True  # "and then explain ...", "..., then translate it" (the small parser's dep)
    return bool(last_order > verb.sent.start)
