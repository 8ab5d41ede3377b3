"""Reflect and the mental-model refresh over a :class:`Database`: reflect's tools read the bank with
:func:`hindsight_pl.pipeline.recall.recall` and the extension's functions; the loop itself is
:func:`hindsight_pl.reflect.reflect_loop`. docs/reflect.md."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from .. import limits
from ..errors import InputError
from ..llm import LLMClient
from ..providers import Embedder, Reranker
from ..reflect import NO_LLM_HINT, ReflectResult, reflect_loop
from .banks import bank_config
from .database import Database, one
from .recall import recall, vector_text

SOURCE = "SELECT id::text AS id, source FROM hindsight.memory_source($1::text, $2::text)"
# the query's embedding from the caller ($2), else from the bank's provider in the database
MODELS = (
    "SELECT id::text AS id, name, content FROM hindsight.nearest_mental_models($1::text,"
    " coalesce($2::vector, (hindsight.embed($1::text, ARRAY[$3::text], 'query'))[1]))"
)
MENTAL_MODEL = (
    "SELECT source_query, tags, max_tokens FROM hindsight.mental_models WHERE bank_id = $1::text AND name = $2::text"
)
STORE = (
    "SELECT hindsight.store_mental_model($1::text, $2::text, $3::text,"
    " coalesce($4::vector, (hindsight.embed($1::text, ARRAY[$3::text], 'passage'))[1]), $5::uuid[]) IS NOT NULL"
    " AS stored"
)


class Tools:
    """:class:`hindsight_pl.reflect.Memory` over a database: recall with ``recall_args`` preferring
    observations, the source of a memory, the nearest mental models; the caller's ``embedder`` and
    ``reranker`` where given, else the bank's in-database providers."""

    def __init__(
        self, db: Database, bank_id: str, recall_args: Mapping[str, Any], embedder: Embedder | None,
        reranker: Reranker | None,
    ) -> None:  # fmt: skip
        self.db, self.bank_id, self.recall_args = db, bank_id, dict(recall_args)
        self.embedder, self.reranker = embedder, reranker

    def search(self, query: str, types: list[str] | None) -> list[tuple[Any, str, str, Any]]:
        found = recall(self.db, self.bank_id, query, embedder=self.embedder, reranker=self.reranker, types=types,
                       prefer_observations=True, **self.recall_args)  # fmt: skip
        rows = found["results"]
        return [(r["id"], r["text"], r["fact_type"], r["occurred_start"] or r["mentioned_at"]) for r in rows]

    def source(self, memory_id: str) -> tuple[Any, str] | None:
        row = one(self.db, SOURCE, self.bank_id, memory_id)
        return (row["id"], row["source"]) if row else None

    def mental_models(self, query: str) -> list[tuple[Any, str, str]]:
        vector = vector_text(self.embedder.embed([query], kind="query")[0]) if self.embedder is not None else None
        return [(r["id"], r["name"], r["content"]) for r in self.db.rows(MODELS, self.bank_id, vector, query)]


def reflect(
    db: Database,
    bank_id: str,
    query: str,
    *,
    llm_for: Callable[[Mapping[str, Any]], LLMClient | None],
    budget: str = "low",
    max_tokens: int = 4096,
    tags: Sequence[str] | None = None,
    tags_match: str = "any",
    response_schema: Mapping[str, Any] | None = None,
    query_timestamp: Any = None,
    embedder: Embedder | None = None,
    reranker: Reranker | None = None,
) -> ReflectResult:
    """Answer ``query`` from the bank's memory with the language model ``llm_for(config)`` gives
    (:func:`hindsight_pl.reflect.reflect_loop`); tools recall with ``max_tokens``, ``tags``,
    ``tags_match`` and ``query_timestamp``. Raises :class:`InputError` when the bank has no language
    model or for a bad budget, question or response_schema (:class:`~hindsight_pl.limits.LimitError` for a
    question over ``query_chars``), ``LLMError`` when the model fails; the
    database's errors pass through."""
    limits.check_query(query or "", "the question")  # before any work
    config = bank_config(db, bank_id)
    llm = llm_for(config)
    if llm is None:
        raise InputError(f"bank {bank_id!r} has no language model to reflect with", hint=NO_LLM_HINT)
    recall_args = {"budget": budget, "max_tokens": max_tokens, "tags": None if tags is None else list(tags),
                   "tags_match": tags_match, "query_timestamp": query_timestamp}  # fmt: skip
    tools = Tools(db, bank_id, recall_args, embedder, reranker)
    try:
        return reflect_loop(llm, config, query, budget=budget, memory=tools, response_schema=response_schema)
    except InputError:
        raise
    except ValueError as exc:  # a bad budget, question or response_schema
        raise InputError(str(exc)) from None


def refresh_mental_model(
    db: Database,
    bank_id: str,
    name: str,
    *,
    reflect_with: Callable[..., ReflectResult],
    embedder: Embedder | None = None,
) -> None:
    """Answer the mental model's source query with ``reflect_with(source_query, tags=..., max_tokens=...)``
    (budget low) and store the answer as its content, with its embedding (``embedder``, else the bank's
    provider in the database), the ids of the memories it rests on and the time; the previous content
    goes to its history (``hindsight.store_mental_model``). Raises :class:`InputError` when the bank
    has no mental model of that name, and what ``reflect_with`` raises."""
    bank_config(db, bank_id)  # HS404 for an unknown bank
    model = one(db, MENTAL_MODEL, bank_id, name)
    if model is None:
        raise InputError(
            f'bank "{bank_id}" has no mental model named "{name}"',
            hint="Create it with SELECT hindsight.create_mental_model(bank_id, name, source_query).",
        )
    result = reflect_with(model["source_query"], tags=model["tags"] or None, max_tokens=model["max_tokens"])
    content = result.answer if isinstance(result.answer, str) else json.dumps(result.answer)
    vector = vector_text(embedder.embed([content], kind="passage")[0]) if embedder is not None else None
    one(db, STORE, bank_id, name, content, vector, [m["id"] for m in result.based_on])
