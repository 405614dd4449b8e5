"""A number after its noun names an item or a version ("Article 17", "clause 7", "Windows 11"), not a count; a count
stands before what it counts (session 19, helper 96: a correct answer about "Article 17 of the GDPR" got an omission
for not addressing '17'). Cases written for the class."""

from __future__ import annotations

import pytest

from faithguard.detector import CallContext
from faithguard.engine.decompose import OfflineDecomposer
from faithguard.inputs.references import find_references


def _counts(query: str) -> list[str]:
    constraints = OfflineDecomposer().decompose(CallContext(query=query)).constraints
    return [c.text for c in constraints if str(c.category) == "quantity"]


@pytest.mark.parametrize(
    "query",
    ["Is step 4 of the recipe optional?", "What changed in version 3 of the policy?", "Is room 204 quiet?"],
)
def test_a_number_after_its_noun_is_no_count(query: str) -> None:
    assert _counts(query) == []


@pytest.mark.parametrize(("query", "count"), [("Give 4 reasons to learn Welsh.", "4"), ("Name two lakes.", "two")])
def test_a_number_before_its_noun_is_a_count(query: str, count: str) -> None:
    assert count in " ".join(_counts(query))


def test_a_name_with_its_version_is_no_numbered_item_to_supply() -> None:
    # "Windows" is a word of its own in WordNet (the operating system): "Windows 11" is no eleventh window
    query = "Which settings should I change after installing Windows 11?"
    assert find_references(query, query) == []
    labelled = "Answer question 7."
    assert [r.text for r in find_references(labelled, labelled)] == ["question 7"]
