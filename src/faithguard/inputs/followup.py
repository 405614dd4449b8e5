"""Output stage: did the model ask for the missing content, or proceed as if it had it?"""

from __future__ import annotations

import re
from typing import Any, Literal

from faithguard.detector import ASKS_FOR_INPUT, CallContext
from faithguard.inputs.absence import (
    HOLDING_SHARE,
    MAX_ABSENCE_SENTENCES,
    RESPONSE_SENT_RE,
    absence_noted,
    head_word,
    might_note_absence,
    notes_absence,
    reference_bases,
)
from faithguard.inputs.declines import SENTENCES, declines_first, notes_silence, root_of
from faithguard.inputs.supply import word_count
from faithguard.models import DetectorResult, Severity, Verdict, VerdictKind
from faithguard.nlp import readable

__all__ = ["FollowupDetector", "classify_followup"]

Decision = Literal["asks", "proceeds", "undecided"]

_THING = (
    r"(?:articles?|documents?|docs?|texts?|files?|attachments?|reports?|papers?|essays?|e-?mails?|letters?|memos?|"
    r"transcripts?|passages?|excerpts?|paragraphs?|poems?|stor(?:y|ies)|code|snippets?|scripts?|spreadsheets?|"
    r"pdfs?|slides?|notes|content|contents|materials?|context|sources?|data|drafts?|resumes?|cv|contracts?|"
    r"rubrics?|answers?|responses?|quer(?:y|ies)|questions?|images?|screenshots?|lyrics|speech|messages?|"
    r"sentences?|reviews?|abstracts?|chapters?|it|them|one|any|anything)"
)
_SUPPLY_VERB = r"(?:provide|share|include|attach|paste|send|upload|give|post|add|supply|forward|re-?send|insert|copy)"
_SUPPLIED = r"(?:provided|shared|included|attached|pasted|sent|uploaded|given|supplied|shown|visible|present|received)"
#: Roles of the patterns below: one notes that the input is absent, the other asks the user for it.
_NOTE, _REQUEST = "note", "request"
_ASK_PATTERNS: list[tuple[str, str]] = [
    (
        _NOTE,
        rf"\byou\s+(?:haven'?t|have\s+not|didn'?t|did\s+not|forgot\s+to|may\s+have\s+forgotten\s+to)\s+(?:\w+\s+){{0,2}}?{_SUPPLY_VERB}\w*",
    ),
    (
        _NOTE,
        rf"\b(?:i|we)\s*(?:don'?t|do\s+not|can'?t|cannot|can\s+not|couldn'?t|could\s+not|am\s+unable\s+to|'m\s+unable\s+to)\s+"
        rf"(?:see|find|access|locate|view|open|read|spot|detect)\s+(?:\w+\s+){{0,3}}?{_THING}\b",
    ),
    (_NOTE, r"\b(?:i|we)\s+(?:don'?t|do\s+not)\s+have\s+(?:access\s+to|any|the|your)\b"),
    (
        _NOTE,
        rf"\b(?:no|none\s+of\s+the|neither)\s+(?:\w+\s+){{0,3}}?(?:was|were|has\s+been|have\s+been|is|are)\s+(?:\w+\s+)?{_SUPPLIED}",
    ),
    (
        _NOTE,
        rf"\b(?:wasn'?t|weren'?t|was\s+not|were\s+not|isn'?t|is\s+not|aren'?t|are\s+not|hasn'?t\s+been|haven'?t\s+been|"
        rf"has\s+not\s+been|have\s+not\s+been|not)\s+(?:\w+\s+)?{_SUPPLIED}\b",
    ),
    # "the file is missing"; not the transitive "the essay is missing a thesis" (a determiner opens its object)
    (
        _NOTE,
        r"\b(?:is|are|was|were|seems?\s+to\s+be|appears?\s+to\s+be|looks?\s+(?:to\s+be\s+)?)\s*missing\b"
        r"(?!\s+(?:a|an|the|some|any|its|their|his|her|your|my|our|this|that|these|those|one|two|three|several|much|"
        r"many|every|no)\b)",
    ),
    (_NOTE, r"\bmissing\s+(?:from|in)\s+(?:your|the)\b"),
    (_NOTE, r"\b(?:didn'?t|did\s+not|doesn'?t|does\s+not)\s+(?:come|get)\s+through\b"),
    (_NOTE, rf"\bthere(?:'s|\s+is|\s+are|\s+was|\s+were)\s+no\s+(?:\w+\s+){{0,2}}?{_THING}\b"),
    (
        _REQUEST,
        rf"\b(?:please|could\s+you|can\s+you|would\s+you(?:\s+mind)?|kindly|if\s+you|once\s+you|when\s+you|need\s+you\s+to)\s+"
        rf"(?:\w+\s+){{0,2}}?{_SUPPLY_VERB}\w*\s+(?:\w+\s+){{0,4}}?{_THING}\b",
    ),
    (_NOTE, r"\bonly\s+(?:received|see|got|have|found|saw|had)\s+(?:\w+\s+){0,2}?(?:one|two|three|four|1|2|3|4)\b"),
    (_NOTE, rf"\bonly\s+(?:\w+\s+){{0,4}}(?:was|were|has\s+been|have\s+been)\s+{_SUPPLIED}"),
    (_NOTE, r"\bwithout\s+(?:seeing|reading|having|access\s+to)\b"),
    # an imperative ask at the start of a sentence: "Sure, send over the two drafts and I'll compare them."
    (
        _REQUEST,
        rf"(?:^|[.!?;:—–]\s*|\b(?:sure|okay|ok|great|gladly)\W+)(?:just\s+|go\s+ahead\s+and\s+)?{_SUPPLY_VERB}\w*"
        rf"(?:\s+(?:over|along|in|through))?(?:\s+(?:me|us))?\s+(?:(?:the|your|those|these)\s+(?:\w+\s+){{0,4}}?{_THING}|it|them)\b",
    ),
    (_NOTE, r"\bplaceholder\b"),
    (
        _REQUEST,
        r"\bwhich\s+(?:\w+\s+)?(?:article|document|paper|essay|report|poem|text|file|email|code)\s+do\s+you\s+mean\b",
    ),
    (_REQUEST, r"\b(?:i'?d|i\s+would|i'?ll)\s+need\s+(?:to\s+see\s+)?(?:the|both|your|a\s+copy)\b"),
    (
        _REQUEST,
        # possessive: the leading marks are read once, not split with the second run of them (issue 16)
        r"^\W*+(?:sure|happy\s+to|of\s+course|certainly)?\W*which\s+(?:\w+\s+)?(?:article|document|paper|essay|report|poem|text|file|email)\?",
    ),
    # the supplied item arrived empty or broken: "the attachment is empty", "the message got cut off" (not inside a
    # relative clause about something else: "a list that is empty at that point" describes the user's program)
    (
        _NOTE,
        r"(?<!\bthat\s)(?<!\bwhich\s)\b(?:is|was|seems|seemed|appears|appeared|looks|looked|got|came\s+through)\s+"
        r"(?:to\s+be\s+|as\s+)?"
        r"(?:empty|blank|cut\s+off|truncated|incomplete)\b",
    ),
    # the item is said not to be part of the message: "it's not in your message", "not included in the prompt"
    (
        _NOTE,
        r"\bnot\s+(?:in|part\s+of|included\s+in|attached\s+to)\s+(?:your|the)\s+(?:message|request|prompt|question|chat)\b",
    ),
    # only the request itself arrived: "I only have your question, not the recipe itself"
    (
        _NOTE,
        r"\b(?:i|we)\s+only\s+(?:have|see|got|received)\s+(?:your|the)\s+(?:question|message|request|prompt|instructions?)\b",
    ),
]
#: (pattern, whether it requests the input; the others only note its absence), in the order they are tried.
_ASK_RE = [(re.compile(p, re.I), role == _REQUEST) for role, p in _ASK_PATTERNS]
#: A request naming the missing reference's own noun: "Please paste the function", "Could you share the
#: customer's complaint". The noun comes from the request's findings, so no list of content words is needed.
_REQUEST_LEAD = (
    r"(?:^|[.!?;:—–]\s*|\b(?:please|could\s+you|can\s+you|would\s+you(?:\s+mind)?|kindly|if\s+you|once\s+you|"
    r"when\s+you|sure|okay|ok|great|gladly)\W+)(?:\w+\s+){0,2}?"
)
#: A note of the gap followed, in the same sentence, by a contrast that carries on: "Without seeing the graph I can
#: only guess, but such graphs usually ...". Fixtures: tests/inputs/test_missing.py (hedge tests).
#: A contrast, or a consequence that hands over content anyway ("..., so here is a general summary"), carries on.
_CONTRAST_RE = re.compile(
    r"\b(?:but|however|though|instead(?!\s+of))\b\W+\w+|\bso\s+(?:here(?:'s|\s+is|\s+are)|i'?ll|i\s+will|let\s+me)\b|"
    # concessive "still" opens its clause ("..., still, here is a guess"); "it is still in your message" is temporal
    r"(?:^|[,;:—–]\s*)still\b\W+\w+",
    re.I,
)
_SENTENCE_END_RE = re.compile(r"[.!?\n]")
_NEGATED_BEFORE = re.compile(
    r"\b(?:nothing|no\s+need\s+to|not\s+necessary\s+to|don'?t\s+need\s+to|never)\s*"
    r"(?:(?:is|was|seems|appears)\s+(?:to\s+be\s+)?)?$",
    re.I,
)
_ASSUME_RE = re.compile(
    r"\b(?:i'?ll|i\s+will|let'?s|let\s+me|we'?ll)\s+(?:\w+\s+)?(?:assume|imagine|suppose|pretend|invent|hypothesi[sz]e)\b|"
    r"\bassuming\s+(?:it|that|the|they|this)\b|\bhypothetical(?:ly)?\b|\bfor\s+the\s+sake\s+of\b|"
    r"\bunder\s+(?:that|this|the)\s+assumption\b|"
    # standing in generic material for the missing item: "I'll go with a typical argumentative essay"
    r"\b(?:i'?ll|i\s+will|let\s+me|let'?s)\s+(?:go\s+with|use|work\s+(?:with|from)|base\s+it\s+on|write\s+about)\s+"
    r"(?:a|an|some)\s+(?:typical|generic|common|standard|sample|made-up|fictional)\b",
    re.I,
)
_MIN_WORDS = 12
_MIN_STATEMENT_WORDS = 5


def _reference_request(text: str, references: tuple[str, ...]) -> re.Match[str] | None:
    """A request to supply one of the missing references, named by its own head noun."""
    heads = {w.lower() for ref in references if (w := head_word(ref))}
    if not heads:
        return None
    nouns = "|".join(sorted(re.escape(h) for h in heads))
    rx = re.compile(
        rf"{_REQUEST_LEAD}{_SUPPLY_VERB}\w*(?:\s+(?:over|along|in|through))?(?:\s+(?:me|us))?\s+"
        rf"(?:[\w']+\s+){{0,3}}?(?:{nouns})(?:e?s)?\b",
        re.I,
    )
    return rx.search(text)


def _carries_on(text: str, start: int) -> bool:
    """Whether the sentence holding a gap note goes on past a contrast ("..., but such graphs usually show")."""
    end = _SENTENCE_END_RE.search(text, start)
    sentence = text[start : end.start() if end else len(text)]
    return bool(_CONTRAST_RE.search(sentence))


#: A sentence of at most this many words that neither asks nor notes the gap is courtesy around an ask ("Then I'll
#: summarize it."), not content. Fixtures: tests/engine/test_defers.py (asks only / asks and then delivers).
_COURTESY_WORDS = 8
_ITEM_LINE = re.compile(r"(?m)^[ \t]*(?:[-*•+]|\d{1,3}[.)])[ \t]+\S")


def only_asks(response: str, references: tuple[str, ...] = ()) -> bool:
    """Whether an answer classified as asking does nothing else: no list, and every sentence asks, notes the gap,
    is a question, or is a short courtesy. An answer that asks and then delivers (a guess, another topic) does more.
    """
    text = response or ""
    if _ITEM_LINE.search(text):
        return False
    rest: list[str] = []
    for sentence in SENTENCES.split(text):
        s = sentence.strip()
        if not s or "?" in s or len(s.split()) <= _COURTESY_WORDS:
            continue
        if _reference_request(s, references) is None and not any(rx.search(s) for rx, _ in _ASK_RE):
            rest.append(s)
    if not rest or len(rest) > MAX_ABSENCE_SENTENCES:
        return not rest
    from faithguard.nlp import parse_many

    bases = reference_bases(references)
    # one parse per sentence: it notes the gap ("No attachment reached me."), asks the user, or offers the task
    return all(
        (might_note_absence(s, bases) and notes_absence(doc, bases)) or _asks_user(doc) or _offers(doc)
        for s, doc in zip(rest, parse_many(rest), strict=True)
    )


#: WordNet 3.0 verb lexicographer files of telling and giving (32 verb.communication, 40 verb.possession): an
#: imperative of one asks the user for information ("describe its colours", "tell me the error code").
_TELLING_FILES = (32, 40)
#: ... and of knowing, perceiving and having, after "let me" ("let me know what it says", "let me see it").
_LEARNING_FILES = (31, 39, 40)


def _asks_by_syntax(text: str) -> bool:
    """Whether every sentence of the answer asks the user for information (:func:`_asks_user`), offers to do the task
    once it comes (:func:`_offers`), asks the user a question, or is a greeting, and at least one does one of the first
    three ("Let me know the total and I can draft the reminder."). Read for short answers only. Fixtures:
    tests/inputs/test_general_guidance.py."""
    sentences = [s.strip() for s in SENTENCES.split(text or "") if s.strip()]
    if not sentences or len(sentences) > MAX_ABSENCE_SENTENCES or _ITEM_LINE.search(text):
        return False
    from faithguard.nlp import parse_many

    asked = False
    for sentence, doc in zip(sentences, parse_many(sentences), strict=True):
        if sentence.endswith("?") and _YOU_RE.search(sentence):
            asked = True
        elif _asks_user(doc) or (_offers(doc) and _YOU_RE.search(sentence)):
            asked = True  # an offer counts with the user's part in it ("if you tell me the rate, I'll work it out")
        elif len(sentence.split()) > _GREETING_WORDS:
            return False  # a statement ("I would give it a seven."): more than asking
    return asked


#: Words of a greeting or thanks around an ask ("Sure!", "Happy to help.", "Thanks so much!"); a longer sentence that
#: neither asks nor offers says something of its own.
_GREETING_WORDS = 4


def _asks_user(doc: Any) -> bool:
    """Whether a sentence of the answer asks the user for information: an imperative of a verb of telling or giving
    ("If that fails, describe the bird's size and colours"), or "let me/us" with a verb of knowing ("let me know").
    Fixtures: tests/inputs/test_general_guidance.py."""
    from faithguard.lexical.senses import verb_lexfiles_share

    root = root_of(doc)
    if root is None or root.tag_ != "VB" or any(c.dep_ in ("nsubj", "nsubjpass") for c in root.children):
        return False  # not an imperative
    if root.lemma_.lower() == "let":
        learned = [c for c in root.children if c.dep_ in ("ccomp", "xcomp") and c.tag_ == "VB"]
        return any(verb_lexfiles_share(c.lemma_, _LEARNING_FILES) >= HOLDING_SHARE for c in learned)
    return verb_lexfiles_share(root.lemma_, _TELLING_FILES) >= HOLDING_SHARE


def _offers(doc: Any) -> bool:
    """Whether a sentence is the answer's own offer to do the task once it has the input: a first-person subject with
    a modal ("I can narrow it down", "we'll draft it then"), in the main clause, or in a clause coordinated with an
    order or invitation to the user ("Paste it below and I'll summarise it", "You can share the text and I'll give
    notes": the user's part, then the answer's). After a statement the offer is an extra ("Your opening is too
    formal, and I can rewrite it"): the statement already delivers. Fixtures: tests/inputs/test_general_guidance.py."""
    root = root_of(doc)
    if root is None:
        return False
    clauses = [root]
    if _invites_user(root):
        clauses += [c for c in root.children if c.dep_ == "conj" and c.pos_ in ("VERB", "AUX")]
    return any(_offer_clause(verb) for verb in clauses)


def _invites_user(verb: Any) -> bool:
    """An order to the user: an imperative ("Paste it below"), or "you" with a modal of ability ("You can paste it
    here", "you could share the text")."""
    subjects = [c for c in verb.children if c.dep_ in ("nsubj", "nsubjpass")]
    if not subjects:
        return bool(verb.tag_ == "VB")
    able = any(c.tag_ == "MD" and c.lemma_.lower() in ("can", "could") for c in verb.children)
    return able and any(s.lower_ == "you" for s in subjects)


def _offer_clause(verb: Any) -> bool:
    """A clause whose own subject is "I" or "we" with a modal of ability or future, not negated."""
    first = any(c.dep_ == "nsubj" and c.lower_ in ("i", "we") for c in verb.children)
    # ability or future ("can", "will", "'ll"); not "would": "I'd give it a seven" delivers a judgement
    modal = any(c.tag_ == "MD" and c.lemma_.lower() in ("can", "could", "will", "shall") for c in verb.children)
    # "I can't be certain, but ...": a negated modal hedges a guess, it offers nothing
    return first and modal and not any(c.dep_ == "neg" for c in verb.children)


def _declines_only(sentences: list[str], references: tuple[str, ...]) -> bool:
    """Whether an answer that opens with a decline does nothing else: its first sentence goes on past no contrast
    ("I don't know which report you mean, but it probably says ..."), and every later sentence asks, notes the gap or
    is courtesy (:func:`only_asks`), says the material holds nothing on the matter ("The notes say nothing about the
    supplier."), or all of them give guidance about such material in general. A decline followed by anything else
    (a made-up summary, "It says revenue rose 12%") proceeds all the same (reviews 97, 98)."""
    if _carries_on(sentences[0], 0):
        return False
    rest = [s for s in sentences[1:] if not only_asks(s, references)]
    if not rest or _general_guidance(" ".join(rest), references):
        return True
    if len(rest) > MAX_ABSENCE_SENTENCES:
        return False
    from faithguard.nlp import parse_many

    return all(notes_silence(doc) for doc in parse_many(rest))


def classify_followup(response: str, references: tuple[str, ...] = ()) -> tuple[Decision, str]:
    """Whether a response asks for / notes missing input, proceeds anyway, or cannot be told apart.

    ``references`` are the missing references as the request named them ("the customer's complaint"): a
    response asking for one by its noun asks, whatever the noun.
    """
    text = response or ""
    asked = _reference_request(text, references)
    notes: list[re.Match[str]] = []
    for rx, requests in _ASK_RE:
        for m in rx.finditer(text):
            if _NEGATED_BEFORE.search(text[max(0, m.start() - 30) : m.start()]):
                continue
            if requests:
                asked = asked or m
            else:
                notes.append(m)
    first = asked or (notes[0] if notes else None)
    if first is None:
        absent = absence_noted(text, references)
        if absent is not None:
            notes.append(absent)
            first = absent
    if first is not None:
        if _ASSUME_RE.search(text):
            return "proceeds", f"notes the gap ({first.group()!r}) but proceeds on an assumption"
        if asked is None and all(_carries_on(text, m.end()) for m in notes):
            return "proceeds", f"notes the gap ({first.group()!r}) but carries on with a guess"
        return "asks", f"asks for or notes the missing input: {first.group()!r}"
    sentences = [s.strip() for s in SENTENCES.split(text) if s.strip()]
    if sentences and declines_first(sentences[0]) and _declines_only(sentences, references):
        return "asks", "opens by saying it cannot answer (the missing input is not pretended)"
    words = word_count(text)
    if _question_first(text):
        return "asks", "opens by asking the user a question before giving any answer"
    if _asks_by_syntax(text):
        return "asks", "asks the user for the input or offers to do the task once it comes, and does nothing else"
    if words < _MIN_WORDS:
        # A short statement ("The warranty is two years.") answers as if the content were there;
        # a short question back, or a couple of words, cannot be told apart.
        if words >= _MIN_STATEMENT_WORDS and "?" not in text:
            return "proceeds", "a short statement that answers without the missing input"
        return "undecided", "response too short to tell whether it proceeded"
    if _general_guidance(text, references):
        return "undecided", "speaks of such material in general and never names the user's item as seen"
    return "proceeds", "no request for the missing input; the response carries on with the task"


#: Adverbs of quantification (a closed class of English: how often something holds of a kind). They mark statements
#: about such things in general ("error pop-ups usually show a code"), not claims about the user's own item.
_GENERIC_RE = re.compile(r"\b(?:usually|generally|typically|normally|commonly|often|tends?\s+to|in\s+general)\b", re.I)
#: A bracketed slot the answer leaves for the user to fill ("Dear [landlord's name]"): the specifics are not claimed.
_SLOT_RE = re.compile(r"\[[^\[\]\n]{1,40}\]")
#: Marks (quantifying adverbs and slots) an answer needs before it reads as general guidance. Provenance: over the
#: study follow-up sets (own, fresh #3, #4, #5, #9, #11), 5 of 6 general answers the classifier called "proceeding"
#: have two or more, and 2 of 84 proceeding answers do (both name the item as known); with study fresh #13 added
#: (written later), 11 of 22 general answers are read so and 1 of 96 proceeding answers is lost. Fixtures:
#: tests/inputs/test_general_guidance.py.
GENERIC_MARKS = 2
#: Determiners and possessives that pick out the user's own item ("the article", "your essay", "her text").
_KNOWN_DETS = frozenset({"the", "this", "that", "these", "those", "your", "his", "her", "their", "its", "my"})


def _general_guidance(text: str, references: tuple[str, ...]) -> bool:
    """Whether the answer gives general guidance about such material instead of answering about the user's item:
    it has :data:`GENERIC_MARKS` quantifying adverbs or slots, and never names the missing item as something it has
    read (the item's head noun with a definite or possessive determiner, as a subject or a possessor: "The article
    reports ...", "your essay's thesis ...")."""
    if not references or len(_GENERIC_RE.findall(text)) + len(_SLOT_RE.findall(text)) < GENERIC_MARKS:
        return False
    return _names_item_as_read(text, references) is False


def _names_item_as_read(text: str, references: tuple[str, ...]) -> bool | None:
    """Whether the answer speaks of the missing item as something it has read: the item's head noun with a definite
    or possessive determiner, as a subject or a possessor ("The article reports ...", "your essay's thesis ...");
    None when the references name no head noun."""
    heads = {h.lower() for ref in references if (h := head_word(ref))}
    if not heads:
        return None
    from faithguard.lexical.wordnet_mmap import get_wordnet
    from faithguard.nlp import parse_many

    wn = get_wordnet()
    bases = {b for h in heads for b in (wn.base_forms(h) or [h])} | heads
    word = re.compile(r"\b(?:" + "|".join(sorted(map(re.escape, bases))) + r")(?:e?s)?\b", re.I)
    spans = [m.span() for m in RESPONSE_SENT_RE.finditer(text) if word.search(m.group())][:MAX_ABSENCE_SENTENCES]
    for doc in parse_many([text[a:b] for a, b in spans]):
        for tok in doc:
            if tok.lemma_.lower() not in bases and tok.lower_ not in bases:
                continue
            named = any(c.dep_ in ("det", "poss") and c.lower_ in _KNOWN_DETS for c in tok.children)
            if named and tok.dep_ in ("nsubj", "nsubjpass", "poss"):
                return True  # "The article reports ...": the item is spoken of as read
    return False


#: A declarative sentence of at least this many words is an answer; a question to the user before any such sentence
#: asks back ("Sure! What's the text you'd like translated?"). Fixtures: tests/inputs/test_generalize.py
#: (test_followup_question_first).
_ANSWER_SENTENCE_WORDS = 6
_YOU_RE = re.compile(r"\byou(?:r|'d|'re|'ve|'ll)?\b", re.I)


def _question_first(text: str) -> bool:
    """Whether a question addressed to the user comes before any declarative sentence that could be an answer."""
    for m in RESPONSE_SENT_RE.finditer(text):
        sentence = m.group().strip()
        if not sentence:
            continue
        if sentence.endswith("?"):
            return bool(_YOU_RE.search(sentence))
        if word_count(sentence) >= _ANSWER_SENTENCE_WORDS:
            return False
    return False


class FollowupDetector:
    """Output stage: a response that carries on although input content was missing misinterprets the request."""

    name = "missing_content_followup"
    stage: Literal["input", "output"] = "output"
    #: Before the other output detectors (the semantic layer 150, the engine's verdicts 300): they read whether
    #: the answer asks for the missing input (detector.ASKS_FOR_INPUT).
    order = 120
    timeout: float | None = None

    def run(self, ctx: CallContext) -> DetectorResult:
        """Critical misinterpretation verdict when the response ignores missing content."""
        readable(ctx.query or "")
        missing: Any = ctx.findings.get("missing_content") or []
        if ctx.response is None:
            return DetectorResult()
        if not missing:
            return _engagement(ctx, self.name)
        refs_named = tuple(str(f.get("reference", "")) for f in missing if isinstance(f, dict))
        decision, reason = classify_followup(ctx.response, refs_named)
        record: dict[str, Any] = {"missing_content_followup": {"decision": decision, "reason": reason}}
        if decision == "asks" and only_asks(ctx.response, refs_named):
            record[ASKS_FOR_INPUT] = True
        if decision != "proceeds":
            return DetectorResult(findings=record)
        refs = ", ".join(str(f.get("reference", "")) for f in missing if isinstance(f, dict))
        verdict = Verdict(
            kind=VerdictKind.MISINTERPRETATION,
            severity=Severity.CRITICAL,
            explanation=f"The request's content was missing ({refs}) but the response proceeded as if it had it: "
            f"{reason}.",
            detector=self.name,
        )
        return DetectorResult(verdicts=[verdict], findings=record)


#: Words at or above this wordfreq Zipf value (about the 1,500 most frequent English words) are too common to
#: show that a response used the supplied text. Fixtures: tests/inputs/test_engagement.py.
_COMMON_ZIPF = 5.0
#: Supplied text and response must each have this many words before silence about the content means anything.
_MIN_ENGAGE_WORDS = 40
#: A response must share at least this many distinctive words with the material to count as engaging with it: one
#: shared word is chance ("studies" in an off-topic essay). Fixtures: tests/inputs/test_engagement.py.
_MIN_SHARED = 2
_DISTINCT_RE = re.compile(r"[^\W\d_]{4,}|\d+(?:[.,]\d+)?")


def _distinct_words(text: str, skip: set[str]) -> set[str]:
    from faithguard.lexical.frequency import zipf

    out: set[str] = set()
    for w in _DISTINCT_RE.findall(text.lower()):
        if w in skip:
            continue
        if w[0].isdigit() or zipf(w) < _COMMON_ZIPF:
            out.add(w.rstrip("s") if len(w) > 4 else w)
    return out


def _brief(masked: str, at: int) -> bool:
    """Whether the reference's head noun is strong only by its communication share (a brief message)."""
    from faithguard.inputs.content_kinds import classify_noun

    m = re.match(r"[\w'’-]+", masked[at:])
    cls = classify_noun(m.group()) if m else None
    return cls is not None and cls.brief


def _without(text: str, span: tuple[int, int], holes: list[tuple[int, int]]) -> str:
    """``text[span]`` with the parts that ``holes`` cover blanked."""
    start, end = span
    chars = list(text[start:end])
    for a, b in holes:
        for i in range(max(a, start), min(b, end)):
            chars[i - start] = " "
    return "".join(chars)


def _engagement(ctx: CallContext, detector: str) -> DetectorResult:
    """A response that never touches the supplied content it was asked to work on changed the task."""
    from faithguard.inputs.references import find_references
    from faithguard.inputs.supply import scan
    from faithguard.inputs.units import free_units

    q = scan(ctx.query or "")
    # a document-sized item only: a brief message ("the asterisk", "the caption") may be a few words the answer need
    # not repeat
    refs = [
        r
        for r in find_references(q.text, q.masked, "query")
        if r.kind not in ("query", "response", "rubric") and not _brief(q.masked, r.noun_start)
    ]
    if not refs:
        return DetectorResult()
    # The supplied material: the documents, the request's typed blocks and its free content units.
    blocks = [*q.typed, *free_units(q, [r.sentence for r in refs])]
    material = " ".join([*ctx.documents, *(q.text[b.start : b.end] for b in blocks)])
    response = ctx.response or ""
    if word_count(material) < _MIN_ENGAGE_WORDS or word_count(response) < _MIN_ENGAGE_WORDS:
        return DetectorResult()
    from faithguard.lexical.langid import identify

    lang_m, lang_r = identify(material), identify(response)
    if lang_m.language != lang_r.language or min(lang_m.confidence, lang_r.confidence) < 0.5:
        return DetectorResult()  # a translation shares no words by design; unknown language: cannot tell
    # Words of the request sentences themselves ("summarise the ferry article") prove nothing; material inside such a
    # sentence (a colon tail: "on the following two topics: Schrodinger Equation, and Dirac Equation") is material.
    asked = {
        w
        for r in refs
        for w in _DISTINCT_RE.findall(_without(q.masked, r.sentence, [(b.start, b.end) for b in blocks]).lower())
    }
    shared = _distinct_words(material, asked) & _distinct_words(response, asked)
    engages = len(shared) >= _MIN_SHARED
    record = {"missing_content_followup": {"decision": "engages" if engages else "ignores", "shared": len(shared)}}
    if engages:
        return DetectorResult(findings=record)
    verdict = Verdict(
        kind=VerdictKind.MISINTERPRETATION,
        severity=Severity.WARNING,
        explanation="The request points to supplied content, but the response shares none of its distinctive "
        "words: it may answer a different task than the one asked about that content.",
        detector=detector,
    )
    return DetectorResult(verdicts=[verdict], findings=record)
