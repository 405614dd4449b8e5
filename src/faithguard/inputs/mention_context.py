"""What the words around a definite noun phrase say about it: a work or entity of the world, part of the text being
written, a generic or how-to mention, a phrase with an antecedent in the request; and the bounded sentence prefix
those tests read. :func:`non_reference` is the filter ``references`` applies to a phrase that is not strongly
pointed at.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import TYPE_CHECKING

from faithguard.inputs.discourse import (
    OUTPUT_AFTER,
    POSSESSIVE,
    coordinated_part_of_creation,
    introduced_earlier,
    part_of_creation,
)
from faithguard.inputs.discourse import sentence_of as _sentence_of
from faithguard.inputs.vocab import CONTENT_NOUNS, CREATION_VERBS, NUMBER_WORDS, ORDINAL_WORDS, kind_of

if TYPE_CHECKING:
    from faithguard.inputs.references import Reference

__all__ = [
    "PREFIX_CHARS",
    "TITLE_AFTER",
    "has_antecedent",
    "is_capitalised",
    "non_reference",
    "sentence_prefix",
]

#: Characters of a sentence before a noun phrase that the prefix tests read. Both need less: the request's opening
#: verb ("Please translate ") and a citing phrase ("according to ", "as described in ") end right before the noun
#: phrase. Reading the whole prefix made a run-on "sentence" of n definite noun phrases cost n^2 (50k characters:
#: 4 s in one regex).
PREFIX_CHARS = 80
_AS_BEFORE = re.compile(r"\bas\s*$", re.I)


def sentence_prefix(masked: str, sents: list[tuple[int, int]], pos: int) -> str:
    """The sentence before ``pos``; of a longer one, its last characters behind a word ("_") that keeps the
    tests anchored at the sentence start ("Given ...", "Please translate ...") from matching mid-sentence."""
    start = _sentence_of(sents, pos)[0]
    if pos - start <= PREFIX_CHARS:
        return masked[start:pos]
    return "_ " + masked[pos - PREFIX_CHARS : pos]


#: "the report of the Warren Commission", "the first law of motion", "the essay by Orwell", "the green light in The
#: Great Gatsby" (round 7: "in" + a name, a part of a named work): a world entity. "Of" before a determiner and a
#: lowercase noun describes the user's own item ("the screenshot of the error", "the photo of my rash", session 14).
#: Fixtures: tests/inputs/test_world_parts.py.
_OF_AFTER = re.compile(
    r"^(?:'s|’s)?\s*(?:(?i:of)\s+(?!(?i:the|my|our|this|that|these|those|his|her|their)\b)"
    r"|(?i:of|by|from|on|in)\s+(?:the\s+)?[A-Z])"
)
#: Any "of" right after the noun.
_OF_ANY = re.compile(r"^(?:'s|’s)?\s*(?i:of)\b")


def _counted(gap: str) -> bool:
    """Whether the words between determiner and noun count or order it ("first 7", "three", "2nd")."""
    words = [w.lower() for w in re.findall(r"[\w'’-]+", gap)]
    return any(w in ORDINAL_WORDS or w in NUMBER_WORDS or w.isdecimal() for w in words)


#: A title, a quoted name or an identifier after the noun names a particular work ("the paper 'Attention...'",
#: "the error code 404", "the form 1040"): a world entity, not the user's material ("2 paragraphs" is a unit).
# possessive: the blanks before the colon are read once, not split with those after it (issue 16)
TITLE_AFTER = re.compile(r"^\s+(?:[\"'“‘]|[A-Z][a-z]|\d+\b(?!\s+[a-z]+s\b))|^\s*+[:,]?\s*[\"“]")
_LETTER_AFTER = re.compile(r"^\s+[A-Za-z]\b(?!['’])")
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


def is_capitalised(word: str, at: int, sent_start: int, text: str) -> bool:
    """Title-case word that is not the first word of its sentence (a proper name)."""
    if not word[:1].isupper() or (word.isupper() and len(word) <= 4):
        return False
    return text[sent_start:at].strip() != ""


#: "the same ..." / "the very same ..." said of several things of the sentence ("no two words may share the same
#: first letter", "every section uses the same layout"): an identity among the answer's own parts, not a pointer to
#: material. Alone ("rewrite the same paragraph") it points back at an earlier one. Fixtures:
#: tests/inputs/test_talk_and_links.py.
_SAME_RE = re.compile(r"^(?:very\s+)?same\b", re.I)
#: The quantifiers (a closed class of English determiners) that make "the same" an identity among several.
_SHARED_BY = re.compile(r"\b(?:each|every|all|both|two|three)\b", re.I)


def non_reference(ref: Reference, m: re.Match[str], masked: str, text: str, sent: tuple[int, int]) -> bool:
    """Pattern filters for mentions that name world entities, creations or generic things."""
    after = masked[m.end() : m.end() + 100]
    gap_start = m.start("gap")
    deictic = m.group("det").lower() in ("this", "these", "my", "our")
    for wm in re.finditer(r"[\w'’-]+", m.group("gap")):
        word = wm.group()
        if word.isupper() and len(word) > 1 and kind_of(word) is None and not deictic:
            return True  # the IPCC report, the UN paper
        if is_capitalised(word, gap_start + wm.start(), sent[0], text) and not deictic:
            return True  # the Mueller report (but "my LinkedIn summary", "this Python script" are the user's)
    if m.group("det").lower() == "the" and _SAME_RE.match(m.group("gap")) and _SHARED_BY.search(masked, *sent):
        return True  # "no two words may share the same first letter": an identity among the answer's own parts
    noun = m.group("noun")
    if is_capitalised(noun, m.start("noun"), sent[0], text):
        return True  # the Federalist Papers, the Stern Review
    if _OF_AFTER.match(after) and not deictic:
        return True  # the report of the Warren Commission (but "my letter of recommendation" is the user's)
    if _OF_ANY.match(after) and not deictic and _counted(m.group("gap")):
        return True  # "the first 7 terms of the progression": a counted part, read through its whole (parts.py)
    if TITLE_AFTER.match(after):
        return True  # the paper 'Attention...'
    if ref.kind == "letter" and _LETTER_AFTER.match(after):
        return True
    # the two tests below end right before the phrase: the bounded prefix reads the same (a run-on sentence read
    # whole for each of its phrases was quadratic: 50k characters, ~1,000 phrases, 2 s)
    before = sentence_prefix(masked, [sent], m.start())
    if _AS_BEFORE.search(before):
        return True  # "speak as the narrator": a role, not a text
    if _CREATION_BEFORE.search(before):
        return True  # write the cover letter...
    if OUTPUT_AFTER.match(after):
        return True  # "the lyrics you write": the assistant's own output
    if part_of_creation(ref.kind, noun, masked[: sent[0]]):
        return True  # "Write a poem. ... Separate the stanzas": parts of the text being written
    if coordinated_part_of_creation(ref.kind, noun, masked[sent[0] : sent[1]], m.start() - sent[0]):
        return True  # "Write a poem and make the second verse sad": the same, in one sentence
    sentence = masked[sent[0] : sent[1]]
    if ref.kind in _PROGRAMMING_KINDS and ref.index is None and _PROGRAMMING.search(sentence):
        return True  # "read the file in Python" (an ordinal still picks out a held item: "the third study's method")
    if _HOWTO.match(sentence):
        return True
    forms = tuple(re.escape(f) for f, k in CONTENT_NOUNS.items() if k == ref.kind) or (re.escape(noun),)
    first = _first_indefinite_end(forms, masked)
    return (first is not None and first <= m.start()) or has_antecedent(m, masked)


@lru_cache(maxsize=64)
def _first_indefinite_end(forms: tuple[str, ...], masked: str) -> int | None:
    """Where the first indefinite mention of one of ``forms`` ("a report", "another essay") ends in ``masked``.

    A phrase has an indefinite antecedent exactly when that first mention ends before it (a later match that ends
    before the phrase would make the first one end no later), so the text is searched once per kind, not once per
    phrase over everything before it (quadratic in a run-on request)."""
    anaphora = re.compile(r"\b(?:a|an|another)\s+(?:[\w'’-]+\s+){0,3}?(?:" + "|".join(forms) + r")\b", re.I)
    found = anaphora.search(masked)
    return found.end() if found is not None else None


def has_antecedent(m: re.Match[str], masked: str) -> bool:
    """The noun, or a possessor in its phrase ("the essay's argument"), was introduced earlier by the request."""
    owners = [re.sub(r"(?:'s|’s|')$", "", w) for w in m.group("gap").split() if POSSESSIVE.search(w)]
    return any(introduced_earlier(w, masked, m.start()) for w in [m.group("noun"), *owners])
