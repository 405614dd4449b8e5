"""Text in single quotes is material, as text in double quotes is; an apostrophe between letters stays inside.

Requests written for this project: the references inside quoted material are the material's own words ("send me
the report" inside a sentence to correct), not the user's; a short quoted phrase is no material for a document.
"""

from __future__ import annotations

import pytest

from faithguard.detector import CallContext
from faithguard.inputs.missing import MissingContentDetector


def _flagged(query: str) -> bool:
    return bool(MissingContentDetector().run(CallContext(query=query)).verdicts)


@pytest.mark.parametrize(
    "query",
    [
        "Make this message friendlier: 'Send me the report before you leave, it's late again.'",
        "Correct the spelling in this line: 'We'll meet at the libary after the show.'",
    ],
)
def test_single_quoted_material_is_supplied(query: str) -> None:
    assert not _flagged(query)


def test_a_short_quoted_phrase_is_no_document() -> None:
    assert _flagged("Summarize the attached file about the 'new budget'.")
