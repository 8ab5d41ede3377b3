"""The whole pipeline through the coordinator of a real Citus cluster, with the driver and with SQL:
retain and retain_text, documents updated and deleted, entities and links, both vector paths, both
keyword backends, consolidation, mental models and reflect, the views, LATERAL recall."""

from __future__ import annotations

import psycopg
import pytest

FACTS = [
    {"content": "Ana ran 5 km in Riverside Park before work.", "timestamp": "2024-01-09T07:00:00Z"},
    {"content": "Ana went running in Riverside Park this morning, about 5 km.", "timestamp": "2024-02-13T07:00:00Z"},
    {"content": "Ana did her usual 5 km run in Riverside Park before the office.", "timestamp": "2024-04-02T07:00:00Z"},
    {"content": "Ana adopted a grey cat named Pixel.", "timestamp": "2024-02-01T18:00:00Z"},
    {"content": "Ben bought a red bicycle for commuting.", "timestamp": "2024-03-01T09:00:00Z"},
]


def count(db, table, bank_id):
    return db.execute(f"SELECT count(*) FROM hindsight.{table} WHERE bank_id = %s", (bank_id,)).fetchone()[0]


def test_retain_documents_entities_and_links(db, client, bank_id):
    client.create_bank(bank_id)
    result = client.retain_batch(bank_id, [dict(f, entities=["Ana"] if "Ana" in f["content"] else []) for f in FACTS])
    assert len(result.unit_ids) == 5 and len(result.document_ids) == 5
    names = [r[0] for r in db.execute("SELECT canonical_name FROM hindsight.entities WHERE bank_id = %s", (bank_id,))]
    assert "Ana" in names and "Riverside Park" in names
    kinds = dict(db.execute("SELECT link_type, count(*) FROM hindsight.memory_links WHERE bank_id = %s GROUP BY 1",
                            (bank_id,)).fetchall())  # fmt: skip
    assert kinds["temporal"] > 0 and kinds["semantic"] > 0
    # a document retained again: replace keeps the unchanged chunk's units, append adds after it
    notes = "Kim plays the cello.\n\nKim lives in Oslo."
    first = client.retain(bank_id, notes, document_id="notes")
    kept = db.execute(
        "SELECT id FROM hindsight.memory_units WHERE bank_id = %s AND document_id = 'notes' ORDER BY id", (bank_id,)
    ).fetchall()
    again = client.retain(bank_id, notes, document_id="notes")
    assert again.unit_ids == []  # unchanged chunks: nothing extracted again, the units kept
    assert (
        db.execute(
            "SELECT id FROM hindsight.memory_units WHERE bank_id = %s AND document_id = 'notes' ORDER BY id", (bank_id,)
        ).fetchall()
        == kept
        and len(first.unit_ids) >= 1
    )
    client.retain(bank_id, "Kim bought a new bow in May.", document_id="notes", update_mode="append")
    assert count(db, "chunks", bank_id) >= 2 + len(FACTS)
    texts = [
        r[0]
        for r in db.execute(
            "SELECT text FROM hindsight.memory_units WHERE bank_id = %s AND document_id = 'notes'", (bank_id,)
        )
    ]
    assert any("bow" in t for t in texts) and any("Oslo" in t for t in texts)
    # deleted: its units, chunks and their links go; orphan entities too
    assert client.delete_document(bank_id, "notes")
    assert db.execute(
        "SELECT count(*) FROM hindsight.memory_units WHERE bank_id = %s AND document_id = 'notes'", (bank_id,)
    ).fetchone() == (0,)
    assert "Kim" not in [r[0] for r in db.execute(
        "SELECT canonical_name FROM hindsight.entities WHERE bank_id = %s", (bank_id,)).fetchall()]  # fmt: skip
    assert db.execute(
        "SELECT count(*) FROM hindsight.memory_links l WHERE l.bank_id = %s AND NOT EXISTS"
        " (SELECT FROM hindsight.memory_units u WHERE u.bank_id = l.bank_id AND u.id = l.to_unit_id)",
        (bank_id,),
    ).fetchone() == (0,)


def test_retain_text_from_sql(db, bank_id):
    db.execute("SELECT hindsight.create_bank(%s)", (bank_id,))
    rows = db.execute(
        "SELECT * FROM hindsight.retain_text(%s, 'Lee moved to Lisbon in March 2024. Lee works at Acme.',"
        " document_id => 'lee', mentioned_at => '2024-04-01')",
        (bank_id,),
    ).fetchall()
    assert rows and {r[0] for r in rows} == {"lee"} and all(r[1] is not None for r in rows)
    (bare,) = db.execute("SELECT hindsight.retain_text(%s, 'Max collects stamps.')", (bank_id,)).fetchone()
    assert bare is not None  # the bare call: delegated to the worker holding the bank
    texts = [r[0] for r in db.execute(
        "SELECT text FROM hindsight.recall(%s, 'Where does Lee live?')", (bank_id,)).fetchall()]  # fmt: skip
    assert any("Lisbon" in t for t in texts[:2]) and any("Acme" in t for t in texts[:2]) and len(texts) == 3


def test_both_vector_paths_give_the_same_ranking(db, client, bank_id):
    client.create_bank(bank_id)
    client.retain_batch(bank_id, FACTS)
    query = "What pet does Ana have?"
    exact = [r.id for r in client.recall(bank_id, query, arms=["semantic"]).results]
    assert db.execute("SELECT hindsight._semantic_path(%s)", (bank_id,)).fetchone() == ("exact",)
    db.execute("SELECT hindsight.configure_bank(%s, '{\"hnsw_min_units\": 1}')", (bank_id,))
    assert db.execute("SELECT hindsight._semantic_path(%s)", (bank_id,)).fetchone() == ("hnsw",)
    hnsw = [r.id for r in client.recall(bank_id, query, arms=["semantic"]).results]
    assert hnsw == exact and len(exact) == 5
    # every shard of memory_units carries the shared HNSW index
    indexes = db.execute(
        "SELECT result FROM run_command_on_shards('hindsight.memory_units',"
        " $$SELECT count(*) FROM pg_indexes WHERE schemaname || '.' || tablename = '%s'"
        " AND indexdef LIKE '%%USING hnsw%%'$$)"
    ).fetchall()
    assert len(indexes) == 8 and {r[0] for r in indexes} == {"1"}


@pytest.mark.parametrize("backend", ["native", "bm25"])
def test_keyword_backends_and_their_statistics(db, client, bank_id, backend):
    client.create_bank(bank_id, config={"keyword_backend": backend})
    client.retain_batch(bank_id, FACTS)
    hits = client.recall(bank_id, "bicycle commuting", arms=["keyword"]).results
    assert hits and hits[0].text == "Ben bought a red bicycle for commuting."
    assert hits[0].scores.keyword_rank == 1 and hits[0].scores.keyword_score > 0
    (units, length) = db.execute(
        "SELECT unit_count, total_length FROM hindsight._bank_counts WHERE bank_id = %s", (bank_id,)
    ).fetchone()
    assert units == 5 and length == db.execute(
        "SELECT sum(cardinality(t.positions)) FROM hindsight.memory_units u, unnest(u.search_vector) t"
        " WHERE u.bank_id = %s", (bank_id,)).fetchone()[0]  # fmt: skip
    assert db.execute(
        "SELECT df FROM hindsight._bm25_terms WHERE bank_id = %s AND term = 'riversid'", (bank_id,)
    ).fetchone() == (3,)


def test_consolidation_on_the_worker(db, client, bank_id):
    client.create_bank(bank_id)
    ids = client.retain_batch(bank_id, [dict(f, entities=["Ana"] if "Ana" in f["content"] else []) for f in FACTS])
    (done,) = client.consolidate(bank_id)
    assert done[1:] == ("created", 3)
    sources = {r[0] for r in db.execute(
        "SELECT unit_id FROM hindsight.observation_sources WHERE bank_id = %s", (bank_id,)).fetchall()}  # fmt: skip
    assert sources == set(ids.unit_ids[:3])
    assert client.consolidate(bank_id) == []  # idempotent
    # deleting a supporting fact updates the observation (the trigger on the worker)
    document = db.execute("SELECT document_id FROM hindsight.memory_units WHERE id = %s", (ids.unit_ids[0],)).fetchone()
    client.delete_document(bank_id, document[0])
    assert db.execute(
        "SELECT proof_count FROM hindsight.memory_units WHERE bank_id = %s AND fact_type = 'observation'", (bank_id,)
    ).fetchone() == (2,)
    # from SQL too
    client.retain_batch(bank_id, [{"content": "Ana ran her 5 km loop in Riverside Park early today.",
                                   "timestamp": "2024-06-18T07:00:00Z", "entities": ["Ana"]}])  # fmt: skip
    rows = db.execute("SELECT action, proof_count FROM hindsight.consolidate(%s)", (bank_id,)).fetchall()
    assert rows == [("updated", 3)]


def test_mental_models_and_reflect(db, client, script_server, bank_id):
    url = f"http://127.0.0.1:{script_server.server_port}/v1"
    client.create_bank(bank_id, config={"llm_base_url": url, "llm_model": "reflect-model"})
    client.retain_batch(bank_id, [FACTS[0], FACTS[3], FACTS[4]])
    script = [
        {"tool": "recall", "arguments": {"query": "Which pet does Ana have?"}},
        {"tool": "done", "arguments": {"answer": "Ana has a grey cat named Pixel.", "memory_ids": ["$first"]}},
    ]
    script_server.script = [dict(t) for t in script]
    driver = client.reflect(bank_id, "What pet does Ana have?")
    assert driver.answer == "Ana has a grey cat named Pixel."
    assert [m["text"] for m in driver.based_on] == ["Ana adopted a grey cat named Pixel."]
    script_server.script = [dict(t) for t in script]
    answer, _, based_on, _, trace = db.execute(
        "SELECT * FROM hindsight.reflect(%s, 'What pet does Ana have?')", (bank_id,)
    ).fetchone()
    assert answer == driver.answer and [m["id"] for m in based_on] == [m["id"] for m in driver.based_on]
    assert [t["tool"] for t in trace] == ["recall", "done"]
    client.create_mental_model(bank_id, "pets", "What pets do people here have?")
    script_server.script = [dict(t) for t in script]
    model = client.refresh_mental_model(bank_id, "pets")
    assert model.content == "Ana has a grey cat named Pixel." and len(model.based_on) == 1
    script_server.script = [{"tool": "done", "arguments": {"answer": "A grey cat.", "memory_ids": []}}]
    db.execute("SELECT * FROM hindsight.refresh_mental_model(%s, 'pets')", (bank_id,))
    (content, history) = db.execute(
        "SELECT content, history FROM hindsight.mental_models WHERE bank_id = %s AND name = 'pets'", (bank_id,)
    ).fetchone()
    assert content == "A grey cat." and [h["content"] for h in history] == ["Ana has a grey cat named Pixel."]
    assert [m.name for m in client.list_mental_models(bank_id)] == ["pets"]
    assert client.delete_mental_model(bank_id, "pets")


def test_views(db, client, bank_id):
    client.create_bank(bank_id)
    client.retain_batch(bank_id, [dict(f, entities=["Ana"] if "Ana" in f["content"] else []) for f in FACTS])
    with db.cursor(row_factory=psycopg.rows.dict_row) as cur:
        (stats,) = cur.execute("SELECT * FROM hindsight.bank_stats WHERE bank_id = %s", (bank_id,)).fetchall()
        graph = cur.execute("SELECT * FROM hindsight.entity_graph WHERE bank_id = %s", (bank_id,)).fetchall()
        timeline = cur.execute(
            "SELECT * FROM hindsight.memory_timeline WHERE bank_id = %s ORDER BY 1, 2", (bank_id,)
        ).fetchall()
    assert (stats["units"], stats["world_units"], stats["documents"]) == (5, 5, 5)
    assert stats["entities"] == count(db, "entities", bank_id) and stats["temporal_links"] > 0
    pairs = {(r["entity_a"], r["entity_b"], r["co_occurrences"]) for r in graph}
    assert any({"Ana", "Riverside Park"} == {a, b} and n == 3 for a, b, n in pairs), pairs
    months = {(r["month"].strftime("%Y-%m"), r["units"]) for r in timeline}
    assert months == {("2024-01", 1), ("2024-02", 2), ("2024-03", 1), ("2024-04", 1)}
    # over every bank: a multi-shard query
    everyone = db.execute("SELECT bank_id, units FROM hindsight.bank_stats").fetchall()
    assert (bank_id, 5) in everyone


def test_lateral_recall_over_a_table_of_questions(db, client, bank_id):
    client.create_bank(bank_id)
    client.retain_batch(bank_id, [FACTS[0], FACTS[3], FACTS[4]])
    db.execute("CREATE TEMP TABLE questions (n int, question text)")
    db.execute("INSERT INTO questions VALUES (1, 'What pet does Ana have?'), (2, 'What did Ben buy?')")
    rows = db.execute(
        "SELECT q.n, r.text FROM questions q,"
        " LATERAL hindsight.recall(%s, q.question, max_tokens => 20) r WHERE r.rank = 1 ORDER BY q.n",
        (bank_id,),
    ).fetchall()
    assert rows == [(1, "Ana adopted a grey cat named Pixel."), (2, "Ben bought a red bicycle for commuting.")]
    as_json = db.execute(
        "SELECT q.n, hindsight.recall_json(%s, q.question) -> 'results' -> 0 ->> 'text' FROM questions q ORDER BY 1",
        (bank_id,),
    ).fetchall()
    assert [text for _, text in as_json] == [text for _, text in rows]
