"""Checks for the 25 IFEval instruction types (strict definitions, own implementation)."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from faithguard.lexical.langid import LANGUAGE_NAMES, identify, script_letters, tells_apart
from faithguard.models import Status
from faithguard.verifiers.registry import (
    CheckerTable,
    VerifierOutcome,
    compare,
    counted,
    get_int,
    get_relation,
    get_str,
    get_str_list,
)
from faithguard.verifiers.text import count_sentences, count_words, treebank_tokens

__all__ = ["CHECKS", "CONSTRAINED_OPTIONS", "LANG_CONFIDENCE"]

#: This module's checkers; :mod:`faithguard.verifiers.plugin` registers them.
CHECKS = CheckerTable()

#: The fixed answers of ``detectable_format:constrained_response``.
CONSTRAINED_OPTIONS = ("My answer is yes.", "My answer is no.", "My answer is maybe.")
#: Below this identification confidence a language check returns UNKNOWN.
LANG_CONFIDENCE = 0.35
#: Fewer letters of a script several languages share give no stable language id ("Bonjour !"): unknown, not
#: violated (tests/verifiers/test_language_check.py).
LANG_MIN_LETTERS = 20
_IFEVAL_RELATIONS = {"less than", "at least"}


def _ok(cond: bool, yes: str, no: str) -> VerifierOutcome:
    return VerifierOutcome(Status.SATISFIED if cond else Status.VIOLATED, yes if cond else no)


def _rel_text(relation: str, n: int) -> str:
    return f"{relation} {n}"


@CHECKS.add("keywords:existence")
def _keywords_existence(params: Mapping[str, Any], response: str) -> VerifierOutcome:
    keywords = get_str_list(params, "keywords")
    missing = [k for k in keywords if not re.search(re.escape(k), response, re.IGNORECASE)]
    return _ok(not missing, "all keywords present", f"missing keywords: {', '.join(missing)}")


@CHECKS.add("keywords:frequency")
def _keywords_frequency(params: Mapping[str, Any], response: str) -> VerifierOutcome:
    keyword = get_str(params, "keyword")
    target = get_int(params, "frequency")
    relation = get_relation(params, "relation", _IFEVAL_RELATIONS)
    count = len(re.findall(re.escape(keyword), response, re.IGNORECASE))
    msg = f"{keyword!r} occurs {count} times (need {_rel_text(relation, target)})"
    return _ok(compare(count, relation, target), msg, msg)


@CHECKS.add("keywords:forbidden_words")
def _forbidden_words(params: Mapping[str, Any], response: str) -> VerifierOutcome:
    words = get_str_list(params, "forbidden_words")
    found = [w for w in words if re.search(r"\b" + re.escape(w) + r"\b", response, re.IGNORECASE)]
    return _ok(not found, "no forbidden word used", f"forbidden words used: {', '.join(found)}")


@CHECKS.add("keywords:letter_frequency")
def _letter_frequency(params: Mapping[str, Any], response: str) -> VerifierOutcome:
    letter = get_str(params, "letter").lower()
    target = get_int(params, "let_frequency")
    relation = get_relation(params, "let_relation", _IFEVAL_RELATIONS)
    count = response.lower().count(letter)
    msg = f"{letter!r} occurs {count} times (need {_rel_text(relation, target)})"
    return _ok(compare(count, relation, target), msg, msg)


@CHECKS.add("language:response_language")
def _response_language(params: Mapping[str, Any], response: str) -> VerifierOutcome:
    target = get_str(params, "language").lower()
    name = LANGUAGE_NAMES.get(target, target)
    letters, shared = script_letters(response)
    if shared and letters < LANG_MIN_LETTERS:
        return VerifierOutcome(Status.UNKNOWN, "too short to identify its language")
    ident = identify(response)
    if ident.language is None:
        return VerifierOutcome(Status.UNKNOWN, "language could not be identified")
    if ident.language == target:
        if ident.confidence < LANG_CONFIDENCE / 2:
            return VerifierOutcome(Status.UNKNOWN, f"weak evidence of {name}")
        return VerifierOutcome(Status.SATISFIED, f"response is in {name}")
    if ident.confidence < LANG_CONFIDENCE:
        return VerifierOutcome(Status.UNKNOWN, f"low-confidence identification ({ident.language})")
    if not tells_apart(target):
        # the identifier cannot recognise the asked language, so another reading is no evidence against it
        return VerifierOutcome(Status.UNKNOWN, f"{name} is not a language the identifier tells apart")
    found = LANGUAGE_NAMES.get(ident.language, ident.language)
    return VerifierOutcome(Status.VIOLATED, f"response is in {found}, not {name}")


@CHECKS.add("length_constraints:number_sentences")
def _number_sentences(params: Mapping[str, Any], response: str) -> VerifierOutcome:
    target = get_int(params, "num_sentences")
    relation = get_relation(params, "relation", _IFEVAL_RELATIONS)
    return counted(count_sentences(response), relation, target, "sentences")


@CHECKS.add("length_constraints:number_paragraphs")
def _number_paragraphs(params: Mapping[str, Any], response: str) -> VerifierOutcome:
    target = get_int(params, "num_paragraphs")
    parts = re.split(r"\s?\*\*\*\s?", response)
    count = len(parts)
    for i, part in enumerate(parts):
        if not part.strip():
            if i in (0, len(parts) - 1):
                count -= 1
            else:
                return VerifierOutcome(Status.VIOLATED, "empty paragraph between *** dividers")
    return counted(count, "exactly", target, "paragraphs separated by ***")


@CHECKS.add("length_constraints:number_words")
def _number_words(params: Mapping[str, Any], response: str) -> VerifierOutcome:
    target = get_int(params, "num_words")
    relation = get_relation(params, "relation", _IFEVAL_RELATIONS)
    return counted(count_words(response), relation, target, "words")


@CHECKS.add("length_constraints:nth_paragraph_first_word")
def _nth_paragraph_first_word(params: Mapping[str, Any], response: str) -> VerifierOutcome:
    target = get_int(params, "num_paragraphs")
    nth = get_int(params, "nth_paragraph")
    first_word = get_str(params, "first_word").lower()
    parts = re.split(r"\n\n", response)
    count = sum(1 for p in parts if p.strip())
    if nth < 1 or nth > count:
        return VerifierOutcome(Status.VIOLATED, f"no paragraph {nth} (found {count})")
    paragraph = parts[nth - 1].strip()
    if not paragraph:
        return VerifierOutcome(Status.VIOLATED, f"paragraph {nth} is empty")
    word = paragraph.split()[0].strip().lstrip("'").lstrip('"')
    got = ""
    for ch in word:
        if ch in ".,?!'\"":
            break
        got += ch.lower()
    if count != target:
        return VerifierOutcome(Status.VIOLATED, f"{count} paragraphs, need exactly {target}")
    return _ok(
        got == first_word,
        f"paragraph {nth} starts with {first_word!r}",
        f"paragraph {nth} starts with {got!r}, not {first_word!r}",
    )


def _bracketed(text: str) -> int:
    """How many ``[...]`` IFEval's ``re.findall(r"\\[.*?\\]", text)`` finds, in one pass per line: from a "[" to the
    first "]" after it on its line, then on from there. A "[" with no "]" after it on its line leaves none after it
    either, so the line is done (the regex tried every such "[" again: "[" * 20,000 took 1.5 s; issue 16)."""
    count = 0
    for line in text.split("\n"):
        at = line.find("[")
        while at >= 0:
            close = line.find("]", at + 1)
            if close < 0:
                break
            count += 1
            at = line.find("[", close + 1)
    return count


@CHECKS.add("detectable_content:number_placeholders")
def _number_placeholders(params: Mapping[str, Any], response: str) -> VerifierOutcome:
    target = get_int(params, "num_placeholders")
    count = _bracketed(response)
    msg = f"{count} [placeholders] (need at least {target})"
    return _ok(count >= target, msg, msg)


@CHECKS.add("detectable_content:postscript")
def _postscript(params: Mapping[str, Any], response: str) -> VerifierOutcome:
    marker = get_str(params, "postscript_marker", "P.S.")
    # IFEval's patterns open with "\s*", which changes where a match starts, never whether one exists: left out, as
    # it rescanned a run of blanks from each blank (issue 16)
    if marker == "P.P.S":
        pattern = r"p\.\s?p\.\s?s.*$"
    elif marker == "P.S.":
        pattern = r"p\.\s?s\..*$"
    else:
        pattern = re.escape(marker.lower()) + r".*$"
    found = re.search(pattern, response.lower(), flags=re.MULTILINE)
    return _ok(found is not None, f"postscript {marker} present", f"no postscript starting with {marker}")


@CHECKS.add("detectable_format:number_bullet_lists")
def _number_bullets(params: Mapping[str, Any], response: str) -> VerifierOutcome:
    target = get_int(params, "num_bullets")
    # IFEval's "^\s*" may cross blank lines to the bullet's line; "[^\S\n]*" starts on that line instead: the same
    # bullets, once each, without rescanning a run of newlines from each of them (issue 16)
    stars = re.findall(r"^[^\S\n]*\*[^\*].*$", response, flags=re.MULTILINE)
    dashes = re.findall(r"^[^\S\n]*-.*$", response, flags=re.MULTILINE)
    count = len(stars) + len(dashes)
    msg = f"{count} markdown bullets (need exactly {target})"
    return _ok(count == target, msg, msg)


@CHECKS.add("detectable_format:constrained_response")
def _constrained_response(params: Mapping[str, Any], response: str) -> VerifierOutcome:
    text = response.strip()
    hit = next((o for o in CONSTRAINED_OPTIONS if o in text), None)
    return _ok(hit is not None, f"contains {hit!r}", "none of the allowed answers appears")


@CHECKS.add("detectable_format:number_highlighted_sections")
def _highlights(params: Mapping[str, Any], response: str) -> VerifierOutcome:
    target = get_int(params, "num_highlights")
    single = re.findall(r"\*[^\n\*]*\*", response)
    double = re.findall(r"\*\*[^\n\*]*\*\*", response)
    count = sum(1 for h in single if h.strip("*").strip()) + sum(1 for h in double if h.strip("*").strip())
    msg = f"{count} highlighted sections (need at least {target})"
    return _ok(count >= target, msg, msg)


@CHECKS.add("detectable_format:multiple_sections")
def _multiple_sections(params: Mapping[str, Any], response: str) -> VerifierOutcome:
    splitter = get_str(params, "section_spliter", "Section").strip()
    target = get_int(params, "num_sections")
    parts = re.split(r"\s?" + re.escape(splitter) + r"\s?\d+\s?", response)
    count = len(parts) - 1
    msg = f"{count} sections marked '{splitter} N' (need at least {target})"
    return _ok(count >= target, msg, msg)


@CHECKS.add("detectable_format:json_format")
def _json_format(params: Mapping[str, Any], response: str) -> VerifierOutcome:
    text = response.strip()
    for fence in ("```json", "```Json", "```JSON", "```"):
        if text.startswith(fence):
            text = text[len(fence) :]
            break
    text = text.removesuffix("```").strip()
    try:
        json.loads(text)
    except (ValueError, RecursionError):
        return VerifierOutcome(Status.VIOLATED, "response is not valid JSON")
    return VerifierOutcome(Status.SATISFIED, "response parses as JSON")


def _titles(text: str) -> list[str]:
    """What IFEval's ``re.findall(r"<<[^\\n]+>>", text)`` finds, one pass per line: the greedy match runs from a line's
    first "<<" to its last ">>" (at least one character between), so a line holds one title at most; the regex
    backtracked from every "<<" of a line without ">>" (issue 16)."""
    found = []
    for line in text.split("\n"):
        first, last = line.find("<<"), line.rfind(">>")
        if first >= 0 and last >= first + 3:
            found.append(line[first : last + 2])
    return found


@CHECKS.add("detectable_format:title")
def _title(params: Mapping[str, Any], response: str) -> VerifierOutcome:
    ok = any(t.lstrip("<").rstrip(">").strip() for t in _titles(response))
    return _ok(ok, "has a <<title>>", "no non-empty <<title>>")


@CHECKS.add("combination:two_responses")
def _two_responses(params: Mapping[str, Any], response: str) -> VerifierOutcome:
    parts = response.split("******")
    valid = []
    for i, part in enumerate(parts):
        if not part.strip():
            if i not in (0, len(parts) - 1):
                return VerifierOutcome(Status.VIOLATED, "empty response between ****** separators")
        else:
            valid.append(part)
    if len(valid) != 2:
        return VerifierOutcome(Status.VIOLATED, f"{len(valid)} responses separated by ******, need 2")
    return _ok(valid[0].strip() != valid[1].strip(), "two different responses", "the two responses are identical")


@CHECKS.add("combination:repeat_prompt")
def _repeat_prompt(params: Mapping[str, Any], response: str) -> VerifierOutcome:
    prompt = get_str(params, "prompt_to_repeat").strip().lower()
    ok = response.strip().lower().startswith(prompt)
    return _ok(ok, "starts by repeating the request", "does not start with the exact request")


@CHECKS.add("startend:end_checker")
def _end_checker(params: Mapping[str, Any], response: str) -> VerifierOutcome:
    phrase = get_str(params, "end_phrase").strip().lower()
    ok = response.strip().strip('"').lower().endswith(phrase)
    return _ok(ok, "ends with the required phrase", f"does not end with {phrase!r}")


@CHECKS.add("change_case:capital_word_frequency")
def _capital_words(params: Mapping[str, Any], response: str) -> VerifierOutcome:
    target = get_int(params, "capital_frequency")
    relation = get_relation(params, "capital_relation", _IFEVAL_RELATIONS)
    count = sum(1 for t in treebank_tokens(response) if t.isupper())
    msg = f"{count} all-capital words (need {_rel_text(relation, target)})"
    return _ok(compare(count, relation, target), msg, msg)


def _english_case(response: str, upper: bool) -> VerifierOutcome:
    case_ok = response.isupper() if upper else response.islower()
    kind = "uppercase" if upper else "lowercase"
    if not case_ok:
        return VerifierOutcome(Status.VIOLATED, f"not all {kind}")
    ident = identify(response)
    if ident.language == "en" or ident.language is None:
        return VerifierOutcome(Status.SATISFIED, f"all {kind} English")
    if ident.confidence < LANG_CONFIDENCE:
        return VerifierOutcome(Status.SATISFIED, f"all {kind}; language check inconclusive")
    return VerifierOutcome(Status.VIOLATED, f"all {kind} but not English ({ident.language})")


@CHECKS.add("change_case:english_capital")
def _english_capital(params: Mapping[str, Any], response: str) -> VerifierOutcome:
    return _english_case(response, upper=True)


@CHECKS.add("change_case:english_lowercase")
def _english_lowercase(params: Mapping[str, Any], response: str) -> VerifierOutcome:
    return _english_case(response, upper=False)


@CHECKS.add("punctuation:no_comma")
def _no_comma(params: Mapping[str, Any], response: str) -> VerifierOutcome:
    n = response.count(",")
    return _ok(n == 0, "no commas", f"{n} commas used")


@CHECKS.add("startend:quotation")
def _quotation(params: Mapping[str, Any], response: str) -> VerifierOutcome:
    text = response.strip()
    ok = len(text) > 1 and text[0] == '"' and text[-1] == '"'
    return _ok(ok, "wrapped in double quotes", "not wrapped in double quotation marks")
