"""A LlamaIndex query engine over a hindsight_pg bank, offline: HindsightRetriever gives the memories that answer a
question as nodes scored by their relevance, and LlamaIndex's own MockLLM stands in for an LLM (swap in any LLM).
Prints the nodes and the engine's answer (MockLLM echoes the prompt it was given).

    pip install 'hindsight-pg[llamaindex]'
    python examples/frameworks/llamaindex_memory.py     # $HINDSIGHT_PG_DSN, else the embedded server
"""

from __future__ import annotations

from llama_index.core.llms import MockLLM
from llama_index.core.query_engine import RetrieverQueryEngine
from llama_index.core.response_synthesizers import get_response_synthesizer

import hindsight_pg
from hindsight_pg.llama_index import HindsightRetriever

BANK = "example-llamaindex"


def main() -> None:
    client = hindsight_pg.connect()
    client.delete_bank(BANK)  # a fresh bank each run
    client.create_bank(BANK)
    client.retain_batch(BANK, [
        {"content": "Ana: I'm flying to Lisbon on Friday for the design offsite.", "timestamp": "2025-06-02T09:00"},
        {"content": "Ana: My sister Marta is looking after Biscuit, my dog, while I'm away.",
         "timestamp": "2025-06-02T09:05"},
        {"content": "Ana: The quarterly report is due next Wednesday.", "timestamp": "2025-06-02T09:10"},
    ])  # fmt: skip
    retriever = HindsightRetriever(client, BANK, max_results=2, query_timestamp="2025-06-03")
    question = "Who is looking after the dog?"
    for node in retriever.retrieve(question):
        print(f"{node.score:.2f}  [{node.metadata['when']}] {node.text}")
    engine = RetrieverQueryEngine(retriever=retriever, response_synthesizer=get_response_synthesizer(
        llm=MockLLM(), response_mode="compact"))  # fmt: skip
    print("---")
    print(engine.query(question))


if __name__ == "__main__":
    main()
