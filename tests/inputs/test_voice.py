"""The user's own comment beside a reference is not the material (inputs/voice.py, specs user_voice_*); a
possessor overrides the generic reading of a noun phrase (inputs/parsed.py)."""

from __future__ import annotations

import pytest

from faithguard.detector import CallContext
from faithguard.inputs.missing import analyse
from faithguard.inputs.voice import candidate_sentences
from faithguard.nlp import parse

#: The reference's paragraph holds only the user's comment: a first-person clause or a verbless aside.
MISSING = [
    "Answer my sister's text for me. Something short and kind, I have no energy to argue with her today.",
    "What is wrong with the formula I gave you? I checked the brackets twice and it still fails.",
    "Rewrite the paragraph I sent you earlier. Formal tone please, thanks.",
    "Can you explain the letter my bank sent me? Apparently we missed a payment, but I am sure we paid on time.",
    "Why does this keep crashing at startup? I already reinstalled the package and we cleared the cache.",
    # a gerund main verb with no subject: the "I" left out (spec user_voice_ellipsis)
    "Can you check the tone of my cover letter? Hoping to send it to the bakery on the high street before the owner "
    "closes up tonight.",
    # pointing ahead, then turning to the reader: the talk after the turn is no promised material (inputs/forward.py)
    "Here's my speech for the allotment society dinner. Is it too long? I rewrote the ending twice last week.",
    "Here is my short story for the library contest. Can you check the pacing? My uncle said mine drags a bit.",
]

#: The material is there: pasted in its own paragraph, after a colon, after a forward pointer, or the sentence
#: beside the reference is not the user speaking.
SUPPLIED = [
    "Answer my sister's text for me.\n\nMum is cooking on Sunday and everyone is coming, so let me know by Friday.",
    "Summarize my notes: I met the supplier on Tuesday and we agreed a new price for the spring order.",
    "Proofread the following paragraph. I has been working at the bakery for two year and I likes it.",
    "Summarize this review. The hotel was spotless, the staff were kind and the breakfast was generous.",
    "Reply to her email.\n\nDear Sam, we loved your proposal and would like to meet next week to talk it over.",
    # a gerund as the subject, not the main verb: still the review's own sentence
    "Summarize this review. Booking the cabin was easy and the staff were lovely throughout our stay.",
    # pointing ahead: the first-person sentences right after the pointer are the promised material
    "Here's my short story for the contest. I walked to the pier at dawn and watched the boats come in.",
    # the material after the turn, in its own paragraph
    "Here's my speech for the dinner. Is it too long?\n\nFriends, neighbours, fellow growers, thank you for coming "
    "tonight and for another year of marrows.",
]


@pytest.mark.parametrize("query", MISSING)
def test_comment_beside_reference_is_not_material(query: str) -> None:
    assert analyse(CallContext(query=query), parse), query


@pytest.mark.parametrize("query", SUPPLIED)
def test_material_beside_reference_still_counts(query: str) -> None:
    assert not analyse(CallContext(query=query), parse), query


def test_candidates_skip_colon_paragraphs_and_forward_pointers() -> None:
    text = "Check my essay: I wrote it last night."
    assert candidate_sentences(text, [(0, len(text))]) == []
    text = "Fix the text below. I am a sentence with errors."
    assert candidate_sentences(text, [(0, 19)]) == []
    text = "Fix my essay. I wrote it last night."
    assert candidate_sentences(text, [(0, 13)]) == [(13, len(text))]


@pytest.mark.parametrize(
    ("query", "missing"),
    [
        # a possessor picks out a held item even when the parser hangs an indefinite phrase on the noun
        ("Grade the model's response on a scale of one to ten.", True),
        ("Judge the agent's reply on a scale of 1-10.", True),
        # no possessor: the phrase about an indefinite still makes the noun a kind
        ("What does the error on a login page usually mean?", False),
        ("What goes in the header of an invoice?", False),
    ],
)
def test_possessor_overrides_generic_reading(query: str, missing: bool) -> None:
    assert bool(analyse(CallContext(query=query), parse)) is missing
