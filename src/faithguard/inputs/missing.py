"""The input-stage missing-content detector (FaithQA Step 0: is everything the request needs supplied?)."""

from __future__ import annotations

import copy
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Literal

from faithguard.cache import QUERY_CACHE_SIZE, SingleFlightCache, texts_key
from faithguard.detector import MISSING_INPUT, CallContext
from faithguard.inputs.appraised import APPRAISAL_TRIGGER, appraised_refs
from faithguard.inputs.asked import asked_for_findings
from faithguard.inputs.attached import ATTACHMENT_TRIGGER, attachment_findings
from faithguard.inputs.described import with_spans
from faithguard.inputs.forward import FORWARD_TRIGGER, MAX_CHARS, forward_findings, settled_pointers
from faithguard.inputs.parsed import (
    DEICTIC_TRIGGER,
    HISTORY_TRIGGER,
    POINTER_TRIGGER,
    assistant_made,
    deictic_refs,
    linked_objects,
    parse_filter,
    pointer_refs,
    recalled_exchange,
)
from faithguard.inputs.parts import absent_part_findings
from faithguard.inputs.recorded import EVENT_TRIGGER, recorded_refs
from faithguard.inputs.references import Reference, find_references
from faithguard.inputs.supply import Block, Scan, ends_with_answer_field, names_material, scan, word_count
from faithguard.inputs.units import free_units
from faithguard.inputs.vocab import CONTENT_NOUNS, PART_KINDS, SMALL_KINDS, STRONG_KINDS, group_of, kind_of
from faithguard.inputs.voice import candidate_sentences, voice_spans
from faithguard.models import DetectorResult, Severity, Verdict, VerdictKind
from faithguard.nlp import readable

__all__ = ["MissingContentDetector", "Supply", "analyse", "clarification_text"]

_MENTION_RE = re.compile(
    r"\b(?:the|this|these|given|provided|following)\s+(?:[\w'’-]+\s+)?("
    + "|".join(sorted(CONTENT_NOUNS, key=len, reverse=True))
    + r")\b",
    re.I,
)
_URL_RE = re.compile(r"\bhttps?://(?P<host>[\w.-]+)(?:[/?#][^\s<>\"')\]]*)?", re.I)
#: What introduces a link as the material itself: a colon, a deictic, or a locative preposition.
_URL_INTRO_RE = re.compile(r"(?::|\b(?:at|from|on|in|this|here|following))\s*$", re.I)
#: A link standing alone after the request's own sentences (after a sentence end or on its own line), with nothing
#: after it: the material itself ("Can you summarize it? https://..."). Fixtures: tests/inputs/test_generalize.py
#: (spec standalone_link).
_URL_ALONE_RE = re.compile(r"(?:^|[.?!]|\n)\s*$")
_GROUP_ORDER = ("doc", "query", "response", "rubric")
#: Kinds whose content is never prose (photos, charts, videos): see specs/content_classes.json "not_inline".
_NOT_INLINE = frozenset({"image"})
#: A request this short is parsed for the appraisal readings even without "my/our" ("fix typos": faults of a text
#: that never came); the parse is the shared, cached one the engine reads too.
_SHORT = 300
_SYSTEM_KINDS = frozenset({"context", "document", "source", "content", "passage", "text", "article", "data"})


@dataclass
class Supply:
    """What the call supplies, in countable units."""

    typed: Counter[str] = field(default_factory=Counter)
    indices: set[tuple[str, int]] = field(default_factory=set)
    full: int = 0
    small: int = 0
    small_para: int = 0  # short content lines without a colon: only an explicit pointer ("below") takes them
    attached: int = 0  # documents supplied beside the text (the only supply for a photo or a chart)
    turns: int = 0  # earlier turns with any content: what "the conversation so far" refers to
    sentences: int = 0  # content sentences of free paragraphs: the items of "these two sentences"


@lru_cache(maxsize=512)
def _placeholder_like(doc: str) -> bool:
    """A document that is only a template placeholder (memoised: documents repeat across calls and passes)."""
    s = scan(doc)
    return bool(s.empties) and word_count(s.masked) == 0


def _add_scan(
    supply: Supply,
    sc: Scan,
    exclude: list[tuple[int, int]],
    min_para: int = 0,
    *,
    questions: bool = False,
    before: int = -1,
) -> None:
    for b in sc.typed:
        supply.typed[group_of(b.kind or "document")] += 1
        if b.index is not None and b.kind is not None:
            supply.indices.add((b.kind, b.index))
    for u in free_units(sc, exclude, questions=questions, before=before, min_words=min_para):
        if u.origin == "paragraph" and u.words < min_para:
            continue
        if u.origin in ("paragraph", "after_colon"):
            supply.sentences += u.sentences
        if u.full:
            supply.full += 1
        elif u.origin in ("colon", "after_colon"):
            supply.small += 1  # a few words introduced by a colon: enough for "this sentence:"
        elif u.origin == "paragraph":
            supply.small_para += 1  # a short line of content: enough for "the sentence below"


def _portion(r: Reference) -> bool:
    """Whether the reference's noun names a portion of something ("the relevant bit", "this snippet")."""
    from faithguard.inputs.content_kinds import lexname_test

    words = r.text.split()
    return bool(words) and lexname_test("portion", words[-1].strip(".,;:!?'\"").lower())


def _needs(refs: list[Reference]) -> dict[str, tuple[int, list[Reference]]]:
    """Per group: how many items the request needs, and the references that ask for them."""
    # "the org chart (I typed the relevant bit below)": a portion named beside a whole in the same sentence is part
    # of that whole and counts no item of its own
    portions = {i for i, r in enumerate(refs) if _portion(r)}
    beside = {(r.source, r.sentence) for i, r in enumerate(refs) if i not in portions}
    refs = [r for i, r in enumerate(refs) if i not in portions or (r.source, r.sentence) not in beside]
    per_sentence: dict[tuple[str, tuple[int, int], str], dict[str, Reference]] = {}
    for r in refs:
        bucket = per_sentence.setdefault((r.source, r.sentence, group_of(r.kind)), {})
        cur = bucket.get(r.kind)
        if cur is None or r.expected > cur.expected:
            bucket[r.kind] = r
    needs: dict[str, tuple[int, list[Reference]]] = {}
    for (_src, _sent, grp), kinds in per_sentence.items():
        wholes = {k: r for k, r in kinds.items() if k not in PART_KINDS}
        if wholes and len(wholes) < len(kinds):
            kinds = wholes  # "continue the essay from the last paragraph": the paragraph is part of the essay
        # "what does the witness say in the transcript": the witness's words are that transcript, so a person beside
        # a text counts no item of its own (it still asks for the text: it stays among the references); so does a
        # part or aspect of the text named right after it ("the spelling of this line")
        texts = {k: r for k, r in kinds.items() if not (r.speaker or r.within)}
        counted = texts if texts and len(texts) < len(kinds) else kinds
        total = sum(r.expected for r in counted.values())
        if len(counted) > 1:
            total = max(total if _joined(list(counted.values())) else 0, max(r.expected for r in counted.values()))
        best = needs.get(grp)
        if best is None or total > best[0]:
            needs[grp] = (total, list(kinds.values()))
    return needs


def _joined(refs: list[Reference]) -> bool:
    """Distinct kinds in one sentence count separately (the transcript and the slides)."""
    return all(r.kind in STRONG_KINDS or r.strong for r in refs)


def _settled_by(spans: list[tuple[int, int]]) -> Callable[[Reference], bool]:
    """Whether a one-item query reference is a forward pointer that needs nothing more (``settled_pointers``):
    "Translate the following - the museum opens at nine." gives the item after it; "while writing the following
    piece" names the output."""
    return lambda r: r.source == "query" and r.expected == 1 and any(a < r.end and r.start < b for a, b in spans)


def _or_made(settled: Callable[[Reference], bool], made: set[int]) -> Callable[[Reference], bool]:
    return lambda r: settled(r) or r.noun_start in made


def _resolve(
    refs: list[Reference], supply: Supply, settled: Callable[[Reference], bool] = lambda r: False
) -> list[dict[str, Any]]:
    findings: list[dict[str, Any]] = []
    full, small, attached, small_para = supply.full, supply.small, supply.attached, supply.small_para
    needs = _needs([r for r in refs if not _index_present(r, supply)])
    for grp in sorted(needs, key=lambda g: _GROUP_ORDER.index(g) if g in _GROUP_ORDER else 9):
        need, drivers = needs[grp]
        if all(settled(r) for r in drivers):
            continue
        have = supply.typed.get(grp, 0)
        deficit = need - have
        if all(r.kind in _NOT_INLINE for r in drivers):
            # A photo, chart or video cannot be pasted as prose: only an attached document stands for it.
            use = min(max(deficit, 0), attached)
            attached -= use
            full -= use
            deficit -= use
        use = min(max(deficit, 0), full) if not all(r.kind in _NOT_INLINE for r in drivers) else 0
        full -= use
        deficit -= use
        if deficit > 0 and all(r.kind == "sentence" for r in drivers):
            # "Compare these two sentences. The cat sat. The mat was sat on.": each content sentence is one item
            deficit = min(deficit, max(0, need - have - supply.sentences))
        if deficit > 0 and all(r.kind in SMALL_KINDS or r.kind == "content" for r in drivers):
            use = min(deficit, small)
            small -= use
            deficit -= use
            if deficit > 0 and all(r.strong for r in drivers):
                use = min(deficit, small_para)
                small_para -= use
                deficit -= use
        if deficit > 0 and supply.turns and all(_about_conversation(r) for r in drivers):
            deficit = 0  # "our previous discussion", "the chat so far": any earlier turn is that conversation
        if deficit > 0:
            found = need - deficit
            phrase = " and ".join(repr(r.text.strip()) for r in drivers)
            what = f"{need} item{'s' if need > 1 else ''}" if need > 1 else "it"
            findings.append(
                {
                    "reference": " / ".join(r.text.strip() for r in drivers),
                    "expected": need,
                    "found": found,
                    "explanation": f"The {'system prompt' if drivers[0].source == 'system' else 'request'} refers to "
                    f"{phrase}, which needs {what}, but {found} {'was' if found == 1 else 'were'} supplied.",
                }
            )
    return findings


def _about_conversation(r: Reference) -> bool:
    """A reference to the conversation itself (a thread/chat noun, or 'previous'/'earlier' discussion)."""
    return r.kind == "thread" or any(w in ("previous", "earlier", "prior") for w in r.text.lower().split())


#: A pointer back to what came before in the same message ("the request above", "the prompt preceding this").
# look-behind: a match starts at a run's first blank, so a run of blanks is scanned once (issue 16)
_BACKWARD_AFTER = re.compile(r"(?<!\s)\s+(?:above|preceding)\b", re.I)


def _names_the_request(r: Reference) -> bool:
    """'the request above', 'the prompt above': the noun names the act of asking (the ``self_request`` lexname
    test), so what stands above it is the request itself, orders and all; 'the text above' wants material."""
    from faithguard.inputs.content_kinds import lexname_test

    words = re.findall(r"[A-Za-z]+", r.text)
    return bool(words) and lexname_test("self_request", words[-1])


def _index_present(r: Reference, supply: Supply) -> bool:
    return r.index is not None and (r.kind, r.index) in supply.indices


#: Words of supplied text around a placeholder that make it a field of that text, a draft or a form the user hands
#: over ("Dear [Name], thank you for the quick reply ..."), rather than a gap where material should be. A placeholder
#: naming a kind of material ("[paste the article]") is a gap wherever it stands, and so is one in the request's own
#: sentences ("Write a tweet about [topic]."). Fixtures: tests/inputs/test_supplied_material.py.
FIELD_CONTEXT_WORDS = 5


def _template_fields(sc: Scan, refs: list[Reference]) -> set[int]:
    """Starts of the placeholders of ``sc`` that are fields of material it supplies (see FIELD_CONTEXT_WORDS)."""
    fields = [b for b in sc.empties if b.origin == "placeholder" and not names_material(b.label)]
    if not fields:
        return set()
    units = [u for u in free_units(sc, [r.sentence for r in refs]) if u.words >= FIELD_CONTEXT_WORDS]
    return {b.start for b in fields if any(u.start <= b.start and b.end <= u.end for u in units)}


def _empty_findings(sc: Scan, refs: list[Reference], where: str) -> list[dict[str, Any]]:
    referenced = {r.kind for r in refs} | {k for w in _MENTION_RE.findall(sc.masked) if (k := kind_of(w))}
    out: list[dict[str, Any]] = []
    last = len(sc.text.rstrip())  # a block ending here ends the text (one measure, not a copy of the rest per block)
    fields = _template_fields(sc, refs)
    for b in sc.empties:
        if b.start in fields:
            continue  # "[Your name]" closing a letter the user pasted: the letter's own field, kept as written
        if b.origin == "label" and not (
            b.kind in STRONG_KINDS or b.kind == "context" or b.index is not None or b.kind in referenced or b.slot
        ):
            continue
        if b.origin in ("label", "section") and b.end >= last and ends_with_answer_field(sc):
            continue
        out.append(_empty_finding(b, where))
    return out


def _link_findings(text: str, parser: Callable[[str], Any] | None = None) -> list[dict[str, Any]]:
    """A link given as the material to work on ("summarise this page: <url>", "read <url> and ..."): its text was
    never fetched. The object reading needs the parse (``parser``), asked only when the text holds a link."""
    out: list[dict[str, Any]] = []
    objects: list[tuple[int, int]] | None = None
    for m in _URL_RE.finditer(text):
        before = text[max(0, m.start() - 40) : m.start()]
        alone = bool(_URL_ALONE_RE.search(text[: m.start()])) and not text[m.end() :].strip(" \t\n.")
        if not _URL_INTRO_RE.search(before) and not alone:
            if objects is None:
                doc = parser(text) if parser is not None else None
                objects = linked_objects(doc) if doc is not None else []
            if not any(a <= m.start() < b for a, b in objects):
                continue
        host = m.group("host")  # the host only: a link's path or query may carry tokens
        out.append(
            {
                "reference": f"the link to {host}",
                "expected": 1,
                "found": 0,
                "explanation": f"The request points to a link ({host}) whose content was not fetched or supplied.",
            }
        )
    return out


def _empty_finding(b: Block, where: str) -> dict[str, Any]:
    what = {
        "placeholder": "an unfilled template placeholder",
        "tag": "an empty tag",
        "label": "a labelled section with nothing after it",
        "section": "a section it then names with nothing under it",
        "fence": "an empty code block",
        "colon": "a colon at its end with nothing after it",
        "quote": "an empty quoted block",
    }.get(b.origin, "an empty block")
    out: dict[str, Any] = {
        "reference": b.label,
        "expected": 1,
        "found": 0,
        "explanation": f"The {where} has {what} ({b.label!r}) where the {b.kind or 'content'} should be.",
    }
    if b.origin == "section":
        out["section"] = True
    return out


def analyse(ctx: CallContext, parser: Callable[[str], Any] | None = None) -> list[dict[str, Any]]:
    """Findings for content the call refers to but does not supply (empty list when all is there).

    ``parser`` returns the spaCy parse of a text (or is None: patterns only). It is called on the request
    only when the patterns found a gap, or when a noun phrase is followed by a first-person clause
    ("the warning I keep getting"); the parse is the shared, cached one, so later detectors reuse it.
    """
    q = scan(ctx.query or "")
    q_refs = find_references(q.text, q.masked, "query")
    s = scan(ctx.system or "")
    s_refs = [r for r in find_references(s.text, s.masked, "system") if r.strong and r.kind in _SYSTEM_KINDS]
    findings = _empty_findings(q, q_refs, "request") + _empty_findings(s, s_refs, "system prompt")
    has_docs = any(d and d.strip() for d in ctx.documents) or ctx.attachments > 0  # an image sent is material
    earlier = any(m.role != "system" and m.content and m.content.strip() for m in ctx.history)
    if has_docs:
        # an empty section of a name the content lists do not know may be what the attached document fills
        findings = [f for f in findings if not f.get("section")]
    if not has_docs:
        findings += _link_findings(ctx.query or "", parser)
        ends = (ctx.query or "").rstrip().endswith((":", "："))
        if not findings and not ctx.history and ends and not ends_with_answer_field(q):
            findings.append(
                _empty_finding(Block("colon", None, 0, 0, 0, " ".join((ctx.query or "").split()[-5:])), "request")
            )
    doc: Any = None
    if parser is not None and POINTER_TRIGGER.search(q.masked):
        doc = parser(q.text)
        if doc is not None:
            q_refs = pointer_refs(q_refs, doc, q.masked)
    if parser is not None and not has_docs and (APPRAISAL_TRIGGER.search(q.masked) or len(q.masked) <= _SHORT):
        # "check my math", "is my reasoning sound?": a judgement of the user's own work needs that work (a document
        # beside the request is that work: no parse for it)
        doc = parser(q.text) if doc is None else doc
        if doc is not None:
            q_refs = q_refs + appraised_refs(doc, q.masked, {r.noun_start for r in q_refs})
    if parser is not None and not has_docs and EVENT_TRIGGER.search(q.masked):
        # "Summarize the meeting": the record of a spoken event (a document beside the request is that record)
        doc = parser(q.text) if doc is None else doc
        if doc is not None:
            q_refs = q_refs + recorded_refs(doc, q.masked, {r.noun_start for r in q_refs})
    if parser is not None and not q_refs and not ctx.documents and not ctx.history and DEICTIC_TRIGGER.search(q.masked):
        # "Summarize this." with nothing else: the pronoun may be the only reference (the parse decides).
        doc = parser(q.text) if doc is None else doc
        if doc is not None:
            q_refs = deictic_refs(doc, q.masked)
    if parser is not None and not ctx.history and HISTORY_TRIGGER.search(q.masked):
        # "what did I tell you earlier", "where we left off": an earlier exchange with no earlier turns
        doc = parser(q.text) if doc is None else doc
        if doc is not None:
            findings += recalled_exchange(doc, q.masked)
    if not q_refs and not s_refs:
        return findings or _unsupplied(q, doc, parser, has_docs, earlier) or asked_for_findings(ctx, q, parser)

    voice: list[tuple[int, int]] = []

    def supply_for(q_refs: list[Reference], s_refs: list[Reference]) -> Supply:
        sup = Supply()
        sup.attached = sum(1 for d in ctx.documents if d and d.strip() and not _placeholder_like(d)) + ctx.attachments
        sup.full += sup.attached
        own = [r.sentence for r in q_refs] + voice  # the user's comments beside a reference supply nothing
        back = [
            r.start
            for r in q_refs
            if r.source == "query" and _BACKWARD_AFTER.match(q.masked, r.end) and _names_the_request(r)
        ]
        _add_scan(sup, q, own, questions=any(r.kind == "query" for r in q_refs), before=max(back, default=-1))
        _add_scan(sup, s, [r.sentence for r in s_refs], min_para=25)
        for m in ctx.history:
            if m.role != "system" and m.content:
                _add_scan(sup, scan(m.content), [], min_para=20)
                sup.turns += bool(m.content.strip())
        return sup

    refs = q_refs + s_refs
    beside = candidate_sentences(q.masked, [r.sentence for r in q_refs]) if parser is not None else []
    if beside:
        # a sentence beside the reference may be the user's own comment ("I've been staring at it for an hour")
        doc = parser(q.text) if doc is None and parser is not None else doc
        if doc is not None:
            voice = voice_spans(doc, beside)
    missing = _resolve(refs, supply_for(q_refs, s_refs))
    if missing and parser is not None and doc is None:
        doc = parser(q.text)
    if missing and doc is not None:
        q_refs = parse_filter(q_refs, doc, q.masked)
        refs = q_refs + s_refs
        settled = _settled_by(settled_pointers(doc, q.text, q.masked))
        if any(m.role == "assistant" and m.content and m.content.strip() for m in ctx.history):
            # what the assistant made ("the outline you gave me") is in its earlier turns
            tokens = {t.idx: t for t in doc}
            made = {r.noun_start for r in q_refs if assistant_made(tokens.get(r.noun_start))}
            settled = _or_made(settled, made)
        missing = _resolve(refs, supply_for(q_refs, s_refs), settled)
    named = " / ".join(str(f["reference"]) for f in missing)
    missing += [f for f in absent_part_findings(q_refs, q.text, ctx.documents) if f["reference"] not in named]
    return findings + missing or _unsupplied(q, doc, parser, has_docs, earlier) or asked_for_findings(ctx, q, parser)


def _unsupplied(
    q: Scan, doc: Any, parser: Callable[[str], Any] | None, has_docs: bool, earlier: bool
) -> list[dict[str, Any]]:
    """Material the request promises with no noun to count: a forward pointer with nothing after it ("Add docstrings
    to the following class.", "It is below."), or an attachment claim nothing carries ("Resume attached."); checked
    only when nothing else was found and no document came with the request."""
    if parser is None or has_docs or len(q.text) > MAX_CHARS:
        return []  # a request longer than MAX_CHARS carries its material
    ahead, claims = FORWARD_TRIGGER.search(q.masked), ATTACHMENT_TRIGGER.search(q.masked)
    if not (ahead or claims):
        return []
    doc = parser(q.text) if doc is None else doc
    if doc is None:
        return []
    found = forward_findings(doc, q.text, q.masked) if ahead else []
    return found or (attachment_findings(doc, q, earlier_content=earlier) if claims else [])


def clarification_text(findings: list[dict[str, Any]]) -> str:
    """A polite request for the missing input, usable as the fallback answer."""
    items = []
    for f in findings:
        ref = str(f.get("reference", "")).strip() or "the referenced content"
        exp, got = int(f.get("expected", 1)), int(f.get("found", 0))
        items.append(f"{ref} (I can see {got} of {exp})" if exp > 1 else ref)
    listed = "; ".join(dict.fromkeys(items))
    return (
        "Before I answer, I need the material your request points to, but it did not come through: "
        f"{listed}. Could you paste the text or attach the file(s), or fill in the template, so I can work "
        "from the actual content rather than guess?"
    )


def _inputs_key(ctx: CallContext) -> bytes:
    """A digest of everything :func:`analyse` reads: the request, system text, documents, attachments and earlier
    turns."""
    turns = [part for m in ctx.history for part in (m.role, m.content or "")]
    counts = f"{len(ctx.documents)}/{ctx.attachments}"
    return texts_key([ctx.query or "", ctx.system or "", counts, *ctx.documents, *turns])


class MissingContentDetector:
    """Input stage: flags requests that refer to content which was never supplied."""

    name = "missing_content"
    stage: Literal["input", "output"] = "input"
    order = 50
    timeout: float | None = None

    def __init__(self, use_parser: bool = True) -> None:
        """``use_parser=False`` skips the spaCy filters (patterns only)."""
        self.use_parser = use_parser
        # The analysis reads only the call's inputs: a request checked again (a new answer to a known query,
        # a retry) is not read again. Keyed by a digest, so the cache holds no request text.
        self._memo: SingleFlightCache[tuple[dict[str, Any], ...]] = SingleFlightCache(maxsize=QUERY_CACHE_SIZE)

    @staticmethod
    def _parse(text: str) -> Any:
        from faithguard.errors import ConfigError
        from faithguard.nlp import parse

        try:
            return parse(text)  # shared and cached: the engine and the term checks read the same parse
        except ConfigError:
            return None

    def warmup(self) -> None:
        """Read WordNet's sense counts and the content classes now, on a request of our own, outside any check's
        budget (the first check reading a definite noun paid ~50 ms for them)."""
        from faithguard.lexical import senses

        senses.preload()
        analyse(CallContext(query="Summarise the attached report and the figures below."), self._parse)

    def run(self, ctx: CallContext) -> DetectorResult:
        """Check the call's inputs; critical verdicts when something referenced is missing."""
        readable(ctx.query or "")
        parser = self._parse if self.use_parser else None
        memo = self._memo.get_or_compute(
            _inputs_key(ctx), lambda: tuple(with_spans(analyse(ctx, parser), ctx.query or "", parser))
        )
        findings = copy.deepcopy(list(memo))  # the caller may change its findings; the memo stays as read
        if not findings:
            # With an LLM judge on, its step-0 check (published by judge_precheck) can find what the
            # offline patterns missed; offline findings win when both exist, to avoid duplicates.
            judged = ctx.findings.get("judge_missing_content")
            if isinstance(judged, list):
                findings = [_from_judge(f) for f in judged if isinstance(f, dict)]
        if not findings:
            return DetectorResult(findings={MISSING_INPUT: []})
        verdicts = [
            Verdict(
                kind=VerdictKind.MISSING_CONTENT,
                severity=Severity.CRITICAL,
                explanation=f["explanation"],
                detector=self.name,
            )
            for f in findings
        ]
        return DetectorResult(
            verdicts=verdicts,
            findings={MISSING_INPUT: findings},
            clarification=clarification_text(findings),
        )


def _from_judge(item: dict[str, object]) -> dict[str, object]:
    """A judge step-0 finding in the ``findings["missing_content"]`` shape."""
    reference = str(item.get("reference") or "referenced content")
    expected = item.get("expected")
    found = item.get("found")
    return {
        "reference": reference,
        "expected": expected if isinstance(expected, int) else 1,
        "found": found if isinstance(found, int) else 0,
        "explanation": str(item.get("explanation") or f"the request refers to {reference}, which was not supplied")
        + " (LLM judge)",
    }
