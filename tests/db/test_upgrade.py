"""Upgrades: the last released version plus ALTER EXTENSION UPDATE equals a fresh install of this one."""

from __future__ import annotations

from pathlib import Path

import psycopg
import pytest

import hindsight_pl

ROOT = Path(__file__).resolve().parents[2]
RELEASED = sorted(p.name.removeprefix("hindsight_pg--").removesuffix(".sql")
                  for p in (ROOT / "sql" / "releases").glob("hindsight_pg--*.sql"))  # fmt: skip

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


def catalog(conn: psycopg.Connection) -> dict[str, list[tuple]]:
    return {name: sorted(conn.execute(query).fetchall(), key=repr) for name, query in CATALOG.items()}


@pytest.mark.parametrize("previous", RELEASED)
def test_upgrade_equals_a_fresh_install(db, previous):
    assert previous != hindsight_pl.__version__
    info = db.info
    names = {"upgraded": f"{info.dbname}_upgraded", "fresh": f"{info.dbname}_fresh"}
    for name in names.values():
        db.execute(f'CREATE DATABASE "{name}"')
    try:
        connect = {"host": info.host, "port": info.port, "user": info.user, "autocommit": True}
        with psycopg.connect(dbname=names["upgraded"], **connect) as upgraded:
            upgraded.execute(f"CREATE EXTENSION hindsight_pg VERSION '{previous}' CASCADE")
            upgraded.execute("ALTER EXTENSION hindsight_pg UPDATE")
            after_upgrade = catalog(upgraded)
        with psycopg.connect(dbname=names["fresh"], **connect) as fresh:
            fresh.execute("CREATE EXTENSION hindsight_pg CASCADE")
            fresh_install = catalog(fresh)
    finally:
        for name in names.values():
            db.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    assert after_upgrade["config"][0][0] == hindsight_pl.__version__
    for part in CATALOG:
        assert after_upgrade[part] == fresh_install[part], part
    assert len(fresh_install["functions"]) > 50 and len(fresh_install["policies"]) > 20


def test_there_is_a_released_version_to_upgrade_from():
    assert RELEASED == ["0.1.0"]
    assert (ROOT / "sql" / "upgrades" / f"0.1.0--{hindsight_pl.__version__}.sql").exists()
