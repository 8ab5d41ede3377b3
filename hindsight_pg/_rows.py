"""The database's rows as the driver's types: recall's results (from ``hindsight.recall_json``) and memories."""

from __future__ import annotations

import dataclasses
from datetime import datetime
from typing import Any
from uuid import UUID

from ._types import Memory, RecallResult, Scores

_SCORE_COLUMNS = {
    "score": "final", "rrf_score": "rrf", "rerank_score": "rerank", "recency": "recency",
    "temporal_proximity": "temporal_proximity", "proof": "proof",
    "semantic_rank": "semantic_rank", "semantic_score": "semantic_score", "keyword_rank": "keyword_rank",
    "keyword_score": "keyword_score", "graph_rank": "graph_rank", "graph_score": "graph_score",
    "temporal_rank": "temporal_rank", "temporal_score": "temporal_score",
}  # fmt: skip


_JSON_TIMES = ("occurred_start", "occurred_end", "mentioned_at")


def _from_json(row: dict[str, Any]) -> dict[str, Any]:
    """A result of hindsight.recall_json as the row hindsight.recall returns (uuid and timestamptz typed)."""
    row = dict(row, id=UUID(row["id"]))
    for name in _JSON_TIMES:
        if row[name] is not None:
            row[name] = datetime.fromisoformat(row[name])
    return row


def _result(row: dict[str, Any]) -> RecallResult:
    scores = Scores(**{field: row.pop(column) for column, field in _SCORE_COLUMNS.items()})
    return RecallResult(**row, scores=scores)


def _memory(row: tuple[Any, ...]) -> Memory:
    """A :class:`Memory` from a row of ``hindsight.memory``, in its order."""
    memory = Memory(*row)
    return dataclasses.replace(memory, tags=list(memory.tags), metadata=dict(memory.metadata),
                               entities=list(memory.entities))  # fmt: skip
