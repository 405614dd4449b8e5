"""Named verse forms sized by WordNet's glosses (``lexical.wordnet.verse_lines``, ``creative:verse_form``).

Rows written here for the mechanism. WordNet-backed rows skip with a reason when the database is absent.
"""

from __future__ import annotations

import pytest

from faithguard.lexical import wordnet
from faithguard.models import Status
from faithguard.verifiers import detect, verify

pytestmark = pytest.mark.skipif(not wordnet.available(), reason="WordNet database not installed (wordnet-base)")


@pytest.mark.parametrize(
    ("noun", "lines"),
    [("haiku", 3), ("limerick", 5), ("sonnet", 14), ("quatrain", 4), ("couplet", 2)],
)
def test_gloss_sizes(noun: str, lines: int) -> None:
    assert wordnet.verse_lines(noun) == lines


@pytest.mark.parametrize("noun", ["rondeau", "tanka", "poem", "ode", "essay", "story", "stanza", "octave", "sestet"])
def test_no_fixed_size(noun: str) -> None:
    # an alternative ("10 or 13 lines"), ordinals about lines ("the 1st and 3rd lines"), no size at all, or a word
    # whose first sense filed as communication is something else (a musical interval, a composition for six)
    assert wordnet.verse_lines(noun) is None


def _forms(query: str) -> list[dict[str, object]]:
    return [dict(s.params) for s in detect(query) if s.verifier == "creative:verse_form"]


@pytest.mark.parametrize(
    ("query", "form", "lines"),
    [
        ("Compose a limerick about a goat who runs for mayor.", "limerick", 5),
        ("Please write me a haiku on the first snow.", "haiku", 3),
        ("Could you craft a sonnet for our anniversary?", "sonnet", 14),
    ],
)
def test_detects_a_form_to_write(query: str, form: str, lines: int) -> None:
    assert _forms(query) == [{"form": form, "num_lines": lines}]


@pytest.mark.parametrize(
    "query",
    [
        "What is the difference between a haiku and a tanka?",  # asked about, not to be written
        "Write three haikus about the harbour.",  # several: each one's size is not the answer's
        "Write a haiku and a limerick about frogs.",  # two forms in one answer
        "Write a sonnet about rain in 12 lines.",  # the explicit count wins
        "Summarize the sonnet in two sentences.",  # no creation verb
        "Don't write a sonnet; give me a short paragraph about the sea instead.",  # ruled out
        "Rewrite this sonnet as plain prose.",  # an existing text, not one to write
        "Write a sonnet and then explain its rhyme scheme.",  # the answer holds more than the poem
        "Write me a quatrain, then translate it into Spanish.",
    ],
)
def test_no_form_constraint(query: str) -> None:
    assert _forms(query) == []


LIMERICK = (
    "A heron who fished by the quay\nGrew tired of his diet of sea\nHe ordered a pie\nFrom a gull passing by\n"
    "And now he eats lunch there at three"
)


def test_check_counts_lines_and_forgives_one_title() -> None:
    params = {"form": "limerick", "num_lines": 5}
    assert verify("creative:verse_form", params, LIMERICK).status is Status.SATISFIED
    assert verify("creative:verse_form", params, "The Heron\n\n" + LIMERICK).status is Status.SATISFIED
    assert verify("creative:verse_form", params, LIMERICK + "\nAnd he naps by the pier after tea").status is (
        Status.VIOLATED
    )
    haiku = "Grey gulls on the quay\nthe tide turns without a sound\nnets dry in the sun"
    assert verify("creative:verse_form", params, haiku).status is Status.VIOLATED


def test_check_finds_the_form_among_other_blocks() -> None:
    params = {"form": "limerick", "num_lines": 5}
    framed = "Here is your limerick:\n\n" + LIMERICK + "\n\nI hope the heron makes you smile!"
    assert verify("creative:verse_form", params, framed).status is Status.SATISFIED
    two_parts = "Line one\nLine two\n\nLine three\nLine four\nLine five\nLine six"
    assert verify("creative:verse_form", params, two_parts).status is Status.UNKNOWN  # which lines is not read


def test_check_is_unknown_without_line_breaks() -> None:
    params = {"form": "haiku", "num_lines": 3}
    one_line = "Grey gulls on the quay, the tide turns without a sound, nets dry in the sun."
    assert verify("creative:verse_form", params, one_line).status is Status.UNKNOWN
