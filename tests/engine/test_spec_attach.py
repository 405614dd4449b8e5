"""A verifiable instruction read from a whole sentence is attached to the constraint that states it (its count or its
unit), not to the first number of the sentence (engine/tentative.py ``spec_fit``). Requests written for this test."""

from __future__ import annotations

import pytest

from faithguard.detector import CallContext
from faithguard.engine.decompose import OfflineDecomposer


def _verified(query: str) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for c in OfflineDecomposer().decompose(CallContext(query=query)).constraints:
        if c.verifier:
            out.setdefault(c.verifier, set()).add(c.text)
    return out


@pytest.mark.parametrize(
    ("query", "verifier", "stated_by"),
    [
        # a count describing the material comes first in the sentence; the instruction's own words come later
        (
            "Contrast the two lease drafts in four bullet points.",
            "detectable_format:number_bullet_lists",
            "four points",
        ),
        (
            "Describe the five photos from our trip in under 80 words.",
            "length_constraints:number_words",
            "under 80 words",
        ),
        (
            "Merge the 2 memos from HR into exactly three sentences.",
            "length_constraints:number_sentences",
            "exactly three sentences",
        ),
    ],
)
def test_the_instruction_goes_to_the_words_that_state_it(query: str, verifier: str, stated_by: str) -> None:
    assert _verified(query).get(verifier) == {stated_by}


def test_a_sentence_with_one_count_keeps_its_reading() -> None:
    # nothing else in the sentence holds a count: the instruction stays where it was read
    assert _verified("Answer in fewer than 50 words.").get("length_constraints:number_words")


@pytest.mark.parametrize(
    ("query", "verifier", "count"),
    [
        # a format that counts nothing is a constraint of its own: the sentence's number stays the asked count
        ("Reply in JSON format: list two colors.", "detectable_format:json_format", "two"),
        ("Answer in all lowercase letters: name three birds.", "change_case:english_lowercase", "three"),
    ],
)
def test_a_spec_that_counts_nothing_leaves_the_count_its_own(query: str, verifier: str, count: str) -> None:
    constraints = OfflineDecomposer().decompose(CallContext(query=query)).constraints
    assert verifier in {c.verifier for c in constraints}
    counts = [c for c in constraints if str(c.category) == "quantity"]
    assert [(c.text, c.verifier) for c in counts] == [(count, None)], [(c.text, c.verifier) for c in constraints]


def test_a_piece_of_a_checked_phrase_is_no_constraint_of_its_own() -> None:
    # "End your answer with the phrase '...'" also read as the action "End '...": a piece of the instruction (helper 94)
    query = "Finish your reply with the sentence 'Let me know if that helps you.' How do tides work?"
    constraints = OfflineDecomposer().decompose(CallContext(query=query)).constraints
    assert any(c.verifier for c in constraints)
    assert not [c.text for c in constraints if c.verifier is None and "let me know" in c.text.lower()]
    kept = "Include the keywords 'solar power' in a short essay about solar power."  # a keyword may be the topic
    texts = [c.text.lower() for c in OfflineDecomposer().decompose(CallContext(query=kept)).constraints]
    assert any("solar power" in t for t in texts)
