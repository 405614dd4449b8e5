"""A person named beside a text in one sentence stands for that text, not for a second item.

Requests written for this project. "the witness", "the narrator", "the author" are read as content (the person's
words) by WordNet's communicator class; next to "the transcript" or "the story" in the same sentence they are the
same material, so one supplied text answers both. Alone, with a count of texts, or compared with the text, they
still need what they say.
"""

from __future__ import annotations

import pytest

from faithguard.detector import CallContext
from faithguard.inputs.missing import MissingContentDetector

_HEARING = (
    "HEARING NOTES\n\nQ. Where were you parked?\nA. Outside the bakery, engine running.\n"
    "Q. What happened next?\nA. A blue van clipped the cyclist and kept going towards the bridge."
)
_STORY = (
    "The lighthouse keeper counted the ships every night. When the last one failed to come home, he left the lamp "
    "burning until morning and never spoke of it again."
)


def _flagged(query: str, documents: list[str]) -> bool:
    return bool(MissingContentDetector().run(CallContext(query=query, documents=documents)).verdicts)


@pytest.mark.parametrize(
    ("query", "documents"),
    [
        ("In the hearing notes, when does the witness first mention the van?", [_HEARING]),
        ("How does the narrator feel at the end of the story?", [_STORY]),
        ("Does the author of the story ever explain why the keeper stays silent?", [_STORY]),
    ],
)
def test_a_person_beside_a_text_is_that_text(query: str, documents: list[str]) -> None:
    assert not _flagged(query, documents)


@pytest.mark.parametrize(
    ("query", "documents"),
    [
        ("In the hearing notes, when does the witness first mention the van?", []),
        ("Compare the two transcripts: where does each witness disagree?", [_HEARING]),
        # a sentence that compares sets the person's words beside the text: a second item
        ("Do the hearing notes contradict the witness?", [_HEARING]),
    ],
)
def test_the_text_is_still_needed(query: str, documents: list[str]) -> None:
    assert _flagged(query, documents)
