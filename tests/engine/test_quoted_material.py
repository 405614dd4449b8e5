"""Quoted material: an instruction inside someone else's quoted text is content, not a constraint on the answer.

Sentences written for this project. ``content_spans`` reads single quotes as well as double ones (an apostrophe
inside a word never opens or closes one); a verifiable spec whose every value was read inside such a quote is
dropped from the decomposition, while one stated outside it, or a text to repeat, stays.
"""

from __future__ import annotations

import pytest

from faithguard.engine.content import content_spans
from faithguard.engine.decompose import decompose_text


def _verifiers(query: str) -> dict[str, dict[str, object]]:
    return {c.verifier: dict(c.params) for c in decompose_text(query).constraints if c.verifier}


@pytest.mark.parametrize("quote", ["'{}'", '"{}"', "‘{}’"])
def test_a_long_quote_is_material_in_any_quotes(quote: str) -> None:
    body = "We can't accept late forms, and every form must list the applicant's two references in full."
    text = f"Our office posted this: {quote.format(body)} Is it fair?"
    spans = [s for s in content_spans(text) if s.kind == "quote"]
    assert len(spans) == 1 and text[spans[0].start + 1 : spans[0].end - 1] == body


def test_apostrophes_alone_open_no_quote() -> None:
    text = "I don't think it's fair that the team's plan ignores the interns' ideas and the manager's notes again."
    assert not [s for s in content_spans(text) if s.kind == "quote"]


def test_a_count_inside_a_quoted_rule_is_not_asked_of_the_answer() -> None:
    query = (
        "My teacher's syllabus says: 'Every essay must stay under 800 words and cite at least three sources.' "
        "Is that a normal rule for a first-year course?"
    )
    assert "length_constraints:number_words" not in _verifiers(query)


def test_a_count_stated_outside_the_quote_stays() -> None:
    query = (
        "Summarize this notice: 'The pool closes for repairs on Monday and reopens once the new filters are in.' "
        "Keep it under 25 words."
    )
    assert _verifiers(query).get("length_constraints:number_words") == {"relation": "less than", "num_words": 25}
