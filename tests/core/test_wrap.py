from __future__ import annotations

import asyncio

import pytest

from faithguard import Action, AnnotatedText, HallucinationBlocked, Policy, Report, Rule, Severity, Verdict
from faithguard.testing import ScriptedLLM, StaticDetector

from .helpers import bare_guard

GOOD = "Paris has three museum gems worth a visit."
BAD = "The Louvre is big."
MISSING = StaticDetector(
    [Verdict(kind="missing_content", severity=Severity.CRITICAL)],
    clarification="Please paste the article.",
)


def test_observe_never_changes_result() -> None:
    llm = ScriptedLLM([BAD])
    out = bare_guard().wrap(llm)("Museums in Paris?")
    assert out == BAD and type(out) is str


def test_annotate_attaches_report_for_str_dict_and_object() -> None:
    guard = bare_guard(policy=Policy.annotate())
    out = guard.wrap(ScriptedLLM([BAD]))("Museums in Paris?")
    assert isinstance(out, AnnotatedText) and out == BAD and isinstance(out.report, Report)
    assert out.report.constraint_score is not None and out.report.constraint_score < 7
    comp = guard.wrap(ScriptedLLM([GOOD], shape="completion"))(messages=[{"role": "user", "content": "Museums?"}])
    assert comp["faithguard"]["band"] == "aligned" and comp["choices"][0]["message"]["content"] == GOOD

    class Obj:
        def __init__(self) -> None:
            self.content = GOOD

    obj = guard.wrap(lambda prompt: Obj())("Museums?")
    assert obj.faithguard_report.perfect


def test_block_raises_or_falls_back() -> None:
    policy = Policy.block(["omission", "*"], min_severity="info")
    report_kinds: list[str] = []

    class Omission:
        name, stage, order, timeout = "omission", "output", 300, None

        def run(self, ctx):  # type: ignore[no-untyped-def]
            from faithguard import DetectorResult

            bad = [c.id for c in ctx.constraints if c.status == "violated"]
            return DetectorResult(
                verdicts=[Verdict(kind="omission", severity="critical", constraint_ids=bad)] if bad else []
            )

    guard = bare_guard(extra=[Omission()])
    with pytest.raises(HallucinationBlocked) as info:
        guard.wrap(ScriptedLLM([BAD]), policy=policy)("Museums in Paris?")
    assert info.value.report.verdicts[0].kind == "omission"
    report_kinds.append(info.value.report.verdicts[0].kind)
    fb = Policy.block(["omission"], min_severity="warning", fallback="Sorry, let me try again.")
    out = guard.wrap(ScriptedLLM([BAD]), policy=fb)("Museums in Paris?")
    assert out == "Sorry, let me try again." and out.report.verdicts
    assert guard.wrap(ScriptedLLM([GOOD]), policy=policy)("Museums?") == GOOD


def test_input_block_before_any_token_with_clarification() -> None:
    llm = ScriptedLLM([GOOD])
    guard = bare_guard(extra=[MISSING])
    out = guard.wrap(llm, policy=Policy.block(["missing_content"]))("Summarise the article.")
    assert out == "Please paste the article." and llm.prompts == []
    strict = Policy(
        rules=(Rule(kind="missing_content", min_severity=Severity.CRITICAL, action=Action.BLOCK),),
        clarify_missing_content=False,
    )
    with pytest.raises(HallucinationBlocked):
        guard.wrap(llm, policy=strict)("Summarise the article.")
    assert llm.prompts == []


def test_sync_stream_passes_chunks_and_scores_at_end() -> None:
    reports: list[Report] = []
    llm = ScriptedLLM([GOOD], shape="stream")
    stream = bare_guard().wrap(llm, on_report=reports.append)("Museums in Paris?")
    assert reports == []  # nothing scored before the stream is consumed
    chunks = list(stream)
    assert "".join(c["choices"][0]["delta"]["content"] for c in chunks).strip() == GOOD
    assert len(reports) == 1 and reports[0].response.strip() == GOOD and reports[0].perfect


def test_async_function_and_async_stream() -> None:
    reports: list[Report] = []
    guard = bare_guard(policy=Policy.annotate())
    llm = ScriptedLLM([GOOD, BAD], shape="text")

    @guard.wrap(on_report=reports.append)
    async def ask(prompt: str) -> object:
        return await llm.acall(prompt)

    async def main() -> list[object]:
        first = await ask("Museums in Paris?")
        streaming = ScriptedLLM([BAD], shape="stream")

        async def astream(prompt: str) -> object:
            return await streaming.acall(prompt)

        gen = await guard.wrap(astream, on_report=reports.append)("Museums in Paris?")
        chunks = [c async for c in gen]
        return [first, chunks]

    first, chunks = asyncio.run(main())
    assert isinstance(first, AnnotatedText) and first.report is not None and first.report.perfect
    assert len(chunks) == len(BAD.split(" "))
    assert [r.perfect for r in reports] == [True, False]


def test_wrapped_call_errors_propagate_untouched() -> None:
    def boom(prompt: str) -> str:
        raise TimeoutError("upstream slow")

    with pytest.raises(TimeoutError, match="upstream slow"):
        bare_guard().wrap(boom)("q")


def test_unguardable_input_passes_through() -> None:
    assert bare_guard().wrap(lambda x: "ok")(12345) == "ok"


def test_background_scoring_flushes_every_report() -> None:
    reports: list[Report] = []
    guard = bare_guard(background=True, queue_size=4)
    fn = guard.wrap(ScriptedLLM([GOOD, BAD]), on_report=reports.append)
    outs = [fn("Museums in Paris?") for _ in range(20)]
    assert all(isinstance(o, str) for o in outs)
    assert guard.flush(timeout=30)
    assert len(reports) == 20
    guard.close()
    guard.close()  # idempotent


def test_policy_decide() -> None:
    w = Verdict(kind="unknown_term", severity="warning")
    c = Verdict(kind="fabricated_term", severity="critical")
    p = Policy.block(["fabricated_term"], min_severity="critical")
    assert p.decide([]) is Action.ANNOTATE  # an annotate default attaches the report even when clean
    assert Policy.observe().decide([]) is Action.OBSERVE
    assert p.decide([w]) is Action.ANNOTATE
    assert p.decide([w, c]) is Action.BLOCK
    assert Policy().decide([c]) is Action.OBSERVE
    strict = Policy(default=Action.BLOCK)  # block on any verdict, pass clean results
    assert strict.decide([]) is Action.OBSERVE and strict.decide([w]) is Action.BLOCK
    assert bare_guard().wrap(lambda p: "Paris museum three", policy=strict)("q") == "Paris museum three"


def _root_spans(exporter: object) -> list[object]:
    return [s for s in exporter.get_finished_spans() if s.name.startswith("guard ")]  # type: ignore[attr-defined]


def _traced(**kw: object) -> tuple[object, object]:
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import SimpleSpanProcessor
    from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    return bare_guard(tracer_provider=provider, **kw), exporter


@pytest.mark.parametrize("content", [{"type": "text", "text": "Paris has three museum gems."}, 42])
def test_an_answer_that_is_not_text_returns_untouched_with_an_undetermined_report(content: object) -> None:
    """Content of the wrong shape is the model's (or SDK's) doing: the caller still gets its result, the call ends
    with an undetermined report instead of raising and leaving its span open."""
    guard, exporter = _traced()
    reports: list[Report] = []
    result = {"choices": [{"message": {"role": "assistant", "content": content}}]}
    assert guard.wrap(lambda prompt: result, on_report=reports.append)("Museums in Paris?") is result

    async def ask(prompt: str) -> object:
        return result

    assert asyncio.run(guard.wrap(ask, on_report=reports.append)("Museums in Paris?")) is result
    assert [r.outcome for r in reports] == ["undetermined", "undetermined"]
    assert all(any(x.startswith("unreadable_answer") for x in r.outcome_reasons) for r in reports)
    assert len(_root_spans(exporter)) == 2


def test_an_async_call_cancelled_during_the_input_stage_still_ends_with_a_report() -> None:
    import threading
    import time

    from faithguard import DetectorResult

    started = threading.Event()

    class SlowInput:
        name, stage, order, timeout = "slow_input", "input", 10, None

        def run(self, ctx: object) -> DetectorResult:
            started.set()
            time.sleep(0.3)
            return DetectorResult()

    guard, exporter = _traced(extra=[SlowInput()])
    reports: list[Report] = []

    @guard.wrap(on_report=reports.append)
    async def ask(prompt: str) -> str:
        return GOOD

    async def main() -> None:
        with pytest.raises(TimeoutError):
            await asyncio.wait_for(ask("Museums in Paris?"), timeout=0.05)
        assert started.is_set()
        for _ in range(100):  # the input stage's thread finishes; the call then ends
            if reports:
                break
            await asyncio.sleep(0.05)

    asyncio.run(main())
    assert len(reports) == 1 and reports[0].outcome == "undetermined"
    assert any(x.startswith("call_failed") for x in reports[0].outcome_reasons)
    assert len(_root_spans(exporter)) == 1


@pytest.mark.parametrize("fallback", [None, "Sorry, I cannot answer that."])
def test_a_blocking_policy_raises_after_the_last_chunk_of_a_stream(fallback: str | None) -> None:
    # with a fallback too: the chunks are delivered, the fallback cannot replace them, and silence would hide the block
    policy = Policy.block(["omission"], min_severity="info", fallback=fallback)

    class Omission:
        name, stage, order, timeout = "omission", "output", 300, None

        def run(self, ctx):  # type: ignore[no-untyped-def]
            from faithguard import DetectorResult

            bad = [c.id for c in ctx.constraints if c.status == "violated"]
            return DetectorResult(verdicts=[Verdict(kind="omission", severity="critical", constraint_ids=bad)])

    guard = bare_guard(extra=[Omission()])
    stream = guard.wrap(ScriptedLLM([BAD], shape="stream"), policy=policy)("Museums in Paris?")
    got: list[object] = []
    with pytest.raises(HallucinationBlocked):
        for chunk in stream:
            got.append(chunk)
    assert len(got) == len(BAD.split(" "))  # every chunk was delivered before the block


def test_a_stream_closed_early_or_never_read_ends_undetermined_not_failed() -> None:
    import gc

    guard, exporter = _traced()
    reports: list[Report] = []
    fn = guard.wrap(ScriptedLLM([GOOD, GOOD], shape="stream"), on_report=reports.append)
    stream = fn("Museums in Paris?")
    next(iter(stream))
    stream.close()  # the consumer stopped reading: nothing failed
    unread = fn("Museums in Paris?")
    del unread
    gc.collect()
    reasons = [r.outcome_reasons for r in reports]
    assert [r.outcome for r in reports] == ["undetermined", "undetermined"]
    assert any(x.startswith("stream_closed") for x in reasons[0])
    assert any(x.startswith("stream_unread") for x in reasons[1])
    assert not any(x.startswith("call_failed") for rs in reasons for x in rs)
    assert len(_root_spans(exporter)) == 2


def test_a_stream_scored_in_the_background_gets_one_report() -> None:
    """Read to its end, the stream's answer is queued for scoring; dropping the spent generator must not end the
    call a second time as unread (it had delivered a stream_unread report and corrupted the real one)."""
    reports: list[Report] = []
    guard = bare_guard(background=True)
    stream = guard.wrap(ScriptedLLM([GOOD], shape="stream"), on_report=reports.append)("Museums in Paris?")
    for _ in stream:
        pass
    del stream
    assert guard.flush(timeout=30)
    assert len(reports) == 1 and reports[0].perfect
    assert not any(r.startswith("stream_") for r in reports[0].outcome_reasons)
    guard.close()
