"""The built-in finder: every detector of this package run over one request, then reconciled.

Per-unit constraints ("each line has five words") are found first by the declarative specs in
``data/per_unit.json``; a whole-response spec read from the same sentence that only restates a part
of a per-unit constraint (the same number of the same sub-unit, or the same word) is dropped, so
"end every line with the word 'night'" is one per-line constraint, not also an ending of the answer.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from faithguard.verifiers.detect_creative import detect_creative
from faithguard.verifiers.detect_format import detect_format, detect_paragraphs, detect_startend
from faithguard.verifiers.detect_ifbench import detect_ifbench
from faithguard.verifiers.detect_ifeval import (
    detect_case,
    detect_keywords,
    detect_language,
    detect_length,
    detect_letters,
    detect_no_comma,
)
from faithguard.verifiers.detect_keyword_cues import is_keyword, keyword_cue_readings
from faithguard.verifiers.detect_repeat import detect_repeat
from faithguard.verifiers.spec import VerifiableSpec, sentence_span
from faithguard.verifiers.spec_loader import run_specs
from faithguard.verifiers.units import PER_UNIT

__all__ = ["detect_builtin"]

_MAX_QUERY = 20_000


def _values(params: dict[str, Any]) -> set[str]:
    out: set[str] = set()
    for v in params.values():
        if isinstance(v, list | tuple):
            out.update(str(x).lower() for x in v)
        elif not isinstance(v, bool):
            out.add(str(v).lower())
    return out


#: IFEval types that are per-unit constraints under IFEval's own definition; they win over ``per_unit``.
_IFEVAL_PER_UNIT = frozenset({"length_constraints:nth_paragraph_first_word"})


def _restates(spec: VerifiableSpec, per_unit: VerifiableSpec) -> bool:
    """Whether ``spec`` only restates part of ``per_unit`` (same sentence, same number or word)."""
    if spec.verifier == PER_UNIT or spec.verifier in _IFEVAL_PER_UNIT or spec.text != per_unit.text:
        return False
    p = per_unit.params
    key = str(p.get("n") if p.get("relation") == "count" else p.get("value", "")).lower()
    return bool(key) and key in _values(spec.params)


#: A sentence describing text the user already has ("My essay has three paragraphs.", "I wrote 200 words", "My draft
#: came in just shy of 500 words", "I'm just short of 80 words"): a first-person or demonstrative subject with a
#: finite have/be/write verb, or a verb of amounting to ("came in at", "runs to"), and no modal or directive.
_DESCRIBES_OWN = re.compile(
    r"(?i)^(?:(?:my|our|this|these|that|the\s+(?:attached|above|following))\s+(?:[\w'-]+\s+){0,3}?"
    r"(?:has|have|had|contains?|contained|consists?\s+of|is|was|are|were|came|comes|runs|ran)"
    r"|(?:i|we)\s+(?:(?:have|had|just)\s+)?(?:wrote|written|drafted|made|have|had|got)"
    # the user's own state, not what the user is doing ("I'm pasting it into a CMS, so I need 4 paragraphs")
    r"|(?:i'm|i\s+am|we're|we\s+are|i\s+was|we\s+were)(?!\s+\w+ing\b))\b"
)
_DIRECTIVE = re.compile(r"(?i)\b(?:must|should|need(?:s)?\s+to|has\s+to|have\s+to|make\s+sure|ensure|please|keep)\b")
#: Whole-response counts; a per-unit or content statement never yields one.
_COUNT_PREFIXES = (
    "length_constraints:",
    "creative:lines",
    "creative:stanzas",
    "creative:paragraphs",
    "detectable_format:number_bullet_lists",
)


#: A question about the world or the asker's own work ("How do I convert a CSV with double quotes ...?", "Why does
#: markdown use *** ...?", "How many placeholders can a template have?", "Should I use all caps in subject lines?",
#: "Is my essay too long at 900 words?"): a wh-word and an auxiliary with a subject other than "you", or a yes/no
#: question about what the asker does or wrote (first person), ending with a question mark. It asks for
#: information; the form words in it are its topic. "How would you describe X in 50 words?", "Could the answer
#: be in JSON?" and "Can I get it in all caps?" (the idiom of asking for something) stay instructions.
_INFO_QUESTION = re.compile(
    r"(?i)^(?:(?:how|why|what|when|where|which|who)(?:\s+(?:many|much)\s+[\w'-]+)?\s+"
    r"(?:do|does|did|is|are|was|were|can|could|should|would|will)\s+(?!you\b|u\b)[\w'-]+"
    r"|(?:should|shall|can|could|may|do|must)\s+(?:i|we)\b(?!\s+(?:get|have|see|receive)\b)|(?:is|are)\s+(?:my|our))"
    r"\b[^?(),;:\u2013\u2014]*\?\s*$"
)
#: An instruction set inside the question ("What are the benefits of yoga (answer in 3 bullets)?", "How does it
#: work, in fewer than 50 words?", "... - answer in lowercase?"): brackets, a comma, a dash or a colon carry it, so
#: such a question is read as usual (the pattern above stops at them).
_ASIDE_DASH = re.compile(r"\s[-\u2013\u2014]\s")


def _asks_information(spec: VerifiableSpec) -> bool:
    """Whether the spec was read from a question asking for information, not from an instruction."""
    sentence = spec.text.strip()
    return _INFO_QUESTION.match(sentence) is not None and _ASIDE_DASH.search(sentence) is None


def _describes_own_text(spec: VerifiableSpec) -> bool:
    """A count read from a sentence that describes the user's own text, not what to write."""
    sentence = spec.text.strip()
    return (
        spec.verifier.startswith(_COUNT_PREFIXES)
        and _DESCRIBES_OWN.match(sentence) is not None
        and _DIRECTIVE.search(sentence) is None
    )


#: Share of its sentence a specific (IFBench or per-unit) match must cover for the sentence to count as
#: explained by it; the older IFEval detectors' readings of that sentence are then dropped. Fixtures:
#: tests/verifiers/test_detect_builtin.py (a whole-sentence instruction vs. a sentence with two asks).
SENTENCE_COVERAGE = 0.6


def _explained_sentences(text: str, spans: list[tuple[int, int]]) -> set[str]:
    """Sentences of ``text`` that a specific match covers for at least :data:`SENTENCE_COVERAGE`."""
    out: set[str] = set()
    for start, end in spans:
        s, e = sentence_span(text, start, end)
        if e > s and (min(end, e) - max(start, s)) / (e - s) >= SENTENCE_COVERAGE:
            out.add(text[s:e])
    return out


#: Parameters that set how to compare, not what was read from the request.
_SETTINGS = frozenset({"relation", "let_relation", "capital_relation", "comparison", "scope", "unit", "of", "kind"})


def _read_inside(spec: VerifiableSpec, text: str, spans: list[tuple[int, int]]) -> bool:
    """Whether a word or phrase ``spec`` was read from starts inside a specific match's span."""
    content = {k: v for k, v in spec.params.items() if k not in _SETTINGS}
    words = [v for v in _values(content) if not v.isdigit() and len(v) > 1]
    low = text.lower()
    for value in words:
        pos = low.find(value, max(0, low.find(spec.text.lower()[:30])))
        if pos >= 0 and any(a <= pos < b for a, b in spans):
            return True
    return False


def _keyword_values(spec: VerifiableSpec) -> set[str]:
    p = spec.params
    return {str(w) for w in [*p.get("keywords", ()), *p.get("forbidden_words", ()), p.get("keyword", "")] if w}


def _keywords(text: str) -> list[VerifiableSpec]:
    """Keyword constraints: the keyword-noun readings, except where a clause cue read the same quoted words (its
    reading bounds the list by the clause, so 'the word X, and end with Y' keeps Y out of the list); a cue's
    reading of unquoted words yields to a keyword-noun reading of the same sentence."""
    readings = keyword_cue_readings(text)
    quoted = [r.constraint for r in readings if not r.bare]
    covered = {w for s in quoted for w in _keyword_values(s)}
    # a keyword-noun reading yields only when the clause readings hold every word of it that can be a keyword
    # (its list ran on into "... and end with 'Sweet dreams.'"); one naming more words keeps them, and then a
    # clause reading it wholly contains adds nothing
    nouns = [s for s in detect_keywords(text) if not {w for w in _keyword_values(s) if is_keyword(w)} <= covered]
    kept = [_keyword_values(s) for s in nouns]
    quoted = [
        s for s in quoted if not any(_keyword_values(s) <= k and s.verifier == "keywords:existence" for k in kept)
    ]
    read = [sentence_span(text, text.find(s.text)) for s in nouns if s.text and s.text in text]
    bare = [
        r.constraint
        for r in readings
        if r.bare and not any(a <= text.find(r.constraint.text) < b for a, b in read if r.constraint.text)
    ]
    return nouns + quoted + bare


@lru_cache(maxsize=512)
def _detect(text: str) -> tuple[VerifiableSpec, ...]:
    per_unit = run_specs("per_unit", text)
    found: list[VerifiableSpec] = []
    case = detect_case(text)
    english_case = any(s.verifier in {"change_case:english_capital", "change_case:english_lowercase"} for s in case)
    paragraphs = detect_paragraphs(text)
    found.extend(detect_repeat(text))
    found.extend(_keywords(text))
    found.extend(detect_letters(text))
    found.extend(detect_language(text, english_case=english_case))
    found.extend(detect_length(text))
    found.extend(paragraphs)
    found.extend(detect_format(text))
    found.extend(detect_startend(text))
    found.extend(case)
    found.extend(detect_no_comma(text))
    found.extend(detect_creative(text, has_paragraph_spec=bool(paragraphs)))
    # IFEval's english_capital / english_lowercase already require English; no separate language rule.
    found.extend(
        spec
        for spec, _, _ in run_specs("ifeval", text)
        if not (english_case and spec.verifier == "language:response_language" and spec.params.get("language") == "en")
    )
    ifbench = detect_ifbench(text)
    spans = [span for _, span, _ in per_unit] + [span for _, span in ifbench]
    # Only IFBench's whole-sentence instructions explain a sentence; a per-unit ask often shares its
    # sentence with a whole-response count ("2 stanzas of 4 lines each").
    explained = _explained_sentences(text, [span for _, span in ifbench])
    found = [
        s
        for s in found
        if not _describes_own_text(s)
        and not _asks_information(s)
        and not any(_restates(s, pu) for pu, _, _ in per_unit)
        and (s.verifier in _IFEVAL_PER_UNIT or (s.text not in explained and not _read_inside(s, text, spans)))
    ]
    ifeval_units = {s.text for s in found if s.verifier in _IFEVAL_PER_UNIT}
    found.extend(pu for pu, _, _ in per_unit if pu.text not in ifeval_units)
    found.extend(spec for spec, _ in ifbench)
    return tuple(found)


def detect_builtin(text: str) -> list[VerifiableSpec]:
    """Every built-in verifiable constraint stated in ``text``."""
    if not isinstance(text, str) or not text.strip():
        return []
    return list(_detect(text[:_MAX_QUERY]))
