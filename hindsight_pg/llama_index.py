"""A LlamaIndex retriever over a bank's recall (``pip install 'hindsight-pg[llamaindex]'``), a thin layer over
:class:`~hindsight_pg.Client`.

    from hindsight_pg.llama_index import HindsightRetriever
    nodes = HindsightRetriever(client, "alice").retrieve("Where is the team offsite?")
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from llama_index.core.retrievers import BaseRetriever
from llama_index.core.schema import NodeWithScore, QueryBundle, TextNode

from ._client import DEFAULT_MAX_RESULTS, DEFAULT_MIN_RELEVANCE, Client
from ._frameworks import result_metadata
from ._unit_dates import bank_time_zone


class HindsightRetriever(BaseRetriever):
    """A LlamaIndex retriever whose nodes are a bank's recalled memories, best first: a ``TextNode`` of the memory's
    text (``id_`` its id; ``metadata`` its rank, relevance, final score, dates, fact type, context, tags, document
    and metadata, of which a language model reads only ``when``, the dates as written), scored by its relevance
    (the probability that it answers, comparable across queries; the final score where a bank's relevance is
    unknown). The arguments after ``bank_id`` are :meth:`Client.recall`'s."""

    def __init__(
        self,
        client: Client,
        bank_id: str,
        *,
        max_results: int | None = DEFAULT_MAX_RESULTS,
        min_relevance: float | None = DEFAULT_MIN_RELEVANCE,
        max_tokens: int = 4096,
        budget: str = "mid",
        tags: list[str] | None = None,
        query_timestamp: datetime | str | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.client, self.bank_id = client, bank_id
        self.arguments = {"max_results": max_results, "min_relevance": min_relevance, "max_tokens": max_tokens,
                          "budget": budget, "tags": tags, "query_timestamp": query_timestamp}  # fmt: skip

    def _retrieve(self, query_bundle: QueryBundle) -> list[NodeWithScore]:
        response = self.client.recall(self.bank_id, query_bundle.query_str, **self.arguments)
        zone = bank_time_zone(self.client, self.bank_id)
        nodes = []
        for r in response.results:
            metadata = result_metadata(r, zone)
            # what a language model reads of a node: its dates as written and its text, not the ids and scores
            node = TextNode(id_=str(r.id), text=r.text, metadata=metadata, excluded_embed_metadata_keys=list(metadata),
                            excluded_llm_metadata_keys=[k for k in metadata if k != "when"])  # fmt: skip
            nodes.append(NodeWithScore(node=node, score=r.relevance if r.relevance is not None else r.scores.final))
        return nodes
