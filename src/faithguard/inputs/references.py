"""Find what a request refers to: definite mentions of content, ordinals, counts, 'the following'."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Any

from faithguard.inputs.content_kinds import ContentClass, classify_noun
from faithguard.inputs.vocab import (
    COMPARE_RE,
    CONTENT_NOUNS,
    CREATION_VERBS,
    GAP_STOP,
    NUMBER_WORDS,
    ORDINAL_WORDS,
    STRONG_KINDS,
    kind_of,
)

__all__ = ["Reference", "find_references", "parse_filter"]


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


_NOUN_ALT = "|".join(sorted((re.escape(f) for f in CONTENT_NOUNS), key=len, reverse=True))
_DET = r"the|this|these|my|our|his|her|their|both|all"
_STOP_ALT = "|".join(sorted(GAP_STOP, key=len, reverse=True))
_REF_RE = re.compile(
    rf"\b(?P<det>{_DET})\s+(?P<gap>(?:(?!(?:{_STOP_ALT})\b)[\w'’-]+\s+){{0,3}}?)(?P<noun>{_NOUN_ALT})(?![\w-])(?!\s+(?:{_NOUN_ALT})\b)",
    re.IGNORECASE,
)
_BARE_RE = re.compile(r"\b(?P<det>the|this)\s+(?P<noun>following|below|above)\b(?=\s*(?:[:.?!,;]|\n|$))", re.I)
_LABEL_REF_RE = re.compile(
    r"\b(?P<noun>(?i:article|document|doc|report|paper|essay|email|passage|text|excerpt|source|transcript|"
    r"attachment|file|response|chapter))s?[ \t]*#?[ \t]*(?P<idx>\d{1,2}|[A-H])\b"
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
    ]
)
_STRONG_AFTER = re.compile(
    r"^(?:'s|’s|')?\s*(?:below|above|attached|provided|supplied|enclosed|included|here|"
    r"(?:that\s+|which\s+)?(?:i|we)\s+(?:have\s+|'ve\s+|just\s+|had\s+)?(?:sent|shared|pasted|uploaded|attached|gave|"
    r"provided|included|forwarded|received|wrote|written|mentioned|linked|posted|put|added|got)|"
    r"(?:that\s+|which\s+)?you\s+(?:have\s+been\s+|were\s+|are\s+)?(?:given|provided|shown)|"
    r"(?:that\s+|which\s+)?the\s+user\s+(?:provides|gives|shares|sends|pastes|uploads|supplies)|"
    r"(?:supplied|provided|shown|given|listed|included)\s+(?:below|above|here)|from\s+(?:earlier|before|above)|"
    # content still to come: "the article I'll paste next", "the file we're going to send"
    r"(?:that\s+|which\s+)?(?:i|we)(?:'ll|\s+will|\s+am\s+going\s+to|'m\s+going\s+to|'re\s+going\s+to|"
    r"'m\s+about\s+to)\s+(?:send|paste|share|upload|attach|post|forward|give|provide)|"
    # content the user is receiving right now: "the error message I'm getting"
    r"(?:that\s+|which\s+)?(?:i'm|i\s+am|we're|we\s+are|i\s+keep|i\s+kept)\s+(?:getting|seeing|receiving|running\s+into))\b",
    re.I,
)
_STRONG_BEFORE = re.compile(
    r"(?:here\s+is|here's|here\s+are|i(?:'ve|\s+have)\s+(?:attached|pasted|uploaded|included|shared|added)|"
    r"attaching|attached\s+is|see|i\s+(?:just\s+)?(?:uploaded|attached|pasted|included|shared|sent|added))\s+$",
    re.I,
)
_OF_AFTER = re.compile(r"^(?:'s|’s)?\s*(?:(?i:of)\b|(?i:by|from|on)\s+(?:the\s+)?[A-Z])")
_TITLE_AFTER = re.compile(r"^\s+(?:[\"'“‘]|[A-Z][a-z])|^\s*[:,]?\s*[\"“]")
_LETTER_AFTER = re.compile(r"^\s+[A-Za-z]\b(?!['’])")
_NEG_AFTER = re.compile(r"^\s*(?:[\w'’]+\s+){0,3}?(?:never|not|n't|no\s+longer)\b", re.I)
_CREATION_BEFORE = re.compile(
    r"\b(?P<verb>" + "|".join(sorted(CREATION_VERBS, key=len, reverse=True)) + r")\s+(?:me\s+|us\s+|up\s+|out\s+)?$",
    re.I,
)  # "write the cover letter", "help me draft my essay"
_PROGRAMMING = re.compile(
    r"\b(?:python|javascript|java|typescript|c\+\+|c#|rust|golang|ruby|php|sql|bash|shell|excel|pandas|numpy|"
    r"regex|function|method|api|library|module|html|css|json|linux|windows|terminal|command|variable|string)\b|\(\)",
    re.I,
)
_HOWTO = re.compile(r"^\W*(?:how\s+(?:do|can|should|would|could)\s+(?:i|you|we|one)|how\s+to)\b", re.I)
_PROGRAMMING_KINDS = frozenset(
    {"file", "text", "data", "table", "image", "spreadsheet", "document", "list", "input", "sentence", "content"}
)
#: An item label with an id at the start of a line: "Proposal A:", "## Option 2", "Candidate #3 -".
_ID_LABEL_RE = re.compile(
    r"(?m)^[ \t]*(?:[#*>\-]+[ \t]*)?(?P<name>[A-Z][a-z]+)[ \t]+#?(?P<idx>\d{1,2}|[A-H])\b"
    r"[ \t]*\**[ \t]*(?:[:：.)\-–]|$)"
)
_ID_REF_RE = re.compile(
    r"\b(?P<noun>[A-Z][a-z]+)s?[ \t]+#?(?P<idx>\d{1,2}|[A-H])\b"
    r"(?:[ \t]*(?:and|&|,|-|–|to|through|thru)[ \t]*#?(?P<idx2>\d{1,2}|[A-H])\b)?"
)
#: Participles that say an item was handed over, whatever it is ("the attached brochure").
_ATTACH_PARTICIPLES = frozenset({"attached", "enclosed", "uploaded", "pasted", "forwarded", "accompanying"})
_DET_RE = re.compile(rf"\b(?P<det>{_DET})\s+", re.I)
_WORD_RE = re.compile(r"[\w'’-]+")
_POSSESSIVE = re.compile(r"\w(?:'s|’s|s'|s’)$")
#: Words after which a noun phrase cannot continue (supply markers and verbs of showing).
_STRONG_GAP_ENDS = frozenset({"below", "above", "here", "attached", "shows", "show", "says", "say", "said"})
_SENT_RE = re.compile(r"[^.!?\n]+(?:[.!?]+|$)|\n", re.M)


def _sentences(text: str) -> list[tuple[int, int]]:
    return [(m.start(), m.end()) for m in _SENT_RE.finditer(text) if m.group().strip()]


def _sentence_of(spans: list[tuple[int, int]], pos: int) -> tuple[int, int]:
    for s, e in spans:
        if s <= pos < e:
            return (s, e)
    return (pos, pos)


def _is_capitalised(word: str, at: int, sent_start: int, text: str) -> bool:
    """Title-case word that is not the first word of its sentence (a proper name)."""
    if not word[:1].isupper() or (word.isupper() and len(word) <= 4):
        return False
    return text[sent_start:at].strip() != ""


def _plural(noun: str) -> bool:
    n = noun.lower()
    return n.endswith("s") and n not in ("thesis", "lyrics", "news", "notes", "minutes", "slides", "analysis")


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
        if re.match(r"^\s*of\s+(?:the\s+)?[A-Z]", after):
            continue
        idxs = [m.group("idx"), m.group("idx2")]
        nums = [int(i) if i.isdecimal() else ord(i) - 64 for i in idxs if i]
        if not nums or max(nums) > 50 or (not noun[0].isupper() and not m.group("idx").isdecimal()):
            continue
        sent = _sentence_of(sents, m.start())
        refs.append(Reference(m.group(), kind, max(nums), m.start(), m.end(), sent, source, True, max(nums), m.start()))
    refs.extend(_label_id_refs(text, masked, sents, source))
    return _drop_overlaps(refs)


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
) -> Reference | None:
    det = m.group("det").lower()
    noun = m.group("noun")
    kind = kind_of(noun) if cls is None else _class_kind(cls)
    if kind is None:
        return None
    sent = _sentence_of(sents, m.start())
    gap_words = m.group("gap").split()
    gap_lower = [w.lower().strip("'’") for w in gap_words]
    if any(w in GAP_STOP for w in gap_lower):
        return None
    before = masked[sent[0] : m.start()]
    after = masked[m.end() : m.end() + 100]
    strong = any(w in _STRONG_GAP for w in gap_lower) or bool(_STRONG_AFTER.match(after))
    strong = strong or (bool(_STRONG_BEFORE.search(before)) and det in ("the", "this", "these", "my"))
    # Explicit demonstratives and possessives (a determiner, or "the customer's") point at content too.
    possessive = det in ("this", "these", "my", "our", "both") or any(_POSSESSIVE.search(w) for w in gap_words)
    wn_cls = cls or classify_noun(noun)
    strong_kind = kind in STRONG_KINDS or (wn_cls is not None and wn_cls.strength == "strong")
    # "the two candidate responses": a definite count picks out specific items the user holds.
    counted = any((w in NUMBER_WORDS and w != "single") or (w.isdecimal() and 1 < int(w) <= 20) for w in gap_lower)
    strong_kind = strong_kind or (counted and det == "the")
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
    if det == "both":
        expected = max(expected, 2)
    if expected == 1 and index is None and _plural(noun) and COMPARE_RE.search(masked[sent[0] : sent[1]]):
        expected = 2
    noun_start = m.start("noun")
    ref = Reference(m.group(), kind, expected, m.start(), m.end(), sent, source, strong, index, noun_start)
    if not strong and _non_reference(ref, m, masked, text, sent):
        return None
    if _NEG_AFTER.match(after) and not re.match(r"^\s*(?:below|above|attached)", after, re.I):
        return None
    return ref


def _class_kind(cls: ContentClass) -> str:
    """The detector kind of a WordNet content class: visual/audio content is an image, writing a document."""
    if not cls.inline:
        return "image"
    return "document" if cls.strength == "strong" else "message"


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
        if attached is not None and kind_of(words[-1].group()) is None:
            # "the attached brochure": the participle says the thing was supplied, whatever the noun
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
            if _POSSESSIVE.search(word) or word.lower() in _STRONG_GAP or kind_of(word) is not None:
                if kind_of(word) is not None:
                    break  # the kind table's own pattern reads this phrase
                continue
            cls = classify_noun(word)
            if cls is None:
                continue
            gap = masked[m.end() : w.start()]
            pat = re.compile(
                rf"(?P<det>{re.escape(m.group('det'))})\s+(?P<gap>{re.escape(gap)})(?P<noun>{re.escape(word)})"
            )
            mm = pat.match(masked, m.start())
            if mm is not None and (i + 1 == len(words) or classify_noun(words[i + 1].group()) is None):
                ref = _definite(mm, masked, text, sents, source, cls)
                if ref is not None:
                    refs.append(ref)
            break
    return refs


def _non_reference(ref: Reference, m: re.Match[str], masked: str, text: str, sent: tuple[int, int]) -> bool:
    """Pattern filters for mentions that name world entities, creations or generic things."""
    after = masked[m.end() : m.end() + 100]
    gap_start = m.start("gap")
    for wm in re.finditer(r"[\w'’-]+", m.group("gap")):
        word = wm.group()
        if word.isupper() and len(word) > 1 and kind_of(word) is None:
            return True  # the IPCC report, the UN paper
        if _is_capitalised(word, gap_start + wm.start(), sent[0], text):
            return True  # the Mueller report, the IPCC report
    noun = m.group("noun")
    if _is_capitalised(noun, m.start("noun"), sent[0], text):
        return True  # the Federalist Papers, the Stern Review
    if _OF_AFTER.match(after) or _TITLE_AFTER.match(after):
        return True  # the report of the Warren Commission, the paper 'Attention...'
    if ref.kind == "letter" and _LETTER_AFTER.match(after):
        return True
    if _CREATION_BEFORE.search(masked[sent[0] : m.start()]):
        return True  # write the cover letter...
    sentence = masked[sent[0] : sent[1]]
    if ref.kind in _PROGRAMMING_KINDS and _PROGRAMMING.search(sentence):
        return True
    if _HOWTO.match(sentence):
        return True
    forms = [re.escape(f) for f, k in CONTENT_NOUNS.items() if k == ref.kind] or [re.escape(noun)]
    earlier = masked[: m.start()]
    anaphora = re.compile(r"\b(?:a|an|another)\s+(?:[\w'’-]+\s+){0,3}?(?:" + "|".join(forms) + r")\b", re.I)
    return bool(anaphora.search(earlier))


def parse_filter(refs: list[Reference], masked: str, nlp: Any) -> list[Reference]:
    """Drop non-strong references that the parse shows are compounds or narrative subjects."""
    weak = [r for r in refs if not r.strong]
    if not weak:
        return refs
    dropped: set[int] = set()
    for sent in sorted({r.sentence for r in weak}):
        doc = _parse(nlp, masked[sent[0] : sent[1]])
        is_question = masked[sent[0] : sent[1]].rstrip().endswith("?")
        for r in weak:
            if r.sentence != sent:
                continue
            offset = r.noun_start - sent[0]
            tok = next((t for t in doc if t.idx == offset), None)
            if tok is None:
                continue
            if _do_support_subject(doc, tok):
                continue  # "does the graph show ...": the tagger read the main verb as a noun
            if tok.dep_ == "compound" or (
                tok.i + 1 < len(doc)
                and doc[tok.i + 1].pos_ in ("NOUN", "PROPN")
                and doc[tok.i + 1].dep_ != "appos"
                and tok.head.i == tok.i + 1
            ):
                dropped.add(id(r))
            elif tok.dep_ in ("nsubj", "nsubjpass") and not is_question and tok.head.tag_ in ("VBD", "VBN"):
                dropped.add(id(r))  # "My essay got a C." narrates, does not ask about the content
            elif tok.dep_ == "dobj" and tok.head.lower_ in CREATION_VERBS:
                dropped.add(id(r))
    return [r for r in refs if id(r) not in dropped]


def _do_support_subject(doc: Any, tok: Any) -> bool:
    """In a do-support question the NP between 'does' and the sentence root is the subject, not a compound."""
    head = tok.head
    if head.dep_ != "ROOT" or head.i != tok.i + 1 or head.i + 1 > len(doc):
        return False
    return any(t.lemma_ == "do" and t.pos_ == "AUX" for t in doc[: tok.i])


def _parse(nlp: Any, text: str) -> Any:
    doc = nlp.make_doc(text)
    for name, proc in nlp.pipeline:
        if name in ("tok2vec", "tagger", "parser", "attribute_ruler"):
            doc = proc(doc)
    return doc
