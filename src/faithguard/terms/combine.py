"""Evidence from knowledge sources, combined in one place.

A source answers a term with :class:`Evidence`: it *backs* the term, *denies* it, or abstains, with a
confidence in [0, 1]. Backing is decisive (a source that lists a term attests it). Denials combine as
independent evidence, ``1 - prod(1 - c)``; the term is unknown-to-every-source (``known=False``) only
when that reaches :data:`DENY_AT`. A source that is not exhaustive denies only what it covers: an
index of titles up to three words long says nothing about a five-word phrase, and nothing about a
descriptive phrase ("the impact of remote work") that no title list would hold.

Sources that only implement the plain ``lookup(term, ctx) -> bool | None`` protocol are read as
confidence 1.0 for True and :data:`PLAIN_DENIAL` for False.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol, cast, runtime_checkable

from faithguard.detector import CallContext, KnowledgeSource

__all__ = ["DENY_AT", "PLAIN_DENIAL", "AssessingSource", "Evidence", "ScopedSource", "assess", "combine", "may_deny"]

#: A term is reported unknown when the combined denial reaches this (one source of coverage >= 0.5 is
#: enough; two weak ones, 0.3 each, are not: 0.51 only just passes). Fixtures: tests/terms/test_combine.py.
DENY_AT = 0.5
#: Confidence given to a plain source's False (a source without coverage figures, e.g. a third-party plugin
#: built for the protocol before confidences existed): it keeps its old meaning of "denied".
PLAIN_DENIAL = 0.9


@dataclass(frozen=True)
class Evidence:
    """One source's answer for one term."""

    source: str
    backed: bool | None
    confidence: float = 0.0
    #: the source raised: it could not be asked, and may have backed the term
    failed: bool = False


@runtime_checkable
class AssessingSource(Protocol):
    """A knowledge source that reports how far its answer can be trusted."""

    name: str

    def assess(self, term: str, ctx: CallContext, name_like: bool) -> Evidence:
        """Back, deny or abstain on ``term``; ``name_like`` says whether it reads as a name, not a description."""
        ...


@runtime_checkable
class ScopedSource(Protocol):
    """A knowledge source that can tell, from a stretch of text, that it would deny no term drawn from it.

    Lets a check skip the work of finding candidate terms (a parse) in text where no candidate could end
    up unknown. The answer must be safe: False only when *every* term made of that text's words would get
    a backing or an abstention from this source.
    """

    name: str

    def may_deny(self, text: str) -> bool:
        """Whether some term made of ``text``'s words could be denied by this source."""
        ...


_ASSESSING: dict[type, bool] = {}
_SCOPED: dict[type, bool] = {}


def _answers_scope(kind: type) -> bool:
    """Whether ``kind``'s ``may_deny`` speaks for how it answers: a subclass that changes ``assess`` or ``lookup``
    without saying again where it denies (a backing-only source made to deny) is not taken at its parent's word."""

    def owner(name: str) -> type | None:
        return next((k for k in kind.__mro__ if name in vars(k)), None)

    scope = owner("may_deny")
    return scope is not None and all(
        answering is None or issubclass(scope, answering) for answering in (owner("assess"), owner("lookup"))
    )


def may_deny(sources: Sequence[KnowledgeSource], text: str) -> bool:
    """Whether any source could deny a term drawn from ``text``; a source that cannot say is assumed to."""
    for source in sources:
        kind = type(source)
        scoped = _SCOPED.get(kind)
        if scoped is None:
            scoped = _SCOPED[kind] = isinstance(source, ScopedSource) and _answers_scope(kind)
        if not scoped:
            return True
        try:
            if cast(ScopedSource, source).may_deny(text):
                return True
        except Exception:  # noqa: BLE001 - a source that fails to say might deny
            return True
    return False


def assess(source: KnowledgeSource, term: str, ctx: CallContext, name_like: bool) -> Evidence:
    """Ask one source; a source that raises abstains, marked failed (others can still back the term, but no denial
    stands without it: it may have backed the term)."""
    kind = type(source)
    assessing = _ASSESSING.get(kind)
    if assessing is None:  # a runtime Protocol check is slow: decide once per source type
        assessing = _ASSESSING[kind] = isinstance(source, AssessingSource)
    try:
        if assessing:
            return cast(AssessingSource, source).assess(term, ctx, name_like)
        answer = source.lookup(term, ctx)
    except Exception:  # noqa: BLE001 - a broken source cannot decide
        return Evidence(source.name, None, 0.0, failed=True)
    if answer is True:
        return Evidence(source.name, True, 1.0)
    if answer is False:
        return Evidence(source.name, False, PLAIN_DENIAL)
    return Evidence(source.name, None, 0.0)


def combine(evidence: Sequence[Evidence]) -> tuple[bool | None, float]:
    """``(known, confidence)``: True when any source backs, False when denials reach :data:`DENY_AT` and every
    source answered (a source that failed may have backed the term: then None, undecided)."""
    backing = [e.confidence for e in evidence if e.backed is True and e.confidence > 0]
    if backing:
        return True, max(backing)
    doubt = 1.0
    for e in evidence:
        if e.backed is False:
            doubt *= 1.0 - min(max(e.confidence, 0.0), 1.0)
    denial = 1.0 - doubt
    if denial >= DENY_AT and not any(e.failed for e in evidence):
        return False, denial
    return None, denial
