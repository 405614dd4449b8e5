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

__all__ = ["asks_about", "narrated"]

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


#: Modifiers that mark a thing as the earlier one (a closed set of English adjectives and the possessive "your").
_EARLIER = frozenset({"last", "previous", "earlier", "first", "prior", "your"})


def narrated(doc: Any, pos: int) -> bool:
    """Whether the token at character ``pos`` belongs to a clause told in the past ("last time you went over 200
    words", "the last list you gave me had 12 bullets"): its governing verb is a simple past (Penn VBD) or a
    present perfect ("you've written 900 words"). It tells what an earlier answer did, not what this one must do.
    """
    tok = next((t for t in doc if t.idx <= pos < t.idx + len(t.text)), None)
    steps = 0
    while tok is not None and tok.pos_ not in ("VERB", "AUX") and tok.head.i != tok.i and steps < 12:
        tok, steps = tok.head, steps + 1
    if tok is None or tok.pos_ not in ("VERB", "AUX"):
        return False
    past = tok.tag_ == "VBD" or (
        tok.tag_ == "VBN" and any(c.dep_ == "aux" and c.lemma_ == "have" for c in tok.children)
    )
    return past and any(_earlier_answer(c) for c in tok.children if c.dep_ in ("nsubj", "nsubjpass"))


def _earlier_answer(subject: Any) -> bool:
    """The subject is the assistant or what it gave: "you", "it", or a noun the assistant made ("the list you gave
    me") or marked as earlier ("your last draft", "the previous version"). "a man who ran 100 miles" is not."""
    if subject.lower_ in _ANSWER_SUBJECTS:
        return True
    made = any(
        c.dep_ == "relcl" and any(s.dep_ == "nsubj" and s.lower_ in ("you", "u") for s in c.children)
        for c in subject.children
    )
    return made or any(c.dep_ in ("amod", "poss") and c.lower_ in _EARLIER for c in subject.children)
