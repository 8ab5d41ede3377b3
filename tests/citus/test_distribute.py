"""hindsight.distribute() on a real Citus cluster: placement, banks, row-level security, triggers,
and where one bank's calls run (distributed function delegation)."""

from __future__ import annotations

import json
import time
import uuid

import psycopg
import pytest
from _cluster import Sent, worker_of
from _helpers import put, vec
from psycopg import sql

BANK_TABLES = ["banks", "bank_members", "documents", "chunks", "memory_units", "entities", "unit_entities",
               "memory_links", "_bank_counts", "_bm25_terms", "_bm25_postings", "_entity_cooccurrences",
               "observation_sources", "mental_models"]  # fmt: skip
DELEGATED = ["recall", "recall_json", "recall_candidates", "retain", "retain_text", "_group_observations",
             "bank_config"]  # fmt: skip


def test_every_bank_table_is_distributed_by_bank_and_colocated(db, cluster):
    rows = db.execute(
        "SELECT logicalrelid::regclass::text, partmethod, column_to_column_name(logicalrelid, partkey), colocationid"
        " FROM pg_dist_partition WHERE logicalrelid::regclass::text LIKE 'hindsight.%' ORDER BY 1"
    ).fetchall()
    by_table = {r[0].removeprefix("hindsight."): r[1:] for r in rows}
    assert sorted(by_table) == sorted([*BANK_TABLES, "settings"])
    assert by_table["settings"][0] == "n"  # a reference table, on every node
    colocation = {by_table[t][2] for t in BANK_TABLES}
    assert len(colocation) == 1 and all(by_table[t][:2] == ("h", "bank_id") for t in BANK_TABLES)
    # each worker holds half of every table's shards
    placement = db.execute(
        "SELECT p.nodeport, count(*) FROM pg_dist_shard s JOIN pg_dist_shard_placement p USING (shardid)"
        " WHERE s.logicalrelid = 'hindsight.memory_units'::regclass GROUP BY 1 ORDER BY 1"
    ).fetchall()
    assert sorted(p for p, _ in placement) == sorted(w.port for w in cluster.workers)
    assert [n for _, n in placement] == [4, 4]
    # the functions run where their bank_id argument lives
    functions = db.execute(
        "SELECT p.proname, d.distribution_argument_index, d.colocationid, d.force_delegation"
        " FROM pg_dist_object d JOIN pg_proc p ON d.classid = 'pg_proc'::regclass AND p.oid = d.objid"
        " WHERE d.distribution_argument_index IS NOT NULL ORDER BY 1"
    ).fetchall()
    assert sorted(f[0] for f in functions) == sorted(DELEGATED)
    assert {f[1:] for f in functions} == {(0, colocation.pop(), None)}


def test_distribute_needs_citus(single):
    with pytest.raises(psycopg.errors.FeatureNotSupported, match="citus extension is not installed") as info:
        single.execute("SELECT hindsight.distribute()")
    assert "CREATE EXTENSION citus" in info.value.diag.message_hint


def test_banks_are_created_configured_and_deleted(db, client, bank_id):
    bank = client.create_bank(bank_id, config={"recall_budgets": {"low": 50}})
    assert bank.config["recall_budgets"]["low"] == 50 and bank.unit_count == 0
    db.execute("SELECT hindsight.configure_bank(%s, %s::jsonb)", (bank_id, json.dumps({"bm25_k1": 1.5})))
    assert client.get_bank(bank_id).config["bm25_k1"] == 1.5
    with pytest.raises(psycopg.errors.InvalidParameterValue):
        db.execute("SELECT hindsight.configure_bank(%s, '{\"bm25_k1\": -1}')", (bank_id,))
    assert bank_id in [b.bank_id for b in client.list_banks()]
    put(db, bank_id, [("Kim plays the cello.", vec(d0=1))])
    assert client.delete_bank(bank_id) and not client.delete_bank(bank_id)
    for table in BANK_TABLES:
        assert db.execute(f"SELECT count(*) FROM hindsight.{table} WHERE bank_id = %s", (bank_id,)).fetchone() == (0,)


def two_workers(db, prefix: str) -> tuple[str, str]:
    """Two fresh bank ids whose shards are on different workers."""
    first = f"{prefix}{uuid.uuid4().hex[:8]}"
    for i in range(100):
        other = f"{prefix}{uuid.uuid4().hex[:8]}-{i}"
        if worker_of(db, other) != worker_of(db, first):
            return first, other
    raise AssertionError("no two banks on different workers")


@pytest.fixture
def roles(db):
    """Two roles the tests switch to with SET ROLE. Citus reaches the workers as the current role, so
    they need LOGIN (and the workers' pg_hba.conf to let them in; trust here)."""
    suffix = uuid.uuid4().hex[:8]
    names = {k: f"{k}_{suffix}" for k in ("alice", "bob")}
    for name in names.values():
        db.execute(sql.SQL("CREATE ROLE {} LOGIN").format(sql.Identifier(name)))
    yield names
    db.execute("RESET ROLE")
    for name in names.values():
        db.execute(sql.SQL("DROP OWNED BY {}").format(sql.Identifier(name)))
        db.execute(sql.SQL("DROP ROLE {}").format(sql.Identifier(name)))


def as_role(db, role):
    db.execute(sql.SQL("SET ROLE {}").format(sql.Identifier(role)))


def test_row_level_security_through_the_coordinator(db, roles):
    a, b = two_workers(db, "rls-")  # the two banks on different workers
    as_role(db, roles["alice"])
    db.execute("SELECT hindsight.create_bank(%s)", (a,))
    put(db, a, [{"text": "Alice's plan is Project Atlas.", "embedding": vec(d0=1), "entities": ["Atlas"]},
                {"text": "Atlas ships in May.", "embedding": vec(d0=1, d1=1), "entities": ["Atlas"]}])  # fmt: skip
    as_role(db, roles["bob"])
    db.execute("SELECT hindsight.create_bank(%s)", (b,))
    put(db, b, [("Bob likes tea.", vec(d1=1))])
    embedding = str(vec(d0=1))
    for call, args in [
        ("SELECT * FROM hindsight.recall(%s, 'plan', %s::vector)", (a, embedding)),
        ("SELECT hindsight.recall(%s, 'plan', %s::vector)", (a, embedding)),
        ("SELECT hindsight.recall_json(%s, 'plan', %s::vector)", (a, embedding)),
        ("SELECT * FROM hindsight.recall_candidates(%s, 'plan', %s::vector)", (a, embedding)),
        ("SELECT hindsight.bank_config(%s)", (a,)),
        ("SELECT hindsight.consolidate(%s)", (a,)),
        ("SELECT hindsight.grant_bank(%s, current_user, 'admin')", (a,)),
        ('SELECT * FROM hindsight.retain(%s, \'[{"units": [{"text": "x", "embedding": [1]}]}]\')', (a,)),
        ("SELECT * FROM hindsight.retain_text(%s, 'Bob was here.')", (a,)),
        ("SELECT hindsight.delete_document(%s, 'any')", (a,)),
        ("SELECT * FROM hindsight.reflect(%s, 'What is the plan?')", (a,)),
        ("SELECT * FROM hindsight.refresh_mental_model(%s, 'plans')", (a,)),
    ]:
        with pytest.raises(psycopg.Error) as info:
            db.execute(call, args)
        assert info.value.sqlstate == "HS404", call
    assert db.execute("SELECT hindsight.delete_bank(%s)", (a,)).fetchone() == (False,)
    for table in BANK_TABLES:  # plain SELECTs: nothing of bank a
        assert db.execute(f"SELECT count(*) FROM hindsight.{table} WHERE bank_id = %s", (a,)).fetchone() == (0,), table
    for view in ["bank_stats", "entity_graph", "memory_timeline"]:
        assert db.execute(f"SELECT count(*) FROM hindsight.{view} WHERE bank_id = %s", (a,)).fetchone() == (0,), view
    assert db.execute("SELECT count(*) FROM hindsight.memory_units").fetchone() == (1,)  # bob's own, across shards
    with pytest.raises(psycopg.errors.InsufficientPrivilege):
        db.execute("INSERT INTO hindsight.entities (bank_id, canonical_name) VALUES (%s, 'Mole')", (a,))
    assert db.execute("DELETE FROM hindsight.memory_units WHERE bank_id = %s", (a,)).rowcount == 0
    assert db.execute("UPDATE hindsight.memory_units SET text = 'x' WHERE bank_id = %s", (a,)).rowcount == 0
    # a grant takes effect with the next statement, on the worker too; a revoke as well
    as_role(db, roles["alice"])
    db.execute("SELECT hindsight.grant_bank(%s, %s, 'read')", (a, roles["bob"]))
    as_role(db, roles["bob"])
    assert db.execute("SELECT count(*) FROM hindsight.memory_units WHERE bank_id = %s", (a,)).fetchone() == (2,)
    assert len(db.execute("SELECT * FROM hindsight.recall(%s, 'plan', %s::vector)", (a, embedding)).fetchall()) == 2
    with pytest.raises(psycopg.errors.InsufficientPrivilege):  # read only
        put(db, a, [("Bob was here.", vec(d1=1))])
    as_role(db, roles["alice"])
    assert db.execute("SELECT hindsight.revoke_bank(%s, %s)", (a, roles["bob"])).fetchone() == (True,)
    as_role(db, roles["bob"])
    assert db.execute("SELECT count(*) FROM hindsight.memory_units WHERE bank_id = %s", (a,)).fetchone() == (0,)
    db.execute("RESET ROLE")
    assert db.execute("SELECT count(*) FROM hindsight.memory_units WHERE bank_id = %s", (a,)).fetchone() == (2,)
    for bank in (a, b):
        db.execute("SELECT hindsight.delete_bank(%s)", (bank,))


DERIVED = {
    "_bank_counts": "SELECT bank_id, unit_count, total_length FROM hindsight._bank_counts WHERE bank_id = %(b)s",
    "_bm25_terms": "SELECT term, df FROM hindsight._bm25_terms WHERE bank_id = %(b)s ORDER BY 1",
    "_bm25_postings": "SELECT term, unit_id, tf, doc_length FROM hindsight._bm25_postings WHERE bank_id = %(b)s"
    " ORDER BY 1, 2",
    "mention_count": "SELECT canonical_name, mention_count FROM hindsight.entities WHERE bank_id = %(b)s ORDER BY 1",
    "_entity_cooccurrences": "SELECT entity_id, other_entity_id, unit_count FROM hindsight._entity_cooccurrences"
    " WHERE bank_id = %(b)s ORDER BY 1, 2",
    "links": "SELECT from_unit_id, to_unit_id, link_type FROM hindsight.memory_links WHERE bank_id = %(b)s"
    " ORDER BY 1, 2, 3",
}
RECOMPUTED = {
    "_bank_counts": "SELECT bank_id, count(*), coalesce(sum(length), 0)::bigint"
    " FROM (SELECT bank_id, (SELECT sum(cardinality(t.positions)) FROM unnest(u.search_vector) t) AS length,"
    "       search_vector FROM hindsight.memory_units u WHERE u.bank_id = %(b)s) x GROUP BY 1",
    "_bm25_terms": "SELECT t.lexeme, count(*) FROM hindsight.memory_units u, unnest(u.search_vector) t"
    " WHERE u.bank_id = %(b)s GROUP BY 1 ORDER BY 1",
    "_bm25_postings": "SELECT t.lexeme, u.id, cardinality(t.positions),"
    " (SELECT sum(cardinality(x.positions)) FROM unnest(u.search_vector) x)::int"
    " FROM hindsight.memory_units u, unnest(u.search_vector) t WHERE u.bank_id = %(b)s ORDER BY 1, 2",
    "mention_count": "SELECT e.canonical_name, (SELECT count(*) FROM hindsight.unit_entities ue"
    " WHERE ue.bank_id = e.bank_id AND ue.entity_id = e.id) FROM hindsight.entities e WHERE e.bank_id = %(b)s"
    " ORDER BY 1",
    "_entity_cooccurrences": "SELECT a.entity_id, b.entity_id, count(*) FROM hindsight.unit_entities a"
    " JOIN hindsight.unit_entities b ON b.bank_id = a.bank_id AND b.unit_id = a.unit_id AND b.entity_id <> a.entity_id"
    " WHERE a.bank_id = %(b)s GROUP BY 1, 2 ORDER BY 1, 2",
}


def assert_derived_exact(db, bank_id):
    for name, query in RECOMPUTED.items():
        kept = db.execute(DERIVED[name], {"b": bank_id}).fetchall()
        if name == "_bank_counts":
            kept = [(b, n, length) for b, n, length in kept if n]
        assert kept == db.execute(query, {"b": bank_id}).fetchall(), name


def test_triggers_keep_derived_data_exact_on_the_workers(db, bank_id):
    db.execute('SELECT hindsight.create_bank(%s, config => \'{"keyword_backend": "bm25"}\')', (bank_id,))
    ids = put(db, bank_id, [
        {"text": "Kim plays cello with Lee.", "embedding": vec(d0=1), "entities": ["Kim", "Lee"]},
        {"text": "Lee teaches piano to Kim and Max.", "embedding": vec(d1=1), "entities": ["Lee", "Kim", "Max"]},
        {"text": "Max plays cello too.", "embedding": vec(d0=1, d2=1), "entities": ["Max"]},
    ])  # fmt: skip
    assert_derived_exact(db, bank_id)
    assert db.execute(DERIVED["_bank_counts"], {"b": bank_id}).fetchone()[1] == 3
    # statements aimed straight at the tables, each firing the triggers on the worker holding the bank
    db.execute("UPDATE hindsight.memory_units SET search_vector = to_tsvector('simple', 'cello cello harp')"
               " WHERE bank_id = %s AND id = %s", (bank_id, ids[0]))  # fmt: skip
    assert_derived_exact(db, bank_id)
    db.execute("DELETE FROM hindsight.unit_entities WHERE bank_id = %s AND unit_id = %s", (bank_id, ids[1]))
    assert_derived_exact(db, bank_id)
    db.execute("DELETE FROM hindsight.memory_units WHERE bank_id = %s AND id = %s", (bank_id, ids[2]))
    assert_derived_exact(db, bank_id)
    links = db.execute(DERIVED["links"], {"b": bank_id}).fetchall()
    assert links and all(ids[2] not in (str(f), str(t)) for f, t, _ in links)
    # a row trigger that stays: banks' config check, on the worker holding the bank's row
    with pytest.raises(psycopg.errors.InvalidParameterValue):
        db.execute("UPDATE hindsight.banks SET config = '{\"rrf_k\": -3}' WHERE bank_id = %s", (bank_id,))
    db.execute("SELECT hindsight.delete_bank(%s)", (bank_id,))
    for table in ("_bank_counts", "_bm25_terms", "_bm25_postings", "_entity_cooccurrences"):
        assert db.execute(f"SELECT count(*) FROM hindsight.{table} WHERE bank_id = %s", (bank_id,)).fetchone() == (0,)


def remote_commands(db, statement: str, params=None) -> list[tuple[str, int]]:
    """(command, port) of every command the coordinator sends while running one statement."""
    with Sent(db) as sent:
        db.execute(statement, params)
        return list(sent.commands)


class WorkerLog:
    """The statements a worker's server log records from now on (log_statement = 'all' while open)."""

    def __init__(self, cluster, port: int) -> None:
        (self.node,) = [w for w in cluster.workers if w.port == port]

    def __enter__(self) -> WorkerLog:
        with psycopg.connect(self.node.dsn(), autocommit=True) as conn:
            conn.execute("ALTER SYSTEM SET log_statement = 'all'")
            conn.execute("SELECT pg_reload_conf()")
        time.sleep(0.3)
        self.start = self.node.log.stat().st_size
        return self

    def __exit__(self, *exc) -> None:
        time.sleep(0.3)
        with open(self.node.log, errors="replace") as log:
            log.seek(self.start)
            self.text = log.read()
        with psycopg.connect(self.node.dsn(), autocommit=True) as conn:
            conn.execute("ALTER SYSTEM RESET log_statement")
            conn.execute("SELECT pg_reload_conf()")


def test_a_recall_runs_on_the_worker_holding_the_bank(db, client, cluster, embedder):
    holder_bank, other_bank = two_workers(db, "where-")
    for b in (holder_bank, other_bank):
        client.create_bank(b)
        client.retain_batch(b, ["Kim plays the cello every Sunday.", "Kim moved to Oslo in 2021."])
    holder, other = worker_of(db, holder_bank), worker_of(db, other_bank)
    query = "Where does Kim live?"
    embedding = str(embedder.embed([query], kind="query")[0].tolist())
    args = {"b": holder_bank, "q": query, "e": embedding}
    # delegated: the coordinator sends the whole call to the holder, once
    forms = {
        "bare": "SELECT hindsight.recall_json(%(b)s, %(q)s, %(e)s::vector)",
        "from": "SELECT * FROM hindsight.recall(%(b)s, %(q)s, %(e)s::vector)",
        "bare set": "SELECT hindsight.recall(%(b)s, %(q)s, %(e)s::vector)",
    }
    for name, statement in forms.items():
        with WorkerLog(cluster, other) as other_log, WorkerLog(cluster, holder) as holder_log:
            sent = remote_commands(db, statement, args)
        assert [port for _, port in sent] == [holder], name
        assert "hindsight.recall" in sent[0][0], name
        assert holder_bank in holder_log.text and "hindsight." not in other_log.text, name
    # the driver's recall is the bare form, one statement: the client kept the bank's config from its retain
    with Sent(db) as sent:
        client.recall(holder_bank, query)
        commands = [command for command, _ in sent.commands]
    assert len(commands) == 1 and "hindsight.recall_json" in commands[0]
    # not delegated: in a transaction block, and over a table of questions; the shard queries still
    # go to the holder only
    with db.transaction():
        in_transaction = remote_commands(db, forms["from"], args)
    lateral = remote_commands(
        db,
        "SELECT q.n, r.id FROM (VALUES (1, 'Where does Kim live?'), (2, 'What does Kim play?')) q(n, question),"
        " LATERAL hindsight.recall(%(b)s, q.question, %(e)s::vector) r",
        args,
    )
    for sent in (in_transaction, lateral):
        assert len(sent) > 5 and {port for _, port in sent} == {holder}
        assert not any(command.startswith("SELECT hindsight.recall") for command, _ in sent)
