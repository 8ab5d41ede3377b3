"""Errors on Citus that say what happened: create_bank of an existing bank raises as on one node (its own
or another tenant's), a second distribute() changes nothing, a worker that is down or fails during a call
is a WorkerError (SQLSTATE kept, the node named) while the client's connection stays usable, a recall is
retried over a worker's restart, and the server's 0A000 is not called a missing extension."""

from __future__ import annotations

import threading
import time
import uuid

import psycopg
import pytest
from _cluster import worker_of
from psycopg import sql

import hindsight_pg._retry
from hindsight_pg import Client, ExtensionError, NotSupportedError, WorkerError
from hindsight_pg._errors import from_database


@pytest.fixture
def tenant(db, single):
    """A LOGIN role (on the cluster and in the single-node database's server, the same one) and its bank."""
    role = f"tenant_{uuid.uuid4().hex[:8]}"
    db.execute(sql.SQL("CREATE ROLE {} LOGIN").format(sql.Identifier(role)))
    yield role
    for conn in (db, single):
        conn.execute("RESET ROLE")
        conn.execute(sql.SQL("DROP OWNED BY {}").format(sql.Identifier(role)))
    db.execute(sql.SQL("DROP ROLE {}").format(sql.Identifier(role)))


def outcomes(conn, embedder, bank: str, role: str) -> list[str]:
    """What create_bank does with an existing bank, its own and another role's, through SQL and the driver:
    the error class (or the value) of each call."""
    client = Client(conn, embedder=embedder)

    def outcome(call) -> str:
        try:
            value = call()
        except (psycopg.Error, hindsight_pg.HindsightError) as exc:
            return f"{type(exc).__name__} {getattr(exc, 'sqlstate', '')}"
        return f"ok {value}"

    conn.execute("SELECT hindsight.create_bank(%s)", (bank,))
    seen = [
        outcome(lambda: conn.execute("SELECT hindsight.create_bank(%s)", (bank,)).fetchone()),
        outcome(lambda: client.create_bank(bank).bank_id),
        outcome(lambda: client.create_bank(bank, exist_ok=True).bank_id),
    ]
    conn.execute(sql.SQL("SET ROLE {}").format(sql.Identifier(role)))  # another tenant: the bank is not theirs
    seen += [
        outcome(lambda: conn.execute("SELECT hindsight.create_bank(%s)", (bank,)).fetchone()),
        outcome(lambda: conn.execute("SELECT hindsight.create_bank(%s, if_not_exists => true)", (bank,)).fetchone()),
        outcome(lambda: client.create_bank(bank).bank_id),
        outcome(lambda: client.create_bank(bank, exist_ok=True).bank_id),
    ]
    conn.execute("RESET ROLE")
    conn.execute("SELECT hindsight.delete_bank(%s)", (bank,))
    return seen


def test_create_bank_of_an_existing_bank_raises_as_on_one_node(db, single, embedder, tenant):
    bank = f"exists-{uuid.uuid4().hex[:8]}"
    on_one_node = outcomes(single, embedder, bank, tenant)
    assert on_one_node == [
        "UniqueViolation 23505",
        "BankExistsError 23505",
        f"ok {bank}",
        "UniqueViolation 23505",
        f"ok ('{bank}',)",  # if_not_exists: the id is taken, nothing more is said
        "BankExistsError 23505",
        "BankNotFoundError HS404",  # exist_ok: then not a bank the caller may read
    ]
    assert outcomes(db, embedder, bank, tenant) == on_one_node


def test_a_second_distribute_changes_nothing(db):
    before = db.execute("SELECT logicalrelid::text, colocationid FROM pg_dist_partition ORDER BY 1").fetchall()
    functions = db.execute("SELECT objid::regprocedure::text FROM pg_dist_object"
                           " WHERE distribution_argument_index IS NOT NULL ORDER BY 1").fetchall()  # fmt: skip
    assert db.execute("SELECT hindsight.distribute(shard_count => 3)").fetchone() == ([],)
    assert db.execute("SELECT logicalrelid::text, colocationid FROM pg_dist_partition ORDER BY 1").fetchall() == before
    assert db.execute("SELECT objid::regprocedure::text FROM pg_dist_object"
                      " WHERE distribution_argument_index IS NOT NULL ORDER BY 1").fetchall() == functions  # fmt: skip


def test_a_worker_that_is_down_is_a_worker_error_and_a_recall_retries(db, client, cluster, bank_id, monkeypatch):
    client.create_bank(bank_id)
    client.retain_batch(bank_id, ["Kim moved to Oslo in 2021.", "Kim plays the cello."])
    expected = [r.id for r in client.recall(bank_id, "Where does Kim live?").results]
    node = next(w for w in cluster.workers if w.port == worker_of(db, bank_id))
    cluster.stop_node(node)
    starter = threading.Timer(0.5, cluster.start_node, args=(node,))
    try:
        retries = client.retries
        with pytest.raises(WorkerError) as info:
            client.recall(bank_id, "Where does Kim live?")
        assert info.value.sqlstate == "08006" and info.value.node == f"{node.socket_dir}:{node.port}"
        assert str(info.value).startswith(f"worker {node.socket_dir}:{node.port} failed during this call")
        assert client.retries - retries == hindsight_pg._retry.WORKER_RETRY_ATTEMPTS - 1
        with pytest.raises(WorkerError):  # a write is not retried
            client.retain(bank_id, "Kim bought a bicycle.")
        assert client.retries - retries == hindsight_pg._retry.WORKER_RETRY_ATTEMPTS - 1
        assert db.execute("SELECT 1").fetchone() == (1,)  # the client's own connection is fine
        # the worker comes back while the recall waits between attempts: its first attempt fails, a later
        # one answers as before
        monkeypatch.setattr(hindsight_pg._retry, "WORKER_RETRY_PAUSE", 2.0)
        retries, started = client.retries, time.monotonic()
        starter.start()
        assert [r.id for r in client.recall(bank_id, "Where does Kim live?").results] == expected
        assert client.retries - retries >= 1 and time.monotonic() - started >= 2.0
    finally:
        if starter.is_alive() or starter.finished.is_set():
            starter.join()
        else:
            cluster.start_node(node)


def test_a_commit_that_fails_on_a_worker_is_a_worker_error(db, cluster, bank_id):
    db.execute("SELECT hindsight.create_bank(%s)", (bank_id,))
    node = next(w for w in cluster.workers if w.port == worker_of(db, bank_id))
    with psycopg.connect(node.dsn(), autocommit=True) as worker:  # the test cluster commits asynchronously
        worker.execute("CHECKPOINT")
    try:
        with pytest.raises(psycopg.Error) as info, db.transaction():
            db.execute("UPDATE hindsight.banks SET name = 'renamed' WHERE bank_id = %s", (bank_id,))
            cluster.stop_node(node, mode="immediate")
        error = from_database(info.value)
        assert isinstance(error, WorkerError) and error.sqlstate == info.value.sqlstate
        assert info.value.sqlstate in ("XX000", "08006")  # XX000: Citus's "could not commit transaction ..."
    finally:
        cluster.start_node(node)
    assert db.execute("SELECT name FROM hindsight.banks WHERE bank_id = %s", (bank_id,)).fetchone() == (None,)


def test_the_servers_feature_not_supported_is_not_a_missing_extension(single, tenant):
    single.execute("SELECT hindsight.create_bank('copy-target')")
    single.execute(sql.SQL("SET ROLE {}").format(sql.Identifier(tenant)))
    try:  # PostgreSQL (and Citus, which writes many rows with COPY) refuses COPY FROM under row-level security
        copying = single.cursor().copy("COPY hindsight.documents (bank_id, document_id) FROM STDIN")
        with pytest.raises(psycopg.errors.FeatureNotSupported) as info, copying as copy:
            copy.write_row(("copy-target", "d"))
    finally:
        single.execute("RESET ROLE")
        single.execute("SELECT hindsight.delete_bank('copy-target')")
    error = from_database(info.value)
    assert type(error) is NotSupportedError and error.sqlstate == "0A000"
    assert "COPY FROM not supported with row-level security" in str(error)
    # the extension's own 0A000 (here: distribute() without Citus) still says what is missing
    with pytest.raises(psycopg.errors.FeatureNotSupported) as own:
        single.execute("SELECT hindsight.distribute()")
    assert type(from_database(own.value)) is ExtensionError
