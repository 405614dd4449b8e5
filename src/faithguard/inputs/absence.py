"""Does an answer say the item the request lacked is absent? Read by syntax on the answer's own sentences.

"I can't see the chart", "Neither screenshot arrived", "The photo didn't make it through", "Without the logs I can
only ...": the follow-up check (followup.py) reads such a sentence as noting the gap.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from faithguard.inputs.vocab import kind_of

__all__ = [
    "HOLDING_SHARE",
    "MAX_ABSENCE_SENTENCES",
    "RESPONSE_SENT_RE",
    "absence_noted",
    "head_word",
    "might_note_absence",
    "notes_absence",
    "reference_bases",
]

#: A response's sentences, for reading them one by one.
RESPONSE_SENT_RE = re.compile(r"[^.!?\n]+[.!?]*")


#: Sentences of a response read for a noted absence (bounded work on a long answer: the note comes early).
MAX_ABSENCE_SENTENCES = 12


def absence_noted(text: str, references: tuple[str, ...]) -> re.Match[str] | None:
    """A sentence that says a missing reference's own noun is absent, read by syntax (:func:`_absent`): the noun as a
    subject under "no" or "neither" whose verb says nothing more of it ("Neither screenshot arrived"), after
    "without" ("Without the logs I can only ..."), the subject of a negated "be" placing it in the exchange ("the
    proposals aren't in our conversation"), or the object of a first-person negated verb of perceiving or holding
    ("I can't see the chart"); or a sentence denying that the item, or anything, arrived (:func:`_not_arrived`: "No
    attachment reached me"). The noun comes from the request's findings. Returns the sentence as a match. Fixtures:
    tests/inputs/test_absence_noted.py."""
    bases = reference_bases(references)
    if not bases:
        return None
    from faithguard.nlp import parse_many

    spans = [m.span() for m in RESPONSE_SENT_RE.finditer(text) if might_note_absence(m.group(), bases)]
    spans = spans[:MAX_ABSENCE_SENTENCES]
    for (start, end), doc in zip(spans, parse_many([text[a:b] for a, b in spans]), strict=True):
        if notes_absence(doc, bases):
            return re.compile(re.escape(text[start:end])).search(text, start)
    return None


def reference_bases(references: tuple[str, ...]) -> frozenset[str]:
    """The missing references' head nouns and their base forms: WordNet's, else the plural's stem for a noun it lacks
    ("screenshots")."""
    heads = {h.lower() for ref in references if (h := head_word(ref))}
    if not heads:
        return frozenset()
    from faithguard.lexical.wordnet_mmap import get_wordnet

    wn = get_wordnet()
    bases = {b for h in heads for b in (wn.base_forms(h) or [h[:-1] if h.endswith("s") and len(h) > 3 else h])}
    return frozenset(bases | heads)


def notes_absence(doc: Any, bases: frozenset[str]) -> bool:
    """Whether a parsed sentence says the item (one of ``bases``), or anything, is absent (:func:`absence_noted`)."""
    for tok in doc:
        own = tok.lemma_.lower() in bases or tok.lower_ in bases
        if (own and _absent(tok)) or ((own or _denied_subject(tok)) and _not_arrived(tok)):
            return True
    return False


def might_note_absence(sentence: str, bases: frozenset[str]) -> bool:
    """Whether a sentence names the item or denies something outright: only such a sentence is parsed for a note."""
    return bool(_word_re(bases).search(sentence) or _NONE_WORD.search(sentence))


@lru_cache(maxsize=256)
def _word_re(bases: frozenset[str]) -> re.Pattern[str]:
    """The item's nouns as words of a sentence (plural endings allowed)."""
    return re.compile(r"\b(?:" + "|".join(sorted(map(re.escape, bases))) + r")(?:e?s)?\b", re.I)


#: Words that deny a subject outright ("no file", "neither copy", "nothing"): such a subject needs not be the item's
#: own noun for its arrival to be denied ("No attachment reached me").
_NONE_WORD = re.compile(r"\b(?:no|neither|nothing)\b", re.I)
#: WordNet 3.0's verb lexicographer file of motion (38 verb.motion): "arrive", "come", "reach", "land", "go".
_MOTION_FILE = 38
#: Particles and prepositions of passage into the exchange ("come through", "make it in", "get into the chat").
_PASSAGE = frozenset({"through", "in", "into", "over", "across"})
#: The reader of the answer, as object or goal ("reached me", "got through to us").
_READER = frozenset({"me", "us"})
#: Objects a verb of arrival may take and still speak of arrival only: "it" of "make it", and the reader ("reached me").
_ARRIVAL_OBJECTS = frozenset({"it"}) | _READER


def _denied_subject(tok: Any) -> bool:
    """A subject denied outright: "nothing", or a noun under "no" / "neither"."""
    if tok.dep_ not in ("nsubj", "nsubjpass"):
        return False
    return tok.lower_ == "nothing" or _under_no(tok)


def _under_no(tok: Any) -> bool:
    """A noun under "no" or "neither" ("no logs", "neither screenshot")."""
    return any(c.dep_ == "det" and c.lower_ in ("no", "neither") for c in tok.children)


def _not_arrived(tok: Any) -> bool:
    """Whether the sentence says the subject ``tok`` never reached the exchange: a denied verb with a particle of
    passage ("the photo didn't make it through", "the file didn't get into the chat"), or a verb of motion (WordNet
    verb.motion) denied with the reader as its goal ("the slides never reached me") or with a subject denied outright
    ("No attachment arrived"). The verb takes no object but "it" or the reader, no place but the exchange, and no
    clause of reason: "The essay doesn't go into detail", "the code doesn't run because ..." and "the essay doesn't
    flow" say something of the item. Fixtures: tests/inputs/test_absence_noted.py."""
    from faithguard.lexical.senses import verb_lexfiles_share

    verb = tok.head
    if tok.dep_ not in ("nsubj", "nsubjpass") or verb.pos_ not in ("VERB", "AUX"):
        return False
    outright = _denied_subject(tok)
    if not (outright or any(c.dep_ == "neg" or c.lower_ == "never" for c in verb.children)):
        return False
    passage = reader = False
    for c in verb.children:
        if c.dep_ in ("dobj", "attr", "acomp", "ccomp", "xcomp", "oprd", "dative", "advcl"):
            if c.lower_ not in _ARRIVAL_OBJECTS:
                return False
            reader = reader or c.lower_ in _READER
        elif c.dep_ in ("prt", "advmod") and c.lower_ in _PASSAGE:
            passage = True
        elif c.dep_ == "prep":
            objects = [p for p in c.children if p.dep_ == "pobj"]
            if c.lower_ in _PASSAGE and objects and not all(p.lower_ in _READER or _in_exchange(p) for p in objects):
                return False  # a place of its own: "doesn't go into detail", "didn't arrive in the story"
            reader = reader or any(p.lower_ in _READER for p in objects)
            passage = passage or c.lower_ in _PASSAGE
    if passage:
        return True
    return (outright or reader) and verb_lexfiles_share(verb.lemma_, (_MOTION_FILE,)) >= HOLDING_SHARE


def _in_exchange(noun: Any) -> bool:
    """The chat itself ("into the chat", "in this conversation")."""
    return kind_of(noun.lemma_.lower()) in _EXCHANGE_KINDS


#: WordNet 3.0 verb lexicographer files of perceiving, holding and touching (``lexnames``: 39 verb.perception, 40
#: verb.possession, 35 verb.contact): "see", "find", "have", "receive", "open", "load", "attach".
_HOLDING_FILES = (39, 40, 35)
#: WordNet 3.0's verb lexicographer file of knowing and judging (31 verb.cognition): "read", "judge", "view".
_COGNITION_FILE = 31
#: A negated verb with the user's item as object notes its absence when at least this share of the verb's tagged
#: uses is perceiving, holding or touching ("I can't see the chart"; not "I wouldn't change the poem"). Fixtures:
#: tests/inputs/test_absence_noted.py.
HOLDING_SHARE = 0.4
#: Dependents that give a verb something to say about its subject ("The recipe doesn't need eggs", "The essay isn't
#: long"): then the negation is about the item's content, not its presence.
_SAYS_MORE = frozenset({"dobj", "attr", "acomp", "xcomp", "ccomp", "oprd", "dative"})


#: Kinds (inputs/vocab.py) of the exchange itself: the conversation, a message, the request.
_EXCHANGE_KINDS = frozenset({"thread", "message", "query"})


def _says_more(verb: Any) -> bool:
    """The verb says something of its subject beyond presence: an object or complement, or a clause of reason."""
    return any(c.dep_ in _SAYS_MORE or c.dep_ == "advcl" for c in verb.children)


def _absent(tok: Any) -> bool:
    verb = tok.head
    if _under_no(tok):
        # "Neither screenshot arrived", "no logs came through"; not "neither screenshot shows an error code"
        return tok.dep_ in ("nsubj", "nsubjpass") and not _says_more(verb)
    if tok.dep_ == "pobj" and tok.head.lower_ == "without":
        return True  # "Without the logs I can only ..."
    if not any(c.dep_ == "neg" for c in verb.children):
        return False
    if tok.dep_ in ("nsubj", "nsubjpass"):
        # "the proposals aren't in our conversation": "be" whose only complement places the item in the exchange;
        # "the code doesn't compile because ...", "the poem isn't in English" say something of the item
        places = [
            p
            for c in verb.children
            if c.dep_ == "prep" and c.lower_ in ("in", "within", "inside")
            for p in c.children
            if p.dep_ == "pobj" and _in_exchange(p)
        ]
        return verb.lemma_ == "be" and bool(places) and not _says_more(verb)
    if tok.dep_ == "dobj":
        from faithguard.lexical.senses import verb_lexfiles_share

        first_person = any(c.dep_ == "nsubj" and c.lower_ in ("i", "we") for c in verb.children)
        held = verb_lexfiles_share(verb.lemma_, _HOLDING_FILES)
        if first_person and held >= HOLDING_SHARE:
            return True  # "I can't see the chart", "we don't have the logs"
        # "I can't read the label", "I can't judge the essay": unable to take the item in (a verb of knowing, WordNet
        # verb.cognition); "I can't fault the essay" (communication) says something of it
        unable = any(c.tag_ == "MD" and c.lemma_.lower() in ("can", "could", "ca") for c in verb.children)
        return first_person and unable and verb_lexfiles_share(verb.lemma_, (_COGNITION_FILE,)) >= HOLDING_SHARE
    return False


def head_word(reference: str) -> str:
    words = re.findall(r"[^\W\d_]{3,}", reference)
    return words[-1] if words else ""
