"""Readings added in session 9 from the study set's classes (sentences written for this project): the conversation
as the setting of the talk, what the assistant itself made, a link as the object of a verb, and "the same ..."."""

from __future__ import annotations

import pytest

from faithguard.detector import CallContext
from faithguard.inputs.missing import analyse
from faithguard.inputs.parsed import assistant_made, linked_objects
from faithguard.models import Message
from faithguard.nlp import parse

_EARLIER = [
    Message(role="user", content="Can you sketch how our three services talk to each other?"),
    Message(role="assistant", content="Sure: the web tier calls the API, which writes to a queue read by a worker."),
]


def _missing(query: str, history: list[Message] | None = None) -> bool:
    return bool(analyse(CallContext(query=query, history=history or []), parse))


@pytest.mark.parametrize(
    "query",
    [
        "How do I attach a screenshot in this chat?",
        "Can I paste code in this thread?",
        "What should we discuss in this conversation?",
        "Is it fine to share personal details during this conversation?",
    ],
)
def test_the_conversation_as_the_setting_needs_nothing(query: str) -> None:
    assert not _missing(query)


@pytest.mark.parametrize(
    "query",
    ["Summarize this chat so far.", "Give me the main points of this conversation.", "tldr of this thread?"],
)
def test_the_conversation_as_material_still_needs_earlier_turns(query: str) -> None:
    assert _missing(query)


def test_what_the_assistant_made_is_in_its_earlier_turn() -> None:
    query = "Explain the diagram you described above in simpler terms."
    assert _missing(query)  # no earlier turn: nothing holds it
    assert not _missing(query, _EARLIER)


@pytest.mark.parametrize(
    ("text", "noun", "made"),
    [
        ("Shorten the outline you gave me.", "outline", True),
        ("Turn the plan u suggested into a checklist.", "plan", True),
        ("Shorten the outline I wrote.", "outline", False),
        ("Shorten the outline that my boss sent.", "outline", False),
    ],
)
def test_assistant_made_reads_a_you_relative_clause(text: str, noun: str, made: bool) -> None:
    doc = parse(text)
    assert assistant_made(next(t for t in doc if t.text == noun)) is made


@pytest.mark.parametrize(
    ("query", "link"),
    [
        ("Pls read https://news.example.com/2031/07/harbour-bridge-closure-vote and tell me who voted no", True),
        ("Could you summarize https://blog.example.org/why-we-moved-to-rust for my team?", True),
        ("I posted https://blog.example.org/cat-photos yesterday and got no comments. Why?", False),
        ("My portfolio https://me.example.org gets few visitors; any tips to grow it?", False),
    ],
)
def test_a_link_the_assistant_is_asked_to_act_on_is_material(query: str, link: bool) -> None:
    findings = analyse(CallContext(query=query), parse)
    assert any("link" in f["explanation"] for f in findings) is link


def test_linked_objects_reads_the_link_on_its_verb() -> None:
    text = "Please review https://example.org/some-long-article-title and list its claims."
    spans = linked_objects(parse(text))
    assert [text[a:b] for a, b in spans] == ["https://example.org/some-long-article-title"]
    assert linked_objects(parse("I shared https://example.org/a-b-c with my class.")) == []


@pytest.mark.parametrize(
    "query",
    ["No two consecutive words may share the same first letter.", "Use the very same layout for every section."],
)
def test_the_same_compares_and_points_at_nothing(query: str) -> None:
    assert not _missing(query)


def test_a_plain_pointer_is_still_read() -> None:
    assert _missing("Answer the email below.")


def test_a_pointer_back_takes_the_request_s_own_orders_above_it() -> None:
    query = "Write a haiku about rain. Keep it gentle.\n\nFirst repeat the request above word for word."
    assert not _missing(query)
    assert _missing("Repeat the request above word for word, then answer it.")  # nothing above it


def test_orders_after_a_forward_pointer_are_still_no_material() -> None:
    assert _missing("Rewrite the paragraph below so it sounds friendlier. Keep it short.")


@pytest.mark.parametrize(
    "query",
    [
        "Who has the better argument in this thread?",
        "Summarize the decisions reached in this chat.",
        "Given all I explained to you in this conversation, which laptop fits me?",
        "What's off in this forum thread?",
        "Please weigh in on this discussion thread.",
    ],
)
def test_what_was_said_in_the_conversation_still_needs_it(query: str) -> None:
    assert _missing(query)


@pytest.mark.parametrize(
    "query",
    [
        "Can you fix the typos in the essay you got from me?",
        "Please grade the essay you received this morning.",
        "Summarize the blog post you found.",
    ],
)
def test_what_the_user_handed_over_is_not_the_assistant_s(query: str) -> None:
    greeting = [Message(role="user", content="hello"), Message(role="assistant", content="Hi! What can I do for you?")]
    assert _missing(query, greeting)


@pytest.mark.parametrize(
    "query",
    [
        "Use https://api.example.org/v2 as the endpoint in a curl example.",
        "Write a short post promoting https://bakery.example.com for the holidays.",
        "Put https://cal.example.com/sam in my email signature.",
    ],
)
def test_a_link_used_as_a_string_is_no_page_to_read(query: str) -> None:
    assert not any("link" in f["explanation"] for f in analyse(CallContext(query=query), parse))


@pytest.mark.parametrize("query", ["Shorten the same paragraph again.", "Translate the same letter into Italian."])
def test_the_same_alone_points_back(query: str) -> None:
    assert _missing(query)


def test_only_a_pointer_to_the_request_itself_takes_the_orders_above() -> None:
    assert _missing("Keep it formal and short. Use bullet points. Rewrite the paragraph above.")
