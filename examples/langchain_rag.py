"""A small LangChain RAG chain: observed with the callback handler, enforced with GuardRunnable."""

from __future__ import annotations

from langchain_core.callbacks import CallbackManagerForRetrieverRun
from langchain_core.documents import Document
from langchain_core.language_models.fake_chat_models import FakeListChatModel
from langchain_core.prompts import ChatPromptTemplate
from langchain_core.retrievers import BaseRetriever
from langchain_core.runnables import RunnablePassthrough

from faithguard import Guard, HallucinationBlocked, Policy
from faithguard.integrations.langchain import FaithGuardCallbackHandler, GuardRunnable
from faithguard.integrations.warmup import warm


class MemoryRetriever(BaseRetriever):
    """Keyword retrieval over a list of documents."""

    docs: list[Document]

    def _get_relevant_documents(self, query: str, *, run_manager: CallbackManagerForRetrieverRun) -> list[Document]:
        words = set(query.lower().split())
        return [d for d in self.docs if words & set(d.page_content.lower().split())]


def main() -> None:
    guard = Guard(judge=None)
    warm(guard)  # load the models now: the first call is then scored like the rest
    retriever = MemoryRetriever(docs=[Document(page_content="The Louvre is the largest museum in Paris.")])
    prompt = ChatPromptTemplate.from_messages([("system", "Answer from: {context}"), ("human", "{question}")])
    model = FakeListChatModel(responses=["Visit the Louvre museum in Paris.", "Try the Colosseum in Rome."])
    chain = {"context": retriever, "question": RunnablePassthrough()} | prompt | model
    question = "Which museum in Paris should I visit?"

    handler = FaithGuardCallbackHandler(guard)
    chain.invoke(question, config={"callbacks": [handler]})
    for run_id, report in handler.reports.items():
        print(f"observed run {str(run_id)[:8]}: score {report.constraint_score}, band {report.band}")

    guarded = GuardRunnable(chain, guard, Policy.block(["*"], min_severity="warning"))
    try:
        print("enforced:", guarded.invoke(question).content)
    except HallucinationBlocked as exc:
        print("enforced: blocked ->", exc)
    guard.close()


if __name__ == "__main__":
    main()
