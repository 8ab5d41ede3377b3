"""Database fixtures: one throwaway PostgreSQL 15 per test session (pytest-postgresql),
a template database holding the real extension, and a fresh database per test."""

from __future__ import annotations

import atexit
import shlex
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
from pgvector.psycopg import register_vector
from pytest_postgresql import factories

from hindsight_pg import Client, LocalEmbedder
from hindsight_pg._server import pg_command


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


@pytest.fixture
def db(postgresql: psycopg.Connection[Any]) -> psycopg.Connection[Any]:
    """A connection (autocommit, pgvector registered) to a fresh database with the extension."""
    postgresql.autocommit = True
    register_vector(postgresql)
    return postgresql


@pytest.fixture
def client(db: psycopg.Connection[Any], embedder: LocalEmbedder) -> Iterator[Client]:
    """A driver client on the fresh database."""
    yield Client(db, embedder=embedder)
