"""The task a request's action asks for: its family ("list", "write", "compare") and, for a write task, the form
(poem, story, code), from the engine lexicon's request verbs and form words; WordNet says whether a form word can
name program text."""

from __future__ import annotations

import re
from collections.abc import Sequence

from faithguard.engine.lexicon import TASK_FAMILY, WRITE_FORMS
from faithguard.engine.response import norm
from faithguard.lexical import wordnet
from faithguard.models import Category, Constraint

__all__ = ["software_form", "task_family", "write_form"]


def task_family(c: Constraint) -> str | None:
    """The task family of an action constraint whose first word is a request verb."""
    words = c.text.lower().split()
    return TASK_FAMILY.get(words[0]) if words else None


def write_form(c: Constraint, others: Sequence[Constraint]) -> str | None:
    """The form a write-task asks for (poem, story, code...) from the action and subject words."""
    texts = [c.text] + [o.text for o in others if o.category is Category.SUBJECT and o.subquestion == c.subquestion]
    for text in texts:
        for w in re.findall(r"[a-z]+", text.lower()):
            form = WRITE_FORMS.get(norm(w)) or WRITE_FORMS.get(w)
            if form is not None:
                return form
    return None


#: WordNet roots of program text: a form word with a sense under one of them can name code.
_SOFTWARE_ROOTS = frozenset({"software.n.01", "code.n.03"})


def software_form(c: Constraint, others: Sequence[Constraint]) -> bool:
    """Whether the write-form word that made this a code task has a software sense in WordNet.

    "script" (a play's text, handwriting) has none, so "create a meditation script" is not asked for
    code; "function" (a routine) and "code" have one.
    """
    texts = [c.text] + [o.text for o in others if o.category is Category.SUBJECT and o.subquestion == c.subquestion]
    for text in texts:
        for w in re.findall(r"[a-z]+", text.lower()):
            if (WRITE_FORMS.get(norm(w)) or WRITE_FORMS.get(w)) != "code":
                continue
            for synset in wordnet.type_synsets(w):
                names = {a.name() for a in synset.closure(lambda s: s.hypernyms())} | {synset.name()}
                if names & _SOFTWARE_ROOTS:
                    return True
            return False
    return False
