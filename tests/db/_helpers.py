"""Building banks directly through the SQL API, with vectors chosen by the test."""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import psycopg

DIMS = 384


def vec(**weights: float) -> list[float]:
    """A unit vector with the given weights on named axes d0..d383, e.g. vec(d0=1, d1=1)."""
    v = [0.0] * DIMS
    for name, weight in weights.items():
        v[int(name[1:])] = weight
    norm = math.sqrt(sum(x * x for x in v))
    return [x / norm for x in v]


def put(
    conn: psycopg.Connection[Any],
    bank_id: str,
    units: Sequence[tuple[str, list[float]] | Mapping[str, Any]],
    **item: Any,
) -> list[str]:
    """Retain one item per unit through hindsight.retain; returns the unit ids (as text) in order.

    A unit is (text, embedding) or a dict of unit fields; ``item`` adds item fields
    (tags, timestamp, ...) to every item.
    """
    items = []
    for unit in units:
        fields = {"text": unit[0], "embedding": unit[1]} if isinstance(unit, tuple) else dict(unit)
        items.append({**item, "units": [fields]})
    rows = conn.execute(
        "SELECT unit_id::text FROM hindsight.retain(%s, %s::jsonb)", (bank_id, json.dumps(items))
    ).fetchall()
    return [r[0] for r in rows]


# Bank config without retain's automatic temporal and semantic links, for tests
# that build a link structure by hand.
NO_LINKS = {"temporal_link_neighbours": 0, "semantic_link_top_k": 0}


# Banks of hand-made vectors (vec(d0=1, ...)) test the pipeline's mechanics at the cosine thresholds
# they were written for: all-MiniLM-L6-v2's (hindsight._model_defaults), where 0.3 is "related" and
# 0.7 "near" (the default model, E5, puts every pair of real texts above 0.75). Their texts are labels, not
# answers to read: they recall without the reader, so the passthrough's arithmetic is what they check
# (tests/db/test_reader.py reads real text with it).
HAND_MADE = {"embedding_model": "all-MiniLM-L6-v2", "reranker_provider": {"kind": "none"}}


def bank(conn: psycopg.Connection[Any], bank_id: str, **config: Any) -> str:
    """A bank for hand-made vectors (``HAND_MADE`` thresholds) with ``config`` on top."""
    conn.execute(
        "SELECT hindsight.create_bank(%s, config => %s::jsonb)", (bank_id, json.dumps({**HAND_MADE, **config}))
    )
    return bank_id


def recall(conn: psycopg.Connection[Any], bank_id: str, query: str, embedding: list[float] | None, **args: Any):
    """Rows of hindsight.recall as dicts, with named arguments."""
    names = ", ".join(f"{k} => %({k})s" for k in args)
    sql = "SELECT * FROM hindsight.recall(%(b)s, %(q)s, %(e)s::vector" + (f", {names}" if names else "") + ")"
    params = {"b": bank_id, "q": query, "e": None if embedding is None else str(embedding), **args}
    with conn.cursor(row_factory=psycopg.rows.dict_row) as cur:
        return cur.execute(sql, params).fetchall()


def locomo_file() -> Path:
    """LoCoMo for the tests that read it (hindsight_pg._inputs.locomo_path: $HINDSIGHT_LOCOMO, else the
    development file beside the project, ../shared/data); that place, absent, when there is none (they skip)."""
    from hindsight_pg import InvalidInputError
    from hindsight_pg._inputs import locomo_path

    beside = Path(__file__).resolve().parents[3] / "shared" / "data" / "locomo" / "locomo_dev.json"
    try:
        return locomo_path(default=beside)
    except InvalidInputError:
        return beside
