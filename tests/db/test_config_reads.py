"""A bank's config is read once a recall and once a retain, through either runtime: the caller keeps the config it
chose its models with and says so (``config_seen``); the function that reads the config compares, and a kept config
that went stale fails with HS412 before anything is done, after which the caller reads it again."""

from __future__ import annotations

import json

import psycopg
import pytest
from _helpers import bank, vec

from hindsight_pg import HindsightError

READS = (
    "SELECT coalesce(sum(s.calls), 0)::int FROM pg_stat_xact_user_functions s JOIN pg_proc p ON p.oid = s.funcid"
    " WHERE s.schemaname = 'hindsight' AND p.proname = 'bank_config'"
)


def config_reads(db, call) -> int:
    """How many times ``call()`` read a bank's config (hindsight.bank_config), in one transaction of its own."""
    with db.transaction():
        db.execute("SET LOCAL track_functions = 'all'")
        before = db.execute(READS).fetchone()[0]  # counts of this session not yet reported show here too
        call()
        return db.execute(READS).fetchone()[0] - before


def item(text: str) -> str:
    return json.dumps([{"units": [{"text": text, "embedding": vec(d0=1)}]}])


def test_the_database_refuses_a_stale_config_and_stores_nothing(db):
    bank(db, "s")
    seen = db.execute("SELECT hindsight.bank_config('s')").fetchone()[0]
    db.execute(
        "SELECT * FROM hindsight.retain('s', %s::jsonb, config_seen => %s)", (item("Ana rides."), json.dumps(seen))
    )
    db.execute("""SELECT hindsight.configure_bank('s', '{"dedupe_similarity": 0.9}')""")
    with pytest.raises(psycopg.Error, match='the config of bank "s" changed since the caller read it') as raised:
        db.execute("SELECT * FROM hindsight.retain('s', %s::jsonb, config_seen => %s)",
                   (item("Bo swims."), json.dumps(seen)))  # fmt: skip
    assert raised.value.sqlstate == "HS412" and "read hindsight.bank_config again" in raised.value.diag.message_hint
    assert db.execute("SELECT array_agg(text) FROM hindsight.memory_units WHERE bank_id = 's'").fetchone()[0] == [
        "Ana rides."
    ]
    with pytest.raises(psycopg.Error, match="changed since the caller read it"):
        db.execute("SELECT hindsight.recall_json('s', 'Ana', %s::vector, config_seen => %s)",
                   (str(vec(d0=1)), json.dumps(seen)))  # fmt: skip
    now = db.execute("SELECT hindsight.bank_config('s')").fetchone()[0]
    document = db.execute("SELECT hindsight.recall_json('s', 'Ana', %s::vector, config_seen => %s)",
                          (str(vec(d0=1)), json.dumps(now))).fetchone()[0]  # fmt: skip
    assert [r["text"] for r in document["results"]] == ["Ana rides."]


def test_the_driver_reads_the_config_once_a_call_and_again_when_it_changed(client, db):
    client.create_bank("d")
    client.retain("d", "Ana rides to work on Mondays.")  # the first call reads it to choose the models, and keeps it
    assert config_reads(db, lambda: client.retain("d", "Bo swims on Tuesdays.")) == 1
    assert config_reads(db, lambda: client.recall("d", "When does Bo swim?")) == 1
    db.execute("""SELECT hindsight.configure_bank('d', '{"dedupe_similarity": 0.9}')""")  # not through this client
    found = client.recall("d", "When does Bo swim?")  # HS412, then read again and run again
    assert found.results[0].text.startswith("Bo swims")
    assert client._config("d")["dedupe_similarity"] == 0.9
    db.execute("""SELECT hindsight.configure_bank('d', '{"dedupe_similarity": 0.95}')""")
    client.retain("d", "Cy runs on Fridays.")
    assert client._config("d")["dedupe_similarity"] == 0.95
    db.execute("""SELECT hindsight.configure_bank('d', '{"dedupe_similarity": 0.85}')""")
    # a transaction of the caller's own is aborted: the caller runs it again
    with db.transaction(), pytest.raises(HindsightError, match="changed since the caller read it") as raised:
        client.recall("d", "When does Bo swim?")
    assert raised.value.sqlstate == "HS412"
    assert client.recall("d", "When does Cy run?").results[0].text.startswith("Cy runs")


def test_retain_text_reads_the_config_once_a_call_and_again_when_it_changed(db):
    db.execute("SELECT hindsight.create_bank('t')")
    db.execute("SELECT count(*) FROM hindsight.retain_text('t', 'Ana rides to work on Mondays.')")
    assert config_reads(db, lambda: db.execute("SELECT count(*) FROM hindsight.retain_text('t', 'Bo swims.')")) == 1
    db.execute("""SELECT hindsight.configure_bank('t', '{"dedupe_similarity": 0.9}')""")
    db.execute("SELECT count(*) FROM hindsight.retain_text('t', 'Cy runs on Fridays.')")  # read again, once
    texts = db.execute("SELECT array_agg(text ORDER BY text) FROM hindsight.memory_units WHERE bank_id = 't'")
    assert texts.fetchone()[0] == ["Ana rides to work on Mondays.", "Bo swims.", "Cy runs on Fridays."]
    assert config_reads(db, lambda: db.execute("SELECT count(*) FROM hindsight.retain_text('t', 'Di rows.')")) == 1
