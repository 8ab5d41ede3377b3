"""Bank isolation with row-level security, tested with real roles."""

from __future__ import annotations

import json
import uuid

import psycopg
import pytest
from _helpers import put, recall, vec
from psycopg import sql

import hindsight_pl

EVIL = "x'); DROP TABLE hindsight.banks; --"


@pytest.fixture
def roles(db):
    """Three fresh roles (no login; the test switches with SET ROLE): alice, bob, and a group carol belongs to."""
    suffix = uuid.uuid4().hex[:8]
    names = {k: f"{k}_{suffix}" for k in ("alice", "bob", "carol", "team")}
    for name in names.values():
        db.execute(sql.SQL("CREATE ROLE {}").format(sql.Identifier(name)))
    db.execute(sql.SQL("GRANT {} TO {}").format(sql.Identifier(names["team"]), sql.Identifier(names["carol"])))
    yield names
    db.execute("RESET ROLE")
    for name in names.values():
        db.execute(sql.SQL("DROP OWNED BY {}").format(sql.Identifier(name)))
        db.execute(sql.SQL("DROP ROLE {}").format(sql.Identifier(name)))


def as_role(db, role):
    db.execute(sql.SQL("SET ROLE {}").format(sql.Identifier(role)))


def count(db, table, bank_id=None):
    query = sql.SQL("SELECT count(*) FROM hindsight.{}").format(sql.Identifier(table))
    if bank_id is not None:
        query += sql.SQL(" WHERE bank_id = {}").format(sql.Literal(bank_id))
    return db.execute(query).fetchone()[0]


def test_a_role_reaches_only_its_banks(db, roles):
    as_role(db, roles["alice"])
    db.execute("SELECT hindsight.create_bank('bank-a')")
    put(db, "bank-a", [("Alice's secret plan is Project Atlas.", vec(d0=1))], entities=None)
    db.execute(
        "INSERT INTO hindsight.entities (bank_id, canonical_name) VALUES ('bank-a', 'Atlas')"
    )  # a write of her own is allowed
    assert [r["text"] for r in recall(db, "bank-a", "secret plan", vec(d0=1))] == [
        "Alice's secret plan is Project Atlas."
    ]

    as_role(db, roles["bob"])
    db.execute("SELECT hindsight.create_bank('bank-b')")
    put(db, "bank-b", [("Bob likes tea.", vec(d1=1))])
    # through every public function: an unknown bank, never data
    for call in [
        "SELECT * FROM hindsight.recall('bank-a', 'secret plan')",
        "SELECT hindsight.recall_json('bank-a', 'secret plan')",
        "SELECT hindsight.recall_candidates('bank-a', 'secret plan')",
        "SELECT hindsight.bank_config('bank-a')",
        "SELECT hindsight._semantic_path('bank-a')",
        "SELECT hindsight.grant_bank('bank-a', current_user, 'admin')",
        'SELECT * FROM hindsight.retain(\'bank-a\', \'[{"units": [{"text": "x", "embedding": [1]}]}]\')',
    ]:
        with pytest.raises(psycopg.Error) as info:
            db.execute(call)
        assert info.value.sqlstate == "HS404", call
    assert db.execute("SELECT hindsight.delete_bank('bank-a')").fetchone()[0] is False
    # through plain SELECTs: zero rows of bank-a, bank-b's own rows
    for table in [
        "banks",
        "documents",
        "chunks",
        "memory_units",
        "entities",
        "unit_entities",
        "memory_links",
        "_bank_counts",
        "_bm25_terms",
        "_bm25_postings",
        "_entity_cooccurrences",
        "bank_members",
    ]:
        assert count(db, table, "bank-a") == 0, table
    assert count(db, "memory_units") == 1 and count(db, "banks") == 1
    # the keyword arm's C scorer reads the postings index directly, and honours the policy as a SELECT does
    scores = "SELECT count(*) FROM hindsight._bm25_scores(%s, '{secret,plan}', '{1,1}', '{1.2,1.2}', '{0,0}', NULL)"
    assert db.execute(scores, ("bank-a",)).fetchone()[0] == 0
    for view in ["bank_stats", "entity_graph", "memory_timeline"]:  # the views run as the caller too
        assert count(db, view, "bank-a") == 0, view
    assert count(db, "bank_stats") == 1
    # and writes into bank-a are refused even when aimed directly at the tables
    with pytest.raises(psycopg.errors.InsufficientPrivilege):
        db.execute("INSERT INTO hindsight.bank_members (bank_id, role_name, privilege)"
                   " VALUES ('bank-a', current_user, 'admin')")  # fmt: skip
    assert db.execute("DELETE FROM hindsight.memory_units WHERE bank_id = 'bank-a'").rowcount == 0

    db.execute("RESET ROLE")
    assert count(db, "memory_units", "bank-a") == 1  # a superuser sees everything, and nothing was lost
    assert db.execute(scores, ("bank-a",)).fetchone()[0] == 1


def test_grant_and_revoke_take_effect_on_the_next_statement(db, roles):
    as_role(db, roles["alice"])
    db.execute("SELECT hindsight.create_bank('bank-a')")
    put(db, "bank-a", [("The launch moved to May.", vec(d0=1))])
    with pytest.raises(psycopg.errors.InvalidParameterValue, match='unknown privilege "owner"'):
        db.execute("SELECT hindsight.grant_bank('bank-a', %s, 'owner')", (roles["bob"],))
    db.execute("SELECT hindsight.grant_bank('bank-a', %s, 'read')", (roles["bob"],))

    as_role(db, roles["bob"])
    assert [r["text"] for r in recall(db, "bank-a", "launch", vec(d0=1))] == ["The launch moved to May."]
    with pytest.raises(psycopg.errors.InsufficientPrivilege):  # read only: no retain
        put(db, "bank-a", [("Bob was here.", vec(d1=1))])
    with pytest.raises(psycopg.errors.InsufficientPrivilege, match="only an admin of bank"):
        db.execute("SELECT hindsight.grant_bank('bank-a', %s, 'admin')", (roles["bob"],))

    as_role(db, roles["alice"])
    db.execute("SELECT hindsight.grant_bank('bank-a', %s, 'write')", (roles["bob"],))
    as_role(db, roles["bob"])
    put(db, "bank-a", [("Bob added a note.", vec(d1=1))])
    assert count(db, "memory_units", "bank-a") == 2

    as_role(db, roles["alice"])
    assert db.execute("SELECT hindsight.revoke_bank('bank-a', %s)", (roles["bob"],)).fetchone()[0] is True
    as_role(db, roles["bob"])
    assert count(db, "memory_units", "bank-a") == 0
    with pytest.raises(psycopg.Error) as info:
        recall(db, "bank-a", "launch", vec(d0=1))
    assert info.value.sqlstate == "HS404"


def test_grants_to_a_group_role_reach_its_members(db, roles):
    as_role(db, roles["alice"])
    db.execute("SELECT hindsight.create_bank('shared')")
    put(db, "shared", [("The team offsite is in July.", vec(d0=1))])
    db.execute("SELECT hindsight.grant_bank('shared', %s, 'read')", (roles["team"],))
    as_role(db, roles["carol"])  # a member of team
    assert [r["text"] for r in recall(db, "shared", "offsite", vec(d0=1))] == ["The team offsite is in July."]
    as_role(db, roles["bob"])  # not a member
    assert count(db, "memory_units", "shared") == 0


def test_sql_looking_ids_tags_and_keys_are_data(db, roles):
    as_role(db, roles["alice"])
    db.execute("SELECT hindsight.create_bank(%s)", (EVIL,))
    put(db, EVIL, [("Plain text.", vec(d0=1))], tags=[EVIL])
    rows = recall(db, EVIL, EVIL, vec(d0=1), tags=[EVIL], tags_match="all_strict")
    assert [r["tags"] for r in rows] == [[EVIL]]
    with pytest.raises(psycopg.errors.InvalidParameterValue, match="unknown bank config key"):
        db.execute("SELECT hindsight.create_bank('b2', config => jsonb_build_object(%s::text, 1))", (EVIL,))
    assert db.execute("SELECT hindsight._semantic_path(%s)", (EVIL,)).fetchone()[0] == "exact"
    assert db.execute("SELECT hindsight.delete_bank(%s)", (EVIL,)).fetchone()[0] is True
    db.execute("RESET ROLE")
    assert db.execute("SELECT to_regclass('hindsight.banks')").fetchone()[0] == "hindsight.banks"


def test_ordinary_roles_cannot_redirect_the_python_import(db, roles, tmp_path):
    as_role(db, roles["bob"])
    db.execute("SELECT set_config('hindsight.python_path', %s, false)", (str(tmp_path),))
    (path,) = db.execute("SELECT hindsight._python_path()").fetchone()
    assert path != str(tmp_path) and path.endswith("/" + hindsight_pl.__version__)


def test_scale_out_entry_points_say_what_is_missing(db):
    with pytest.raises(psycopg.errors.FeatureNotSupported, match="citus extension is not installed") as info:
        db.execute("SELECT hindsight.distribute()")
    assert "docs/scale-out.md" in info.value.diag.message_hint
    with pytest.raises(psycopg.errors.FeatureNotSupported, match="pg_search extension is not installed"):
        db.execute("SELECT hindsight.enable_pg_search()")
    with pytest.raises(psycopg.errors.FeatureNotSupported, match="needs the pg_search extension"):
        db.execute("SELECT hindsight.create_bank('p', config => '{\"keyword_backend\": \"pg_search\"}')")


def test_configure_bank_changes_merges_resets_and_is_for_admins(db, roles):
    as_role(db, roles["alice"])
    db.execute("""SELECT hindsight.create_bank('cfg', config => '{"observation_similarity": 0.9}')""")
    config = db.execute(
        """SELECT hindsight.configure_bank('cfg', '{"llm_base_url": "http://127.0.0.1:11434/v1", "llm_model": "m"}')"""
    ).fetchone()[0]
    assert (config["llm_base_url"], config["llm_model"], config["observation_similarity"]) == (
        "http://127.0.0.1:11434/v1", "m", 0.9)  # fmt: skip  # the other keys stay
    config = db.execute("""SELECT hindsight.configure_bank('cfg', '{"observation_similarity": null}')""").fetchone()[0]
    assert config["observation_similarity"] == 0.94 and config["llm_model"] == "m"  # back to the default (E5's)
    with pytest.raises(psycopg.errors.InvalidParameterValue) as caught:
        db.execute("""SELECT hindsight.configure_bank('cfg', '{"observation_similarity": 7}')""")
    assert caught.value.diag.message_primary == "observation_similarity must be a cosine similarity in [0, 1], got 7"
    with pytest.raises(psycopg.errors.InvalidParameterValue, match="config must be a JSON object, got array"):
        db.execute("SELECT hindsight.configure_bank('cfg', '[]')")
    db.execute("SELECT hindsight.grant_bank('cfg', %s, 'write')", (roles["bob"],))
    as_role(db, roles["bob"])
    with pytest.raises(psycopg.errors.InsufficientPrivilege, match='only an admin of bank "cfg" may change its config'):
        db.execute("""SELECT hindsight.configure_bank('cfg', '{"llm_model": "other"}')""")
    with pytest.raises(psycopg.Error, match='unknown bank "nope"') as caught:
        db.execute("""SELECT hindsight.configure_bank('nope', '{}')""")
    assert caught.value.sqlstate == "HS404"
    as_role(db, roles["alice"])
    assert db.execute("SELECT hindsight.bank_config('cfg')->>'llm_model'").fetchone() == ("m",)


def test_a_bank_admin_changes_other_keys_of_a_bank_whose_provider_a_superuser_set(db, roles):
    db.execute("""SELECT hindsight.create_bank('tenant', config => '{"reranker_provider": {"kind": "none"}}')""")
    db.execute("SELECT hindsight.grant_bank('tenant', %s, 'admin')", (roles["alice"],))
    as_role(db, roles["alice"])
    config = db.execute("""SELECT hindsight.configure_bank('tenant', '{"llm_model": "m"}')""").fetchone()[0]
    assert config["llm_model"] == "m" and config["reranker_provider"] == {"kind": "none"}
    with pytest.raises(
        psycopg.errors.InsufficientPrivilege, match="only a superuser may set a bank's reranker_provider"
    ):
        db.execute(
            """SELECT hindsight.configure_bank('tenant', '{"reranker_provider": {"kind": "http", "url": "http://x"}}')"""
        )


def test_a_reader_may_not_change_or_delete_a_memory_a_writer_may(db, roles):
    as_role(db, roles["alice"])
    db.execute("SELECT hindsight.create_bank('bank-a')")
    put(db, "bank-a", [("The launch moved to May.", vec(d0=1))])
    (memory,) = db.execute("SELECT id FROM hindsight.memory_units WHERE bank_id = 'bank-a'").fetchone()
    for call in ("SELECT hindsight.update_memory('bank-a', %s, tags => ARRAY['x'])",
                 "SELECT hindsight.delete_memory('bank-a', %s)"):  # fmt: skip
        as_role(db, roles["bob"])  # no grant: an unknown bank
        with pytest.raises(psycopg.Error) as info:
            db.execute(call, (memory,))
        assert info.value.sqlstate == "HS404"
        as_role(db, roles["alice"])
        db.execute("SELECT hindsight.grant_bank('bank-a', %s, 'read')", (roles["bob"],))
        as_role(db, roles["bob"])
        with pytest.raises(psycopg.errors.InsufficientPrivilege, match='only a writer of bank "bank-a"'):
            db.execute(call, (memory,))
        as_role(db, roles["alice"])
        db.execute("SELECT hindsight.revoke_bank('bank-a', %s)", (roles["bob"],))
    db.execute("SELECT hindsight.grant_bank('bank-a', %s, 'write')", (roles["bob"],))
    as_role(db, roles["bob"])
    tagged = "SELECT (hindsight.update_memory('bank-a', %s, tags => ARRAY['x'])).tags"
    (tags,) = db.execute(tagged, (memory,)).fetchone()
    assert tags == ["x"]
    assert db.execute("SELECT hindsight.delete_memory('bank-a', %s)", (memory,)).fetchone() == (True,)
    db.execute("RESET ROLE")
    assert count(db, "memory_units", "bank-a") == 0


def test_ordinary_roles_run_only_the_providers_a_superuser_chose(db, roles):
    # the internal functions that take a provider config are callable by any role: each model call checks it
    as_role(db, roles["bob"])
    db.execute("SELECT hindsight.create_bank('bob-bank')")
    (vectors,) = db.execute(
        "SELECT hindsight._embed_with(hindsight._provider(hindsight.bank_config('bob-bank'), 'embedding', 'bob-bank'),"
        " ARRAY['a text'], 'query')"
    ).fetchone()
    assert len(vectors) == 1  # the database-wide setting with the bank's own model: allowed
    elsewhere = json.dumps({"kind": "http", "url": "http://127.0.0.1:9/", "model": "multilingual-e5-small"})
    own_reader = json.dumps({"kind": "local", "model": "/tmp/not-a-setting"})
    for call, provider in [
        ("SELECT hindsight._embed_with(%s, ARRAY['a text'], 'query')", elsewhere),
        ("SELECT hindsight._embed(%s, ARRAY['a text'], 'query')", elsewhere),
        ("SELECT hindsight._rerank_with(%s, 'q', ARRAY['d'])", own_reader),
        ("SELECT hindsight._rerank(%s, 'q', ARRAY['d'])", own_reader),
        ("SELECT hindsight._unread(%s, 'q')", own_reader),
    ]:
        with pytest.raises(psycopg.errors.InsufficientPrivilege, match="only a superuser may run"):
            db.execute(call, (provider,))
    db.execute("RESET ROLE")  # a superuser may
    assert db.execute("SELECT hindsight._unread(%s, 'q')", (own_reader,)).fetchone() == (None,)  # it would read
