"""A nested list is counted at either level: its outer items or all its items (fixtures written here)."""

from __future__ import annotations

from faithguard import Guard
from faithguard.engine.response import view_of
from faithguard.models import Status


def test_outer_items_leave_out_sub_items() -> None:
    nested = "1. Health:\n   - better heart\n   - stronger legs\n2. Cost: cheap.\n3. Environment: clean."
    view = view_of(nested, parse=False)
    assert view.outer_items == ("Health:", "Cost: cheap.", "Environment: clean.")
    assert len(view.items) == 5  # sub-items indented up to three spaces are list items too
    two_spaces = "- Fruit\n  - apples\n  - pears\n- Bread"
    assert view_of(two_spaces, parse=False).outer_items == ("Fruit", "Bread")


def test_a_flat_list_is_its_own_outer_level() -> None:
    flat = "1. Lisbon\n2. Porto\n3. Braga"
    assert view_of(flat, parse=False).outer_items == view_of(flat, parse=False).items
    indented = "  - one thing\n  - another thing"  # the whole list indented alike: all at the outer level
    assert view_of(indented, parse=False).outer_items == ("one thing", "another thing")
    assert view_of("Rivers flow to the sea. They carry silt.", parse=False).outer_items == ()


def _count_status(query: str, answer: str) -> Status:
    (found,) = [c for c in Guard(judge=None).check(query, answer).constraints if str(c.category) == "quantity"]
    return found.status


def test_a_count_met_by_either_level_is_met() -> None:
    by_outer = "1. Health:\n   - better heart\n   - stronger legs\n2. Cost: cheap to run.\n3. Environment: no fumes."
    assert _count_status("List three benefits of cycling.", by_outer) is Status.SATISFIED
    by_all = "- Fruit:\n  - apples\n  - pears\n- Vegetables:\n  - leeks\n  - kale\n  - beans"
    assert _count_status("List seven foods to buy.", by_all) is Status.SATISFIED


def test_a_count_neither_level_meets_is_violated() -> None:
    neither = "1. Health:\n   - better heart\n2. Cost: cheap to run."
    assert _count_status("List four benefits of cycling.", neither) is Status.VIOLATED


def test_numbered_items_in_bold_or_under_a_heading_mark_are_items() -> None:
    bold = "Three tips:\n\n**1. Keep a schedule.** Same time daily.\n\n**2. Avoid screens.**\n\n**3. Cut caffeine.**"
    assert len(view_of(bold, parse=False).items) == 3
    headed = "### 1. Plan\nSet goals.\n### 2. Build\nWrite code."
    assert len(view_of(headed, parse=False).items) == 2
    not_items = "**Note:** rivers flood.\n# Title\n**Bold claim** here."
    assert view_of(not_items, parse=False).items == ()


def test_a_bare_number_counts_the_unit_its_noun_names() -> None:
    two = "The sea is vast and deep. It covers most of the planet."
    assert _count_status("Write two sentences about the sea.", two) is Status.SATISFIED
    assert _count_status("Write three sentences about the sea.", two) is Status.VIOLATED
    listing = "- Lisbon\n- Porto"
    assert _count_status("Name two cities in Portugal.", listing) is Status.SATISFIED  # no unit: items, as before


def test_a_definite_number_that_refers_back_to_the_asked_items_still_counts_them() -> None:
    q = "Write two jokes about rockets. Separate the two jokes with a blank line."
    jokes = "- Why did the rocket lose its job? It got fired.\n- Rockets never date: they always launch too fast."
    counts = [c for c in Guard(judge=None).check(q, jokes).constraints if str(c.category) == "quantity"]
    assert counts and all(c.status is Status.SATISFIED for c in counts)


def test_right_aligned_numbers_are_one_level() -> None:
    aligned = "\n".join(f"{n:>2}. idea number {n}" for n in range(1, 13))  # " 9." above "10."
    view = view_of(aligned, parse=False)
    assert len(view.outer_items) == 12 == len(view.items)
    assert _count_status("List three party ideas.", aligned) is Status.VIOLATED


def test_bold_numbered_heads_with_detail_bullets_count_as_the_outer_level() -> None:
    answer = (
        "**1. Better health**\n- Lowers blood pressure\n- Strengthens the heart\n"
        "**2. Better mood**\n- Releases endorphins\n**3. Better sleep**\n- Deeper rest"
    )
    assert len(view_of(answer, parse=False).outer_items) == 3
    assert _count_status("List three benefits of exercise.", answer) is Status.SATISFIED
    tips = "\n".join(f"## {n}. Tip {n}\nDo this daily." for n in range(1, 6))
    assert _count_status("Give five tips for focus.", tips) is Status.SATISFIED


def test_code_lines_and_a_later_numbered_list_do_not_replace_the_items() -> None:
    bullets = "\n".join(f"- Tip number {n} for focus" for n in range(1, 6))
    code = "\n\n```python\n# 1. Load the data\n# 2. Clean it\n# 3. Save it\n```"
    assert len(view_of(bullets + code, parse=False).outer_items) == 5
    assert _count_status("List three tips for focus.", bullets + code) is Status.VIOLATED
    steps = "\n\nHow to start:\n1. Pick one tip.\n2. Try it a week.\n3. Review."
    assert _count_status("Give me three reasons to exercise.", bullets + steps) is Status.VIOLATED


def test_a_bulleted_summary_after_numbered_sections_is_a_list_of_its_own() -> None:
    sections = "\n\n".join(f"### {n}. Tip {n}\nPractise it for a week before the next." for n in range(1, 6))
    answer = sections + "\n\n**In short:**\n- Start small.\n- Keep going."
    assert len(view_of(answer, parse=False).outer_items) == 5
    assert _count_status("Give five tips for learning to draw.", answer) is Status.SATISFIED
    assert _count_status("Give seven tips for learning to draw.", answer) is Status.VIOLATED  # not both lists
    # and the other way round: a short numbered list after a longer bulleted one leaves the bullets the main list
    bullets = "\n".join(f"- Idea {n} for the garden party" for n in range(1, 5))
    steps = "\n\nTo start:\n1. Pick one idea.\n2. Book the garden."
    assert len(view_of(bullets + steps, parse=False).outer_items) == 4
    assert _count_status("Suggest four ideas for a garden party.", bullets + steps) is Status.SATISFIED
    assert _count_status("Suggest two ideas for a garden party.", bullets + steps) is Status.VIOLATED


def test_sections_are_read_from_markdown_headings() -> None:
    essay = "## Intro\nWhy it matters.\n\nA second thought.\n\n## Body\nThe case.\n\n## Conclusion\nSo it goes."
    assert view_of(essay, parse=False).sections == ("Intro", "Body", "Conclusion")
    assert _count_status("Write an essay on tides in three sections.", essay) is Status.SATISFIED
    assert _count_status("Write an essay on tides in four sections.", essay) is Status.VIOLATED
    titled = "# Tides\n" + essay  # a title above the sections is not one of them
    assert view_of(titled, parse=False).sections == ("Intro", "Body", "Conclusion")
    code = "```\n# not a heading\n```\nPlain text."
    assert view_of(code, parse=False).sections == ()


def test_without_headings_paragraphs_bound_the_sections() -> None:
    plain = "Tides rise twice a day.\n\nThe moon pulls the sea.\n\nStorms add surges."
    assert _count_status("Write about tides in three sections.", plain) is Status.SATISFIED  # one per paragraph
    assert _count_status("Write about tides in two sections.", plain) is Status.UNKNOWN  # two may hold all three
    assert _count_status("Write about tides in four sections.", plain) is Status.VIOLATED  # three hold at most three


def test_a_sentence_count_across_an_abbreviation_is_a_range() -> None:
    # "Mr. Lee" goes on; "Acme Inc. It grew" starts anew: both follow an abbreviation spaCy's tokenizer keeps
    titled = "Mr. Lee opened the shop. It sold bread."
    view = view_of(titled, parse=False)
    assert len(view.sentences) == 3 and view.abbreviation_stops == 1
    assert _count_status("Write two sentences about the shop.", titled) is Status.UNKNOWN
    assert _count_status("Write five sentences about the shop.", titled) is Status.VIOLATED  # 2 or 3: too few
    assert _count_status("Write at least two sentences about the shop.", titled) is Status.SATISFIED
    plain = "Lee opened the shop. It sold bread."  # no abbreviation: the count is exact
    assert view_of(plain, parse=False).abbreviation_stops == 0
    assert _count_status("Write two sentences about the shop.", plain) is Status.SATISFIED
