"""The driver's error classes on one node, from real errors of the server: 0A000 raised by PostgreSQL is
NotSupportedError (not "extension missing"), the extension's own 0A000 stays ExtensionError, a bank that
exists is BankExistsError (by the table of the unique violation, not the message), and an error the
client's libpq or a FATAL raised is never a WorkerError
(tests/citus/test_errors.py has the Citus side)."""

from __future__ import annotations

import psycopg
import pytest
from psycopg import sql

import hindsight_pg
from hindsight_pg import (
    BankExistsError,
    ConnectionLostError,
    EmbeddedServer,
    ExtensionError,
    ExtensionVersionError,
    HindsightError,
    NotSupportedError,
    ServerError,
)
from hindsight_pg._errors import from_database


def test_copy_under_row_level_security_is_not_supported_not_a_missing_extension(db, role):
    db.execute("SELECT hindsight.create_bank('copy-target')")
    db.execute(sql.SQL("SET ROLE {}").format(sql.Identifier(role)))
    copying = db.cursor().copy("COPY hindsight.documents (bank_id, document_id) FROM STDIN")
    with pytest.raises(psycopg.errors.FeatureNotSupported) as info, copying as copy:
        copy.write_row(("copy-target", "d"))
    db.execute("RESET ROLE")
    error = from_database(info.value)
    assert type(error) is NotSupportedError and error.sqlstate == "0A000"
    assert str(error) == "COPY FROM not supported with row-level security (hint: Use INSERT statements instead.)"


def test_the_extensions_own_0A000_is_an_extension_error(db):
    with pytest.raises(psycopg.errors.FeatureNotSupported) as info:
        db.execute("SELECT hindsight.distribute()")  # no Citus here
    error = from_database(info.value)
    assert type(error) is ExtensionError and "citus extension is not installed" in str(error)


def test_an_existing_bank_is_bank_exists(db, client):
    client.create_bank("taken")
    with pytest.raises(BankExistsError, match='bank "taken" already exists'):
        client.create_bank("taken")
    # by the error's table, not its words: a row of hindsight.banks written twice is the same error
    with pytest.raises(psycopg.errors.UniqueViolation) as twice:
        db.execute("INSERT INTO hindsight.banks (bank_id) VALUES ('taken')")
    assert type(from_database(twice.value)) is BankExistsError


def test_another_unique_violation_naming_a_bank_is_not_bank_exists(db, client):
    client.create_bank("b")
    insert = "INSERT INTO hindsight.mental_models (bank_id, name, source_query) VALUES ('b', 'pets', 'Who has pets?')"
    db.execute(insert)
    with pytest.raises(psycopg.errors.UniqueViolation, match="bank_id") as again:
        db.execute(insert)
    error = from_database(again.value)
    assert type(error) is HindsightError and error.sqlstate == "23505"


def test_the_client_losing_its_connection_is_not_a_worker_error(db, postgresql_proc):
    conn = psycopg.connect(
        host=postgresql_proc.host, port=postgresql_proc.port, user=postgresql_proc.user, dbname=db.info.dbname
    )
    pid = conn.info.backend_pid
    db.execute("SELECT pg_terminate_backend(%s)", (pid,))
    with pytest.raises(psycopg.OperationalError) as info:
        conn.execute("SELECT 1")
    assert type(from_database(info.value)) is ConnectionLostError
    conn.close()


def test_connect_refuses_an_extension_of_another_version_and_says_what_to_run(db):
    name = f"{db.info.dbname}_old"
    db.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    try:
        dsn = f"host={db.info.host} port={db.info.port} user={db.info.user} dbname={name}"
        with psycopg.connect(dsn, autocommit=True) as conn:
            conn.execute("CREATE EXTENSION hindsight_pg VERSION '0.2.0' CASCADE")
        with pytest.raises(ExtensionVersionError) as older:
            hindsight_pg.connect(dsn)
        assert (older.value.installed, older.value.driver) == ("0.2.0", hindsight_pg.__version__)
        assert str(older.value) == (
            f"the database's hindsight_pg extension is 0.2.0, older than this driver ({hindsight_pg.__version__}) "
            "(hint: Run ALTER EXTENSION hindsight_pg UPDATE; as a superuser (docs/integrations.md, Upgrades).)"
        )
        with psycopg.connect(dsn, autocommit=True) as conn:
            conn.execute("ALTER EXTENSION hindsight_pg UPDATE")
        with hindsight_pg.connect(dsn) as client:  # the same version now
            assert client.list_banks() == []
    finally:
        db.execute(sql.SQL("DROP DATABASE {} WITH (FORCE)").format(sql.Identifier(name)))


def test_connect_to_a_database_without_the_extension(db):
    db.execute("CREATE DATABASE plain")
    dsn = psycopg.conninfo.make_conninfo(db.info.dsn, dbname="plain")
    with pytest.raises(ExtensionError, match="database 'plain' does not have the hindsight_pg extension"):
        hindsight_pg.connect(dsn)


def test_an_unusable_server_home_is_a_server_error():
    with pytest.raises(ServerError, match="cannot use /proc/nope as the embedded server's home"):
        EmbeddedServer("/proc/nope").ensure_running()
