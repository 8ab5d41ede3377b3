"""Recall as the driver and reflect's tools call it: the query's embedding from the caller's
embedder (or, without one, from the bank's provider inside the database), then either
``hindsight.recall_json`` (the bank's in-database cross-encoder, if any) or, with the caller's own
cross-encoder, ``hindsight.recall_candidates``, its scores, and ``hindsight.recall_finish``, the recall's state
(``hindsight.recall_state``: the config read once, the candidates, the trace) passed from the first to the last.
docs/recall.md describes every stage; this module only decides which SQL runs."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from .. import limits
from ..errors import InputError
from ..providers import Embedder, Reranker, reads
from ..text import clean_text, is_meaningful
from .banks import bank_config
from .database import Database, json_of, one

# Recall's arguments after (bank_id, query, query_embedding), stated once: name -> (SQL type, default, the stage
# that takes it). "candidates": hindsight.recall_candidates' arguments, in its order, which every recall entry point
# takes; "finish": hindsight.recall_finish's, which hindsight.recall and recall_json take after them (recall_json
# also include_chunks and max_chunk_tokens); "results": how many packed results recall returns. Every SQL
# signature (hindsight.recall, recall_json, recall_candidates, recall_finish, texts_to_rerank) and Client.recall's
# are held to this table by tests/db/test_interfaces.py.
ARGUMENTS: dict[str, tuple[str, Any, str]] = {
    "budget": ("text", "mid", "candidates"),
    "max_tokens": ("int", 4096, "candidates"),
    "types": ("text[]", None, "candidates"),
    "tags": ("text[]", None, "candidates"),
    "tags_match": ("text", "any", "candidates"),
    "query_timestamp": ("timestamptz", None, "candidates"),
    "trace": ("bool", False, "candidates"),
    "temporal_window": ("tstzrange", None, "candidates"),
    "fusion": ("text", "rrf", "candidates"),
    "cap_per_source": ("int", None, "candidates"),
    "arms": ("text[]", None, "candidates"),
    "passthrough": ("text", "calibrated", "finish"),
    "prefer_observations": ("bool", False, "finish"),
    "min_relevance": ("float8", None, "finish"),
    "max_results": ("int", 10, "results"),
}
CANDIDATE_ARGUMENTS: dict[str, str] = {
    name: kind for name, (kind, _, stage) in ARGUMENTS.items() if stage == "candidates"
}
FINISH_ARGUMENTS: dict[str, str] = {name: kind for name, (kind, _, stage) in ARGUMENTS.items() if stage == "finish"}
DEFAULTS: dict[str, Any] = {name: default for name, (_, default, _) in ARGUMENTS.items()}


def _named(arguments: dict[str, str], first: int) -> str:
    """``name => $n::type, ...`` for ``arguments``, numbered from ``first``."""
    return ", ".join(f"{name} => ${first + n}::{kind}" for n, (name, kind) in enumerate(arguments.items()))


RECALL_JSON = (
    "SELECT hindsight.recall_json(bank_id => $1::text, query => $2::text, query_embedding => $3::vector, "
    + _named({**CANDIDATE_ARGUMENTS, **FINISH_ARGUMENTS}, 4)
    + f", max_results => ${4 + len(CANDIDATE_ARGUMENTS) + len(FINISH_ARGUMENTS)}::int"
    + f", config_seen => ${5 + len(CANDIDATE_ARGUMENTS) + len(FINISH_ARGUMENTS)}::jsonb) AS response"
)  # a bare call: on Citus the coordinator sends it whole to the worker holding the bank
CANDIDATES = (
    "WITH s AS MATERIALIZED (SELECT hindsight.recall_candidates(bank_id => $1::text, query => $2::text,"
    " query_embedding => $3::vector, "
    + _named(CANDIDATE_ARGUMENTS, 4)
    + f", config_seen => ${4 + len(CANDIDATE_ARGUMENTS)}::jsonb) AS state)"
    # what the reader reads: the best reranker_candidates[budget] by boosted score, in that order
    f" SELECT s.state::text AS state, hindsight.texts_to_rerank(s.state, ${5 + len(CANDIDATE_ARGUMENTS)}::text)"
    " AS texts FROM s"
)  # then passthrough, the one argument after the candidates'
# the recall's state (config, candidates, trace so far) comes back as the value recall_candidates gave;
# the trace rides on the rank-1 row
FINISH = (
    "SELECT coalesce(jsonb_agg(to_jsonb(f) - 'trace' ORDER BY f.rank), '[]')::text AS results,"
    " (array_agg(f.trace) FILTER (WHERE f.rank = 1))[1]::text AS trace"
    " FROM hindsight.recall_finish(state => $1::hindsight.recall_state, rerank_scores => $2::float8[],"
    " passthrough => $3::text, prefer_observations => $4::bool, min_relevance => $5::float8) AS f"
    # the best max_results ($6, checked by recall() as hindsight.recall checks it; NULL: every packed result)
    " WHERE f.rank <= coalesce($6::int, f.rank)"
)


def vector_text(vector: Sequence[float]) -> str:
    """A vector parameter as pgvector's text form, ``[x,y,...]``."""
    return "[" + ",".join(repr(float(x)) for x in vector) + "]"


def recall(
    db: Database,
    bank_id: str,
    query: str,
    *,
    embedder: Embedder | None = None,
    embedder_of_config: Callable[[Mapping[str, Any]], Embedder] | None = None,
    config: Mapping[str, Any] | None = None,
    reranker: Reranker | None = None,
    **arguments: Any,
) -> dict[str, Any]:
    """Recall ``query`` from the bank: ``{"results": [rows of hindsight.recall as JSON objects, best
    first], "trace": {...} or None}``. ``arguments`` are those of :data:`CANDIDATE_ARGUMENTS` and
    :data:`FINISH_ARGUMENTS`, and ``max_results`` (the best 10 packed results; None: every one), defaults
    :data:`DEFAULTS` (times and the window as the database reads them). The query is cleaned first.
    ``embedder`` (``kind="query"``) embeds the query here, or the one
    ``embedder_of_config(bank config)`` gives, else the database does. ``config`` is the bank's effective config
    as the caller holds it (:func:`hindsight_pl.pipeline.banks.bank_config`, e.g. kept from an earlier call;
    None: read here); the database compares it with the config it reads (``config_seen``), so a recall reads the
    config once and a kept one that went stale raises HS412 before anything is done. ``reranker`` scores the
    candidates here when it reads the query's script (:func:`hindsight_pl.providers.reads`), else the bank's
    cross-encoder does (under the same rule).

    A query without a letter or digit has nothing to search for: ``hindsight.recall_json``'s own answer, no results
    after the same checks (nothing is embedded or read).

    Raises :class:`InputError` for an unknown argument, a ``max_results`` below 0 or a ``min_relevance`` outside
    [0, 1],
    :class:`~hindsight_pl.limits.LimitError` for a query longer than ``query_chars`` (2,000 characters),
    ``ProviderError`` when a model of the caller fails; the database's errors (HS404 unknown bank, 22023 a bad
    argument) pass through."""
    unknown = sorted(set(arguments) - set(DEFAULTS))
    if unknown:
        raise InputError(f"recall has no argument {unknown[0]!r}")
    given = {**DEFAULTS, **arguments}
    if given["max_results"] is not None and given["max_results"] < 0:  # hindsight.recall's rule, before any work
        raise InputError(
            f"max_results must be an integer >= 0 or None (every packed result), got {given['max_results']}"
        )
    if given["min_relevance"] is not None and not 0 <= given["min_relevance"] <= 1:
        raise InputError(f"min_relevance must be within [0, 1] or None (no floor), got {given['min_relevance']}")
    query = clean_text(query)
    blank = not is_meaningful(query)
    limits.check_query(query)  # before any model reads it
    if config is None:
        config = bank_config(db, bank_id)  # HS404 before embedding
    if embedder_of_config is not None and not blank:
        embedder = embedder_of_config(config)
    embedding = vector_text(embedder.embed([query], kind="query")[0]) if embedder is not None and not blank else None
    head = [bank_id, query, embedding, *(given[name] for name in CANDIDATE_ARGUMENTS)]
    seen = json.dumps(config)
    if blank or reranker is None or not reads(reranker, query):
        row = one(db, RECALL_JSON, *head, *(given[name] for name in FINISH_ARGUMENTS), given["max_results"], seen)
        document = json_of(row["response"]) if row else {"results": [], "trace": None}
        return {"results": document["results"], "trace": document["trace"]}
    found = one(db, CANDIDATES, *head, seen, given["passthrough"])
    assert found is not None  # one state: always one row
    scores = None
    if found["texts"]:
        scores = [float(x) for x in reranker.rerank(query, found["texts"])]
    finished = one(db, FINISH, found["state"], scores, given["passthrough"], given["prefer_observations"],
                   given["min_relevance"], given["max_results"])  # fmt: skip
    assert finished is not None  # an aggregate: always one row
    trace = json.loads(finished["trace"]) if finished["trace"] else None
    return {"results": json.loads(finished["results"]), "trace": trace}
