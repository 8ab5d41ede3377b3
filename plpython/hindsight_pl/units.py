"""From retained items to the memory units ``hindsight.retain`` stores: the facts of the chunks not
stored yet, deduplicated within the call, with their embeddings. Shared by the driver
(``Client.retain_batch``) and the database (``hindsight.retain_text``), so both store the same units.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from .dedupe import Deduplicator, Merge
from .extract import Extractor, OfflineExtractor, VerbatimExtractor
from .llm import LLMClient, LLMExtractor

# At most this many of the bank's names, its most mentioned, are passed to the extractor at retain as names it
# knows (find_names: "Falcon sync notes:" opens a sentence with a name only the bank can tell).
KNOWN_NAMES = 500


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
    first_item: int = 0,
    known: set[str] | None = None,
) -> list[Merge]:
    """Set ``item["payload"]["units"]`` for each item (keys ``payload`` with ``chunks``, ``document_id``
    and ``update_mode``; ``timestamp`` aware; ``entities``; ``speaker``): the extractor's facts of the
    fresh chunks, deduplicated (per day) by text and then by embedding (``embed(texts)`` -> one vector per text,
    one call for all items), in the unit shape of ``hindsight.retain``; and ``item["kept"]``, the facts of
    those units in order. ``items`` are the call's items ``first_item`` onwards (``dedupe`` spans the call).
    ``known``: names the bank holds (lower case), given to the offline and verbatim extractors
    (:func:`hindsight_pl.extract.find_names`); each item's names are added to it for the items after it.

    A unit's ``merged`` lists the facts of these items merged into it (``item_index`` counted from
    ``items[0]``, ``text``, ``reason``, ``similarity``). Returns the merges of these items' facts, into
    units of these items or of earlier ones."""
    before = len(dedupe.merges)
    for n, item in enumerate(items):
        payload = item["payload"]
        chunks: list[str] = payload["chunks"]
        fresh = fresh_chunks(chunks, stored.get(payload["document_id"] or "", Counter()), payload["update_mode"])
        fresh_text = [chunks[i] for i in fresh]
        if isinstance(extractor, OfflineExtractor | VerbatimExtractor):
            facts = extractor.extract(fresh_text, timestamp=item["timestamp"], entities=item["entities"],
                                      speaker=item["speaker"], known=known if known is not None else ())  # fmt: skip
        else:
            facts = extractor.extract(fresh_text, timestamp=item["timestamp"], entities=item["entities"],
                                      speaker=item["speaker"])  # fmt: skip
        for fact in facts:
            fact.chunk_index = fresh[fact.chunk_index]
            if known is not None:
                known.update(name.lower() for name in fact.entities)
        item["facts"] = dedupe.by_text(facts, item["timestamp"], item=first_item + n)
    units = [fact for item in items for fact in item["facts"]]
    vectors: Any = embed([f.text for f in units]) if units else []
    embedding = dict(zip(map(id, units), vectors, strict=True))
    for n, item in enumerate(items):
        item["kept"] = dedupe.by_embedding(
            item["facts"], [embedding[id(f)] for f in item["facts"]], item["timestamp"], item=first_item + n
        )
    merges = dedupe.merges[before:]
    merged: dict[int, list[dict[str, Any]]] = {}
    for merge in merges:
        merged.setdefault(id(merge.kept), []).append({
            "item_index": None if merge.item is None else merge.item - first_item, "text": merge.repeat.text,
            "reason": merge.reason, "similarity": merge.similarity,
        })  # fmt: skip
    for item in items:
        kept = item["kept"]
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
                **({"merged": merged[id(fact)]} if id(fact) in merged else {}),
            }
            for fact in kept
        ]  # fmt: skip
    return merges
