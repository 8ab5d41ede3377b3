"""An ordinary role (LOGIN, not a superuser) granted a bank writes it on Citus as on one node: the driver's
retain and retain_batch, the CLI's retain and consolidate, hindsight.retain / retain_text / consolidate inside a
transaction block (where Citus does not delegate them and used to turn their multi-row INSERTs into COPY, which
row-level security refuses: "COPY FROM not supported with row-level security")."""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from typing import Any

import psycopg
import pytest
from _helpers import vec
from pgvector.psycopg import register_vector
from psycopg import sql
from typer.testing import CliRunner

from hindsight_pg import Client, LocalEmbedder, cli

NOTES = [
    "Ana adopted a grey cat named Pixel in May 2024.",
    "Ana's cat Pixel sleeps on the piano.",
    "Ana moved to Lisbon in March 2024.",
]


@pytest.fixture(params=["distributed", "single"])
def target(request: pytest.FixtureRequest, cluster) -> Iterator[dict[str, Any]]:
    """A login role, not a superuser, and a bank a superuser created and granted it 'write', on the distributed
    database and on the single-node twin: {"dsn": the role's DSN, "admin": DSN, "role", "bank"}."""
    dbname = "hindsight" if request.param == "distributed" else "single"
    role, bank_id = f"writer_{uuid.uuid4().hex[:8]}", f"roles-{request.param}-{uuid.uuid4().hex[:6]}"
    with psycopg.connect(cluster.dsn(), autocommit=True) as conn:  # roles are cluster-wide; Citus propagates them
        conn.execute(sql.SQL("CREATE ROLE {} LOGIN").format(sql.Identifier(role)))
    with psycopg.connect(cluster.dsn(dbname), autocommit=True) as conn:
        conn.execute("SELECT hindsight.create_bank(%s)", (bank_id,))
        conn.execute("SELECT hindsight.grant_bank(%s, %s, 'write')", (bank_id, role))
    yield {"dsn": cluster.dsn(dbname, user=role), "admin": cluster.dsn(dbname), "role": role, "bank": bank_id}
    with psycopg.connect(cluster.dsn(dbname), autocommit=True) as conn:
        conn.execute("SELECT hindsight.delete_bank(%s)", (bank_id,))
    with psycopg.connect(cluster.dsn(), autocommit=True) as conn:
        for dbn in ("hindsight", "single"):
            with psycopg.connect(cluster.dsn(dbn), autocommit=True) as other:
                other.execute(sql.SQL("DROP OWNED BY {}").format(sql.Identifier(role)))
        conn.execute(sql.SQL("DROP ROLE {}").format(sql.Identifier(role)))


def connect(dsn: str) -> psycopg.Connection[Any]:
    conn = psycopg.connect(dsn, autocommit=True)
    register_vector(conn)
    return conn


def counts(admin_dsn: str, bank_id: str) -> tuple[int, int, int]:
    """(memory units, documents, observations) of a bank, read as a superuser."""
    with psycopg.connect(admin_dsn) as conn:
        row = conn.execute(
            "SELECT count(*), count(DISTINCT document_id), count(*) FILTER (WHERE fact_type = 'observation')"
            " FROM hindsight.memory_units WHERE bank_id = %s",
            (bank_id,),
        ).fetchone()
    assert row is not None
    return int(row[0]), int(row[1]), int(row[2])


def test_the_driver_retains_and_consolidates_as_an_ordinary_role(target, embedder: LocalEmbedder):
    with connect(target["dsn"]) as conn:
        assert conn.execute("SELECT rolsuper FROM pg_roles WHERE rolname = current_user").fetchone() == (False,)
        client = Client(conn, embedder=embedder)
        one = client.retain(target["bank"], NOTES[0], entities=["Ana", "Pixel"], document_id="cat")
        assert one.document_ids == ["cat"] and one.unit_ids
        batch = client.retain_batch(target["bank"], [{"content": NOTES[1], "entities": ["Ana", "Pixel"]},
                                                     {"content": NOTES[2], "entities": ["Ana"]}])  # fmt: skip
        assert len(batch.document_ids) == 2 and len(batch.unit_ids) >= 2
        again = client.retain(target["bank"], NOTES[0] + " Pixel is three.", document_id="cat")  # an update
        assert again.unit_ids
        units, documents, _ = counts(target["admin"], target["bank"])
        assert documents == 3 and units >= 3
        client.consolidate(target["bank"])
        client.consolidate(target["bank"], use_llm=False)
        assert client.recall(target["bank"], "Which pet does Ana have?").results
        assert client.delete_document(target["bank"], "cat")
        # one memory at a time: corrected (re-embedded, re-linked) and forgotten, its document with it
        found = client.recall(target["bank"], "Where does Pixel sleep?", max_results=None).results
        piano = next(r for r in found if "piano" in r.text)
        memory = client.update_memory(target["bank"], piano.id, text="Ana's cat Pixel sleeps on the sofa now.",
                                      tags=["pets"])  # fmt: skip
        assert (memory.text, memory.tags) == ("Ana's cat Pixel sleeps on the sofa now.", ["pets"])
        assert "Pixel" in memory.entities
        lisbon = next(r for r in client.recall(target["bank"], "Where did Ana move?").results if "Lisbon" in r.text)
        assert client.delete_memory(target["bank"], lisbon.id) is True
        assert client.delete_memory(target["bank"], lisbon.id) is False
    assert counts(target["admin"], target["bank"])[1] == 1


def test_sql_writes_in_a_transaction_block_as_an_ordinary_role(target):
    bank_id = target["bank"]
    item = json.dumps([{"document_id": "d1", "content": "Kim plays cello. Kim lives in Oslo.",
                        "chunks": ["Kim plays cello.", "Kim lives in Oslo."],
                        "units": [{"text": "Kim plays cello.", "embedding": vec(d0=1), "entities": ["Kim"],
                                   "chunk_index": 0},
                                  {"text": "Kim lives in Oslo.", "embedding": vec(d0=1, d1=0.2),
                                   "entities": ["Kim", "Oslo"], "chunk_index": 1}]}])  # fmt: skip
    with connect(target["dsn"]) as conn:
        with conn.transaction():
            assert len(conn.execute("SELECT * FROM hindsight.retain(%s, %s::jsonb)", (bank_id, item)).fetchall()) == 2
            assert conn.execute("SELECT * FROM hindsight.retain_text(%s, 'Lee moved to Lisbon in March 2024.')",
                                (bank_id,)).fetchall()  # fmt: skip
        with conn.transaction():  # the same document again: its update path
            conn.execute("SELECT * FROM hindsight.retain(%s, %s::jsonb)", (bank_id, item.replace("Oslo", "Bergen")))
        with conn.transaction():
            rows = conn.execute("SELECT action FROM hindsight.consolidate(%s)", (bank_id,)).fetchall()
        assert rows == [("created",)]
        with conn.transaction():  # one memory at a time, inside a transaction block
            fact = "SELECT id FROM hindsight.memory_units WHERE bank_id = %s AND text = %s AND fact_type = 'world'"
            (cello,) = conn.execute(fact, (bank_id, "Kim plays cello.")).fetchone()
            row = conn.execute("SELECT (m).text, (m).entities FROM (SELECT hindsight.update_memory(%s, %s,"
                               " text => 'Kim plays viola in Porto.', embedding => %s::vector) AS m) x",
                               (bank_id, cello, vec(d0=1, d2=0.3))).fetchone()  # fmt: skip
            assert row == ("Kim plays viola in Porto.", ["Kim", "Porto"])
            assert conn.execute("SELECT hindsight.delete_memory(%s, %s)", (bank_id, cello)).fetchone() == (True,)
        assert conn.execute("SELECT * FROM hindsight.bank_stats WHERE bank_id = %s", (bank_id,)).fetchone()
        # the role may write only what it was granted: another bank stays out of reach
        with pytest.raises(psycopg.Error) as info:
            conn.execute("SELECT * FROM hindsight.retain(%s || '-other', %s::jsonb)", (bank_id, item))
        assert info.value.sqlstate == "HS404"
    units, documents, observations = counts(target["admin"], bank_id)
    assert (documents, observations) == (2, 1) and units >= 3


def test_the_cli_retains_and_consolidates_as_an_ordinary_role(target, tmp_path, monkeypatch):
    monkeypatch.setenv("HINDSIGHT_PG_DSN", target["dsn"])
    runner = CliRunner()
    notes = tmp_path / "notes.json"
    notes.write_text(json.dumps([{"speaker": "Ana", "text": t, "timestamp": "2024-06-01T10:00:00Z"} for t in NOTES]))
    for args in (["retain", target["bank"], str(notes)], ["consolidate", target["bank"]],
                 ["recall", target["bank"], "Which pet does Ana have?"]):  # fmt: skip
        result = runner.invoke(cli.app, args, env={"COLUMNS": "200"})
        assert result.exit_code == 0, (args, result.output, result.exception)
    assert "Pixel" in result.output
    units, documents, _ = counts(target["admin"], target["bank"])
    assert units >= 3 and documents >= 1
