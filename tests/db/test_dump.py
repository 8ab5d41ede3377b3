"""pg_dump / pg_restore keep every memory, entity, link, grant and config row; derived data is rebuilt."""

from __future__ import annotations

import subprocess

import psycopg
from _helpers import bank, put, recall, vec

from hindsight_pg._server import pg_bindir

TABLES = ["banks", "bank_members", "documents", "chunks", "memory_units", "entities", "unit_entities", "memory_links",
          "_bank_counts", "_bm25_terms", "_bm25_postings", "_entity_cooccurrences"]  # fmt: skip


def snapshot(conn: psycopg.Connection) -> dict:
    """Every table's rows (as sorted text) and two banks' recall results."""
    state = {t: sorted(r[0] for r in conn.execute(f"SELECT t::text FROM hindsight.{t} t").fetchall()) for t in TABLES}
    for bank_id, query, embedding in [("alpha", "tea kiwi", vec(d0=1)), ("beta", "launch", vec(d1=1))]:
        state[f"recall {bank_id}"] = [
            (str(r["id"]), r["rank"], round(r["score"], 9), r["keyword_rank"], r["graph_rank"])
            for r in recall(conn, bank_id, query, embedding, query_timestamp="2025-01-01")
        ]
    return state


def test_dump_and_restore_keep_everything(db, tmp_path):
    bank(db, "alpha", keyword_backend="bm25")
    bank(db, "beta", recall_budgets={"low": 50})
    first = put(db, "alpha", [
        {"text": "Alice drinks tea.", "embedding": vec(d0=1), "entities": ["Alice"]},
        {"text": "Alice grows kiwi.", "embedding": vec(d0=1, d2=1), "entities": ["Alice"]},
    ])  # fmt: skip
    put(db, "beta", [("The launch is on Friday.", vec(d1=1)), ("Launch party after.", vec(d1=1, d3=1))], tags=["work"])
    db.execute(
        "INSERT INTO hindsight.memory_links (bank_id, from_unit_id, to_unit_id, link_type, weight)"
        " VALUES ('alpha', %s, %s, 'causes', 0.9)",
        (first[0], first[1]),
    )
    db.execute("SELECT hindsight.grant_bank('alpha', 'pg_monitor', 'read')")
    before = snapshot(db)
    assert len(before["_bm25_postings"]) > 0 and len(before["recall alpha"]) == 2

    info = db.info
    target = f"restored_{info.dbname}"
    dump = tmp_path / "memories.dump"
    connection = ["-h", info.host, "-p", str(info.port), "-U", info.user]
    subprocess.run([str(pg_bindir() / "pg_dump"), *connection, "-Fc", "-f", str(dump), info.dbname], check=True)
    db.execute(f'CREATE DATABASE "{target}"')
    try:
        done = subprocess.run(
            [str(pg_bindir() / "pg_restore"), *connection, "-d", target, "--exit-on-error", str(dump)],
            capture_output=True, text=True, check=False,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
        with psycopg.connect(host=info.host, port=info.port, user=info.user, dbname=target, autocommit=True) as other:
            from pgvector.psycopg import register_vector

            register_vector(other)
            after = snapshot(other)
    finally:
        db.execute(f'DROP DATABASE "{target}" WITH (FORCE)')
    assert after == before
