"""Word-level tests the reference reader applies, each answered by WordNet or the project's word tables: the request's
opening verb, an imperative, an ordinal picking out one item, a WordNet compound, a group modifier.

Split from :mod:`faithguard.inputs.references` (which keeps the patterns that find references).
"""

from __future__ import annotations

import re

from faithguard.inputs.content_kinds import lexname_test
from faithguard.inputs.vocab import NUMBER_WORDS, ORDINAL_WORDS

__all__ = ["group_modifier", "imperative", "ordinal_item", "request_object", "wordnet_compound"]

#: The request's own verb opening its sentence, optionally after a politeness frame ("Please", "Can you").
_REQUEST_VERB_RE = re.compile(
    r"^\W*(?:(?:please|kindly|can\s+you|could\s+you|would\s+you)\s+)?(?P<verb>[a-z]+)\s+$", re.I
)


def request_object(before: str) -> bool:
    """Whether the noun phrase after ``before`` is the direct object of the request's opening verb ("Translate ...").

    The verb must be a WordNet verb lemma as written (an imperative is the bare form).
    """
    from faithguard.lexical.wordnet_mmap import get_wordnet

    mv = _REQUEST_VERB_RE.match(before)
    return mv is not None and get_wordnet().is_verb(mv.group("verb").lower())


_FIRST_WORD_RE = re.compile(r"^\W*(?:(?:please|kindly)\s+)?(?P<verb>[A-Za-z]+)\b")


def imperative(sentence: str) -> bool:
    """Whether the sentence opens with a verb lemma as written (an imperative: "Pull the numbers out of ...")."""
    from faithguard.lexical.wordnet_mmap import get_wordnet

    mv = _FIRST_WORD_RE.match(sentence)
    return mv is not None and get_wordnet().is_verb(mv.group("verb").lower())


def ordinal_item(before: list[re.Match[str]], noun: str) -> bool:
    """An ordinal picks out one of several items the user holds when the noun can be a text ('the third study').

    The noun must pass the spec's ``cited`` lexname test (a communication sense among its first senses, first
    sense not a physical thing): "the second survey" counts, "the first step" and "the third war" do not.
    """
    return any(w.group().lower() in ORDINAL_WORDS for w in before) and lexname_test("cited", noun)


def wordnet_compound(first: str, second: str) -> str | None:
    """The WordNet lemma two nouns form as one compound ("press release", "warning light", "thesis statement"), as
    WordNet spells it, or None.

    English writes a compound open, hyphenated or closed, and WordNet lists one spelling: the open pair is also
    looked up closed ("book club" is WordNet's "bookclub", "web site" its "website").
    """
    from faithguard.lexical.wordnet_mmap import get_wordnet

    if not (first.isalpha() and second.isalpha()):
        return None
    wn = get_wordnet()
    for lemma in (f"{first} {second}".lower(), f"{first}{second}".lower()):
        if wn.senses(lemma.replace(" ", "_")):
            return lemma
    return None


def group_modifier(word: str) -> bool:
    """A compound modifier naming a body of people ("board", "committee"), not a count or time ("few", "last")."""
    low = word.lower()
    return low not in NUMBER_WORDS and low not in ORDINAL_WORDS and lexname_test("group_modifier", low)
