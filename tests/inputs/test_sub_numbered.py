"""A sub-numbered id ("Section 4.2", "Clause 7.1") is not the fourth or seventh item of a set (session 19, helper
96: "Section 4.2 says: '...'" was a critical missing_content needing 4 items though the clause was quoted). Cases
written for the class."""

from __future__ import annotations

import pytest

from faithguard.inputs.references import find_references


@pytest.mark.parametrize(
    "query",
    [
        "Clause 7.1 reads: 'Rent is due on the first working day.' Is a payment on the third late?",
        "Rule 3.4 says: 'No pets in shared areas.' Can my cat sit on the balcony?",
        "Write an essay 1,500 words long about tides.",  # a thousands separator (review 98)
    ],
)
def test_a_sub_numbered_id_is_not_a_count(query: str) -> None:
    assert not [r for r in find_references(query, query) if r.expected > 1], find_references(query, query)


def test_a_plain_numbered_label_still_counts() -> None:
    query = "Summarise Report 3."
    assert [(r.text, r.expected) for r in find_references(query, query)] == [("Report 3", 3)]
    # a comma list of labels is two labels, not a decimal; a plain plural with one number still labels an item
    for labelled in ("Compare reports 1,2 and pick one.", "Answer questions 5."):
        assert find_references(labelled, labelled), labelled
