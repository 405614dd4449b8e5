"""Split a long answer into parts, match parts to sub-questions, compare two answers offline.

The comparison looks at what an answer commits to: numbers (years included), month names
and named entities (spaCy, via :func:`faithguard.nlp.get_nlp`), leaving out what the question
itself already names. Same commitments agree, clashing ones disagree; when neither answer
commits to anything comparable the result is ``None`` (cannot tell), never a silent pass.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from faithguard.lexical.frequency import stop_words
from faithguard.numwords import CARDINALS

__all__ = ["AnswerPart", "Comparison", "answer_facts", "assign_parts", "compare_answers", "split_answer"]

_ITEM = re.compile(r"^[ \t]*(?:\*\*)?(?:\d{1,2}[.):]|\(\d{1,2}\)|[-*•]|[a-h][.)])(?:\*\*)?[ \t]+(?=\S)", re.MULTILINE)
_PARAGRAPH = re.compile(r"\n[ \t]*\n\s*")
_SENTENCE = re.compile(r"(?<=[.!?])[\"')\]]*\s+(?=[A-Z0-9\"'(])")
_NUMBER = re.compile(r"(?<![\w.])[-−]?\d[\d,]*(?:\.\d+)?(?!\w)")
_WORD = re.compile(r"[^\W\d_][\w'-]*")
_NUMBER_WORDS = CARDINALS | {"hundred": 100}
_MONTHS = {
    m: i + 1
    for i, m in enumerate(
        [
            "january",
            "february",
            "march",
            "april",
            "may",
            "june",
            "july",
            "august",
            "september",
            "october",
            "november",
            "december",
        ]
    )
}
_ENTITY_LABELS = {"PERSON", "ORG", "GPE", "LOC", "NORP", "FAC", "EVENT", "WORK_OF_ART", "LAW", "LANGUAGE", "PRODUCT"}


@dataclass(frozen=True)
class AnswerPart:
    """One part of a long answer as a character span."""

    index: int
    start: int
    end: int
    text: str


@dataclass(frozen=True)
class Comparison:
    """Whether two answers agree (None: cannot tell), how it was decided, and why."""

    agree: bool | None
    method: str
    evidence: str


def _spans(text: str, bounds: list[tuple[int, int]]) -> list[AnswerPart]:
    parts: list[AnswerPart] = []
    for start, end in bounds:
        chunk = text[start:end]
        stripped = chunk.strip()
        if not _WORD.search(stripped) and not _NUMBER.search(stripped):
            continue
        offset = start + chunk.find(stripped)
        parts.append(AnswerPart(len(parts), offset, offset + len(stripped), stripped))
    return parts


def split_answer(text: str) -> list[AnswerPart]:
    """Ordered parts of a long answer: numbered/bulleted items, else paragraphs, else sentences."""
    items = list(_ITEM.finditer(text))
    if len(items) >= 2:
        bounds = [(m.end(), items[i + 1].start() if i + 1 < len(items) else len(text)) for i, m in enumerate(items)]
        preamble = text[: items[0].start()].strip()
        if preamble and not preamble.endswith(":"):
            bounds.insert(0, (0, items[0].start()))
        return _spans(text, bounds)
    breaks = list(_PARAGRAPH.finditer(text))
    if breaks:
        edges = [0, *(x for m in breaks for x in (m.start(), m.end())), len(text)]
        parts = _spans(text, [(edges[i], edges[i + 1]) for i in range(0, len(edges), 2)])
        if len(parts) >= 2:
            return parts
    pos, bounds = 0, []
    for m in _SENTENCE.finditer(text):
        bounds.append((pos, m.start()))
        pos = m.end()
    bounds.append((pos, len(text)))
    return _spans(text, bounds)


def _content_words(text: str) -> set[str]:
    stop = stop_words()
    words = {w.lower().strip("'-") for w in _WORD.findall(text)}
    return {w[:-1] if len(w) > 4 and w.endswith("s") else w for w in words if len(w) > 2 and w not in stop}


def assign_parts(questions: Sequence[str], parts: Sequence[AnswerPart]) -> list[tuple[int | None, str]]:
    """For each question, the index of its answer part (or None) and how it was chosen."""
    if not parts:
        return [(None, "none") for _ in questions]
    if len(parts) == len(questions):
        return [(i, "order") for i in range(len(questions))]
    part_words = [_content_words(p.text) for p in parts]
    out: list[tuple[int | None, str]] = []
    n_q, n_p = len(questions), len(parts)
    for qi, question in enumerate(questions):
        words = _content_words(question)
        expected = round(qi * (n_p - 1) / (n_q - 1)) if n_q > 1 else 0
        scored = [(len(words & pw), -abs(pi - expected), pi) for pi, pw in enumerate(part_words)]
        best = max(scored)
        if best[0] > 0:
            out.append((best[2], "overlap"))
        elif n_p >= n_q:
            out.append((expected, "position"))
        else:
            out.append((None, "none"))
    return out


@dataclass(frozen=True)
class _Facts:
    numbers: frozenset[str]
    months: frozenset[int]
    entities: frozenset[str]
    words: frozenset[str]


def _number_key(raw: str) -> str | None:
    cleaned = raw.replace(",", "").replace("−", "-")
    try:
        value = float(cleaned)
    except ValueError:
        return None
    return str(int(value)) if value.is_integer() else f"{value:g}"


def _entity_key(text: str) -> str:
    low = " ".join(text.lower().replace("’", "'").split())
    low = re.sub(r"^(the|a|an) ", "", low)
    return re.sub(r"'s$", "", low).strip(" .,;:")


def answer_facts(text: str) -> _Facts:
    """Numbers, months, named entities and content words one text commits to."""
    from faithguard.nlp import get_nlp, tokenized

    numbers = {k for k in (_number_key(m.group()) for m in _NUMBER.finditer(text)) if k is not None}
    lowered = [w.lower() for w in _WORD.findall(text)]
    numbers |= {str(_NUMBER_WORDS[w]) for w in lowered if w in _NUMBER_WORDS}
    months = {_MONTHS[w] for w in lowered if w in _MONTHS and w != "may"}
    doc = get_nlp()(tokenized(text[:5000]))
    entities = set()
    for ent in doc.ents:
        if ent.label_ in _ENTITY_LABELS:
            key = _entity_key(ent.text)
            if key and not _NUMBER.fullmatch(key):
                entities.add(key)
        elif ent.label_ == "DATE" and "may" in ent.text.lower().split():
            months.add(5)
    return _Facts(frozenset(numbers), frozenset(months), frozenset(entities), frozenset(_content_words(text)))


def _entity_match(a: str, b: str) -> bool:
    if a == b:
        return True
    ta, tb = set(a.split()), set(b.split())
    return ta <= tb or tb <= ta


def _compare_numbers(short: frozenset[str], long: frozenset[str]) -> tuple[str | None, str]:
    if not short or not long:
        return None, ""
    if short <= long or long <= short:
        return "support", f"numbers match: {', '.join(sorted(short & long))}"
    missing, extra = short - long, long - short
    if not short & long:
        return "conflict", f"numbers differ: {', '.join(sorted(short))} vs {', '.join(sorted(long))}"
    digits = {len(m.lstrip("-").split(".")[0]) for m in missing}
    clash = sorted(e for e in extra if len(e.lstrip("-").split(".")[0]) in digits)
    if clash:
        return "conflict", f"numbers differ: {', '.join(sorted(missing))} vs {', '.join(clash)}"
    return None, ""


def _compare_sets(name: str, short: frozenset[object], long: frozenset[object]) -> tuple[str | None, str]:
    if not short or not long:
        return None, ""
    matched = [s for s in short if any(_entity_match(str(s), str(x)) for x in long)]
    if len(matched) == len(short) or all(any(_entity_match(str(x), str(s)) for s in short) for x in long):
        return "support", f"{name} match: {', '.join(sorted(map(str, matched or long)))}"
    if not matched:
        return "conflict", f"{name} differ: {', '.join(sorted(map(str, short)))} vs {', '.join(sorted(map(str, long)))}"
    return None, ""


def compare_answers(question: str, short: str, long: str) -> Comparison:
    """Offline: do ``short`` and ``long`` give the same answer to ``question``? None when undecidable."""
    if not short.strip() or not long.strip():
        return Comparison(None, "offline", "an answer is empty")
    q, s, lg = answer_facts(question), answer_facts(short), answer_facts(long)
    checks = [
        _compare_numbers(s.numbers - q.numbers, lg.numbers - q.numbers),
        _compare_sets("months", frozenset(s.months - q.months), frozenset(lg.months - q.months)),
        _compare_sets(
            "entities",
            frozenset(e for e in s.entities if not any(_entity_match(e, x) for x in q.entities)),
            frozenset(e for e in lg.entities if not any(_entity_match(e, x) for x in q.entities)),
        ),
    ]
    conflicts = [why for outcome, why in checks if outcome == "conflict"]
    if conflicts:
        return Comparison(False, "offline", "; ".join(conflicts))
    supports = [why for outcome, why in checks if outcome == "support"]
    if supports:
        return Comparison(True, "offline", "; ".join(supports))
    words = s.words - q.words
    if len(words) >= 2 and len(words & lg.words) / len(words) >= 0.6:
        return Comparison(True, "offline", f"{len(words & lg.words)}/{len(words)} content words shared")
    return Comparison(None, "offline", "no comparable numbers, dates or names")
