"""LangChain adapters (``pip install 'hindsight-pg[langchain]'``): a retriever over a bank's recall and a chat
message history kept in a bank, both thin layers over :class:`~hindsight_pg.Client`.

    from hindsight_pg.langchain import HindsightRetriever, HindsightChatMessageHistory
    retriever = HindsightRetriever(client=client, bank_id="alice")
    docs = retriever.invoke("Where is the team offsite?")   # Documents: the memory text and its metadata
"""

from __future__ import annotations

import itertools
import uuid
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

from langchain_core.callbacks import CallbackManagerForRetrieverRun
from langchain_core.chat_history import BaseChatMessageHistory
from langchain_core.documents import Document
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage
from langchain_core.retrievers import BaseRetriever
from pydantic import ConfigDict

from hindsight_pl.text import is_meaningful

from ._client import DEFAULT_MAX_RESULTS, DEFAULT_MIN_RELEVANCE, Client
from ._frameworks import result_metadata
from ._types import MemoryItem
from ._unit_dates import bank_time_zone


class HindsightRetriever(BaseRetriever):
    """A LangChain retriever whose documents are a bank's recalled memories, best first: ``page_content`` the
    memory's text, ``metadata`` its id, rank, relevance (the probability that it answers, comparable across
    queries), final score, dates (``when``, ``mentioned_at``, ``occurred_start``, ``occurred_end``), fact type,
    context, tags, document and metadata. The arguments after ``bank_id`` are :meth:`Client.recall`'s."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    client: Client
    bank_id: str
    max_results: int | None = DEFAULT_MAX_RESULTS
    min_relevance: float | None = DEFAULT_MIN_RELEVANCE
    max_tokens: int = 4096
    budget: str = "mid"
    tags: list[str] | None = None
    query_timestamp: datetime | str | None = None

    def __init__(self, client: Client, bank_id: str, **arguments: Any) -> None:
        """``HindsightRetriever(client, bank_id, ...)``, as LlamaIndex's takes them, or by keyword."""
        super().__init__(client=client, bank_id=bank_id, **arguments)  # type: ignore[call-arg]

    def _get_relevant_documents(self, query: str, *, run_manager: CallbackManagerForRetrieverRun) -> list[Document]:
        response = self.client.recall(
            self.bank_id, query, max_results=self.max_results, min_relevance=self.min_relevance,
            max_tokens=self.max_tokens, budget=self.budget, tags=self.tags, query_timestamp=self.query_timestamp,
        )  # fmt: skip
        zone = bank_time_zone(self.client, self.bank_id)
        return [Document(page_content=r.text, metadata=result_metadata(r, zone), id=str(r.id))
                for r in response.results]  # fmt: skip


class HindsightChatMessageHistory(BaseChatMessageHistory):
    """A conversation's messages kept in a bank, one memory document each (its text as the message said it), so
    that they are also recalled with everything else the bank holds: a human message is retained as said by
    ``user_name``, an AI message as said by the bank's agent (``agent_name``, "assistant" by default: the
    agent's own experience). The session is a tag (``session:<id>``); ``clear()`` deletes its documents."""

    def __init__(self, client: Client, bank_id: str, session_id: str, *, user_name: str = "user") -> None:
        self.client, self.bank_id, self.session_id, self.user_name = client, bank_id, session_id, user_name
        self.client.create_bank(bank_id, exist_ok=True)
        self._agent = str(self.client.get_bank(bank_id).config.get("agent_name") or "assistant")

    @property
    def _tag(self) -> str:
        return f"session:{self.session_id}"

    @property
    def messages(self) -> list[BaseMessage]:  # type: ignore[override]
        """The session's messages, oldest first."""
        rows = self.client.conn.execute(
            "SELECT original_text, metadata->>'role' FROM hindsight.documents"
            " WHERE bank_id = %s AND %s = ANY (tags) ORDER BY (metadata->>'position')::bigint, created_at",
            (self.bank_id, self._tag),
        ).fetchall()
        return [AIMessage(content=text) if role == "ai" else HumanMessage(content=text) for text, role in rows]

    def add_messages(self, messages: Sequence[BaseMessage]) -> None:
        """Retain the messages, in one transaction, said now (each a microsecond after the one before). A message
        without text (a tool call) is not kept."""
        now = datetime.now(UTC)
        (start,) = self.client.conn.execute(
            "SELECT count(*) FROM hindsight.documents WHERE bank_id = %s AND %s = ANY (tags)", (self.bank_id, self._tag)
        ).fetchone() or (0,)
        said = [m for m in messages if is_meaningful(m.text)]
        items = []
        for n, message in zip(itertools.count(start), said, strict=False):
            role = "ai" if message.type == "ai" else "human"
            items.append(MemoryItem(
                content=message.text,
                timestamp=now + timedelta(microseconds=n - start),
                document_id=f"{self._tag}:{uuid.uuid4()}", tags=[self._tag],
                metadata={"role": role, "position": n}, speaker=self._agent if role == "ai" else self.user_name,
            ))  # fmt: skip
        if items:
            self.client.retain_batch(self.bank_id, items)

    def clear(self) -> None:
        """Delete the session's messages (their documents and memories)."""
        ids = self.client.conn.execute(
            "SELECT document_id FROM hindsight.documents WHERE bank_id = %s AND %s = ANY (tags)",
            (self.bank_id, self._tag),
        ).fetchall()
        for (document_id,) in ids:
            self.client.delete_document(self.bank_id, document_id)
