"""The user's own voice beside a reference: sentences of the request's paragraph that comment, not supply.

A request often says something about the material it points to, in the same paragraph and without a colon or a
quote: "Reply to her message. Something polite but firm - I don't want to go." The scan counts any sentence that
does not open like an instruction as content, so such a comment used to stand for the missing message. Here the
parse decides (specs ``user_voice_*`` in ``specs/syntax.json``, role ``voice``): a sentence with a first-person
subject, a gerund main verb with no subject ("Thinking of printing it."), or a verbless sentence with an interjection
("Median please, not the mean."), is the user speaking.

Only sentences of a paragraph that holds a reference's sentence are read, never a paragraph after a colon, a quote
or a blank line (those are where material is pasted), and never when the reference points ahead ("the following",
"below", "here is"): there the words after it are promised material, whoever speaks in them. Fixtures:
``tests/inputs/test_voice.py``.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

from faithguard.inputs.forward import FORWARD_TRIGGER
from faithguard.inputs.supply import PARA_RE, is_instruction, sentence_spans

__all__ = ["candidate_sentences", "elided_spans", "voice_spans"]


#: Dependency labels of a clause's subject (spaCy's English scheme).
_SUBJECTS = frozenset({"nsubj", "nsubjpass", "csubj", "expl"})


def _elided(toks: Sequence[Any], ellipses: set[int]) -> bool:
    """Whether the sentence's main verb is a gerund with no subject (spec ``user_voice_ellipsis``)."""
    return any(t.idx in ellipses and not any(c.dep_ in _SUBJECTS for c in t.children) for t in toks)


def elided_spans(doc: Any, candidates: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """The candidate sentences whose main verb is a gerund with no subject ("Hoping to send it tonight."): chat with
    the first person left out. Unlike a first-person sentence, never the material itself, so it may open the user's
    talk right after a forward pointer (inputs/forward.py)."""
    from faithguard.inputs.syntax import anchors

    ellipses = anchors(doc).get("user_voice_ellipsis", set())
    return [(a, b) for a, b in candidates if _elided(_tokens(doc, a, b), ellipses)]


def _tokens(doc: Any, start: int, end: int) -> list[Any]:
    """The tokens of ``doc`` between two character offsets, found by the span's bounds (not a scan of the whole
    document for each sentence: a request of many sentences would cost its length squared)."""
    span = doc.char_span(start, end, alignment_mode="expand")
    return [t for t in span if start <= t.idx < end] if span is not None else []


def _overlaps(spans: Sequence[tuple[int, int]], start: int, end: int) -> bool:
    return any(a < end and start < b for a, b in spans)


def candidate_sentences(masked: str, ref_sentences: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """Sentences (absolute spans of ``masked``) that share a paragraph with a reference's sentence and that the
    scan would count as content: the only ones whose voice matters. Empty when the paragraph has a colon or the
    reference's sentence points ahead. Pure text: the parse is only needed when this is not empty."""
    out: list[tuple[int, int]] = []
    bounds = [0, *(m.end() for m in PARA_RE.finditer(masked)), len(masked) + 1]
    for start, nxt in itertools.pairwise(bounds):
        para = masked[start:nxt]
        own = sorted({(a, b) for a, b in ref_sentences if start <= a < nxt})  # a sentence once, however many refs
        if not own or ":" in para or any(FORWARD_TRIGGER.search(masked[a:b]) for a, b in own):
            continue
        for s, e in sentence_spans(para):
            a, b = start + s, start + e
            if not _overlaps(own, a, b) and masked[a:b].strip() and not is_instruction(masked[a:b]):
                out.append((a, b))
    return out


def voice_spans(doc: Any, candidates: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """The candidate sentences the parse reads as the user's voice (``doc`` parses the request at the same
    offsets as the masked text the candidates come from)."""
    from faithguard.inputs.syntax import anchors

    found = anchors(doc)
    subjects = found.get("user_voice_subject", set())
    interjections = found.get("user_voice_interjection", set())
    ellipses = found.get("user_voice_ellipsis", set())
    out: list[tuple[int, int]] = []
    for a, b in candidates:
        toks = _tokens(doc, a, b)
        if any(t.idx in subjects for t in toks):
            out.append((a, b))  # "I've been staring at it for an hour": the user, not the material
        elif _elided(toks, ellipses):
            out.append((a, b))  # "Thinking of printing it on mugs.": the user, the "I" left out
        elif any(t.idx in interjections for t in toks) and not any(t.pos_ in ("VERB", "AUX") for t in toks):
            out.append((a, b))  # "Population SD please, not sample.": an aside to the reader
    return out
