"""Parity: LoCoMo conversation conv-26 retained with the same items into the cluster and into a
single node gives the same units (with the same ids), entities and links, and for every one of its
questions the same top-10 memory ids in the same order with the same scores (to 1e-9)."""

from __future__ import annotations

import pytest
from _helpers import locomo_file

from hindsight_pg import Client
from hindsight_pg._inputs import load_locomo

LOCOMO = locomo_file()  # absent: the tests skip

pytestmark = [
    pytest.mark.locomo,
    pytest.mark.slow,
    pytest.mark.skipif(not LOCOMO.exists(), reason="LoCoMo data not found (set HINDSIGHT_LOCOMO)"),
]


def test_conv_26_is_the_same_on_the_cluster_and_on_one_node(db, single, embedder, bank_id):
    (conv,) = [c for c in load_locomo(LOCOMO) if c.sample_id == "conv-26"]
    cluster, alone = Client(db, embedder=embedder), Client(single, embedder=embedder)
    single.execute("SELECT hindsight.delete_bank(%s)", (bank_id,))
    ids = {}
    for name, client in (("cluster", cluster), ("single", alone)):
        client.create_bank(bank_id)
        ids[name] = client.retain_batch(bank_id, conv.items).unit_ids
    # the same units with the same ids (name-based: hindsight._name_uuid), in the same order
    assert ids["cluster"] == ids["single"] and len(ids["cluster"]) == 648

    def units(conn):
        rows = conn.execute(
            "SELECT id, text, fact_type, occurred_start, occurred_end, mentioned_at, document_id, chunk_id, tags,"
            " token_count, search_vector::text, embedding::text FROM hindsight.memory_units WHERE bank_id = %s",
            (bank_id,),
        ).fetchall()
        return sorted(rows)

    assert units(db) == units(single)

    def entities(conn):
        return sorted(conn.execute(
            "SELECT canonical_name, mention_count, first_seen, last_seen FROM hindsight.entities WHERE bank_id = %s",
            (bank_id,)).fetchall())  # fmt: skip

    assert entities(db) == entities(single) and len(entities(db)) > 20

    def links(conn):
        rows = conn.execute(
            "SELECT from_unit_id, to_unit_id, link_type, weight FROM hindsight.memory_links WHERE bank_id = %s",
            (bank_id,),
        ).fetchall()
        return sorted((f, t, kind, round(w, 12)) for f, t, kind, w in rows)

    cluster_links = links(db)
    assert cluster_links == links(single) and len(cluster_links) > 1000

    def mentions(conn):
        rows = conn.execute(
            "SELECT ue.unit_id, e.canonical_name FROM hindsight.unit_entities ue JOIN hindsight.entities e"
            " ON e.bank_id = ue.bank_id AND e.id = ue.entity_id WHERE ue.bank_id = %s",
            (bank_id,),
        ).fetchall()
        return sorted(rows)

    assert mentions(db) == mentions(single)
    # every question: the same top 10, in the same order, with the same scores
    questions = [q["question"] for q in conv.questions]
    assert len(questions) > 100
    for question in questions:
        got = cluster.recall(bank_id, question, max_tokens=100000).results[:10]
        want = alone.recall(bank_id, question, max_tokens=100000).results[:10]
        assert [r.id for r in got] == [r.id for r in want], question
        for a, b in zip(got, want, strict=True):
            assert abs(a.scores.final - b.scores.final) <= 1e-9 and abs(a.scores.rrf - b.scores.rrf) <= 1e-9, question
    single.execute("SELECT hindsight.delete_bank(%s)", (bank_id,))
