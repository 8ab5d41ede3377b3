"""The framework adapters against the real packages: LangChain's retriever and chat message history
(langchain-core), LlamaIndex's retriever (llama-index-core), each over the test database; the examples
(examples/frameworks) run as a user runs them, offline, with the frameworks' own fake models."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from langchain_core.documents import Document
from langchain_core.language_models.fake_chat_models import FakeListChatModel
from langchain_core.prompts import ChatPromptTemplate
from langchain_core.runnables import RunnableLambda, RunnablePassthrough
from llama_index.core.schema import MetadataMode, QueryBundle

from hindsight_pg import BankNotFoundError, Client
from hindsight_pg.langchain import HindsightChatMessageHistory, HindsightRetriever
from hindsight_pg.llama_index import HindsightRetriever as LlamaRetriever

ROOT = Path(__file__).resolve().parents[2]
TEAM = [
    "Maya: The team offsite is in Valencia this year, the hotel is booked for everyone.",
    "Tom: Most Saturdays I go bouldering at the climbing gym on Elm Street.",
    "Priya: The quarterly report is due on Friday, I still need the sales figures.",
]
OFFSITE = "Where is the team offsite?"


@pytest.fixture
def team(client: Client) -> str:
    client.create_bank("team", config={"time_zone": "Europe/Madrid"})
    client.retain_batch("team", [{"content": t, "timestamp": "2025-03-03T09:00:00Z"} for t in TEAM])
    return "team"


def test_the_langchain_retriever_gives_recall_as_documents(client: Client, team: str) -> None:
    expected = client.recall(team, OFFSITE, max_results=2).results
    documents = HindsightRetriever(client, team, max_results=2).invoke(OFFSITE)
    assert documents == HindsightRetriever(client=client, bank_id=team, max_results=2).invoke(OFFSITE)
    assert [(d.page_content, d.id) for d in documents] == [(r.text, str(r.id)) for r in expected]
    first = documents[0].metadata
    assert (first["rank"], first["relevance"], first["score"]) == (1, expected[0].relevance, expected[0].scores.final)
    assert first["when"] == "said 2025-03-03, about 2025" and first["mentioned_at"] == "2025-03-03T09:00:00+00:00"
    # composed as LangChain composes retrievers: the memories into a prompt, a chat model after it
    prompt = ChatPromptTemplate.from_messages([("system", "Memories:\n{memories}"), ("human", "{question}")])

    def lines(docs: list[Document]) -> str:
        return "\n".join(f"- {d.page_content}" for d in docs)

    retriever = HindsightRetriever(client=client, bank_id=team, max_results=1)
    chain = {"memories": retriever | RunnableLambda(lines), "question": RunnablePassthrough()} | prompt
    filled = chain.invoke(OFFSITE)
    assert f"- {TEAM[0]}" in filled.to_string()
    assert FakeListChatModel(responses=["Valencia."]).invoke(filled).content == "Valencia."
    with pytest.raises(BankNotFoundError):
        HindsightRetriever(client=client, bank_id="nowhere").invoke(OFFSITE)


def test_the_chat_history_keeps_a_sessions_messages_in_the_bank(client: Client) -> None:
    history = HindsightChatMessageHistory(client, "chat", session_id="s1", user_name="Ana")
    history.add_user_message("I'm flying to Lisbon on Friday.")
    history.add_ai_message("Noted: Lisbon on Friday.")
    history.add_messages([])  # nothing to keep
    other = HindsightChatMessageHistory(client, "chat", session_id="s2")
    other.add_user_message("The printer is out of toner.")
    assert [(m.type, m.content) for m in history.messages] == [
        ("human", "I'm flying to Lisbon on Friday."), ("ai", "Noted: Lisbon on Friday.")]  # fmt: skip
    # each message is a memory too: the user's said by Ana, the AI's the agent's own experience
    results = client.recall("chat", "When is the Lisbon flight?", max_results=None).results
    kinds = {r.text: r.fact_type for r in results}
    assert kinds["Ana: I'm flying to Lisbon on Friday."] == "world"
    assert kinds["assistant: Noted: Lisbon on Friday."] == "experience"
    history.clear()
    assert history.messages == [] and [m.content for m in other.messages] == ["The printer is out of toner."]


def test_the_llamaindex_retriever_gives_recall_as_scored_nodes(client: Client, team: str) -> None:
    expected = client.recall(team, OFFSITE, max_results=2).results
    nodes = LlamaRetriever(client, team, max_results=2).retrieve(QueryBundle(OFFSITE))
    assert [(n.node.node_id, n.node.get_content(), n.score) for n in nodes] == [
        (str(r.id), r.text, r.relevance) for r in expected]  # fmt: skip
    # what a language model reads of a node: its dates as written, and its text
    seen = nodes[0].node.get_content(metadata_mode=MetadataMode.LLM)
    assert seen == f"when: said 2025-03-03, about 2025\n\n{TEAM[0]}"
    assert nodes[0].metadata["rank"] == 1 and nodes[0].metadata["relevance"] == expected[0].relevance


@pytest.mark.slow
@pytest.mark.parametrize(("example", "printed"), [
    ("langchain_memory.py", "Marta is looking after Biscuit while you are in Lisbon."),
    ("llamaindex_memory.py", "Query: Who is looking after the dog?"),
])  # fmt: skip
def test_the_examples_run_offline(db, example: str, printed: str) -> None:
    run = subprocess.run([sys.executable, str(ROOT / "examples" / "frameworks" / example)], capture_output=True,
                         text=True, timeout=300, env={**os.environ, "HINDSIGHT_PG_DSN": db.info.dsn})  # fmt: skip
    assert run.returncode == 0, run.stderr[-2000:]
    assert printed in run.stdout and "Marta is looking after Biscuit" in run.stdout


@pytest.mark.slow
def test_the_agent_loop_example_prints_its_prompts_offline_and_talks_to_an_endpoint(db, script_server) -> None:
    example = [sys.executable, str(ROOT / "examples" / "agent_loop.py"), "--bank", "loop"]
    env = {k: v for k, v in os.environ.items() if k != "OPENAI_BASE_URL"} | {"HINDSIGHT_PG_DSN": db.info.dsn}
    offline = subprocess.run(example, capture_output=True, text=True, timeout=300, env=env)
    assert offline.returncode == 0, offline.stderr[-2000:]
    # the last prompt: the correction first (updates win), then what it corrected
    last = offline.stdout.rsplit("  prompt:", 1)[1]
    assert last.index("Tom is looking after Biscuit instead") < last.index("Marta will look after Biscuit")
    assert "assistant: (no model configured)" in offline.stdout
    # the same loop against an OpenAI-compatible endpoint (a local one of the protocol): its replies are retained
    replies = ["Have a good trip!", "Noted.", "Noted: Tom, not Marta.", "Tom was looking after Biscuit."]
    script_server.script = [{"content": text} for text in replies]
    url = f"http://127.0.0.1:{script_server.server_port}/v1"
    online = subprocess.run(example, capture_output=True, text=True, timeout=300,
                            env=env | {"OPENAI_BASE_URL": url, "OPENAI_API_KEY": "test"})  # fmt: skip
    assert online.returncode == 0, online.stderr[-2000:]
    assert "assistant: Tom was looking after Biscuit." in online.stdout and "prompt:" not in online.stdout
    sent = script_server.requests[-1]["messages"]
    assert "Tom is looking after Biscuit instead" in sent[0]["content"] and sent[1]["content"].startswith("Back home!")
    kinds = dict(db.execute("SELECT text, fact_type FROM hindsight.memory_units WHERE bank_id = 'loop'").fetchall())
    assert kinds["assistant: Noted: Tom, not Marta."] == "experience"
