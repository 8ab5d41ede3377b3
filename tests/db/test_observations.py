"""Observations: offline consolidation of facts, idempotent and incremental; deletion; merging; recall."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import numpy as np
import psycopg
import pytest
from _helpers import bank, put, recall, vec

from hindsight_pg import ExtractionError

# pairwise cosine (MiniLM) 0.87-0.93: similar enough to consolidate (>= 0.85), not so similar that
# retain's within-call deduplication (>= 0.95) would store them as one fact
RUNS = [
    ("Ana ran 5 km in Riverside Park before work.", "2024-01-09"),
    ("Ana went running in Riverside Park this morning, about 5 km.", "2024-02-13"),
    ("Ana did her usual 5 km run in Riverside Park before the office.", "2024-04-02"),
    ("Ana ran her 5 km loop in Riverside Park early today.", "2024-06-18"),
]
LATER = ("This morning Ana ran six kilometres around Riverside Park.", "2024-08-06")
OTHERS = [
    ("Ben bought a red bicycle for commuting.", "2024-03-01"),
    ("The Atlas launch moved to September.", "2024-05-20"),
]


def retain(client, bank_id, facts):
    return client.retain_batch(
        bank_id,
        [{"content": text, "timestamp": f"{day}T07:00:00Z", "entities": ["Ana"] if "Ana" in text else []}
         for text, day in facts],
    ).unit_ids  # fmt: skip


def observations(db, bank_id):
    with db.cursor(row_factory=psycopg.rows.dict_row) as cur:
        return cur.execute(
            "SELECT o.*, ARRAY(SELECT s.unit_id FROM hindsight.observation_sources s"
            "   WHERE s.bank_id = o.bank_id AND s.observation_id = o.id ORDER BY s.unit_id) AS sources,"
            " ARRAY(SELECT e.canonical_name FROM hindsight.unit_entities ue JOIN hindsight.entities e"
            "   ON e.bank_id = ue.bank_id AND e.id = ue.entity_id WHERE ue.bank_id = o.bank_id AND ue.unit_id = o.id"
            "   ORDER BY 1) AS names"
            " FROM hindsight.memory_units o WHERE o.bank_id = %s AND o.fact_type = 'observation' ORDER BY o.created_at",
            (bank_id,),
        ).fetchall()


def test_a_running_habit_becomes_one_observation(client, db):
    client.create_bank("ana")
    runs = retain(client, "ana", RUNS)
    retain(client, "ana", OTHERS)
    (done,) = client.consolidate("ana")
    assert done[1:] == ("created", 4)
    (obs,) = observations(db, "ana")
    assert obs["id"] == done[0] and obs["proof_count"] == 4
    assert obs["sources"] == sorted(runs, key=str)
    assert obs["text"] in [text for text, _ in RUNS]
    assert obs["names"] == ["Ana", "Riverside Park"]
    # from the first fact's time to the end of the last one's "today"
    assert (obs["occurred_start"], obs["occurred_end"]) == (
        datetime(2024, 1, 9, 7, tzinfo=UTC), datetime(2024, 6, 18, 23, 59, 59, 999999, tzinfo=UTC))  # fmt: skip
    assert obs["mentioned_at"] == datetime(2024, 6, 18, 7, tzinfo=UTC)
    assert abs(np.linalg.norm(obs["embedding"].to_numpy()) - 1) < 1e-5
    # every fact was seen, and a second run changes nothing
    assert db.execute(
        "SELECT count(*) FROM hindsight.memory_units WHERE bank_id = 'ana' AND consolidated_at IS NULL"
    ).fetchone() == (0,)
    assert client.consolidate("ana") == []
    assert observations(db, "ana") == [obs]


def test_a_new_fact_joins_the_observation_and_a_deleted_one_leaves_it(client, db):
    client.create_bank("ana")
    retain(client, "ana", RUNS[:3])
    client.consolidate("ana")
    (later,) = retain(client, "ana", [LATER])
    ((obs_id, action, proof),) = client.consolidate("ana")
    assert (action, proof) == ("updated", 4)
    assert later in observations(db, "ana")[0]["sources"]
    # "This morning", said on 2024-08-06: that whole day (times of day are whole days, docs/temporal.md)
    assert observations(db, "ana")[0]["occurred_end"] == datetime(2024, 8, 6, 23, 59, 59, 999999, tzinfo=UTC)
    # deleting a fact updates the observation; deleting them all removes it
    document = db.execute("SELECT document_id FROM hindsight.memory_units WHERE id = %s", (later,)).fetchone()[0]
    client.delete_document("ana", document)
    (obs,) = observations(db, "ana")
    assert (obs["id"], obs["proof_count"], obs["occurred_end"]) == (obs_id, 3, datetime(2024, 4, 2, 7, tzinfo=UTC))
    db.execute("DELETE FROM hindsight.memory_units WHERE bank_id = 'ana' AND fact_type <> 'observation'")
    assert observations(db, "ana") == []


def test_unrelated_and_single_facts_make_no_observation(client, db):
    client.create_bank("solo")
    retain(client, "solo", [RUNS[0], *OTHERS])
    assert client.consolidate("solo") == []
    assert observations(db, "solo") == []
    # similar text but no shared entity: no observation either
    client.create_bank("strangers")
    client.retain_batch("strangers", [{"content": RUNS[0][0], "entities": ["Ana"]},
                                      {"content": RUNS[1][0].replace("Ana", "Someone"), "entities": []}])  # fmt: skip
    assert client.consolidate("strangers") == []


def test_nearly_identical_observations_merge_into_the_older(db):
    bank(db, "m")
    a = vec(d0=1, d1=0.02)
    b = vec(d0=1, d2=0.15)  # cosine with a: 0.989
    # no entity in common (Kim / Ficus), so two observations; each names the other's entity in its text, and
    # numbers, dates and negation agree: one fact said twice, merged (tests/db/test_no_silent_loss.py: the
    # same with Kim / Lee, or 2 / 3 tulips, stays two)
    ids = put(db, "m", [
        {"text": "Kim waters the ficus.", "embedding": a, "entities": ["Kim"]},
        {"text": "Kim waters the ficus daily.", "embedding": a, "entities": ["Kim"]},
        {"text": "kim waters the Ficus.", "embedding": b, "entities": ["Ficus"]},
        {"text": "kim waters the Ficus daily.", "embedding": b, "entities": ["Ficus"]},
    ], timestamp="2024-05-01T10:00:00Z")  # fmt: skip
    done = db.execute("SELECT observation_id, action, proof_count FROM hindsight.consolidate('m')").fetchall()
    assert sorted(d[1] for d in done) == ["created", "merged"]
    (obs,) = observations(db, "m")
    assert obs["proof_count"] == 4 and sorted(map(str, obs["sources"])) == sorted(ids)
    assert obs["names"] == ["Ficus", "Kim"]
    assert [d[0] for d in done if d[1] == "created"] == [obs["id"]]


def test_recall_of_observations_and_the_proof_boost(db):
    bank(db, "p")
    ids = put(db, "p", [
        {"text": "Sam prefers tea.", "embedding": vec(d0=1), "fact_type": "observation"},
        {"text": "Sam prefers tea.", "embedding": vec(d0=1), "fact_type": "observation"},
        {"text": "Sam drank coffee once.", "embedding": vec(d0=1, d1=0.5)},
    ], timestamp="2024-05-01T10:00:00Z")  # fmt: skip
    db.execute("UPDATE hindsight.memory_units SET proof_count = 1 WHERE id = %s", (ids[0],))
    db.execute("UPDATE hindsight.memory_units SET proof_count = 10 WHERE id = %s", (ids[1],))
    rows = recall(db, "p", "Sam tea", vec(d0=1), types=["observation"])
    assert [str(r["id"]) for r in rows] == [ids[1], ids[0]]  # equal but for proof: 10 before 1
    assert rows[0]["proof"] > rows[1]["proof"] and rows[0]["score"] > rows[1]["score"]


def test_observation_thresholds_are_validated(db):
    with pytest.raises(
        psycopg.errors.InvalidParameterValue,
        match=r"observation_similarity must be a cosine similarity in \[0, 1\], got 1.5",
    ):
        db.execute("SELECT hindsight.create_bank('x', config => %s)", (json.dumps({"observation_similarity": 1.5}),))
    with pytest.raises(psycopg.Error) as caught:
        db.execute("SELECT * FROM hindsight.consolidate('nobody')")
    assert caught.value.sqlstate == "HS404"


def test_prefer_observations_drops_the_facts_an_observation_cites(client, db):
    client.create_bank("ana")
    runs = retain(client, "ana", RUNS)
    retain(client, "ana", OTHERS)
    ((obs_id, _, _),) = client.consolidate("ana")
    question = "Where does Ana run before work?"
    plain = client.recall("ana", question).results
    assert obs_id in [r.id for r in plain] and set(runs) <= {r.id for r in plain}
    preferred = client.recall("ana", question, prefer_observations=True).results
    assert obs_id in [r.id for r in preferred] and not set(runs) & {r.id for r in preferred}
    assert {r.id for r in preferred} == {r.id for r in plain} - set(runs)
    # the same from SQL, and only observations with types
    (doc,) = db.execute("SELECT hindsight.recall_json('ana', %s, prefer_observations => true)", (question,)).fetchone()
    assert {r["id"] for r in doc["results"]} == {str(r.id) for r in preferred}
    only = client.recall("ana", question, types=["observation"]).results
    assert [r.id for r in only] == [obs_id]


def consolidate(way, client, db, bank_id):
    """Consolidation through the driver (the model called from Python) or hindsight.consolidate (from the database)."""
    if way == "driver":
        return client.consolidate(bank_id)
    return db.execute("SELECT * FROM hindsight.consolidate(%s)", (bank_id,)).fetchall()


@pytest.mark.parametrize("way", ["driver", "sql"])
def test_with_a_language_model_it_writes_the_text_and_drops_a_contradicting_fact(client, db, chat_server, way):
    url = f"http://127.0.0.1:{chat_server.server_port}/v1"
    client.create_bank("ana", config={"llm_base_url": url, "llm_model": "notes-model"})  # extraction stays offline
    runs = retain(client, "ana", RUNS)
    ((obs_id, action, proof),) = consolidate(way, client, db, "ana")
    assert (action, proof) == ("created", 4)
    (obs,) = observations(db, "ana")
    assert obs["text"] == "Ana runs about 5 km in Riverside Park before work."
    assert obs["metadata"]["written_by"] == "notes-model"
    usage = [{"purpose": "observation writing", "model": "notes-model", "prompt_tokens": 200, "completion_tokens": 120}]
    assert client.llm_usage == (usage if way == "driver" else [])
    (request,) = chat_server.requests
    body = request["body"]
    assert body["temperature"] == 0.1 and body["response_format"]["json_schema"]["name"] == "observation"
    assert body["messages"][1]["content"].splitlines() == [f"{i}. {text}" for i, (text, _) in enumerate(RUNS)]
    # a later fact joins, and the model finds that it contradicts the others
    (stopped,) = retain(client, "ana", [("Ana stopped her 5 km runs in Riverside Park before work.", "2024-09-03")])
    assert consolidate(way, client, db, "ana") == [(obs_id, "updated", 4)]
    (obs,) = observations(db, "ana")
    assert obs["text"] == "Ana ran about 5 km in Riverside Park before work for months, until she stopped."
    assert obs["sources"] == sorted(runs, key=str) and stopped not in obs["sources"]
    events = [(h["event"], [f["id"] for f in h.get("facts", [])]) for h in obs["metadata"]["history"]]
    assert events == [("written", []), ("contradicted", [str(stopped)]), ("written", [])]
    assert chat_server.requests[-1]["body"]["messages"][1]["content"].splitlines()[-1] == (
        "4. Ana stopped her 5 km runs in Riverside Park before work.")  # fmt: skip


def test_use_llm_false_stays_offline_for_a_bank_with_a_model(client, db, chat_server):
    client.create_bank("ana", config={"llm_base_url": f"http://127.0.0.1:{chat_server.server_port}/v1",
                                      "llm_model": "notes-model"})  # fmt: skip
    retain(client, "ana", RUNS)
    ((_, action, proof),) = client.consolidate("ana", use_llm=False)
    (obs,) = observations(db, "ana")
    assert (action, proof) == ("created", 4) and obs["text"] in [text for text, _ in RUNS]  # the medoid
    assert chat_server.requests == [] and "written_by" not in obs["metadata"]


@pytest.mark.parametrize("way", ["driver", "sql"])
def test_a_failing_model_keeps_nothing(client, db, chat_server, way):
    client.create_bank("ana", config={"llm_base_url": f"http://127.0.0.1:{chat_server.server_port}/v1",
                                      "llm_model": "notes-model"})  # fmt: skip
    retain(client, "ana", [(text.replace("Riverside Park", "#broken park"), day) for text, day in RUNS])
    with pytest.raises((ExtractionError, psycopg.Error)) as caught:
        consolidate(way, client, db, "ana")
    error = caught.value
    assert (type(error), error.sqlstate) == ((ExtractionError, None) if way == "driver" else (type(error), "HS503"))
    message = str(error) if way == "driver" else error.diag.message_primary  # no PL/Python prefix
    assert message.startswith("observation writing by notes-model failed")
    assert observations(db, "ana") == []
    assert db.execute(
        "SELECT count(*) FROM hindsight.memory_units WHERE bank_id = 'ana' AND consolidated_at IS NULL"
    ).fetchone() == (4,)


def test_reflect_recalls_the_observation_instead_of_the_facts_it_cites(client, db, script_server):
    client.create_bank("ana", config={"llm_base_url": f"http://127.0.0.1:{script_server.server_port}/v1",
                                      "llm_model": "reflect-model"})  # fmt: skip
    retain(client, "ana", RUNS + OTHERS)
    ((obs_id, _, _),) = db.execute("SELECT * FROM hindsight.consolidate('ana', use_llm => false)").fetchall()
    done = {"tool": "done", "arguments": {"answer": "Ana runs in Riverside Park.", "memory_ids": "$all"}}
    script_server.script = [{"tool": "recall", "arguments": {"query": "Where does Ana run?"}}, done]
    from_driver = client.reflect("ana", "Where does Ana run?")
    script_server.script = [{"tool": "recall", "arguments": {"query": "Where does Ana run?"}}, done]
    (from_sql,) = db.execute("SELECT based_on FROM hindsight.reflect('ana', 'Where does Ana run?')").fetchone()
    for based_on in (from_driver.based_on, from_sql):
        ids = [m["id"] for m in based_on]
        assert ids[0] == str(obs_id) and len(ids) == 1 + len(OTHERS)  # none of the four runs it cites
