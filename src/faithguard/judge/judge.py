"""The LLM judge: decomposition, per-constraint satisfaction and term labels, sync and async.

Each public method makes ONE structured call per self-consistency sample and
shares its prompt-building and parsing code with its async twin. Malformed
output gets one repair round-trip, then :class:`JudgeOutputError`.
"""

from __future__ import annotations

import asyncio
import contextvars
import hashlib
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from cachetools import LRUCache
from pydantic import BaseModel, ValidationError

from faithguard.cache import SingleFlightCache
from faithguard.detector import CallContext
from faithguard.errors import InputError, JudgeError, JudgeOutputError, JudgeSkipped, JudgeUnavailable
from faithguard.judge import prompts
from faithguard.judge.budget import Budget
from faithguard.judge.client import ChatResult, ChatTransport, call_limit
from faithguard.judge.config import JudgeConfig
from faithguard.judge.schemas import (
    DecomposeOut,
    SatisfyOut,
    TermItem,
    TermsOut,
    YesNoOut,
    parse_structured,
    strict_schema,
)
from faithguard.judge.voting import norm_text, vote_decompose, vote_satisfy, vote_terms
from faithguard.models import Category, Constraint, Decomposition, Status, SubQuestion
from faithguard.runner import remaining_budget
from faithguard.scoring import tier_for

__all__ = [
    "Judge",
    "JudgeBudgetExceeded",
    "JudgeCallCapReached",
    "JudgeSkipped",
    "Precheck",
    "SatisfyVerdict",
    "TermLabel",
    "request_key",
]

M = TypeVar("M", bound=BaseModel)

#: Seconds (at most; a fifth of what is left when less) a judge call leaves its detector to finish its
#: offline work after the call gives up. Fixture: tests/judge/test_budgets.py.
_RETURN_MARGIN = 1.0
#: Below this many seconds left, a judge call is not started at all.
_MIN_CALL = 0.2

_SCHEMA_NAMES: dict[type[BaseModel], str] = {
    DecomposeOut: "faithguard_decomposition",
    SatisfyOut: "faithguard_satisfaction",
    TermsOut: "faithguard_terms",
    YesNoOut: "faithguard_yes_no",
}

#: The request (and response) the judge is working for in this thread/task, for the per-request call cap.
_CURRENT: contextvars.ContextVar[tuple[str, str] | None] = contextvars.ContextVar(
    "faithguard_judge_request", default=None
)


class JudgeBudgetExceeded(JudgeUnavailable):
    """The judge's calls-per-minute budget is spent; nothing was sent."""


class JudgeCallCapReached(JudgeSkipped):
    """This request already used its judge calls (``max_calls_per_request``); nothing was sent."""


class JudgeCircuitOpen(JudgeUnavailable):
    """The judge failed to answer recently; calls degrade at once until the pause ends."""


@dataclass(frozen=True)
class SatisfyVerdict:
    """Statuses per constraint id plus whether the judge saw injection attempts."""

    statuses: dict[str, tuple[Status, str]]
    injection_suspected: bool


@dataclass(frozen=True)
class Precheck:
    """What the judge's step 0 found for one request: missing content and injection suspicion."""

    missing_content: list[dict[str, Any]]
    injection_suspected: bool


@dataclass(frozen=True)
class TermLabel:
    """Acceptance label of a term, with the meaning check when a definition was given."""

    acceptance: str
    meaning: str
    reason: str


def _describe(exc: Exception) -> str:
    if isinstance(exc, ValidationError):
        parts = [f"{'.'.join(str(p) for p in e['loc']) or '<root>'}: {e['msg']}" for e in exc.errors()[:8]]
        return "schema mismatch: " + "; ".join(parts)
    return f"not valid JSON: {exc}"


def _unrepaired(exc: Exception) -> JudgeOutputError:
    """Malformed output when the request has no call left for a repair: a failure (degraded), not a skip."""
    return JudgeOutputError(f"judge output unusable and no call left in this request for a repair ({_describe(exc)})")


def request_key(ctx: CallContext) -> str:
    """A stable id of a request (query + documents) used for deterministic sampling."""
    h = hashlib.sha256()
    for part in (ctx.system, ctx.query, *ctx.documents):
        h.update(part.encode("utf-8", "surrogatepass"))
        h.update(b"\x1f")
    return h.hexdigest()


class Judge:
    """An LLM judge over any :class:`ChatTransport` (HTTP client, LangChain model, fake)."""

    def __init__(
        self,
        transport: ChatTransport,
        *,
        model: str | None = None,
        self_consistency: int = 1,
        temperature: float = 0.0,
        calls_per_minute: float | None = None,
        sample_rate: float = 1.0,
        max_concurrency: int = 4,
        clock: Callable[[], float] = time.monotonic,
        question_mode: str = "batch",
        max_calls_per_request: int = 2,
        call_budget: float = 15.0,
        pause_after_failure: float = 30.0,
    ) -> None:
        if self_consistency < 1:
            raise ValueError("self_consistency must be >= 1")
        self.transport = transport
        self.model = model or transport.model
        self.self_consistency = self_consistency
        self.temperature = temperature
        self.budget = Budget(
            calls_per_minute=calls_per_minute, sample_rate=sample_rate, max_concurrency=max_concurrency, clock=clock
        )
        self._prechecks: LRUCache[str, Precheck] = LRUCache(maxsize=1024)
        # Identical (request, response, constraints) are judged once: retries of a guarded call,
        # re-scoring in batch evaluation, a proxy replaying a request.
        self._satisfied: SingleFlightCache[SatisfyVerdict] = SingleFlightCache(maxsize=1024, ttl=3600.0)
        self._precheck_lock = threading.Lock()
        if question_mode not in ("batch", "yes_no"):
            raise ValueError("question_mode must be 'batch' or 'yes_no'")
        self.question_mode = question_mode
        self.max_calls_per_request = max_calls_per_request
        self.call_budget = call_budget
        self.pause_after_failure = pause_after_failure
        self._clock = clock
        self._calls: LRUCache[str, int] = LRUCache(maxsize=4096)
        self._calls_lock = threading.Lock()
        self._paused_until = 0.0
        self._last_failure = ""

    # ------------------------------------------------------------ construction

    @classmethod
    def from_config(cls, config: JudgeConfig, *, tracer: Any = None, **client_options: Any) -> Judge:
        """A judge over :class:`OpenAIChatClient` (``client_options`` go to the client, e.g. transport)."""
        from faithguard.judge.client import OpenAIChatClient

        client = OpenAIChatClient(config, tracer=tracer, **client_options)
        return cls(
            client,
            model=config.model,
            self_consistency=config.self_consistency,
            temperature=config.temperature,
            calls_per_minute=config.calls_per_minute,
            sample_rate=config.sample_rate,
            max_concurrency=config.max_concurrency,
            question_mode=config.question_mode,
            max_calls_per_request=config.max_calls_per_request,
            call_budget=config.call_budget,
        )

    @classmethod
    def from_langchain(cls, chat_model: Any, *, tracer: Any = None, **options: Any) -> Judge:
        """A judge whose transport is any LangChain chat model."""
        from faithguard.judge.langchain import LangChainTransport

        return cls(LangChainTransport(chat_model, tracer=tracer), **options)

    @property
    def name(self) -> str:
        """``judge:<model>``; also the ``decided_by`` of statuses it sets."""
        return f"judge:{self.model}"

    @property
    def cache_key(self) -> str:
        """Everything that changes a verdict: model, prompt version, question mode, sampling settings."""
        return (
            f"{self.model}|{prompts.PROMPT_VERSION}|{self.question_mode}|n={self.self_consistency}"
            f"|t={self.temperature:g}"
        )

    @property
    def detector_budget(self) -> float:
        """Seconds a judge-calling detector may need: every allowed call at its full budget, plus 1 s."""
        return self.call_budget * self.max_calls_per_request + 1.0

    def __repr__(self) -> str:
        return f"Judge(model={self.model!r}, self_consistency={self.self_consistency})"

    def close(self) -> None:
        """Release the transport's connections, when it has any."""
        closer = getattr(self.transport, "close", None)
        if callable(closer):
            closer()

    # ------------------------------------------------------------ gatekeeping

    def sampled(self, ctx: CallContext) -> bool:
        """Whether this request is in the judged sample (deterministic per request)."""
        return self.budget.sampled(request_key(ctx))

    def _gate(self, ctx: CallContext) -> None:
        if not self.sampled(ctx):
            raise JudgeSkipped(f"request not sampled (sample_rate={self.budget.sample_rate:g})")
        _CURRENT.set(self._call_keys(ctx))

    @staticmethod
    def _call_keys(ctx: CallContext) -> tuple[str, str]:
        """(request, request + response): calls made before the response (a decomposition) count for
        every check of that request; calls about a response count for that check only."""
        base = request_key(ctx)
        if ctx.response is None:
            return base, base
        digest = hashlib.sha256(ctx.response.encode("utf-8", "surrogatepass")).hexdigest()
        return base, f"{base}|{digest}"

    def calls_for(self, ctx: CallContext) -> int:
        """Judge calls counted against this request (and its response, when set)."""
        base, key = self._call_keys(ctx)
        with self._calls_lock:
            return self._calls.get(key, 0) + (self._calls.get(base, 0) if key != base else 0)

    def _admit(self) -> None:
        now = self._clock()
        if now < self._paused_until:
            raise JudgeCircuitOpen(
                f"judge paused for {self._paused_until - now:.0f}s after failing to answer ({self._last_failure})"
            )
        self._charge()
        if not self.budget.admit():
            raise JudgeBudgetExceeded(f"judge budget spent ({self.budget.calls_per_minute:g} calls/minute)")

    def _charge(self) -> None:
        """Count one HTTP call (a repair included) against the request's cap, which is
        ``max_calls_per_request`` x ``self_consistency`` (each sample is its own call)."""
        keys = _CURRENT.get()
        if keys is None:
            return
        base, key = keys
        cap = self.max_calls_per_request * self.self_consistency
        with self._calls_lock:
            used = self._calls.get(key, 0) + (self._calls.get(base, 0) if key != base else 0)
            if used >= cap:
                raise JudgeCallCapReached(f"this request already used {used} judge calls")
            self._calls[key] = self._calls.get(key, 0) + 1

    def _call_limit(self) -> float | None:
        """Seconds this call may take so the calling detector still returns its offline result in time.

        None when the detector's budget leaves the judge its full ``call_budget`` (or there is no
        budget, outside a guarded call). Raises :class:`JudgeUnavailable` when too little is left to ask.
        """
        left = remaining_budget()
        if left is None:
            return None
        limit = left - min(_RETURN_MARGIN, 0.2 * left)
        if limit < _MIN_CALL:
            raise JudgeUnavailable(f"only {left:.1f}s left in the detector's budget: too little for a judge call")
        return limit if limit < self.call_budget else None

    def _failed(self, exc: JudgeError) -> None:
        """A judge that could not answer (timeout, unreachable, 5xx after retries) is paused briefly."""
        if isinstance(exc, JudgeUnavailable) and not isinstance(exc, JudgeSkipped | JudgeCircuitOpen):
            self._paused_until = self._clock() + self.pause_after_failure
            self._last_failure = str(exc)[:120]

    def _schema(self, out: type[M]) -> tuple[str, dict[str, Any]]:
        return _SCHEMA_NAMES[out], strict_schema(out)

    # ------------------------------------------------------------ one structured call (sync / async)

    def _send(self, messages: prompts.Prompt, out: type[M]) -> ChatResult:
        limit = self._call_limit()
        self._admit()
        name, schema = self._schema(out)
        with self.budget.thread_slot, call_limit(limit):
            try:
                return self.transport.chat(messages, name, schema, temperature=self.temperature)
            except JudgeError as exc:
                if limit is None:  # a call cut short by the detector's budget says nothing about the judge
                    self._failed(exc)
                raise

    async def _asend(self, messages: prompts.Prompt, out: type[M]) -> ChatResult:
        limit = self._call_limit()
        self._admit()
        name, schema = self._schema(out)
        async with self.budget.async_slot():
            with call_limit(limit):
                try:
                    return await self.transport.achat(messages, name, schema, temperature=self.temperature)
                except JudgeError as exc:
                    if limit is None:
                        self._failed(exc)
                    raise

    @staticmethod
    def _repair_prompt(messages: prompts.Prompt, bad: str, exc: Exception) -> prompts.Prompt:
        return [*messages, {"role": "assistant", "content": bad[:4000]}, prompts.repair_message(_describe(exc))]

    @staticmethod
    def _final_parse(content: str, out: type[M]) -> M:
        try:
            return parse_structured(content, out)
        except ValueError as exc:
            raise JudgeOutputError(f"judge output unusable after one repair ({_describe(exc)})") from exc

    def _structured(self, messages: prompts.Prompt, out: type[M]) -> M:
        first = self._send(messages, out)
        try:
            return parse_structured(first.content, out)
        except ValueError as exc:
            try:
                second = self._send(self._repair_prompt(messages, first.content, exc), out)
            except JudgeCallCapReached as capped:
                raise _unrepaired(exc) from capped
            return self._final_parse(second.content, out)

    async def _astructured(self, messages: prompts.Prompt, out: type[M]) -> M:
        first = await self._asend(messages, out)
        try:
            return parse_structured(first.content, out)
        except ValueError as exc:
            try:
                second = await self._asend(self._repair_prompt(messages, first.content, exc), out)
            except JudgeCallCapReached as capped:
                raise _unrepaired(exc) from capped
            return self._final_parse(second.content, out)

    def _samples(self, build: Callable[[], prompts.Prompt], out: type[M]) -> list[M]:
        results: list[M] = []
        error: JudgeError | None = None
        for _ in range(self.self_consistency):
            try:
                results.append(self._structured(build(), out))
            except JudgeError as exc:
                error = exc
                if isinstance(exc, JudgeUnavailable):
                    break
        if not results:
            raise error or JudgeError("judge produced no sample")
        return results

    async def _asamples(self, build: Callable[[], prompts.Prompt], out: type[M]) -> list[M]:
        gathered = await asyncio.gather(
            *(self._astructured(build(), out) for _ in range(self.self_consistency)), return_exceptions=True
        )
        results = [g for g in gathered if not isinstance(g, BaseException)]
        if not results:
            first_error = next(g for g in gathered if isinstance(g, BaseException))
            raise first_error
        return results

    # ------------------------------------------------------------ decompose

    def _decompose_prompt(self, ctx: CallContext) -> Callable[[], prompts.Prompt]:
        history = [f"{m.role}: {m.content}" for m in ctx.history if m.content]
        return lambda: prompts.decompose_prompt(ctx.query, ctx.documents, history)

    def precheck(self, ctx: CallContext) -> Precheck | None:
        """Step-0 result of the last decomposition of this exact request (query + documents), if any."""
        with self._precheck_lock:
            return self._prechecks.get(request_key(ctx))

    def _to_decomposition(self, ctx: CallContext, out: DecomposeOut) -> tuple[Decomposition, list[dict[str, Any]]]:
        texts = [s.text.strip() for s in out.subquestions if s.text.strip()] or [ctx.query]
        n = len(texts)
        subs = [SubQuestion(index=i, text=t, position=(i / (n - 1) if n > 1 else 0.0)) for i, t in enumerate(texts)]
        constraints: list[Constraint] = []
        seen: set[tuple[str, bool]] = set()
        for item in out.constraints:
            key = (norm_text(item.text), item.negated)
            if not key[0] or key in seen:
                continue
            seen.add(key)
            constraints.append(
                Constraint(
                    id=f"c{len(constraints) + 1}",
                    text=item.text.strip(),
                    category=Category(item.category),
                    tier=tier_for(item.category),
                    negated=item.negated,
                    subquestion=min(item.subquestion, n - 1),
                )
            )
        missing = [
            {"reference": m.reference, "expected": m.expected, "found": m.found, "explanation": m.explanation}
            for m in out.missing_content
            if m.found < m.expected and m.reference.strip()
        ]
        task = out.task.strip().lower() or None
        with self._precheck_lock:
            self._prechecks[request_key(ctx)] = Precheck(missing, out.injection_suspected)
        decomposition = Decomposition(subquestions=subs, constraints=constraints, task=task, decomposer=self.name)
        return decomposition, missing

    def decompose_with_precheck(self, ctx: CallContext) -> tuple[Decomposition, list[dict[str, Any]]]:
        """One call: the decomposition plus the missing-content entries (``findings['missing_content']`` shape)."""
        self._gate(ctx)
        out = vote_decompose(self._samples(self._decompose_prompt(ctx), DecomposeOut))
        return self._to_decomposition(ctx, out)

    async def adecompose_with_precheck(self, ctx: CallContext) -> tuple[Decomposition, list[dict[str, Any]]]:
        """Async twin of :meth:`decompose_with_precheck`."""
        self._gate(ctx)
        out = vote_decompose(await self._asamples(self._decompose_prompt(ctx), DecomposeOut))
        return self._to_decomposition(ctx, out)

    def decompose(self, ctx: CallContext) -> Decomposition:
        """Sub-questions and constraints of ``ctx.query`` (tiers from the categories)."""
        return self.decompose_with_precheck(ctx)[0]

    async def adecompose(self, ctx: CallContext) -> Decomposition:
        """Async twin of :meth:`decompose`."""
        return (await self.adecompose_with_precheck(ctx))[0]

    # ------------------------------------------------------------ satisfy

    @staticmethod
    def _response(ctx: CallContext) -> str:
        if ctx.response is None:
            raise InputError("the judge needs ctx.response for this check")
        return ctx.response

    def _satisfy_prompt(self, ctx: CallContext, constraints: Sequence[Constraint]) -> Callable[[], prompts.Prompt]:
        response = self._response(ctx)
        return lambda: prompts.satisfy_prompt(ctx.query, response, constraints, ctx.documents)

    @staticmethod
    def _to_statuses(samples: Sequence[SatisfyOut], constraints: Sequence[Constraint]) -> SatisfyVerdict:
        votes = vote_satisfy(samples, [c.id for c in constraints])
        statuses: dict[str, tuple[Status, str]] = {}
        for cid, (decision, reason) in votes.items():
            status = Status.UNKNOWN if decision is None else (Status.SATISFIED if decision else Status.VIOLATED)
            statuses[cid] = (status, reason.strip())
        return SatisfyVerdict(statuses, any(s.injection_suspected for s in samples))

    def _yes_no_prompt(self, ctx: CallContext, constraints: Sequence[Constraint]) -> Callable[[], prompts.Prompt]:
        response = self._response(ctx)
        return lambda: prompts.yes_no_prompt(ctx.query, response, constraints, ctx.documents)

    @staticmethod
    def _yes_no_statuses(samples: Sequence[YesNoOut], constraints: Sequence[Constraint]) -> SatisfyVerdict:
        """Majority of the samples' answers per question; a missing or 'unsure' answer stays unknown."""
        statuses: dict[str, tuple[Status, str]] = {}
        for i, c in enumerate(constraints):
            votes = [s.answers[i] for s in samples if i < len(s.answers) and s.answers[i] != "unsure"]
            if not votes:
                continue
            yes = votes.count("yes")
            if yes * 2 == len(votes):
                statuses[c.id] = (Status.UNKNOWN, "split vote")
            else:
                statuses[c.id] = (Status.SATISFIED if yes * 2 > len(votes) else Status.VIOLATED, "yes/no question")
        return SatisfyVerdict(statuses, False)

    def satisfy_detailed(self, ctx: CallContext, constraints: list[Constraint]) -> SatisfyVerdict:
        """All constraints in one call: statuses plus the judge's injection flag."""
        if not constraints:
            return SatisfyVerdict({}, False)
        self._gate(ctx)
        if self.question_mode == "yes_no":
            ask = self._yes_no_prompt(ctx, constraints)
            return self._satisfied.get_or_compute(
                self._satisfy_key(ctx, constraints),
                lambda: self._yes_no_statuses(self._samples(ask, YesNoOut), constraints),
            )
        build = self._satisfy_prompt(ctx, constraints)
        return self._satisfied.get_or_compute(
            self._satisfy_key(ctx, constraints),
            lambda: self._to_statuses(self._samples(build, SatisfyOut), constraints),
        )

    async def asatisfy_detailed(self, ctx: CallContext, constraints: list[Constraint]) -> SatisfyVerdict:
        """Async twin of :meth:`satisfy_detailed`."""
        if not constraints:
            return SatisfyVerdict({}, False)
        self._gate(ctx)
        if self.question_mode == "yes_no":
            ask = self._yes_no_prompt(ctx, constraints)

            async def compute_yes_no() -> SatisfyVerdict:
                return self._yes_no_statuses(await self._asamples(ask, YesNoOut), constraints)

            return await self._satisfied.aget_or_compute(self._satisfy_key(ctx, constraints), compute_yes_no)
        build = self._satisfy_prompt(ctx, constraints)

        async def compute() -> SatisfyVerdict:
            return self._to_statuses(await self._asamples(build, SatisfyOut), constraints)

        return await self._satisfied.aget_or_compute(self._satisfy_key(ctx, constraints), compute)

    def _satisfy_key(self, ctx: CallContext, constraints: Sequence[Constraint]) -> str:
        """A digest of everything a satisfaction verdict depends on (never the raw text in memory twice)."""
        h = hashlib.sha256(self.cache_key.encode())
        parts = [ctx.query, ctx.system, ctx.response or "", *ctx.documents]
        parts += [f"{c.id}|{c.category}|{c.negated}|{c.text}" for c in constraints]
        for part in parts:
            h.update(b"\x1f" + part.encode("utf-8", "surrogatepass"))
        return h.hexdigest()

    def satisfy(self, ctx: CallContext, constraints: list[Constraint]) -> dict[str, tuple[Status, str]]:
        """Binary status with a short reason per constraint id; ids the judge skipped are absent."""
        return self.satisfy_detailed(ctx, constraints).statuses

    async def asatisfy(self, ctx: CallContext, constraints: list[Constraint]) -> dict[str, tuple[Status, str]]:
        """Async twin of :meth:`satisfy`."""
        return (await self.asatisfy_detailed(ctx, constraints)).statuses

    # ------------------------------------------------------------ terms

    def _terms_prompt(
        self, ctx: CallContext, terms: Sequence[str], definitions: Mapping[str, str] | None
    ) -> Callable[[], prompts.Prompt]:
        response = self._response(ctx)
        return lambda: prompts.terms_prompt(ctx.query, response, terms, definitions)

    @staticmethod
    def _to_labels(voted: Mapping[str, TermItem]) -> dict[str, TermLabel]:
        return {t: TermLabel(i.acceptance, i.meaning, i.reason.strip()) for t, i in voted.items()}

    def classify_terms_detailed(
        self, ctx: CallContext, terms: list[str], definitions: Mapping[str, str] | None = None
    ) -> dict[str, TermLabel]:
        """Acceptance and meaning labels for every term of one response, in one call."""
        terms = list(dict.fromkeys(t for t in terms if t.strip()))
        if not terms:
            return {}
        build = self._terms_prompt(ctx, terms, definitions)
        self._gate(ctx)
        return self._to_labels(vote_terms(self._samples(build, TermsOut), terms))

    async def aclassify_terms_detailed(
        self, ctx: CallContext, terms: list[str], definitions: Mapping[str, str] | None = None
    ) -> dict[str, TermLabel]:
        """Async twin of :meth:`classify_terms_detailed`."""
        terms = list(dict.fromkeys(t for t in terms if t.strip()))
        if not terms:
            return {}
        build = self._terms_prompt(ctx, terms, definitions)
        self._gate(ctx)
        return self._to_labels(vote_terms(await self._asamples(build, TermsOut), terms))

    def classify_terms(
        self, ctx: CallContext, terms: list[str], definitions: Mapping[str, str] | None = None
    ) -> dict[str, str]:
        """term -> UNREAL / MENTIONED / UNKNOWN / ABSENT (terms the judge skipped are absent)."""
        return {t: label.acceptance for t, label in self.classify_terms_detailed(ctx, terms, definitions).items()}

    async def aclassify_terms(
        self, ctx: CallContext, terms: list[str], definitions: Mapping[str, str] | None = None
    ) -> dict[str, str]:
        """Async twin of :meth:`classify_terms`."""
        labels = await self.aclassify_terms_detailed(ctx, terms, definitions)
        return {t: label.acceptance for t, label in labels.items()}
