"""LangChain: the observe-mode callback handler and the enforce-mode GuardRunnable, with real langchain-core."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import pytest
from integ_support import BAD, GOOD, make_guard, missing_content_detector
from langchain_core.callbacks import CallbackManagerForRetrieverRun
from langchain_core.documents import Document
from langchain_core.language_models.fake_chat_models import FakeListChatModel, GenericFakeChatModel
from langchain_core.messages import AIMessage, AIMessageChunk
from langchain_core.prompts import ChatPromptTemplate
from langchain_core.retrievers import BaseRetriever
from langchain_core.runnables import RunnablePassthrough

from faithguard import Guard, HallucinationBlocked, Policy
from faithguard.integrations.langchain import FaithGuardCallbackHandler, GuardRunnable
from faithguard.wrapping import AnnotatedText

QUESTION = "Which museum in Paris should I visit?"
DOC = "The Louvre is the largest museum in Paris."


class MemoryRetriever(BaseRetriever):
    """Returns its documents whose text shares a word with the query."""

    docs: list[Document]

    def _get_relevant_documents(self, query: str, *, run_manager: CallbackManagerForRetrieverRun) -> list[Document]:
        words = set(query.lower().split())
        return [d for d in self.docs if words & set(d.page_content.lower().split())]


def rag_chain(replies: list[str]) -> Any:
    retriever = MemoryRetriever(docs=[Document(page_content=DOC), Document(page_content="Bananas are yellow.")])
    prompt = ChatPromptTemplate.from_messages([("system", "Answer from: {context}"), ("human", "{question}")])
    return {"context": retriever, "question": RunnablePassthrough()} | prompt | FakeListChatModel(responses=replies)


def test_handler_joins_retrieved_documents_and_scores(guard: Guard) -> None:
    handler = FaithGuardCallbackHandler(guard)
    out = rag_chain([BAD]).invoke(QUESTION, config={"callbacks": [handler]})
    assert out.content == BAD  # observe never changes the result
    (report,) = handler.reports.values()
    assert report.query == QUESTION
    assert report.findings["documents_seen"] == 1 and report.findings["documents_text"] == DOC
    assert [v.kind for v in report.verdicts] == ["omission"]


def test_handler_never_raises_by_default_and_raises_when_asked(guard: Guard) -> None:
    quiet = FaithGuardCallbackHandler(guard, policy=Policy.block(["omission"]))
    assert rag_chain([BAD]).invoke(QUESTION, config={"callbacks": [quiet]}).content == BAD
    loud = FaithGuardCallbackHandler(guard, raise_error=True, policy=Policy.block(["omission"]))
    with pytest.raises(HallucinationBlocked):
        rag_chain([BAD]).invoke(QUESTION, config={"callbacks": [loud]})
    assert rag_chain([GOOD]).invoke(QUESTION, config={"callbacks": [loud]}).content == GOOD


def test_handler_bare_model_and_async(guard: Guard) -> None:
    handler = FaithGuardCallbackHandler(guard)
    FakeListChatModel(responses=[GOOD]).invoke(QUESTION, config={"callbacks": [handler]})
    asyncio.run(rag_chain([BAD]).ainvoke(QUESTION, config={"callbacks": [handler]}))
    scores = [r.constraint_score for r in handler.reports.values()]
    assert scores == [10.0, 0.0]


def test_handler_reports_are_bounded(guard: Guard) -> None:
    handler = FaithGuardCallbackHandler(guard, max_runs=3)
    model = FakeListChatModel(responses=[GOOD])
    for _ in range(5):
        model.invoke(QUESTION, config={"callbacks": [handler]})
    assert len(handler.reports) == 3


def test_runnable_annotates_message_and_string(guard: Guard) -> None:
    guarded = GuardRunnable(rag_chain([BAD]), guard, Policy.annotate())
    out = guarded.invoke(QUESTION)
    assert isinstance(out, AIMessage) and out.content == BAD
    meta = out.response_metadata["faithguard"]
    assert meta["score"] == 0.0 and meta["verdicts"][0]["kind"] == "omission"
    from langchain_core.output_parsers import StrOutputParser

    text = GuardRunnable(rag_chain([GOOD]) | StrOutputParser(), guard, Policy.annotate()).invoke(QUESTION)
    assert isinstance(text, AnnotatedText) and text == GOOD and text.report.constraint_score == 10.0  # type: ignore[union-attr]


def test_runnable_sees_retrieved_documents(guard: Guard) -> None:
    out = GuardRunnable(rag_chain([GOOD]), guard, Policy.annotate()).invoke(QUESTION)
    assert out.response_metadata["faithguard"]["verdicts"] == []
    reports: list[Any] = []
    guard.plugin_manager.register(_Collect(reports), name="collect-test")
    GuardRunnable(rag_chain([GOOD]), guard).invoke(QUESTION)
    assert reports[-1].findings["documents_text"] == DOC


class _Collect:
    def __init__(self, sink: list[Any]) -> None:
        self.sink = sink

    from faithguard import hookimpl

    @hookimpl
    def on_report(self, report: Any) -> None:
        self.sink.append(report)


def test_runnable_blocks_or_falls_back(guard: Guard) -> None:
    with pytest.raises(HallucinationBlocked):
        GuardRunnable(rag_chain([BAD]), guard, Policy.block(["omission"])).invoke(QUESTION)
    out = GuardRunnable(rag_chain([BAD]), guard, Policy.block(["omission"], fallback="Unsure.")).invoke(QUESTION)
    assert out.content == "Unsure." and out.response_metadata["finish_reason"] == "content_filter"


def test_runnable_input_block_skips_model() -> None:
    guard = make_guard(extra=[missing_content_detector()])
    model = FakeListChatModel(responses=[GOOD])
    out = GuardRunnable(model, guard, Policy.block(["missing_content"])).invoke("Summarise the text below.")
    assert out.content == "Please paste the text you want summarised."
    assert model.i == 0  # the fake model was never called
    guard.close()


def test_runnable_stream_sync_and_async(guard: Guard) -> None:
    model = GenericFakeChatModel(messages=iter([AIMessage(content=BAD), AIMessage(content=BAD)]))
    guarded = GuardRunnable(model, guard, Policy.annotate())
    chunks = list(guarded.stream(QUESTION))
    assert all(isinstance(c, AIMessageChunk) for c in chunks)
    merged = chunks[0]
    for c in chunks[1:]:
        merged = merged + c
    assert merged.content == BAD
    assert merged.response_metadata["faithguard"]["verdicts"][0]["kind"] == "omission"

    async def collect() -> list[Any]:
        return [c async for c in guarded.astream(QUESTION)]

    achunks = asyncio.run(collect())
    assert "".join(str(c.content) for c in achunks) == BAD
    assert "faithguard" in achunks[-1].response_metadata


def test_runnable_stream_block_raises_at_end(guard: Guard) -> None:
    model = GenericFakeChatModel(messages=iter([AIMessage(content=BAD)]))
    guarded = GuardRunnable(model, guard, Policy.block(["omission"]))
    seen: list[Any] = []
    with pytest.raises(HallucinationBlocked):
        for chunk in guarded.stream(QUESTION):
            seen.append(chunk)
    assert "".join(str(c.content) for c in seen) == BAD


def test_runnable_async_invoke(guard: Guard) -> None:
    out = asyncio.run(GuardRunnable(rag_chain([GOOD]), guard, Policy.annotate()).ainvoke(QUESTION))
    assert out.response_metadata["faithguard"]["score"] == 10.0


class NeedsDocuments:
    """Input stage: a request about "the report" with no document is missing its content."""

    name = "needs-docs-test"
    stage = "input"
    order = 50
    timeout: float | None = None

    def run(self, ctx: Any) -> Any:
        from faithguard import DetectorResult, Severity, Verdict

        if ctx.documents:
            return DetectorResult()
        verdict = Verdict(kind="missing_content", severity=Severity.CRITICAL, explanation="no document")
        return DetectorResult(verdicts=[verdict], clarification="Which report? Please attach it.")


def test_input_checks_see_documents_retrieved_inside_the_chain() -> None:
    guard = make_guard(extra=[NeedsDocuments()])
    policy = Policy.block(["missing_content"])
    model = FakeListChatModel(responses=[GOOD])
    retriever = MemoryRetriever(docs=[Document(page_content=DOC)])
    prompt = ChatPromptTemplate.from_messages([("system", "Answer from: {context}"), ("human", "{question}")])
    chain = {"context": retriever, "question": RunnablePassthrough()} | prompt | model
    out = GuardRunnable(chain, guard, policy).invoke(QUESTION)
    assert out.content == GOOD  # the retriever found the document before the input checks ran
    out = asyncio.run(GuardRunnable(chain, guard, policy).ainvoke(QUESTION))
    assert out.content == GOOD
    assert model.i == 0  # FakeListChatModel cycles: two calls went through

    empty = MemoryRetriever(docs=[])
    lonely = {"context": empty, "question": RunnablePassthrough()} | prompt | FakeListChatModel(responses=[BAD])
    blocked = GuardRunnable(lonely, guard, policy).invoke(QUESTION)
    assert blocked.content == "Which report? Please attach it."
    assert blocked.response_metadata["finish_reason"] == "content_filter"
    assert lonely.last.i == 0  # type: ignore[attr-defined]  # stopped before the model ran
    ablocked = asyncio.run(GuardRunnable(lonely, guard, policy).ainvoke(QUESTION))
    assert ablocked.content == "Which report? Please attach it."

    async def collect() -> list[Any]:
        return [c async for c in GuardRunnable(lonely, guard, policy).astream(QUESTION)]

    assert [c.content for c in asyncio.run(collect())] == ["Which report? Please attach it."]
    assert lonely.last.i == 0  # type: ignore[attr-defined]
    guard.close()


def test_string_chain_streams_only_strings(guard: Guard) -> None:
    from langchain_core.output_parsers import StrOutputParser

    chain = rag_chain([BAD]) | StrOutputParser()
    chunks = list(GuardRunnable(chain, guard, Policy.annotate()).stream(QUESTION))
    assert all(isinstance(c, str) for c in chunks)
    assert "".join(chunks) == BAD  # the annotate tail is an empty string carrying the report
    assert isinstance(chunks[-1], AnnotatedText) and chunks[-1].report.constraint_score == 0.0  # type: ignore[union-attr]

    async def collect() -> list[Any]:
        return [c async for c in GuardRunnable(chain, guard, Policy.annotate()).astream(QUESTION)]

    assert "".join(asyncio.run(collect())) == BAD
    fallback = Policy.block(["omission"], fallback="Unsure.")
    # a streamed answer cannot be taken back, and the fallback cannot replace it: the block raises after the last chunk
    seen: list[str] = []
    with pytest.raises(HallucinationBlocked):
        seen.extend(GuardRunnable(chain, guard, fallback).stream(QUESTION))
    assert "".join(seen) == BAD


def test_string_chain_blocked_before_the_model_streams_a_string() -> None:
    from langchain_core.output_parsers import StrOutputParser

    guard = make_guard(extra=[NeedsDocuments()])
    prompt = ChatPromptTemplate.from_messages([("human", "{question}")])
    chain = {"question": RunnablePassthrough()} | prompt | FakeListChatModel(responses=[BAD]) | StrOutputParser()
    chunks = list(GuardRunnable(chain, guard, Policy.block(["missing_content"])).stream(QUESTION))
    assert chunks == ["Which report? Please attach it."] and isinstance(chunks[0], str)
    out = GuardRunnable(chain, guard, Policy.block(["missing_content"])).invoke(QUESTION)
    assert out == "Which report? Please attach it." and isinstance(out, str)
    guard.close()


def test_tool_call_message_is_not_an_answer(guard: Guard) -> None:
    call = AIMessage(content="", tool_calls=[{"name": "weather", "args": {"city": "Paris"}, "id": "t1"}])
    model = GenericFakeChatModel(messages=iter([call, call]))
    out = GuardRunnable(model, guard, Policy.block(["*"], min_severity="info")).invoke(QUESTION)
    assert out.tool_calls[0]["name"] == "weather"  # returned untouched, not replaced, not raised
    assert "faithguard" not in out.response_metadata
    from langchain_core.runnables import RunnableLambda

    piece = {"name": "weather", "args": '{"city": "Paris"}', "id": "t1", "index": 0}
    streamer = RunnableLambda(lambda _: AIMessageChunk(content="", tool_call_chunks=[piece]))
    chunks = list(GuardRunnable(streamer, guard, Policy.block(["*"], min_severity="info")).stream(QUESTION))
    assert len(chunks) == 1 and chunks[0].tool_call_chunks
    assert all("faithguard" not in c.response_metadata for c in chunks)
    handler = FaithGuardCallbackHandler(guard)
    GenericFakeChatModel(messages=iter([call])).invoke(QUESTION, config={"callbacks": [handler]})
    assert len(handler.reports) == 0


def test_a_string_context_is_the_document() -> None:
    """LCEL chains usually join the retrieved documents into one ``context`` string: that string is the material,
    so an input check that needs documents sees them (one string or a list) and nothing is blocked."""
    from faithguard import DetectorResult, Severity, Verdict

    class NeedsDocuments:
        name, stage, order, timeout = "needs_documents", "input", 50, None

        def run(self, ctx: Any) -> DetectorResult:
            if any(d.strip() for d in ctx.documents):
                return DetectorResult()
            return DetectorResult(verdicts=[Verdict(kind="missing_content", severity=Severity.CRITICAL)])

    guard = make_guard(extra=[NeedsDocuments()])
    article = "The council voted on Tuesday to build a library downtown; it opens in 2027."
    prompt = ChatPromptTemplate.from_messages([("system", "Use this article:\n{context}"), ("human", "{question}")])
    model = FakeListChatModel(responses=["The council approved a downtown library that opens in 2027."] * 3)
    guarded = GuardRunnable(prompt | model, guard, Policy.block(["missing_content"]))
    for context in (article, [article]):
        out = guarded.invoke({"question": "Summarise the article in one sentence.", "context": context})
        assert "library" in str(getattr(out, "content", out))
    with pytest.raises(HallucinationBlocked):  # the check itself is live: no context, blocked
        guarded.invoke({"question": "Summarise the article in one sentence.", "context": "  "})
    guard.close()


def test_handler_scores_the_chains_answer_not_its_own_model_steps(guard: Guard) -> None:
    """A chain that asks a model to rewrite the question before retrieval: the rewrite is the chain's own step, not
    an answer to the user; only the last model to end (the answer) is scored."""
    from langchain_core.output_parsers import StrOutputParser
    from langchain_core.runnables import RunnableLambda

    handler = FaithGuardCallbackHandler(guard)
    rewrite = (
        ChatPromptTemplate.from_messages([("human", "Turn into search keywords: {question}")])
        | FakeListChatModel(responses=["museum paris opening"])
        | StrOutputParser()
    )
    search = RunnableLambda(lambda keywords: DOC)
    answer = ChatPromptTemplate.from_messages([("system", "Answer from: {context}"), ("human", "{question}")])
    chain = (
        {"context": rewrite | search, "question": lambda x: x["question"]}
        | answer
        | FakeListChatModel(responses=[GOOD])
        | StrOutputParser()
    )
    assert chain.invoke({"question": QUESTION}, config={"callbacks": [handler]}) == GOOD
    (report,) = handler.reports.values()
    assert report.response == GOOD and report.query == QUESTION


def test_handler_on_the_model_itself_scores_it_inside_a_chain(guard: Guard) -> None:
    """A handler attached to the model (not to the chain) never sees the chain end: it scores the model's answer
    when the model ends, as for a model called on its own."""
    handler = FaithGuardCallbackHandler(guard)
    model = FakeListChatModel(responses=[GOOD], callbacks=[handler])
    prompt = ChatPromptTemplate.from_messages([("human", "{question}")])
    (prompt | model).invoke({"question": QUESTION})
    assert len(handler.reports) == 1


@pytest.mark.parametrize(
    "value",
    [[("human", "Summarise the attached article.")], [("user", "Summarise the attached article.")]],
)
def test_runnable_reads_role_pairs_as_messages(value: Any) -> None:
    # LangChain's ("human", text) form: it reached the model unchecked under a blocking policy (helper 92)
    guard = make_guard(extra=[missing_content_detector()])
    model = FakeListChatModel(responses=[GOOD])
    out = GuardRunnable(model, guard, Policy.block(["missing_content"])).invoke(value)
    assert model.i == 0 and out.response_metadata["finish_reason"] == "content_filter"
    guard.close()


def test_runnable_over_a_prompt_reads_the_request_the_model_is_given() -> None:
    # {"topic": ...} names no request; the prompt makes one, and the model's first messages are checked (helper 92)
    guard = make_guard(extra=[missing_content_detector()])
    model = FakeListChatModel(responses=[GOOD])
    chain = ChatPromptTemplate.from_messages([("human", "{topic}")]) | model
    out = GuardRunnable(chain, guard, Policy.block(["missing_content"])).invoke({"topic": "Summarise the article."})
    assert model.i == 0 and out.response_metadata["finish_reason"] == "content_filter"
    reports: list[Any] = []
    observed = make_guard()
    observed_chain = ChatPromptTemplate.from_messages([("human", "{topic}")]) | FakeListChatModel(responses=[GOOD])
    result = GuardRunnable(observed_chain, observed, Policy.annotate()).invoke({"topic": "Which museum in Paris?"})
    reports.append(result.response_metadata.get("faithguard"))
    assert reports[0] is not None  # scored: the request came from the prompt
    guard.close()
    observed.close()


def test_runnable_over_two_models_does_not_read_a_step_as_the_request() -> None:
    # the first model may rewrite the question for a retriever: its prompt is not the user's request (review 93)
    guard = make_guard(extra=[missing_content_detector()])
    rewrite = ChatPromptTemplate.from_messages([("human", "Rewrite as a search query: {topic}")])
    answer = ChatPromptTemplate.from_messages([("human", "{query}")])
    chain = (
        rewrite
        | FakeListChatModel(responses=["louvre"])
        | (lambda m: {"query": m.content})
        | answer
        | FakeListChatModel(responses=[GOOD])
    )
    out = GuardRunnable(chain, guard, Policy.block(["missing_content"])).invoke({"topic": "Summarise the article."})
    assert out.content == GOOD  # no request named, several models: passed through unguarded, as documented
    guard.close()


def test_adopted_request_span_is_not_a_child_of_its_chat_span(otel: Any) -> None:
    # the request is found only when the model starts, inside the chat span: the guard span must not become its child
    guard = make_guard(tracer_provider=otel.tracer_provider)
    chain = ChatPromptTemplate.from_messages([("human", "{topic}")]) | FakeListChatModel(responses=[GOOD])
    GuardRunnable(chain, guard, Policy.annotate()).invoke({"topic": "Which museum in Paris?"})
    guard.close()
    spans = {span.name: span for span in otel.spans.get_finished_spans()}
    root, chat = spans[f"guard {guard.name}"], spans["chat"]
    assert root.parent is None  # the caller's parent (none here), as for a request read from the chain's input
    assert [link.context.span_id for link in root.links] == [chat.context.span_id]  # where the request was found


def test_a_block_by_the_gate_logs_no_callback_error(caplog: pytest.LogCaptureFixture) -> None:
    # stopping the chain before the model is faithguard's normal work, not a callback failure worth a warning
    guard = make_guard(extra=[missing_content_detector()])
    model = FakeListChatModel(responses=[GOOD])
    chain = ChatPromptTemplate.from_messages([("human", "{question}")]) | model
    with caplog.at_level(logging.DEBUG):
        out = GuardRunnable(chain, guard, Policy.block(["missing_content"])).invoke({"question": QUESTION})
    guard.close()
    assert model.i == 0 and out.response_metadata["finish_reason"] == "content_filter"
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING], [r.getMessage() for r in caplog.records]
