"""Word lists and compiled patterns shared by the missing-content checks."""

from __future__ import annotations

import re

from faithguard.numwords import CARDINALS

__all__ = [
    "COMPARE_RE",
    "CONTENT_NOUNS",
    "CREATION_VERBS",
    "GAP_STOP",
    "NUMBER_WORDS",
    "ORDINAL_WORDS",
    "PART_KINDS",
    "ROLE_GROUPS",
    "SMALL_KINDS",
    "STRONG_KINDS",
    "group_of",
    "kind_of",
]

#: surface form (lowercase, singular or plural) -> canonical kind.
_NOUN_FORMS: dict[str, tuple[str, ...]] = {
    "article": ("article", "articles"),
    "document": ("document", "documents", "doc", "docs"),
    "report": ("report", "reports"),
    "paper": ("paper", "papers"),
    "essay": ("essay", "essays"),
    "email": ("email", "emails", "e-mail", "e-mails"),
    "letter": ("letter", "letters"),
    "memo": ("memo", "memos"),
    "attachment": ("attachment", "attachments"),
    "file": ("file", "files"),
    "transcript": ("transcript", "transcripts"),
    "passage": ("passage", "passages"),
    "excerpt": ("excerpt", "excerpts"),
    "text": ("text", "texts"),
    "paragraph": ("paragraph", "paragraphs"),
    "abstract": ("abstract", "abstracts"),
    "story": ("story", "stories"),
    "poem": ("poem", "poems"),
    "contract": ("contract", "contracts"),
    "resume": ("resume", "résumé", "resumes", "cv"),
    "draft": ("draft", "drafts"),
    "manuscript": ("manuscript", "manuscripts"),
    "code": ("code", "snippet", "snippets"),
    "script": ("script", "scripts"),
    "spreadsheet": ("spreadsheet", "spreadsheets", "csv", "sheet"),
    "pdf": ("pdf", "pdfs"),
    "slides": ("slides", "slide", "deck"),
    "notes": ("notes",),
    "minutes": ("minutes",),
    "chapter": ("chapter", "chapters"),
    "thesis": ("thesis", "dissertation"),
    "proposal": ("proposal", "proposals"),
    "rubric": ("rubric", "rubrics"),
    "lyrics": ("lyrics",),
    "speech": ("speech", "speeches"),
    "piece": ("piece",),
    "image": ("image", "images", "photo", "photos", "picture", "pictures", "screenshot", "screenshots"),
    "context": ("context", "contexts"),
    "data": ("data", "dataset", "datasets"),
    "table": ("table", "tables", "chart", "charts", "graph", "graphs"),
    "source": ("source", "sources"),
    "review": ("review", "reviews"),
    "content": ("content", "contents", "material", "materials"),
    "post": ("post", "posts", "tweet", "tweets"),
    "thread": ("thread", "conversation", "chat", "log", "logs"),
    "message": ("message", "messages", "comment", "comments", "feedback"),
    "sentence": ("sentence", "sentences", "quote", "quotes", "quotation"),
    "list": ("list",),
    "input": ("input", "inputs"),
    "statement": ("statement", "statements"),
    "reading": ("reading", "readings"),
    "query": ("query", "queries", "question", "questions", "prompt", "prompts"),
    "response": ("response", "responses", "answer", "answers", "reply", "replies", "output", "outputs"),
}

CONTENT_NOUNS: dict[str, str] = {form: kind for kind, forms in _NOUN_FORMS.items() for form in forms}

#: Kinds that count as a reference after a bare "the"; the rest need a supply marker.
STRONG_KINDS: frozenset[str] = frozenset(
    {
        "article",
        "document",
        "report",
        "paper",
        "essay",
        "email",
        "letter",
        "memo",
        "attachment",
        "file",
        "transcript",
        "passage",
        "excerpt",
        "text",
        "paragraph",
        "story",
        "poem",
        "contract",
        "resume",
        "draft",
        "manuscript",
        "code",
        "script",
        "spreadsheet",
        "pdf",
        "slides",
        "notes",
        "chapter",
        "thesis",
        "proposal",
        "rubric",
        "lyrics",
        "speech",
        "piece",
        "image",
    }
)

#: Kinds satisfied by a few words of inline text (a sentence, a quote...).
SMALL_KINDS: frozenset[str] = frozenset(
    {
        "sentence",
        "code",
        "script",
        "list",
        "input",
        "content",
        "message",
        "statement",
        "query",
        "response",
        "review",
        "post",
        "text",
        "paragraph",
        "lyrics",
    }
)

#: Kinds that are units inside a text (definitional: a paragraph, sentence or chapter is part of a document). In
#: one sentence beside a whole ("the essay ... the last paragraph") they need no item of their own.
PART_KINDS: frozenset[str] = frozenset({"paragraph", "sentence", "chapter"})

#: Typed inline blocks only satisfy references of the same group.
ROLE_GROUPS: dict[str, str] = {"query": "query", "response": "response", "rubric": "rubric"}


def kind_of(word: str) -> str | None:
    """Canonical content kind of a noun, or None."""
    return CONTENT_NOUNS.get(word.lower().replace("’", "'"))


def group_of(kind: str) -> str:
    """Resolution group of a kind: query, response, rubric or doc."""
    return ROLE_GROUPS.get(kind, "doc")


NUMBER_WORDS: dict[str, int] = {w: n for w, n in CARDINALS.items() if 1 <= n <= 10} | {
    "both": 2,
    "pair": 2,
    "couple": 2,
    "single": 1,
}
ORDINAL_WORDS: dict[str, int] = {
    "first": 1,
    "second": 2,
    "third": 3,
    "fourth": 4,
    "fifth": 5,
    "sixth": 6,
    "seventh": 7,
    "eighth": 8,
    "ninth": 9,
    "tenth": 10,
    "1st": 1,
    "2nd": 2,
    "3rd": 3,
    "4th": 4,
    "5th": 5,
    "last": 0,
    "final": 0,
}

CREATION_VERBS: frozenset[str] = frozenset(
    {
        "write",
        "writes",
        "writing",
        "wrote",
        "draft",
        "drafting",
        "compose",
        "composing",
        "create",
        "creating",
        "generate",
        "generating",
        "produce",
        "producing",
        "prepare",
        "preparing",
        "author",
        "pen",
        "craft",
        "crafting",
        "plan",
        "planning",
        "brainstorm",
        "invent",
        "design",
        "outline",
    }
)

#: Words that cannot sit between a determiner and its content noun.
GAP_STOP: frozenset[str] = frozenset(
    [
        "of",
        "to",
        "in",
        "on",
        "for",
        "and",
        "or",
        "is",
        "are",
        "was",
        "were",
        "be",
        "been",
        "that",
        "which",
        "with",
        "from",
        "by",
        "about",
        "as",
        "at",
        "it",
        "its",
        "a",
        "an",
        "i",
        "you",
        "he",
        "she",
        "we",
        "they",
        "me",
        "what",
        "how",
        "why",
        "who",
        "whom",
        "not",
        "no",
        "than",
        "then",
        "if",
        "so",
        "but",
        "do",
        "does",
        "did",
        "has",
        "have",
        "had",
        "can",
        "will",
        "would",
        "should",
        "could",
        "into",
        "over",
        "after",
        "before",
        "this",
        "these",
        "the",
        "my",
        "your",
        "our",
        "their",
        "his",
        "her",
        "some",
        "any",
        "every",
        "there",
        "here",
        "when",
        "where",
        "while",
        "also",
        "just",
        "only",
        "please",
        "very",
    ]
)

COMPARE_RE = re.compile(
    r"\b(compar\w*|contrast\w*|differ\w*|similar\w*|between|relationship|relate[sd]?|contradict\w*|versus|vs\.?|"
    r"common|overlap\w*|rank\w*|which (?:one|of))\b",
    re.IGNORECASE,
)
