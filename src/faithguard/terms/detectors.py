"""The term detectors: unknown terms in the request, fabricated terms in the response."""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from dataclasses import replace
from typing import Any, Literal, cast

from faithguard.detector import CallContext, KnowledgeSource
from faithguard.models import DetectorResult, Severity, TermFinding, Verdict, VerdictKind
from faithguard.nlp import readable
from faithguard.terms.acceptance import Acceptance, classify_terms
from faithguard.terms.combine import assess, combine, may_deny
from faithguard.terms.compose import NON_CONCEPT_ENTITIES, entity_kind, layout_label
from faithguard.terms.extract import (
    Candidate,
    NameContexts,
    extract_candidates,
    extract_names,
    name_regions,
    name_window,
)
from faithguard.terms.labels import answer_label, meaning_check, term_label
from faithguard.terms.language import LanguageMap
from faithguard.terms.normalize import normalize
from faithguard.terms.sources import GlossarySource, default_sources

Stage = Literal["input", "output"]

__all__ = ["REFUSED_TERM", "FabricatedTermsDetector", "UnknownTermsDetector", "judge_terms", "resolve_term"]

#: Candidate kinds that name something the user asked about (checked in the answer even when known).
NAMED_SOURCES = frozenset({"quoted", "title_case"})
#: Verdict kind for a response that calls a backed term unreal: HypoTermQA (section 3.1) labels refusing a
#: valid term a hallucination. A plugin-style kind string (models.VerdictKind lists the built-in five).
REFUSED_TERM = "refused_term"


#: One word joined from capitalised parts ("StatefulSet", "ModuleNotFoundError"): programs name their types so, and
#: English names seldom do. An answer introducing one names something in code, which no English source lists: not
#: taken as a claim that a term is real (helper 96: a Kubernetes answer got fabricated_term for "StatefulSet").
#: Fixtures: tests/terms/test_combine_sources.py.
_IDENTIFIER = re.compile(r"[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]+)+")
#: Reason code of a term check that could not ask every knowledge source (followed by their names).
SOURCES_FAILED = "knowledge_source_failed"


def _sources_failed(failed: set[str]) -> str | None:
    """The undetermined reason of a term check some source failed in: no term was called unknown without it."""
    return f"{SOURCES_FAILED}: {', '.join(sorted(failed))} could not be asked" if failed else None


def resolve_term(
    term: str,
    ctx: CallContext,
    sources: Sequence[KnowledgeSource],
    *,
    name_like: bool = True,
    failed: set[str] | None = None,
) -> TermFinding:
    """Ask every source and combine their evidence (:func:`faithguard.terms.combine.combine`); the names of sources
    that raised are added to ``failed``."""
    evidence = [assess(src, term, ctx, name_like) for src in sources]
    known, _confidence = combine(evidence)
    if failed is not None:
        failed.update(e.source for e in evidence if e.failed)
    return TermFinding(
        term=term,
        known=known,
        sources_tried=[e.source for e in evidence],
        backed_by=[e.source for e in evidence if e.backed is True],
    )


class UnknownTermsDetector:
    """Input stage: flags candidate terms in the request that no knowledge source backs."""

    name = "unknown_terms"
    stage: Stage = "input"
    order = 60
    timeout: float | None = None

    def __init__(self, sources: Sequence[KnowledgeSource] | None = None) -> None:
        self._sources = list(sources) if sources is not None else None

    def sources(self, ctx: CallContext) -> list[KnowledgeSource]:
        """The call's registered sources, else the constructor's, else :func:`default_sources`."""
        if ctx.knowledge_sources:
            return list(ctx.knowledge_sources)
        if self._sources is None:
            self._sources = default_sources()
        return self._sources

    def run(self, ctx: CallContext) -> DetectorResult:
        """Extract candidates from ``ctx.query`` and resolve each against the sources."""
        readable(ctx.query or "")
        sources = self.sources(ctx)
        candidates = extract_candidates(ctx.query)
        findings: list[TermFinding] = []
        verdicts: list[Verdict] = []
        named_known: list[str] = []
        languages = LanguageMap(ctx.query or "")
        unread: dict[str, int] = {}
        failed: set[str] = set()
        for cand in candidates:
            name_like = cand.name_like and not (cand.source == "noun_chunk" and _instance(cand, ctx))
            tf = resolve_term(cand.text, ctx, sources, name_like=name_like, failed=failed)
            other = languages.unreadable(cand.text, cand.start) if tf.known is False else None
            if other is not None:  # English sources cannot back another language's words: undecided, not unknown
                findings.append(tf.model_copy(update={"known": None}))
                unread[other] = unread.get(other, 0) + 1
                continue
            if tf.known is False:
                tf = _within_known_name(cand.text, cand.start, cand.end, ctx, sources) or tf
            if tf.known is False and (
                _describes_known_name(cand.text, ctx, sources) or _composed(cand, ctx, sources) is not None
            ):
                tf = tf.model_copy(update={"known": None})
            findings.append(tf)
            if tf.known is False:
                verdicts.append(
                    Verdict(
                        kind=VerdictKind.UNKNOWN_TERM.value,
                        severity=Severity.WARNING,
                        term=tf.term,
                        explanation=f"no knowledge source backs {tf.term!r} (tried: {', '.join(tf.sources_tried)})",
                        detector=self.name,
                    )
                )
            elif tf.known is True and cand.source in NAMED_SOURCES:
                named_known.append(tf.term)
        return DetectorResult(
            verdicts=verdicts,
            terms=findings,
            findings={
                "unknown_terms": [t.term for t in findings if t.known is False],
                "known_terms": named_known,
                "term_candidates": [_candidate_row(c, t) for c, t in zip(candidates, findings, strict=True)],
                **({"terms_unread": _unread_row(unread)} if unread else {}),
            },
            undetermined=_sources_failed(failed),
        )


#: Names an answer introduces that no source backs, read in full (each needs its sentences parsed with NER); past
#: it the rest are not read and the result is undetermined. Provenance: in the dev traffic (831 answers) no answer
#: has more than 3; an answer of 120,000 characters inventing ~4,000 names spent the whole budget (helper 89).
ANSWER_NAMES_EXAMINED = 64
_WORD = re.compile(r"[^\W_]+(?:[-'’][^\W_]+)*")
#: A run of capitalised words (or words with a digit) in the inputs: one name ("Zentrova Smart Kettle K9").
_NAME_RUN = re.compile(r"(?:[A-Z0-9][^\W_]*(?:[-'’][^\W_]+)*)(?:[ \t]+[A-Z0-9][^\W_]*(?:[-'’][^\W_]+)*)*")


def _words_before(text: str, start: int, count: int = 2) -> list[re.Match[str]]:
    """The last ``count`` words of ``text`` before ``start``, read from a window reaching back only as far as needed
    (a scan from the start of the text for each candidate made a request of a thousand names quadratic). The first
    word found in a window may be cut by its edge; any after it are the words a scan from the start finds."""
    reach = 64
    while True:
        begin = max(0, start - reach)
        found = list(_WORD.finditer(text, begin, start))
        if begin == 0 or len(found) > count:
            return found[-count:]
        reach *= 4


def _within_known_name(
    term: str, start: int, end: int, ctx: CallContext, sources: Sequence[KnowledgeSource]
) -> TermFinding | None:
    """A candidate cut out of a longer name ("Floyd-Rivest" of "Floyd-Rivest algorithm") is part of it:
    when the span grown by one or two words on either side is backed, the candidate is backed with it."""
    text = ctx.query or ""
    before = _words_before(text, start)
    after = list(itertools.islice(_WORD.finditer(text, end), 2))
    spans = [(b.start(), end) for b in before] + [(start, a.end()) for a in after]
    for s0, e0 in spans:
        grown = text[s0:e0]
        if "\n" in grown or any(ch in grown for ch in ",;:?!."):
            continue
        found = resolve_term(grown, ctx, sources, name_like=True)
        if found.known is True:
            return TermFinding(term=term, known=True, sources_tried=found.sources_tried, backed_by=found.backed_by)
    return None


#: A head word at least this frequent (wordfreq Zipf 4.0: once per 100,000 words) is an ordinary noun. Chosen
#: on the HypoTermQA-dev *study* split among {4.0, 4.5}; fixtures in tests/terms/test_combine_sources.py.
GENERIC_HEAD_ZIPF = 4.0


def _describes_known_name(term: str, ctx: CallContext, sources: Sequence[KnowledgeSource]) -> bool:
    """A backed name plus an ordinary head noun ("Chinese handball technique", "cryptocurrency market") describes
    the named thing; no title list holds such phrases, so their absence from one is not evidence."""
    from faithguard.lexical.frequency import zipf

    words = normalize(term).split()
    if len(words) < 2 or zipf(words[-1]) < GENERIC_HEAD_ZIPF:
        return False
    modifier = " ".join(words[:-1])
    found = resolve_term(modifier, ctx, sources, name_like=True)
    # A name, not just a word: a frequency list backs any English word ("heliotropic"), which names nothing.
    return found.known is True and any(src != "lexicon" for src in found.backed_by)


def _instance(cand: Candidate, ctx: CallContext) -> bool:
    """An indefinite noun phrase introduces an instance of a kind, not a named concept (compose.py)."""
    from faithguard.nlp import parse
    from faithguard.terms.compose import introduces_instance

    return introduces_instance(parse(ctx.query or ""), cand.start, cand.end)


def _composed(cand: Candidate, ctx: CallContext, sources: Sequence[KnowledgeSource]) -> str | None:
    """Why an unbacked candidate is a description of backed parts or a name the request gives (compose.py)."""
    from faithguard.nlp import parse

    return _composed_in(parse(ctx.query or ""), cand, ctx, sources)


def _composed_in(doc: Any, cand: Candidate, ctx: CallContext, sources: Sequence[KnowledgeSource]) -> str | None:
    """:func:`_composed` over ``doc``, the parse of the text ``cand`` was found in."""
    from faithguard.terms.compose import composed_reason

    def backed(phrase: str) -> bool:
        return resolve_term(phrase, ctx, sources, name_like=True).known is True

    return composed_reason(doc, cand.start, cand.end, cand.text, backed)


def _unread_row(unread: dict[str, int]) -> dict[str, Any]:
    """The candidates no source backs left undecided because their sentence is in another language, by code."""
    return {"reason": "written in another language than English; the term sources are English", "by_language": unread}


def _candidate_row(cand: Candidate, tf: TermFinding) -> dict[str, Any]:
    return {
        "term": cand.text,
        "kind": cand.source,
        "known": tf.known,
        "sources_tried": list(tf.sources_tried),
        "backed_by": list(tf.backed_by),
    }


def judge_terms(ctx: CallContext, terms: list[str]) -> dict[str, Acceptance]:
    """Labels from the configured judge ({} without one, or when it cannot answer: offline decides).

    The judge records its use in ``ctx.judge_use`` and keeps no clearing label on an injected response.
    """
    if ctx.judge is None or not terms:
        return {}
    from faithguard.judging import judge_term_labels

    # judge_term_labels keeps only the four acceptance labels (faithguard.judging.ACCEPTANCE_LABELS)
    return cast(dict[str, Acceptance], judge_term_labels(ctx, terms))


class FabricatedTermsDetector:
    """Output stage: an unknown term the response uses as real is a fabricated term."""

    name = "fabricated_terms"
    stage: Stage = "output"
    order = 300
    timeout: float | None = None
    #: It may ask the judge: the guard then gives it the judge's budget, not the default 5 s.
    calls_judge = True

    def __init__(
        self, glossary: GlossarySource | None = None, sources: Sequence[KnowledgeSource] | None = None
    ) -> None:
        self._glossary = glossary
        self._sources = list(sources) if sources is not None else None

    def _answer_sources(self, ctx: CallContext) -> list[KnowledgeSource]:
        if ctx.knowledge_sources:
            return list(ctx.knowledge_sources)
        if self._sources is None:
            self._sources = default_sources()
        return self._sources

    def answer_terms(
        self,
        ctx: CallContext,
        asked: Sequence[str],
        unread: dict[str, int] | None = None,
        failed: set[str] | None = None,
    ) -> tuple[list[TermFinding], bool]:
        """Names the response introduces (not in the request or its material) that no source backs, and whether
        some were left unexamined (more than :data:`ANSWER_NAMES_EXAMINED`); names left unread because their
        sentence is in another language are counted in ``unread`` by language code, sources that raised are added to
        ``failed``."""
        response = ctx.response or ""
        original = " ".join([ctx.query or "", ctx.sources_text or "", *asked])
        seen = original.lower()
        found: list[list[set[str]]] = []  # read on first need: most answers name nothing new

        def input_names() -> list[set[str]]:
            if not found:
                found.append([set(_WORD.findall(m.group(0).lower())) for m in _NAME_RUN.finditer(original)])
            return found[0]

        out: list[TermFinding] = []
        sources = self._answer_sources(ctx)
        unknown: list[TermFinding] = []
        parsed: dict[tuple[int, int], Any] = {}

        def doc_at(cand: Candidate) -> tuple[Any, int]:
            # The full parse (with NER) around the candidate and where it begins: the name reading's parse of its
            # region completed around it (NameContexts), else, for a name outside every region, its sentence
            # parsed anew (a long answer's whole parse cost up to ~100 ms). Made only once a name is unbacked.
            found = contexts.at(cand.start, cand.end)
            if found is not None:
                return found
            window = name_window(response, cand.start, cand.end)
            if window not in parsed:
                from faithguard.nlp import parse_answer

                parsed[window] = parse_answer(response[window[0] : window[1]])
            return parsed[window], window[0]

        # The named kinds only, parsing just the sentences that can hold one, and of those only the ones
        # holding a word some source could deny: elsewhere every name would be backed or left unknown.
        regions = tuple(name_regions(response, keep=lambda piece: may_deny(sources, piece)))
        contexts = NameContexts(response, regions)
        languages = LanguageMap(response)
        examined = 0
        capped = False
        for cand in extract_names(response, regions):
            # Title-Cased names only: quotes in an answer hold examples, code and titles of its own work.
            if cand.source != "title_case" or cand.text.lower() in seen:
                continue
            words = set(_WORD.findall(cand.text.lower()))
            if any(words <= name for name in input_names()):
                continue  # one input name's own words reordered ("Kettle K9 Zentrova"): not a new name
            if layout_label(response, cand.start, cand.end):  # a heading or label, not a claim (compose.py)
                continue
            if _IDENTIFIER.fullmatch(cand.text):  # "StatefulSet", "ImportError": a name in code, not a claim
                continue
            tf = resolve_term(cand.text, ctx, sources, name_like=True, failed=failed)
            if tf.known is not False:
                continue
            other = languages.unreadable(cand.text, cand.start)
            if other is not None:  # another language's words: no English source could back them (terms/language.py)
                if unread is not None:
                    unread[other] = unread.get(other, 0) + 1
                continue
            if examined == ANSWER_NAMES_EXAMINED:
                capped = True  # the rest are not read: the report says so rather than spend the budget on them
                break
            examined += 1
            doc, offset = doc_at(cand)
            local = replace(cand, start=cand.start - offset, end=cand.end - offset)
            if _composed_in(doc, local, ctx, sources) is not None:
                continue
            # people, places, products, works: outside what a title list's coverage speaks for
            if entity_kind(doc, local.start, local.end) not in NON_CONCEPT_ENTITIES:
                unknown.append(tf)
        if not unknown:
            return out, capped
        # one acceptance pass over the response for all unbacked names (not one parse per name)
        labels = classify_terms(response, [tf.term for tf in unknown])
        for tf in unknown:
            if labels.get(tf.term) == "MENTIONED":
                out.append(tf.model_copy(update={"acceptance": "MENTIONED"}))
        return out, capped

    def _definition(self, term: str, ctx: CallContext) -> str | None:
        sources: list[Any] = [self._glossary, *ctx.knowledge_sources]
        for src in sources:
            if isinstance(src, GlossarySource):
                found = src.definition(term)
                if found:
                    return found
        return None

    def run(self, ctx: CallContext) -> DetectorResult:
        """Classify the response's stance toward each unknown (and named known) term."""
        if ctx.response is None:
            return DetectorResult()
        unknown = [str(t) for t in ctx.findings.get("unknown_terms", [])]
        known = [str(t) for t in ctx.findings.get("known_terms", []) if t not in unknown]
        terms = unknown + known
        unread: dict[str, int] = {}
        failed: set[str] = set()
        introduced, capped = self.answer_terms(ctx, terms, unread, failed)
        not_read: dict[str, Any] = {"introduced_unread": _unread_row(unread)} if unread else {}
        capped_reason = (
            f"the answer introduces more than {ANSWER_NAMES_EXAMINED} names no knowledge source backs; the rest were "
            "not examined"
            if capped
            else None
        )
        unexamined = "; ".join(r for r in (capped_reason, _sources_failed(failed)) if r) or None
        introduced_verdicts = [
            Verdict(
                kind=VerdictKind.FABRICATED_TERM.value,
                severity=Severity.WARNING,
                term=tf.term,
                explanation=f"the response introduces {tf.term!r} as real, and no knowledge source backs it",
                detector=self.name,
            )
            for tf in introduced
        ]
        if not terms:
            if not introduced and not not_read and unexamined is None:
                return DetectorResult()
            return DetectorResult(
                verdicts=introduced_verdicts,
                terms=introduced,
                findings={"introduced_terms": [t.term for t in introduced], **not_read},
                undetermined=unexamined,
            )
        rows = ctx.findings.get("term_candidates", [])
        by_term = {str(r["term"]): r for r in rows if isinstance(r, dict) and r.get("term")}
        context_terms = list(by_term)
        labels: dict[str, Acceptance] = judge_terms(ctx, terms)
        decided_by = "judge" if labels else "offline"
        missing = [t for t in terms if t not in labels]
        if missing:
            labels.update(classify_terms(ctx.response, missing, context_terms=context_terms))
        verdicts: list[Verdict] = []
        findings: list[TermFinding] = []
        tlabels: list[str] = []
        for term in terms:
            acc = labels[term]
            is_known = term in known
            meaning = None
            if is_known and acc == "MENTIONED":
                definition = self._definition(term, ctx)
                meaning = meaning_check(ctx.response, term, definition) if definition else None
            tlabels.append(term_label(is_known, acc, meaning))
            row = by_term.get(term, {})
            findings.append(
                TermFinding(
                    term=term,
                    known=is_known,
                    sources_tried=list(row.get("sources_tried", [])),
                    backed_by=list(row.get("backed_by", [])),
                    acceptance=acc,
                )
            )
            if is_known and acc == "UNREAL":
                backers = ", ".join(row.get("backed_by", [])) or "a knowledge source"
                verdicts.append(
                    Verdict(
                        kind=REFUSED_TERM,
                        severity=Severity.WARNING,
                        term=term,
                        explanation=f"the response says {term!r} is not real, but {backers} backs it",
                        detector=self.name,
                    )
                )
            if not is_known and acc == "MENTIONED":
                verdicts.append(
                    Verdict(
                        kind=VerdictKind.FABRICATED_TERM.value,
                        severity=Severity.CRITICAL,
                        term=term,
                        explanation=f"the response uses {term!r}, which no knowledge source backs, as if it were real",
                        detector=self.name,
                    )
                )
        return DetectorResult(
            verdicts=verdicts + introduced_verdicts,
            terms=findings + introduced,
            answer_label=answer_label(tlabels),
            findings={
                "introduced_terms": [t.term for t in introduced],
                "term_acceptance": dict(labels),
                "term_acceptance_by": decided_by if not missing else ("mixed" if decided_by == "judge" else "offline"),
                **not_read,
            },
            undetermined=unexamined,
        )
