"""Concurrent writers: many sessions retaining into the same banks, naming the same entities, never
deadlock, never lose a fact, and leave every derived statistic equal to a recount (docs/reliability.md)."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

import numpy as np
import psycopg
import pytest
from pgvector.psycopg import register_vector
from test_bm25 import recount

from hindsight_pg import Client, HindsightError, LocalEmbedder

THREADS = 16
BANKS = 4
RETAINS = 20  # per thread and bank
ENTITIES = ["Dana", "Project Atlas", "Kestrel"]


class _Embedded:
    """The real MiniLM embeddings of a known set of texts, computed once up front, so that 16 threads
    measure the database rather than 16 copies of the model competing for two cores."""

    dimensions = 384

    def __init__(self, model: LocalEmbedder, texts: Sequence[str]) -> None:
        self.vectors = dict(zip(texts, model.embed(list(texts)), strict=True))

    def embed(self, texts: Sequence[str], kind: str = "passage") -> Any:
        return np.stack([self.vectors[t] for t in texts]) if texts else np.zeros((0, 384), dtype=np.float32)


def _connect(db: psycopg.Connection[Any]) -> psycopg.Connection[Any]:
    info = db.info
    conn = psycopg.connect(host=info.host, port=info.port, user=info.user, dbname=info.dbname, autocommit=True)
    register_vector(conn)
    return conn


def _run(workers: list[threading.Thread]) -> None:
    for w in workers:
        w.start()
    for w in workers:
        w.join(timeout=300)
    assert not any(w.is_alive() for w in workers), "a writer hung"


def _sentence(thread: int, bank: int, i: int) -> str:
    return f"Dana and Kestrel reviewed Project Atlas milestone {thread}-{bank}-{i} with the client."


@pytest.mark.slow
def test_sixteen_writers_into_four_banks_never_deadlock_or_lose_a_fact(db, embedder):
    texts = [_sentence(t, b, i) for t in range(THREADS) for b in range(BANKS) for i in range(RETAINS)]
    embedded = _Embedded(embedder, texts)
    setup = Client(db, embedder=embedded)
    banks = [f"shared-{b}" for b in range(BANKS)]
    for name in banks:
        setup.create_bank(name)
    start = datetime(2025, 3, 1, tzinfo=UTC)
    errors: list[BaseException] = []
    retries: list[int] = []

    def writer(thread: int) -> None:
        client = Client(_connect(db), embedder=embedded)
        try:
            for i in range(RETAINS):
                for b in range(BANKS):
                    b = (b + thread) % BANKS  # every thread visits the banks in its own order
                    client.retain(banks[b], _sentence(thread, b, i), entities=ENTITIES,
                                  timestamp=start + timedelta(minutes=thread * RETAINS + i))  # fmt: skip
        except BaseException as exc:  # reported below, with the others
            errors.append(exc)
        finally:
            retries.append(client.retries)
            client.close()

    _run([threading.Thread(target=writer, args=(t,)) for t in range(THREADS)])
    assert errors == []
    assert sum(retries) == 0  # not even a deadlock that a retry hid: the bank lock orders the writers

    for b, name in enumerate(banks):
        stored = [r[0] for r in db.execute("SELECT text FROM hindsight.memory_units WHERE bank_id = %s", (name,))]
        assert sorted(stored) == sorted(_sentence(t, b, i) for t in range(THREADS) for i in range(RETAINS))
        # one entity per name, the three named ones mentioned by every unit
        entities = dict(db.execute(
            "SELECT lower(canonical_name), mention_count FROM hindsight.entities WHERE bank_id = %s", (name,)
        ).fetchall())  # fmt: skip
        assert len(entities) == db.execute(
            "SELECT count(*) FROM hindsight.entities WHERE bank_id = %s", (name,)).fetchone()[0]  # fmt: skip
        assert [entities.get(e.lower()) for e in ENTITIES] == [THREADS * RETAINS] * len(ENTITIES)
        assert _entity_counts_match(db, name)
        kept, fresh = recount(db, name)
        assert kept == fresh
        # links: temporal ones go both ways, none points outside the bank
        one_way = db.execute(
            """SELECT count(*) FROM hindsight.memory_links l WHERE l.bank_id = %s AND l.link_type = 'temporal'
               AND NOT EXISTS (SELECT FROM hindsight.memory_links r WHERE r.bank_id = l.bank_id
                               AND r.from_unit_id = l.to_unit_id AND r.to_unit_id = l.from_unit_id
                               AND r.link_type = 'temporal')""",
            (name,),
        ).fetchone()[0]
        assert one_way == 0
        assert _dangling_links(db, name) == 0


def _entity_counts_match(db: psycopg.Connection[Any], bank_id: str) -> bool:
    kept = db.execute(
        """SELECT e.id, e.mention_count,
                  coalesce(array_agg(c.other_entity_id || ':' || c.unit_count ORDER BY c.other_entity_id)
                           FILTER (WHERE c.entity_id IS NOT NULL), '{}')
           FROM hindsight.entities e LEFT JOIN hindsight._entity_cooccurrences c
             ON c.bank_id = e.bank_id AND c.entity_id = e.id
           WHERE e.bank_id = %s GROUP BY 1, 2 ORDER BY 1""",
        (bank_id,),
    ).fetchall()
    fresh = db.execute(
        """SELECT e.id, (SELECT count(*) FROM hindsight.unit_entities ue WHERE ue.bank_id = e.bank_id
                         AND ue.entity_id = e.id)::int,
                  coalesce((SELECT array_agg(p.other || ':' || p.n ORDER BY p.other) FROM (
                      SELECT b.entity_id AS other, count(*) AS n FROM hindsight.unit_entities a
                      JOIN hindsight.unit_entities b ON b.bank_id = a.bank_id AND b.unit_id = a.unit_id
                       AND b.entity_id <> a.entity_id
                      WHERE a.bank_id = e.bank_id AND a.entity_id = e.id GROUP BY 1) p), '{}')
           FROM hindsight.entities e WHERE e.bank_id = %s ORDER BY 1""",
        (bank_id,),
    ).fetchall()
    return kept == fresh


def _dangling_links(db: psycopg.Connection[Any], bank_id: str) -> int:
    return db.execute(
        """SELECT count(*) FROM hindsight.memory_links l WHERE l.bank_id = %s
           AND (NOT EXISTS (SELECT FROM hindsight.memory_units u
                            WHERE u.bank_id = l.bank_id AND u.id = l.from_unit_id)
             OR NOT EXISTS (SELECT FROM hindsight.memory_units u
                            WHERE u.bank_id = l.bank_id AND u.id = l.to_unit_id))""",
        (bank_id,),
    ).fetchone()[0]


def _orphans(db: psycopg.Connection[Any], bank_id: str) -> dict[str, int]:
    """Rows that point at something no longer there."""
    queries = {
        "links": None,
        "unit_entities": """SELECT count(*) FROM hindsight.unit_entities x WHERE x.bank_id = %s AND NOT EXISTS (
                            SELECT FROM hindsight.memory_units u WHERE u.bank_id = x.bank_id AND u.id = x.unit_id)""",
        "entities unmentioned": "SELECT count(*) FROM hindsight.entities WHERE bank_id = %s AND mention_count = 0",
        "postings": """SELECT count(*) FROM hindsight._bm25_postings p WHERE p.bank_id = %s AND NOT EXISTS (
                       SELECT FROM hindsight.memory_units u WHERE u.bank_id = p.bank_id AND u.id = p.unit_id)""",
        "observation sources": """SELECT count(*) FROM hindsight.observation_sources s WHERE s.bank_id = %s
                                  AND NOT EXISTS (SELECT FROM hindsight.memory_units u
                                                  WHERE u.bank_id = s.bank_id AND u.id = s.unit_id)""",
        "chunks without document": """SELECT count(*) FROM hindsight.chunks c WHERE c.bank_id = %s AND NOT EXISTS (
                                      SELECT FROM hindsight.documents d WHERE d.bank_id = c.bank_id
                                      AND d.document_id = c.document_id)""",
    }
    found = {name: db.execute(q, (bank_id,)).fetchone()[0] for name, q in queries.items() if q}
    found["links"] = _dangling_links(db, bank_id)
    return found


def test_retain_delete_document_and_consolidate_at_once_leave_no_orphans(db, embedder):
    sentences = [f"Dana tested the Kestrel sensor batch {i} for Project Atlas in the lab." for i in range(120)]
    embedded = _Embedded(embedder, sentences)
    Client(db, embedder=embedded).create_bank("busy")
    start = datetime(2025, 5, 1, tzinfo=UTC)
    errors: list[BaseException] = []

    def retainer(part: int) -> None:
        with Client(_connect(db), embedder=embedded) as client:
            try:
                for i in range(part, 120, 2):
                    client.retain("busy", sentences[i], document_id=f"doc-{i}", entities=ENTITIES,
                                  timestamp=start + timedelta(hours=i))  # fmt: skip
            except BaseException as exc:
                errors.append(exc)

    def deleter() -> None:
        with Client(_connect(db), embedder=embedded) as client:
            try:
                for i in range(0, 120, 3):
                    client.delete_document("busy", f"doc-{i}")
            except BaseException as exc:
                errors.append(exc)

    def consolidator() -> None:
        with Client(_connect(db), embedder=embedded) as client:
            try:
                for _ in range(6):
                    client.consolidate("busy", use_llm=False)
            except BaseException as exc:
                errors.append(exc)

    _run([threading.Thread(target=retainer, args=(0,)), threading.Thread(target=retainer, args=(1,)),
          threading.Thread(target=deleter), threading.Thread(target=consolidator)])  # fmt: skip
    assert errors == []
    assert _orphans(db, "busy") == dict.fromkeys(
        [
            "unit_entities",
            "entities unmentioned",
            "postings",
            "observation sources",
            "chunks without document",
            "links",
        ],
        0,
    )
    kept, fresh = recount(db, "busy")
    assert kept == fresh
    assert _entity_counts_match(db, "busy")
    # every document still there has its fact; a deleted one has none
    documents = {r[0] for r in db.execute("SELECT document_id FROM hindsight.documents WHERE bank_id = 'busy'")}
    facts = {
        r[0]
        for r in db.execute(
            "SELECT document_id FROM hindsight.memory_units WHERE bank_id = 'busy' AND fact_type <> 'observation'"
        )
    }
    assert facts == documents and len(documents) >= 80  # 40 deletions, some of them before their retain


def _deadlock_with_retain(db, client: Client, bank_id: str, own_transaction: bool) -> BaseException | None:
    """A real deadlock between the client's retain and another session: the other session takes the
    bank's write lock, the client creates the bank (an uncommitted row) and waits for that lock in
    retain, then the other session inserts the same bank row and waits for the client. The client,
    which waited first, meets its deadlock_timeout first and is the one PostgreSQL aborts (40P01)."""
    other = _connect(db)
    other.execute("SET deadlock_timeout = '10s'")
    other.execute("BEGIN")
    other.execute("SELECT hindsight._lock_bank(%s)", (bank_id,))
    raised: list[BaseException] = []

    def retain() -> None:
        try:
            if own_transaction:
                with client.conn.transaction():
                    client.retain(bank_id, "Dana met Kestrel.", create_bank=True)
            else:
                client.retain(bank_id, "Dana met Kestrel.", create_bank=True)
        except BaseException as exc:
            raised.append(exc)

    worker = threading.Thread(target=retain)
    worker.start()
    try:
        while not other.execute(  # the client waits for the bank lock
            "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()"
        ).fetchone()[0]:
            pass
        other.execute("INSERT INTO hindsight.banks (bank_id) VALUES (%s) ON CONFLICT DO NOTHING", (bank_id,))
        other.execute("COMMIT")
    finally:
        worker.join(timeout=60)
        other.close()
    return raised[0] if raised else None


def test_a_deadlocked_retain_is_run_again(db, embedder):
    client = Client(db, embedder=_Embedded(embedder, ["Dana met Kestrel."]))
    assert _deadlock_with_retain(db, client, "contended", own_transaction=False) is None
    assert client.retries == 1
    assert db.execute("SELECT count(*) FROM hindsight.memory_units WHERE bank_id = 'contended'").fetchone()[0] == 1


def test_a_deadlock_inside_the_callers_own_transaction_is_raised(db, embedder):
    client = Client(db, embedder=_Embedded(embedder, ["Dana met Kestrel."]))
    raised = _deadlock_with_retain(db, client, "contended", own_transaction=True)
    assert isinstance(raised, HindsightError) and raised.sqlstate == "40P01"  # the caller's to retry
    assert client.retries == 0
    assert db.execute("SELECT count(*) FROM hindsight.memory_units WHERE bank_id = 'contended'").fetchone()[0] == 0
