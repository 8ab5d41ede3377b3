"""The public reads the inspector (hindsight_pg/ui) makes: hindsight.default_config, hindsight.unit_date and
hindsight.entity_cooccurrences, checked against what the pipeline's own definitions give."""

from __future__ import annotations

import json

import pytest
from _helpers import bank, put, vec
from psycopg import sql

START, END, SAID = "2024-03-01 00:00+00", "2024-03-05 00:00+00", "2024-04-01 00:00+00"


def test_the_defaults_are_a_plain_e5_banks_config_and_a_valid_config(db):
    db.execute("SELECT hindsight.create_bank('plain', config => '{\"embedding_model\": \"multilingual-e5-small\"}')")
    (defaults, plain) = db.execute("SELECT hindsight.default_config(), hindsight.bank_config('plain')").fetchone()
    assert defaults == plain  # E5 is the default model: its bank takes every default as it is
    assert defaults["rrf_k"] == 60 and defaults["recall_budgets"] == {"low": 100, "mid": 300, "high": 1000}
    db.execute("SELECT hindsight.create_bank('all-defaults', config => %s::jsonb)", (json.dumps(defaults),))
    bank(db, "minilm")  # a MiniLM bank's thresholds are its model's, not the defaults
    (own,) = db.execute("SELECT hindsight.bank_config('minilm')->'dedupe_similarity'").fetchone()
    assert (own, defaults["dedupe_similarity"]) == (0.95, 0.978)


@pytest.mark.parametrize(
    ("occurred_start", "occurred_end", "mentioned_at", "date"),
    [
        (None, None, None, None),
        (None, None, SAID, SAID),
        (START, END, SAID, START),
        (None, END, SAID, END),  # one end of the occurred span stands for both
    ],
)
def test_a_units_date(db, occurred_start, occurred_end, mentioned_at, date):
    db.execute("SET TimeZone = 'UTC'")
    (same,) = db.execute(
        "SELECT hindsight.unit_date(%(s)s, %(e)s, %(m)s) IS NOT DISTINCT FROM %(d)s::timestamptz",
        {"s": occurred_start, "e": occurred_end, "m": mentioned_at, "d": date},
    ).fetchone()
    assert same


def test_co_occurrences_among_chosen_entities_each_pair_once_most_first(db, role):
    bank(db, "crew")
    named = [["Ana", "Ben"], ["Ana", "Ben", "Cy"], ["Ana", "Cy"], ["Ana", "Ben"]]
    put(db, "crew", [{"text": f"Unit {i}.", "embedding": vec(**{f"d{i}": 1}), "entities": names}
                     for i, names in enumerate(named)])  # fmt: skip
    ids = dict(db.execute("SELECT canonical_name, id FROM hindsight.entities WHERE bank_id = 'crew'").fetchall())
    name = {v: k for k, v in ids.items()}
    query = "SELECT entity_id, other_entity_id, unit_count FROM hindsight.entity_cooccurrences(%s, %s)"
    pairs = [(sorted((name[a], name[b])), n) for a, b, n in db.execute(query, ("crew", list(ids.values())))]
    assert pairs == [(["Ana", "Ben"], 3), (["Ana", "Cy"], 2), (["Ben", "Cy"], 1)]
    assert all(a < b for a, b, _ in db.execute(query, ("crew", list(ids.values()))))
    two = db.execute(query, ("crew", [ids["Ben"], ids["Cy"]])).fetchall()
    assert [(sorted((name[a], name[b])), n) for a, b, n in two] == [(["Ben", "Cy"], 1)]
    # the same as the entity_graph view's counts (which joins every unit)
    graph = db.execute(
        "SELECT entity_a_id, entity_b_id, co_occurrences FROM hindsight.entity_graph WHERE bank_id = 'crew'"
        " ORDER BY co_occurrences DESC, entity_a_id, entity_b_id"
    ).fetchall()
    assert graph == db.execute(query, ("crew", list(ids.values()))).fetchall()
    assert db.execute(query, ("no-such-bank", list(ids.values()))).fetchall() == []
    db.execute(sql.SQL("SET ROLE {}").format(sql.Identifier(role)))  # a role that may not read the bank
    assert db.execute(query, ("crew", list(ids.values()))).fetchall() == []


def test_the_co_occurrence_function_is_inlined(db):
    """No SET clause and one SELECT: the planner reads the table through its key, and a caller's LIMIT reaches it."""
    bank(db, "plan")
    plan = "\n".join(row[0] for row in db.execute(
        "EXPLAIN SELECT * FROM hindsight.entity_cooccurrences('plan', '{00000000-0000-0000-0000-000000000001}') LIMIT 5"
    ))  # fmt: skip
    assert "Function Scan" not in plan and "_entity_cooccurrences" in plan
