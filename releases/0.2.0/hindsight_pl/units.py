"""From retained items to the memory units ``hindsight.retain`` stores: the facts of the chunks not
stored yet, deduplicated within the call, with their embeddings. Shared by the driver
(``Client.retain_batch``) and the database (``hindsight.retain_text``), so both store the same units.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from .dedupe import Deduplicator
from .extract import Extractor, OfflineExtractor, VerbatimExtractor
from .llm import LLMClient, LLMExtractor


def bank_extractor(config: Mapping[str, Any], llm: LLMClient | None = None) -> Extractor:
    """The extractor a bank's config asks for: offline (default), verbatim or llm (docs/retain.md), the
    latter through ``llm`` (default: ``LLMClient.from_config(config)``). Raises ValueError for llm
    without ``llm_base_url`` and ``llm_model`` (the config check refuses that, so only a hand-made
    config gets there)."""
    if config.get("extractor") == "verbatim":
        return VerbatimExtractor(agent_name=str(config.get("agent_name", "assistant")))
    if config.get("extractor") == "llm":
        llm = llm or LLMClient.from_config(config)
        if llm is None:
            raise ValueError("extractor llm needs llm_base_url and llm_model")
        return LLMExtractor(llm)
    return OfflineExtractor(
        agent_name=str(config.get("agent_name", "assistant")),
        time_zone=str(config.get("time_zone", "UTC")),
        hemisphere=str(config.get("hemisphere", "north")),
    )


def content_hash(chunk: str) -> str:
    """SHA-256 (hex) of a chunk's text: what ``hindsight.chunks.content_hash`` holds."""
    return hashlib.sha256(chunk.encode()).hexdigest()


def fresh_chunks(chunks: Sequence[str], stored: Counter[str], update_mode: str) -> list[int]:
    """Indexes of the chunks whose text the document does not hold yet (``stored``: its chunks' hashes,
    counted). Unchanged chunks keep their memory units (``hindsight.retain`` keeps them); under
    ``replace`` each stored copy matches one chunk, under ``append`` any number."""
    left = Counter(stored)
    fresh = []
    for index, chunk in enumerate(chunks):
        digest = content_hash(chunk)
        if left[digest] > 0:
            if update_mode == "replace":
                left[digest] -= 1
            continue
        fresh.append(index)
    return fresh


def fill_units(
    items: Sequence[dict[str, Any]],
    *,
    extractor: Extractor,
    embed: Callable[[list[str]], Any],
    dedupe: Deduplicator,
    stored: Mapping[str, Counter[str]],
) -> None:
    """Set ``item["payload"]["units"]`` for each item (keys ``payload`` with ``chunks``, ``document_id``
    and ``update_mode``; ``timestamp`` aware; ``entities``; ``speaker``): the extractor's facts of the
    fresh chunks, deduplicated (per day) by text and then by embedding (``embed(texts)`` -> one vector per text,
    one call for all items), in the unit shape of ``hindsight.retain``."""
    for item in items:
        payload = item["payload"]
        chunks: list[str] = payload["chunks"]
        fresh = fresh_chunks(chunks, stored.get(payload["document_id"] or "", Counter()), payload["update_mode"])
        facts = extractor.extract(
            [chunks[i] for i in fresh], timestamp=item["timestamp"], entities=item["entities"],
            speaker=item["speaker"],
        )  # fmt: skip
        for fact in facts:
            fact.chunk_index = fresh[fact.chunk_index]
        item["facts"] = dedupe.by_text(facts, item["timestamp"])
    units = [fact for item in items for fact in item["facts"]]
    vectors: Any = embed([f.text for f in units]) if units else []
    embedding = dict(zip(map(id, units), vectors, strict=True))
    for item in items:
        kept = dedupe.by_embedding(item["facts"], [embedding[id(f)] for f in item["facts"]], item["timestamp"])
        position = {id(fact): n for n, fact in enumerate(kept)}
        index_of = {n: id(fact) for n, fact in enumerate(item["facts"])}
        item["payload"]["units"] = [
            {
                "text": fact.text,
                "chunk_index": fact.chunk_index,
                "fact_type": fact.fact_type,
                "entities": fact.entities,
                "occurred_start": fact.occurred_start.isoformat() if fact.occurred_start else None,
                "occurred_end": fact.occurred_end.isoformat() if fact.occurred_end else None,
                "caused_by": [position[index_of[c]] for c in fact.caused_by
                              if c in index_of and index_of[c] in position],
                "embedding": [float(x) for x in embedding[id(fact)]],
            }
            for fact in kept
        ]  # fmt: skip
