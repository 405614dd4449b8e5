"""Output-stage detectors: constraint satisfaction, omission and misinterpretation verdicts."""

from __future__ import annotations

import re
from typing import Literal

from faithguard.detector import ASKS_FOR_INPUT, MISSING_INPUT, CallContext
from faithguard.engine.content import language_of
from faithguard.engine.decompose import parse_query, undetermined_reason
from faithguard.engine.named import asks_for_one
from faithguard.engine.parts import unanswered_parts
from faithguard.engine.response import ResponseView, view_of, without_code
from faithguard.engine.satisfy import check_constraint, content_terms
from faithguard.engine.task_forms import software_form, task_family, write_form
from faithguard.lexical import wordnet
from faithguard.models import Constraint, DetectorResult, Severity, Status, Tier, Verdict
from faithguard.nlp import readable

__all__ = ["ConstraintsDetector", "MisinterpretationDetector", "OmissionDetector"]

_QUESTION_LINE = re.compile(
    r"^[ \t]*(?:#+[ \t]*|\*\*)?(?:q(?:uestion)?[ \t]*\d+[ \t]*[:.)-]|\d{1,2}[.)])[ \t]*\**[ \t]*(.+\?)[ \t]*\**[ \t]*$",
    re.IGNORECASE | re.MULTILINE,
)


class ConstraintsDetector:
    """Decides every constraint against the response (verifiers first, then offline evidence)."""

    name = "constraints"
    stage: Literal["input", "output"] = "output"
    order = 100
    timeout: float | None = None

    def warmup(self) -> None:
        """Load WordNet (typing), the language identifier and spaCy's abbreviation list now, outside any check's
        time budget."""
        from faithguard.engine.content import load_language_id
        from faithguard.engine.response import abbreviations

        wordnet.available()
        load_language_id()
        abbreviations()

    def run(self, ctx: CallContext) -> DetectorResult:
        """Status updates for the constraints still unknown."""
        readable(ctx.query or "")
        response = ctx.response or ""
        docs = "\n\n".join(ctx.documents)
        updates: dict[str, tuple[Status, str | None]] = {}
        # a request outside what the engine reads (another language, no instruction): the outcome
        # says so instead of reading "ok" over constraints nobody could find
        undetermined = undetermined_reason(ctx.query or "")
        for c in ctx.constraints:
            if c.status is not Status.UNKNOWN:
                continue
            status, reason = check_constraint(c, response, ctx.constraints, docs, ctx.query or "")
            updates[c.id] = (status, reason)
        # A part of a multi-part request whose kind of answer (a number, a date...) is nowhere in the
        # response was skipped: its undecided constraints are violated.
        pending = [c.model_copy(update={"status": updates.get(c.id, (c.status, None))[0]}) for c in ctx.constraints]
        updates.update(unanswered_parts(ctx.decomposition.subquestions, pending, view_of(response)))
        for c in _describing_missing_input(ctx):
            if c.id in updates:
                updates[c.id] = (Status.UNKNOWN, "describes material the request refers to but lacks")
        by_id = {c.id: c for c in ctx.constraints}
        # exact verifier checks and the engine's lexical evidence are told apart in reports
        deciders = {cid: "verifier" if by_id[cid].verifier else "offline" for cid in updates if cid in by_id}
        return DetectorResult(updates=updates, deciders=deciders, undetermined=undetermined)


def _describing_missing_input(ctx: CallContext) -> list[Constraint]:
    """The constraints whose words lie in the phrase naming material the request lacks ("the two vendor proposals",
    "clause 7 of my contract", "the 3 paragraphs of my essay"): they describe the input, so no answer can be checked
    against them, not even by a verifier a count there was read into. The phrases come from
    :data:`~faithguard.detector.MISSING_INPUT`."""
    query = ctx.query or ""
    found = ctx.findings.get(MISSING_INPUT)
    if not query or not isinstance(found, list):
        return []
    phrases = []
    for f in found:
        span = f.get("span") if isinstance(f, dict) else None
        if isinstance(span, list) and len(span) == 2 and all(isinstance(i, int) for i in span):
            phrases.append(query[span[0] : span[1]].lower())
    if not phrases:
        return []
    out = []
    for c in ctx.constraints:
        words = c.text.strip().lower()
        if words and any(re.search(rf"(?<!\w){re.escape(words)}(?!\w)", p) for p in phrases):
            out.append(c)
    return out


class OmissionDetector:
    """One omission verdict naming the instructions the response violates.

    Mandatory and important constraints count however they were decided. An optional one counts only
    when a verifier decided it (a checkable instruction such as "all in capitals" or "end with the
    phrase ..."): the answer ignored an explicit instruction, a definitional fact, not a reading.
    """

    name = "omission"
    stage: Literal["input", "output"] = "output"
    order = 300
    timeout: float | None = None

    def run(self, ctx: CallContext) -> DetectorResult:
        """Collect the violated constraints (see the class docstring) into one verdict."""
        if _defers_for_input(ctx):
            return DetectorResult()  # the answer asks for what the request lacked: it omits nothing yet
        missed = [c for c in ctx.constraints if c.status is Status.VIOLATED and _counts_as_omission(c)]
        if not missed:
            return DetectorResult()
        critical = any(c.tier is Tier.MANDATORY for c in missed)
        names = "; ".join(f"{c.text!r} ({c.category}, {c.tier})" for c in missed)
        return DetectorResult(
            verdicts=[
                Verdict(
                    kind="omission",
                    severity=Severity.CRITICAL if critical else Severity.WARNING,
                    constraint_ids=[c.id for c in missed],
                    explanation=f"The response does not address: {names}.",
                    detector=self.name,
                )
            ]
        )


def _defers_for_input(ctx: CallContext) -> bool:
    """Whether the response asks for content the request referred to but lacked, instead of doing the task."""
    return ctx.findings.get(ASKS_FOR_INPUT) is True


def _counts_as_omission(c: Constraint) -> bool:
    return c.tier in (Tier.MANDATORY, Tier.IMPORTANT) or (c.verifier is not None and c.decided_by == "verifier")


def _task_constraint(constraints: list[Constraint]) -> Constraint | None:
    for c in constraints:
        if str(c.category) == "action" and task_family(c) is not None:
            return c
    return None


def _mismatch(family: str | None, view: ResponseView) -> str | None:
    """What the response visibly does instead of the requested task family, when it is clear."""
    prose = len(view.sentences) >= 3 and len(view.items) < 2 and not view.has_code
    if family == "list" and prose and len(view.named()) <= 1 and view.names_reliable:
        return "explains in running prose"
    if family in ("compare",) and not view.comparative:
        if view.evaluative:
            return "evaluates a single item"
        if view.summary_cues:
            return "summarises"
    if family == "code" and prose:
        return "writes prose without code"
    if family == "poem" and prose:
        return "writes a prose paragraph"
    if family == "summarize" and view.evaluative and not view.summary_cues:
        return "evaluates"
    if family == "evaluate" and view.summary_cues and not view.evaluative:
        return "summarises"
    return None


def _asks_for_questions(ctx: CallContext) -> bool:
    """Whether one of the request's write or list verbs takes as its object a thing made of questions ("write a
    quiz", "give me five interview questions"), read from the parse; "answer the question" asks for none."""
    verbs = {
        c.text.split()[0].lower()
        for c in ctx.constraints
        if str(c.category) == "action" and task_family(c) in ("write", "list") and c.text.split()
    }
    if not verbs or not ctx.query.strip():
        return False
    for tok in parse_query(ctx.query):  # any write or list verb of the request ("... Additionally, create a quiz")
        if tok.lower_ not in verbs:
            continue
        objects = [c for c in tok.children if c.dep_ == "dobj"]
        objects += [x for o in objects for x in o.conjuncts]
        if any(wordnet.names_questions(o.lemma_) for o in objects):
            return True
    return False


def _extra_questions(ctx: CallContext, view: ResponseView) -> list[str]:
    """Numbered questions the response answers that no part of the query asked.

    None when the request asks for questions (a quiz, interview questions, an FAQ): they are the deliverable.
    """
    asked = [set(w.lower() for w in content_terms(sq.text)) for sq in ctx.decomposition.subquestions]
    if not asked:
        asked = [set(w.lower() for w in content_terms(ctx.query))]
    extra: list[str] = []
    for m in _QUESTION_LINE.finditer(view.text):
        q = m.group(1)
        terms = {w.lower() for w in content_terms(q)}
        if not terms:
            continue
        if ctx.query and q.strip().lower() in ctx.query.lower():
            continue
        overlap = max((len(terms & a) / len(terms) for a in asked), default=0.0)
        names = re.findall(r"(?<=\s)[A-Z][a-z]+", q)
        new_name = any(n.lower() not in ctx.query.lower() for n in names)
        if overlap < 0.5 or new_name:
            extra.append(q.strip())
    # read the request's parse and WordNet only when the answer holds questions nobody asked
    return [] if extra and _asks_for_questions(ctx) else extra


#: An answer reads as another language when py3langid gives English under this probability...
_ANSWER_ENGLISH_MAX = 0.01
#: ...its top language at least this one, over at least this many words.
_ANSWER_OTHER_MIN = 0.5
_ANSWER_MIN_WORDS = 8
#: Characters of the answer read for its language (py3langid walks every byte in Python: ~60 us per 1,000). Provenance:
#: over the 831 dev answers (both split parts) and the 32 of benchmarks/data/language_fresh.jsonl, 322 of them longer
#: than 1,000 characters and 32 read as another language, reading 1,000, 1,500, 2,000 or 3,000 characters decides the
#: same for every one. Fixtures: tests/engine/test_language_verdicts.py.
_ANSWER_LANGUAGE_CHARS = 1000


def _unasked_language(ctx: CallContext, view: ResponseView) -> str | None:
    """The language code of a response written in a language the English request never named, else None.

    The request names a language when its parse marks a NORP/LANGUAGE entity ("in French") or the
    task is translation; then any language may be right and nothing is said.
    """
    query = ctx.query or ""
    if any(c.verifier == _LANGUAGE for c in ctx.constraints):
        return None  # a language was asked for: its constraint decides (see _wrong_language)
    if len(view.words) < _ANSWER_MIN_WORDS or not query.strip() or undetermined_reason(query) is not None:
        return None
    # code is in no human language: the sample is the answer's prose (an answer opening with 1,500 characters of
    # code was read by its code)
    prose = without_code(view.text)
    found = language_of(" ".join(prose[:_ANSWER_LANGUAGE_CHARS].split()))
    if found is None or found[2] >= _ANSWER_ENGLISH_MAX or found[1] < _ANSWER_OTHER_MIN:
        return None
    if ctx.decomposition.task in ("translate",) or any(
        str(c.category) == "action" and task_family(c) == "translate" for c in ctx.constraints
    ):
        return None
    if any(t.ent_type_ in ("NORP", "LANGUAGE") for t in parse_query(query)):
        return None
    return found[0]


_LANGUAGE = "language:response_language"


def _wrong_language(ctx: CallContext) -> Verdict | None:
    """A misinterpretation when the response is in another language than the one the request asked for.

    Only a violated language constraint counts: its check says unknown for answers too short to identify or in
    a language the identifier cannot tell apart, and then nothing is said.
    """
    wrong = [c for c in ctx.constraints if c.verifier == _LANGUAGE and c.status is Status.VIOLATED]
    if not wrong:
        return None
    return Verdict(
        kind="misinterpretation",
        severity=Severity.WARNING,
        constraint_ids=[c.id for c in wrong],
        explanation="The response is written in another language than the one asked for: "
        + "; ".join(
            f"{c.params.get('language')!r} ({c.reason})" if c.reason else repr(c.params.get("language")) for c in wrong
        ),
        detector="misinterpretation",
    )


class MisinterpretationDetector:
    """Fires when the response does a different task than asked or answers questions nobody asked."""

    name = "misinterpretation"
    stage: Literal["input", "output"] = "output"
    order = 300
    timeout: float | None = None

    def run(self, ctx: CallContext) -> DetectorResult:
        """Conservative: a violated task with a visible other task, a broken exclusion, or invented sub-questions."""
        readable(ctx.query or "")
        response = ctx.response or ""
        view = view_of(response)
        if view.empty:
            return DetectorResult()
        verdicts: list[Verdict] = []
        defers = _defers_for_input(ctx)  # asking for the missing input is no other task, and no extra question
        task = None if defers else _task_constraint(ctx.constraints)
        if task is not None and task.status is not Status.SATISFIED:
            family = task_family(task)
            if family == "write":
                family = write_form(task, ctx.constraints)
                if family == "code" and not software_form(task, ctx.constraints):
                    family = None  # "script", "class": no software sense in WordNet, so no code is asked
            if family == "list" and asks_for_one(task, ctx.query):
                family = None  # "provide a description": one thing is asked, so prose is no mismatch
            other = _mismatch(family, view)
            if other is not None:
                verdicts.append(
                    Verdict(
                        kind="misinterpretation",
                        severity=Severity.CRITICAL if task.status is Status.VIOLATED else Severity.WARNING,
                        constraint_ids=[task.id],
                        explanation=f"Asked to {task.text.lower()}, the response {other} instead.",
                        detector=self.name,
                    )
                )
        broken = [c for c in ctx.constraints if c.negated and c.status is Status.VIOLATED]
        if broken:
            # An exclusion is optional-tier (no omission), but doing what the user ruled out is a
            # misreading of the request that dashboards should see.
            verdicts.append(
                Verdict(
                    kind="misinterpretation",
                    severity=Severity.WARNING,
                    constraint_ids=[c.id for c in broken],
                    explanation="The response includes what the request excluded: "
                    + "; ".join(repr(c.text) for c in broken),
                    detector=self.name,
                )
            )
        # an answer that only asks for the missing input does none of the task: its language is no misreading
        asked = None if defers else _wrong_language(ctx)
        if asked is not None:
            verdicts.append(asked)
        lang = None if defers else _unasked_language(ctx, view)
        if lang is not None:
            verdicts.append(
                Verdict(
                    kind="misinterpretation",
                    severity=Severity.WARNING,
                    explanation=f"The response is written in another language ({lang!r}) than the request, "
                    "which asked for none.",
                    detector=self.name,
                )
            )
        extra = [] if defers else _extra_questions(ctx, view)
        if extra:
            verdicts.append(
                Verdict(
                    kind="misinterpretation",
                    severity=Severity.WARNING,
                    explanation="The response answers questions the query did not ask: "
                    + "; ".join(repr(q[:80]) for q in extra[:3]),
                    detector=self.name,
                )
            )
        return DetectorResult(verdicts=verdicts)
