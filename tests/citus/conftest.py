"""The Citus test suite's fixtures: one real cluster per session (a coordinator and two workers,
tests/citus/_cluster.py), its database distributed by hindsight.distribute(), and a single-node
database on the same server programs for parity.

Run with `make test-citus` (after `make citus`); `make test` does not collect this directory.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
from _cluster import CitusCluster
from pgvector.psycopg import register_vector

from hindsight_pg import Client, LocalEmbedder

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "db"))  # tests/db/_helpers.py

SHARDS = 8


def _citus_installed() -> bool:
    libdir = subprocess.run(
        ["/usr/lib/postgresql/15/bin/pg_config", "--pkglibdir"], capture_output=True, text=True, check=True
    ).stdout.strip()
    return (Path(libdir) / "citus.so").exists()


@pytest.fixture(scope="session")
def cluster() -> Iterator[CitusCluster]:
    """A coordinator and two workers, started for the session and removed after it."""
    if not _citus_installed():
        pytest.exit("Citus is not installed for PostgreSQL 15: run `make citus` first", returncode=2)
    with CitusCluster(workers=2) as started:
        with psycopg.connect(started.dsn(), autocommit=True) as conn:
            conn.execute("SET client_min_messages = warning")
            conn.execute("CREATE EXTENSION hindsight_pg CASCADE")
            conn.execute("SELECT hindsight.distribute(shard_count => %s)", (SHARDS,))
            # the single-node twin: a database without Citus on the coordinator's server
            conn.execute("CREATE DATABASE single")
        with psycopg.connect(started.dsn("single"), autocommit=True) as conn:
            conn.execute("SET client_min_messages = warning")
            conn.execute("CREATE EXTENSION hindsight_pg CASCADE")
        yield started


def _connect(dsn: str) -> psycopg.Connection[Any]:
    conn = psycopg.connect(dsn, autocommit=True)
    register_vector(conn)
    return conn


@pytest.fixture
def db(cluster: CitusCluster) -> Iterator[psycopg.Connection[Any]]:
    """A connection (autocommit) to the coordinator's distributed database."""
    with _connect(cluster.dsn()) as conn:
        yield conn


@pytest.fixture
def single(cluster: CitusCluster) -> Iterator[psycopg.Connection[Any]]:
    """A connection (autocommit) to the single-node database (no Citus) on the same server."""
    with _connect(cluster.dsn("single")) as conn:
        yield conn


@pytest.fixture
def client(db: psycopg.Connection[Any], embedder: LocalEmbedder) -> Client:
    """A driver client on the coordinator."""
    return Client(db, embedder=embedder)


@pytest.fixture
def bank_id(request: pytest.FixtureRequest, db: psycopg.Connection[Any]) -> Iterator[str]:
    """A bank id of this test's own (the cluster is shared by the session); the bank is deleted after."""
    name = request.node.name.replace("[", "-").replace("]", "")[:60]
    yield name
    db.execute("SELECT hindsight.delete_bank(%s)", (name,))
