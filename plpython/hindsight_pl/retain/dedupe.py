"""Facts repeated within one retain call, about the same day, are stored once, and each merge is recorded."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

import numpy as np

from .. import limits
from ..signature import Signature, difference, signature
from .extract import Fact
from .sentences import normalise

SAME_TEXT = "same text"
SIMILAR_EMBEDDING = "similar embedding"


@dataclass
class Merge:
    """A fact stored as another of the call: ``repeat`` (of the caller's item ``item``) was merged into
    ``kept``, for ``reason`` ``same text`` or ``similar embedding`` (cosine ``similarity``). ``kept_at`` is where
    ``kept`` is stored (:meth:`Deduplicator.place`), once :meth:`Deduplicator.by_embedding` has kept it."""

    repeat: Fact
    item: int | None
    kept: Fact
    reason: str
    similarity: float | None = None
    kept_at: tuple[int | None, int] | None = None


class _Kept:
    """The embeddings of the facts kept for one day, rows 0..count-1 in use."""

    def __init__(self) -> None:
        self.matrix = np.zeros((0, 0), dtype=np.float32)
        self.count = 0
        self.facts: list[Fact] = []

    def append(self, v: np.ndarray, fact: Fact) -> None:
        if self.count == len(self.matrix):
            grown = np.zeros((max(64, 2 * len(self.matrix)), len(v)), dtype=np.float32)
            if self.count:
                grown[: self.count] = self.matrix[: self.count]
            self.matrix = grown
        self.matrix[self.count] = v
        self.count += 1
        self.facts.append(fact)


class Deduplicator:
    """Remembers the facts kept so far in one retain call, and what was merged into them.

    A fact is a repeat of a kept one when both are about the same day (its ``occurred_start``'s
    date, else the date its item was said, ``said``), nothing that tells facts apart differs
    (numbers, dates, negation, entities: :func:`hindsight_pl.signature.difference`), and its
    normalised text (case-folded letters and digits) equals the kept one's, or its embedding's
    cosine similarity to the kept one's is at least ``threshold`` (embeddings are unit length, so
    the dot product). The first occurrence is kept, takes the repeat's entities, and the merge is
    recorded in :attr:`merges`. The same sentence about two days (a habit: "Ana ran 5 km" on
    Monday and on Friday) is two facts; so are "Mara planted 2 tulips" and "Mara planted 3 tulips".
    """

    def __init__(self, threshold: float) -> None:
        """``threshold``: the bank's ``dedupe_similarity`` (its default is stated once, hindsight._default_config)."""
        if not 0.0 <= threshold <= 1.0:
            raise ValueError(f"threshold must be a cosine similarity in [0, 1], got {threshold}")
        self.threshold = threshold
        self._merges: list[Merge] = []
        self._into: dict[int, Fact] = {}  # id(merged fact) -> the fact it was merged into
        self._texts: dict[tuple[date | None, str], list[Fact]] = {}
        self._days: dict[date | None, _Kept] = {}
        self._signatures: dict[int, Signature] = {}
        self._places: dict[int, tuple[int | None, int]] = {}  # id(fact kept by embedding) -> (item, position)
        self._count: dict[int | None, int] = {}  # item -> how many of its facts by_embedding kept

    @property
    def merges(self) -> list[Merge]:
        """Every merge of the call so far, in order, each naming the fact finally kept (a fact kept by
        text and then merged by embedding passes its repeats on)."""
        for merge in self._merges:
            while id(merge.kept) in self._into:
                merge.kept = self._into[id(merge.kept)]
            merge.kept_at = self.place(merge.kept)
        return list(self._merges)

    def place(self, fact: Fact) -> tuple[int | None, int] | None:
        """Where a fact :meth:`by_embedding` kept is stored: ``(item, n)``, the ``n``-th fact (0-based) it kept of
        that item, which is the item's ``n``-th memory unit; None for a fact it has not kept."""
        return self._places.get(id(fact))

    def by_text(self, facts: Sequence[Fact], said: datetime | None = None, item: int | None = None) -> list[Fact]:
        """``facts`` (of item ``item``) without those whose normalised text was seen before in this call, for the
        same day, with the same distinguishing features."""
        kept = []
        for fact in facts:
            same = self._texts.setdefault((_day(fact, said), normalise(fact.text)), [])
            first = next((f for f in same if difference(self._signature(f), self._signature(fact)) is None), None)
            if first is None:
                same.append(fact)
                kept.append(fact)
            else:
                self._merge(fact, item, first, SAME_TEXT, None)
        return kept

    def by_embedding(
        self, facts: Sequence[Fact], vectors: Sequence[Any], said: datetime | None = None, item: int | None = None
    ) -> list[Fact]:
        """``facts`` (of item ``item``) without those within ``threshold`` cosine of a fact kept before (here or
        earlier) for the same day, with the same distinguishing features; the most similar such fact takes
        the repeat."""
        kept = []
        for fact, vector in zip(facts, vectors, strict=True):
            limits.checkpoint()  # thousands of facts of one long text: a cancel takes effect between two
            v = np.asarray(vector, dtype=np.float32)
            day = self._days.setdefault(_day(fact, said), _Kept())
            first = None
            if day.count:
                sims = day.matrix[: day.count] @ v
                close = np.flatnonzero(sims >= self.threshold)
                for row in close[np.argsort(-sims[close], kind="stable")]:
                    if difference(self._signature(day.facts[row]), self._signature(fact)) is None:
                        first = int(row)
                        break
            if first is None:
                day.append(v, fact)
                kept.append(fact)
                self._places[id(fact)] = (item, self._count.get(item, 0))
                self._count[item] = self._count.get(item, 0) + 1
            else:
                self._merge(fact, item, day.facts[first], SIMILAR_EMBEDDING, round(float(sims[first]), 4))
        return kept

    def _signature(self, fact: Fact) -> Signature:
        found = self._signatures.get(id(fact))
        if found is None:
            found = signature(fact.text, fact.entities, fact.occurred_start, fact.occurred_end)
            self._signatures[id(fact)] = found
        return found

    def _merge(self, repeat: Fact, item: int | None, first: Fact, reason: str, similarity: float | None) -> None:
        known = {e.lower() for e in first.entities}
        first.entities.extend(e for e in repeat.entities if e.lower() not in known)
        self._signatures.pop(id(first), None)  # its entities changed
        self._merges.append(Merge(repeat, item, first, reason, similarity))
        self._into[id(repeat)] = first


def _day(fact: Fact, said: datetime | None) -> date | None:
    """The day a fact is about, by the one rule for a unit's date (hindsight._effective_date): when it began,
    else when it ended, else when it was said (None when none is known)."""
    moment = fact.occurred_start or fact.occurred_end or said
    return moment.date() if moment is not None else None
