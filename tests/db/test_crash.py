"""Crashes: a retain whose backend is killed, or whose server stops at once (pg_ctl stop -m immediate),
leaves the bank with all of that retain or none of it, and statistics equal to a recount
(docs/reliability.md)."""

from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta
from typing import Any

import psycopg
import pytest
from test_bm25 import recount
from test_concurrency import _connect, _Embedded, _entity_counts_match

import hindsight_pg
from hindsight_pg import Client, ConnectionLostError, EmbeddedServer
from hindsight_pg._server import pg_command

ITEMS = 320  # five groups of RETAIN_GROUP_SIZE (64): the crash comes after the first group is stored
START = datetime(2025, 6, 1, tzinfo=UTC)

pytestmark = pytest.mark.slow  # a server of its own, killed and restarted


def _items() -> list[dict[str, Any]]:
    return [
        {"content": f"Note {i}: Mara watered bed {i} in the Oslo garden.", "timestamp": START + timedelta(hours=i),
         "entities": ["Mara", "Oslo"]}
        for i in range(ITEMS)
    ]  # fmt: skip


@pytest.fixture(scope="module")
def embedded(embedder) -> _Embedded:
    texts = [item["content"] for item in _items()] + ["Mara planted tulips in Oslo."]
    return _Embedded(embedder, texts)


def _state(conn: psycopg.Connection[Any], bank_id: str) -> dict[str, Any]:
    tables = ["memory_units", "documents", "chunks", "entities", "unit_entities", "memory_links"]
    counts = {
        t: conn.execute(f"SELECT count(*) FROM hindsight.{t} WHERE bank_id = %s", (bank_id,)).fetchone()[0]
        for t in tables
    }
    kept, fresh = recount(conn, bank_id)
    return {"counts": counts, "statistics exact": kept == fresh, "entities exact": _entity_counts_match(conn, bank_id)}


def _retain_until_crash(client: Client, bank_id: str, crash: Any) -> BaseException | None:
    """retain_batch of ITEMS items in a thread; ``crash()`` runs once the first group is in the database
    (inside the batch's one transaction). Returns what the retain raised."""
    first_group = threading.Event()
    raised: list[BaseException] = []

    def retain() -> None:
        try:
            client.retain_batch(bank_id, _items(), progress=lambda n: first_group.set())
        except BaseException as exc:
            raised.append(exc)
        finally:
            first_group.set()

    worker = threading.Thread(target=retain)
    worker.start()
    assert first_group.wait(120)
    crash()
    worker.join(120)
    assert not worker.is_alive()
    return raised[0] if raised else None


def test_a_killed_backend_leaves_the_bank_as_it_was(db, embedded):
    client = Client(_connect(db), embedder=embedded)
    client.create_bank("garden")
    client.retain("garden", "Mara planted tulips in Oslo.", timestamp=START)
    before = _state(db, "garden")
    pid = client.conn.info.backend_pid
    raised = _retain_until_crash(client, "garden", lambda: db.execute("SELECT pg_terminate_backend(%s)", (pid,)))
    assert isinstance(raised, ConnectionLostError)
    assert "connection" in str(raised) and "rolled back" in str(raised)
    assert _state(db, "garden") == before == {**before, "statistics exact": True, "entities exact": True}


def test_an_immediate_server_stop_keeps_all_of_a_retain_or_none(tmp_path, embedded):
    server = EmbeddedServer(tmp_path / "pg")
    dsn = server.ensure_running()
    try:
        client = hindsight_pg.connect(dsn, embedder=embedded)
        client.create_bank("garden")
        client.retain("garden", "Mara planted tulips in Oslo.", timestamp=START)
        with psycopg.connect(dsn) as conn:
            before = _state(conn, "garden")

        def stop_at_once() -> None:
            import subprocess

            subprocess.run(pg_command("pg_ctl", "stop", "-m", "immediate", "-D", str(server.data)), check=True,
                           capture_output=True)  # fmt: skip

        raised = _retain_until_crash(client, "garden", stop_at_once)
        assert isinstance(raised, ConnectionLostError), raised
        dsn = server.ensure_running()  # crash recovery replays the WAL: the open transaction is gone
        with psycopg.connect(dsn) as conn:
            after = _state(conn, "garden")
        assert after == before and after["statistics exact"] and after["entities exact"]
        # and the bank takes the same retain again, whole
        with hindsight_pg.connect(dsn, embedder=embedded) as again:
            result = again.retain_batch("garden", _items())
        assert len(result.unit_ids) == ITEMS
        with psycopg.connect(dsn) as conn:
            final = _state(conn, "garden")
        assert final["counts"]["memory_units"] == before["counts"]["memory_units"] + ITEMS
        assert final["statistics exact"] and final["entities exact"]
    finally:
        server.stop()
