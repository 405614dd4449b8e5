"""The offline decomposer: a request -> sub-questions and tiered intent constraints (spaCy, no network)."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Mapping
from functools import lru_cache
from typing import Any

from faithguard.cache import QUERY_CACHE_SIZE
from faithguard.detector import CallContext
from faithguard.engine import bridge
from faithguard.engine.content import ContentSpan, content_spans, instruction_text, outside_reach
from faithguard.engine.earlier import narrated
from faithguard.engine.lexicon import FOLLOWUP_PREFIXES, TASK_VERBS
from faithguard.engine.query_ents import set_rule_entities
from faithguard.engine.roles import RawConstraint, analyse_span
from faithguard.engine.split import Part, split_parts
from faithguard.engine.tentative import (
    asked_later,
    count_spots,
    language_unasked,
    locate,
    others_told,
    spec_fit,
    unasked,
)
from faithguard.models import Category, Constraint, Decomposition, Message, SubQuestion
from faithguard.nlp import readable
from faithguard.scoring import tier_for

__all__ = [
    "ENTITY_MODE",
    "OfflineDecomposer",
    "decompose_text",
    "is_followup",
    "parse_query",
    "previous_user_turn",
    "undetermined_reason",
]

_ANAPHORA = re.compile(r"\b(it|that|them|those|these|the same|this one|likewise)\b", re.IGNORECASE)
_MODIFIER = re.compile(
    r"\b(shorter|longer|simpler|briefer|funnier|clearer|more \w+|less \w+)\b",
    re.IGNORECASE,
)
#: "in <Name>" in a follow-up ("Same, but in French."): a language ask when the name resolves through the
#: derived table (engine/data/language_names.json); fixtures in tests/engine/test_language_verdicts.py.
_IN_NAME = re.compile(r"\bin ([A-Z][a-z]+(?: [A-Z][a-z]+)?)\b(?!\s+[A-Za-z])")
_NON_TASKS = frozenset({"make", "do", "redo", "repeat", "answer"})
_REPLACEABLE = (Category.LOCATION, Category.TIME, Category.QUANTITY, Category.QUALIFIER, Category.SUBJECT)


#: "rules" labels query entities with :mod:`faithguard.engine.query_ents` (spaCy NER skipped, ~2x faster
#: parse); "spacy" keeps the statistical NER. Read at parse time.
ENTITY_MODE = "rules"


def _nlp() -> Any:
    from faithguard.nlp import get_nlp

    return get_nlp()


def parse_query(query: str) -> Any:
    """One spaCy parse of a request (tagger, parser, lemmatizer; entities per :data:`ENTITY_MODE`)."""
    from faithguard.nlp import parse

    if ENTITY_MODE == "spacy":
        readable(query)  # the shared parse's size limits hold in this mode too
        from faithguard.nlp import bounded

        return _nlp()(bounded(query))

    # The shared parse (NER skipped) also serves the term extractor; the rule entities are a pure
    # function of the text, so setting them on the shared Doc is idempotent.
    return set_rule_entities(parse(query))


def _part_of(parts: list[Part], offset: int) -> int:
    for i, p in enumerate(parts):
        if offset < p.end:
            return i
    return max(0, len(parts) - 1)


#: Content kinds that stand apart as material (they also separate sub-questions).
_MATERIAL = frozenset({"fence", "triple-quote", "tagged", "block", "labelled"})
#: Kinds delimited explicitly: a verifiable spec inside them is the material's, not the user's. A colon
#: block is not among them: impersonal requirements ("There should be 4 paragraphs.") also follow colons.
_DELIMITED = frozenset({"fence", "triple-quote", "tagged", "labelled"})


def _read_in_quote(query: str, spec: Any, start: int, end: int, content: tuple[ContentSpan, ...]) -> bool:
    """Whether the counts ``spec`` read lie only inside quoted material ("My boss wrote: 'Keep reports under 500
    words.' Is that fair?"): the quote's rule is someone else's, the content of this request.

    Only numbers are located (:func:`_count_spots`), and every place the number occurs in the spec's sentence must
    be inside a quotation; a spec with no count stays, and so does a phrase the answer must use (an end phrase is
    quoted by nature) or a text to repeat.
    """
    quotes = [(c.start, c.end) for c in content if c.kind == "quote"]
    if not quotes:
        return False
    spots = count_spots(query, spec, start, end)
    return spots is not None and all(any(a <= x < b for a, b in quotes) for group in spots for x in group)


def _counts_narrated(query: str, doc: Any, spec: Any, start: int, end: int) -> bool:
    """Whether every count ``spec`` read stands in a clause told in the past ("last time you went over 200 words"):
    what an earlier answer did, not what this one must do (:func:`earlier.narrated`)."""
    if count_spots(query, spec, start, end) is None:
        return False
    # every place the count stands in the request, not only the spec's sentence: "You wrote under 100 words last
    # time. Write under 100 words again." asks again
    spots = count_spots(query, spec, 0, len(query))
    return spots is not None and all(narrated(doc, x) for group in spots for x in group)


def _merge_specs(
    query: str,
    parts: list[Part],
    raws: list[RawConstraint],
    content: tuple[ContentSpan, ...] = (),
    doc: Any = None,
    others: tuple[tuple[int, int], ...] | None = None,
) -> list[RawConstraint]:
    """Attach verifiable specs from the verifiers package; a spec over a content constraint enriches it. With the
    request's parse (``doc``), a spec whose counts tell of an earlier answer is dropped (:mod:`earlier`), and one
    read where the request may not ask it of the answer is tentative (:mod:`tentative`; ``others``: the request's
    quotations when others' words may be told in it)."""
    for spec in bridge.detect_specs(query):
        start = locate(query, spec.text)
        end = start + len(spec.text)
        if any(c.kind in _DELIMITED and c.start <= start and end <= c.end for c in content):
            continue
        if _read_in_quote(query, spec, start, end, content):
            continue
        if doc is not None and _counts_narrated(query, doc, spec, start, end):
            continue
        tentative = doc is not None and unasked(query, doc, spec, start, others)
        later = asked_later(query, spec, end) if tentative else None
        if later is not None and not unasked(query, doc, later[0], later[1], others):
            spec, start, end, tentative = *later, False
        category = Category(str(spec.category))
        merged = False
        # the constraint that states the spec, when its words show it (its count or unit) and it can take the spec
        # (or already holds one: then the spec is its twin); else the first that fits, as before
        takers = [
            r
            for r in raws
            if r.start < end
            and start < r.start + len(r.text)
            and (r.verifier is not None or _can_take(r, category, bool(spec.negated), _counted(spec.params)))
        ]
        fits = {id(r): spec_fit(query, spec, r.start, r.start + len(r.text)) for r in takers}
        stated = max(takers, key=lambda r: (fits[id(r)], r.verifier is None), default=None)  # a free one first
        if stated is not None and fits[id(stated)] == 0:
            stated = None
        for raw in raws if stated is None else [stated]:
            raw_end = raw.start + len(raw.text)
            overlaps = raw.start < end and start < raw_end
            takes = raw.verifier is None and _can_take(raw, category, bool(spec.negated), _counted(spec.params))
            if overlaps and takes:
                raw.verifier = spec.verifier
                raw.params = dict(spec.params)
                raw.category = category
                raw.tentative = tentative
                per_unit = re.search(r"\b(each|every|per)\b", spec.text, re.IGNORECASE) is not None
                if per_unit and raw.text.lower() in spec.text.lower():
                    raw.text = spec.text
                merged = True
                break
        if not merged:
            twin = next((r for r in raws if r.verifier and r.start < end and start < r.start + len(r.text)), None)
            twin = stated if stated is not None and stated.verifier else twin
            raws.append(
                RawConstraint(
                    start=start if twin is None else twin.start,
                    text=spec.text if twin is None else twin.text,
                    category=category,
                    negated=bool(spec.negated),
                    subquestion=_part_of(parts, start),
                    verifier=spec.verifier,
                    params=dict(spec.params),
                    tentative=tentative,
                )
            )
    return raws


def _can_take(raw: RawConstraint, category: Category, negated: bool, counted: bool) -> bool:
    """Whether a constraint read from the words can take a verifiable spec of ``category``. A quantity takes only a
    spec that counts something (a number among its parameters): "Reply in JSON: list two colors" keeps "two" as
    the count of colours, and the JSON format is a constraint of its own."""
    compatible = (
        raw.category == category or raw.category is Category.OTHER or (raw.category is Category.QUANTITY and counted)
    )
    return compatible and raw.negated == negated


def _counted(params: Mapping[str, Any]) -> bool:
    """Whether a spec's parameters hold a number (what it counts)."""
    return any(isinstance(v, int | float) and not isinstance(v, bool) for v in params.values())


def _finish(raws: list[RawConstraint]) -> list[Constraint]:
    raws = sorted(raws, key=lambda r: (r.subquestion, r.start))
    return [
        Constraint(
            id=f"c{i}",
            text=r.text,
            category=r.category,
            tier=tier_for(r.category),
            verifier=r.verifier,
            params=r.params,
            negated=r.negated,
            subquestion=r.subquestion,
            tentative=r.tentative,
        )
        for i, r in enumerate(raws, start=1)
    ]


def _subquestions(parts: list[Part]) -> list[SubQuestion]:
    n = len(parts)
    return [SubQuestion(index=i, text=p.text, position=(i / (n - 1) if n > 1 else 0.0)) for i, p in enumerate(parts)]


@lru_cache(maxsize=QUERY_CACHE_SIZE)
def _reading(query: str) -> tuple[str, tuple[ContentSpan, ...], str | None]:
    """The instruction text (pasted content blanked), the content spans, and why the engine cannot read it."""
    if not query.strip():
        return query, (), None
    doc = parse_query(query)
    spans = tuple(content_spans(query, doc))
    instruction = instruction_text(query, list(spans))
    reason = outside_reach(instruction)
    if reason is None and not spans and not _asks_anything(doc):
        reason = "the request states facts but asks for nothing (no order, question or request to the reader)"
    return instruction, spans, reason


#: Words by which a text addresses a reader or states a need. Provenance: English person deixis (pronouns of the
#: first and second person) and the politeness marker; a text with none of them, no imperative, no question and
#: no verifiable instruction is a statement, not a request (issue 11: pasted facts are not constraints).
_ADDRESS = frozenset({"you", "your", "yours", "yourself", "i", "me", "my", "we", "us", "our", "please"})


def _asks_anything(doc: Any) -> bool:
    """Whether a parsed text requests something: an imperative, a question, a word addressing the reader, or
    a verifiable instruction. A bare statement ("The Ebro flows 910 km through Spain.") does not."""
    if "?" in doc.text or any(t.lower_ in _ADDRESS for t in doc):
        return True
    for sent in doc.sents:
        first = next((t for t in sent if t.is_alpha), None)
        if first is None:
            continue
        if first.lower_ in TASK_VERBS or first.tag_ == "VB" or first.lower_ in _WH_WORDS:
            return True
        root = sent.root
        if root.pos_ not in ("VERB", "AUX") or not any(c.dep_.startswith("nsubj") for c in root.children):
            return True  # a verbless phrase ("Three reasons to learn Python.") is a telegraphic request
        if any(
            t.tag_ == "VB" and t.dep_ == "ROOT" and not any(c.dep_.startswith("nsubj") for c in t.children)
            for t in sent
        ):
            return True
    return bool(bridge.detect_specs(doc.text))


_WH_WORDS = frozenset({"what", "which", "who", "whom", "whose", "when", "where", "why", "how"})


def _instruction_parts(instruction: str, content: tuple[ContentSpan, ...]) -> list[Part]:
    """Sub-questions of the instruction text; a standalone pasted block separates what comes before and after."""
    cuts = [0] + [x for c in content if c.kind in _MATERIAL for x in (c.start, c.end)] + [len(instruction)]
    parts: list[Part] = []
    for a, b in zip(cuts[::2], cuts[1::2], strict=True):
        for p in split_parts(instruction[a:b]):
            text = " ".join(p.text.split())
            if text.strip(" .") and a + p.end > a + p.start:
                parts.append(Part(a + p.start, a + p.end, text))
    return parts or split_parts(instruction)


def undetermined_reason(query: str) -> str | None:
    """Why the offline engine cannot read this request (non-English, only pasted material), else None."""
    return _reading(query)[2] if query.strip() else None


@lru_cache(maxsize=QUERY_CACHE_SIZE)
def _analyse(query: str, verifiers: int = 0) -> tuple[tuple[Part, ...], tuple[RawConstraint, ...], str | None]:
    """Parts, raw constraints and main task of a single message (one parse, cached).

    ``verifiers`` keys the cache by the active verifier registry (guards may register different ones).
    """
    if not query.strip():
        return (), (), None
    instruction, content, unreadable = _reading(query)
    if unreadable is not None:
        return tuple(split_parts(query)), (), None
    parts = _instruction_parts(instruction, content)
    doc = parse_query(query) if instruction is query else parse_query(instruction)
    raws: list[RawConstraint] = []
    task: str | None = None
    for index, part in enumerate(parts):
        span = doc.char_span(part.start, part.end, alignment_mode="expand")
        if span is None or len(span) == 0:
            continue
        roles = analyse_span(span, index)
        for raw in roles.constraints:
            raw.text = " ".join(raw.text.split())  # blanked content leaves runs of spaces
        raws.extend(roles.constraints)
        if task is None or (task == "answer" and roles.task not in (None, "answer")):
            task = roles.task
    others = others_told(query, doc)
    raws = _merge_specs(query, parts, raws, content, doc, others)
    raws = _drop_counted_units(query, raws)
    raws = _drop_pieces_of_phrases(query, raws)
    raws = _language_asks(doc, parts, raws, lambda at, name_at: language_unasked(doc, at, name_at, others))
    return tuple(parts), tuple(raws), task


def _drop_counted_units(query: str, raws: list[RawConstraint]) -> list[RawConstraint]:
    """A subject that is the unit of a count a verifier checks ("40 *words*", "3 *paragraphs*") is form, not topic.

    The verifier decides the count; keeping the unit as a must-address subject made every answer that
    does not say "words" an omission. A count the engine reads itself ("three *rivers*") keeps its noun.
    """
    ends = [r.start + len(r.text) for r in raws if r.verifier is not None and r.category is Category.QUANTITY]
    return [
        r
        for r in raws
        if not (
            r.category is Category.SUBJECT
            and r.verifier is None
            and any(end <= r.start and not query[end : r.start].strip() for end in ends)
        )
    ]


def _drop_pieces_of_phrases(query: str, raws: list[RawConstraint]) -> list[RawConstraint]:
    """A constraint read across an exact phrase a verifier checks ("End your answer with the phrase 'Is there
    anything else?'" read as the action "End 'Is there anything else") is a piece of that instruction's own wording:
    the verifier checks the phrase; the piece would stay unknown and read as a constraint (helper 94)."""
    # a phrase of three words or more (a keyword, "machine learning", may well be the topic too)
    openings = {
        " ".join(value.split()[:3]).lower()
        for r in raws
        if r.verifier is not None
        for value in r.params.values()
        if isinstance(value, str) and len(value.split()) >= 3 and value in query
    }
    if not openings:
        return raws
    # a constraint's text is built from its tokens, not one stretch of the query: its words are compared
    return [r for r in raws if r.verifier is not None or not any(o in r.text.lower() for o in openings)]


_LANGUAGE = "language:response_language"


#: The case instructions that presuppose English ("english_lowercase", "english_capital"); the verifier detectors
#: read "in English" beside one of them as part of it (verifiers.detect_ifeval.detect_language, ``english_case``).
_ENGLISH_CASE = "change_case:english_"


def _language_asks(
    doc: Any,
    parts: list[Part],
    raws: list[RawConstraint],
    unasked: Callable[[int, int], bool] = lambda at, name_at: False,
) -> list[RawConstraint]:
    """Constraints for requests of an answer in a named language, read by syntax (:mod:`language_request`).

    The language name is the constraint's parameter, not a subject of its own; a translation's source text is
    material, not constraints. A language asked for is an important constraint (qualifier tier): an answer in
    another language misreads the request.
    """
    from faithguard.engine.language_request import requested_languages

    english_case = any(str(r.verifier).startswith(_ENGLISH_CASE) for r in raws)
    for ask in requested_languages(doc):
        if ask.code == "en" and english_case:
            continue  # "in English, all in lowercase": English is the case's own condition, as the verifiers read it
        in_name = [r for r in raws if r.verifier is None and ask.name_start <= r.start < ask.end]
        raws = [r for r in raws if r not in in_name]
        if ask.sources:
            raws = [
                r
                for r in raws
                if r.verifier is not None
                or r.category is Category.ACTION
                or not any(a <= r.start < b for a, b in ask.sources)
            ]
        if any(r.verifier == _LANGUAGE and r.params.get("language") == ask.code for r in raws):
            continue
        phrase = next(
            (
                r
                for r in raws
                if r.verifier is None
                and r.category in (Category.OTHER, Category.QUALIFIER)
                and r.start <= ask.name_start < r.start + len(r.text)
            ),
            None,
        )
        tentative = unasked(ask.start, ask.name_start)
        if phrase is not None:
            phrase.verifier, phrase.params, phrase.tentative = _LANGUAGE, {"language": ask.code}, tentative
            continue
        text = doc.text[ask.start : ask.end]
        raws.append(
            RawConstraint(
                start=ask.start,
                text=" ".join(text.split()),
                category=Category.QUALIFIER,
                subquestion=_part_of(parts, ask.start),
                verifier=_LANGUAGE,
                params={"language": ask.code},
                tentative=tentative,
            )
        )
    for r in raws:
        if r.verifier == _LANGUAGE:
            r.category = Category.QUALIFIER
    return raws


def _copy(raws: tuple[RawConstraint, ...] | list[RawConstraint]) -> list[RawConstraint]:
    return [dataclasses.replace(r, params=dict(r.params)) for r in raws]


def decompose_text(query: str) -> Decomposition:
    """Decompose one standalone message (deterministic; cached by text)."""
    parts, raws, task = _analyse(query, bridge.registry_key())
    return Decomposition(
        subquestions=_subquestions(list(parts)),
        constraints=_finish(_copy(raws)),
        task=task,
        decomposer=OfflineDecomposer.name,
    )


def previous_user_turn(history: list[Message]) -> str | None:
    """The last non-empty user message of ``history``, if any."""
    for msg in reversed(history):
        if msg.role == "user" and msg.content.strip():
            return msg.content
    return None


def is_followup(query: str) -> bool:
    """Whether a turn reads as a follow-up that leans on the previous request."""
    low = " ".join(query.strip().lower().split())
    if any(low.startswith(p) for p in FOLLOWUP_PREFIXES):
        return True
    return len(low.split()) <= 8 and _ANAPHORA.search(low) is not None


def _followup_language(query: str, new: list[RawConstraint]) -> None:
    """Add a language constraint for an elliptic "in <language>" of a follow-up the syntax specs left unread."""
    from faithguard.engine.language_request import language_code

    asked = {r.params.get("language") for r in new if r.verifier == _LANGUAGE}
    for m in _IN_NAME.finditer(query):
        code = language_code(m.group(1)) or language_code(m.group(1).split()[0])
        if code is None or code in asked:
            continue
        asked.add(code)
        # the name is the constraint's parameter, not a subject of its own
        new[:] = [r for r in new if r.verifier is not None or not m.start(1) <= r.start < m.end(1)]
        new.append(
            RawConstraint(m.start(), m.group(0), Category.QUALIFIER, verifier=_LANGUAGE, params={"language": code})
        )


def _task_action(raws: list[RawConstraint]) -> RawConstraint | None:
    for r in raws:
        if r.category is Category.ACTION and r.text.lower().split()[0] in TASK_VERBS:
            return r
    return None


def _resolve_followup(query: str, previous: str) -> Decomposition:
    """Carry the previous request's constraints; slots the follow-up names replace the old ones."""
    _, q_raws_t, q_task = _analyse(query, bridge.registry_key())
    q_raws = _copy(q_raws_t)
    acts = [r for r in q_raws if r.category is Category.ACTION and r.text.lower().split()[0] not in _NON_TASKS]
    standalone = any(r.category is Category.SUBJECT for r in q_raws) and bool(acts)
    if standalone:
        return decompose_text(query)
    _, p_raws_t, p_task = _analyse(previous, bridge.registry_key())
    carried = _copy(p_raws_t)
    for r in carried:
        r.subquestion = 0
    new = [r for r in q_raws if not (r.category is Category.ACTION and r.text.lower().split()[0] in _NON_TASKS)]
    for r in new:
        r.subquestion = 0
    _followup_language(query, new)
    if any(r.verifier == _LANGUAGE for r in new):  # a newly asked language replaces the one carried
        carried = [r for r in carried if r.verifier != _LANGUAGE]
    for cat in _REPLACEABLE:
        if any(r.category is cat and not r.negated and r.verifier != _LANGUAGE for r in new):
            carried = [r for r in carried if r.category is not cat or r.negated or r.verifier == _LANGUAGE]
    q_action = _task_action(new)
    if q_action is not None:
        old = _task_action(carried)
        carried = [r for r in carried if r is not old]
    offset = len(previous) + 1
    for r in new:
        r.start += offset
    covered = " ".join(r.text.lower() for r in new)
    for m in _MODIFIER.finditer(query):
        if m.group(0).lower() not in covered:
            new.append(RawConstraint(offset + m.start(), m.group(0), Category.OTHER))
    task = q_task if q_task not in (None, *_NON_TASKS) else p_task
    return Decomposition(
        subquestions=[SubQuestion(index=0, text=query.strip(), position=0.0)],
        constraints=_finish(carried + new),
        task=task,
        decomposer=OfflineDecomposer.name,
    )


class OfflineDecomposer:
    """Rule-based decomposer over the shared spaCy parse; pure and deterministic."""

    name = "offline"

    def warmup(self) -> None:
        """Load the spaCy pipeline and run one parse, outside any call's time budget."""
        decompose_text("List two rivers in Spain.")

    def decompose(self, ctx: CallContext) -> Decomposition:
        """Decompose ``ctx.query``; follow-ups are resolved against the previous user turn.

        Read while WordNet is still loading (a guard built with ``warmup=False``), place names read differently:
        the result is marked provisional (the guard does not cache it) and this module's memos forget it.
        """
        from faithguard.lexical import wordnet

        settled = wordnet.settled()
        query = ctx.query or ""
        readable(query)
        previous = previous_user_turn(ctx.history)
        if previous is not None and previous.strip() != query.strip() and is_followup(query):
            result = _resolve_followup(query, previous)
        else:
            result = decompose_text(query)
        if settled:
            return result
        _analyse.cache_clear()
        _reading.cache_clear()
        return result.model_copy(update={"provisional": True})
