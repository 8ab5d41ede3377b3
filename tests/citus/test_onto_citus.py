"""Onto Citus with data (docs/scale-out.md, Moving a database with banks onto a cluster): a single-node
database holding banks becomes the coordinator's, hindsight.distribute() moves every bank to the workers
whole (rows, statistics, links, observations), recall returns what it returned before; a 0.2.0 database
with memories is updated with ALTER EXTENSION UPDATE, then distributed. Each test has a database of its
own on the session's nodes (CitusCluster.add_database), Citus created in it only after the memories."""

from __future__ import annotations

import json
import uuid
from typing import Any

import psycopg
import pytest
from _cluster import worker_of
from _helpers import vec
from pgvector.psycopg import register_vector
from psycopg import sql
from test_distribute import BANK_TABLES, assert_derived_exact

from hindsight_pg import Client

TEXTS = [
    "Kim plays the cello every Sunday with Lee.",
    "Kim moved to Oslo in 2021 for a job at Statkraft.",
    "Lee teaches piano to Kim and Max on Tuesdays.",
    "Max adopted a cat called Miso in March.",
    "The team ships release 4.2 on Friday.",
]
QUESTIONS = ["Where does Kim live?", "Who teaches piano?", "When does the release ship?"]


def connect(dsn: str, extension: str = "") -> psycopg.Connection[Any]:
    """A connection (autocommit) to a new database, the extension created first (``extension``: the SQL)."""
    conn = psycopg.connect(dsn, autocommit=True)
    conn.execute("SET client_min_messages = warning")
    conn.execute(extension or "CREATE EXTENSION hindsight_pg CASCADE")
    register_vector(conn)
    return conn


def digests(conn: psycopg.Connection[Any]) -> dict[str, tuple[int, str]]:
    """Every bank table's rows: (count, md5 of all its columns' text, in order)."""
    found = {}
    for table in BANK_TABLES:
        query = sql.SQL(
            "SELECT count(*), md5(coalesce(string_agg(r::text, E'\\n' ORDER BY r::text), '')) FROM {} r"
        ).format(sql.Identifier("hindsight", table))
        found[table] = conn.execute(query).fetchone()
    return found


def test_a_database_with_banks_moves_onto_the_cluster(cluster, embedder):
    name = f"onto_{uuid.uuid4().hex[:8]}"
    cluster.add_database(name, citus=False)  # a plain single-node database, no Citus yet
    banks = [f"onto-{i}" for i in range(6)]
    with connect(cluster.dsn(name)) as conn:
        client = Client(conn, embedder=embedder)
        configs = {0: {"observation_similarity": 0.85}, 5: {"keyword_backend": "native"}}
        for i, b in enumerate(banks):
            client.create_bank(b, config=configs.get(i))
            client.retain_batch(b, [f"{t} ({b})" for t in TEXTS])
        client.retain_batch(banks[0], ["Kim plays cello with Lee on Sundays.", "On Sundays Kim and Lee play cello."])
        client.consolidate(banks[0], use_llm=False)  # observations and their sources move too
        before = {(b, q): [(r.id, r.text) for r in client.recall(b, q).results] for b in banks for q in QUESTIONS}
        rows = digests(conn)
        assert rows["memory_units"][0] >= 30 and rows["observation_sources"][0] > 0
        assert rows["_bm25_postings"][0] > 0 and rows["memory_links"][0] > 0

        cluster.enable_citus(name)  # the node becomes a coordinator with two workers
        moved = conn.execute("SELECT hindsight.distribute(shard_count => 4)").fetchone()[0]
        assert moved[: len(BANK_TABLES)] == [f"hindsight.{t}" for t in BANK_TABLES]
        assert {worker_of(conn, b) for b in banks} == {w.port for w in cluster.workers}
        # every row where it was, and the coordinator's own copies emptied
        assert digests(conn) == rows
        for table in BANK_TABLES:
            assert conn.execute("SELECT pg_relation_size(%s::regclass)", (f"hindsight.{table}",)).fetchone() == (0,)
        after = {(b, q): [(r.id, r.text) for r in client.recall(b, q).results] for b in banks for q in QUESTIONS}
        assert after == before
        # the triggers are back on: a retain after keeps the statistics exact on the workers
        for b in banks:
            assert_derived_exact(conn, b)
        client.retain(banks[1], "Kim bought a bicycle in Oslo.")
        assert_derived_exact(conn, banks[1])
        assert "Kim bought a bicycle in Oslo." in [r.text for r in client.recall(banks[1], "What did Kim buy?").results]
        # a second call distributes nothing and moves nothing
        placement = conn.execute("SELECT shardid, nodeport FROM pg_dist_shard_placement ORDER BY 1").fetchall()
        assert conn.execute("SELECT hindsight.distribute()").fetchone() == ([],)
        assert conn.execute("SELECT shardid, nodeport FROM pg_dist_shard_placement ORDER BY 1").fetchall() == placement


def recall_texts(conn: psycopg.Connection[Any], bank: str, question: str, d: int) -> list[str]:
    return [r[0] for r in conn.execute(
        "SELECT text FROM hindsight.recall(%s, %s, %s::vector, max_tokens => 100000) ORDER BY rank",
        (bank, question, str(vec(**{f"d{d}": 1}))),
    ).fetchall()]  # fmt: skip


@pytest.mark.parametrize("citus_first", [False, True], ids=["citus-after-update", "citus-before-0.2.0"])
def test_a_0_2_0_database_with_memories_updates_then_distributes(cluster, citus_first):
    """0.2.0 cannot be distributed (its triggers and the subqueries in its policies are refused by Citus):
    the path is ALTER EXTENSION UPDATE first, on the single node or on a coordinator whose tables are not
    distributed yet, then hindsight.distribute()."""
    name = f"from020_{uuid.uuid4().hex[:8]}"
    cluster.add_database(name, citus=citus_first)
    banks = [f"old-{i}" for i in range(4)]
    with connect(cluster.dsn(name), "CREATE EXTENSION hindsight_pg VERSION '0.2.0' CASCADE") as conn:
        for b in banks:
            conn.execute("SELECT hindsight.create_bank(%s)", (b,))
            items = [{"content": t, "units": [{"text": t, "embedding": vec(**{f"d{i}": 1})}]}
                     for i, t in enumerate(TEXTS)]  # fmt: skip
            conn.execute("SELECT count(*) FROM hindsight.retain(%s, %s::jsonb)", (b, json.dumps(items)))
        asked = {(b, q): recall_texts(conn, b, q, d) for b in banks for d, q in enumerate(QUESTIONS, start=1)}
        conn.execute("ALTER EXTENSION hindsight_pg UPDATE")
        assert conn.execute("SELECT extversion FROM pg_extension WHERE extname = 'hindsight_pg'").fetchone() == (
            "0.3.0",
        )
        updated = {(b, q): recall_texts(conn, b, q, d) for b in banks for d, q in enumerate(QUESTIONS, start=1)}
        # the same memories, the same first one; below it the order may change: 0.3.0's keyword arm ranks
        # with BM25 (docs/integrations.md, Upgrading), so distribution is compared with the updated recall
        assert {k: (v[0], sorted(v)) for k, v in updated.items()} == {k: (v[0], sorted(v)) for k, v in asked.items()}
        rows = digests(conn)
        if not citus_first:
            cluster.enable_citus(name)
        conn.execute("SELECT hindsight.distribute(shard_count => 4)")
        assert {worker_of(conn, b) for b in banks} == {w.port for w in cluster.workers}
        assert digests(conn) == rows
        assert {(b, q): recall_texts(conn, b, q, d) for b in banks for d, q in enumerate(QUESTIONS, start=1)} == updated
        for node in cluster.workers:  # the workers hold the same version, which runs the delegated calls
            with psycopg.connect(node.dsn(name)) as worker:
                assert worker.execute(
                    "SELECT extversion FROM pg_extension WHERE extname = 'hindsight_pg'"
                ).fetchone() == ("0.3.0",)
        for b in banks:
            assert_derived_exact(conn, b)
        item = [{"units": [{"text": "Kim bought a bicycle.", "embedding": vec(d9=1)}]}]
        conn.execute("SELECT * FROM hindsight.retain(%s, %s::jsonb)", (banks[0], json.dumps(item)))
        assert recall_texts(conn, banks[0], "What did Kim buy? bicycle", 9)[0] == "Kim bought a bicycle."
        assert_derived_exact(conn, banks[0])
