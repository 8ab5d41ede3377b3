"""Facts repeated within one retain call, about the same day, are stored once."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, datetime
from typing import Any

import numpy as np

from .extract import Fact, normalise


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
    """Remembers the facts kept so far in one retain call.

    A fact is a repeat when it is about the same day as a kept one (its ``occurred_start``'s
    date, else the date its item was said, ``said``) and its normalised text (case-folded
    letters and digits) equals the kept one's, or its embedding's cosine similarity to the kept
    one's is at least ``threshold`` (embeddings are unit length, so the dot product). The first
    occurrence is kept, and takes the repeat's entities. The same sentence about two days (a
    habit: "Ana ran 5 km" on Monday and on Friday) is two facts.
    """

    def __init__(self, threshold: float = 0.95) -> None:
        if not 0.0 <= threshold <= 1.0:
            raise ValueError(f"threshold must be a cosine similarity in [0, 1], got {threshold}")
        self.threshold = threshold
        self._texts: dict[tuple[date | None, str], Fact] = {}
        self._days: dict[date | None, _Kept] = {}

    def by_text(self, facts: Sequence[Fact], said: datetime | None = None) -> list[Fact]:
        """``facts`` without those whose normalised text was seen before in this call, for the same day."""
        kept = []
        for fact in facts:
            key = (_day(fact, said), normalise(fact.text))
            first = self._texts.get(key)
            if first is None:
                self._texts[key] = fact
                kept.append(fact)
            else:
                _merge_entities(first, fact)
        return kept

    def by_embedding(self, facts: Sequence[Fact], vectors: Sequence[Any], said: datetime | None = None) -> list[Fact]:
        """``facts`` without those within ``threshold`` cosine of a fact kept before (here or earlier) for the
        same day."""
        kept = []
        for fact, vector in zip(facts, vectors, strict=True):
            v = np.asarray(vector, dtype=np.float32)
            day = self._days.setdefault(_day(fact, said), _Kept())
            if day.count:
                sims = day.matrix[: day.count] @ v
                best = int(np.argmax(sims))
                if float(sims[best]) >= self.threshold:
                    _merge_entities(day.facts[best], fact)
                    continue
            day.append(v, fact)
            kept.append(fact)
        return kept


def _day(fact: Fact, said: datetime | None) -> date | None:
    """The day a fact is about: when it happened, else when it was said (None when neither is known)."""
    moment = fact.occurred_start or said
    return moment.date() if moment is not None else None


def _merge_entities(first: Fact, repeat: Fact) -> None:
    known = {e.lower() for e in first.entities}
    first.entities.extend(e for e in repeat.entities if e.lower() not in known)
