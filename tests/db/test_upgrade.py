"""Upgrades: every released version, empty or holding a LoCoMo conversation, plus
ALTER EXTENSION UPDATE equals a fresh install of this version; the embedded server does the
same update by itself."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path
from typing import Any

import psycopg
import pytest
from _helpers import locomo_file
from psycopg import sql

import hindsight_pl
from hindsight_pg import EmbeddedServer
from hindsight_pg._inputs import load_locomo
from hindsight_pl.providers import MINILM, LocalEmbedder
from hindsight_pl.retain.names import find_names

ROOT = Path(__file__).resolve().parents[2]


def _version(text: str) -> tuple[int, ...]:
    return tuple(int(part) for part in text.split("."))


# the released versions: releases/<v>/
RELEASED = sorted((p.name for p in (ROOT / "releases").iterdir() if p.is_dir()), key=_version)

CATALOG = {
    "functions": """
        SELECT p.oid::regprocedure::text, pg_get_function_result(p.oid), pg_get_functiondef(p.oid),
               obj_description(p.oid, 'pg_proc'), p.proacl::text
        FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = 'hindsight'""",
    "columns": """
        SELECT table_name, column_name, ordinal_position, data_type, udt_name, column_default, is_nullable
        FROM information_schema.columns WHERE table_schema = 'hindsight'""",
    "relations": """
        SELECT c.relname, c.relkind, c.relrowsecurity, c.relforcerowsecurity, c.relacl::text,
               obj_description(c.oid, 'pg_class')
        FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'hindsight'""",
    "indexes": "SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = 'hindsight'",
    "constraints": """
        SELECT c.conrelid::regclass::text, c.conname, pg_get_constraintdef(c.oid)
        FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace WHERE n.nspname = 'hindsight'""",
    "policies": "SELECT tablename, policyname, cmd, roles::text, qual, with_check FROM pg_policies"
    " WHERE schemaname = 'hindsight'",
    "triggers": """
        SELECT t.tgrelid::regclass::text, t.tgname, pg_get_triggerdef(t.oid) FROM pg_trigger t
        JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = 'hindsight' AND NOT t.tgisinternal""",
    "views": "SELECT viewname, definition FROM pg_views WHERE schemaname = 'hindsight'",
    "types": """
        SELECT t.typname, a.attname, a.attnum, format_type(a.atttypid, a.atttypmod)
        FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace
        LEFT JOIN pg_attribute a ON a.attrelid = t.typrelid AND a.attnum > 0
        WHERE n.nspname = 'hindsight' AND t.typtype = 'c'
          AND t.typrelid NOT IN (SELECT c.oid FROM pg_class c WHERE c.relkind <> 'c')""",
    "members": """
        SELECT pg_describe_object(d.classid, d.objid, 0) FROM pg_depend d
        JOIN pg_extension e ON e.oid = d.refobjid WHERE e.extname = 'hindsight_pg' AND d.deptype = 'e'""",
    "config": """
        SELECT e.extversion, (SELECT array_agg(c::regclass::text ORDER BY c::regclass::text)
                              FROM unnest(e.extconfig) c)::text
        FROM pg_extension e WHERE e.extname = 'hindsight_pg'""",
}


def catalog(conn: psycopg.Connection[Any]) -> dict[str, list[tuple[Any, ...]]]:
    return {name: sorted(conn.execute(query).fetchall(), key=repr) for name, query in CATALOG.items()}


@contextmanager
def databases(db: psycopg.Connection[Any], *roles: str) -> Iterator[dict[str, dict[str, Any]]]:
    """New empty databases on the test server, one per role; yields each one's connection arguments."""
    info = db.info
    names = {role: f"{info.dbname}_{role}" for role in roles}
    for name in names.values():
        db.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    try:
        yield {
            role: {"host": info.host, "port": info.port, "user": info.user, "dbname": name, "autocommit": True}
            for role, name in names.items()
        }
    finally:
        for name in names.values():
            db.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))


@pytest.mark.parametrize("previous", RELEASED)
def test_upgrade_equals_a_fresh_install(db, previous):
    assert previous != hindsight_pl.__version__
    with databases(db, "upgraded", "fresh") as dbs:
        with psycopg.connect(**dbs["upgraded"]) as upgraded:
            upgraded.execute(sql.SQL("CREATE EXTENSION hindsight_pg VERSION {} CASCADE").format(previous))
            upgraded.execute("ALTER EXTENSION hindsight_pg UPDATE")
            after_upgrade = catalog(upgraded)
        with psycopg.connect(**dbs["fresh"]) as fresh:
            fresh.execute("CREATE EXTENSION hindsight_pg CASCADE")
            fresh_install = catalog(fresh)
    assert after_upgrade["config"][0][0] == hindsight_pl.__version__
    for part in CATALOG:
        assert after_upgrade[part] == fresh_install[part], part
    assert len(fresh_install["functions"]) > 50 and len(fresh_install["policies"]) > 20


@pytest.mark.parametrize("previous", RELEASED)
def test_an_update_in_a_session_that_ran_the_old_python(db, previous):
    """The session that runs ALTER EXTENSION UPDATE has the old version's hindsight_pl loaded (its
    GD, sys.modules): its next call loads this version's package, not the old one."""
    with databases(db, "upgraded") as dbs, psycopg.connect(**dbs["upgraded"]) as conn:
        conn.execute(sql.SQL("CREATE EXTENSION hindsight_pg VERSION {} CASCADE").format(previous))
        conn.execute("CREATE FUNCTION pg_temp.loaded() RETURNS text LANGUAGE plpython3u"
                     " AS $$ return GD['hindsight_pl'].__version__ $$")  # fmt: skip
        conn.execute("SELECT hindsight._require_python()")
        assert conn.execute("SELECT pg_temp.loaded()").fetchone() == (previous,)
        conn.execute("ALTER EXTENSION hindsight_pg UPDATE")
        conn.execute("SELECT hindsight._require_python()")
        assert conn.execute("SELECT pg_temp.loaded()").fetchone() == (hindsight_pl.__version__,)


def test_an_update_renames_the_bm25_arm_in_bank_configs(db):
    """0.3.0 calls the arm "bm25" keyword: a 0.2.0 bank's per-arm weights and boosts follow it through the update."""
    old = {"arm_weights": {"bm25": 2.0, "graph": 0.5}, "strategy_boosts": {"bm25": "high"}, "rrf_k": 30}
    with databases(db, "renamed") as dbs, psycopg.connect(**dbs["renamed"]) as conn:
        conn.execute("CREATE EXTENSION hindsight_pg VERSION '0.2.0' CASCADE")
        conn.execute("SELECT hindsight.create_bank('weighted', config => %s::jsonb)", (json.dumps(old),))
        conn.execute("SELECT hindsight.create_bank('plain')")
        conn.execute("ALTER EXTENSION hindsight_pg UPDATE")
        configs = dict(conn.execute("SELECT bank_id, config - 'embedding_model' FROM hindsight.banks").fetchall())
        (weights,) = conn.execute("SELECT hindsight.bank_config('weighted')->'arm_weights'").fetchone()
        conn.execute("SELECT hindsight.configure_bank('weighted', '{\"rrf_k\": 40}')")  # the new check passes it
    renamed = {"arm_weights": {"keyword": 2.0, "graph": 0.5}, "strategy_boosts": {"keyword": "high"}, "rrf_k": 30}
    assert configs == {"weighted": renamed, "plain": {}}
    assert weights == {"semantic": 1.0, "keyword": 2.0, "graph": 0.5, "temporal": 1.0}


def test_every_released_version_upgrades_to_this_one():
    # 0.1.0 -> 0.2.0 -> ... -> this version: frozen upgrade scripts up to the last release, then the open one
    assert RELEASED[:2] == ["0.1.0", "0.2.0"] and _version(RELEASED[-1]) < _version(hindsight_pl.__version__)
    for old, new in pairwise([*RELEASED, hindsight_pl.__version__]):
        frozen = (ROOT / "releases" / new / f"hindsight_pg--{old}--{new}.sql").exists()
        still_open = (ROOT / "sql" / "upgrades" / f"{old}--{new}.sql").exists()
        assert (frozen, still_open) == ((False, True) if new == hindsight_pl.__version__ else (True, False)), old


# -- Upgrades with memories in them ---------------------------------------------------------------

LOCOMO = locomo_file()
TURNS = 150  # the first 150 of conv-26's 419 turns (sessions 1 to 8 of 19), one memory unit per turn
QUESTIONS = 10  # its first 10 questions (categories 1-4) whose evidence lies in those turns
BANK = "conv-26"
# 0.1.0's retain made no temporal or semantic links (and knew no config keys for them), so the
# fresh bank compared with an upgraded 0.1.0 bank retains without them too.
WITHOUT_LINKS = {"0.1.0"}
# retain gives a bank of this many units its HNSW index (0.1.0 and 0.2.0: a partial index per bank)
BANK_CONFIG = {"hnsw_min_units": 100}

needs_locomo = pytest.mark.skipif(not LOCOMO.exists(), reason="LoCoMo data not found (set HINDSIGHT_LOCOMO)")


@dataclass(frozen=True)
class Conversation:
    items: str  # the JSON array hindsight.retain takes, embeddings included
    questions: list[tuple[str, list[float]]]  # (question, its embedding)
    asked_at: str  # query_timestamp of every recall: the last retained session's time, so recency is fixed


@pytest.fixture(scope="module")
def conversation() -> Conversation:
    """The retained prefix of conv-26 as hindsight.retain items in the shape every released version
    takes (one chunk and one unit per turn; the speaker and the names the turn mentions as entities;
    embedded here with all-MiniLM-L6-v2, the model of every released version), and the questions with
    their embeddings."""
    embedder = LocalEmbedder(MINILM)
    (conv,) = [c for c in load_locomo(LOCOMO) if c.sample_id == BANK]
    turns = conv.items[:TURNS]
    vectors = embedder.embed([t.content for t in turns])
    items = [
        {
            "document_id": t.document_id,
            "content": t.content,
            "timestamp": t.timestamp.isoformat(),
            "tags": [f"session-{t.metadata['session']}"],
            "metadata": t.metadata,
            "chunks": [t.content],
            "units": [{
                "text": t.content,
                "embedding": [float(x) for x in v],
                "chunk_index": 0,
                # the speaker and the names the turn mentions, so units share entities
                "entities": list(dict.fromkeys([*t.entities, *find_names(t.content, known=t.entities)])),
            }],
        }
        for t, v in zip(turns, vectors, strict=True)
    ]  # fmt: skip
    retained = {t.metadata["dia_id"] for t in turns}
    asked = [
        q["question"] for q in conv.questions
        if q.get("category") in (1, 2, 3, 4) and q.get("evidence") and set(q["evidence"]) <= retained
    ][:QUESTIONS]  # fmt: skip
    assert len(asked) == QUESTIONS
    embedded = embedder.embed(asked, kind="query")
    return Conversation(
        items=json.dumps(items),
        questions=[(q, [float(x) for x in v]) for q, v in zip(asked, embedded, strict=True)],
        asked_at=max(t.timestamp for t in turns).isoformat(),
    )


def retain(conn: psycopg.Connection[Any], conversation: Conversation, links: bool = True, fresh: bool = False) -> None:
    """The bank and its memories, through the installed version's own create_bank and retain;
    without links, as 0.1.0 retained, when ``links`` is false (the bank's config then ends as BANK_CONFIG).
    A fresh install of this version names the model of the vectors (the update records it for a
    released version's bank)."""
    final = BANK_CONFIG | ({"embedding_model": MINILM} if fresh else {})
    config = final | ({} if links else {"temporal_link_neighbours": 0, "semantic_link_top_k": 0})
    # knowledge updates (0.3.0) are found at retain; memories retained before have none until
    # hindsight.link_updates(bank) finds them (test_link_updates_finds_what_retain_would_have_found)
    config |= {"update_candidates": 0} if fresh else {}
    conn.execute("SELECT hindsight.create_bank(%s, config => %s::jsonb)", (BANK, json.dumps(config)))
    (units,) = conn.execute(
        "SELECT count(*) FROM hindsight.retain(%s, %s::jsonb)", (BANK, conversation.items)
    ).fetchone()
    assert units == TURNS
    conn.execute("UPDATE hindsight.banks SET config = %s::jsonb WHERE bank_id = %s", (json.dumps(final), BANK))


def tables(conn: psycopg.Connection[Any]) -> dict[str, list[tuple[str, str, str | None]]]:
    """Every table of schema hindsight: its columns as (name, type, default)."""
    rows = conn.execute("""
        SELECT c.relname, a.attname, format_type(a.atttypid, a.atttypmod), pg_get_expr(d.adbin, d.adrelid)
        FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
        LEFT JOIN pg_attrdef d ON d.adrelid = c.oid AND d.adnum = a.attnum
        WHERE n.nspname = 'hindsight' AND c.relkind IN ('r', 'p') ORDER BY c.relname, a.attnum""").fetchall()
    found: dict[str, list[tuple[str, str, str | None]]] = {}
    for table, column, type_, default in rows:
        found.setdefault(table, []).append((column, type_, default))
    return found


def digest(conn: psycopg.Connection[Any], table: str, columns: list[str]) -> tuple[int, str]:
    """(rows, md5 of the rows' text in order) of these columns of a table (as superuser: no row security)."""
    query = sql.SQL(
        "SELECT count(*), md5(coalesce(string_agg(r::text, E'\\n' ORDER BY r::text), '')) FROM (SELECT {} FROM {}) r"
    ).format(sql.SQL(", ").join(map(sql.Identifier, columns)) if columns else sql.SQL("1"),
             sql.Identifier("hindsight", table))  # fmt: skip
    count, md5 = conn.execute(query).fetchone()
    return count, md5


def rows(conn: psycopg.Connection[Any], columns: dict[str, list[str]] | None = None) -> dict[str, tuple[int, str]]:
    """Every table's row count and digest: of all its columns, or of the given ones."""
    columns = columns or {table: [c for c, _, _ in cols] for table, cols in tables(conn).items()}
    return {table: digest(conn, table, cols) for table, cols in columns.items()}


def kept_columns(conn: psycopg.Connection[Any]) -> dict[str, list[str]]:
    """Every column an update keeps as it was: all but a bank's config, to which 0.3.0 adds the model of
    its vectors (checked apart: ``compare_with_fresh``)."""
    return {table: [c for c, _, _ in cols if (table, c) != ("banks", "config")] for table, cols in tables(conn).items()}


def stable_rows(conn: psycopg.Connection[Any]) -> dict[str, tuple[int, str]]:
    """Every table's row count and the digest of the columns two databases retaining the same items
    agree on: all but ids (uuid) and the moment a row was written (now() defaults)."""
    return rows(conn, {
        table: [c for c, type_, default in cols if "uuid" not in type_ and "now()" not in (default or "")]
        for table, cols in tables(conn).items()
    })  # fmt: skip


def top10(conn: psycopg.Connection[Any], conversation: Conversation) -> list[list[tuple[str, str, float]]]:
    """For each question, the top 10 of hindsight.recall as (document id, text, score to 9 places)."""
    return [
        [(r[0], r[1], round(r[2], 9)) for r in conn.execute(
            "SELECT document_id, text, score FROM hindsight.recall(%s, %s, %s::vector, max_tokens => 100000,"
            " query_timestamp => %s::timestamptz) WHERE rank <= 10 ORDER BY rank",
            (BANK, question, str(embedding), conversation.asked_at)).fetchall()]
        for question, embedding in conversation.questions
    ]  # fmt: skip


Snapshot = tuple[dict[str, tuple[int, str]], dict[str, list[tuple[Any, ...]]], list[list[tuple[str, str, float]]]]


@pytest.fixture(scope="module")
def fresh_installs() -> dict[bool, Snapshot]:
    """Fresh installs of this version holding the conversation, by whether the bank has links: the
    stable rows, the catalog and the recall top 10s, each made once."""
    return {}


def fresh_install(db: psycopg.Connection[Any], conversation: Conversation, links: bool,
                  made: dict[bool, Snapshot]) -> Snapshot:  # fmt: skip
    if links not in made:
        with databases(db, "fresh") as dbs, psycopg.connect(**dbs["fresh"]) as fresh:
            fresh.execute("CREATE EXTENSION hindsight_pg CASCADE")
            retain(fresh, conversation, links=links, fresh=True)
            made[links] = stable_rows(fresh), catalog(fresh), top10(fresh, conversation)
    return made[links]


def compare_with_fresh(
    fresh: Snapshot, conversation: Conversation, upgraded: psycopg.Connection[Any],
    before: dict[str, tuple[int, str]], columns_before: dict[str, list[str]],
) -> None:  # fmt: skip
    """The checks of an updated database: every row kept as it was, and the database equal to a
    fresh install of this version retaining the same items, in rows, catalog and recall."""
    (version,) = upgraded.execute("SELECT extversion FROM pg_extension WHERE extname = 'hindsight_pg'").fetchone()
    assert version == hindsight_pl.__version__
    kept = rows(upgraded, columns_before)
    # a released version's vectors are all-MiniLM-L6-v2's: the update records it, and only it
    (config,) = upgraded.execute("SELECT config FROM hindsight.banks WHERE bank_id = %s", (BANK,)).fetchone()
    assert config == BANK_CONFIG | {"embedding_model": MINILM}
    assert kept == before, [t for t in before if kept.get(t) != before[t]]
    assert before["memory_units"][0] == before["documents"][0] == before["chunks"][0] == TURNS
    fresh_rows, fresh_catalog, fresh_top10 = fresh
    # new tables and columns are filled in as a fresh install fills them
    upgraded_rows = stable_rows(upgraded)
    assert upgraded_rows == fresh_rows, [t for t in fresh_rows if upgraded_rows.get(t) != fresh_rows[t]]
    upgraded_catalog = catalog(upgraded)
    for part in CATALOG:  # the bank's HNSW index included
        assert upgraded_catalog[part] == fresh_catalog[part], part
    assert top10(upgraded, conversation) == fresh_top10
    assert all(len(hits) == 10 for hits in fresh_top10)


@needs_locomo
@pytest.mark.locomo
@pytest.mark.slow
@pytest.mark.parametrize("previous", RELEASED)
def test_upgrade_keeps_memories_and_recalls_as_a_fresh_install(db, conversation, fresh_installs, previous):
    fresh = fresh_install(db, conversation, previous not in WITHOUT_LINKS, fresh_installs)
    with databases(db, "upgraded") as dbs, psycopg.connect(**dbs["upgraded"]) as conn:
        conn.execute(sql.SQL("CREATE EXTENSION hindsight_pg VERSION {} CASCADE").format(previous))
        retain(conn, conversation)
        columns_before = kept_columns(conn)
        before = rows(conn, columns_before)
        # updated and compared in the session that retained with the old version's Python
        conn.execute("ALTER EXTENSION hindsight_pg UPDATE")
        compare_with_fresh(fresh, conversation, conn, before, columns_before)


@needs_locomo
@pytest.mark.locomo
@pytest.mark.slow
@pytest.mark.parametrize("previous", RELEASED)
def test_embedded_server_updates_a_database_with_memories(db, conversation, fresh_installs, previous, tmp_path):
    """The embedded server's database at a released version, holding the conversation, is updated
    when the server is next started (make install brought this version)."""
    fresh = fresh_install(db, conversation, previous not in WITHOUT_LINKS, fresh_installs)
    server = EmbeddedServer(tmp_path / "home")
    try:
        with psycopg.connect(server.ensure_running(), autocommit=True) as old:
            # the server made its database at this version: take it back to the released one
            old.execute("DROP EXTENSION hindsight_pg")
            old.execute(sql.SQL("CREATE EXTENSION hindsight_pg VERSION {} CASCADE").format(previous))
            retain(old, conversation)
            columns_before = kept_columns(old)
            before = rows(old, columns_before)
        server.stop()
        with psycopg.connect(EmbeddedServer(tmp_path / "home").ensure_running(), autocommit=True) as upgraded:
            compare_with_fresh(fresh, conversation, upgraded, before, columns_before)  # a new session
    finally:
        server.stop()
