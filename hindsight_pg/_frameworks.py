"""What the framework adapters (hindsight_pg.langchain, hindsight_pg.llama_index) share: one recall's results as
the metadata a framework's document carries."""

from __future__ import annotations

from typing import Any

from ._types import RecallResult


def result_metadata(result: RecallResult, time_zone: str) -> dict[str, Any]:
    """A recall result's id, rank, relevance, final score, dates (ISO 8601, and ``when`` as every interface writes
    them in the bank's ``time_zone``), fact type, context, tags, document and metadata: plain JSON values."""
    return {
        "id": str(result.id), "rank": result.rank, "relevance": result.relevance, "score": result.scores.final,
        "when": result.describe_when(time_zone),
        "mentioned_at": result.mentioned_at.isoformat() if result.mentioned_at else None,
        "occurred_start": result.occurred_start.isoformat() if result.occurred_start else None,
        "occurred_end": result.occurred_end.isoformat() if result.occurred_end else None,
        "fact_type": result.fact_type, "context": result.context, "tags": list(result.tags),
        "document_id": result.document_id, "metadata": dict(result.metadata),
    }  # fmt: skip
