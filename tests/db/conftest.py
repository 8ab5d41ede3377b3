"""Database fixtures: one throwaway PostgreSQL 15 per test session (pytest-postgresql), a
template database holding the real extension, and two kinds of database for a test:

- ``db`` (the default): a database shared by the session's tests, reached through one
  long-lived connection, so a test does not pay for a new backend (hindsight_pl, tiktoken and
  the in-database model imported again, about 0.4 s, and 4.5 s for the model). After each test
  it is put back as the template left it: other connections closed, the session reset, every
  table of the extension emptied. A test that changes what a reset cannot put back (the
  catalogue: roles' grants, settings of the database, the extension's version, objects of its
  own; or the session's Python) is marked ``fresh_database``; the reset checks the catalogue
  against the template's and fails the test that changed it.
- ``fresh_db`` (or ``db`` under ``@pytest.mark.fresh_database``): a new database cloned from
  the template for this test alone, dropped after it.
"""

from __future__ import annotations

import atexit
import shlex
import shutil
import tempfile
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
from pgvector.psycopg import register_vector
from psycopg import sql
from pytest_postgresql import factories
from pytest_postgresql.executors import PostgreSQLExecutor
from pytest_postgresql.janitor import DatabaseJanitor

from hindsight_pg import Client, LocalEmbedder
from hindsight_pg._server import pg_command

SHARED_DATABASE = "hindsight_shared"

# What the reset compares with the template: everything a test can create or change in a
# database's catalogue outside the extension's tables' rows.
CATALOGUE = """
SELECT md5(concat_ws('|',
  (SELECT string_agg(concat_ws(':', n.nspname, c.relname, c.relkind, c.relacl::text, c.relrowsecurity),
                     ',' ORDER BY n.nspname, c.relname)
     FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname NOT IN ('pg_catalog', 'information_schema', 'pg_toast')
      AND n.nspname NOT LIKE 'pg_temp%' AND n.nspname NOT LIKE 'pg_toast_temp%'),
  (SELECT string_agg(concat_ws(':', n.nspname, p.oid::regprocedure::text, p.proacl::text, p.proconfig::text),
                     ',' ORDER BY 1)
     FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
    WHERE n.nspname NOT IN ('pg_catalog', 'information_schema')),
  (SELECT string_agg(concat_ws(':', nspname, nspacl::text), ',' ORDER BY nspname) FROM pg_namespace
    WHERE nspname NOT LIKE 'pg_temp%' AND nspname NOT LIKE 'pg_toast_temp%'),
  (SELECT string_agg(concat_ws(':', extname, extversion), ',' ORDER BY extname) FROM pg_extension),
  (SELECT string_agg(concat_ws(':', polname, polrelid::regclass::text, polroles::text), ',' ORDER BY 1)
     FROM pg_policy),
  (SELECT string_agg(concat_ws(':', setrole, setconfig::text), ',' ORDER BY 1) FROM pg_db_role_setting
    WHERE setdatabase = (SELECT oid FROM pg_database WHERE datname = current_database())),
  (SELECT string_agg(defaclacl::text, ',' ORDER BY 1) FROM pg_default_acl),
  (SELECT datacl::text FROM pg_database WHERE datname = current_database())
))
"""


def _pg_ctl() -> str:
    """pytest-postgresql drives pg_ctl; as root it must run in a user namespace, exactly as the
    embedded server does (hindsight_pg._server.pg_command), so it gets a two-line wrapper."""
    folder = Path(tempfile.mkdtemp(prefix="hindsight-pg-test-"))
    atexit.register(shutil.rmtree, folder, True)
    wrapper = folder / "pg_ctl"
    argv = " ".join(shlex.quote(a) for a in pg_command("pg_ctl"))
    wrapper.write_text(f'#!/bin/sh\nexport LC_ALL=C.UTF-8\nexec {argv} "$@"\n')
    wrapper.chmod(0o755)
    return str(wrapper)


def _create_extension(**kwargs: Any) -> None:
    kwargs["autocommit"] = True
    with psycopg.connect(**kwargs) as conn:
        conn.execute("CREATE EXTENSION hindsight_pg CASCADE")


postgresql_proc = factories.postgresql_proc(executable=_pg_ctl(), load=[_create_extension])
postgresql = factories.postgresql("postgresql_proc")


class SharedDatabase:
    """The session's shared database and its one connection (see the module's docstring)."""

    def __init__(self, proc: PostgreSQLExecutor) -> None:
        self.proc = proc
        self.janitor = DatabaseJanitor(
            user=proc.user,
            host=proc.host,
            port=proc.port,
            dbname=SHARED_DATABASE,
            template_dbname=proc.template_dbname,
            password=proc.password,
        )
        self.janitor.init()
        self.template_catalogue = self._catalogue(proc.template_dbname)
        self.conn = self._connect()
        self.tables = [
            r[0]
            for r in self.conn.execute(
                "SELECT c.oid::regclass::text FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
                "WHERE n.nspname = 'hindsight' AND c.relkind IN ('r', 'p') ORDER BY 1"
            )
        ]

    def _connect(self) -> psycopg.Connection[Any]:
        conn = psycopg.connect(
            dbname=SHARED_DATABASE,
            user=self.proc.user,
            password=self.proc.password,
            host=self.proc.host,
            port=self.proc.port,
            options=self.proc.options,
            autocommit=True,
        )
        register_vector(conn)
        return conn

    def _catalogue(self, dbname: str) -> str:
        with self.janitor.cursor(dbname) as cur:
            cur.execute(CATALOGUE)
            return str(cur.fetchone()[0])  # type: ignore[index]

    def reset(self) -> str | None:
        """Put the database back as the template left it; return what a test changed that a reset
        cannot put back (then the database is made again from the template), or None."""
        if self.conn.closed or self.conn.broken:
            self.conn = self._connect()
        conn = self.conn
        if conn.info.transaction_status != psycopg.pq.TransactionStatus.IDLE:
            conn.rollback()
        conn.autocommit = True
        conn.row_factory = psycopg.rows.tuple_row  # type: ignore[assignment]
        conn.prepare_threshold = 5
        conn.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
        conn.execute(
            "CLOSE ALL; SET SESSION AUTHORIZATION DEFAULT; RESET ALL; UNLISTEN *; "
            "SELECT pg_advisory_unlock_all(); DISCARD TEMP; DISCARD SEQUENCES"
        )
        conn.execute(
            sql.SQL("TRUNCATE {} RESTART IDENTITY CASCADE").format(sql.SQL(", ").join(sql.SQL(t) for t in self.tables))
        )
        if conn.execute(CATALOGUE).fetchone()[0] == self.template_catalogue:  # type: ignore[index]
            return None
        conn.close()
        self.janitor.drop()
        self.janitor.init()
        self.conn = self._connect()
        return (
            "the test changed the shared database's catalogue (grants, settings, objects or the extension), "
            "which a reset cannot undo: mark it @pytest.mark.fresh_database"
        )

    def close(self) -> None:
        self.conn.close()
        self.janitor.drop()


@pytest.fixture(scope="session")
def shared_database(postgresql_proc: PostgreSQLExecutor) -> Iterator[SharedDatabase]:
    shared = SharedDatabase(postgresql_proc)
    yield shared
    shared.close()


@pytest.fixture
def fresh_db(postgresql: psycopg.Connection[Any]) -> psycopg.Connection[Any]:
    """A connection (autocommit, pgvector registered) to a new database with the extension, for this test alone."""
    postgresql.autocommit = True
    register_vector(postgresql)
    return postgresql


@pytest.fixture
def db(request: pytest.FixtureRequest) -> Iterator[psycopg.Connection[Any]]:
    """A connection (autocommit, pgvector registered) to a database with the extension and no banks:
    the shared one, reset after the test, or under ``fresh_database`` one of the test's own."""
    if request.node.get_closest_marker("fresh_database"):
        yield request.getfixturevalue("fresh_db")
        return
    shared: SharedDatabase = request.getfixturevalue("shared_database")
    if shared.conn.closed or shared.conn.broken:
        shared.conn = shared._connect()
    yield shared.conn
    problem = shared.reset()
    if problem:
        pytest.fail(problem)


@pytest.fixture
def client(db: psycopg.Connection[Any], embedder: LocalEmbedder) -> Iterator[Client]:
    """A driver client on the test's database."""
    yield Client(db, embedder=embedder)


class BankSnapshots:
    """Banks that several tests read, built once a session and copied back for each: the rows of every table of the
    extension, kept with COPY (binary) after the first build and restored with triggers off (what the triggers
    derived, counts and postings, is in the rows already). A test may change its copy: the reset empties it."""

    def __init__(self) -> None:
        self.saved: dict[str, list[tuple[str, bytes]]] = {}
        self.tables: list[str] = []  # the extension's tables, read on the first build

    def restore(self, db: psycopg.Connection[Any], key: str, build: Callable[[], object]) -> None:
        """Make the database hold what ``build`` retains under ``key`` (its first call builds and keeps it); the
        database must hold no bank before."""
        saved = self.saved.get(key)
        if saved is None:
            build()
            self.tables = self.tables or [
                r[0]
                for r in db.execute(
                    "SELECT c.oid::regclass::text FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
                    "WHERE n.nspname = 'hindsight' AND c.relkind = 'r' ORDER BY 1"
                )
            ]
            saved = []
            for table in self.tables:
                with db.cursor().copy(f"COPY {table} TO STDOUT (FORMAT binary)") as copy:
                    saved.append((table, b"".join(bytes(part) for part in copy)))
            self.saved[key] = saved
            return
        with db.transaction():
            db.execute("SET LOCAL session_replication_role = replica")
            for table, data in saved:
                with db.cursor().copy(f"COPY {table} FROM STDIN (FORMAT binary)") as copy:
                    copy.write(data)


@pytest.fixture(scope="session")
def bank_snapshots() -> BankSnapshots:
    return BankSnapshots()


@pytest.fixture
def demo(client: Client, bank_snapshots: BankSnapshots) -> str:
    """Bank 'demo' as ``hindsight-pg demo`` (``make demo``) leaves it: the shipped conversation, retained."""
    from hindsight_pg._inputs import read_items
    from hindsight_pg.cli.examples import EXAMPLE_CONVERSATION

    def build() -> None:
        client.create_bank("demo", name="hindsight_pg demo")
        client.retain_batch("demo", read_items(str(EXAMPLE_CONVERSATION)))

    bank_snapshots.restore(client.conn, "demo", build)
    return "demo"


@pytest.fixture
def role(db: psycopg.Connection[Any]) -> Iterator[str]:
    """A fresh role without login (the test switches to it with SET ROLE), dropped with what it owns after."""
    name = f"tenant_{uuid.uuid4().hex[:8]}"
    db.execute(sql.SQL("CREATE ROLE {}").format(sql.Identifier(name)))
    yield name
    db.execute("RESET ROLE")
    db.execute(sql.SQL("DROP OWNED BY {}").format(sql.Identifier(name)))
    db.execute(sql.SQL("DROP ROLE {}").format(sql.Identifier(name)))
