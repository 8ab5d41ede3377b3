"""From retained items to the memory units ``hindsight.retain`` stores: the facts of the chunks not
stored yet, deduplicated within the call, with their embeddings. Shared by the driver
(``Client.retain_batch``) and the database (``hindsight.retain_text``), so both store the same units.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from ..llm import LLMClient, LLMExtractor
from .dedupe import Deduplicator
from .extract import HEADING_JOIN, Extractor, Fact, OfflineExtractor, VerbatimExtractor, opening_headings

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
    return _rules(config)


def _rules(config: Mapping[str, Any]) -> OfflineExtractor:
    """The offline extractor with a bank's ``agent_name``, ``time_zone`` and ``hemisphere``."""
    return OfflineExtractor(
        agent_name=str(config.get("agent_name", "assistant")),
        time_zone=str(config.get("time_zone", "UTC")),
        hemisphere=str(config.get("hemisphere", "north")),
    )


def reread(config: Mapping[str, Any], text: str, mentioned_at: datetime, known: Sequence[str] = ()) -> Fact:
    """A memory's new text as retain would read it (``hindsight.update_memory``): its names (those of ``known``,
    the names the memory had, that it still holds, and the ones it names) and its dates as of ``mentioned_at``
    (aware). Read by the offline rules with the bank's ``time_zone`` and ``hemisphere`` whatever the bank's
    extractor: one edited text calls no language model."""
    return _rules(config).read(text, mentioned_at, known)


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


@dataclass(frozen=True)
class Item:
    """One item of a retain call, cleaned and chunked (:func:`hindsight_pl.pipeline.retain.prepare`): its
    ``content`` and ``chunks``, when it was said (``timestamp``, aware), its ``document_id`` (None: a new document)
    and ``update_mode`` (replace or append), ``context``, ``tags``, ``metadata``, and the caller's ``entities``
    and ``speaker``."""

    content: str
    chunks: list[str]
    timestamp: datetime
    document_id: str | None = None
    update_mode: str = "replace"
    context: str | None = None
    tags: list[str] = field(default_factory=list)
    metadata: dict[str, Any] = field(default_factory=dict)
    entities: list[str] = field(default_factory=list)
    speaker: str | None = None

    def payload(self, units: Sequence[Unit]) -> dict[str, Any]:
        """The item as ``hindsight.retain`` takes it (an element of its ``items``), with ``units``."""
        return {
            "document_id": self.document_id, "update_mode": self.update_mode, "content": self.content,
            "context": self.context, "timestamp": self.timestamp.isoformat(), "tags": self.tags,
            "metadata": self.metadata, "chunks": self.chunks, "units": [unit.payload(self.context) for unit in units],
        }  # fmt: skip


@dataclass(frozen=True)
class Unit:
    """One memory unit of an item: the ``fact`` kept, its ``embedding``, ``caused_by`` (the positions of the
    item's units that caused it) and ``merged`` (the call's facts stored as it: ``item_index`` counted from the
    first item of its group, ``text``, ``reason``, ``similarity``)."""

    fact: Fact
    embedding: list[float]
    caused_by: list[int] = field(default_factory=list)
    merged: list[dict[str, Any]] = field(default_factory=list)

    def payload(self, item_context: str | None = None) -> dict[str, Any]:
        """The unit as ``hindsight.retain`` takes it (an element of an item's ``units``); a fact under Markdown
        headings has its own context: its item's (``item_context``), then the headings."""
        fact = self.fact
        return {
            "text": fact.text, "chunk_index": fact.chunk_index, "fact_type": fact.fact_type, "entities": fact.entities,
            "occurred_start": fact.occurred_start.isoformat() if fact.occurred_start else None,
            "occurred_end": fact.occurred_end.isoformat() if fact.occurred_end else None,
            "caused_by": self.caused_by, "embedding": self.embedding,
            **({"merged": self.merged} if self.merged else {}),
            **({"context": HEADING_JOIN.join(c for c in (item_context, fact.context) if c)} if fact.context else {}),
        }  # fmt: skip


def fill_units(
    items: Sequence[Item],
    *,
    extractor: Extractor,
    embed: Callable[[list[str]], Any],
    dedupe: Deduplicator,
    stored: Mapping[str, Counter[str]],
    first_item: int = 0,
    known: set[str] | None = None,
) -> list[list[Unit]]:
    """The memory units of each item: the extractor's facts of its fresh chunks (those ``stored``, the hashes of
    the chunks its document holds, does not hold yet), deduplicated (per day) by text and then by embedding
    (``embed(texts)`` -> one vector per text, one call for all items). ``items`` are the call's items
    ``first_item`` onwards (``dedupe`` spans the call; its :meth:`~Deduplicator.place` of a kept fact is the
    position of its unit here). ``known``: names the bank holds (lower case), given to the offline and verbatim
    extractors (:func:`hindsight_pl.retain.names.find_names`); each item's names are added to it for the items after
    it. A unit's ``merged`` lists the facts of these items merged into it."""
    before = len(dedupe.merges)
    extracted: list[list[Fact]] = []  # each item's facts, as its extractor gave them (caused_by counts in them)
    distinct: list[list[Fact]] = []  # those not repeating an earlier one's text
    for n, item in enumerate(items):
        fresh = fresh_chunks(item.chunks, stored.get(item.document_id or "", Counter()), item.update_mode)
        fresh_text = [item.chunks[i] for i in fresh]
        if isinstance(extractor, OfflineExtractor):
            opening = opening_headings(item.chunks)  # a fresh chunk is under the headings the chunks before opened
            facts = extractor.extract(fresh_text, timestamp=item.timestamp, entities=item.entities,
                                      speaker=item.speaker, known=known if known is not None else (),
                                      headings=[opening[i] for i in fresh])  # fmt: skip
        elif isinstance(extractor, VerbatimExtractor):
            facts = extractor.extract(fresh_text, timestamp=item.timestamp, entities=item.entities,
                                      speaker=item.speaker, known=known if known is not None else ())  # fmt: skip
        else:
            facts = extractor.extract(fresh_text, timestamp=item.timestamp, entities=item.entities,
                                      speaker=item.speaker)  # fmt: skip
        for fact in facts:
            fact.chunk_index = fresh[fact.chunk_index]
            if known is not None:
                known.update(name.lower() for name in fact.entities)
        extracted.append(facts)
        distinct.append(dedupe.by_text(facts, item.timestamp, item=first_item + n))
    texts = [fact.text for facts in distinct for fact in facts]
    vectors: Any = embed(texts) if texts else []
    embeddings = iter([float(x) for x in vector] for vector in vectors)
    kept: list[list[tuple[Fact, list[float]]]] = []
    for n, (item, facts) in enumerate(zip(items, distinct, strict=True)):
        mine = [next(embeddings) for _ in facts]
        dedupe.by_embedding(facts, mine, item.timestamp, item=first_item + n)  # places the facts it keeps, in order
        kept.append([(f, v) for f, v in zip(facts, mine, strict=True) if dedupe.place(f) is not None])
    merged: dict[tuple[int | None, int], list[dict[str, Any]]] = {}
    for merge in dedupe.merges[before:]:  # the repeats among these items, into units of theirs or earlier ones
        if merge.kept_at is not None:
            merged.setdefault(merge.kept_at, []).append({
                "item_index": None if merge.item is None else merge.item - first_item, "text": merge.repeat.text,
                "reason": merge.reason, "similarity": merge.similarity,
            })  # fmt: skip
    made = []
    for n, (facts, pairs) in enumerate(zip(extracted, kept, strict=True)):
        item_at = first_item + n

        def position(cause: int, facts: list[Fact] = facts, item_at: int = item_at) -> int | None:
            place = dedupe.place(facts[cause]) if 0 <= cause < len(facts) else None
            return place[1] if place is not None and place[0] == item_at else None

        made.append([
            Unit(fact, vector, [p for p in map(position, fact.caused_by) if p is not None],
                 merged.get((item_at, at), []))
            for at, (fact, vector) in enumerate(pairs)
        ])  # fmt: skip
    return made
