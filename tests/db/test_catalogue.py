"""The extension's catalogue: comments, keys, dump registration, and the defaults the database writes
checked against their one source (the model, the dimension, the arms; tests/unit/test_single_sources.py
has the files)."""

import inspect
import re
from pathlib import Path

import psycopg
import pytest

import hindsight_pg
from hindsight_pl import providers

ROOT = Path(__file__).resolve().parents[2]


def test_every_function_in_schema_hindsight_has_a_comment(db):
    missing = db.execute(
        """
        SELECT p.oid::regprocedure::text
        FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
        WHERE n.nspname = 'hindsight' AND obj_description(p.oid, 'pg_proc') IS NULL
        ORDER BY 1
        """
    ).fetchall()
    assert missing == []
    count = db.execute(
        "SELECT count(*) FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace"
        " WHERE n.nspname = 'hindsight' AND p.proname NOT LIKE '\\_%'"
    ).fetchone()[0]
    assert count >= 8  # create_bank, delete_bank, bank_config, configure_bank, retain, recall, recall_json, ...


def test_every_key_of_a_bank_table_includes_bank_id(db):
    keys = db.execute(
        """
        SELECT c.conrelid::regclass::text, c.conname
        FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace
        WHERE n.nspname = 'hindsight' AND c.contype IN ('p', 'u', 'f')
          AND c.conrelid <> 'hindsight.settings'::regclass  -- database-wide, no bank
          AND NOT EXISTS (SELECT FROM unnest(c.conkey) k
                          JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k
                          WHERE a.attname = 'bank_id')
        """
    ).fetchall()
    assert keys == []


def test_memory_tables_are_dumped_by_pg_dump(db):
    dumped = {
        r[0]
        for r in db.execute(
            "SELECT unnest(extconfig)::regclass::text FROM pg_extension WHERE extname = 'hindsight_pg'"
        ).fetchall()
    }
    assert dumped == {
        "hindsight.banks",
        "hindsight.documents",
        "hindsight.chunks",
        "hindsight.memory_units",
        "hindsight.entities",
        "hindsight.unit_entities",
        "hindsight.memory_links",
        "hindsight.bank_members",
        "hindsight.settings",
        "hindsight.observation_sources",
        "hindsight.mental_models",
    }


def test_temporal_pool_uses_the_time_index(db):
    db.execute("SELECT hindsight.create_bank('b')")
    db.execute(
        """INSERT INTO hindsight.memory_units (bank_id, text, embedding, token_count, search_vector, mentioned_at)
           SELECT 'b', 'n', array_fill(0.1, ARRAY[384])::vector, 1, to_tsvector('n'),
                  '2020-01-01'::timestamptz + g * interval '1 hour' FROM generate_series(1, 5000) g"""
    )
    db.execute("ANALYZE hindsight.memory_units")
    plan = "\n".join(
        r[0]
        for r in db.execute(
            "EXPLAIN SELECT id FROM hindsight.memory_units u WHERE u.bank_id = 'b' AND"
            " hindsight._time_span(u.occurred_start, u.occurred_end, u.mentioned_at)"
            " && '[2020-02-01, 2020-02-02]'::tstzrange"
        ).fetchall()
    )
    assert "memory_units_time_idx" in plan
    spans = db.execute(
        "SELECT hindsight._time_span('2024-01-01', '2024-01-31', '2024-03-01')::text,"
        " hindsight._time_span(NULL, '2024-01-31', NULL)::text, hindsight._time_span(NULL, NULL, NULL)::text"
    ).fetchone()
    assert spans == (
        '{["2024-01-01 00:00:00+00","2024-01-31 00:00:00+00"],["2024-03-01 00:00:00+00","2024-03-01 00:00:00+00"]}',
        '{["2024-01-31 00:00:00+00","2024-01-31 00:00:00+00"]}',
        "{}",
    )


def test_one_hnsw_index_serves_every_bank(db):
    rows = db.execute(
        "SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = 'hindsight' AND indexdef ILIKE '%hnsw%'"
    ).fetchall()
    assert rows == [("memory_units_embedding_idx", "CREATE INDEX memory_units_embedding_idx ON hindsight.memory_units"
                     " USING hnsw (embedding vector_cosine_ops)")]  # fmt: skip


def test_comments_quote_the_defaults_the_bank_configuration_has(db):
    """A comment that quotes a configuration key's value, ``key (value)`` or ``key (value; MiniLM value)``, quotes
    hindsight._default_config()'s (multilingual-e5-small's) and hindsight._model_defaults('all-MiniLM-L6-v2')'s:
    the comments are checked against the one source of the defaults."""
    defaults = db.execute("SELECT hindsight._default_config()").fetchone()[0]
    minilm = {**defaults, **db.execute("SELECT hindsight._model_defaults('all-MiniLM-L6-v2')").fetchone()[0]}
    comments = db.execute(
        """
        SELECT d.description FROM pg_description d
        JOIN pg_proc p ON p.oid = d.objoid AND d.classoid = 'pg_proc'::regclass
        JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = 'hindsight'
        """
    ).fetchall()
    number = r"(-?\d+(?:\.\d+)?)"
    quoted = re.compile(rf"\b([a-z][a-z0-9_]+) \((?:default )?{number}(?:; (?:all-)?MiniLM(?:-L6-v2)? {number})?\)")
    checked, wrong = 0, []
    for (text,) in comments:
        for key, value, minilm_value in quoted.findall(text):
            if key not in defaults:
                continue
            checked += 1
            if float(value) != float(defaults[key]):
                wrong.append((key, value, defaults[key]))
            if minilm_value and float(minilm_value) != float(minilm[key]):
                wrong.append((key + " (MiniLM)", minilm_value, minilm[key]))
    assert wrong == []
    assert checked >= 10  # the arms' and consolidation's thresholds, graph and temporal settings


def test_the_databases_model_and_dimension_are_the_providers(db):
    # the default model, written in the default config, the default provider and the provider's model name
    defaults = db.execute(
        "SELECT hindsight._default_config()->>'embedding_model',"
        " hindsight.provider_config(NULL, 'embedding')->>'model',"
        ' hindsight.embedding_model_name(\'{"kind": "local"}\')'
    ).fetchone()
    assert defaults == (providers.E5, providers.E5, providers.E5)
    # every vector column of the extension holds the providers' dimension
    columns = db.execute(
        "SELECT c.relname || '.' || a.attname, format_type(a.atttypid, a.atttypmod) FROM pg_attribute a"
        " JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace"
        " WHERE n.nspname = 'hindsight' AND c.relkind = 'r' AND NOT a.attisdropped AND a.atttypid = 'vector'::regtype"
        " ORDER BY 1"
    ).fetchall()
    assert {name for name, _ in columns} >= {"memory_units.embedding", "mental_models.embedding"}
    assert {kind for _, kind in columns} == {f"vector({providers.DIMENSIONS})"}


def arms_in(text: str) -> set[str]:
    return {arm.strip() for arm in text.split(",")}


def test_every_list_of_the_arms_is_the_default_configs(db, client):
    # the source: the arms the default configuration weighs
    arms = {k for (k,) in db.execute("SELECT jsonb_object_keys(hindsight._default_config()->'arm_weights')")}
    assert len(arms) == 4
    client.create_bank("b")
    with pytest.raises(psycopg.errors.InvalidParameterValue) as recall:
        db.execute("SELECT * FROM hindsight.recall('b', 'q', arms => ARRAY['nope'])")
    assert arms_in(re.fullmatch(r"Arms: (.+)\.", recall.value.diag.message_hint).group(1)) == arms
    with pytest.raises(psycopg.errors.InvalidParameterValue) as boosts:
        db.execute("""SELECT hindsight.configure_bank('b', '{"strategy_boosts": {"nope": "high"}}')""")
    assert arms_in(re.fullmatch(r"Arms: (.+); tiers: .+", boosts.value.diag.message_hint).group(1)) == arms
    reference = (ROOT / "docs/reference.md").read_text()
    assert arms_in(re.search(r"`arms` ⊆ ([\w, ]+) \(default all\)", reference).group(1)) == arms
    described = " ".join(inspect.getdoc(hindsight_pg.Client.recall).split())
    assert arms_in(re.search(r"picks a subset of ([\w, ]+);", described).group(1)) == arms
