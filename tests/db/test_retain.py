"""Retain: what is stored, input hygiene, and atomicity."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta, timezone

import numpy as np
import psycopg
import pytest
from _helpers import bank, put, vec

from hindsight_pg import BankNotFoundError, Client, InvalidInputError, MemoryItem
from hindsight_pl.tokens import count_tokens


def counts(db, bank_id):
    return db.execute(
        """SELECT (SELECT count(*) FROM hindsight.documents WHERE bank_id = %(b)s),
                  (SELECT count(*) FROM hindsight.chunks WHERE bank_id = %(b)s),
                  (SELECT count(*) FROM hindsight.memory_units WHERE bank_id = %(b)s),
                  (SELECT count(*) FROM hindsight.entities WHERE bank_id = %(b)s),
                  (SELECT count(*) FROM hindsight.unit_entities WHERE bank_id = %(b)s)""",
        {"b": bank_id},
    ).fetchone()


def test_retain_stores_document_chunk_and_unit(client, db):
    client.create_bank("b")
    result = client.retain(
        "b",
        "Alice is the tech lead on Project Atlas.",
        timestamp=datetime(2024, 3, 1, 9, 30),
        context="team chat",
        tags=["work"],
        metadata={"source": "slack"},
        entities=["Alice", "Project Atlas"],
    )
    assert len(result.document_ids) == 1 and len(result.unit_ids) == 1
    row = db.execute(
        """SELECT u.text, u.fact_type, u.context, u.mentioned_at, u.occurred_start, u.tags, u.metadata,
                  u.token_count, vector_norm(u.embedding), u.search_vector::text, u.chunk_id, c.chunk_text,
                  d.original_text
           FROM hindsight.memory_units u
           JOIN hindsight.chunks c USING (bank_id, chunk_id)
           JOIN hindsight.documents d ON d.bank_id = u.bank_id AND d.document_id = u.document_id
           WHERE u.id = %s""",
        (result.unit_ids[0],),
    ).fetchone()
    text, fact_type, context, mentioned_at, occurred_start, tags, metadata, tokens, norm, tsv, chunk_id, chunk, doc = (
        row
    )
    assert (text, fact_type, context) == ("Alice is the tech lead on Project Atlas.", "world", "team chat")
    assert mentioned_at == datetime(2024, 3, 1, 9, 30, tzinfo=UTC)  # a naive timestamp is taken as UTC
    assert occurred_start is None
    assert (tags, metadata) == (["work"], {"source": "slack"})
    assert tokens == count_tokens(text) == 9  # Alice| is| the| tech| lead| on| Project| Atlas|.
    assert norm == pytest.approx(1.0, abs=1e-5)
    assert "'atlas'" in tsv and "'alic'" in tsv  # English stemming
    assert chunk_id == f"{result.document_ids[0]}#0" and chunk == text == doc
    names = db.execute(
        "SELECT e.canonical_name, e.mention_count FROM hindsight.unit_entities ue"
        " JOIN hindsight.entities e ON e.bank_id = ue.bank_id AND e.id = ue.entity_id ORDER BY 1"
    ).fetchall()
    assert names == [("Alice", 1), ("Project Atlas", 1)]


def test_aware_timestamps_are_converted_to_utc(client, db):
    client.create_bank("b")
    eastern = timezone(timedelta(hours=-5))
    result = client.retain("b", "Standup moved to ten.", timestamp=datetime(2024, 3, 1, 23, 0, tzinfo=eastern))
    (mentioned,) = db.execute(
        "SELECT mentioned_at FROM hindsight.memory_units WHERE id = %s", result.unit_ids
    ).fetchone()
    assert mentioned == datetime(2024, 3, 2, 4, 0, tzinfo=UTC)


def test_entities_merge_case_insensitively_across_retains(client, db):
    client.create_bank("b")
    client.retain("b", "Alice joined.", timestamp="2024-01-01T00:00:00+00:00", entities=["Alice"])
    client.retain("b", "alice left.", timestamp="2024-06-01T00:00:00+00:00", entities=["alice", "ALICE "])
    rows = db.execute(
        "SELECT canonical_name, mention_count, first_seen, last_seen FROM hindsight.entities WHERE bank_id = 'b'"
    ).fetchall()
    assert rows == [("Alice", 2, datetime(2024, 1, 1, tzinfo=UTC), datetime(2024, 6, 1, tzinfo=UTC))]
    assert counts(db, "b")[4] == 2  # one link per unit


def test_long_content_is_chunked_into_several_units(client, db):
    client.create_bank("b")
    paragraphs = [
        " ".join(
            f"Section {p} line {n} describes revenue item {p * 100 + n} of the quarterly report." for n in range(18)
        )
        for p in range(5)
    ]  # about 1,430 characters each
    result = client.retain("b", "\n\n".join(paragraphs))
    chunks = db.execute("SELECT chunk_index, length(chunk_text) FROM hindsight.chunks ORDER BY 1").fetchall()
    assert [c[0] for c in chunks] == [0, 1, 2]  # 2 paragraphs per chunk, the last alone
    assert all(length <= 3000 for _, length in chunks)
    # every sentence is a fact of its own, inside the chunk it came from
    rows = db.execute(
        "SELECT c.chunk_index, strpos(c.chunk_text, u.text) > 0 FROM hindsight.memory_units u"
        " JOIN hindsight.chunks c USING (bank_id, chunk_id)"
    ).fetchall()
    assert len(rows) == len(result.unit_ids) == 90
    assert all(inside for _, inside in rows)
    assert sorted({r[0] for r in rows}) == [0, 1, 2]


def test_retaining_a_document_again_replaces_it(client, db):
    client.create_bank("b")
    client.retain("b", "Version one of the plan was approved.", document_id="plan")
    client.retain("b", "Version two of the plan was approved.\n\n" + "Kim reviewed the budget. " * 150,
                  document_id="plan")  # fmt: skip
    docs, chunks, units, _, _ = counts(db, "b")
    # the first paragraph stays alone; the 3,750-character second one splits on
    # sentences; the repeated sentence is one fact
    assert (docs, chunks, units) == (1, 3, 2)
    texts = [r[0] for r in db.execute("SELECT text FROM hindsight.memory_units ORDER BY chunk_id").fetchall()]
    assert texts == ["Version two of the plan was approved.", "Kim reviewed the budget."]


def test_nul_bytes_and_lone_surrogates_are_cleaned_and_found(client):
    client.create_bank("b")
    client.retain("b", "The vault code is\x00 orange\x00 falcon.")
    client.retain("b", "Broken text \ud800 talks about the zebra migration.")
    hit = client.recall("b", "vault code orange").results[0]
    assert hit.text == "The vault code is orange falcon."
    hit = client.recall("b", "zebra migration").results[0]
    assert hit.text == "Broken text \ufffd talks about the zebra migration."


@pytest.mark.parametrize("content", ["", "   \n", "...", "?! -- !?"])
def test_blank_or_punctuation_only_content_is_rejected(client, db, content):
    client.create_bank("b")
    with pytest.raises(InvalidInputError, match="item 0: content is blank or has only punctuation"):
        client.retain("b", content)
    assert counts(db, "b") == (0, 0, 0, 0, 0)


def test_retain_batch_takes_strings_and_names_a_bad_item(client, db):
    client.create_bank("b")
    result = client.retain_batch("b", ["Ana adopted a grey cat named Miso.", {"content": "Bo sold his bike."}])
    assert len(result.unit_ids) == 2 and len(result.document_ids) == 2
    with pytest.raises(
        InvalidInputError, match="item 1: expected a MemoryItem, a mapping of its fields or a string, not int"
    ):
        client.retain_batch("b", ["Fine.", 42])
    with pytest.raises(InvalidInputError, match="unexpected keyword argument 'text'") as caught:
        client.retain_batch("b", [{"text": "Ana runs."}])
    assert caught.value.hint is not None and "content" in caught.value.hint
    assert counts(db, "b")[0] == 2  # the refused calls stored nothing


def test_sql_retain_rejects_punctuation_only_text(db):
    bank(db, "b")
    with pytest.raises(psycopg.errors.InvalidParameterValue, match=r"item 0, unit 0: content is blank") as info:
        put(db, "b", [("!!!", vec(d0=1))])
    assert info.value.diag.message_hint == "Retain text that has at least one letter or digit."


def test_all_zero_embedding_is_rejected_with_a_clear_error(db):
    bank(db, "b")
    with pytest.raises(psycopg.errors.InvalidParameterValue) as info:
        put(db, "b", [("Fine text.", vec(d0=1)), ("Zero vector text.", [0.0] * 384)])
    assert info.value.diag.message_primary == (
        "item 1, unit 0: embedding is all zeros; cosine similarity is undefined for it"
    )
    assert counts(db, "b") == (0, 0, 0, 0, 0)  # the good first item was not kept either


def test_wrong_embedding_size_is_rejected(db):
    bank(db, "b")
    with pytest.raises(psycopg.errors.InvalidParameterValue, match="embedding has 3 dimensions, expected 384"):
        put(db, "b", [("Short vector.", [1.0, 0.0, 0.0])])


@pytest.mark.parametrize(
    ("item", "message"),
    [
        ({"units": []}, 'item 0: needs a non-empty "units" array'),
        ({"units": [{"text": "x", "embedding": [1] * 384}], "tags": "work"}, 'item 0: "tags" must be an array'),
        (
            {"units": [{"text": "x", "embedding": [1] * 384, "fact_type": "rumour"}]},
            'item 0, unit 0: fact_type "rumour" is not one of world, experience, observation',
        ),
        (
            {"chunks": ["a"], "units": [{"text": "x", "embedding": [1] * 384, "chunk_index": 1}]},
            "item 0, unit 0: chunk_index 1 does not name one of the item's 1 chunks",
        ),
        ({"units": [{"embedding": [1] * 384}]}, 'item 0, unit 0: needs a "text" string'),
    ],
)
def test_sql_retain_names_the_bad_item(db, item, message):
    bank(db, "b")
    with pytest.raises(psycopg.errors.InvalidParameterValue) as info:
        db.execute("SELECT * FROM hindsight.retain('b', %s::jsonb)", (json.dumps([item]),))
    assert info.value.diag.message_primary.startswith(message)


def test_duplicate_document_id_in_one_call_is_rejected(db):
    bank(db, "b")
    with pytest.raises(psycopg.errors.InvalidParameterValue, match='document_id "d" appears more than once'):
        put(db, "b", [("One.", vec(d0=1)), ("Two.", vec(d1=1))], document_id="d")


def test_retain_into_unknown_bank_names_it(client):
    with pytest.raises(BankNotFoundError, match='unknown bank "nope"'):
        client.retain("nope", "Hello there.")


class ZeroOn:
    """MiniLM, except that one given text embeds to all zeros (which the database refuses)."""

    dimensions = 384

    def __init__(self, inner, poison: str) -> None:
        self.inner, self.poison = inner, poison

    def embed(self, texts, kind="passage"):
        vectors = self.inner.embed(texts, kind)
        for i, t in enumerate(texts):
            if t == self.poison:
                vectors[i] = np.zeros(384, dtype=np.float32)
        return vectors


def test_failed_batch_leaves_the_bank_as_it_was(db, embedder):
    client = Client(db, embedder=ZeroOn(embedder, "Item number 69 was filed."))
    client.create_bank("b")
    client.retain("b", "Kept from before.", entities=["Alice"])
    before = counts(db, "b")
    items = [MemoryItem(f"Item number {i} was filed.", entities=["Alice", f"Person {i}"]) for i in range(70)]
    seen = []
    with pytest.raises(InvalidInputError, match="item 5, unit 0: embedding is all zeros"):
        client.retain_batch("b", items, progress=seen.append)
    assert seen == [64]  # the first group of 64 reached the database before the second failed
    assert counts(db, "b") == before
    (mentions,) = db.execute("SELECT mention_count FROM hindsight.entities WHERE canonical_name = 'Alice'").fetchone()
    assert mentions == 1


def test_retain_batch_reports_progress_and_returns_every_unit(client, db):
    client.create_bank("b", config={"dedupe_similarity": 1.0})  # near-identical notes stay apart
    items = [{"content": f"Note {i} is about the garden.", "document_id": f"n{i}"} for i in range(70)]
    seen = []
    result = client.retain_batch("b", items, progress=seen.append)
    assert seen == [64, 6]
    assert result.document_ids == [f"n{i}" for i in range(70)]
    assert len(result.unit_ids) == 70 == counts(db, "b")[2]


def test_a_habit_in_one_batch_keeps_every_day_and_dedupes_within_a_day(client, db):
    client.create_bank("b")
    days = ["2024-01-09", "2024-02-13", "2024-02-13", "2024-04-02"]  # the third repeats the second's day
    items = [{"content": "Ana ran 5 km in Riverside Park before work.", "timestamp": f"{d}T07:00:00Z",
              "entities": ["Ana"]} for d in days]  # fmt: skip
    result = client.retain_batch("b", items)
    assert len(result.unit_ids) == 3
    stored = db.execute("SELECT mentioned_at::date::text FROM hindsight.memory_units ORDER BY 1").fetchall()
    assert stored == [("2024-01-09",), ("2024-02-13",), ("2024-04-02",)]


def test_retain_reads_the_banks_config_once_and_hands_it_on(db):
    """One hindsight.retain reads the bank's config once (hindsight.bank_config) and passes it to entity
    resolution, the links, the knowledge updates and the choice of search path, which read it no more."""
    bank(db, "c")
    put(db, "c", [{"text": "Ana met Bo in Lisbon.", "embedding": vec(d0=1), "entities": ["Ana", "Bo"]}])
    calls = (
        "SELECT p.proname, s.calls FROM pg_stat_xact_user_functions s JOIN pg_proc p ON p.oid = s.funcid"
        " WHERE s.schemaname = 'hindsight'"
        " AND p.proname IN ('bank_config', '_resolve_entities', '_link_units', '_link_updates', '_semantic_path')"
    )
    with db.transaction():
        db.execute("SET LOCAL track_functions = 'all'")
        before = dict(db.execute(calls).fetchall())  # counts of this session not yet reported show here too
        put(db, "c", [{"text": "Ana moved to Oslo.", "embedding": vec(d0=1, d1=1), "entities": ["Ana", "Oslo"]}])
        after = dict(db.execute(calls).fetchall())
    assert {name: n - before.get(name, 0) for name, n in after.items()} == {
        "bank_config": 1, "_resolve_entities": 1, "_link_units": 1, "_link_updates": 1, "_semantic_path": 1,
    }  # fmt: skip


def test_a_unit_may_have_its_own_context_else_its_items(db):
    bank(db, "ctx")
    item = {"context": "team chat", "units": [
        {"text": "Ana booked the flight.", "embedding": vec(d0=1), "context": "team chat › Travel"},
        {"text": "Tom fixed the sink.", "embedding": vec(d1=1)},
    ]}  # fmt: skip
    db.execute("SELECT * FROM hindsight.retain('ctx', %s::jsonb)", (json.dumps([item]),))
    rows = db.execute("SELECT text, context FROM hindsight.memory_units WHERE bank_id = 'ctx' ORDER BY text").fetchall()
    assert rows == [("Ana booked the flight.", "team chat › Travel"), ("Tom fixed the sink.", "team chat")]
    item["units"][0]["context"] = 5
    with pytest.raises(psycopg.errors.InvalidParameterValue, match='item 0, unit 0: "context" must be a string'):
        db.execute("SELECT * FROM hindsight.retain('ctx', %s::jsonb)", (json.dumps([item]),))


def test_retain_inside_a_statement_reading_memory_units(db):
    # once a retain built an index here and had to defer it; with the one shared index there is nothing to build
    bank(db, "src")
    put(db, "src", [(f"Fact {i}.", vec(d0=1, d1=i / 10)) for i in range(4)])
    bank(db, "copy", hnsw_min_units=3)
    notices = []

    def keep(d: psycopg.errors.Diagnostic) -> None:
        notices.append(d.message_primary)

    db.add_notice_handler(keep)
    try:
        (count,) = db.execute(
            """SELECT count(*) FROM hindsight.retain('copy', (
                   SELECT jsonb_agg(jsonb_build_object('units', jsonb_build_array(jsonb_build_object(
                       'text', u.text, 'embedding', u.embedding::text::jsonb))))
                   FROM hindsight.memory_units u WHERE u.bank_id = 'src'))"""
        ).fetchone()
    finally:
        db.remove_notice_handler(keep)
    assert count == 4 and notices == []
    assert db.execute("SELECT hindsight._semantic_path('copy')").fetchone()[0] == "hnsw"
