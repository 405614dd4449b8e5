"""What supplied material holds is the material's own (issue 12: missing content by structure): placeholders that are
fields of a draft the user pastes ("[Your name]") are not gaps where material should be, a letter greeting a
template's addressee field is a letter. Examples written for these tests."""

from __future__ import annotations

import pytest

from faithguard import Guard
from faithguard.detector import CallContext
from faithguard.inputs.missing import FIELD_CONTEXT_WORDS, analyse
from faithguard.inputs.supply import names_material, scan
from faithguard.inputs.units import free_units


@pytest.fixture(scope="module")
def guard() -> Guard:
    return Guard(judge=None)


def _missing(guard: Guard, query: str) -> list[str]:
    return [v.explanation for v in guard.inspect(query).verdicts if v.kind == "missing_content"]


@pytest.mark.parametrize(
    "query",
    [
        "Make this note warmer.\n\nHello Priya,\nYou are late again with payment. Pay by Monday.\nBest,\n[Your name]",
        "Shorten my cover letter: Dear [Hiring Manager], I have led the night shift at a busy clinic for six years. "
        "Kind regards, [Your Name]",
        "Polish this intro: Hi, I am [Your name] and I run a small bakery on the harbour front of our town.",
    ],
)
def test_a_field_inside_a_supplied_draft_is_no_gap(guard: Guard, query: str) -> None:
    assert _missing(guard, query) == []


@pytest.mark.parametrize(
    "query",
    [
        "Make this note warmer.\n\nDear [Landlord],\nOur heating has failed twice this week. Please send someone soon.",
        "Make this note warmer.\n\nHi {first_name},\nYour parcel is stuck at a depot. Collect it before Friday.",
    ],
)
def test_a_letter_greeting_a_placeholder_addressee_is_the_supplied_note(guard: Guard, query: str) -> None:
    assert _missing(guard, query) == []
    units = free_units(scan(query), [])
    assert any(u.origin == "letter" for u in units)


@pytest.mark.parametrize(
    "query",
    [
        "Proofread my essay:\n\n[Your essay]",  # the placeholder names the material itself
        "Here is the text: [Your text]",
        "Summarize {document} in three bullets.",
        "Tidy this: [Your name] here.",  # a field with fewer words of material around it than the bound
    ],
)
def test_a_placeholder_standing_for_the_material_is_still_a_gap(guard: Guard, query: str) -> None:
    assert _missing(guard, query)


def test_names_material_reads_the_placeholder_label() -> None:
    assert names_material("[paste the article here]") and names_material("{document}")
    assert names_material("[Your essay]")
    assert not names_material("[Your name]") and not names_material("[date]") and not names_material("{first_name}")


def test_the_bound_counts_words_of_the_unit_around_the_field() -> None:
    short = "Tidy this: [Your name] here."
    assert analyse(CallContext(query=short))  # one word of material: the placeholder is the gap
    words = " ".join(["word"] * FIELD_CONTEXT_WORDS)
    assert analyse(CallContext(query=f"Tidy this: [Your name] {words}.")) == []
