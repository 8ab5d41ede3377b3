"""Retain from text: each item cleaned, checked and chunked (:func:`prepare`), then, in groups, the
facts of its new chunks extracted, deduplicated and embedded (:func:`hindsight_pl.retain.units.fill_units`)
and stored with ``hindsight.retain`` (:func:`retain`). The driver's ``Client.retain_batch`` and the
database's ``hindsight.retain_text`` both run it. docs/retain.md."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from .. import limits, text
from ..errors import InputError
from ..llm import LLMClient
from ..providers import Embedder
from ..retain import chunking, units
from ..retain.dedupe import Deduplicator
from ..retain.extract import Extractor
from ..retain.units import Item
from .banks import bank_config
from .database import Database, json_of, text_of

# Items go to the database in groups of this many: one embedding batch and one hindsight.retain call each.
GROUP_SIZE = 64
UPDATE_MODES = ("replace", "append")

# the columns as they are: on Citus the coordinator sends the call whole to the worker holding the bank
STORE = (
    "SELECT item_index, document_id, unit_id, merged"
    " FROM hindsight.retain(bank_id => $1::text, items => $2::jsonb, config_seen => $3::jsonb)"
)
# the bank's most mentioned names, read once per retain call for the extractor (units.KNOWN_NAMES of them)
KNOWN_NAMES = (
    "SELECT canonical_name FROM hindsight.entities WHERE bank_id = $1::text"
    " ORDER BY mention_count DESC, lower(canonical_name) LIMIT $2::int"
)
CHUNK_HASHES = (
    "SELECT document_id, content_hash FROM hindsight.chunks WHERE bank_id = $1::text AND document_id = ANY ($2::text[])"
)


def prepare(
    content: str,
    *,
    timestamp: datetime,
    document_id: str | None = None,
    context: str | None = None,
    tags: Sequence[str | None] | None = None,
    metadata: Mapping[str, Any] | None = None,
    entities: Sequence[str | None] | None = None,
    speaker: str | None = None,
    update_mode: str = "replace",
    label: str | None = None,
) -> Item:
    """One item made ready for :func:`retain`: content, context, tags, entities and speaker cleaned
    (:func:`hindsight_pl.text.clean_text`; blank names and NULL tags dropped), content chunked
    (at most 3,000 characters a chunk). ``timestamp`` (aware) is when it was said. Raises
    :class:`InputError` (its message starting with ``label``, e.g. ``item 3``, when given) for blank or
    punctuation-only content or an update mode other than replace or append, and its subclass
    :class:`~hindsight_pl.limits.LimitError` for content, context, tags, entities, names or metadata past their limits
    (:data:`hindsight_pl.limits.LIMITS`), before any work."""
    prefix = f"{label}: " if label else ""
    limits.check_count("content_chars", f"{prefix}content", len(content))
    check_names(tags, f"{prefix}tags", "tags")
    check_names(entities, f"{prefix}entities", "entities")
    limits.check_count("name_chars", f"{prefix}speaker", len(speaker or ""))
    limits.check_count("name_chars", f"{prefix}document_id", len(document_id or ""))
    limits.check_count("context_chars", f"{prefix}context", len(context or ""))
    if metadata is not None:
        limits.check_json(metadata, f"{prefix}metadata")
    cleaned = text.clean_text(content)
    if not text.is_meaningful(cleaned):
        raise InputError(f"{prefix}content is blank or has only punctuation: {cleaned[:40]!r}",
                         hint="Retain text that has at least one letter or digit.")  # fmt: skip
    if update_mode not in UPDATE_MODES:
        raise InputError(f"{prefix}update_mode must be replace or append, not {update_mode!r}")
    names = [n for n in (text.clean_text(e).strip() for e in entities or () if e) if n]
    return Item(
        content=cleaned, chunks=chunking.chunk_text(cleaned), timestamp=timestamp, document_id=document_id,
        update_mode=update_mode, context=text.clean_text(context) if context else None,
        tags=[text.clean_text(t) for t in tags or () if t is not None], metadata=dict(metadata or {}),
        entities=names, speaker=(text.clean_text(speaker).strip() or None) if speaker else None,
    )  # fmt: skip


def check_names(names: Sequence[str | None] | None, what: str, count: str) -> None:
    """:class:`~hindsight_pl.limits.LimitError` for more names than limit ``count`` allows or a name longer than
    ``name_chars`` (the message quotes its start)."""
    given = [n for n in names or () if isinstance(n, str)]
    limits.check_count(count, what, len(given))
    longest = max(given, key=len, default="")
    if len(longest) > limits.value("name_chars"):
        raise limits.refuse("name_chars", f"{what}: {longest[:40]!r}...", len(longest))


@dataclass
class Retained:
    """What :func:`retain` stored: ``rows`` of ``hindsight.retain`` (``item_index`` counted over the call,
    ``document_id``, ``unit_id`` text or None, ``merged``: the repeats stored as that unit, a list), and
    ``merges``: every repeated fact as ``(item_index, text, unit_id it was stored as, reason, similarity)``, and
    ``config``: the bank's effective config the units were made with (a caller may keep it for its next call)."""

    rows: list[dict[str, Any]] = field(default_factory=list)
    merges: list[tuple[int, str, str, str, float | None]] = field(default_factory=list)
    config: Mapping[str, Any] = field(default_factory=dict)  # the bank's effective config the items were made with


def retain(
    db: Database,
    bank_id: str,
    items: Sequence[Item],
    *,
    embedder_of_config: Callable[[Mapping[str, Any]], Embedder],
    llm_for: Callable[[Mapping[str, Any]], LLMClient | None],
    extractor: Extractor | None = None,
    create_bank: bool = False,
    config: Mapping[str, Any] | None = None,
    progress: Callable[[int], None] | None = None,
) -> Retained:
    """Store ``items`` (from :func:`prepare`) in the bank, :data:`GROUP_SIZE` at a time; the caller holds
    the transaction. ``config`` is the bank's effective config as the caller holds it (None: read here, once); each
    ``hindsight.retain`` compares it with the config it reads (``config_seen``: HS412 when it went stale, nothing
    stored), so a retain reads the config once a group. Facts are embedded by ``embedder_of_config(config)`` (the
    embedder of the bank's ``embedding_model``); the bank's extractor (config ``extractor``; ``llm`` through
    ``llm_for(config)``) unless ``extractor`` is given; facts repeated within the call are stored once (the bank's
    ``dedupe_similarity``); chunks a document already holds are not extracted again; the extractor knows the
    bank's :data:`~hindsight_pl.retain.units.KNOWN_NAMES` most mentioned names and the call's earlier ones. With
    ``create_bank`` a missing bank is created first. ``progress(n)`` follows each group.

    Raises :class:`InputError` for no items (:class:`~hindsight_pl.limits.LimitError` for more than
    ``items``), ``ProviderError`` / ``LLMError`` when a model fails; the
    database's errors (HS404 unknown bank, 22023 a bad item) pass through."""
    if not items:
        raise InputError("nothing to retain: no items")
    limits.check_count("items", "the call", len(items))
    if create_bank:
        db.rows("SELECT hindsight.create_bank($1::text, if_not_exists => true)", bank_id)
    if config is None:
        config = bank_config(db, bank_id)
    seen = json.dumps(config)
    extractor = extractor or units.bank_extractor(config, llm_for(config))
    embedder = embedder_of_config(config)
    dedupe = Deduplicator(float(config["dedupe_similarity"]))  # bank_config holds every key, its default stated once
    # names the bank knows tell a name from a sentence's first word ("Falcon sync notes:"); the call's own
    # names join them item by item (docs/retain.md "Entities")
    known = {str(r["canonical_name"]).lower() for r in db.rows(KNOWN_NAMES, bank_id, units.KNOWN_NAMES)}
    retained = Retained(config=config)
    unit_ids: dict[tuple[int | None, int], str] = {}  # (item, position among its units) -> its memory unit
    stored = Counter[int]()  # item -> how many of its units the rows gave so far
    for start in range(0, len(items), GROUP_SIZE):
        group = items[start : start + GROUP_SIZE]
        made = units.fill_units(
            group, extractor=extractor, embed=lambda texts: embedder.embed(texts, kind="passage"), dedupe=dedupe,
            stored=_chunk_hashes(db, bank_id, group), first_item=start, known=known,
        )  # fmt: skip
        payload = [item.payload(item_units) for item, item_units in zip(group, made, strict=True)]
        for row in db.rows(STORE, bank_id, json.dumps(payload), seen):
            row = dict(
                row,
                item_index=start + row["item_index"],
                unit_id=text_of(row["unit_id"]),
                merged=json_of(row["merged"]) or [],
            )
            retained.rows.append(row)
            if row["unit_id"] is not None:  # the rows list each item's units in order
                unit_ids[(row["item_index"], stored[row["item_index"]])] = row["unit_id"]
                stored[row["item_index"]] += 1
        if progress is not None:
            progress(len(group))
    for m in dedupe.merges:
        if m.kept_at is None:  # fill_units passes every fact kept by text on to by_embedding, which places it
            raise AssertionError(f"the repeat {m.repeat.text[:40]!r} names no stored unit")
        retained.merges.append((m.item or 0, m.repeat.text, unit_ids[m.kept_at], m.reason, m.similarity))
    return retained


def _chunk_hashes(db: Database, bank_id: str, group: Sequence[Item]) -> dict[str, Counter[str]]:
    """SHA-256 of the chunks each existing document of the group has, counted (a text may repeat)."""
    wanted = sorted({i.document_id for i in group if i.document_id})
    known: dict[str, Counter[str]] = {}
    if wanted:
        for row in db.rows(CHUNK_HASHES, bank_id, wanted):
            known.setdefault(row["document_id"], Counter())[row["content_hash"]] += 1
    return known
