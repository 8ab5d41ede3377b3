"""The driver's error classes on one node, from real errors of the server: 0A000 raised by PostgreSQL is
NotSupportedError (not "extension missing"), the extension's own 0A000 stays ExtensionError, a bank that
exists is BankExistsError, and an error the client's libpq or a FATAL raised is never a WorkerError
(tests/citus/test_errors.py has the Citus side)."""

from __future__ import annotations

import psycopg
import pytest
from psycopg import sql

from hindsight_pg import BankExistsError, ConnectionLostError, ExtensionError, NotSupportedError
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
    with pytest.raises(BankExistsError):
        client.create_bank("taken")


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
