"""A numbered item with no whole named: "Answer question 7", "Describe figure 3" (round 7).

Split from ``references.py`` (the pattern pass): the number labels one item of a numbered set the user holds, so
some content must come with it. Fixtures: ``tests/inputs/test_numbered_items.py``.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import TYPE_CHECKING

from faithguard.inputs.content_kinds import known_noun, lexname_test
from faithguard.inputs.discourse import part_of_creation
from faithguard.inputs.discourse import sentence_of as _sentence_of
from faithguard.inputs.vocab import GAP_STOP, kind_of

if TYPE_CHECKING:
    from faithguard.inputs.references import Reference

__all__ = ["GIVEN_AFTER", "numbered_item_refs", "numbered_part_refs"]

#: The reference's own content right after its noun, as an apposition: a quotation (after an optional colon or comma)
#: that closes, or a run of at least three numbers ("the numbers 4, 8, 15 and 16"). Fixtures:
#: tests/inputs/test_apposition.py (round 7).
GIVEN_AFTER = re.compile(
    # possessive: the blanks before the colon are read once, not split with those after it (issue 16)
    r"^\s*+[:,]?\s*(?:[\"“][^\"”\n]{2,}[\"”]|['‘][^'’\n]{2,}['’](?=[\s.,;:!?)]|$))"
    r"|^\s+-?\d+(?:[.,]\d+)?(?:\s*(?:,|;|and|,\s*and)\s*-?\d+(?:[.,]\d+)?){2,}"
)

#: A numbered item with no whole named: "question 7", "problems 3 and 4", "exercise 2b". Fixtures:
#: tests/inputs/test_numbered_items.py (round 7).
_NUMBERED_ITEM_RE = re.compile(
    r"\b(?P<part>[A-Za-z]+)[ \t]+(?P<num>\d{1,2})[a-z]?\b(?![.,:/]\d|[ \t]*[:%])"
    r"(?:[ \t]*(?:and|&|,|-|–|to|through)[ \t]*\d{1,2}[a-z]?\b)?"
)


def numbered_item_refs(masked: str, text: str, sents: list[tuple[int, int]], source: str) -> list[Reference]:
    """'Answer question 7', 'Solve problems 3 and 4': a number after a noun naming a piece of text (the kind
    table, or the 'part' lexname test: question, problem, line, figure, page) labels one item of a numbered set
    the user holds, so some content must come with it (any content: the set may be pasted whole). Not when a whole
    follows by name ("of the Millennium Prize problems"), the number names a kind ("chapter 11 bankruptcy"), a
    capitalised name elsewhere in the sentence may be the work ("In Hamlet, what happens in act 3?"), the noun is a
    position ("index 3"), the word stands where the request's verb stands ("Please list 3 ..."), or the request
    writes the text (the parts of a text it asks for, as for ordinals)."""
    from faithguard.inputs.mention_context import is_capitalised as _is_capitalised
    from faithguard.inputs.references import Reference

    out: list[Reference] = []
    for m in _NUMBERED_ITEM_RE.finditer(masked):
        part = m.group("part")
        if part.lower() in GAP_STOP or not (kind_of(part) is not None or lexname_test("part", part)):
            continue
        if GIVEN_AFTER.match(masked[m.end("part") : m.end("part") + 100]):
            continue  # "the numbers 4, 8, 15 and 16": a list of values, not a label
        after = masked[m.end() : m.end() + 60]
        if re.match(r"^\s*(?:of|from|in|on)\s+(?:the\s+)?[A-Z]", after):
            continue  # "problem 1 of the Millennium Prize problems": a named work's item
        nxt = re.match(r"^[ \t]+([A-Za-z]+)", after)
        if nxt is not None and nxt.group(1).lower() not in GAP_STOP and known_noun(nxt.group(1)):
            continue  # "chapter 11 bankruptcy": a name for a kind in the world
        sent0 = _sentence_of(sents, m.start())[0]
        if _VERB_SLOT.search(masked[sent0 : m.start()]):
            continue  # "Please list 3 niche groups": the word opens the request, a verb with its count
        if _measure_first(part):
            continue  # "index 3 and 6": a position on a scale, not an item the user holds
        if _one_of_a_plural(part, m.group()):
            continue  # "Windows 11": a plural with one number names a thing ("problems 3 and 4" labels two)
        sent = _sentence_of(sents, m.start())
        named = [
            w
            for w in re.finditer(r"[A-Z][\w'’-]*", masked[sent[0] : sent[1]])
            if sent[0] + w.start() != m.start() and _is_capitalised(w.group(), sent[0] + w.start(), sent[0], text)
        ]
        if named:
            continue
        kind = kind_of(part) or "document"
        if part_of_creation(kind, part, masked[: m.start()]):
            continue  # "Write an essay with 3 paragraphs and bold paragraph 2": a part of the new text
        ref = Reference(m.group(), "document", 1, m.start(), m.end(), sent, source, True, None, m.start())
        out.append(ref)
    return out


#: Where a request's verb stands: the sentence's start, or after "please" or "can/could/would you".
_VERB_SLOT = re.compile(r"^\s*(?:(?:please|pls|kindly)\s+)?$|\b(?:please|(?:can|could|would|will)\s+you)\s+$", re.I)
#: WordNet files whose first sense makes a numbered noun a position or amount, not an item ("index 3", "level 5").
_MEASURE_FILES = frozenset({"noun.relation", "noun.attribute", "noun.quantity", "noun.time", "noun.location"})


def _measure_first(noun: str) -> bool:
    from faithguard.lexical.wordnet_mmap import get_wordnet

    wn = get_wordnet()
    senses = wn.senses(noun.lower())
    first = wn.synset(senses[0]) if senses else None
    return first is not None and first.lexname in _MEASURE_FILES


#: A numbered part of a determined whole: "clause 4 of the lease", "section 5.2 of my thesis", "page iv of this".
_NUMBERED_PART_RE = re.compile(
    r"\b(?P<part>[A-Za-z]+)\s+(?P<num>\d{1,3}(?:\.\d{1,3})*[a-z]?|[ivxlc]{1,6})\s+(?:of|from|in|on)\s+"
    r"(?P<det>the|this|that|my|our|your)\s+(?P<gap>(?:[\w'’-]+\s+){0,2}?)(?P<noun>[\w'’-]+)\b"
)


def numbered_part_refs(masked: str, text: str, sents: list[tuple[int, int]], source: str) -> list[Reference]:
    """'clause 4 of the lease': the numbering presupposes a specific text, so the whole is a reference.

    The part noun must name a piece of text in WordNet (a 'part' lexname test: clause, page, section, line),
    not of an event or place ("day 3 of the trip", "room 4 of the house"); a capitalised whole is a named work.
    """
    from faithguard.inputs.content_kinds import classify_noun
    from faithguard.inputs.mention_context import is_capitalised as _is_capitalised
    from faithguard.inputs.references import Reference

    out: list[Reference] = []
    for m in _NUMBERED_PART_RE.finditer(masked):
        part, noun = m.group("part"), m.group("noun")
        if not (kind_of(part) is not None or lexname_test("part", part)):
            continue
        sent = _sentence_of(sents, m.start())
        if noun[:1].isupper() or any(_is_capitalised(w, m.start(), sent[0], text) for w in m.group("gap").split()):
            continue
        if noun.lower() in GAP_STOP or not noun.isalpha():
            continue
        cls = classify_noun(noun)
        kind = "image" if cls is not None and not cls.inline else "document"
        ref = Reference(m.group(), kind, 1, m.start(), m.end(), sent, source, True, None, m.start("noun"))
        out.append(replace(ref, part_number=m.group("num")))
    return out


def _one_of_a_plural(part: str, found: str) -> bool:
    """A plural form that WordNet lists as a word of its own ("windows": the operating system) with a single number
    after it ("Windows 11"): a name with its version, not the label of one item. A plain plural still labels items
    ("do problems 7", "answer questions 5": reviewer 97). Fixtures: tests/engine/test_identifiers.py."""
    from faithguard.lexical.wordnet_mmap import get_wordnet

    low = part.lower()
    if not low.endswith("s") or len(re.findall(r"\d+", found)) != 1:
        return False
    wn = get_wordnet()
    bases = wn.base_forms(low) if wn.available else []
    return low in bases and any(b != low for b in bases)
