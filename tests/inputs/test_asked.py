"""Material the assistant asked for in its last turn that the user's next turn still lacks (inputs/asked.py, spec
requested_handover)."""

from __future__ import annotations

import pytest

from faithguard.detector import CallContext
from faithguard.inputs.missing import analyse
from faithguard.models import Message
from faithguard.nlp import parse

ASKS = "Sure, I can look at that. Could you paste the error log first?"
SCRIPT = (
    "Traceback (most recent call last): File main.py, line 4, in load_config, open(path) "
    "FileNotFoundError: No such file or directory: settings.yaml"
)


def _ctx(query: str, assistant: str = ASKS, documents: tuple[str, ...] = ()) -> CallContext:
    turns = [
        Message(role="user", content="My deploy script fails every night."),
        Message(role="assistant", content=assistant),
    ]
    return CallContext(query=query, history=turns, documents=list(documents))


@pytest.mark.parametrize(
    ("ctx", "missing"),
    [
        # asked for, and the next turn carries nothing
        (_ctx("What's causing it?"), True),
        (_ctx("ok go ahead and diagnose"), True),
        (_ctx("Tell me the fix.", "Happy to help. Send me the config file and I'll check the paths."), True),
        (_ctx("Any idea?", "Please upload it and I will take a look."), True),
        # the next turn carries it: pasted, after a colon, or as a document
        (_ctx(f"Here you go:\n\n{SCRIPT}"), False),
        (_ctx(f"{SCRIPT}\n\nWhat's causing it?"), False),
        (_ctx("What's causing it?", documents=(SCRIPT,)), False),
        # the user declines, or the assistant asked for nothing to hand over
        (_ctx("I don't have the log, can you guess?"), False),
        (_ctx("Tell me the fix.", "I will send you a checklist tomorrow."), False),
        (_ctx("Lisbon.", "Which city are you in?"), False),
        (_ctx("Tell me the fix.", "Please share your thoughts on the plan with the team."), False),
    ],
)
def test_material_the_assistant_asked_for(ctx: CallContext, missing: bool) -> None:
    assert bool(analyse(ctx, parse)) is missing, ctx.query


@pytest.mark.parametrize(
    "assistant",
    [
        "Could you share more details about the setup?",  # a clarifying question: details are not material
        "Please forward the invoice to your accountant.",  # handed to someone else
    ],
)
def test_no_material_was_asked_for(assistant: str) -> None:
    assert not analyse(_ctx("Tell me the fix.", assistant), parse)
