"""combination:repeat_prompt: the instruction to repeat the request and the text it means (moved from
``detect_format`` to keep that module short)."""

from __future__ import annotations

import re

from faithguard.verifiers.spec import VerifiableSpec, make_spec

__all__ = ["detect_repeat"]


#: Reproducing the request: "repeat", or another verb of copying with a word saying the copy is exact
#: ("copy my request above exactly as I typed it", "restating that request verbatim").
_COPY_EXACTLY = (
    r"\b(?:cop(?:y|ying)|restat\w*|reproduc\w*|echo\w*|writ\w*\s+out)\s+(?:my|this|that|the|your)\s+"
    r"(?:(?:original|exact|whole|full)\s+)?(?:request|prompt|question|instruction|message|query)\b[^.]{0,40}?"
    r"\b(?:verbatim|exactly|word\s+(?:for|by)\s+word|as\s+(?:it\s+is\s+|i\s+)?(?:written|typed))"
)
#: Any form of the verb says the request mentions repeating; which sentences instruct it is _REPEAT_SENT's call,
#: where only the base form counts ("... the refrain is repeated" inside the text to repeat is not the instruction).
_REPEAT = re.compile(rf"(?i)\brepl?eat(?:s|ed|ing)?\b|\bword\s+(?:for|by)\s+word\b|{_COPY_EXACTLY}")
_REPEAT_SENT = re.compile(
    r"(?i)\brepl?eat\b|before\s+(?:repeating|that)|say\s+any\s*(?:thing|words?)|add\s+any\s+words?|"
    r"should\s+start\s+with|word\s+(?:for|by)\s+word|then\s+(?:give|answer|reply|respond)|"
    rf"request\s+you\s+need\s+to\s+repeat|do\s+not\s+change|without\s+(?:any\s+)?change|{_COPY_EXACTLY}"
)
#: A label opening the text to repeat ("Request: What is ...?"): the label names it, it is not part of it.
_LEADING_LABEL = re.compile(r"^(?:request|question|prompt|query|text|task)\s*:\s*", re.IGNORECASE)
#: A short label opening the text to repeat ("My question:", "The request:"); it is dropped when its last word is
#: the noun the instruction itself used for that text ("copy my question ..."), so the label is a pointer to it.
#: The label may be a clause ending in a copula ("The question is:", "Here's the question:"; paraphrase study #6).
_NAMED_LABEL = re.compile(r"^(?:[A-Za-z']+\s+){0,2}(?P<noun>(?!(?:is|was)\b)[A-Za-z]+)(?:\s+(?:is|was))?\s*:\s+")
_SPLIT = re.compile(r"(?<=[.!?)\]])\s+(?=[A-Z(\"'])|\n+")


def _names_text(text: str, instruction: str) -> re.Match[str] | None:
    """The label opening ``text`` when its noun is the one the instruction used for the text to repeat."""
    label = _LEADING_LABEL.match(text) or _NAMED_LABEL.match(text)
    noun = label.group("noun") if label is not None and label.re is _NAMED_LABEL else None
    if label is None or (noun is not None and not re.search(rf"(?i)\b{noun}\b", instruction)):
        return None
    return label


def detect_repeat(text: str) -> list[VerifiableSpec]:
    """combination:repeat_prompt: find the repeat instruction and extract the request to repeat."""
    if not _REPEAT.search(text) or not re.search(r"(?i)request|prompt|question|text|line|instruction", text):
        return []
    pieces: list[tuple[int, int]] = []
    pos = 0
    for m in _SPLIT.finditer(text):
        pieces.append((pos, m.start()))
        pos = m.end()
    pieces.append((pos, len(text)))
    flags = [bool(_REPEAT_SENT.search(text[s:e])) for s, e in pieces]
    if not any(flags):
        return []
    # The instruction is the run of repeat-related sentences at the end (or else the start) of the query.
    if flags[-1]:
        last = len(flags) - 1
        first = last
        while first > 0 and flags[first - 1]:
            first -= 1
    else:
        first = flags.index(True)
        last = first
        while last + 1 < len(flags) and flags[last + 1]:
            last += 1
    instr_start = pieces[first][0]
    instr_end = pieces[last][1]
    instruction = text[instr_start:instr_end]
    below = re.search(r"(?i)\bbelow\b|\bfollowing\b", instruction) and not re.search(r"(?i)\babove\b", instruction)
    before = text[:instr_start].strip()
    after = text[instr_end:].strip()
    colon = instruction.rfind(": ")
    if (below or not before) and not after and colon > 0:
        # "repeat the following question ..., then answer it: How do ...?"; "Repeat this request ...: What is ...?"
        instruction, after = instruction[:colon], instruction[colon + 2 :].strip()
    # a label after the instruction names the text it means, even with words before (study #6)
    prompt = after if below or (not before and after) or _names_text(after, instruction) else before
    prompt = _LEADING_LABEL.sub("", prompt, count=1)
    label = _names_text(prompt, instruction)
    if label is not None:
        prompt = prompt[label.end() :]  # "My question: Why ...?": the label names what the instruction named
    if not prompt:
        return []
    return [make_spec("combination:repeat_prompt", {"prompt_to_repeat": prompt}, instruction.strip())]
