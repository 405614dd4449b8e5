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


def test_a_part_or_aspect_of_a_text_is_one_item_with_it() -> None:
    # "the spelling of the following line": the spelling is the line's, not a second text
    assert not _flagged("Correct the spelling of the following line: 'We'll meet at the libary after the show.'")
    assert not _flagged("Check the punctuation of the paragraph below.\n\nWe left early, the rain had stopped.")
    assert _flagged("Improve the tone of the email below.")  # the aspect's text is still needed
