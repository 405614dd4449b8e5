"""Checks for creative-writing constraints (FaithQA): lines, stanzas, words per line, rhyme, refrain."""

from __future__ import annotations

import itertools
import re
from collections.abc import Mapping
from typing import Any

from faithguard.models import Status
from faithguard.verifiers.registry import (
    ParamError,
    VerifierOutcome,
    CheckerTable,
    compare,
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
    msg = f"{count} {what} (need {relation} {target})"
    return _ok(compare(count, relation, target), msg, msg)


@CHECKS.add("creative:lines")
def _lines(params: Mapping[str, Any], response: str) -> VerifierOutcome:
    return _count_check(len(lines_of(response)), params, "num_lines", "lines")


@CHECKS.add("creative:stanzas")
def _stanzas(params: Mapping[str, Any], response: str) -> VerifierOutcome:
    return _count_check(len(stanzas_of(response)), params, "num_stanzas", "stanzas")


@CHECKS.add("creative:paragraphs")
def _paragraphs(params: Mapping[str, Any], response: str) -> VerifierOutcome:
    return _count_check(len(stanzas_of(response)), params, "num_paragraphs", "paragraphs")


@CHECKS.add("creative:lines_per_stanza")
def _lines_per_stanza(params: Mapping[str, Any], response: str) -> VerifierOutcome:
    target = get_int(params, "num_lines")
    relation = _relation(params)
    stanzas = stanzas_of(response)
    if not stanzas:
        return VerifierOutcome(Status.VIOLATED, "no stanzas")
    bad = [i + 1 for i, s in enumerate(stanzas) if not compare(len(s), relation, target)]
    return _ok(
        not bad,
        f"every stanza has {relation} {target} lines",
        f"stanzas {bad[:5]} do not have {relation} {target} lines",
    )


def _line_words(line: str) -> list[str]:
    return _WORD.findall(line)


@CHECKS.add("creative:words_per_line")
def _words_per_line(params: Mapping[str, Any], response: str) -> VerifierOutcome:
    target = get_int(params, "num_words")
    relation = _relation(params)
    lines = lines_of(response)
    if not lines:
        return VerifierOutcome(Status.VIOLATED, "no lines")
    bad = [
        (i + 1, len(_line_words(ln)))
        for i, ln in enumerate(lines)
        if not compare(len(_line_words(ln)), relation, target)
    ]
    if not bad:
        return VerifierOutcome(Status.SATISFIED, f"all {len(lines)} lines have {relation} {target} words")
    shown = ", ".join(f"line {i}: {n}" for i, n in bad[:3])
    return VerifierOutcome(Status.VIOLATED, f"{len(bad)} lines break '{relation} {target} words' ({shown})")


def _letter(params: Mapping[str, Any]) -> str:
    letter = get_str(params, "letter").lower()
    if len(letter) != 1:
        raise ParamError("letter must be a single character")
    return letter


@CHECKS.add("creative:line_start_letter")
def _line_start_letter(params: Mapping[str, Any], response: str) -> VerifierOutcome:
    letter = _letter(params)
    lines = lines_of(response)
    if not lines:
        return VerifierOutcome(Status.VIOLATED, "no lines")
    bad = [i + 1 for i, ln in enumerate(lines) if not (_line_words(ln) or [""])[0].lower().startswith(letter)]
    return _ok(not bad, f"every line starts with {letter!r}", f"lines {bad[:5]} do not start with {letter!r}")


@CHECKS.add("creative:word_start_letter")
def _word_start_letter(params: Mapping[str, Any], response: str) -> VerifierOutcome:
    letter = _letter(params)
    words = [w for w in _WORD.findall(response)]
    if not words:
        return VerifierOutcome(Status.VIOLATED, "no words")
    bad = [w for w in words if not w.lower().startswith(letter)]
    return _ok(
        not bad, f"every word starts with {letter!r}", f"{len(bad)} words do not, e.g. {bad[0]!r}" if bad else ""
    )


@CHECKS.add("creative:line_end_letter")
def _line_end_letter(params: Mapping[str, Any], response: str) -> VerifierOutcome:
    letter = _letter(params)
    lines = lines_of(response)
    if not lines:
        return VerifierOutcome(Status.VIOLATED, "no lines")
    bad = [i + 1 for i, ln in enumerate(lines) if not (_line_words(ln) or [""])[-1].lower().endswith(letter)]
    return _ok(not bad, f"every line ends with {letter!r}", f"lines {bad[:5]} do not end with {letter!r}")


@CHECKS.add("creative:line_end_word")
def _line_end_word(params: Mapping[str, Any], response: str) -> VerifierOutcome:
    word = get_str(params, "word").lower()
    lines = lines_of(response)
    if not lines:
        return VerifierOutcome(Status.VIOLATED, "no lines")
    bad = [i + 1 for i, ln in enumerate(lines) if (_line_words(ln) or [""])[-1].lower() != word]
    return _ok(not bad, f"every line ends with {word!r}", f"lines {bad[:5]} do not end with {word!r}")


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
