"""Built-in plugin: the "judge" decomposer, the "judge" output detector, judge factories and spec resolver."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

from faithguard.detector import CallContext, Decomposer, Detector, Judge
from faithguard.errors import ConfigError, JudgeSkipped
from faithguard.hookspecs import hookimpl
from faithguard.judge import resolve_judge
from faithguard.judge.config import JudgeConfig
from faithguard.judge.judge import Judge as LLMJudge
from faithguard.judging import judge_name, looks_like_injection, untrusted
from faithguard.models import Decomposition, DetectorResult, Status

__all__ = [
    "JudgeDecomposer",
    "JudgeDetector",
    "JudgePrecheckDetector",
    "JudgeSpecResolver",
    "register_decomposers",
    "register_detectors",
    "register_judge_resolvers",
    "register_judges",
]


class JudgeDecomposer:
    """Decomposes with ``ctx.judge``; the guard falls back to the offline decomposer on any error."""

    name = "judge"
    #: The guard gives it at least the judge's own budget (``Judge.detector_budget``).
    calls_judge = True
    #: One judgement: JudgeConfig's default call_budget (15 s) + 1 s; past it the offline decomposer takes over.
    timeout: float | None = 16.0

    def decompose(self, ctx: CallContext) -> Decomposition:
        """``ctx.judge.decompose(ctx)``; ConfigError when no judge is configured."""
        if ctx.judge is None:
            raise ConfigError("the 'judge' decomposer needs a configured judge")
        try:
            result: Decomposition = ctx.judge.decompose(ctx)
        except JudgeSkipped:
            ctx.judge_use.record("skipped", "decompose: not sampled or over budget")
            raise
        except Exception as exc:
            ctx.judge_use.record("degraded", f"decompose: {type(exc).__name__}")
            raise
        ctx.judge_use.record("ok", "decompose")
        return result


class JudgePrecheckDetector:
    """Input stage: shares the judge's step-0 result (missing content, injection) for this request.

    Makes no call: it reads what the "judge" decomposer found for this exact
    query + documents (nothing when the guard served a cached decomposition made
    for other documents). Sets ``findings['judge_missing_content']`` (the
    ``missing_content`` entry shape) and ``findings['prompt_injection']``.
    """

    name = "judge_precheck"
    stage: Literal["input", "output"] = "input"
    order = 40
    timeout: float | None = None

    def run(self, ctx: CallContext) -> DetectorResult:
        """Copy the judge's precheck into findings."""
        findings: dict[str, Any] = {}
        if ctx.judge is None:
            return DetectorResult()
        if any(looks_like_injection(doc) for doc in ctx.documents):
            findings["prompt_injection"] = True
        reader = getattr(ctx.judge, "precheck", None)
        pre = reader(ctx) if callable(reader) else None
        if pre is not None:
            findings["judge_missing_content"] = list(pre.missing_content)
            if pre.injection_suspected:
                findings["prompt_injection"] = True
        return DetectorResult(findings=findings)


class JudgeDetector:
    """Output stage: asks the judge about constraints the offline layers left UNKNOWN, in one call.

    Never overrides a status already decided (by a verifier, the offline engine or the semantic
    layer), and never raises: a failing judge records ``degraded`` in ``ctx.judge_use`` and makes no updates.
    When the response or documents look like a prompt injection (or the judge says so), a judge's
    "satisfied" is not trusted alone: only its violations are applied and the status is degraded.
    """

    name = "judge"
    stage: Literal["input", "output"] = "output"
    order = 200
    calls_judge = True
    #: Tied to the judge's own budget: JudgeConfig's default call_budget (15 s) x max_calls_per_request (2)
    #: + 1 s, the value of ``Judge.detector_budget``; a guard should prefer that when it has the judge.
    timeout: float | None = 31.0

    def run(self, ctx: CallContext) -> DetectorResult:
        """Judge the still-unknown constraints; report ok/degraded in findings."""
        if ctx.judge is None:
            return DetectorResult()
        judge = ctx.judge
        name = judge_name(judge)
        findings: dict[str, Any] = {}
        if untrusted(ctx):
            findings["prompt_injection"] = True
        pending = [c for c in ctx.constraints if c.status is Status.UNKNOWN and c.decided_by != "verifier"]
        if not pending:  # nothing asked: the judge state stays what earlier steps made it ("unused" if none)
            return DetectorResult(findings=findings)
        try:
            detailed = getattr(judge, "satisfy_detailed", None)
            if callable(detailed):
                verdict = detailed(ctx, pending)
                statuses = verdict.statuses
                if verdict.injection_suspected:
                    findings["prompt_injection"] = True
            else:
                statuses = judge.satisfy(ctx, pending)
        except JudgeSkipped as exc:  # sampled out or over budget by design: not a failure
            ctx.judge_use.record("skipped", f"{name}: {exc}"[:300])
            return DetectorResult(findings=findings)
        except Exception as exc:  # noqa: BLE001 - the judge must never make the call fragile
            # the type only: an upstream error text may echo the request body
            ctx.judge_use.record("degraded", f"{name}: {type(exc).__name__}")
            return DetectorResult(findings=findings)
        pending_ids = {c.id for c in pending}
        untrusted_pass = bool(findings.get("prompt_injection") or ctx.findings.get("prompt_injection"))
        updates: dict[str, tuple[Status, str | None]] = {}
        withheld = 0
        for cid, (status, reason) in statuses.items():
            if cid not in pending_ids or Status(status) is Status.UNKNOWN:
                continue
            if untrusted_pass and Status(status) is Status.SATISFIED:
                withheld += 1
                continue
            updates[cid] = (Status(status), f"{name}: {reason}" if reason else name)
        answered = sum(1 for cid in pending_ids if cid in statuses)
        reason = f"{name} decided {len(updates)} of {len(pending)} constraints"
        if answered < len(pending):
            reason += f" ({len(pending) - answered} not answered)"
        if untrusted_pass:
            reason = f"prompt injection suspected: {withheld} judge pass(es) not trusted alone; {reason}"
            ctx.judge_use.record("degraded", reason)
        else:
            ctx.judge_use.record("ok", reason)  # an earlier degraded step stays degraded (worst state wins)
        return DetectorResult(updates=updates, findings=findings, deciders=dict.fromkeys(updates, name))


class JudgeSpecResolver:
    """Reads the ``Guard(judge=...)`` specs of :func:`faithguard.judge.resolve_judge`: ``"env"`` (the
    FAITHGUARD_JUDGE_* variables; no judge when they are unset), a ``JudgeConfig``, a built judge, and a
    LangChain chat model (an object with a callable ``invoke``)."""

    accepted = "'env', a JudgeConfig or a chat model"

    def accepts(self, spec: object) -> bool:
        """Whether :func:`~faithguard.judge.resolve_judge` builds a judge (or none) from ``spec``."""
        if isinstance(spec, str):
            return spec == "env"
        return isinstance(spec, JudgeConfig | LLMJudge) or callable(getattr(spec, "invoke", None))

    def resolve(self, spec: object, *, tracer: Any = None) -> Judge | None:
        """The judge ``spec`` describes (None for ``"env"`` with nothing set)."""
        return resolve_judge(spec, tracer=tracer)


def _openai_factory(**options: Any) -> Any:
    tracer = options.pop("tracer", None)
    return LLMJudge.from_config(JudgeConfig(**options), tracer=tracer)


def _langchain_factory(chat_model: Any = None, **options: Any) -> Any:
    if chat_model is None:
        raise ConfigError("the 'langchain' judge needs chat_model=<a LangChain chat model>")
    tracer = options.pop("tracer", None)
    return LLMJudge.from_langchain(chat_model, tracer=tracer, **options)


@hookimpl
def register_decomposers(register: Callable[[Decomposer], None]) -> None:
    """The "judge" decomposer."""
    register(JudgeDecomposer())


@hookimpl
def register_detectors(register: Callable[[Detector], None]) -> None:
    """The "judge_precheck" input detector (order 40) and the "judge" output detector (order 200)."""
    register(JudgePrecheckDetector())
    register(JudgeDetector())


@hookimpl
def register_judges(register: Callable[[str, Callable[..., Any]], None]) -> None:
    """Factories: "openai" (JudgeConfig fields as kwargs) and "langchain" (chat_model=...)."""
    register("openai", _openai_factory)
    register("langchain", _langchain_factory)


@hookimpl
def register_judge_resolvers(register: Callable[[JudgeSpecResolver], None]) -> None:
    """The resolver of "env", ``JudgeConfig``, judge and chat-model specs."""
    register(JudgeSpecResolver())
