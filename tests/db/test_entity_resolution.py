"""Entity resolution inside hindsight.retain: exact names, scored merges, guards, hubs, concurrency."""

from __future__ import annotations

import threading

import psycopg
import pytest
from _helpers import NO_LINKS, bank, put, vec

DAY = "2024-05-01T10:00:00Z"


def entities(db, bank_id):
    """{canonical name: mention_count} of a bank."""
    rows = db.execute("SELECT canonical_name, mention_count FROM hindsight.entities WHERE bank_id = %s", (bank_id,))
    return dict(rows.fetchall())


def fact(text, names, at=DAY, axis=0):
    return {"text": text, "embedding": vec(**{f"d{axis}": 1}), "entities": names, "mentioned_at": at}


def test_an_exact_name_in_any_case_reuses_its_entity(db):
    bank(db, "r", **NO_LINKS)
    put(db, "r", [fact("Alice came.", ["Alice"]), fact("alice left.", ["alice"]), fact("ALICE slept.", [" ALICE "])])
    assert entities(db, "r") == {"Alice": 3}


def test_a_similar_name_merges_when_its_companions_co_occur(db):
    bank(db, "r", **NO_LINKS)
    put(db, "r", [fact("Katherine runs Acme Labs.", ["Katherine", "Acme Labs"])])
    # similarity 0.538: 0.5 * 0.538 + 0.3 * 1 (Acme Labs co-occurs) + 0.2 * 1 (same day) = 0.77 > 0.6
    put(db, "r", [fact("Katharine published a paper at Acme Labs.", ["Katharine", "Acme Labs"], axis=1)])
    assert entities(db, "r") == {"Katherine": 2, "Acme Labs": 2}


def test_name_similarity_and_recency_alone_do_not_merge(db):
    bank(db, "r", **NO_LINKS)
    put(db, "r", [fact("Katherine runs Acme Labs.", ["Katherine", "Acme Labs"])])
    # 0.5 * 0.538 + 0 + 0.2 = 0.47: a different person until something ties them
    put(db, "r", [fact("Katharine went home.", ["Katharine"], axis=1)])
    assert entities(db, "r") == {"Katherine": 1, "Acme Labs": 1, "Katharine": 1}


def test_recency_counts_only_within_a_week(db):
    bank(db, "r", **NO_LINKS)
    put(db, "r", [fact("Katherine runs Acme Labs.", ["Katherine", "Acme Labs"], at="2024-05-01T10:00Z")])
    # ten days later: 0.269 + 0.3 + 0 = 0.57
    put(db, "r", [fact("Katharine joined Acme Labs.", ["Katharine", "Acme Labs"], at="2024-05-11T10:00Z", axis=1)])
    assert set(entities(db, "r")) == {"Katherine", "Acme Labs", "Katharine"}


def test_an_entity_linked_to_most_of_the_bank_gives_no_co_occurrence_credit(db):
    bank(db, "r", **NO_LINKS)
    put(db, "r", [fact("Katherine asked the user.", ["Katherine", "user"]),
                  fact("The user slept.", ["user"], axis=2), fact("The user ate.", ["user"], axis=3)])  # fmt: skip
    put(db, "r", [fact("Katharine called the user.", ["Katharine", "user"], axis=1)])
    assert entities(db, "r") == {"Katherine": 1, "user": 4, "Katharine": 1}


@pytest.mark.parametrize(
    ("old", "new"),
    [("Room 101", "Room 102"), ("UA123", "UA124"), ("2023 Tax Return", "2024 Tax Return")],
)
def test_names_with_different_numbers_never_merge(db, old, new):
    bank(db, "r", **NO_LINKS)
    put(db, "r", [fact(f"{old} is booked.", [old, "Hotel Astoria"])])
    # name similarity 0.5-0.78, co-occurrence 1, same day: over 0.6 without the guard
    put(db, "r", [fact(f"{new} is booked.", [new, "Hotel Astoria"], axis=1)])
    assert entities(db, "r") == {old: 1, new: 1, "Hotel Astoria": 2}


def test_a_short_name_inside_a_longer_one_is_not_the_same_name(db):
    compatible = "SELECT hindsight._entity_names_compatible(%s, %s)"
    assert db.execute(compatible, ("Uno", "Bruno")).fetchone()[0] is False
    assert db.execute(compatible, ("Bruno", "uno")).fetchone()[0] is False
    assert db.execute(compatible, ("Atlas", "Project Atlas")).fetchone()[0] is True  # whole words
    assert db.execute(compatible, ("Room 101", "room  101")).fetchone()[0] is True
    bank(db, "r", **NO_LINKS)
    put(db, "r", [fact("Bruno plays at the Blue Note.", ["Bruno", "Blue Note"])])
    put(db, "r", [fact("Uno plays at the Blue Note.", ["Uno", "Blue Note"], axis=1)])
    assert entities(db, "r") == {"Bruno": 1, "Uno": 1, "Blue Note": 2}


def test_first_and_last_seen_and_co_occurrence_counts(db):
    bank(db, "r", **NO_LINKS)
    put(db, "r", [fact("Alice met Bob.", ["Alice", "Bob"], at="2024-01-05T00:00Z"),
                  fact("Alice and Bob shipped.", ["Alice", "Bob"], at="2024-03-01T00:00Z", axis=1),
                  fact("Alice called Carol.", ["Alice", "Carol"], at="2024-02-01T00:00Z", axis=2)])  # fmt: skip
    rows = db.execute(
        "SELECT canonical_name, mention_count, first_seen::date::text, last_seen::date::text, co_occurring_entities,"
        " co_occurring::text FROM hindsight.entity_stats WHERE bank_id = 'r' ORDER BY mention_count DESC, 1"
    ).fetchall()
    assert rows == [
        ("Alice", 3, "2024-01-05", "2024-03-01", 2, '{ "Bob" : 2, "Carol" : 1 }'),
        ("Bob", 2, "2024-01-05", "2024-03-01", 1, '{ "Alice" : 2 }'),
        ("Carol", 1, "2024-02-01", "2024-02-01", 1, '{ "Alice" : 1 }'),
    ]


def test_two_retains_at_once_with_the_same_new_name_make_one_entity(db):
    bank(db, "r", **NO_LINKS)
    info = db.info
    other = psycopg.connect(host=info.host, port=info.port, user=info.user, dbname=info.dbname, autocommit=True)
    try:
        db.execute("BEGIN")
        first = put(db, "r", [fact("Zephyr Labs hired Ann.", ["Zephyr Labs"])])
        result: list[object] = []

        def second_retain() -> None:
            try:
                result.extend(put(other, "r", [fact("Zephyr Labs moved offices.", ["Zephyr Labs"], axis=1)]))
            except Exception as exc:  # the assertion below shows it
                result.append(exc)

        worker = threading.Thread(target=second_retain)
        worker.start()
        worker.join(timeout=1.0)
        assert worker.is_alive()  # waiting on the first transaction's new name
        db.execute("COMMIT")
        worker.join(timeout=30)
        assert len(result) == 1 and isinstance(result[0], str), result
    finally:
        other.close()
    assert entities(db, "r") == {"Zephyr Labs": 2}
    linked = db.execute("SELECT count(DISTINCT entity_id) FROM hindsight.unit_entities WHERE bank_id = 'r'").fetchone()
    assert linked[0] == 1 and first


def parents(db, bank_id):
    """{canonical name: parent's canonical name or None} of a bank."""
    rows = db.execute(
        "SELECT e.canonical_name, p.canonical_name FROM hindsight.entities e"
        " LEFT JOIN hindsight.entities p ON p.bank_id = e.bank_id AND p.id = e.parent_id WHERE e.bank_id = %s",
        (bank_id,),
    )
    return dict(rows.fetchall())


def test_an_alias_without_its_capitals_is_the_same_entity_either_way(db):
    bank(db, "r", **NO_LINKS)
    put(db, "r", [fact("Billing runs on PostgreSQL.", ["PostgreSQL"])])
    # "Postgres" is "PostgreSQL" without its suffix in capitals: the same entity, whatever the similarity
    put(db, "r", [fact("Search moves to Postgres.", ["Postgres"], axis=1)])
    bank(db, "s", **NO_LINKS)
    put(db, "s", [fact("Search moves to Postgres.", ["Postgres"])])
    put(db, "s", [fact("Billing runs on PostgreSQL.", ["PostgreSQL"], axis=1)])
    assert entities(db, "r") == {"PostgreSQL": 2}
    assert entities(db, "s") == {"Postgres": 2}
    # not an alias: a name that only starts the same way ("Post"), or a longer one in lower case ("Danielle")
    aliases = "SELECT hindsight._entity_aliases(%s)"
    assert [db.execute(aliases, (n,)).fetchone()[0] for n in ("PostgreSQL", "NodeJS", "Danielle", "UNICEF")] == [
        ["postgresq", "postgres", "postgre"], ["nodej", "node"], [], []]  # fmt: skip


def test_a_name_after_its_title_is_the_same_entity_either_way(db):
    bank(db, "r", **NO_LINKS)
    put(db, "r", [fact("Okafor reviewed the scan.", ["Okafor"])])
    put(db, "r", [fact("Dr Okafor said it was clear.", ["Dr Okafor"], axis=1)])
    bank(db, "s", **NO_LINKS)
    put(db, "s", [fact("Dr. Okafor said it was clear.", ["Dr. Okafor"])])
    put(db, "s", [fact("Okafor reviewed the scan.", ["Okafor"], axis=1)])
    assert entities(db, "r") == {"Okafor": 2}
    assert entities(db, "s") == {"Dr. Okafor": 2}  # the first mention names it, as written
    aliases = "SELECT hindsight._entity_aliases(%s)"
    assert [db.execute(aliases, (n,)).fetchone()[0] for n in ("Dr Okafor", "Prof. Ana da Silva", "Drake", "Dr")] == [
        ["okafor"], ["ana da silva"], [], []]  # fmt: skip


def test_a_version_is_its_own_entity_linked_to_its_base(db):
    bank(db, "r", **NO_LINKS)
    put(db, "r", [fact("Billing is on PostgreSQL 11.", ["PostgreSQL 11"]),
                  fact("Billing moved to PostgreSQL 16.", ["PostgreSQL 16"], axis=1),
                  fact("Room 101 is booked.", ["Room 101"], axis=2)])  # fmt: skip
    # the base "PostgreSQL" is created without mentions; "Room 101" is numbered, not a version
    assert entities(db, "r") == {"PostgreSQL 11": 1, "PostgreSQL 16": 1, "PostgreSQL": 0, "Room 101": 1}
    assert parents(db, "r") == {"PostgreSQL 11": "PostgreSQL", "PostgreSQL 16": "PostgreSQL", "PostgreSQL": None,
                                "Room 101": None}  # fmt: skip
    # a later mention of the alias reuses the base; a version with a dot links to its base too
    put(db, "r", [fact("Search uses Postgres.", ["Postgres"], axis=3), fact("Falcon 1.2 is out.", ["Falcon 1.2"])])
    assert entities(db, "r")["PostgreSQL"] == 1
    assert parents(db, "r")["Falcon 1.2"] == "Falcon"
    # the base stays while a version is mentioned, and goes with the last one
    db.execute("DELETE FROM hindsight.memory_units WHERE bank_id = 'r' AND text LIKE 'Search uses%'")
    db.execute("SELECT hindsight._delete_orphan_entities('r')")
    assert "PostgreSQL" in entities(db, "r")
    db.execute("DELETE FROM hindsight.memory_units WHERE bank_id = 'r' AND text LIKE '%PostgreSQL 1%'")
    db.execute("SELECT hindsight._delete_orphan_entities('r')")
    db.execute("SELECT hindsight._delete_orphan_entities('r')")
    assert "PostgreSQL" not in entities(db, "r") and "PostgreSQL 11" not in entities(db, "r")


def test_the_graph_arm_walks_from_an_entity_to_its_versions_and_back(db):
    bank(db, "r", **NO_LINKS)
    base, v11, other = put(db, "r", [fact("Postgres is our database.", ["Postgres"]),
                                     fact("Billing is on PostgreSQL 11.", ["PostgreSQL 11"], axis=1),
                                     fact("Falcon shipped.", ["Falcon"], axis=2)])  # fmt: skip
    expand = (
        "SELECT unit_id::text, shared_entities FROM hindsight._graph_expand('r', %s::uuid[], %s::uuid[], NULL, NULL,"
        " 'any', 10, 10, 100, 2000)"
    )
    assert db.execute(expand, ([base], [base])).fetchall() == [(v11, 1)]
    assert db.execute(expand, ([v11], [v11])).fetchall() == [(base, 1)]
    assert db.execute(expand, ([other], [other])).fetchall() == []
