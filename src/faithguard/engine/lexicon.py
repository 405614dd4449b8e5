"""Small hand-written word lists the offline engine relies on (no I/O, no model)."""

from __future__ import annotations

from faithguard.numwords import CARDINALS

__all__ = [
    "CONTRAST_MARKERS",
    "ENTITY_EXCLUDERS",
    "FOLLOWUP_PREFIXES",
    "NUMBER_WORDS",
    "SPLIT_MARKERS",
    "TASK_FAMILY",
    "TASK_VERBS",
    "TEMPORAL_PREPS",
    "VAGUE_ADJECTIVES",
    "WRITE_FORMS",
    "number_value",
    "words",
    "words_in_order",
]


def words(text: str) -> frozenset[str]:
    """The whitespace-separated words of ``text`` as a set."""
    return frozenset(text.split())


def words_in_order(text: str) -> list[str]:
    """The whitespace-separated words of ``text`` in order."""
    return text.split()


#: Request verbs that name the task, mapped to a task family used by the checks.
TASK_FAMILY: dict[str, str] = {
    "list": "list",
    "name": "list",
    "enumerate": "list",
    "give": "list",
    "provide": "list",
    "identify": "list",
    "suggest": "list",
    "recommend": "list",
    "compare": "compare",
    "contrast": "compare",
    "differentiate": "compare",
    "distinguish": "compare",
    "summarize": "summarize",
    "summarise": "summarize",
    "condense": "summarize",
    "outline": "summarize",
    "translate": "translate",
    "explain": "explain",
    "describe": "explain",
    "discuss": "explain",
    "tell": "explain",
    "analyze": "explain",
    "analyse": "explain",
    "define": "explain",
    "write": "write",
    "compose": "write",
    "draft": "write",
    "create": "write",
    "generate": "write",
    "produce": "write",
    "rewrite": "write",
    "make": "write",
    "evaluate": "evaluate",
    "assess": "evaluate",
    "rate": "evaluate",
    "review": "evaluate",
    "critique": "evaluate",
    "grade": "evaluate",
    "implement": "code",
    "code": "code",
    "program": "code",
    "calculate": "calculate",
    "compute": "calculate",
    "estimate": "calculate",
    "find": "find",
    "show": "find",
    "classify": "classify",
    "rank": "list",
    "sort": "list",
    "answer": "answer",
}

TASK_VERBS: frozenset[str] = frozenset(TASK_FAMILY)

#: Words of a write-task object that refine the family ("write a poem" -> poem).
WRITE_FORMS: dict[str, str] = {
    "poem": "poem",
    "haiku": "poem",
    "sonnet": "poem",
    "limerick": "poem",
    "verse": "poem",
    "song": "poem",
    "lyric": "poem",
    "story": "story",
    "tale": "story",
    "essay": "prose",
    "article": "prose",
    "letter": "prose",
    "email": "prose",
    "blog": "prose",
    "post": "prose",
    "speech": "prose",
    "code": "code",
    "function": "code",
    "script": "code",
    "program": "code",
    "class": "code",
    "snippet": "code",
    "query": "code",
    "list": "list",
    "summary": "summarize",
    "comparison": "compare",
}

#: Adjectives that carry no checkable requirement.
VAGUE_ADJECTIVES: frozenset[str] = frozenset(
    [
        "good",
        "great",
        "nice",
        "best",
        "better",
        "main",
        "key",
        "important",
        "interesting",
        "other",
        "some",
        "few",
        "many",
        "much",
        "several",
        "certain",
        "various",
        "different",
        "same",
        "such",
        "own",
        "new",
        "general",
        "specific",
        "particular",
        "possible",
        "following",
        "above",
        "below",
        "short",
        "brief",
        "detailed",
        "quick",
        "simple",
        "little",
        "big",
        "small",
        "main",
        "whole",
        "entire",
        "real",
        "typical",
        "common",
        "major",
    ]
)

#: Prepositions that introduce a time restriction.
TEMPORAL_PREPS: frozenset[str] = frozenset({"before", "after", "since", "during", "until", "till", "between", "by"})

NUMBER_WORDS: dict[str, int] = CARDINALS | {
    "hundred": 100, "a couple of": 2, "a pair of": 2, "a dozen": 12, "dozen": 12, "single": 1, "both": 2,
}  # fmt: skip


def number_value(text: str) -> int | None:
    """The integer a numeral or number word denotes ("three", "12", "twenty-one"), else None."""
    t = text.strip().lower().replace(",", "")
    if t.isdecimal():
        return int(t) if len(t) <= 9 else None
    if t in NUMBER_WORDS:
        return NUMBER_WORDS[t]
    parts = t.replace("-", " ").split()
    if parts and all(p in NUMBER_WORDS for p in parts):
        total = 0
        for p in parts:
            v = NUMBER_WORDS[p]
            total = total * v if v == 100 and total else total + v
        return total
    return None


#: Words that introduce an exclusion of an entity itself (naming it violates).
ENTITY_EXCLUDERS: frozenset[str] = frozenset(
    {"except", "excluding", "exclude", "besides", "without", "other than", "apart from", "not including", "but not"}
)

#: Markers that turn a mention of an excluded entity into a contrast, not an answer.
CONTRAST_MARKERS: tuple[str, ...] = (
    "unlike", "not ", "n't", "never", "rather than", "instead of", "other than", "except", "excluding",
    "exclude", "as opposed to", "apart from", "whereas", "no ", "neither", "nor ", "non-", "besides",
    "aside from", "in addition to", "as well as",
)  # fmt: skip

#: Openers that make a short turn a follow-up to the previous user turn.
FOLLOWUP_PREFIXES: tuple[str, ...] = (
    "and ", "what about", "how about", "same for", "do the same", "now ", "also for", "and for", "then ",
    "make it", "make that", "shorten it", "expand it", "instead", "but for", "again", "repeat",
)  # fmt: skip

#: Connectives that start a new sub-question inside one message.
SPLIT_MARKERS: tuple[str, ...] = (
    "additionally,", "and also", "also,", "in addition,", "furthermore,", "moreover,", "finally,", "lastly,",
    "then,", "secondly,", "second,", "third,",
)  # fmt: skip
