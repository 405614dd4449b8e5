"""Whether a sentence of a request asks *about* a form rather than asking for it (issue 11).

"Is it rude to type in all caps?", "Should the placeholder look like [Your name]?", "What's the difference between
repeating a question back word for word and paraphrasing it?": the form words name the topic of a question; no
answer is asked to take that form. Read by syntax: a question (the sentence ends with "?") is a request only when
its main verb is addressed to the answer, through a modal of request with "you", "it" or no subject ("Can you keep
it under 50 words?", "Could it rhyme?") or as an imperative ("Keep it short?"); a fragment with no verb ("Answer
in French?", "Under 100 words?") is read as asked.
"""

from __future__ import annotations

from typing import Any

__all__ = ["asks_about"]

#: Modals of request (a closed class of English auxiliaries): "can you", "could it", "would you", "will you".
#: "should", "must", "may" ask about duty or possibility ("Should I capitalize it?"). Fixtures:
#: tests/engine/test_asking.py.
_REQUEST_MODALS = frozenset({"can", "could", "would", "will"})
#: Subjects that make a modal question a request of the answer: the assistant, or the answer itself.
_ANSWER_SUBJECTS = frozenset({"you", "u", "it", "ya"})


def _requests(verb: Any) -> bool:
    subjects = [c for c in verb.children if c.dep_ in ("nsubj", "nsubjpass", "expl")]
    if verb.tag_ == "VB" and not subjects and not any(c.dep_ == "aux" for c in verb.children):
        return True  # an imperative with a question mark: "Answer in French?"
    modal = any(c.dep_ == "aux" and c.tag_ == "MD" and c.lower_ in _REQUEST_MODALS for c in verb.children)
    return modal and all(s.lower_ in _ANSWER_SUBJECTS for s in subjects)


def asks_about(doc: Any, pos: int, phrases: tuple[tuple[int, int], ...] = ()) -> bool:
    """Whether the clause of ``doc`` holding character ``pos`` is a question that asks about something rather than
    asking the answer to do something. The clause runs between colons or semicolons of its sentence: in "Repeat
    this request, then answer it: What is the capital of Australia?" the question is the material, after the colon,
    and the order before it ends with no question mark. ``phrases`` are character spans of words the answer must
    carry ("End with the exact phrase Is there anything else I can help with?"): their question mark is theirs."""
    sent = next((s for s in doc.sents if s.start_char <= pos < s.end_char), None)
    if sent is None:
        return False
    text, base = sent.text, sent.start_char
    for a, b in phrases:  # blank the answer's own words, keeping offsets
        lo, hi = max(a - base, 0), min(b - base, len(text))
        if lo < hi:
            text = text[:lo] + " " * (hi - lo) + text[hi:]
    cuts = [i for i, ch in enumerate(text) if ch in ":;"]
    begin = max((i + 1 for i in cuts if i < pos - base), default=0)
    end = min((i for i in cuts if i >= pos - base), default=len(text))
    if not text[begin:end].rstrip().endswith("?"):
        return False
    inside = [t for t in sent if begin <= t.idx - base < end]
    heads = [t for t in inside if not (begin <= t.head.idx - base < end) or t.head.i == t.i]
    if not any(h.pos_ in ("VERB", "AUX") for h in heads):
        return False  # a fragment ("Answer in French?", "Under 100 words?"): no clause to read, the form stays asked
    return not any(_requests(v) for h in heads for v in (h, *h.conjuncts))
