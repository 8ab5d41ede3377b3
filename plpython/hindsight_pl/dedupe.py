"""Facts repeated within one retain call are stored once."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from .extract import Fact, normalise


class Deduplicator:
    """Remembers the facts kept so far in one retain call.

    A fact is a repeat when its normalised text (case-folded letters and digits)
    equals a kept one's, or when its embedding's cosine similarity to a kept
    fact's is at least ``threshold`` (embeddings are unit length, so the dot
    product). The first occurrence is kept, and takes the repeat's entities.
    """

    def __init__(self, threshold: float = 0.95) -> None:
        if not 0.0 <= threshold <= 1.0:
            raise ValueError(f"threshold must be a cosine similarity in [0, 1], got {threshold}")
        self.threshold = threshold
        self._texts: dict[str, Fact] = {}
        self._matrix = np.zeros((0, 0), dtype=np.float32)  # kept embeddings, rows 0.._count-1 in use
        self._count = 0
        self._kept: list[Fact] = []

    def by_text(self, facts: Sequence[Fact]) -> list[Fact]:
        """``facts`` without those whose normalised text was seen before in this call."""
        kept = []
        for fact in facts:
            key = normalise(fact.text)
            first = self._texts.get(key)
            if first is None:
                self._texts[key] = fact
                kept.append(fact)
            else:
                _merge_entities(first, fact)
        return kept

    def by_embedding(self, facts: Sequence[Fact], vectors: Sequence[Any]) -> list[Fact]:
        """``facts`` without those within ``threshold`` cosine of a fact kept before (here or earlier)."""
        kept = []
        for fact, vector in zip(facts, vectors, strict=True):
            v = np.asarray(vector, dtype=np.float32)
            if self._count:
                sims = self._matrix[: self._count] @ v
                best = int(np.argmax(sims))
                if float(sims[best]) >= self.threshold:
                    _merge_entities(self._kept[best], fact)
                    continue
            self._append(v)
            self._kept.append(fact)
            kept.append(fact)
        return kept

    def _append(self, v: np.ndarray) -> None:
        if self._count == len(self._matrix):
            grown = np.zeros((max(64, 2 * len(self._matrix)), len(v)), dtype=np.float32)
            if self._count:
                grown[: self._count] = self._matrix[: self._count]
            self._matrix = grown
        self._matrix[self._count] = v
        self._count += 1


def _merge_entities(first: Fact, repeat: Fact) -> None:
    known = {e.lower() for e in first.entities}
    first.entities.extend(e for e in repeat.entities if e.lower() not in known)
