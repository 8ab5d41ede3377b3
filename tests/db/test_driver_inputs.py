"""The driver checks its inputs' types before any work, with the typed InvalidInputError naming the argument, and
its recall gives what SQL's does: the best 10 packed results unless told otherwise."""

from __future__ import annotations

from datetime import UTC, datetime

import psycopg
import pytest

from hindsight_pg import InvalidInputError, MemoryItem


@pytest.fixture
def bank(client):
    client.create_bank("inputs")
    client.retain_batch("inputs", [f"Note {n}: the build server {n} was restarted on Monday." for n in range(14)])
    return "inputs"


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"query": None}, "query must be str, not NoneType None"),
        ({"query": 42}, "query must be str, not int 42"),
        ({"max_tokens": "100"}, "max_tokens must be int, not str '100'"),
        ({"max_tokens": True}, "max_tokens must be int, not bool True"),
        ({"max_results": "5"}, "max_results must be int or None, not str '5'"),
        ({"budget": 3}, "budget must be str, not int 3"),
        ({"tags": "trip"}, "tags must be a list of strings, not str 'trip'"),
        ({"query_timestamp": 1712000000}, "query_timestamp: a timestamp must be a datetime or an ISO 8601 string"),
    ],
)
def test_recall_refuses_a_wrong_type_naming_the_argument(client, bank, arguments, message):
    arguments = {"query": "What was restarted?", **arguments}
    query = arguments.pop("query")
    with pytest.raises(InvalidInputError, match=message.replace("(", r"\(").replace(")", r"\)")):
        client.recall(bank, query, **arguments)


def test_retain_refuses_a_wrong_type_and_writes_nothing(client, db, bank):
    (before,) = db.execute("SELECT count(*) FROM hindsight.memory_units").fetchone()
    with pytest.raises(InvalidInputError, match="item 0: a timestamp must be a datetime or an ISO 8601 string, not "
                       "int 1712000000") as raised:  # fmt: skip
        client.retain(bank, "The deploy finished.", timestamp=1712000000)
    assert "datetime.fromtimestamp" in raised.value.hint
    with pytest.raises(InvalidInputError, match="items must be a list of items, not str") as raised:
        client.retain_batch(bank, "a string")
    assert "client.retain(bank_id, content)" in raised.value.hint
    for items in (MemoryItem("one"), {"content": "one"}, 7):
        with pytest.raises(InvalidInputError, match="items must be a list of items"):
            client.retain_batch(bank, items)
    with pytest.raises(InvalidInputError, match="bank_id must be str, not int 5"):
        client.retain_batch(5, ["x"])
    assert db.execute("SELECT count(*) FROM hindsight.memory_units").fetchone() == (before,)
    # what the messages ask for works
    client.retain(bank, "The deploy finished.", timestamp=datetime.fromtimestamp(1712000000, UTC))
    (said,) = db.execute("SELECT mentioned_at FROM hindsight.memory_units WHERE text LIKE 'The deploy%'").fetchone()
    assert said == datetime.fromtimestamp(1712000000, UTC)


def test_recall_gives_the_best_10_as_sql_does_and_every_packed_one_on_request(client, db, bank):
    question = "Which build server was restarted?"
    default = client.recall(bank, question)
    every = client.recall(bank, question, max_results=None)
    (in_sql,) = db.execute("SELECT count(*) FROM hindsight.recall(%s, %s)", (bank, question)).fetchone()
    (all_in_sql,) = db.execute("SELECT count(*) FROM hindsight.recall(%s, %s, max_results => NULL)",
                               (bank, question)).fetchone()  # fmt: skip
    assert len(default.results) == in_sql == 10
    assert len(every.results) == all_in_sql > 10
    assert [r.id for r in default.results] == [r.id for r in every.results[:10]]
    assert len(client.recall(bank, question, max_results=3).results) == 3
    with pytest.raises(InvalidInputError, match="max_results must be an integer >= 0 or None"):
        client.recall(bank, question, max_results=-1)


def test_a_bank_id_is_any_non_blank_text_in_sql_and_the_driver_alike(client, db):
    for bank_id in ("team alpha", "user:42", "Équipe", " padded "):
        client.create_bank(bank_id)
        client.retain(bank_id, "Priya leads the Atlas project.")
        assert client.recall(bank_id, "Who leads Atlas?").results[0].text == "Priya leads the Atlas project."
    assert {b.bank_id for b in client.list_banks()} == {"team alpha", "user:42", "Équipe", " padded "}
    with pytest.raises(InvalidInputError, match="bank_id must be a non-blank string of at most 200 characters"):
        client.create_bank("   ")
    with pytest.raises(InvalidInputError, match="bank_id"):
        client.create_bank("b" * 201)
    with pytest.raises(psycopg.errors.InvalidParameterValue, match="bank_id must be a non-blank string"):
        db.execute("SELECT hindsight.create_bank('   ')")


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
