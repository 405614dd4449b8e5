"""A count of sections read without headings: a section holds one paragraph or more, so paragraphs bound the
sections (1 to their number) and only a comparison that holds, or fails, over that whole range decides. Examples
written for these tests."""

from __future__ import annotations

import pytest

from faithguard import Guard, Status


@pytest.fixture(scope="module")
def guard() -> Guard:
    return Guard(judge=None)


def _paras(n: int) -> str:
    return "\n\n".join(f"Paragraph {i} says one short thing about rivers and the towns beside them." for i in range(n))


def _sections(guard: Guard, query: str, answer: str) -> Status:
    report = guard.check(query, answer)
    found = [c.status for c in report.constraints if "section" in c.text]
    assert len(found) == 1
    return found[0]


@pytest.mark.parametrize(
    ("query", "paragraphs", "expected"),
    [
        ("Write about rivers in three sections.", 6, Status.UNKNOWN),  # 2 paragraphs a section, or not: unread
        ("Write about rivers in three sections.", 3, Status.SATISFIED),  # a paragraph a section: the plain reading
        ("Write about rivers in three sections.", 2, Status.VIOLATED),  # two paragraphs hold at most two sections
        ("Write about rivers in at least three sections.", 2, Status.VIOLATED),
        ("Write about rivers in at most two sections.", 5, Status.UNKNOWN),
    ],
)
def test_paragraphs_bound_the_sections_of_an_answer_without_headings(
    guard: Guard, query: str, paragraphs: int, expected: Status
) -> None:
    assert _sections(guard, query, _paras(paragraphs)) is expected


def test_headed_sections_are_counted_as_they_stand(guard: Guard) -> None:
    headed = "\n\n".join(f"## Part {i}\n\n{_paras(2)}" for i in range(4))
    assert _sections(guard, "Write about rivers in three sections.", headed) is Status.VIOLATED
    assert _sections(guard, "Write about rivers in four sections.", headed) is Status.SATISFIED
