"""Whether a verifiable instruction was read from a question *about* its form (issue 11).

"Is it rude to type in all caps?", "Should the placeholder look like [Your name]?", "What's the difference between
repeating a question back word for word and paraphrasing it?": the form words are the topic of a question, and
no answer is asked to take that form. But "Is it possible to answer in all caps?" is a request phrased as a
question, and syntax alone does not tell the two apart. So the engine does not drop what it reads there: the
constraint is *tentative* (``Constraint.tentative``): an answer that takes the form satisfies it, an answer that
does not leaves it unknown, never an omission. (Dropping them, tried in session 9, lost real requests.)

Read by syntax: a question (its clause ends with "?") asks for the form only when its main verb is addressed to
the answer, through a modal of request with "you", "it" or no subject ("Can you keep it under 50 words?", "Could
it rhyme?") or as an imperative ("Keep it short?"). A fragment with no verb ("Answer in French?", "Under 100
words?") asks for it, and so does a verbless aside after a comma, a bracket or a dash ("What are the benefits of
yoga, in under 50 words?").
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
#: Marks that set an aside off inside a question ("..., in under 50 words?", "(in French)", "- in bullets?").
_ASIDE_MARKS = (",", "(", " - ", "\u2013", "\u2014")


def _requests(verb: Any) -> bool:
    subjects = [c for c in verb.children if c.dep_ in ("nsubj", "nsubjpass", "expl")]
    if verb.tag_ == "VB" and not subjects and not any(c.dep_ == "aux" for c in verb.children):
        return True  # an imperative with a question mark: "Answer in French?"
    modal = any(c.dep_ == "aux" and c.tag_ == "MD" and c.lower_ in _REQUEST_MODALS for c in verb.children)
    return modal and all(s.lower_ in _ANSWER_SUBJECTS for s in subjects)


def _verbless_aside(sent: Any, text: str, begin: int, end: int) -> bool:
    """Whether the question's clause ``[begin, end)`` of the sentence (``text``) ends in an aside: after its last
    comma, bracket or dash, words with no verb up to the question mark ("..., in under 50 words?")."""
    mark = max(text.rfind(m, begin, end) for m in _ASIDE_MARKS)
    if mark < 0:
        return False
    base = sent.start_char
    tail = [t for t in sent if mark < t.idx - base < end and not t.is_punct]
    return bool(tail) and not any(t.pos_ in ("VERB", "AUX") for t in tail)


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
    at = pos - base
    cuts = [i for i, ch in enumerate(text) if ch in ":;"]
    begin = max((i + 1 for i in cuts if i < at), default=0)
    end = min((i for i in cuts if i >= at), default=len(text))
    if not text[begin:end].rstrip().endswith("?"):
        return False
    if _verbless_aside(sent, text, begin, end):
        return False
    inside = [t for t in sent if begin <= t.idx - base < end]
    heads = [t for t in inside if not (begin <= t.head.idx - base < end) or t.head.i == t.i]
    if not any(h.pos_ in ("VERB", "AUX") for h in heads):
        return False  # a fragment ("Answer in French?", "Under 100 words?"): no clause to read, the form stays asked
    return not any(_requests(v) for h in heads for v in (h, *h.conjuncts))
