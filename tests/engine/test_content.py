"""Instruction versus pasted content: the specs' own fixtures, the structural rules, and what reaches the engine."""

from __future__ import annotations

import pytest
from helpers import judge

from faithguard.engine.content import content_spans, instruction_text
from faithguard.engine.decompose import decompose_text, undetermined_reason
from faithguard.nlp import parse

_ARTICLE = (
    "The new bridge, 40 km long, will open by 2026 and connect the two largest cities in the region. "
    "Officials said the project cost 3 billion euros and employed over 5,000 workers during construction."
)


@pytest.mark.parametrize(
    ("text", "kind", "inside"),
    [
        ("Fix the bug:\n```python\nreturn x + 1\n```", "fence", "return x"),
        ('Proofread this: """Their going too the store on Monday with three friends."""', "triple-quote", "Monday"),
        ("Summarize <doc>The river floods every spring and the town moves uphill.</doc>", "tagged", "floods"),
        (f"Summarize the following article:\n\n{_ARTICLE}", "block", "40 km"),
        (f"Summarize the following article:\n\n{_ARTICLE}\n\nKeep it short.", "block", "Officials"),
        ("Classify the sentiment.\nInput: I loved it\nOutput: positive\nInput: Awful film", "labelled", "loved"),
        (
            'Explain the quote "the only thing we have to fear is fear itself, and nothing else at all" briefly.',
            "quote",
            "fear itself",
        ),
    ],
)
def test_structure_marks_pasted_material(text: str, kind: str, inside: str) -> None:
    spans = content_spans(text)
    pos = text.index(inside)
    assert any(s.kind == kind and s.start <= pos < s.end for s in spans)
    assert inside not in instruction_text(text, spans)


@pytest.mark.parametrize(
    "text",
    [
        "Answer the following questions:\n1. What is the capital of Peru?\n2. How many people live there?",
        'End your answer with the exact phrase "Is there anything else?"',  # a short quote is the user's phrase
        "List three rivers in Spain.",
        "Write a poem: it should rhyme.",
    ],
)
def test_instructions_are_not_content(text: str) -> None:
    assert content_spans(text) == []


def test_article_facts_are_not_constraints() -> None:
    d = decompose_text(f"Summarize the following article in two sentences:\n\n{_ARTICLE}")
    texts = " ".join(c.text for c in d.constraints)
    assert "40 km" not in texts and "2026" not in texts and "5,000" not in texts
    assert any(c.text.lower().startswith("summarize") for c in d.constraints)


def test_the_closing_request_after_pasted_material_is_read() -> None:
    d = decompose_text(f"Here is an article:\n\n{_ARTICLE}\n\nList three facts from it.")
    assert any(c.text == "List" for c in d.constraints)
    assert not any("2026" in c.text for c in d.constraints)


def test_a_role_line_is_no_constraint_every_answer_fails() -> None:
    d = decompose_text("You are a mathematician. Explain what a prime number is.")
    assert not any("mathematician" in c.text for c in d.constraints)
    _ctx, verdicts = judge("You are a mathematician. Explain what a prime number is.", "A prime has two divisors.")
    assert not [v for v in verdicts if v.kind == "omission"]


@pytest.mark.parametrize(
    ("query", "why"),
    [
        ("Escribe un poema sobre el mar y las estrellas de la noche.", "another language"),
        ("Wie spät ist es jetzt in Berlin und in Tokio?", "another language"),
        ("```\nfor i in range(3):\n    print(i)\n```", "no instruction"),
    ],
)
def test_queries_outside_the_engine_are_undetermined_without_constraints(query: str, why: str) -> None:
    reason = undetermined_reason(query)
    assert reason is not None and why in reason
    assert decompose_text(query).constraints == []
    _ctx, verdicts = judge(query, "Some answer of a few words.")
    assert verdicts == []


@pytest.mark.parametrize(
    "query", ["List three rivers in Spain.", "Write a haiku about Tokyo.", "Explain HPA in Kubernetes."]
)
def test_english_requests_are_read(query: str) -> None:
    assert undetermined_reason(query) is None


_SPANISH_ANSWER = "El río Ebro es el más caudaloso de España y desemboca en el mar Mediterráneo cerca de Tortosa."


def test_an_answer_in_an_unasked_language_is_a_misinterpretation() -> None:
    _ctx, verdicts = judge("Which is the largest river in Spain by discharge?", _SPANISH_ANSWER)
    assert any(v.kind == "misinterpretation" and "language" in v.explanation for v in verdicts)


@pytest.mark.parametrize(
    "query",
    ["Answer in Spanish: which is the largest river in Spain?", "Translate into Spanish: the Ebro is a big river."],
)
def test_an_answer_in_the_asked_language_is_not(query: str) -> None:
    _ctx, verdicts = judge(query, _SPANISH_ANSWER)
    assert not any("language" in v.explanation for v in verdicts)


def test_an_english_answer_is_not_flagged_for_language() -> None:
    _ctx, verdicts = judge(
        "Which is the largest river in Spain?", "The Ebro carries the most water of any river there."
    )
    assert not any("language" in v.explanation for v in verdicts)


def test_requirements_after_a_colon_stay_the_request() -> None:
    text = (
        "Write an essay about rivers with these requirements:\n\n"
        "Your essay must be at least 300 words long and must mention the Ebro. Use a formal tone throughout "
        "and avoid lists, since the reader expects flowing prose from the first line to the last one."
    )
    assert content_spans(text, parse(text)) == []


def test_labels_used_once_are_the_requests_own_requirements() -> None:
    text = "Write a poem about the sea.\nNote: keep it under 50 words.\nTitle: wrap it in double angular brackets."
    assert content_spans(text) == []


def test_a_paragraph_the_request_points_forward_to_is_material() -> None:
    # no colon: the first paragraph points forward ("below", "following") and a prose paragraph follows
    for request in ("Name two weaknesses of the proposal described below.", "Critique the following proposal."):
        text = f"{request}\n\n{_ARTICLE}"
        spans = content_spans(text)
        assert any(s.kind == "block" and s.start <= text.index("40 km") < s.end for s in spans)
        d = decompose_text(text)
        assert not any("2026" in c.text or "5,000" in c.text for c in d.constraints)


@pytest.mark.parametrize(
    "text",
    [
        # no forward pointer: the second paragraph is more of the request
        "Write a story about a dog.\n\nThe story should be set in Paris during the winter of 1950, told by an old "
        "baker who remembers the dog and the snow that fell for a week over the whole city.",
        # a forward pointer, but the paragraph gives the reader orders
        "Follow the rules below.\n\nYou must write three lines about rain, you should mention the wind twice, and "
        "you must not use any words that rhyme with storm or cloud anywhere in the piece.",
    ],
)
def test_a_second_paragraph_of_instructions_stays_the_request(text: str) -> None:
    assert not any(s.kind == "block" for s in content_spans(text, parse(text)))


def test_a_pointer_already_answered_in_its_own_paragraph_opens_no_block() -> None:
    # "the following sentences: '...'" are supplied inline; the next paragraph is more of the request
    text = (
        'Expand the following sentences: "The tide came in. The boats rose."\n\n'
        "I would like exactly three paragraphs, each separated by three asterisks, and the word harbour at least "
        "once in every one of the three paragraphs of the expanded text."
    )
    assert not any(s.kind == "block" for s in content_spans(text, parse(text)))


@pytest.mark.parametrize(
    "first",
    [
        "Write a story about a cat who lives in the flat below ours.",
        "Write a story about a cat following its owner to the market.",
        "Write a story about a cat; the night is far below freezing.",
    ],
)
def test_below_and_following_that_do_not_point_forward_open_no_block(first: str) -> None:
    text = (
        f"{first}\n\nThe story should be set in Lisbon during the spring of 1962, told by a fisherman who "
        "remembers the cat and the storm that lasted three days over the harbour."
    )
    assert not any(s.kind == "block" for s in content_spans(text, parse(text)))
