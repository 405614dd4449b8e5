"""The message a reply is to, named by its sender ("Reply to Maria's message"), is material to supply like "her
message" is (session 19, helper 96). Cases written for the class."""

from __future__ import annotations

import pytest

from faithguard.detector import CallContext
from faithguard.inputs.missing import analyse
from faithguard.nlp import parse


@pytest.mark.parametrize(
    ("query", "missing"),
    [
        ("Reply to Maria's message and tell her I will be late.", True),
        ("Please respond to Daniel's email, keep it friendly.", True),
        ("Reply to Maria's message below: Are you coming tonight? Love, Maria", False),  # supplied after it
        ("Is Orwell's essay on politics still worth reading?", False),  # a work of the world, no reply asked
    ],
)
def test_a_reply_to_someones_message_needs_the_message(query: str, missing: bool) -> None:
    assert bool(analyse(CallContext(query=query), parse)) is missing, query
