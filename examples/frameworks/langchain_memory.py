"""A LangChain chain that answers from a hindsight_pg bank, offline: a conversation kept in the bank through
HindsightChatMessageHistory, the memories that answer a question through HindsightRetriever, and LangChain's own
fake chat model where an LLM would be (swap in any chat model). Prints the prompt the model gets, then its answer.

    pip install 'hindsight-pg[langchain]'
    python examples/frameworks/langchain_memory.py      # $HINDSIGHT_PG_DSN, else the embedded server
"""

from __future__ import annotations

from langchain_core.documents import Document
from langchain_core.language_models.fake_chat_models import FakeListChatModel
from langchain_core.prompts import ChatPromptTemplate
from langchain_core.runnables import RunnableLambda, RunnablePassthrough

import hindsight_pg
from hindsight_pg.langchain import HindsightChatMessageHistory, HindsightRetriever

BANK = "example-langchain"


def memories(documents: list[Document]) -> str:
    """The recalled memories as prompt lines: when, what, and how likely each is to answer."""
    return "\n".join(f"- [{d.metadata['when']}] {d.page_content} (relevance {d.metadata['relevance']:.2f})"
                     for d in documents)  # fmt: skip


def main() -> None:
    client = hindsight_pg.connect()
    client.delete_bank(BANK)  # a fresh bank each run
    history = HindsightChatMessageHistory(client, BANK, session_id="monday", user_name="Ana")
    history.add_user_message("I'm flying to Lisbon on Friday for the design offsite.")
    history.add_ai_message("Noted: Lisbon on Friday, for the design offsite.")
    history.add_user_message("My sister Marta is looking after Biscuit, my dog, while I'm away.")

    retriever = HindsightRetriever(client=client, bank_id=BANK, max_results=3)
    prompt = ChatPromptTemplate.from_messages([
        ("system", "You are Ana's assistant. What you remember about her:\n{memories}"),
        ("human", "{question}"),
    ])  # fmt: skip
    model = FakeListChatModel(responses=["Marta is looking after Biscuit while you are in Lisbon."])
    chain = {"memories": retriever | RunnableLambda(memories), "question": RunnablePassthrough()} | prompt

    filled = chain.invoke("Who is looking after my dog?")
    print(filled.to_string())
    print("---")
    print(model.invoke(filled).content)
    print(f"({len(history.messages)} messages kept in bank {BANK!r}, session 'monday')")


if __name__ == "__main__":
    main()
