"""Checks for creative-writing constraints (FaithQA): lines, stanzas, words per line, rhyme, refrain."""

from __future__ import annotations

import itertools
import re
from collections.abc import Mapping
from typing import Any

from faithguard.models import Status
from faithguard.verifiers.registry import (
    CheckerTable,
    ParamError,
    VerifierOutcome,
    counted,
    get_int,
    get_relation,
    get_str,
    get_str_list,
)
from faithguard.verifiers.rhyme import rhymes
from faithguard.verifiers.text import lines_of, stanzas_of, words_of

__all__ = ["CHECKS"]

#: This module's checkers; :mod:`faithguard.verifiers.plugin` registers them.
CHECKS = CheckerTable()

_WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)*")


def _ok(cond: bool, yes: str, no: str) -> VerifierOutcome:
    return VerifierOutcome(Status.SATISFIED if cond else Status.VIOLATED, yes if cond else no)


def _relation(params: Mapping[str, Any]) -> str:
    return get_relation(params, "relation") if "relation" in params else "exactly"


def _count_check(count: int, params: Mapping[str, Any], key: str, what: str) -> VerifierOutcome:
    target = get_int(params, key)
    relation = _relation(params)
    return counted(count, relation, target, what)


@CHECKS.add("creative:lines")
def _lines(params: Mapping[str, Any], response: str) -> VerifierOutcome:
    return _count_check(len(lines_of(response)), params, "num_lines", "lines")


@CHECKS.add("creative:stanzas")
def _stanzas(params: Mapping[str, Any], response: str) -> VerifierOutcome:
    return _count_check(len(stanzas_of(response)), params, "num_stanzas", "stanzas")


@CHECKS.add("creative:paragraphs")
def _paragraphs(params: Mapping[str, Any], response: str) -> VerifierOutcome:
    return _count_check(len(stanzas_of(response)), params, "num_paragraphs", "paragraphs")


def _line_words(line: str) -> list[str]:
    return _WORD.findall(line)


def _letter(params: Mapping[str, Any]) -> str:
    letter = get_str(params, "letter").lower()
    if len(letter) != 1:
        raise ParamError("letter must be a single character")
    return letter


def _has_word(word: str, text: str) -> bool:
    return re.search(r"(?<!\w)" + re.escape(word) + r"(?!\w)", text, re.IGNORECASE) is not None


@CHECKS.add("creative:required_words")
def _required_words(params: Mapping[str, Any], response: str) -> VerifierOutcome:
    words = get_str_list(params, "words")
    missing = [w for w in words if not _has_word(w, response)]
    return _ok(not missing, "all required words used", f"missing: {', '.join(missing)}")


@CHECKS.add("creative:forbidden_words")
def _forbidden(params: Mapping[str, Any], response: str) -> VerifierOutcome:
    words = get_str_list(params, "words")
    found = [w for w in words if _has_word(w, response)]
    return _ok(not found, "no forbidden word used", f"used: {', '.join(found)}")


def _last_word(line: str) -> str:
    words = _line_words(line)
    return words[-1].lower() if words else ""


@CHECKS.add("creative:rhyme_scheme")
def _rhyme_scheme(params: Mapping[str, Any], response: str) -> VerifierOutcome:
    scheme = re.sub(r"[^A-Za-z]", "", get_str(params, "scheme")).upper()
    if not scheme:
        raise ParamError("scheme must contain letters, e.g. 'AABB'")
    stanzas = stanzas_of(response)
    lines = [ln for s in stanzas for ln in s]
    if len(lines) < len(scheme):
        return VerifierOutcome(Status.VIOLATED, f"{len(lines)} lines, too few for scheme {scheme}")
    # The scheme applies per stanza when stanzas match its length, else repeats over all lines.
    groups = (
        stanzas
        if all(len(s) == len(scheme) for s in stanzas)
        else [lines[i : i + len(scheme)] for i in range(0, len(lines) - len(scheme) + 1, len(scheme))]
    )
    failed: list[str] = []
    undecided = 0
    for group in groups:
        ends = [_last_word(ln) for ln in group]
        for letter in set(scheme):
            idx = [i for i, c in enumerate(scheme) if c == letter]
            for a, b in itertools.pairwise(idx):
                verdict = rhymes(ends[a], ends[b])
                if verdict is False:
                    failed.append(f"{ends[a]}/{ends[b]}")
                elif verdict is None:
                    undecided += 1
    if failed:
        return VerifierOutcome(Status.VIOLATED, f"lines that should rhyme do not: {', '.join(failed[:4])}")
    if undecided:
        return VerifierOutcome(Status.UNKNOWN, f"{undecided} rhyme pairs could not be decided by spelling")
    return VerifierOutcome(Status.SATISFIED, f"rhyme scheme {scheme} holds")


@CHECKS.add("creative:refrain")
def _refrain(params: Mapping[str, Any], response: str) -> VerifierOutcome:
    min_repeats = get_int(params, "min_repeats", 2)
    norm = [re.sub(r"[^\w\s]", "", ln).strip().lower() for ln in lines_of(response)]
    wanted = params.get("line")
    if isinstance(wanted, str) and wanted.strip():
        target = re.sub(r"[^\w\s]", "", wanted).strip().lower()
        n = norm.count(target)
        return _ok(n >= min_repeats, f"refrain repeated {n} times", f"refrain appears {n} times, need {min_repeats}")
    best = max((norm.count(x) for x in set(norm) if len(words_of(x)) >= 2), default=0)
    return _ok(best >= min_repeats, f"a line is repeated {best} times", "no line is repeated as a refrain")


@CHECKS.add("creative:start_phrase")
def _start_checker(params: Mapping[str, Any], response: str) -> VerifierOutcome:
    """The answer opens with the phrase (case-insensitive, after leading space and quotation marks).

    faithguard's own type, the mirror of IFEval's ``startend:end_checker``.
    """
    phrase = get_str(params, "start_phrase").strip().lower()
    text = response.strip().lstrip("\"“'‘").lower()
    ok = bool(phrase) and text.startswith(phrase)
    if ok and phrase[-1].isalnum() and len(text) > len(phrase):
        ok = not text[len(phrase)].isalnum()  # "Hi" does not open "Hippos..."
    return _ok(ok, "starts with the required phrase", f"does not start with {phrase!r}")


@CHECKS.add("creative:verse_form")
def _verse_form(params: Mapping[str, Any], response: str) -> VerifierOutcome:
    """A named verse form has the size its definition gives (a haiku 3 lines, a limerick 5): the content lines,
    not counting one leading title line set off by a blank line. Unknown when the answer has no line breaks."""
    want, form = get_int(params, "num_lines"), get_str(params, "form")
    blocks = stanzas_of(response)
    if not blocks:
        return VerifierOutcome(Status.UNKNOWN, "no lines to count")
    count = sum(len(b) for b in blocks)
    if count == 1 and want > 1:
        return VerifierOutcome(Status.UNKNOWN, "the answer is one line: its verse lines cannot be read")
    if len(blocks) > 1 and count != want:
        if any(len(b) == want for b in blocks):
            # "Here's a haiku:\n\n<three lines>\n\nEnjoy!": a block of the form's size among short words around it
            return counted(want, "exactly", want, f"lines in one block (a {form} has {want})")
        return VerifierOutcome(
            Status.UNKNOWN, f"{count} lines in {len(blocks)} blocks: which lines are the {form} is not read"
        )
    return counted(count, "exactly", want, f"lines (a {form} has {want})")
