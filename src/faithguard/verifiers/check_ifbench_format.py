"""Checks for IFBench's format, custom and repeat constraints (IFBench ids and kwargs names).

Definitions follow the official IFBench checker (AllenAI, Apache-2.0), written anew. Checks that need
world knowledge the package does not ship (the exact list of capitals) decide only the form and say
UNKNOWN for the content.
"""

from __future__ import annotations

import csv
import io
import itertools
import re
import unicodedata
from collections.abc import Mapping
from typing import Any

from faithguard.models import Status
from faithguard.verifiers.ifbench_text import PUNCT, sentences, strip_punct
from faithguard.verifiers.registry import CheckerTable, VerifierOutcome, get_int, get_str
from faithguard.verifiers.text import treebank_tokens

__all__ = ["CHECKS"]

#: This module's checkers; :mod:`faithguard.verifiers.plugin` registers them.
CHECKS = CheckerTable()

_S, _V, _U = Status.SATISFIED, Status.VIOLATED, Status.UNKNOWN


def _ok(cond: bool, why: str) -> VerifierOutcome:
    return VerifierOutcome(_S if cond else _V, why)


_PAIRS = {")": "(", "]": "[", "}": "{"}


@CHECKS.add("format:parentheses")
def _parentheses(p: Mapping[str, Any], r: str) -> VerifierOutcome:
    stack: list[str] = []
    deepest = 0
    for ch in r:
        if ch in "([{":
            stack.append(ch)
            deepest = max(deepest, len(stack))
        elif ch in _PAIRS:
            if stack and stack[-1] == _PAIRS[ch]:
                stack.pop()
                if deepest >= 5 and len(stack) < deepest:
                    return VerifierOutcome(_S, f"brackets nested {deepest} deep")
            else:
                stack, deepest = [], 0
    return VerifierOutcome(_V, "no correctly closed nesting of 5 levels")


@CHECKS.add("format:quotes")
def _quotes(p: Mapping[str, Any], r: str) -> VerifierOutcome:
    stack: list[str] = []
    reached = 0
    for ch in r:
        if stack and ch == stack[-1]:
            stack.pop()
            if reached - len(stack) >= 3:
                return VerifierOutcome(_S, "quotes nested 3 deep")
        elif ch in "\"'":
            stack.append(ch)
            reached = max(reached, len(stack))
    return VerifierOutcome(_V, "no quotes nested 3 levels deep")


def _split_options(options: str) -> list[str]:
    sep = "/" if "/" in options else "or" if "or" in options else ","
    return [o.strip() for o in options.split(sep)]


@CHECKS.add("format:options")
def _options(p: Mapping[str, Any], r: str) -> VerifierOutcome:
    options = get_str(p, "options")
    opts = _split_options(options)
    if re.match(r"\W*[aA]\W*[bB]\W*[cC]\W*", options):
        return _ok(r in opts, "the response is exactly one option" if r in opts else "not exactly one option")
    v = r.strip(PUNCT + " ").lower()
    hit = any(o.strip(PUNCT + " ").lower() == v for o in opts)
    return _ok(hit, "the response is one of the options" if hit else "the response is not one of the options")


@CHECKS.add("format:newline")
def _newline(p: Mapping[str, Any], r: str) -> VerifierOutcome:
    v = strip_punct(r)
    lines = [ln for ln in v.strip().split("\n") if ln]
    n = len(v.strip().split())
    return _ok(len(lines) == n, f"{len(lines)} lines for {n} words")


@CHECKS.add("format:line_indent")
def _line_indent(p: Mapping[str, Any], r: str) -> VerifierOutcome:
    lines = [ln for ln in r.split("\n") if ln.strip()]
    depth = [len(ln) - len(ln.lstrip(" ")) for ln in lines]
    for i, (a, b) in enumerate(itertools.pairwise(depth), start=2):
        if b <= a:
            return VerifierOutcome(_V, f"line {i} is not indented further than line {i - 1}")
    return VerifierOutcome(_S, "each line is indented further")


@CHECKS.add("format:quote_unquote")
def _quote_unquote(p: Mapping[str, Any], r: str) -> VerifierOutcome:
    v = r.replace("“", '"').replace("”", '"').replace("'\"'", "")
    v = "".join(v.split())
    if '""' in v:
        return VerifierOutcome(_V, "two quotations follow each other without an explanation")
    tail = v.strip("0123456789" + PUNCT.replace('"', ""))
    return _ok(not tail.endswith('"'), "the response ends with a quotation" if tail.endswith('"') else "explained")


@CHECKS.add("format:list")
def _special_list(p: Mapping[str, Any], r: str) -> VerifierOutcome:
    sep = get_str(p, "sep")
    n = r.count(sep) if sep else 0
    return _ok(n >= 2, f"{n} uses of the marker {sep!r} (need 2+)")


@CHECKS.add("format:thesis")
def _thesis(p: Mapping[str, Any], r: str) -> VerifierOutcome:
    m = re.search(r"<(i|em)>(.*?)</(?:i|em)>", r, re.S)
    start = r.find("<i>") if "<i>" in r else r.find("<em>")
    if start < 0:
        return VerifierOutcome(_V, "no HTML italics")
    rest = r[start:]
    end = rest.find("</i>") if "</i>" in rest else rest.find("</em>")
    if end < 0 or m is None:
        return VerifierOutcome(_V, "italics are not closed")
    if not rest[3:end].strip():
        return VerifierOutcome(_V, "empty italic thesis")
    return _ok(bool(rest[end + 4 :].strip()), "an italic thesis is followed by text")


@CHECKS.add("format:sub-bullets")
def _sub_bullets(p: Mapping[str, Any], r: str) -> VerifierOutcome:
    parts = r.split("*")[1:]
    bad = [i for i, part in enumerate(parts, start=1) if "-" not in part]
    return _ok(not bad, f"bullets {bad[:5]} have no '-' sub-bullet" if bad else "every bullet has a sub-bullet")


@CHECKS.add("format:no_bullets_bullets")
def _some_bullets(p: Mapping[str, Any], r: str) -> VerifierOutcome:
    in_text, n_sent, n_bullets = True, 0, 0
    for line in r.split("\n"):
        if line.strip().startswith("*"):
            in_text = False
            if n_sent < 2:
                return VerifierOutcome(_V, "fewer than two sentences before the bullets")
            n_bullets += 1
        elif in_text:
            n_sent += len(sentences(line.strip())) if line.strip() else 0
        else:
            return VerifierOutcome(_V, "text after the bullet points")
    return _ok(n_bullets >= 2, f"{n_bullets} bullet points (need 2+)")


@CHECKS.add("format:title_case")
def _title_case(p: Mapping[str, Any], r: str) -> VerifierOutcome:
    for tok in treebank_tokens(r):
        head, tail = tok[0], tok[1:]
        if head.islower() and (tail.isupper() or tail.islower()):
            return VerifierOutcome(_V, f"{tok!r} is not capitalised")
    return VerifierOutcome(_S, "every word is capitalised")


@CHECKS.add("format:output_template")
def _template(p: Mapping[str, Any], r: str) -> VerifierOutcome:
    parts = ("My Answer:", "My Conclusion:", "Future Outlook:")
    missing = [x for x in parts if x not in r]
    return _ok(not missing, f"missing {missing}" if missing else "template followed")


@CHECKS.add("format:no_whitespace")
def _no_whitespace(p: Mapping[str, Any], r: str) -> VerifierOutcome:
    return _ok(not any(c.isspace() for c in r), "whitespace found" if any(c.isspace() for c in r) else "none")


@CHECKS.add("custom:multiples")
def _multiples(p: Mapping[str, Any], r: str) -> VerifierOutcome:
    got = re.findall(r"\d+", r.replace(",", ", "))
    want = [str(i) for i in range(14, 51, 7)]
    return _ok(got == want, f"numbers {got[:8]} (need {want})")


@CHECKS.add("custom:mcq_count_length")
def _mcq(p: Mapping[str, Any], r: str) -> VerifierOutcome:
    if r[r.find("Question") :] != r:
        return VerifierOutcome(_V, "text before the first question")
    qs = [q.strip() for q in re.split(r"\n*(?:Question \d+[\.|\):;]?\s*)", r) if q.strip()]
    if len(qs) != 4:
        return VerifierOutcome(_V, f"{len(qs)} questions (need 4)")
    lengths = []
    for q in qs:
        text, options, done = "", 0, False
        for line in q.split("\n"):
            if re.match(r"^[A-Ea-e][\.|\)]\s*\w+", line.strip()):
                options, done = options + 1, True
            elif not done:
                text += " " + line.strip()
        if options != 5:
            return VerifierOutcome(_V, f"a question has {options} options (need 5)")
        lengths.append(len(text.strip()))
    grows = all(a < b for a, b in itertools.pairwise(lengths))
    return _ok(grows, "questions get longer" if grows else "questions do not get progressively longer")


def _ascii(text: str) -> str:
    return unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")


@CHECKS.add("custom:reverse_newline")
def _reverse_newline(p: Mapping[str, Any], r: str) -> VerifierOutcome:
    lines = [ln.strip(PUNCT + " ") for ln in r.split("\n") if ln.strip(PUNCT + " ")]
    start = next((i for i, ln in enumerate(lines) if "Zimbabwe" in ln), None)
    if start is None:
        return VerifierOutcome(_V, "the list does not start at Zimbabwe")
    rows = [_ascii(x) for x in lines[start:]]
    if len(rows) < 52:
        return VerifierOutcome(_V, f"{len(rows)} lines from Zimbabwe on (need 52+)")
    return _ok(rows == sorted(rows, reverse=True), "reverse alphabetical order checked")


@CHECKS.add("custom:word_reverse")
def _word_reverse(p: Mapping[str, Any], r: str) -> VerifierOutcome:
    v = " ".join(strip_punct(r.lower().strip()).split()[::-1])
    if "bald eagle" not in v:
        return VerifierOutcome(_V, "the reversed answer does not name the bald eagle")
    return _ok(v in sentences(v), "one sentence in reverse word order")


@CHECKS.add("custom:character_reverse")
def _char_reverse(p: Mapping[str, Any], r: str) -> VerifierOutcome:
    return _ok("elgae dlab" in r.lower(), "reversed letters checked")


@CHECKS.add("custom:sentence_alphabet")
def _sentence_alphabet(p: Mapping[str, Any], r: str) -> VerifierOutcome:
    ss = sentences(r)
    if len(ss) != 26:
        return VerifierOutcome(_V, f"{len(ss)} sentences (need 26)")
    for i, s in enumerate(ss):
        ws = s.lstrip().split()
        if not ws or ws[0][0].lower() != chr(97 + i):
            return VerifierOutcome(_V, f"sentence {i + 1} does not start with {chr(65 + i)}")
    return VerifierOutcome(_S, "sentences run A to Z")


@CHECKS.add("custom:european_capitals_sort")
def _capitals(p: Mapping[str, Any], r: str) -> VerifierOutcome:
    items = [c.strip() for c in _ascii(r).split(",") if c.strip()]
    if len(items) < 2 or any(len(c.split()) > 3 or "\n" in c for c in items):
        return VerifierOutcome(_V, "not a bare comma-separated list of names")
    return VerifierOutcome(_U, "which capitals lie north of 45 degrees needs a gazetteer; the form is right")


def _csv_rows(text: str, delimiter: str = ",") -> list[list[str]]:
    try:
        return list(csv.reader(io.StringIO(text), delimiter=delimiter))
    except csv.Error:  # not parseable as CSV: no rows, so the shape check fails
        return []


@CHECKS.add("custom:csv_city")
def _csv_city(p: Mapping[str, Any], r: str) -> VerifierOutcome:
    rows = _csv_rows(r)
    if len(rows) != 8 or rows[0] != ["ID", "Country", "City", "Year", "Count"]:
        return VerifierOutcome(_V, "need the exact header and 7 rows")
    return _ok(all(len(x) == 5 for x in rows[1:]), "7 rows of 5 fields")


def _header_re(names: tuple[str, ...], sep: str) -> re.Pattern[str]:
    return re.compile("^" + sep.join(f'(?:{n}|"{n}")' for n in names) + "$")


@CHECKS.add("custom:csv_special_character")
def _csv_special(p: Mapping[str, Any], r: str) -> VerifierOutcome:
    header = _header_re(("ProductID", "Category", "Brand", "Price", "Stock"), r",[ \t]*")
    if not header.match(r.split("\n")[0].strip()):
        return VerifierOutcome(_V, "wrong header")
    rows = _csv_rows(r.replace('"', '"""'))
    if len(rows) != 15:
        return VerifierOutcome(_V, f"{len(rows) - 1} rows (need 14)")
    for row in rows[1:]:
        if len(row) != 5:
            return VerifierOutcome(_V, "a row without 5 fields")
        if any(re.match(r'".*[^\d\w\s].*"', f) for f in row):
            return VerifierOutcome(_S, "a quoted field with a special character")
    return VerifierOutcome(_V, "no quoted field with a special character")


@CHECKS.add("custom:csv_quotes")
def _csv_quotes(p: Mapping[str, Any], r: str) -> VerifierOutcome:
    header = _header_re(("StudentID", "Subject", "Grade", "Semester", "Score"), r"\t *")
    if not header.match(r.split("\n")[0].strip()):
        return VerifierOutcome(_V, "wrong header")
    rows = _csv_rows(r.replace('"', '"""'), "\t")
    if len(rows) != 4:
        return VerifierOutcome(_V, f"{len(rows) - 1} rows (need 3)")
    for row in rows:
        if len(row) != 5 or not all(f.strip()[:1] == '"' and f.strip()[-1:] == '"' for f in row):
            return VerifierOutcome(_V, "a field is not in double quotes")
    return VerifierOutcome(_S, "3 tab-separated rows, every field quoted")


_MONTH_DAYS = {1: 31, 2: 29, 3: 31, 4: 30, 5: 31, 6: 30, 7: 31, 8: 31, 9: 30, 10: 31, 11: 30, 12: 31}


@CHECKS.add("custom:date_format_list")
def _dates(p: Mapping[str, Any], r: str) -> VerifierOutcome:
    for d in r.strip().split(","):
        m = re.fullmatch(r"(\d{4})-(\d{2})-(\d{2})", d.strip())
        if m is None:
            return VerifierOutcome(_V, f"{d.strip()[:20]!r} is not YYYY-MM-DD")
        y, mo, day = (int(g) for g in m.groups())
        # Napoleon's lifetime (1769-1821) bounds the battles, as the official check does.
        if not (1769 <= y <= 1821) or mo > 12 or day > _MONTH_DAYS.get(mo, 31):
            return VerifierOutcome(_V, f"{d.strip()} is not a possible date")
    return VerifierOutcome(_S, "every item is a YYYY-MM-DD date")


@CHECKS.add("words:keywords_specific_position")
def _keyword_position(p: Mapping[str, Any], r: str) -> VerifierOutcome:
    kw, n, m = get_str(p, "keyword"), get_int(p, "n"), get_int(p, "m")
    ss = sentences(r)
    if len(ss) < n:
        return VerifierOutcome(_V, f"only {len(ss)} sentences")
    toks = treebank_tokens(ss[n - 1])
    ok = len(toks) >= m and toks[m - 1] == kw
    return _ok(ok, f"word {m} of sentence {n} {'is' if ok else 'is not'} {kw!r}")


@CHECKS.add("words:words_position")
def _words_position(p: Mapping[str, Any], r: str) -> VerifierOutcome:
    kw = get_str(p, "keyword")
    toks = treebank_tokens(r)
    ok = len(toks) >= 2 and toks[1] == toks[-2] == kw
    return _ok(ok, f"second and second-to-last words {'are' if ok else 'are not both'} {kw!r}")


@CHECKS.add("repeat:repeat_change")
def _repeat_change(p: Mapping[str, Any], r: str) -> VerifierOutcome:
    req = get_str(p, "prompt_to_repeat")
    if req == r:
        return VerifierOutcome(_V, "repeated without changing the first word")
    ok = " ".join(req.split()[1:]) == " ".join(r.split()[1:])
    return _ok(ok, "the request is repeated with a new first word" if ok else "the request is not repeated")


@CHECKS.add("repeat:repeat_simple")
def _repeat_simple(p: Mapping[str, Any], r: str) -> VerifierOutcome:
    sentence = get_str(p, "sentence")
    ok = r.strip().lower() == sentence.strip().lower()
    return _ok(ok, "only the sentence was output" if ok else "the response is not just the sentence")


@CHECKS.add("repeat:repeat_span")
def _repeat_span(p: Mapping[str, Any], r: str) -> VerifierOutcome:
    req, a, b = get_str(p, "prompt_to_repeat"), get_int(p, "n_start"), get_int(p, "n_end")
    ok = r.strip().lower().split() == req.strip().lower().split()[a:b]
    return _ok(ok, "the span is copied" if ok else "the response is not the asked span")
