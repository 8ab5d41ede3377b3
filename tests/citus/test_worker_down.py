"""One worker down stops nothing that names a bank of another worker (docs/scale-out.md, "When a worker is down").

A call that names one bank reaches only the worker holding it: not one statement sent to every shard, no
two-phase commit across nodes. The tests count what a one-bank call sends to the other worker, then stop that
worker (on a cluster of their own: the session's shared one keeps its workers) and run every public function on
a bank of the worker left, through SQL (alone, delegated, and inside a transaction block, where it is not), the
driver and the CLI.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from typing import Any

import psycopg
import pytest
from _cluster import CitusCluster, Sent, worker_of
from _helpers import vec
from pgvector.psycopg import register_vector
from psycopg import sql
from typer.testing import CliRunner

from hindsight_pg import Client, HindsightError, LocalEmbedder, cli

FACTS = [
    {"content": "Ana adopted a grey cat named Pixel.", "entities": ["Ana", "Pixel"]},
    {"content": "Ana moved to Lisbon in March 2024.", "entities": ["Ana", "Lisbon"]},
    {"content": "Ana's cat Pixel sleeps on the piano.", "entities": ["Ana", "Pixel"]},
]
SCRIPT = [
    {"tool": "recall", "arguments": {"query": "Which pet does Ana have?"}},
    {"tool": "done", "arguments": {"answer": "Ana has a grey cat named Pixel.", "memory_ids": ["$first"]}},
]


@pytest.fixture(scope="module")
def own() -> Iterator[CitusCluster]:
    """A cluster of this module's own (a worker of it is stopped), distributed, with a role that may log in."""
    with CitusCluster(workers=2) as started:
        with psycopg.connect(started.dsn(), autocommit=True) as conn:
            conn.execute("SET client_min_messages = warning")
            conn.execute("CREATE EXTENSION hindsight_pg CASCADE")
            conn.execute("SELECT hindsight.distribute(shard_count => 8)")
            conn.execute("CREATE ROLE reader_down LOGIN")  # CREATE ROLE needs every worker: made before
        yield started


def connect(dsn: str) -> psycopg.Connection[Any]:
    conn = psycopg.connect(dsn, autocommit=True)
    register_vector(conn)
    return conn


def bank_on(conn: psycopg.Connection[Any], port: int, prefix: str) -> str:
    """A fresh bank id whose shards are on the worker listening on port."""
    for _ in range(200):
        bank_id = f"{prefix}-{uuid.uuid4().hex[:8]}"
        if worker_of(conn, bank_id) == port:
            return bank_id
    raise AssertionError(f"no bank id on the worker at {port}")


def items(texts: list[str], document_id: str) -> str:
    """retain's items: one document whose chunks are the texts, one unit per chunk naming Ana."""
    units = [{"text": t, "embedding": vec(**{f"d{i}": 1.0, "d9": 0.5}), "entities": ["Ana"], "chunk_index": i}
             for i, t in enumerate(texts)]  # fmt: skip
    return json.dumps([{"document_id": document_id, "content": " ".join(texts), "chunks": texts, "units": units}])


def test_a_one_bank_retain_sends_nothing_to_the_other_worker(own, embedder: LocalEmbedder):
    live, other = own.workers[0].port, own.workers[1].port
    with connect(own.dsn()) as conn:
        bank_id = bank_on(conn, live, "count")
        conn.execute("SELECT hindsight.create_bank(%s)", (bank_id,))
        conn.execute("SELECT * FROM hindsight.retain(%s, %s::jsonb)", (bank_id, items(["Ana plays cello."], "d0")))
        texts = ["Ana moved to Lisbon.", "Ana moved to Porto.", "Ana likes PostgreSQL 11."]
        # in a transaction block: not delegated, every statement goes from the coordinator
        for label, call in [
            ("retain", lambda: conn.execute("SELECT * FROM hindsight.retain(%s, %s::jsonb)",
                                            (bank_id, items(texts, "d1")))),
            ("retain again", lambda: conn.execute("SELECT * FROM hindsight.retain(%s, %s::jsonb)",
                                                  (bank_id, items(texts[:2], "d1")))),
            ("consolidate", lambda: conn.execute("SELECT * FROM hindsight.consolidate(%s)", (bank_id,))),
            ("link_updates", lambda: conn.execute("SELECT hindsight.link_updates(%s)", (bank_id,))),
            ("bank_stats", lambda: conn.execute("SELECT * FROM hindsight.bank_stats WHERE bank_id = %s", (bank_id,))),
            ("delete_document", lambda: conn.execute("SELECT hindsight.delete_document(%s, 'd1')", (bank_id,))),
        ]:  # fmt: skip
            with Sent(conn) as sent, conn.transaction():
                call()
            ports = [port for _, port in sent.commands]
            assert ports.count(live) > 0, label
            assert [c for c, port in sent.commands if port != live] == [], label
            assert not any(c.startswith("PREPARE TRANSACTION") for c, _ in sent.commands), label  # one-phase
        # the driver's retain (a transaction of its own: not delegated)
        with Sent(conn) as sent:
            Client(conn, embedder=embedder).retain(bank_id, "Ana moved to Faro in May 2024.", entities=["Ana"])
        assert [c for c, port in sent.commands if port != live] == []
        assert not any(c.startswith("PREPARE TRANSACTION") for c, _ in sent.commands)
        # alone (delegated): one command, to the bank's worker
        with Sent(conn) as sent:
            conn.execute("SELECT hindsight.retain(%s, %s::jsonb)", (bank_id, items(["Ana reads."], "d2")))
        assert [port for _, port in sent.commands] == [live]
        assert other not in [port for _, port in sent.commands]


def test_the_fast_forms_of_recall_are_delegated(own):
    """docs/scale-out.md, "Where a call runs": recall in FROM with a LIMIT (a top-n) or under count(*) is sent
    whole to the bank's worker (one task, one command); recall_json inside an expression is not (the coordinator
    runs it, statement by statement)."""
    live = own.workers[0].port
    with connect(own.dsn()) as conn:
        bank_id = bank_on(conn, live, "forms")
        conn.execute("SELECT hindsight.create_bank(%s)", (bank_id,))
        conn.execute("SELECT hindsight.retain(%s, %s::jsonb)", (bank_id, items(["Ana plays cello.", "Ana sings"], "d")))
        # literals, not parameters: the plan shown is the one a query of an application gets
        args = sql.SQL("{}, 'cello', {}::vector").format(bank_id, str(vec(d0=1.0, d9=0.5))).as_string(conn)
        delegated = [
            f"SELECT hindsight.recall_json({args})",
            f"SELECT * FROM hindsight.recall({args})",
            f"SELECT id, text FROM hindsight.recall({args}) ORDER BY rank LIMIT 1",  # a top-n
            f"SELECT count(*) FROM hindsight.recall({args})",  # a count
        ]
        for query in delegated:
            plan = "\n".join(r[0] for r in conn.execute("EXPLAIN (COSTS OFF) " + query))
            assert "Task Count: 1" in plan and f"port={live} " in plan, (query, plan)
            with Sent(conn) as sent:
                rows = conn.execute(query).fetchall()
            assert [port for _, port in sent.commands] == [live], query
            assert rows and rows[0][0] is not None, query
        # wrapped in an expression: planned on the coordinator, and each of recall's queries sent on its own
        wrapped = f"SELECT length(hindsight.recall_json({args})::text)"
        plan = "\n".join(r[0] for r in conn.execute("EXPLAIN (COSTS OFF) " + wrapped))
        assert "Citus" not in plan
        with Sent(conn) as sent:
            conn.execute(wrapped)
        assert len(sent.commands) > 5 and {port for _, port in sent.commands} == {live}


@pytest.fixture(scope="module")
def down(own: CitusCluster) -> CitusCluster:
    """own with its second worker stopped (immediate shutdown, like a crash) for the rest of the module."""
    own._pg_ctl(own.workers[1], "stop", "--wait", "-m", "immediate", "--timeout=30")
    with pytest.raises(psycopg.OperationalError):
        psycopg.connect(own.worker_dsn(1), connect_timeout=5).close()
    return own


def test_every_public_function_from_sql_with_the_other_worker_down(down, script_server):
    url = f"http://127.0.0.1:{script_server.server_port}/v1"
    with connect(down.dsn()) as conn:

        def rows(query: str, *args: Any) -> list[tuple[Any, ...]]:
            return conn.execute(query, args).fetchall()

        bank_id = bank_on(conn, down.workers[0].port, "sql")
        e = str(vec(d0=1.0, d9=0.5))
        config = json.dumps({"llm_base_url": url, "llm_model": "m"})
        assert rows("SELECT hindsight.create_bank(%s, config => %s::jsonb)", bank_id, config) == [(bank_id,)]
        assert rows("SELECT hindsight.configure_bank(%s, '{\"bm25_k1\": 1.3}')->'bm25_k1'", bank_id) == [(1.3,)]
        assert rows("SELECT hindsight.bank_config(%s)->>'bm25_k1'", bank_id) == [("1.3",)]
        rows("SELECT hindsight.grant_bank(%s, 'reader_down', 'read')", bank_id)
        # retain alone (delegated), then inside a transaction block (run from the coordinator)
        retain = "SELECT * FROM hindsight.retain(%s, %s::jsonb)"
        assert len(rows(retain, bank_id, items(["Ana plays cello.", "Ana moved to Lisbon."], "d1"))) == 2
        with conn.transaction():
            assert len(rows(retain, bank_id, items(["Ana moved to Porto.", "Ana likes PostgreSQL 11."], "d2"))) == 2
            told = rows("SELECT * FROM hindsight.retain_text(%s, 'Lee moved to Lisbon in March 2024.')", bank_id)
            assert told and all(r[1] is not None for r in told)
        assert rows("SELECT * FROM hindsight.retain_text(%s, 'Max collects stamps.')", bank_id)
        [(stored,)] = rows("SELECT count(*) FROM hindsight.memory_units WHERE bank_id = %s", bank_id)
        assert stored >= 6
        with conn.transaction():  # a document retained again (its update path)
            rows(retain, bank_id, items(["Ana plays cello.", "Ana moved to Faro."], "d1"))
        # recall in every form
        assert rows("SELECT id FROM hindsight.recall(%s, 'cello', %s::vector) LIMIT 1", bank_id, e)
        assert rows("SELECT hindsight.recall_json(%s, 'cello', %s::vector)", bank_id, e)[0][0]["results"]
        with conn.transaction():
            assert rows("SELECT * FROM hindsight.recall_candidates(%s, 'cello', %s::vector)", bank_id, e)
            assert rows("SELECT hindsight.recall_chunks(%s, ARRAY['d1#0'])", bank_id)[0][0]
            # the driver's own pipeline: candidates, texts to rerank, rerank, finish
            state = "hindsight.recall_candidates(%s, 'cello', %s::vector)"
            assert rows(f"SELECT cardinality(hindsight.texts_to_rerank({state}))", bank_id, e)[0][0]
            assert len(rows("SELECT unnest(hindsight.rerank(%s, 'cello', ARRAY['Ana plays cello.', 'Ana sings.']))",
                            bank_id)) == 2  # fmt: skip
            assert rows(f"SELECT * FROM hindsight.recall_finish({state})", bank_id, e)
        assert rows("SELECT cardinality(hindsight.embed(%s, ARRAY['cello']))", bank_id) == [(1,)]
        assert rows("SELECT hindsight.provider_config(%s, 'embedding')->>'kind'", bank_id) == [("local",)]
        assert rows("SELECT hindsight.count_tokens('cello'), hindsight.parse_temporal('May 2024') IS NOT NULL")[0][1]
        assert rows("SELECT * FROM hindsight.limits()")
        rows("SELECT hindsight.link_updates(%s)", bank_id)
        with conn.transaction():
            assert rows("SELECT * FROM hindsight.consolidate(%s, use_llm => false)", bank_id)
        assert rows("SELECT * FROM hindsight.consolidate(%s, use_llm => false)", bank_id) == []
        # the views, by bank
        [(units, documents)] = rows("SELECT units, documents FROM hindsight.bank_stats WHERE bank_id = %s", bank_id)
        assert units >= stored and documents >= 3
        for view in ("entity_graph", "memory_timeline", "entity_stats"):
            rows(f"SELECT count(*) FROM hindsight.{view} WHERE bank_id = %s", bank_id)
        # reflect and mental models, alone and in a transaction block
        script_server.script = [dict(t) for t in SCRIPT]
        answer = rows("SELECT answer FROM hindsight.reflect(%s, 'What pet does Ana have?')", bank_id)
        assert answer == [("Ana has a grey cat named Pixel.",)]
        rows("SELECT (hindsight.create_mental_model(%s, 'pets', 'Pets?')).name", bank_id)
        with conn.transaction():
            script_server.script = [{"tool": "done", "arguments": {"answer": "A grey cat.", "memory_ids": []}}]
            rows("SELECT * FROM hindsight.refresh_mental_model(%s, 'pets')", bank_id)
        models = rows("SELECT content FROM hindsight.mental_models WHERE bank_id = %s AND name = 'pets'", bank_id)
        assert models == [("A grey cat.",)]
        # re-embedding (its three steps), deleting a document, revoking, deleting the bank
        with conn.transaction():
            assert rows("SELECT hindsight.reembed_begin(%s, 'other-model')", bank_id)[0][0] > 0
            [(ids, vectors)] = rows(
                "SELECT array_agg(id), array_agg(embedding) FROM hindsight.memory_units WHERE bank_id = %s", bank_id
            )
            rows("SELECT hindsight.reembed_store(%s, 'other-model', %s, %s::vector[])", bank_id, ids, vectors)
            [(model_ids, model_vectors)] = rows(
                "SELECT array_agg(id), array_agg(embedding) FROM hindsight.mental_models"
                " WHERE bank_id = %s AND embedding IS NOT NULL",
                bank_id,
            )
            finish = "SELECT hindsight.reembed_finish(%s, 'other-model', %s, %s::vector[])"
            rows(finish, bank_id, model_ids, model_vectors)
        assert rows("SELECT hindsight.bank_config(%s)->>'embedding_model'", bank_id) == [("other-model",)]
        with conn.transaction():
            assert rows("SELECT hindsight.delete_document(%s, 'd2')", bank_id) == [(True,)]
        assert rows("SELECT hindsight.revoke_bank(%s, 'reader_down')", bank_id) == [(True,)]
        assert rows("SELECT hindsight.delete_bank(%s)", bank_id) == [(True,)]


def test_the_driver_with_the_other_worker_down(down, script_server, embedder: LocalEmbedder):
    url = f"http://127.0.0.1:{script_server.server_port}/v1"
    with connect(down.dsn()) as conn:
        client = Client(conn, embedder=embedder)
        bank_id = bank_on(conn, down.workers[0].port, "driver")
        client.create_bank(bank_id, config={"llm_base_url": url, "llm_model": "m"})
        done = [client.retain(bank_id, f["content"], entities=f["entities"]) for f in FACTS]  # 3 one-item retains
        assert all(r.unit_ids for r in done)
        batch = client.retain_batch(
            bank_id,
            [{"content": "Ana's cat Pixel chases moths.", "document_id": "notes"},
             {"content": "Ana runs along the river.", "document_id": "runs"}],
        )  # fmt: skip
        assert len(batch.document_ids) == 2 and batch.unit_ids
        client.retain(bank_id, "Ana's cat Pixel naps a lot.", document_id="notes")  # a document updated
        hits = client.recall(bank_id, "What pet does Ana have?").results
        assert any("Pixel" in h.text for h in hits)
        assert client.get_bank(bank_id).unit_count >= 5
        with pytest.raises(HindsightError):  # every bank: that needs every worker
            client.list_banks()
        client.consolidate(bank_id, use_llm=False)
        script_server.script = [dict(t) for t in SCRIPT]
        assert client.reflect(bank_id, "What pet does Ana have?").answer == "Ana has a grey cat named Pixel."
        client.create_mental_model(bank_id, "pets", "What pets do people here have?")
        script_server.script = [dict(t) for t in SCRIPT]
        assert client.refresh_mental_model(bank_id, "pets").content == "Ana has a grey cat named Pixel."
        assert [m.name for m in client.list_mental_models(bank_id)] == ["pets"]
        assert client.delete_mental_model(bank_id, "pets")
        assert client.delete_document(bank_id, "runs")
        client.configure_bank(bank_id, {"bm25_k1": 1.1})
        # re-embedding with another local model, batch by batch
        units = client.get_bank(bank_id).unit_count
        assert client.reembed(bank_id, "all-MiniLM-L6-v2", batch_size=2) == units
        assert client.get_bank(bank_id).config["embedding_model"] == "all-MiniLM-L6-v2"
        assert client.delete_bank(bank_id)


@pytest.mark.parametrize("way", ["sql", "driver"])
def test_consolidation_with_a_language_model_with_the_other_worker_down(down, chat_server, embedder, way):
    """The model writes the observation's text (tests/_chat_server.py answers for 'Riverside Park'), called from
    the database (hindsight.consolidate, in a transaction block) or from the driver."""
    runs = [("Ana ran 5 km in Riverside Park before work.", "2024-01-09"),
            ("Ana went running in Riverside Park this morning, about 5 km.", "2024-02-13"),
            ("Ana did her usual 5 km run in Riverside Park before the office.", "2024-04-02")]  # fmt: skip
    with connect(down.dsn()) as conn:
        client = Client(conn, embedder=embedder)
        bank_id = bank_on(conn, down.workers[0].port, f"llm-{way}")
        client.create_bank(bank_id, config={"llm_base_url": f"http://127.0.0.1:{chat_server.server_port}/v1",
                                            "llm_model": "notes-model"})  # fmt: skip
        client.retain_batch(
            bank_id, [{"content": t, "timestamp": f"{d}T07:00:00Z", "entities": ["Ana"]} for t, d in runs]
        )
        if way == "sql":
            with conn.transaction():
                done = conn.execute("SELECT action, proof_count FROM hindsight.consolidate(%s)", (bank_id,)).fetchall()
        else:
            done = [(action, proof) for _, action, proof in client.consolidate(bank_id)]
        assert done == [("created", 3)]
        text, written_by = conn.execute(
            "SELECT text, metadata->>'written_by' FROM hindsight.memory_units"
            " WHERE bank_id = %s AND fact_type = 'observation'",
            (bank_id,),
        ).fetchone()
        assert (text, written_by) == ("Ana runs about 5 km in Riverside Park before work.", "notes-model")
        assert client.delete_bank(bank_id)


def test_the_cli_with_the_other_worker_down(down, tmp_path, monkeypatch):
    monkeypatch.setenv("HINDSIGHT_PG_DSN", down.dsn())
    runner = CliRunner()

    def invoke(*args: str) -> str:
        result = runner.invoke(cli.app, list(args), env={"COLUMNS": "200"})
        assert result.exit_code == 0, (args, result.output, result.exception)
        return result.output

    with connect(down.dsn()) as conn:
        bank_id = bank_on(conn, down.workers[0].port, "cli")
    note = tmp_path / "note.txt"
    note.write_text("Ana adopted a grey cat named Pixel. Ana moved to Lisbon in March 2024.")
    invoke("retain", bank_id, str(note), "--timestamp", "2024-04-01T10:00:00Z")  # creates the bank
    assert "Pixel" in invoke("recall", bank_id, "What pet does Ana have?")
    invoke("consolidate", bank_id, "--no-llm")
    assert "bm25_k1" in invoke("config", bank_id)
    with connect(down.dsn()) as conn:
        assert conn.execute("SELECT hindsight.delete_bank(%s)", (bank_id,)).fetchone() == (True,)


def test_a_role_granted_the_bank_with_the_other_worker_down(down, embedder: LocalEmbedder):
    with connect(down.dsn()) as conn:
        bank_id = bank_on(conn, down.workers[0].port, "role")
        conn.execute("SELECT hindsight.create_bank(%s)", (bank_id,))
        conn.execute("SELECT hindsight.grant_bank(%s, 'reader_down', 'write')", (bank_id,))
        conn.execute(sql.SQL("SET ROLE {}").format(sql.Identifier("reader_down")))
        client = Client(conn, embedder=embedder)
        assert len(client.retain_batch(bank_id, [f["content"] for f in FACTS]).document_ids) == 3
        assert client.recall(bank_id, "Ana's cat").results
        conn.execute("RESET ROLE")
        conn.execute("SELECT hindsight.delete_bank(%s)", (bank_id,))
