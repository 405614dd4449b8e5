"""Find what a request refers to: definite mentions of content, ordinals, counts, 'the following'."""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, replace
from functools import lru_cache

from faithguard.inputs.content_kinds import ContentClass, classify_noun, lexname_test
from faithguard.inputs.discourse import POSSESSIVE
from faithguard.inputs.discourse import sentence_of as _sentence_of
from faithguard.inputs.discourse import sentences as _sentences
from faithguard.inputs.mention_context import (
    TITLE_AFTER,
    has_antecedent,
    is_capitalised,
    non_reference,
    sentence_prefix,
)
from faithguard.inputs.numbered import GIVEN_AFTER, numbered_item_refs, numbered_part_refs
from faithguard.inputs.supply import is_instruction
from faithguard.inputs.vocab import (
    COMPARE_RE,
    CONTENT_NOUNS,
    GAP_STOP,
    NUMBER_WORDS,
    ORDINAL_WORDS,
    STRONG_KINDS,
    group_of,
    kind_of,
)
from faithguard.inputs.word_tests import group_modifier, imperative, ordinal_item, request_object, wordnet_compound

__all__ = ["Reference", "find_references"]


@dataclass(frozen=True)
class Reference:
    """One mention of content the request relies on."""

    text: str
    kind: str
    expected: int
    start: int
    end: int
    sentence: tuple[int, int]
    source: str = "query"
    strong: bool = False  # an explicit supply marker: attached, below, provided, Document 3...
    index: int | None = None  # Document 3 -> 3
    noun_start: int = 0
    #: a person who stands for the text they produced ("the witness", "the narrator"), in a sentence that compares
    #: nothing: beside a text named in the same sentence, that text (inputs/missing._needs)
    speaker: bool = False
    #: a part or aspect of the text named right after it ("the spelling of this line", "the tone of the email"):
    #: beside that text it counts no item of its own (inputs/missing._needs)
    within: bool = False
    #: the number of a numbered part of the whole ("clause 14.2 of the contract" -> "14.2"; inputs/parts.py)
    part_number: str | None = None


_NOUN_ALT = "|".join(sorted((re.escape(f) for f in CONTENT_NOUNS), key=len, reverse=True))
_DET = r"the|this|these|my|our|his|her|their|both|all"
_STOP_ALT = "|".join(sorted(GAP_STOP, key=len, reverse=True))
_REF_RE = re.compile(
    rf"\b(?P<det>{_DET})\s+(?P<gap>(?:(?!(?:{_STOP_ALT})\b)[\w'’-]+\s+){{0,3}}?)(?P<noun>{_NOUN_ALT})(?![\w-])(?!\s+(?:{_NOUN_ALT})(?![\w-]))",
    re.IGNORECASE,
)
#: "the above", "the following" as the noun phrase itself: punctuation or a preposition after it ("translate the
#: above into German"), never a noun ("the following week"). Fixtures: tests/inputs/test_generalize.py (bare_pointer).
_BARE_RE = re.compile(
    r"\b(?P<det>the|this)\s+(?P<noun>following|below|above)\b"
    r"(?=\s*(?:[:.?!,;]|\n|$|(?:into|in|to|as|for|with|using|and|so)\b))",
    re.I,
)
_LABEL_REF_RE = re.compile(
    r"\b(?P<noun>(?i:article|document|doc|report|paper|essay|email|passage|text|excerpt|source|transcript|"
    r"attachment|file|response|chapter))s?[ \t]*#?[ \t]*(?P<idx>\d{1,2}|[A-H])\b(?!\.\d|,\d{3}(?!\d))"
    r"(?:[ \t]*(?:and|&|,|-|–|to|through|thru)[ \t]*#?(?P<idx2>\d{1,2}|[A-H])\b)?"
)
_STRONG_GAP = frozenset(
    [
        "attached",
        "enclosed",
        "following",
        "given",
        "provided",
        "supplied",
        "uploaded",
        "pasted",
        "included",
        "aforementioned",
        "preceding",
        "foregoing",
        "above",
        "below",
        "accompanying",
        "shared",
        "forwarded",
        "linked",
        "above-mentioned",
        "retrieved",
        "next",
        "upcoming",
        "previous",
        "prior",
        "earlier",
    ]
)
_STRONG_AFTER = re.compile(
    r"^(?:'s|’s|')?\s*(?:below|above|attached|provided|supplied|enclosed|included|here|"
    r"(?:that\s+|which\s+)?(?:i|we)\s+(?:have\s+|'ve\s+|just\s+|had\s+)?(?:sent|shared|pasted|uploaded|attached|gave|"
    r"provided|included|forwarded|received|wrote|written|mentioned|linked|posted|put|added|got)|"
    r"(?:that\s+|which\s+)?you\s+(?:have\s+been\s+|were\s+|are\s+)?(?:given|provided|shown)|"
    r"(?:that\s+|which\s+)?the\s+user\s+(?:provides|gives|shares|sends|pastes|uploads|supplies)|"
    r"(?:supplied|provided|shown|given|listed|included)\s+(?:below|above|here)|from\s+(?:earlier|before|above)|"
    r"so\s+far|"
    # content still to come: "the article I'll paste next", "the file we're going to send"
    r"(?:that\s+|which\s+)?(?:i|we)(?:'ll|\s+will|\s+am\s+going\s+to|'m\s+going\s+to|'re\s+going\s+to|"
    r"'m\s+about\s+to)\s+(?:send|paste|share|upload|attach|post|forward|give|provide)|"
    # content the user is receiving right now: "the error message I'm getting"
    r"(?:that\s+|which\s+)?(?:i'm|i\s+am|we're|we\s+are|i\s+keep|i\s+kept)\s+(?:getting|seeing|receiving|running\s+into))\b",
    re.I,
)


#: "the original one", "the one from last year": a determiner and one or two modifiers before the pro-form "one", or
#: "the one" with a modifier after it, standing for a noun named nearby. ``link``: a word that sets it beside another
#: item ("better than the old one", "this draft or the earlier one", "merge it with the one I sent"); a comparing
#: sentence needs none. Fixtures: tests/inputs/test_proform_items.py.
_PROFORM_RE = re.compile(
    r"(?:\b(?P<link>than|with|against|or|and|versus|vs\.?)\s+)?\b(?:the|this|that|my|our|your)\s+"
    r"(?:(?:[\w'’-]+\s+){1,2}one\b|one\s+(?=(?:from|before|after|i|we|you|that|which|last|in)\b))"
    r"(?!\s*(?:of|another)\b)",
    re.I,
)


@lru_cache(maxsize=64)
def _proforms(sentence: str) -> tuple[tuple[int, int, bool], ...]:
    """(start, end, set beside by a linking word) of each pro-form "one" in a sentence (:data:`_PROFORM_RE`), read
    once per sentence: a run-on sentence of n phrases scanned once per phrase was quadratic (25k characters, ~900
    phrases: 2 s)."""
    return tuple((p.start(), p.end(), bool(p.group("link"))) for p in _PROFORM_RE.finditer(sentence))


@lru_cache(maxsize=64)
def _compares(sentence: str) -> bool:
    """Whether a sentence asks for a comparison (read once per sentence, not once per phrase in it)."""
    return COMPARE_RE.search(sentence) is not None


#: "according to the minutes", "based on the data", "From the table, ...", "Going by the chart, ...": the request
#: cites it as its source (unless it is a named work: "according to the Bible").
_CITED_BEFORE = re.compile(
    r"(?:\baccording\s+to|\bbased\s+on|\bas\s+(?:stated|described|shown|mentioned|given)\s+in|^\W*given|"
    r"^\W*using|^\W*(?:going\s+)?(?:from|by))\s+$",
    re.I,
)
_STRONG_BEFORE = re.compile(
    r"(?:here\s+is|here's|here\s+are|i(?:'ve|\s+have)\s+(?:attached|pasted|uploaded|included|shared|added)|"
    r"attaching|attached\s+is|see|i\s+(?:just\s+)?(?:uploaded|attached|pasted|included|shared|sent|added))\s+$",
    re.I,
)
#: "which of the", "which one of these": a choice among the items that follow. Fixtures: tests/inputs/
#: test_generalize.py (spec choice_among_items).
_WHICH_OF_BEFORE = re.compile(r"\bwhich\s+(?:one\s+|two\s+|three\s+)?of\s+$", re.I)
_NEG_AFTER = re.compile(r"^\s*(?:[\w'’]+\s+){0,3}?(?:never|not|n't|no\s+longer)\b", re.I)
#: An item label with an id at the start of a line: "Proposal A:", "## Option 2", "Candidate #3 -".
_ID_LABEL_RE = re.compile(
    r"(?m)^[ \t]*(?:[#*>\-]+[ \t]*)?(?P<name>[A-Z][a-z]+)[ \t]+#?(?P<idx>\d{1,2}|[A-H])\b"
    r"[ \t]*\**[ \t]*(?:[:：.)\-–]|$)"
)
_ID_REF_RE = re.compile(
    # "Section 4.2": a sub-numbered id is no "Section 4" (the fourth of a set): not read here ("documents 1,2" are
    # two; "essay 1,500 words" is a number)
    r"\b(?P<noun>[A-Z][a-z]+)s?[ \t]+#?(?P<idx>\d{1,2}|[A-H])\b(?!\.\d|,\d{3}(?!\d))"
    r"(?:[ \t]*(?:and|&|,|-|–|to|through|thru)[ \t]*#?(?P<idx2>\d{1,2}|[A-H])\b)?"
)
#: A noun phrase placed by the request itself: "the plan described below", "the scenario above." (a participle, then
#: below/above ending the phrase; "the river below the dam" is a place). Spec: tests/inputs/test_structure_specs.py
#: (placed_below_or_above).
# look-behind: a match starts at a run's first blank, so a run of blanks is scanned once (issue 16)
_PLACED_AFTER = re.compile(
    r"(?<!\s)\s+(?:[a-z]+(?:ed|en|wn)\s+)?(?:below|above)(?=\s*(?:[.,;:?!)\n]|$|and\b|or\b))", re.I
)
#: Participles that say an item was handed over, whatever it is ("the attached brochure").
_ATTACH_PARTICIPLES = frozenset(
    # handed over, or marked inside a text the request presupposes ("the highlighted sentence", "the listed options")
    {"attached", "enclosed", "uploaded", "pasted", "forwarded", "accompanying", "listed", "highlighted", "underlined"}
)
_DET_RE = re.compile(rf"\b(?P<det>{_DET})\s+", re.I)
_WORD_RE = re.compile(r"[\w'’-]+")
#: Words after which a noun phrase cannot continue (supply markers and verbs of showing).
_STRONG_GAP_ENDS = frozenset({"below", "above", "here", "attached", "shows", "show", "says", "say", "said"})


@lru_cache(maxsize=4096)
def _plural(noun: str) -> bool:
    """A plural form: it ends in -s, is not itself a WordNet noun ("witness", "thesis", "news", "analysis" are), and
    is not a kind the content table names by its plural ("notes", "slides", "lyrics": one text each)."""
    from faithguard.lexical.wordnet_mmap import get_wordnet

    n = noun.lower()
    if not n.endswith("s") or kind_of(n) == n:
        return False
    wn = get_wordnet()
    return not (wn.available and wn.lemma_synsets(n))


def find_references(text: str, masked: str, source: str = "query") -> list[Reference]:
    """References in ``masked`` (the request prose with supplied blocks blanked), before any parse filter."""
    refs: list[Reference] = []
    sents = _sentences(masked)
    for m in _REF_RE.finditer(masked):
        ref = _definite(m, masked, text, sents, source)
        if ref is not None:
            refs.append(ref)
    refs.extend(_wordnet_refs(masked, text, sents, source))
    for m in _BARE_RE.finditer(masked):
        sent = _sentence_of(sents, m.start())
        refs.append(Reference(m.group(), "content", 1, m.start(), m.end(), sent, source, True, None, m.start()))
    for m in _LABEL_REF_RE.finditer(masked):
        noun = m.group("noun")
        kind = kind_of(noun) or "document"
        after = masked[m.end() : m.end() + 60]
        if re.match(r"^\s*of\s+(?:the\s+)?[A-Z]", after) or _PART_OF_AFTER.match(after):
            continue  # "Article 5 of the Geneva Convention" names a work; "chapter 3 of the book" is a part
        idxs = [m.group("idx"), m.group("idx2")]
        nums = [int(i) if i.isdecimal() else ord(i) - 64 for i in idxs if i]
        if not nums or max(nums) > 50 or (not noun[0].isupper() and not m.group("idx").isdecimal()):
            continue
        sent = _sentence_of(sents, m.start())
        refs.append(Reference(m.group(), kind, max(nums), m.start(), m.end(), sent, source, True, max(nums), m.start()))
    refs.extend(_label_id_refs(text, masked, sents, source))
    refs.extend(numbered_part_refs(masked, text, sents, source))
    refs.extend(numbered_item_refs(masked, text, sents, source))
    refs.extend(_coordinated_ordinal_refs(masked, sents, source))
    return _mark_within(_drop_overlaps(refs), masked)


#: What may stand between a reference and the text it names a part or an aspect of: the part-whole prepositions "of"
#: and "from" ("the findings of the report", "the quotes from the article"). Not "in": tried, it also merged two
#: items a blind missing-content set needs (one positive of fresh #10 lost, aggregate only).
# look-behind: a match starts at a run's first blank, so a run of blanks is scanned once (issue 16)
_WITHIN_GAP = re.compile(r"(?<!\s)\s+(?:of|from)\s+", re.I)


def _mark_within(refs: list[Reference], masked: str) -> list[Reference]:
    """Mark a reference followed right away by "of"/"from" and another reference (``within``): "the spelling of this
    line", "the findings of the report" name a part or an aspect of that text, one item with it. Fixtures:
    tests/inputs/test_quoted_material.py."""
    by_start = sorted(refs, key=lambda o: o.start)
    starts = [o.start for o in by_start]
    out = []
    for r in refs:
        # the references starting within a few characters after this one (found by bisection: linear in run-ons)
        after = by_start[bisect.bisect_right(starts, r.end) : bisect.bisect_right(starts, r.end + 10)]
        if any(o.source == r.source and _WITHIN_GAP.fullmatch(masked, r.end, o.start) for o in after):
            r = replace(r, within=True)
        out.append(r)
    return out


_ORD_ALT = "|".join(sorted((w for w, n in ORDINAL_WORDS.items() if n > 0), key=len, reverse=True))
#: Coordinated ordinals: "the first and second passages", "the 1st, 2nd and 3rd drafts".
_COORD_ORD_RE = re.compile(
    rf"\b(?P<det>the|my|our)\s+(?P<ords>(?:(?:{_ORD_ALT})\s*,?\s*)+(?:and|&)\s+(?:{_ORD_ALT}))\s+(?P<noun>[\w'’-]+)",
    re.I,
)


def _coordinated_ordinal_refs(masked: str, sents: list[tuple[int, int]], source: str) -> list[Reference]:
    """'the first and second passages' needs as many items as the highest ordinal, of any content noun."""
    out: list[Reference] = []
    for m in _COORD_ORD_RE.finditer(masked):
        noun = m.group("noun")
        cls = classify_noun(noun)
        if kind_of(noun) is None and cls is None and not lexname_test("pointer", noun):
            continue
        top = max(ORDINAL_WORDS[w.lower()] for w in re.findall(r"[\w]+", m.group("ords")) if w.lower() in ORDINAL_WORDS)
        kind = kind_of(noun) or (_class_kind(cls) if cls is not None else "document")
        sent = _sentence_of(sents, m.start())
        out.append(Reference(m.group(), kind, top, m.start(), m.end(), sent, source, True, top, m.start("noun")))
    return out


_PART_OF_AFTER = re.compile(r"^\s*(?:of|from|in|on)\s+(?:the|this|that|my|our|your)\s", re.I)


def _label_id_refs(text: str, masked: str, sents: list[tuple[int, int]], source: str) -> list[Reference]:
    """'Proposal B' in the prose when the text labels items of that name by id ('Proposal A: ...')."""
    names = {m.group("name").lower() for m in _ID_LABEL_RE.finditer(text)}
    if not names:
        return []
    out: list[Reference] = []
    for m in _ID_REF_RE.finditer(masked):
        name = m.group("noun")
        if name.lower() not in names:
            continue
        nums = [int(i) if i.isdecimal() else ord(i) - 64 for i in (m.group("idx"), m.group("idx2")) if i]
        sent = _sentence_of(sents, m.start())
        out.append(Reference(m.group(), name.lower(), max(nums), m.start(), m.end(), sent, source, True, max(nums)))
    return out


def _drop_overlaps(refs: list[Reference]) -> list[Reference]:
    refs.sort(key=lambda r: (r.start, -(r.end - r.start)))
    kept: list[Reference] = []
    for r in refs:
        if kept and r.start < kept[-1].end:
            if r.index is not None and kept[-1].index is None:
                kept[-1] = replace(r, start=kept[-1].start, end=max(r.end, kept[-1].end))
            continue
        kept.append(r)
    return kept


def _definite(
    m: re.Match[str],
    masked: str,
    text: str,
    sents: list[tuple[int, int]],
    source: str,
    cls: ContentClass | None = None,
    small: bool = False,
) -> Reference | None:
    det = m.group("det").lower()
    noun = m.group("noun")
    kind = kind_of(noun) if cls is None else ("message" if small else _class_kind(cls))
    if kind is None:
        return None
    sent = _sentence_of(sents, m.start())
    gap_words = m.group("gap").split()
    gap_lower = [w.lower().strip("'’") for w in gap_words]
    if any(w in GAP_STOP for w in gap_lower):
        return None
    before = sentence_prefix(masked, sents, m.start())  # bounded: the tests below end right before the phrase
    after = masked[m.end() : m.end() + 100]
    if GIVEN_AFTER.match(after):
        return None  # "the review 'Great phone, bad battery'", "the numbers 4, 8 and 15": the noun's own content
    strong = any(w in _STRONG_GAP for w in gap_lower) or bool(_STRONG_AFTER.match(after))
    strong = strong or (bool(_STRONG_BEFORE.search(before)) and det in ("the", "this", "these", "my"))
    if not strong and _CITED_BEFORE.search(before) and det in ("the", "this", "these", "my"):
        named = is_capitalised(noun, m.start("noun"), sent[0], text) or any(w[:1].isupper() for w in gap_words)
        named = named or bool(TITLE_AFTER.match(after))  # "based on the book Dune": a work of the world
        # "write an article ... based on the article's content": citing the request's own new item supplies nothing
        strong = not named and not has_antecedent(m, masked)
    # Explicit demonstratives and possessives (a determiner, or "the customer's") point at content too.
    possessive = det in ("this", "these", "my", "our", "both") or any(POSSESSIVE.search(w) for w in gap_words)
    # "the customer review": a modifier naming a person makes the message specific, like "the customer's"
    possessive = possessive or (det == "the" and any(lexname_test("owner", w) for w in gap_lower[-1:]))
    wn_cls = cls or classify_noun(noun)
    if wn_cls is None and gap_lower and group_modifier(gap_lower[-1]):
        wn_cls = classify_noun(noun, as_written=True)  # "the board minutes": a record, not "minute"
    if wn_cls is None and det == "the" and request_object(before) and not _AS_WRITTEN_STOP.match(after):
        wn_cls = classify_noun(noun, as_written=True)  # "Condense the minutes": the request's object is the record
    strong_kind = kind in STRONG_KINDS or (wn_cls is not None and wn_cls.strength == "strong")
    if strong_kind and kind not in STRONG_KINDS and wn_cls is not None and wn_cls.brief:
        # strong by its communication share only: a reference in a sentence of the request, not about a topic
        # ("the controversy over ...") and never a role the kind table keeps apart ("the question", "the answer")
        request_sentence = is_instruction(masked[sent[0] : sent[1]]) or imperative(masked[sent[0] : sent[1]])
        strong_kind = request_sentence and not _TOPIC_AFTER.match(after) and group_of(kind) == "doc"
    # "the two candidate responses": a definite count picks out specific items the user holds.
    # "the message thread", "the thesis statement": a content noun modifying a content noun names one text
    compound = bool(gap_lower) and (kind_of(gap_lower[-1]) is not None or classify_noun(gap_lower[-1]) is not None)
    strong_kind = strong_kind or (compound and (kind_of(noun) is not None or wn_cls is not None) and det == "the")
    # "which of the responses ...": choosing among definite items presupposes at least two of them, supplied
    chosen = det in ("the", "these", "those") and bool(_WHICH_OF_BEFORE.search(before)) and _plural(noun)
    strong_kind = strong_kind or chosen
    counted = any((w in NUMBER_WORDS and w != "single") or (w.isdecimal() and 1 < int(w) <= 20) for w in gap_lower)
    strong_kind = strong_kind or (counted and det == "the")
    # "the second source": an ordinal past the first presupposes several items the user holds (a "first" alone
    # may be a world's first); the noun is a content kind or passes the "cited" test
    nth = any(ORDINAL_WORDS.get(w, 0) >= 2 for w in gap_lower)
    strong_kind = strong_kind or (nth and det == "the" and (kind_of(noun) is not None or lexname_test("cited", noun)))
    if not strong and not strong_kind and not possessive:
        return None
    if det == "all" and not any(w.lower() in NUMBER_WORDS or w.isdecimal() for w in gap_words):
        return None
    expected = 1
    index: int | None = None
    for w in gap_lower:
        if w in ORDINAL_WORDS:
            index = max(1, ORDINAL_WORDS[w])
            expected = max(expected, index)
        elif w in NUMBER_WORDS:
            expected = max(expected, NUMBER_WORDS[w])
        elif w.isdecimal() and 1 < int(w) <= 20:
            expected = max(expected, int(w))
    if det == "both" or chosen:
        expected = max(expected, 2)
    sentence = masked[sent[0] : sent[1]]
    compares = _compares(sentence)
    if expected == 1 and index is None:
        # "compare the reports"; "does the new report contradict the original one", "is it better than my previous
        # one", "merge it with the one from last year": a pro-form "one" set beside the noun is a second item
        lo, hi = m.start() - sent[0], m.end() - sent[0]
        beside = [linked for start, end, linked in _proforms(sentence) if end <= lo or start >= hi]
        if (compares and _plural(noun)) or any(compares or linked for linked in beside):
            expected = 2
    noun_start = m.start("noun")
    speaker = lexname_test("owner", noun) and not compares
    ref = Reference(m.group(), kind, expected, m.start(), m.end(), sent, source, strong, index, noun_start, speaker)
    if not strong and non_reference(ref, m, masked, text, sent):
        return None
    if _NEG_AFTER.match(after) and not re.match(r"^\s*(?:below|above|attached)", after, re.I):
        return None
    return ref


def _class_kind(cls: ContentClass) -> str:
    """The detector kind of a WordNet content class: visual/audio content is an image, writing a document."""
    if not cls.inline:
        return "image"
    return "document" if cls.strength == "strong" and not cls.brief else "message"


def _wordnet_refs(masked: str, text: str, sents: list[tuple[int, int]], source: str) -> list[Reference]:
    """Definite/possessive/demonstrative NPs whose head WordNet classes as content (not in the kind table)."""
    refs: list[Reference] = []
    for m in _DET_RE.finditer(masked):
        pos = m.end()
        words: list[re.Match[str]] = []
        for w in _WORD_RE.finditer(masked, pos):
            if masked[pos : w.start()].strip() or len(words) == 4:
                break  # punctuation ends the noun phrase
            low = w.group().lower().strip("'’")
            if low in GAP_STOP or (low in _STRONG_GAP_ENDS and words):
                break
            words.append(w)
            pos = w.end()
        attached = next((w for w in words[:-1] if w.group().lower() in _ATTACH_PARTICIPLES), None)
        placed = (
            bool(words)
            and m.group("det").lower() in ("the", "this", "these")
            and bool(_PLACED_AFTER.match(masked, words[-1].end()))
        )
        if placed and len(words) > 1 and re.search(r"(?:ed|en|wn)$", words[-1].group(), re.I):
            words = words[:-1]  # "the plan described below": the noun comes before the participle
        if (attached is not None or placed) and kind_of(words[-1].group()) is None:
            # "the attached brochure", "the plan below": the request says the thing was supplied, whatever the noun
            head = words[-1]
            gap = masked[m.end() : head.start()]
            pat = re.compile(
                rf"(?P<det>{re.escape(m.group('det'))})\s+(?P<gap>{re.escape(gap)})(?P<noun>{re.escape(head.group())})"
            )
            mm = pat.match(masked, m.start())
            if mm is not None:
                sent = _sentence_of(sents, m.start())
                refs.append(
                    Reference(mm.group(), "document", 1, mm.start(), mm.end(), sent, source, True, None, head.start())
                )
            continue
        for i, w in enumerate(words):
            word = w.group()
            small = False
            owner = re.sub(r"(?:'s|’s|')$", "", word) if POSSESSIVE.search(word) else ""
            oc = classify_noun(owner) if owner and kind_of(owner) is None else None
            if (
                owner
                and kind_of(owner) is None
                and (oc is None or oc.strength == "weak")
                and ordinal_item(words[:i], owner)
            ):
                oc = ContentClass("strong", True)  # "the third study's method": the third study is the item
            if owner and kind_of(owner) is None and oc is not None and oc.strength == "strong":
                # "the author's conclusion": a strong possessor (a writer, a report) is itself the reference
                gap = masked[m.end() : w.start()]
                pat = re.compile(
                    rf"(?P<det>{re.escape(m.group('det'))})\s+(?P<gap>{re.escape(gap)})(?P<noun>{re.escape(owner)})"
                )
                mm = pat.match(masked, m.start())
                ref = _definite(mm, masked, text, sents, source, oc) if mm is not None else None
                if ref is not None:
                    refs.append(ref)
                break
            if POSSESSIVE.search(word) or word.lower() in _STRONG_GAP or kind_of(word) is not None:
                if kind_of(word) is not None:
                    break  # the kind table's own pattern reads this phrase
                continue
            if (
                m.group("det").lower() in ("the", "this")
                and i == 0
                and kind_of(word) is None
                and lexname_test("self_request", word)
                and not _STRONG_AFTER.match(masked[w.end() : w.end() + 100])
            ):
                break  # "repeat the request word for word": the request being read, always supplied
            if i + 1 < len(words) and wordnet_compound(word, words[i + 1].group()):
                continue  # "the warning light", "the press release": the first word modifies a WordNet compound
            cls = classify_noun(word)
            listed = wordnet_compound(words[i - 1].group(), word) if i > 0 else None
            if listed is not None:
                cls = classify_noun(listed, as_written=True)
                if cls is None:
                    break  # the compound as a whole is not content ("the warning light" is a light)
            if (
                cls is not None
                and cls.brief
                and i > 0
                and word.lower().endswith("ing")
                and _VERB_COMPLEMENT.match(masked, w.end())
            ):
                continue  # "my landlord asking to ...": a participle with its complement, not a noun of the phrase
            if (
                (cls is None or cls.strength == "weak")
                and i + 1 == len(words)
                and m.group("det").lower() == "the"
                and request_object(sentence_prefix(masked, sents, m.start()))
                and not _TOPIC_AFTER.match(masked, w.end())
                and lexname_test("shown", word)
            ):
                cls = ContentClass("strong", True)  # "Translate the menu": the object of the request is a text
                small = True  # of any length: a short colon tail supplies it ("the warning I see: fan speed low")
            if (cls is None or cls.strength == "weak") and ordinal_item(words[:i], word):
                cls = ContentClass("strong", True)  # "the third study": a numbered item the user holds
            if (
                cls is None
                and i + 1 == len(words)
                and m.group("det").lower() == "the"
                and request_object(sentence_prefix(masked, sents, m.start()))
                and not _AS_WRITTEN_STOP.match(masked, w.end())
            ):
                # "Translate the instructions": as the request's object, a plural with its own WordNet entry (a
                # manual, a record of a meeting) is read by that entry, not by its singular ("instruction"); like any
                # object of a request, a short colon tail supplies it
                cls = classify_noun(word, as_written=True)
                small = cls is not None
            if cls is None and i > 0 and group_modifier(words[i - 1].group()):
                # "the board minutes": a compound modifier picks the form's own sense (a record, not "minute")
                cls = classify_noun(word, as_written=True)
            if (
                cls is None
                and any(x.group().lower() in NUMBER_WORDS for x in words[:i])
                and lexname_test("pointer", word)
            ):
                cls = ContentClass("weak", True)  # "the two lists": a definite count of information items
            if (
                cls is None
                and (
                    any(x.group().lower() in _STRONG_GAP for x in words[:i])
                    or _CITED_BEFORE.search(sentence_prefix(masked, sents, m.start()))
                )
                and lexname_test("cited", word)
            ):
                cls = ContentClass("weak", True)  # "given the search results", "our previous discussion"
            if cls is None:
                continue
            gap = masked[m.end() : w.start()]
            pat = re.compile(
                rf"(?P<det>{re.escape(m.group('det'))})\s+(?P<gap>{re.escape(gap)})(?P<noun>{re.escape(word)})"
            )
            mm = pat.match(masked, m.start())
            if mm is not None and (i + 1 == len(words) or classify_noun(words[i + 1].group()) is None):
                ref = _definite(mm, masked, text, sents, source, cls, small)
                if ref is not None:
                    refs.append(ref)
            break
    return refs


#: A topic after the noun makes it generic, not a text at hand ("the debate over nuclear power", "the joke about ...").
_TOPIC_WORDS = r"about|over|on|of|regarding|concerning|between|behind|around"
# look-behind: a match starts at a run's first blank, so a run of blanks is scanned once (issue 16)
_TOPIC_AFTER = re.compile(rf"(?<!\s)\s+(?:{_TOPIC_WORDS})\b", re.I)
#: After a plural read by its own WordNet entry as the request's object: a topic ("the minutes of history"), or a
#: span of time (English temporal prepositions, a closed class: "count the minutes until the bus") that shows the
#: singular's sense. Fixtures: tests/inputs/test_generalize.py (spec plural_entry_object).
# look-behind: a match starts at a run's first blank, so a run of blanks is scanned once (issue 16)
_AS_WRITTEN_STOP = re.compile(rf"(?<!\s)\s+(?:{_TOPIC_WORDS}|until|till|before|after|since|left|remaining)\b", re.I)
#: What follows a participle used as a verb ("asking to fix", "asking for", "asking them").
# look-behind: a match starts at a run's first blank, so a run of blanks is scanned once (issue 16)
_VERB_COMPLEMENT = re.compile(r"(?<!\s)\s+(?:to|for|about|that|if|whether|me|him|her|them|us|you|the|a|an)\b", re.I)
