"""The analytics views."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from _helpers import NO_LINKS, bank, put, vec
from psycopg.rows import dict_row


def rows(db, query):
    with db.cursor(row_factory=dict_row) as cur:
        return cur.execute(query).fetchall()


@pytest.fixture
def filled(db):
    bank(db, "v", **NO_LINKS)
    ids = put(db, "v", [
        {"text": "Alice and Bob met.", "embedding": vec(d0=1), "entities": ["Alice", "Bob"],
         "mentioned_at": "2024-01-10T00:00Z"},
        {"text": "Alice and Bob shipped.", "embedding": vec(d1=1), "entities": ["Alice", "Bob"],
         "mentioned_at": "2024-03-05T00:00Z"},
        {"text": "I booked a flight with Carol.", "embedding": vec(d2=1), "entities": ["Carol", "Alice"],
         "fact_type": "experience", "occurred_start": "2024-03-20T00:00Z", "mentioned_at": "2024-04-01T00:00Z"},
    ])  # fmt: skip
    db.execute(
        "INSERT INTO hindsight.memory_links (bank_id, from_unit_id, to_unit_id, link_type, weight) VALUES"
        " ('v', %s, %s, 'temporal', 0.5), ('v', %s, %s, 'causes', 0.7)",
        (ids[0], ids[1], ids[1], ids[2]),
    )
    bank(db, "empty")
    return ids


def test_bank_stats(db, filled):
    stats = {r["bank_id"]: r for r in rows(db, "SELECT * FROM hindsight.bank_stats")}
    v = stats["v"]
    assert (v["units"], v["world_units"], v["experience_units"], v["observation_units"]) == (3, 2, 1, 0)
    assert (v["entities"], v["temporal_links"], v["semantic_links"], v["causal_links"]) == (3, 1, 0, 1)
    assert (v["first_date"], v["last_date"]) == (datetime(2024, 1, 10, tzinfo=UTC), datetime(2024, 3, 20, tzinfo=UTC))
    assert (v["documents"], v["chunks"]) == (3, 0)
    assert stats["empty"]["units"] == 0 and stats["empty"]["first_date"] is None


def test_entity_graph(db, filled):
    pairs = {frozenset((r["entity_a"], r["entity_b"])): r for r in rows(db, "SELECT * FROM hindsight.entity_graph")}
    assert set(pairs) == {frozenset({"Alice", "Bob"}), frozenset({"Alice", "Carol"})}
    alice_bob = pairs[frozenset({"Alice", "Bob"})]
    assert (alice_bob["co_occurrences"], alice_bob["last_co_occurrence"]) == (2, datetime(2024, 3, 5, tzinfo=UTC))
    assert pairs[frozenset({"Alice", "Carol"})]["co_occurrences"] == 1


def test_memory_timeline(db, filled):
    timeline = rows(
        db, "SELECT month, fact_type, units FROM hindsight.memory_timeline WHERE bank_id = 'v' ORDER BY 1, 2"
    )
    assert [(r["month"].strftime("%Y-%m"), r["fact_type"], r["units"]) for r in timeline] == [
        ("2024-01", "world", 1), ("2024-03", "experience", 1), ("2024-03", "world", 1),
    ]  # fmt: skip


def test_every_view_has_a_comment(db):
    missing = db.execute(
        "SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace"
        " WHERE n.nspname = 'hindsight' AND c.relkind = 'v' AND obj_description(c.oid, 'pg_class') IS NULL"
    ).fetchall()
    assert missing == []
