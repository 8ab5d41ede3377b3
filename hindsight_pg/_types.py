"""Typed inputs and results of the driver."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta, tzinfo
from typing import Any
from uuid import UUID
from zoneinfo import ZoneInfo


@dataclass(frozen=True)
class MemoryItem:
    """One piece of content to retain (a message, a note, a document).

    ``timestamp`` is when it was said or written (naive datetimes are UTC; None
    means now); ``entities`` are names the caller knows it mentions; ``speaker``
    is who wrote or said content that is not in "Name: ..." turns (the bank's
    ``agent_name`` makes it the agent's own experience). Retaining an existing
    ``document_id`` again updates that document: ``update_mode`` "replace"
    (default) replaces its memories, "append" adds to them; chunks whose text
    did not change keep their memories either way.
    """

    content: str
    timestamp: datetime | str | None = None
    context: str | None = None
    document_id: str | None = None
    tags: Sequence[str] = ()
    metadata: Mapping[str, Any] | None = None
    entities: Sequence[str] = ()
    speaker: str | None = None
    update_mode: str = "replace"


@dataclass(frozen=True)
class Bank:
    """A memory bank and how many memory units it holds."""

    bank_id: str
    name: str | None
    config: dict[str, Any]
    created_at: datetime
    unit_count: int


@dataclass(frozen=True)
class Entity:
    """An entity of a bank: its canonical name, how many memory units mention it, when it was first and
    last mentioned, and the entities it occurs with most (name -> units), at most ten."""

    id: UUID
    canonical_name: str
    mention_count: int
    first_seen: datetime | None
    last_seen: datetime | None
    co_occurring: dict[str, int]


@dataclass(frozen=True)
class MergedFact:
    """A fact a retain call stored as another of its facts rather than as a unit of its own: the fact
    ``text`` of item ``item_index`` (0-based, in the call's items) was a repeat of the kept memory unit
    ``unit_id``, by ``reason`` ``same text`` (equal normalised text) or ``similar embedding`` (cosine
    ``similarity`` >= the bank's ``dedupe_similarity``), about the same day and with the same numbers,
    dates, negation and entities (docs/retain.md)."""

    item_index: int
    text: str
    unit_id: UUID
    reason: str
    similarity: float | None = None


@dataclass(frozen=True)
class RetainResult:
    """What one retain call stored: the document ids (one per item), the new memory unit ids, and the
    facts merged into one of those units as repeats (``merged``; every extracted fact is either a unit
    of ``unit_ids`` or there)."""

    bank_id: str
    document_ids: list[str]
    unit_ids: list[UUID]
    merged: list[MergedFact] = field(default_factory=list)


@dataclass(frozen=True)
class Scores:
    """How a result was scored.

    ``final`` ranks the results: ``rerank`` (the normalised cross-encoder score,
    or the passthrough) times the recency, temporal-proximity and proof boosts,
    plus any strategy bonus. ``recency``, ``temporal_proximity`` and ``proof``
    are the signals in [0, 1] (``temporal_proximity`` is None without a query
    window). Per arm: the 1-based rank and raw score, None when that arm did
    not return the unit.
    """

    final: float
    rrf: float
    rerank: float
    recency: float
    temporal_proximity: float | None
    proof: float
    semantic_rank: int | None = None
    semantic_score: float | None = None
    keyword_rank: int | None = None
    keyword_score: float | None = None
    graph_rank: int | None = None
    graph_score: float | None = None
    temporal_rank: int | None = None
    temporal_score: float | None = None


@dataclass(frozen=True)
class RecallResult:
    """One recalled memory unit, in rank order. ``relevance``: the probability in [0, 1] that it answers the
    query, the same across recalls (calibrated on the development splits; None when it cannot be told:
    docs/recall.md, "Relevance"); ``scores``: the figures that ranked it, comparable only within one recall."""

    rank: int
    id: UUID
    text: str
    fact_type: str
    context: str | None
    occurred_start: datetime | None
    occurred_end: datetime | None
    mentioned_at: datetime | None
    document_id: str | None
    chunk_id: str | None
    tags: list[str]
    metadata: dict[str, Any]
    tokens: int
    scores: Scores
    relevance: float | None = None

    def describe_when(self, time_zone: str | tzinfo = "UTC") -> str:
        """The unit's dates as every interface shows them (:func:`describe_when`), in days of ``time_zone``
        (the bank's ``time_zone`` config)."""
        return describe_when(self.mentioned_at, self.occurred_start, self.occurred_end, time_zone)


@dataclass(frozen=True)
class RecallResponse:
    """The results of a recall, best first, and the trace when one was asked for."""

    results: list[RecallResult] = field(default_factory=list)
    trace: dict[str, Any] | None = None

    @property
    def total_tokens(self) -> int:
        """Tokens (cl100k_base) of all result texts together."""
        return sum(r.tokens for r in self.results)


@dataclass(frozen=True)
class Memory:
    """One memory unit as it is now (``Client.update_memory``): its text, fact type (world, experience or
    observation), context, dates (aware, UTC; None when unknown), document and chunk, tags, metadata, the
    canonical names of the entities it mentions (alphabetical), and when a newer memory first revised it
    (``superseded_at``, None while none has)."""

    id: UUID
    text: str
    fact_type: str
    context: str | None
    occurred_start: datetime | None
    occurred_end: datetime | None
    mentioned_at: datetime | None
    document_id: str | None
    chunk_id: str | None
    tags: list[str]
    metadata: dict[str, Any]
    entities: list[str]
    superseded_at: datetime | None


@dataclass(frozen=True)
class MentalModel:
    """A named summary of a bank that reflect keeps up to date: ``source_query`` is answered on each
    refresh; ``content`` (None until the first refresh), ``based_on`` (memory ids) and
    ``last_refreshed_at`` hold the latest answer, ``history`` the earlier ones (oldest first)."""

    id: UUID
    name: str
    source_query: str
    tags: list[str]
    max_tokens: int
    content: str | None
    based_on: list[UUID]
    last_refreshed_at: datetime | None
    history: list[dict[str, Any]]


def describe_when(
    mentioned_at: datetime | None,
    occurred_start: datetime | None,
    occurred_end: datetime | None,
    time_zone: str | tzinfo = "UTC",
) -> str:
    """A memory unit's dates as one line of text, the rule every interface follows (docs/reference.md#dates):
    the day it was said (``mentioned_at``) and the days it is about (``occurred_start`` to ``occurred_end``),
    as days of ``time_zone`` (an IANA name or a tzinfo; naive datetimes are UTC).

    - said and about the same single day: that day alone, ``"2025-02-26"``;
    - otherwise both: ``"said 2025-02-26, about 2025-04-01"``;
    - undated (no ``occurred_start`` or ``occurred_end``): ``"said 2025-02-26"``; not said when
      (no ``mentioned_at``): ``"about 2025-04-01"``; neither: ``"undated"``.

    The days it is about are written shortest: one day ``2025-04-01``; whole calendar months
    ``2025-10`` or ``2025-03..2025-05``; whole years ``2025`` or ``1990..1999``; else a span of days
    ``2025-11-28..2025-11-29``, both ends included. One of ``occurred_start`` / ``occurred_end``
    alone stands for both. Raises ``ZoneInfoNotFoundError`` (a ``KeyError``) for an unknown zone name.
    """
    zone = ZoneInfo(time_zone) if isinstance(time_zone, str) else time_zone

    def day(moment: datetime) -> date:
        return (moment if moment.tzinfo else moment.replace(tzinfo=UTC)).astimezone(zone).date()

    said = day(mentioned_at) if mentioned_at is not None else None
    if occurred_start is None and occurred_end is None:
        return f"said {said.isoformat()}" if said else "undated"
    first = day(occurred_start if occurred_start is not None else occurred_end)  # type: ignore[arg-type]
    last = day(occurred_end if occurred_end is not None else occurred_start)  # type: ignore[arg-type]
    if said is not None and first == last == said:
        return said.isoformat()
    about = f"about {_days(first, last)}"
    return f"said {said.isoformat()}, {about}" if said else about


def _days(first: date, last: date) -> str:
    """The days from ``first`` to ``last`` (both included), shortest: a day, whole months, whole years, or a span."""
    if first >= last:
        return first.isoformat()
    whole_months = first.day == 1 and (last + timedelta(days=1)).day == 1
    if whole_months and first.month == 1 and last.month == 12:
        return str(first.year) if first.year == last.year else f"{first.year}..{last.year}"
    if whole_months:
        same = (first.year, first.month) == (last.year, last.month)
        return f"{first:%Y-%m}" if same else f"{first:%Y-%m}..{last:%Y-%m}"
    return f"{first.isoformat()}..{last.isoformat()}"
