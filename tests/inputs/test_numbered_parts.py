"""A numbered part of a supplied text is looked up in that text's own numbering.

Requests and texts written for this project. The whole ("the lease") is supplied; when the lease numbers its parts
and the asked number is not among them, the part is missing. A text without numbering, or one that mentions the
number, may hold the part: not flagged.
"""

from __future__ import annotations

import pytest

from faithguard.detector import CallContext
from faithguard.inputs.missing import MissingContentDetector
from faithguard.inputs.parts import _mentions, _numbers

_LEASE = (
    "RESIDENTIAL LEASE (EXCERPT)\n\n1. Term\n1.1 The tenancy runs for twelve months from 1 May.\n"
    "1.2 Either party may end it with two months' notice.\n\n2. Rent\n2.1 Rent is due on the first of each month.\n"
    "2.2 Late rent carries a fee of 20 pounds."
)
_LEASE_WITH_PETS = _LEASE + "\n\n9. Pets\n9.3 Pets are allowed only with written consent."
_PLAIN = "Pets are allowed only with the landlord's written consent, which may not be refused without reason."


def _flagged(query: str, documents: list[str]) -> bool:
    return bool(MissingContentDetector().run(CallContext(query=query, documents=documents)).verdicts)


def test_a_part_the_numbering_lacks_is_missing() -> None:
    assert _flagged("What does clause 9.3 of the lease say about pets?", [_LEASE])


def test_a_part_pasted_after_the_request_is_looked_up_there_too() -> None:
    assert _flagged("What does section 4.1 in the lease below mean for me?\n\n" + _LEASE, [])
    assert not _flagged("What does section 2.2 in the lease below mean for me?\n\n" + _LEASE, [])


@pytest.mark.parametrize(
    "documents",
    [
        [_LEASE_WITH_PETS],  # the part is there
        [_PLAIN],  # no numbering: the excerpt may be the clause itself
        [_LEASE + "\n\nSee clause 9.3 for pets."],  # the part is named in the text
    ],
)
def test_a_part_that_may_be_there_is_not_flagged(documents: list[str]) -> None:
    assert not _flagged("What does clause 9.3 of the lease say about pets?", documents)


def test_a_bare_number_names_no_part() -> None:
    lease = _LEASE + "\n\n3. Notice\n3.1 Repairs are reported within 7 days."
    assert _flagged("What does section 7 of the lease say about subletting?", [lease])


def test_numbering_and_mentions() -> None:
    assert _numbers(_LEASE) == {"1", "1.1", "1.2", "2", "2.1", "2.2"}
    assert _numbers("Section 3 Scope\nArticle 4: Fees\n§ 5 Notice") == {"3", "4", "5"}
    assert not _numbers("In 2019 the firm moved.\nIt grew.")  # a year inside a sentence labels nothing
    assert _mentions("as in clause 9.3 above", "9.3", "clause") and _mentions("see §9.3", "9.3", "clause")
    assert not _mentions("clause 19.3 and clause 9.35", "9.3", "clause")
    assert not _mentions("reported within 9.3 days", "9.3", "clause")
