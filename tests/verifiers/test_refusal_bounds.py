"""A count bound on what a verb refuses is the opposite bound asked (verifiers/refusal.py; sentences of our own)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from faithguard import verifiers
from faithguard.verifiers.refusal import refused


def _bounds(text: str) -> set[tuple[str, str, int]]:
    out = set()
    for spec in verifiers.detect(text):
        rel = spec.params.get("relation")
        for key, value in spec.params.items():
            if key.startswith("num_") and isinstance(value, int) and isinstance(rel, str):
                out.add((key, rel, value))
    return out


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("The portal rejects any description shorter than 300 words, so write one for my lamp.", ("at least", 300)),
        ("Write a bio for me. The site refuses bios over 80 words.", ("less than", 81)),
        ("Summarise the memo. Our manager dismisses any summary over 90 words.", ("less than", 91)),
        ("Write a post about my garden. The forum bans posts with more than 3 paragraphs.", ("less than", 4)),
        ("Draft the notice. The council prohibits notices of more than 60 words.", ("less than", 61)),
        ("Describe the lamp. Submissions with fewer than 5 sentences are not accepted.", ("at least", 5)),
        ("Write my cover letter; the recruiter won't accept letters under 250 words.", ("at least", 250)),
        ("Describe the lamp. If it is shorter than 200 words, the editor will reject it.", ("at least", 200)),
        ("Write the story. The contest penalizes entries with fewer than 400 words.", ("at least", 400)),
        # the small model often tags the verb a noun and its object a verb: read by tokens, not the tree
        ("The library rejects donations shorter than 120 words, so describe the book well.", ("at least", 120)),
        ("The newsletter discards letters over 250 words. Write one about the bus route.", ("less than", 251)),
        ("Our grader turns down reports under 700 words; write the report on soil.", ("at least", 700)),
        ("The moderators throw out reviews with more than 6 sentences. Review my cafe.", ("less than", 7)),
        ("The committee rejects proposals that are at least 900 words long. Draft one.", ("less than", 900)),
        ("Last time the portal rejected my summary because it had fewer than 90 words.", ("at least", 90)),
        ("Any note with fewer than 3 sentences gets auto-rejected. Write one to my neighbour.", ("at least", 3)),
        ("The app refuses to save anything with more than 2 paragraphs. Write my status.", ("less than", 3)),
        ("Will the editor reject my column if it's over 400 words?", ("less than", 401)),
    ],
)
def test_a_bound_on_what_is_refused_is_the_opposite_bound(text: str, expected: tuple[str, int]) -> None:
    assert any((rel, n) == expected for _, rel, n in _bounds(text)), _bounds(text)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Reject the first draft and write a new story of at least 300 words.", ("at least", 300)),
        ("The editor accepts drafts under 500 words. Write a draft about tides.", ("less than", 500)),
        ("Write a short note to my landlord, under 100 words.", ("less than", 100)),
        ("The council allows notices of at most 60 words. Draft one about parking.", ("less than", 61)),
        ("Write at least 120 words about the harbour and never use the word 'boat'.", ("at least", 120)),
        ("Explain why the council rejected the bridge plan in at most 120 words.", ("less than", 121)),
        ("Keep the poem under 60 words or the magazine will reject it.", ("less than", 60)),
        ("The club rejects members under 18, so write an essay of at least 300 words.", ("at least", 300)),
        ("They reject any story that isn't at least 500 words long. Write one about owls.", ("at least", 500)),
    ],
)
def test_a_bound_on_what_is_asked_or_accepted_stays_as_stated(text: str, expected: tuple[str, int]) -> None:
    assert any((rel, n) == expected for _, rel, n in _bounds(text)), _bounds(text)


@pytest.mark.parametrize(
    "text",
    [
        "The portal doesn't reject descriptions over 300 words, so write freely about the lamp.",
        "Don't worry, the site never refuses bios under 80 words. Write mine.",
    ],
)
def test_a_negated_refusal_permits_and_asks_no_bound(text: str) -> None:
    assert not any(key == "num_words" for key, _, _ in _bounds(text)), _bounds(text)


def test_a_range_and_an_exact_count_are_never_flipped() -> None:
    found = _bounds("The portal rejects the rest: write between 100 and 200 words about the lamp.")
    assert ("num_words", "at least", 100) in found and ("num_words", "less than", 201) in found
    exact = _bounds("The portal rejects drafts unless they have exactly 3 paragraphs. Write about tides.")
    assert all(rel != "at least" for _, rel, _n in exact)


@settings(max_examples=150, deadline=None)
@given(text=st.text(max_size=200), a=st.integers(0, 220), b=st.integers(0, 220))
def test_any_text_and_span_is_read_without_error(text: str, a: int, b: int) -> None:
    assert refused(text, min(a, b), max(a, b)) in ("flip", "drop", None)
