"""Behaviour a first user tripped over: errors, strings for lists, atomic CLI retain, long texts."""

from __future__ import annotations

import json

import numpy as np
import psycopg
import pytest
from _helpers import bank, put, recall, vec
from typer.testing import CliRunner

import hindsight_pg
from hindsight_pg import EmbeddedServer, ExtensionError, InvalidInputError, ServerError, cli


def test_connect_to_a_database_without_the_extension(db):
    db.execute("CREATE DATABASE plain")
    dsn = psycopg.conninfo.make_conninfo(db.info.dsn, dbname="plain")
    with pytest.raises(ExtensionError, match="database 'plain' does not have the hindsight_pg extension"):
        hindsight_pg.connect(dsn)


def test_an_unusable_server_home_is_a_server_error():
    with pytest.raises(ServerError, match="cannot use /proc/nope as the embedded server's home"):
        EmbeddedServer("/proc/nope").ensure_running()


def test_a_string_where_a_list_belongs_is_refused_not_read_as_its_characters(client, db):
    client.create_bank("b")
    with pytest.raises(InvalidInputError, match=r"item 0: tags must be a list of strings, not str 'ci'") as raised:
        client.retain("b", "Bob fixed the build.", entities=["Bob"], tags="ci")
    assert raised.value.hint == 'Give a list, e.g. tags=["ci"].'
    with pytest.raises(InvalidInputError, match="item 0: entities must be a list of strings, not str 'Bob'"):
        client.retain("b", "Bob fixed the build.", entities="Bob")
    assert db.execute("SELECT count(*) FROM hindsight.memory_units").fetchone() == (0,)  # nothing was written
    client.retain("b", "Bob fixed the build.", entities=["Bob"], tags=["ci"])
    assert db.execute("SELECT canonical_name FROM hindsight.entities").fetchall() == [("Bob",)]
    assert db.execute("SELECT tags FROM hindsight.memory_units").fetchone() == (["ci"],)
    for name, value in (("types", "world"), ("tags", "ci"), ("arms", "semantic")):
        with pytest.raises(InvalidInputError, match=f"{name} must be a list of strings, not str"):
            client.recall("b", "Who fixed the build?", **{name: value})
    response = client.recall("b", "Who fixed the build?", types=["world"], tags=("ci",))
    assert [r.text for r in response.results] == ["Bob fixed the build."]
    with pytest.raises(InvalidInputError, match="entities must be strings"):
        client.retain("b", "Numbers.", entities=[1, 2])


def test_cli_retain_that_fails_creates_no_bank(db, monkeypatch, tmp_path):
    monkeypatch.setenv("HINDSIGHT_PG_DSN", db.info.dsn)
    empty = tmp_path / "empty.txt"
    empty.write_text("  \n")
    result = CliRunner().invoke(cli.app, ["retain", "newbank", str(empty)])
    assert isinstance(result.exception, InvalidInputError)
    assert db.execute("SELECT count(*) FROM hindsight.banks").fetchone()[0] == 0
    listing = tmp_path / "none.json"
    listing.write_text("[]")
    result = CliRunner().invoke(cli.app, ["retain", "newbank", str(listing)])
    assert str(result.exception) == "nothing to retain: no items"
    result = CliRunner().invoke(cli.app, ["retain", "newbank", str(empty), "--timestamp", "last tuesday"])
    assert str(result.exception) == "--timestamp 'last tuesday' is not an ISO 8601 date-time"


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


def test_keyword_ties_do_not_depend_on_unit_ids(db):
    bank(db, "b")  # the native backend, ts_rank_cd
    put(db, "b", [("A much longer note about the kiwi harvest this year.", vec(d1=1)),
                  ("Short kiwi note.", vec(d2=1)), ("Another kiwi note.", vec(d3=1))])  # fmt: skip
    rows = recall(db, "b", "kiwi", None)
    # equal ts_rank_cd: the longer text first, then alphabetical
    assert [r["text"] for r in rows] == ["A much longer note about the kiwi harvest this year.",
                                         "Another kiwi note.", "Short kiwi note."]  # fmt: skip


def test_every_part_of_a_long_chunk_counts_in_its_embedding(embedder):
    filler = "The committee reviewed the routine budget lines one by one. " * 40  # ~2,400 characters
    needle = "The secret launch code is purple elephant."
    base, with_needle = embedder.embed([filler.strip(), filler.strip() + " " + needle])
    assert float(np.dot(base, with_needle)) < 0.995  # the last sentence changes the vector
    assert float(np.linalg.norm(with_needle)) == pytest.approx(1.0, abs=1e-5)
    short = embedder.embed(["hello world"])[0]
    assert float(np.linalg.norm(short)) == pytest.approx(1.0, abs=1e-5)


def test_sql_recall_of_punctuation_returns_nothing(db):
    bank(db, "b")
    put(db, "b", [("A note.", vec(d0=1))])
    assert recall(db, "b", "?!?", None) == []  # nothing to embed, no keyword: nothing recalled
    assert json.loads(json.dumps(recall(db, "b", "note", None, arms=["keyword"])[0]["tags"])) == []


def test_bm25_prefers_the_shorter_unit_for_the_same_term_frequency(db):
    bank(db, "b", keyword_backend="bm25", bm25_b=0.75)
    put(db, "b", [("A much longer note about the kiwi harvest this year.", vec(d1=1)),
                  ("Short kiwi note.", vec(d2=1)), ("Another kiwi note.", vec(d3=1))])  # fmt: skip
    rows = recall(db, "b", "kiwi", None, arms=["keyword"])
    # same tf; BM25 normalises by length: the two 3-lexeme units (an exact tie) before the 6-lexeme one
    assert {r["text"] for r in rows[:2]} == {"Another kiwi note.", "Short kiwi note."}
    assert rows[2]["text"] == "A much longer note about the kiwi harvest this year."
    assert rows[0]["keyword_score"] == rows[1]["keyword_score"] > rows[2]["keyword_score"]


def test_bm25_by_default_prefers_the_longer_unit_for_the_same_term_frequency(db):
    bank(db, "b")  # the default: keyword_backend bm25 with bm25_b = 0, no length normalisation
    put(db, "b", [("Short kiwi note.", vec(d2=1)),
                  ("A much longer note about the kiwi harvest this year.", vec(d1=1))])  # fmt: skip
    rows = recall(db, "b", "kiwi", None, arms=["keyword"])
    assert rows[0]["text"] == "A much longer note about the kiwi harvest this year."
    assert rows[0]["keyword_score"] == rows[1]["keyword_score"] > 0
