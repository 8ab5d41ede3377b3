"""Password authentication on a Citus cluster (docs/scale-out.md, Authentication): a cluster of its own
whose nodes ask every connection for a scram-sha-256 password (no trust), the superuser's and the
calling roles' passwords in the nodes' password file. Citus connects to the worker holding a bank as
the calling role (``SET ROLE`` included), so that role must be able to log in there with a password the
nodes know; a role the nodes have no password for, or a NOLOGIN role, is refused on the worker, which
the driver reports as :class:`WorkerError`, naming the node."""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from typing import Any

import psycopg
import pytest
from _cluster import CitusCluster, worker_of
from _helpers import vec
from pgvector.psycopg import register_vector
from psycopg import sql

from hindsight_pg import Client, WorkerError

SUPERUSER_PASSWORD = "su-" + uuid.uuid4().hex[:12]


@pytest.fixture(scope="module")
def secured() -> Iterator[CitusCluster]:
    """A coordinator and two workers with password authentication, the extension distributed."""
    with CitusCluster(workers=2, password=SUPERUSER_PASSWORD) as started:
        with psycopg.connect(started.dsn(), autocommit=True) as conn:
            conn.execute("SET client_min_messages = warning")
            conn.execute("CREATE EXTENSION hindsight_pg CASCADE")
            conn.execute("SELECT hindsight.distribute(shard_count => 4)")
        yield started


@pytest.fixture
def admin(secured: CitusCluster) -> Iterator[psycopg.Connection[Any]]:
    with psycopg.connect(secured.dsn(), autocommit=True) as conn:
        yield conn


def login_role(admin: psycopg.Connection[Any], cluster: CitusCluster | None, prefix: str) -> tuple[str, str]:
    """A new LOGIN role with a password (CREATE ROLE on the coordinator reaches the workers with its
    password); its password goes into the nodes' password file when ``cluster`` is given."""
    name, password = f"{prefix}_{uuid.uuid4().hex[:8]}", uuid.uuid4().hex
    admin.execute(sql.SQL("CREATE ROLE {} LOGIN PASSWORD {}").format(sql.Identifier(name), sql.Literal(password)))
    if cluster is not None:
        cluster.remember_password(name, password)
    return name, password


def connect_as(cluster: CitusCluster, role: str, password: str, node: int = 0) -> psycopg.Connection[Any]:
    conn = psycopg.connect(cluster.nodes[node].dsn(user=role, password=password), autocommit=True)
    register_vector(conn)
    return conn


def retain_one(conn: psycopg.Connection[Any], bank: str, text: str) -> None:
    """One memory through the delegated form (a bare autocommit call: it runs whole on the bank's worker)."""
    items = json.dumps([{"units": [{"text": text, "embedding": vec(d0=1)}]}])
    conn.execute("SELECT * FROM hindsight.retain(%s, %s::jsonb)", (bank, items))


def test_no_connection_without_a_password(secured):
    for node in secured.nodes:
        with pytest.raises(psycopg.OperationalError, match="password"):
            psycopg.connect(node.dsn(password=""), connect_timeout=5).close()
        with pytest.raises(psycopg.OperationalError, match="password authentication failed"):
            psycopg.connect(node.dsn(password="wrong"), connect_timeout=5).close()
    hba = (secured.coordinator.data / "pg_hba.conf").read_text()
    assert "trust" not in [line.split()[-1] for line in hba.splitlines() if line.strip() and line[0] != "#"]


def test_a_login_role_whose_password_the_nodes_know_uses_banks_on_every_worker(secured, admin, embedder):
    role, password = login_role(admin, secured, "ana")
    # the role and its password reached every worker: it logs in there directly
    for i in range(1, len(secured.nodes)):
        with connect_as(secured, role, password, node=i) as conn:
            assert conn.execute("SELECT current_user").fetchone() == (role,)
    with connect_as(secured, role, password) as conn:
        client = Client(conn, embedder=embedder)
        # random ids until the banks lie on both workers (eight could all hash to one, 1 run in 128)
        banks: list[str] = []
        while {worker_of(admin, b) for b in banks} != {w.port for w in secured.workers}:
            assert len(banks) < 32, "32 banks and still one worker: the banks are not spread"
            b = f"auth-{uuid.uuid4().hex[:6]}-{len(banks)}"
            assert client.create_bank(b).bank_id == b
            retain_one(conn, b, f"Ana keeps notes in {b}.")
            banks.append(b)
        for b in banks:
            found = conn.execute(
                "SELECT text FROM hindsight.recall(%s, 'notes', %s::vector)", (b, str(vec(d0=1)))
            ).fetchall()
            assert found == [(f"Ana keeps notes in {b}.",)]
            assert client.delete_bank(b)


def test_a_role_the_nodes_have_no_password_for_is_refused_on_the_worker(secured, admin, embedder):
    role, password = login_role(admin, None, "bo")  # logs in to the coordinator, the nodes cannot
    with connect_as(secured, role, password) as conn:
        client = Client(conn, embedder=embedder)
        bank = f"auth-bo-{uuid.uuid4().hex[:6]}"
        with pytest.raises(WorkerError) as info:
            client.create_bank(bank)
    node = next(w for w in secured.workers if w.port == worker_of(admin, bank))
    assert info.value.sqlstate == "08006"
    assert info.value.node == f"{node.socket_dir}:{node.port}"
    assert f"worker {node.socket_dir}:{node.port} failed" in str(info.value)
    assert "password" in str(info.value)
    secured.remember_password(role, password)  # the same call once the nodes know the password
    with connect_as(secured, role, password) as conn:
        assert Client(conn, embedder=embedder).create_bank(bank).bank_id == bank
        conn.execute("SELECT hindsight.delete_bank(%s)", (bank,))


def test_tenant_roles_switched_to_with_set_role(secured, admin):
    """docs/security.md's recipe on Citus: the tenant roles can log in (a password only the nodes hold),
    the application's role becomes them with SET ROLE. A NOLOGIN tenant, the single-node recipe, is
    refused on the worker."""
    app, app_password = login_role(admin, None, "app")  # the application's own: the nodes need not know it
    alice, _ = login_role(admin, secured, "tenant_alice")
    bob, _ = login_role(admin, secured, "tenant_bob")
    nologin = f"tenant_nologin_{uuid.uuid4().hex[:6]}"
    admin.execute(sql.SQL("CREATE ROLE {} NOLOGIN").format(sql.Identifier(nologin)))
    for tenant in (alice, bob, nologin):
        admin.execute(sql.SQL("GRANT {} TO {}").format(sql.Identifier(tenant), sql.Identifier(app)))
    bank_a, bank_b = f"alice-{uuid.uuid4().hex[:6]}", f"bob-{uuid.uuid4().hex[:6]}"
    with connect_as(secured, app, app_password) as conn:
        conn.execute(sql.SQL("SET ROLE {}").format(sql.Identifier(alice)))
        conn.execute("SELECT hindsight.create_bank(%s)", (bank_a,))
        retain_one(conn, bank_a, "Alice plans a trip to Lisbon on Friday.")
        conn.execute(sql.SQL("SET ROLE {}").format(sql.Identifier(bob)))
        conn.execute("SELECT hindsight.create_bank(%s)", (bank_b,))
        retain_one(conn, bank_b, "Bob waters the plants.")
        with pytest.raises(psycopg.Error) as info:  # Alice's bank does not exist for Bob
            conn.execute("SELECT * FROM hindsight.recall(%s, 'trip', %s::vector)", (bank_a, str(vec(d0=1))))
        assert info.value.sqlstate == "HS404"
        with pytest.raises(psycopg.errors.UniqueViolation):  # nor can he take its id
            conn.execute("SELECT hindsight.create_bank(%s)", (bank_a,))
        conn.execute(sql.SQL("SET ROLE {}").format(sql.Identifier(alice)))
        found = conn.execute(
            "SELECT text FROM hindsight.recall(%s, 'trip', %s::vector)", (bank_a, str(vec(d0=1)))
        ).fetchall()
        assert found == [("Alice plans a trip to Lisbon on Friday.",)]
        conn.execute(sql.SQL("SET ROLE {}").format(sql.Identifier(nologin)))
        with pytest.raises(psycopg.OperationalError) as refused:
            conn.execute("SELECT hindsight.create_bank(%s)", (f"nologin-{uuid.uuid4().hex[:6]}",))
        # the worker is reached as the NOLOGIN role, which has no password to give
        assert refused.value.sqlstate == "08006" and f"remote node {nologin}@" in str(refused.value)
        conn.execute("RESET ROLE")
    admin.execute("SELECT hindsight.delete_bank(%s), hindsight.delete_bank(%s)", (bank_a, bank_b))


def test_passwords_in_pg_dist_authinfo_instead_of_the_file(secured, admin, embedder):
    """Citus's own table of connection settings per role (nodeid 0: to any node), kept on every node, in
    place of the password file."""
    role, password = login_role(admin, None, "cy")
    for node in secured.nodes:
        with psycopg.connect(node.dsn(), autocommit=True) as conn:
            conn.execute(
                "INSERT INTO pg_dist_authinfo (nodeid, rolename, authinfo) VALUES (0, %s, %s)",
                (role, f"password={password}"),
            )
    bank = f"auth-cy-{uuid.uuid4().hex[:6]}"
    with connect_as(secured, role, password) as conn:
        assert Client(conn, embedder=embedder).create_bank(bank).bank_id == bank
        retain_one(conn, bank, "Cy keeps bees.")
        found = conn.execute("SELECT text FROM hindsight.recall(%s, 'bees', %s::vector)", (bank, str(vec(d0=1))))
        assert found.fetchall() == [("Cy keeps bees.",)]
        conn.execute("SELECT hindsight.delete_bank(%s)", (bank,))
