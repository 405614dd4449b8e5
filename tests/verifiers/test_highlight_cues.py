"""Highlight detection: 'keyword' cues markup only as what is highlighted; the count stays in its sentence.

Fixtures written for these two rules (not copied from an evaluation set).
"""

from __future__ import annotations

import pytest

from faithguard.verifiers import detect

_ID = "detectable_format:number_highlighted_sections"


def _highlights(text: str) -> list[int]:
    return [int(s.params["num_highlights"]) for s in detect(text) if s.verifier == _ID]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Write a short essay and highlight at least 3 keywords.", [3]),
        ("Highlight at least 2 sections with markdown, i.e. *highlighted section*.", [2]),
        # "keyword" before the verb: the keywords are the content, "highlighting" means stressing
        ("List five keywords about autumn, highlighting their moods.", []),
        # the count of the next sentence is not the number of highlights
        ("Tag each tip with the keyword 'tip' to highlight it. Keep the answer under 300 words.", []),
    ],
)
def test_highlight_cues(text: str, expected: list[int]) -> None:
    assert _highlights(text) == expected
