"""What the request itself introduces: its sentences, earlier mentions of a noun, the text it asks to write.

Split from ``references.py``: a definite noun the request introduced earlier ("write two jokes ... the two jokes"),
or a part of the text it asks for ("write a poem ... separate the stanzas"), is that new item, not missing material.
Fixtures: tests/inputs/test_generalize.py (specs antecedent_in_request, part_of_created_text,
output_clause_after_noun).
"""

from __future__ import annotations

import bisect
import re
from functools import lru_cache

from faithguard.inputs.content_kinds import lexname_test
from faithguard.inputs.vocab import CREATION_VERBS, PART_KINDS, kind_of
from faithguard.numwords import CARDINALS

__all__ = [
    "OUTPUT_AFTER",
    "POSSESSIVE",
    "coordinated_part_of_creation",
    "introduced_earlier",
    "opens_creation",
    "part_of_creation",
    "sentence_of",
    "sentences",
]

_SENT_RE = re.compile(r"[^.!?\n]+(?:[.!?]+|$)|\n", re.M)
_WORD_RE = re.compile(r"[\w'’-]+")
#: A possessive word ("the customer's", "the students'").
POSSESSIVE = re.compile(r"\w(?:'s|’s|s'|s’)$")


def sentences(text: str) -> list[tuple[int, int]]:
    return [(m.start(), m.end()) for m in _SENT_RE.finditer(text) if m.group().strip()]


def sentence_of(spans: list[tuple[int, int]], pos: int) -> tuple[int, int]:
    """The span of ``spans`` (in order, not overlapping) holding ``pos``, else (pos, pos)."""
    i = bisect.bisect_right(spans, (pos, float("inf"))) - 1
    if i >= 0 and spans[i][0] <= pos < spans[i][1]:
        return spans[i]
    return (pos, pos)


#: A second-person creation clause after the noun: the item is what the assistant will write ("the lyrics you write").
OUTPUT_AFTER = re.compile(
    r"^\s+(?:that\s+|which\s+)?you(?:'ll|\s+will|\s+are\s+going\s+to)?\s+(?:"
    + "|".join(sorted(CREATION_VERBS, key=len, reverse=True))
    + r")\b",
    re.I,
)
#: An imperative creation verb opening a sentence or clause ("Write a short essay ...", "Please compose ...").
_CREATION_OPENING = re.compile(
    # [^\S\n]*: the gap after a mark stops at a newline, the last newline of a run opens the clause (issue 16)
    r"(?:^|[.!?\n][^\S\n]*|\b(?:please|and|then|also)\s+)(?:"
    + "|".join(sorted(CREATION_VERBS, key=len, reverse=True))
    + r")\s+(?:me\s+|us\s+)?(?:a|an|some|\d+|"
    + "|".join(sorted(CARDINALS, key=len, reverse=True))
    + r")\b",
    re.I,
)


def part_of_creation(kind: str, noun: str, earlier: str) -> bool:
    """A part of a text ('the stanzas', 'the fourth sentence') after an earlier sentence that creates a text.

    The part is a unit of the kind table (paragraph, sentence, chapter) or a noun passing the spec's ``text_part``
    test (a unit of textual matter: stanza, heading, line). Fixtures: tests/inputs/test_generalize.py
    (spec part_of_created_text).
    """
    if not earlier.strip() or not opens_creation(earlier, len(earlier)):
        return False
    return kind in PART_KINDS or lexname_test("text_part", noun)


@lru_cache(maxsize=64)
def _first_opening_end(text: str) -> int | None:
    found = _CREATION_OPENING.search(text)
    return found.end() if found is not None else None


def opens_creation(text: str, end: int) -> bool:
    """Whether ``text[:end]`` holds a clause that creates a text (:data:`_CREATION_OPENING`), read once per text: it
    does exactly when the first such clause in ``text`` ends by ``end`` (a clause ending earlier would be found
    first), so a request of n phrases is not searched n times over everything before each (quadratic)."""
    first = _first_opening_end(text)
    return first is not None and first <= end


#: The reference opens the object of a second verb coordinated after the creation clause ("Write a poem and make
#: the second verse sad"): "and" or "then", the verb, and nothing else before the reference's determiner.
_COORDINATED_VERB = re.compile(r"(?:,\s*|\s)(?:and|then)\s+(?:then\s+)?(?P<verb>[a-z]+)\s+$", re.I)


def coordinated_part_of_creation(kind: str, noun: str, sentence: str, at: int) -> bool:
    """A part of a text ('the second verse') as the object of a verb coordinated after a clause that creates a
    text, in the same sentence ("Write a poem and make the second verse sad"). Unlike a part named inside the
    creation clause ("Write a reply that quotes the second paragraph", "Write a summary of the first chapter"),
    the part then belongs to the new text. The reference stands at ``at`` in ``sentence``. The word after
    "and"/"then" must be a WordNet verb lemma ("and also the ..." is not). Fixtures: tests/inputs/
    test_generalize.py (spec part_of_created_text)."""
    before = sentence[:at]
    # the verb and its "and"/"then" end the text: only its last four words can hold them ("poem, and then make"),
    # so the search starts there rather than trying every position of a long sentence
    words = before.rsplit(None, 4)
    m = _COORDINATED_VERB.search(before, len(words[0]) if len(words) == 5 else 0)
    if m is None or not opens_creation(sentence, m.start()):
        return False
    from faithguard.lexical.wordnet_mmap import get_wordnet

    if not get_wordnet().is_verb(m.group("verb").lower()):
        return False
    return kind in PART_KINDS or lexname_test("text_part", noun)


#: A determiner or possessive that makes an earlier mention a reference of its own, not an introduction.
_DEFINITE_BEFORE = frozenset({"the", "this", "that", "these", "those", "my", "our", "his", "her", "their"})
#: A first-person word in the clause before a mention: the user's own item ("I have two essays"), not a new one.
#: An object "me"/"us" is the user receiving what the assistant makes ("Tell me a joke ... explain the joke"), so it
#: counts only after "let" ("let me share two essays"). Fixtures: tests/inputs/test_world_parts.py (round 7).
_FIRST_PERSON_RE = re.compile(r"\b(?:i|we|i'[a-z]+|we'[a-z]+|my|our|let\s+(?:me|us))\b", re.I)


@lru_cache(maxsize=16384)
def _same_noun(word: str, noun: str) -> bool:
    """Whether two nouns share a lemma: one kind of the kind table, or one WordNet base form ("jokes", "joke")."""
    a, b = word.lower(), noun.lower()
    if a == b:
        return True
    ka, kb = kind_of(a), kind_of(b)
    if ka is not None or kb is not None:
        return ka == kb and a.rstrip("s") == b.rstrip("s")
    from faithguard.lexical.wordnet_mmap import get_wordnet

    wn = get_wordnet()
    return bool(set(wn.base_forms(a)) & set(wn.base_forms(b)))


@lru_cache(maxsize=8)
def _word_index(masked: str) -> dict[str, tuple[int, ...]]:
    """Each word of ``masked`` (lower case) -> where it starts, read once per text: a request naming n items asked
    for each one's earlier mentions by a walk over the whole text (n^2 on a long run-on text)."""
    index: dict[str, list[int]] = {}
    for wm in _WORD_RE.finditer(masked):
        index.setdefault(wm.group().lower(), []).append(wm.start())
    return {w: tuple(at) for w, at in index.items()}


#: Characters before an earlier mention read for its clause (a determiner, a possessive, a first-person word).
CLAUSE_CHARS = 200


def introduced_earlier(noun: str, masked: str, at: int) -> bool:
    """The request itself introduced the item earlier: 'Write two jokes ... separate the two jokes'.

    An earlier mention of the same noun counts when it is not definite or possessive itself (an indefinite, a
    count or a bare noun: "consisting of 10 questions", "include two tables") and its clause has no first-person
    word ("I have two essays" is the user's own item, still to be supplied). Fixtures: tests/inputs/
    test_generalize.py (spec antecedent_in_request).
    """
    spots = _introductions(noun, masked)
    return bool(spots) and spots[0] < at


def _ordered_object(before: list[str]) -> bool:
    """Whether a definite mention is the object of an order (a verb's base form right before "the") that does not
    communicate: "calculate and provide the individual scores" asks the answer to make them, so a later "these three
    scores" is those, as after an indefinite introduction; "summarize the report" works on material (the verb's
    most frequent WordNet sense communicates). The first mention itself is still read as a reference where it
    stands. Fixtures: tests/inputs/test_ordered_antecedents.py."""
    from faithguard.lexical.wordnet_mmap import get_wordnet

    spots = [i for i, w in enumerate(before) if w in _DEFINITE_BEFORE]
    if not spots or spots[-1] == 0:
        return False
    verb = before[spots[-1] - 1]
    if not (verb.isalpha() and get_wordnet().is_verb(verb)) or _FIRST_PERSON_RE.search(" ".join(before)):
        return False
    from faithguard.lexical import wordnet_verbs

    # a verb that communicates works on material ("summarize the report", "translate the letter"): not made
    return wordnet_verbs.verb_file(verb) != "verb.communication"


@lru_cache(maxsize=8)
def _sentences_of(masked: str) -> list[tuple[int, int]]:
    return sentences(masked)


@lru_cache(maxsize=256)
def _introductions(noun: str, masked: str) -> tuple[int, ...]:
    """Where ``masked`` introduces ``noun`` (see :func:`introduced_earlier`), read once per noun and text: whether
    a mention introduces depends on the text before it only, so a request asking about the same noun n times
    costs one walk over its mentions, not n."""
    sents = _sentences_of(masked)
    out: list[int] = []
    for pos in sorted(pos for word, starts in _word_index(masked).items() if _same_noun(word, noun) for pos in starts):
        start = max(sentence_of(sents, pos)[0], pos - CLAUSE_CHARS)
        clause = re.split(r"[,;:]", masked[start:pos])[-1]
        before = [w.lower() for w in _WORD_RE.findall(clause)][-4:]
        if any(w in _DEFINITE_BEFORE or POSSESSIVE.search(w) for w in before) and not _ordered_object(before):
            continue
        if _FIRST_PERSON_RE.search(masked[start:pos]):
            continue
        out.append(pos)
    return tuple(out)
