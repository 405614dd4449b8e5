"""Detect creative-writing constraints (lines, stanzas, words per line, letters, rhyme, refrain)."""

from __future__ import annotations

import re

from faithguard.verifiers.detect_counts import N, find_counts
from faithguard.verifiers.spec import VerifiableSpec, make_spec, number, quoted_items, sentence_at

__all__ = ["detect_creative"]

_EACH_LINE = r"(?:each|every|all(?:\s+the)?|all\s+of\s+the)\s+(?:single\s+)?lines?"
_EACH_WORD = r"(?:each|every|all(?:\s+the)?|all\s+of\s+the)\s+(?:single\s+)?words?"
_MODAL = r"(?:\s+(?:must|should|will|has\s+to|have\s+to|needs?\s+to|is\s+to|are\s+to))?(?:\s+(?:all|each))?"
_LETTER = r"(?:the\s+)?(?:letter\s+)?[\"'“‘]?(?P<l>[A-Za-z])[\"'”’]?(?![\w'])"


def _counted(
    text: str, unit: str, key: str, verifier: str, *, exclude_tail: str | None = None, exclude_head: str | None = None
) -> list[VerifiableSpec]:
    out: list[VerifiableSpec] = []
    for c in find_counts(text, unit):
        tail = text[c.end : c.end + 40]
        head = text[max(0, c.start - 40) : c.start]
        if exclude_tail and re.match(exclude_tail, tail):
            continue
        if exclude_head and re.search(exclude_head, head):
            continue
        relation = c.relation
        if re.match(r"(?i)(?:a|an|the)\s+\S+\s*-\s*\w", text[c.start : c.end]):
            relation = "exactly"  # 'a 14-line sonnet' states the exact size
        out.append(make_spec(verifier, {"relation": relation, key: c.n}, sentence_at(text, c.start, c.end)))
    if out:
        return out
    m = re.search(rf"(?i)\b(?:a|an|the|in|of|with|into|has|have|write|compose)\s+{N}\s*-?\s*(?:{unit})\b", text)
    if m:
        tail = text[m.end() : m.end() + 40]
        head = text[max(0, m.start() - 40) : m.start()]
        if (exclude_tail and re.match(exclude_tail, tail)) or (exclude_head and re.search(exclude_head, head)):
            return out
        n = number(m.group("n"))
        if n is not None and n > 0:
            out.append(make_spec(verifier, {"relation": "exactly", key: n}, sentence_at(text, m.start())))
    return out


def _words_per_line(text: str) -> list[VerifiableSpec]:
    low = text.lower()
    if "line" not in low or "word" not in low:
        return []
    pats = (
        rf"(?i)\b{_EACH_LINE}{_MODAL}\s+(?:be|have|contain|consist\s+of|use)\s+(?P<body>[^.;]{{0,40}}?)\s*words?\b",
        r"(?i)\b(?P<body>[^.;]{0,30}?)\s*words?\s+(?:per|in\s+each|on\s+each|for\s+each|in\s+every)\s+lines?\b",
        r"(?i)\blines?\s+of\s+(?P<body>[^.;]{0,30}?)\s*words?\s+each\b",
    )
    for pat in pats:
        m = re.search(pat, text)
        if not m:
            continue
        counts = find_counts(m.group("body") + " words", r"words?")
        if counts:
            c = counts[-1]
            rel = c.relation
            n = c.n
            if rel == "less than":
                rel, n = "at most", n - 1
            return [
                make_spec("creative:words_per_line", {"relation": rel, "num_words": n}, sentence_at(text, m.start()))
            ]
        nm = re.search(rf"(?i){N}\s*-?\s*$", m.group("body").strip() + " ")
        if nm is None:
            nm = re.search(rf"(?i)\b{N}\b", m.group("body"))
        n2 = number(nm.group("n")) if nm else None
        if n2:
            return [
                make_spec(
                    "creative:words_per_line", {"relation": "exactly", "num_words": n2}, sentence_at(text, m.start())
                )
            ]
    return []


def _letters(text: str) -> list[VerifiableSpec]:
    low = text.lower()
    if "line" not in low and "word" not in low:
        return []
    specs: list[VerifiableSpec] = []
    start = r"(?:start|begin)s?\s+with\s+"
    end = r"ends?\s+(?:in|with)\s+"
    m = re.search(rf"(?i)\b{_EACH_LINE}{_MODAL}\s+{start}{_LETTER}", text)
    if m:
        specs.append(
            make_spec("creative:line_start_letter", {"letter": m.group("l").lower()}, sentence_at(text, m.start()))
        )
    m = re.search(rf"(?i)\b{_EACH_WORD}{_MODAL}\s+{start}{_LETTER}", text)
    if m:
        specs.append(
            make_spec("creative:word_start_letter", {"letter": m.group("l").lower()}, sentence_at(text, m.start()))
        )
    m = re.search(rf"(?i)\b{_EACH_LINE}{_MODAL}\s+{end}(?:the\s+)?word\s+[\"'“‘]?(?P<w>[\w'-]+)", text)
    if m:
        specs.append(make_spec("creative:line_end_word", {"word": m.group("w").lower()}, sentence_at(text, m.start())))
    else:
        m = re.search(rf"(?i)\b{_EACH_LINE}{_MODAL}\s+{end}{_LETTER}", text)
        if m:
            specs.append(
                make_spec("creative:line_end_letter", {"letter": m.group("l").lower()}, sentence_at(text, m.start()))
            )
    return specs


def _rhyme(text: str) -> list[VerifiableSpec]:
    m = re.search(r"(?i)\brhym\w*", text)
    if not m:
        return []
    sent = sentence_at(text, m.start())
    sm = re.search(r"\b((?:[A-H]\s?){2,12})\b", sent)
    if sm and len(set(sm.group(1).replace(" ", ""))) < len(sm.group(1).replace(" ", "")):
        return [make_spec("creative:rhyme_scheme", {"scheme": sm.group(1).replace(" ", "")}, sent)]
    if re.search(r"(?i)\b(?:rhym\w*\s+couplets?|couplets?\s+(?:that\s+)?rhym\w*)", sent):
        return [make_spec("creative:rhyme_scheme", {"scheme": "AABB"}, sent)]
    if re.search(r"(?i)\balternat\w*\s+rhym\w*|rhym\w*\s+alternat\w*", sent):
        return [make_spec("creative:rhyme_scheme", {"scheme": "ABAB"}, sent)]
    return []


def _refrain(text: str) -> list[VerifiableSpec]:
    m = re.search(
        r"(?i)\b(?:refrain(?!\s+from)|repeated\s+line|recurring\s+line|line\s+that\s+(?:is\s+)?repeat\w*)\b", text
    )
    if not m:
        return []
    sent = sentence_at(text, m.start())
    params: dict[str, object] = {"min_repeats": 2}
    counts = find_counts(sent, r"times")
    if counts:
        params["min_repeats"] = max(2, counts[0].n)
    quoted = quoted_items(text[m.start() : m.start() + 200])
    if quoted and len(quoted[0].split()) >= 2:
        params["line"] = quoted[0]
    return [make_spec("creative:refrain", params, sent)]


def detect_creative(text: str, *, has_paragraph_spec: bool = False) -> list[VerifiableSpec]:
    """All creative-writing constraints found in ``text``."""
    specs: list[VerifiableSpec] = []
    per_stanza = r"(?i)\s*(?:per|in\s+each|each|for\s+each|in\s+every)\s+(?:stanza|verse)"
    lines = _counted(
        text,
        r"lines?",
        "num_lines",
        "creative:lines",
        exclude_tail=per_stanza,
        exclude_head=r"(?i)(?:first|last|final|opening|closing)\s*$",
    )
    specs.extend(lines)
    m = re.search(rf"(?i)\b{N}\s*-?\s*lines?\s+(?:per|in\s+each|each|for\s+each|in\s+every)\s+(?:stanza|verse)", text)
    m = m or re.search(
        rf"(?i)\b(?:each|every)\s+(?:stanza|verse){_MODAL}\s+(?:have|be|contain|consist\s+of)\s+"
        rf"(?:exactly\s+)?{N}\s*-?\s*lines?",
        text,
    )
    if m:
        n = number(m.group("n"))
        if n:
            specs.append(
                make_spec(
                    "creative:lines_per_stanza", {"relation": "exactly", "num_lines": n}, sentence_at(text, m.start())
                )
            )
    if not re.search(r"\*\*\*|(?i:markdown\s+divider)", text):
        specs.extend(_counted(text, r"stanzas?|verses?", "num_stanzas", "creative:stanzas"))
    if not has_paragraph_spec:
        specs.extend(
            _counted(
                text,
                r"paragraphs?",
                "num_paragraphs",
                "creative:paragraphs",
                exclude_head=r"(?i)(?:first|last|final|each|every)\s*$",
            )
        )
    specs.extend(_words_per_line(text))
    specs.extend(_letters(text))
    specs.extend(_rhyme(text))
    specs.extend(_refrain(text))
    return specs
