"""Forward pointers: the request says its material comes next ("the following class", "It is below", "here it is").

A forward-pointing deictic (spec ``forward_pointer`` in ``specs/syntax.json``) promises material later in the
same message, whatever noun names it: so the check needs no content vocabulary. It is missing when nothing but
the request's own words comes after the pointer: no paragraph of content, no list, quote, code block or labelled
section, nothing after a colon or dash in the pointer's own sentence, and no document supplied beside the text.
Earlier turns never supply it: the pointer looks ahead, not back. Findings come from the structural readings and
from softer ones (a dash tail that is not the request's own words, a presentative's run-on clause); the count-based
resolution's findings are only ever settled by the structural ones. Work is bounded (``MAX_CHARS``, the first
pointers, a window after each), so a long request costs linear time.
"""

from __future__ import annotations

import re
from typing import Any

from faithguard.inputs.content_kinds import classify_noun, lexname_test, names_information
from faithguard.inputs.supply import scan, word_count
from faithguard.inputs.units import free_units
from faithguard.inputs.vocab import CREATION_VERBS, kind_of
from faithguard.numwords import cardinal

__all__ = ["FORWARD_TRIGGER", "MAX_CHARS", "forward_findings", "requested_words", "settled_pointers"]

#: The words the spec anchors on: the parse runs only when one of them is in the request.
FORWARD_TRIGGER = re.compile(r"\b(?:following|below|follows|here)\b", re.I)
#: What opens material inside the pointer's own sentence ("Here are my notes: ...", "Translate the following --
#: where is the station?"): a colon or a dash.
_INTRODUCER = re.compile(r":|—|–|\s-\s")
#: Quoted words after the pointer inside its sentence ("End with the following phrase 'See you soon'"): any
#: quotation marks, straight or curly, single or double, opening after a space and closing before one.
_QUOTED = re.compile(r"(?:^|\s)[\"'“‘«]\S[^\n]{0,300}?[\"'”’»](?=[\s.,;:!?)]|$)")
#: Requests longer than this carry their material in them: the pointer check does not parse them (a pasted
#: article is the material). Work per pointer is bounded too: the first pointers only, and the material is looked
#: for in a window after each, so a long request costs linear time. Fixtures: tests/inputs/test_forward.py.
MAX_CHARS = 20_000
_MAX_POINTERS = 6
_WINDOW = 2_000
#: Up to this many promised items are counted one unit each ("the three reviews below"); a larger count is often
#: written as one inline run the scan reads as one unit, so it only needs something. Fixtures: test_forward.py.
_MAX_PROMISED = 10


def _pointers(doc: Any, masked: str) -> list[tuple[Any, tuple[int, int]]]:
    """The first forward pointers of the request with their phrase spans (never inside supplied content)."""
    from faithguard.inputs.syntax import role_anchors

    if len(masked) > MAX_CHARS:
        return []
    offs = role_anchors(doc, "forward")
    out = []
    for tok in doc:
        if tok.idx in offs and masked[tok.idx : tok.idx + len(tok.text)].strip():
            phrase = _pointer_phrase(tok)
            if phrase is not None:
                out.append((tok, phrase))
                if len(out) == _MAX_POINTERS:
                    break
    return out


def settled_pointers(doc: Any, text: str, masked: str) -> list[tuple[int, int]]:
    """Phrase spans of the forward pointers that need nothing more, read by structure alone (a block or a quote
    right after the pointer, a colon tail, or a piece of content after the pointer's line), or that name what the
    answer is to create ("while writing the following piece"). Never by the softer readings (a dash tail, a
    presentative's run-on clause): those may only keep a pointer from raising its own finding, not cancel a
    finding of the count-based resolution."""
    return [
        phrase
        for tok, phrase in _pointers(doc, masked)
        if _creates(tok) or _followed(tok, phrase, text, masked, strict=True)
    ]


def forward_findings(doc: Any, text: str, masked: str) -> list[dict[str, Any]]:
    """Findings for forward pointers with nothing after them (``doc`` parses ``text``; ``masked`` blanks what
    the scan already took as supplied content, at the same offsets)."""
    for tok, phrase in _pointers(doc, masked):
        if _creates(tok) or _followed(tok, phrase, text, masked):
            continue
        shown = " ".join(text[phrase[0] : phrase[1]].split())
        return [
            {
                "reference": shown,
                "expected": 1,
                "found": 0,
                "explanation": f"The request points ahead to material ({shown!r}) but nothing follows it.",
            }
        ]
    return []


def _pointer_phrase(tok: Any) -> tuple[int, int] | None:
    """Character span of the pointer's phrase, or None when this reading of the word is not a pointer."""
    word = tok.lower_
    if word == "following":
        noun = tok.head if tok.dep_ == "amod" else tok
        if noun.i != tok.i and lexname_test("time", noun.text):
            return None  # "the following year": a time, not material
        if any(c.dep_ == "prep" and c.lower_ == "after" for c in noun.children):
            return None  # "the following president after Lincoln": the next in a series
        return _span(noun)
    if word == "below":
        if any(c.dep_ in ("pobj", "pcomp") and c.pos_ != "ADJ" and _same_clause(tok, c) for c in tok.children):
            # "below the bridge", "below zero": a place or a level (not a label on a later line); an adjective is no
            # object of "below" but the predicate the parser hung on it ("Is the clause below enforceable?")
            return None
        # "the rubric below": the noun just before it, however the parser attached the adverb
        prev = tok.nbor(-1) if tok.i > tok.sent.start else None
        if prev is not None and prev.pos_ in ("NOUN", "PROPN"):
            return min([prev.idx] + [c.left_edge.idx for c in prev.lefts]), tok.idx + len(tok.text)
        return tok.idx, tok.idx + len(tok.text)
    if word == "here":
        verb = tok.head
        subject = next((c for c in verb.children if c.dep_ in ("nsubj", "attr") and c.i != tok.i), None)
        if tok.i > verb.i or subject is None or not _presentable(subject, verb):
            return None  # "I'm here in Lisbon", "Here's what I think", "Here's the thing, ...": nothing handed over
        last = subject.right_edge  # the whole subject: "the clause my landlord wants me to sign"
        return (min(tok.idx, subject.left_edge.idx), last.idx + len(last.text))
    return (tok.idx, tok.idx + len(tok.text))  # "as follows"


def _same_clause(tok: Any, other: Any) -> bool:
    """Whether ``other`` follows ``tok`` on the same line with no sentence-final mark between: the small parser may
    hang a label of the next block on "below" ("Is the answer below accurate?\n\nQ: ..."). Fixtures:
    tests/inputs/test_apposition.py (round 7)."""
    from faithguard.nlp import text_of

    between = text_of(tok.doc)[tok.idx : other.idx]
    return "\n" not in between and not any(ch in between for ch in "?!.")


def _presentable(subject: Any, verb: Any) -> bool:
    """Whether a presentative's subject can be material: a third-person personal or demonstrative pronoun before
    the verb ("here it is", not "here I am"), or a noun phrase opening right after the verb whose noun names
    information (``names_information``: "here's the email", not "here's the thing"; not a word the tagger took
    for a noun at the far end of another clause)."""
    if any(c.dep_ == "csubj" for c in verb.children):
        return False  # "Here is where it gets tricky": a clause, not a thing
    if subject.pos_ == "PRON":
        person = set(subject.morph.get("Person"))
        return (
            subject.i < verb.i and not person & {"1", "2"} and bool({"Prs", "Dem"} & set(subject.morph.get("PronType")))
        )
    return subject.pos_ in ("NOUN", "PROPN") and subject.left_edge.i == verb.i + 1 and names_information(subject.text)


def _span(tok: Any) -> tuple[int, int]:
    """A noun phrase's span without its relative or clausal modifiers (those are the request's own words)."""
    left = min([tok.idx] + [c.left_edge.idx for c in tok.lefts])
    right = tok.idx + len(tok.text)
    for c in tok.rights:
        if c.dep_ in ("prep", "amod", "compound", "advmod", "appos"):
            last = c.right_edge
            right = max(right, last.idx + len(last.text))
    return left, right


def _followed(tok: Any, phrase: tuple[int, int], text: str, masked: str, *, strict: bool = False) -> bool:
    """Whether anything after the pointer is material rather than the request's own words (``strict``: by
    structure alone: a block the scan took as content or a quote right after it, a colon tail, or content after
    the pointer's line)."""
    line_end = text.find("\n", tok.idx)
    # the parser's sentence, cut at the line's end (it may run on into a list below: "...clearest?\n1. ...")
    sent_end = tok.sent.end_char if line_end < 0 else min(tok.sent.end_char, line_end)
    window = tok.idx + len(tok.text) + _WINDOW
    near = _next_block_end(text, sent_end, window)
    if text[tok.idx : near] != masked[tok.idx : near]:
        return True  # a quote, code block or template block the scan took as supplied content comes next
    after_word = text[tok.idx + len(tok.text) : sent_end]
    if _QUOTED.search(after_word):
        return True  # "Close with the following line 'Stay curious'"
    intro = _INTRODUCER.search(after_word)
    if intro is not None and (not strict or intro.group().startswith(":")):
        at = tok.idx + len(tok.text) + intro.end()
        colon = intro.group().startswith(":")
        # after a colon a question is material ("Here is my problem: why does bread go stale?")
        if word_count(text[at:sent_end]) and not _requested(tok.sent, text, at, sent_end, after_colon=colon):
            return True  # "Here are my notes: eggs, flour", "Translate the following - the museum opens at nine."
    rest = max(phrase[1], tok.idx + len(tok.text))
    if tok.lower_ == "here" and not strict and not _names_text(_head(tok)) and _states(tok.sent, text, rest, sent_end):
        return True  # "Here's the thing, my oven runs hot": a noun that names no text presents the clause after it
    tail = text[sent_end:window]
    if not tail.strip():
        return False
    after = scan(tail)
    # "Answer the following question. Why ...?": a pointer to questions is followed by a question
    asks = kind_of(_head(tok).text) == "query"
    talk = [] if asks else [(a - sent_end, b - sent_end) for a, b in _talk_after(tok, text, sent_end, window)]
    units = len(after.typed) + sum(1 for u in free_units(after, talk, questions=asks, promised=True) if u.words)
    # "Here are three slogans ... We're going for cozy.": a counted promise needs as many pieces
    return units >= max(1, _promised(_head(tok)))


def _talk_after(tok: Any, text: str, sent_end: int, limit: int) -> list[tuple[int, int]]:
    """Sentences right after the pointer's sentence, in its own paragraph, that are the user talking rather than the
    promised material: a question to the reader ("What's causing it?") or a sentence with its "I" left out ("Hoping
    to send it tonight."), then sentences the parse reads as the user's voice ("I've lost a dozen orders today",
    spec ``user_voice_*``). Material pasted after a pointer starts its own paragraph or follows a colon (a colon tail
    is read before this); the first sentence that is neither ends the talk, and what follows it is read as before.
    Fixtures: tests/inputs/test_forward_talk.py."""
    from faithguard.inputs.supply import sentence_spans
    from faithguard.inputs.voice import elided_spans, voice_spans

    end = text.find("\n\n", sent_end, limit)  # read no further than the pointer's window: linear over many pointers
    para = text[sent_end : limit if end < 0 else end]
    spans = [(sent_end + a, sent_end + b) for a, b in sentence_spans(para)]
    stated = [span for span in spans if not text[span[0] : span[1]].rstrip().endswith("?")]
    voiced, elided = set(voice_spans(tok.doc, stated)), set(elided_spans(tok.doc, stated))
    talk: list[tuple[int, int]] = []
    for a, b in spans:
        # the talk opens with a question to the reader or a sentence with its "I" left out ("Hoping to send it
        # tonight."); a first-person sentence right after the pointer may be the material itself ("Proofread the
        # following paragraph. I has been working ..."), so it only carries the talk on
        opens = text[a:b].rstrip().endswith("?") or (a, b) in elided
        if not (opens or (talk and (a, b) in voiced)):
            break
        talk.append((a, b))
    return talk


def _promised(noun: Any) -> int:
    """How many items the pointer's noun promises: its cardinal ("the three reviews below"), else one."""
    for c in noun.children:
        if c.dep_ == "nummod":
            value = cardinal(c.text)
            if value is not None and 1 < value <= _MAX_PROMISED:
                return value
    return 1


def _next_block_end(text: str, start: int, limit: int) -> int:
    """The end of the first block of text after ``start`` (up to the blank line that closes it), at most ``limit``:
    material that comes "next" is there, not two paragraphs on."""
    body = min(start + (len(text[start:limit]) - len(text[start:limit].lstrip())), limit)
    gap = text.find("\n\n", body, limit)
    return limit if gap < 0 else gap


def _names_text(noun: Any) -> bool:
    """Whether a noun names a text by the kind table or a WordNet content class ("essay", "lyrics", "email")."""
    return noun.pos_ in ("NOUN", "PROPN") and (kind_of(noun.text) is not None or classify_noun(noun.text) is not None)


def _states(sent: Any, text: str, start: int, end: int) -> bool:
    """Whether the rest of a presentative sentence is a statement of its own: a clause with its own subject that
    is neither a question nor an order ("Here's the thing, my oven runs hot")."""
    body = text[start:end]
    if body.rstrip(" .!").endswith("?") or not body.strip(" ,;.!"):
        return False
    toks = [t for t in sent if start <= t.idx < end]
    has_clause = any(t.dep_.startswith("nsubj") and t.head.pos_ in ("VERB", "AUX") for t in toks)
    return has_clause and not _requested(sent, text, start, end, after_colon=True)


def _requested(sent: Any, text: str, start: int, end: int, *, after_colon: bool) -> bool:
    """Whether the words in ``text[start:end]`` (inside the parsed sentence ``sent``) are the user's own request or
    comment rather than material: an order (a base-form verb heading a clause without a subject: "- turn them into
    a guide"); or, unless they follow a colon, a question, or a clause whose subject is a pronoun (the user's voice
    or a comment on the material: "- we're going for cozy", "- it's long, sorry")."""
    if not after_colon and text[start:end].rstrip(" .!").endswith("?"):
        return True
    toks = [t for t in sent if start <= t.idx < end and not t.is_space and not t.is_punct]
    if not toks:
        return True
    if not after_colon and any(t.dep_.startswith("nsubj") and t.tag_ == "PRP" for t in toks):
        return True
    heads = [t for t in toks if t.pos_ in ("VERB", "AUX") and (t.head.i == t.i or not start <= t.head.idx < end)]
    return any(t.tag_ == "VB" and not any(c.dep_.startswith("nsubj") for c in t.children) for t in heads)


def _creates(tok: Any) -> bool:
    """Whether the pointer names what the answer is to create ("when writing the following content")."""
    noun = _head(tok)
    return noun.dep_ == "dobj" and noun.head.lemma_.lower() in CREATION_VERBS


def _head(tok: Any) -> Any:
    """The noun a pointer word belongs to: "question" in "the following question", "reviews" in "the reviews
    below", "slogans" in "Here are three slogans" (the word itself when there is none)."""
    if tok.lower_ == "here":
        return next((c for c in tok.head.children if c.dep_ in ("nsubj", "attr") and c.i != tok.i), tok)
    if tok.lower_ == "below" and tok.i > tok.sent.start and tok.nbor(-1).pos_ in ("NOUN", "PROPN"):
        return tok.nbor(-1)
    return tok.head if tok.dep_ in ("amod", "advmod", "prep") and tok.head.pos_ in ("NOUN", "PROPN") else tok


def requested_words(sent: Any, text: str, start: int, end: int, *, after_colon: bool) -> bool:
    """Whether ``text[start:end]`` inside the parsed sentence ``sent`` is the request's own order, question or voice
    rather than material (the reading forward pointers use; shared with the deictic pronouns of inputs/parsed.py)."""
    return _requested(sent, text, start, end, after_colon=after_colon)
