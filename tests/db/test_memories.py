"""One memory at a time: update_memory and delete_memory in SQL and the driver, and everything derived from a memory
(keyword statistics, entities and their mention counts, links both ways, supersedes chains, observations, bank counts)
as true afterwards as retain and delete_document leave it."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any
from uuid import UUID, uuid4

import psycopg
import pytest
from test_updates import retain_chains
from update_chains import CHAINS

from hindsight_pg import BankNotFoundError, Client, InvalidInputError, LimitExceededError, MemoryNotFoundError


def unit(client: Client, bank_id: str, phrase: str) -> UUID:
    (found,) = client.conn.execute(
        "SELECT id FROM hindsight.memory_units WHERE bank_id = %s AND text LIKE %s", (bank_id, f"%{phrase}%")
    ).fetchall()
    return found[0]


def one(client: Client, query: str, *args: Any) -> Any:
    """The one value ``query`` gives."""
    return client.conn.execute(query, args).fetchone()[0]


def mentions(client: Client, bank_id: str) -> dict[str, int]:
    query = "SELECT canonical_name, mention_count FROM hindsight.entities WHERE bank_id = %s"
    return dict(client.conn.execute(query, (bank_id,)).fetchall())


def links(client: Client, bank_id: str, unit_id: UUID) -> list[tuple[str, str]]:
    """Each link touching the unit: (its type, 'from' or 'to' as seen from the unit)."""
    return client.conn.execute(
        "SELECT link_type, CASE WHEN from_unit_id = %s THEN 'from' ELSE 'to' END FROM hindsight.memory_links"
        " WHERE bank_id = %s AND %s IN (from_unit_id, to_unit_id) ORDER BY 1, 2", (unit_id, bank_id, unit_id)
    ).fetchall()  # fmt: skip


def snapshot(client: Client, bank_id: str) -> list[Any]:
    """What a failed call must leave as it was."""
    return [client.conn.execute(q, (bank_id,)).fetchall() for q in (
        "SELECT id, text, embedding::text, occurred_start, occurred_end, tags, metadata, superseded_at"
        " FROM hindsight.memory_units WHERE bank_id = %s ORDER BY id",
        "SELECT from_unit_id, to_unit_id, link_type, weight FROM hindsight.memory_links WHERE bank_id = %s"
        " ORDER BY 1, 2, 3",
        "SELECT canonical_name, mention_count FROM hindsight.entities WHERE bank_id = %s ORDER BY 1",
        "SELECT term, df FROM hindsight._bm25_terms WHERE bank_id = %s ORDER BY 1",
    )]  # fmt: skip


@pytest.fixture
def trip(client: Client) -> dict[str, UUID]:
    client.create_bank("trip")
    said = "2025-03-03T10:00:00Z"
    ids = client.retain_batch("trip", [
        {"content": "Rosa: Ana booked the flight to Lisbon for Friday.", "timestamp": said, "document_id": "chat-1"},
        {"content": "Rosa: The parking garage code is 1234.", "timestamp": said, "document_id": "chat-2"},
        {"content": "Rosa: Ana and Ben are bringing the tent.", "timestamp": said, "document_id": "chat-3"},
    ]).unit_ids  # fmt: skip
    return dict(zip(("flight", "code", "tent"), ids, strict=True))


def test_a_new_text_is_embedded_indexed_and_read_again_for_its_names_and_dates(client: Client, trip) -> None:
    before = mentions(client, "trip")
    assert before["Lisbon"] == 1 and before["Ana"] == 2 and "Porto" not in before
    memory = client.update_memory("trip", trip["flight"],
                                  text="Rosa: Ana moved the flight to Porto, now on Saturday.")  # fmt: skip
    assert memory.text == "Rosa: Ana moved the flight to Porto, now on Saturday."
    # the names it still holds and the ones it gives; the entity nothing mentions any more is gone
    assert memory.entities == ["Ana", "Porto", "Rosa"]
    assert mentions(client, "trip") == {**{k: v for k, v in before.items() if k != "Lisbon"}, "Porto": 1}
    # its date read as of when it was said (Monday 3 March 2025): the coming Saturday
    assert memory.occurred_start == datetime(2025, 3, 8, tzinfo=UTC)
    assert memory.mentioned_at == datetime(2025, 3, 3, 10, tzinfo=UTC)
    # found by its new words, in the keyword and the semantic arms; the old words find it no more
    results = client.recall("trip", "flight to Porto", query_timestamp="2025-03-04").results
    assert results[0].id == trip["flight"] and results[0].scores.keyword_rank == 1
    assert results[0].scores.semantic_rank == 1
    lisbon = client.recall("trip", "Lisbon", query_timestamp="2025-03-04", arms=["keyword"]).results
    assert trip["flight"] not in [r.id for r in lisbon]
    assert one(client, "SELECT token_count = hindsight.count_tokens(text) FROM hindsight.memory_units"
                       " WHERE bank_id = 'trip' AND id = %s", trip["flight"])  # fmt: skip
    # the driver's vector is the bank's model's: what the database makes of the same text, to float precision
    (distance,) = client.conn.execute(
        "SELECT embedding <=> (SELECT hindsight.embed('trip', ARRAY[text]))[1] FROM hindsight.memory_units"
        " WHERE bank_id = 'trip' AND id = %s", (trip["flight"],)).fetchone()  # fmt: skip
    assert distance < 1e-5


def test_the_fields_not_given_stay_and_tags_and_metadata_replace(client: Client, trip) -> None:
    kept = "SELECT text, embedding::text, occurred_start, context FROM hindsight.memory_units WHERE id = %s"
    before = client.conn.execute(kept, (trip["code"],)).fetchone()
    memory = client.update_memory("trip", trip["code"], tags=["home"], metadata={"source": "sms"})
    assert (memory.tags, memory.metadata) == (["home"], {"source": "sms"})
    assert client.conn.execute(kept, (trip["code"],)).fetchone() == before
    # tags filter recall at once
    tagged = client.recall("trip", "parking garage code", tags=["home"], tags_match="any_strict",
                           query_timestamp="2025-03-04").results  # fmt: skip
    assert [r.id for r in tagged] == [trip["code"]]
    # given dates win over the text's, and move its temporal links
    memory = client.update_memory("trip", trip["code"], occurred_start="2025-04-01", occurred_end="2025-04-02")
    assert memory.occurred_start == datetime(2025, 4, 1, tzinfo=UTC) and memory.tags == ["home"]


def test_an_update_of_the_value_supersedes_and_a_changed_subject_no_longer_does(client: Client) -> None:
    retain_chains(client, "pay", [CHAINS[0], CHAINS[1]])
    planned, kept = unit(client, "pay", "switch from Stripe"), unit(client, "pay", "keep Stripe")
    assert ("supersedes", "to") in links(client, "pay", planned)
    # the newer one now says something else: the older is current again
    client.update_memory("pay", kept, text="Lena: The office plants need watering on Mondays.")
    assert ("supersedes", "to") not in links(client, "pay", planned)
    assert one(client, "SELECT superseded_at FROM hindsight.memory_units WHERE id = %s", planned) is None
    # and back: the judge links the revision again, from the newer unit to the older
    memory = client.update_memory("pay", kept, text="Lena: We agreed to keep Stripe after all, the Adyen contract "
                                                    "was too rigid.")  # fmt: skip
    assert ("supersedes", "to") in links(client, "pay", planned)
    assert one(client, "SELECT superseded_at FROM hindsight.memory_units WHERE id = %s", planned) == memory.mentioned_at
    # the older one edited: the newer one said after it is judged again against its new text
    client.update_memory("pay", planned, text="Lena: The office plants need watering on Mondays.")
    assert ("supersedes", "from") not in links(client, "pay", kept)
    client.update_memory("pay", planned, text="Lena: A switch from Stripe to Adyen is planned for the checkout.")
    assert ("supersedes", "from") in links(client, "pay", kept)


def test_deleting_a_revision_gives_the_older_value_back(client: Client) -> None:
    retain_chains(client, "pay", [CHAINS[0]])
    planned, kept = unit(client, "pay", "switch from Stripe"), unit(client, "pay", "keep Stripe")
    assert client.delete_memory("pay", kept)
    assert "supersedes" not in {kind for kind, _ in links(client, "pay", planned)}
    assert one(client, "SELECT superseded_at FROM hindsight.memory_units WHERE id = %s", planned) is None
    results = client.recall("pay", "Which payment provider are we using?", query_timestamp="2025-12-01").results
    assert "switch from Stripe" in results[0].text


def test_delete_takes_links_both_ways_entities_the_emptied_document_and_counts(client: Client, trip) -> None:
    assert {d for _, d in links(client, "trip", trip["tent"])} == {"from", "to"}
    units = one(client, "SELECT units FROM hindsight.bank_stats WHERE bank_id = 'trip'")
    assert client.delete_memory("trip", str(trip["tent"])) is True
    assert links(client, "trip", trip["tent"]) == []
    assert "Ben" not in mentions(client, "trip") and mentions(client, "trip")["Ana"] == 1
    assert one(client, "SELECT units FROM hindsight.bank_stats WHERE bank_id = 'trip'") == units - 1
    # its document held no other memory: it is gone, with its chunks
    documents = "SELECT count(*) FROM hindsight.documents WHERE bank_id = 'trip' AND document_id = %s"
    assert one(client, documents, "chat-3") == 0
    assert one(client, "SELECT count(*) FROM hindsight.chunks WHERE bank_id = 'trip' AND document_id = 'chat-3'") == 0
    # the keyword statistics follow: 'tent' is no term of the bank any more
    assert one(client, "SELECT count(*) FROM hindsight._bm25_terms WHERE bank_id = 'trip' AND term = 'tent'") == 0
    assert client.delete_memory("trip", trip["tent"]) is False
    # a document that holds other memories stays
    client.retain("trip", "Rosa: The tent is Ben's.\n\nRosa: Ben's car is blue.", document_id="chat-4",
                  timestamp="2025-03-03T11:00:00Z")  # fmt: skip
    assert client.delete_memory("trip", unit(client, "trip", "tent is"))
    assert one(client, documents, "chat-4") == 1


def test_observations_follow_an_edited_or_deleted_fact(client: Client) -> None:
    from test_observations import RUNS, retain

    client.create_bank("ana")
    runs = retain(client, "ana", RUNS)
    ((observation, _, _),) = client.consolidate("ana")
    client.update_memory("ana", runs[0], text="Ana ran 5 km in Riverside Park before work, then swam.",
                         tags=["sport"])  # fmt: skip
    (tags,) = client.conn.execute("SELECT tags FROM hindsight.memory_units WHERE id = %s", (observation,)).fetchone()
    assert tags == ["sport"]
    for fact in runs:
        client.delete_memory("ana", fact)
    # the observation went with its last fact
    assert one(client, "SELECT count(*) FROM hindsight.memory_units WHERE bank_id = 'ana'") == 0
    with pytest.raises(MemoryNotFoundError):
        client.update_memory("ana", observation, text="anything")


def test_an_observation_is_not_edited_by_hand(client: Client) -> None:
    from test_observations import RUNS, retain

    client.create_bank("ana")
    retain(client, "ana", RUNS)
    ((observation, _, _),) = client.consolidate("ana")
    with pytest.raises(InvalidInputError, match="observation") as raised:
        client.update_memory("ana", observation, text="Ana swims.")
    assert "facts" in (raised.value.hint or "")


def test_bad_input_is_refused_naming_it_and_changes_nothing(client: Client, trip) -> None:
    before = snapshot(client, "trip")
    with pytest.raises(BankNotFoundError):
        client.update_memory("nope", trip["code"], text="x1")
    with pytest.raises(MemoryNotFoundError, match=r'bank "trip" has no memory') as raised:
        client.update_memory("trip", uuid4(), text="The code is 99.")
    assert raised.value.sqlstate == "P0002" and "RecallResult.id" in (raised.value.hint or "")
    with pytest.raises(InvalidInputError, match="blank or has only punctuation"):
        client.update_memory("trip", trip["code"], text=" ?! ")
    with pytest.raises(InvalidInputError, match=r"occurred_end .* is before occurred_start"):
        client.update_memory("trip", trip["code"], occurred_start="2025-05-02", occurred_end="2025-05-01")
    with pytest.raises(InvalidInputError, match="memory_id 'abc' is not a UUID"):
        client.delete_memory("trip", "abc")
    with pytest.raises(InvalidInputError, match="tags must be a list"):
        client.update_memory("trip", trip["code"], tags="home")
    with pytest.raises(InvalidInputError, match="text must be str"):
        client.update_memory("trip", trip["code"], text=42)  # type: ignore[arg-type]
    with pytest.raises(LimitExceededError, match="tags"):
        client.update_memory("trip", trip["code"], tags=[f"t{i}" for i in range(101)])
    with pytest.raises(BankNotFoundError):
        client.delete_memory("nope", trip["code"])
    assert snapshot(client, "trip") == before


def test_sql_alone_embeds_the_new_text_in_the_database(db: psycopg.Connection[Any], client: Client, trip) -> None:
    row = db.execute(
        "SELECT (m).text, (m).entities FROM (SELECT hindsight.update_memory('trip', %s, text => 'Rosa: The parking"
        " garage code is 5678 since Marta changed it.') AS m) x", (trip["code"],)).fetchone()  # fmt: skip
    assert row == ("Rosa: The parking garage code is 5678 since Marta changed it.", ["Marta", "Rosa"])
    (distance,) = db.execute(
        "SELECT embedding <=> (SELECT hindsight.embed('trip', ARRAY[text]))[1] FROM hindsight.memory_units"
        " WHERE bank_id = 'trip' AND id = %s", (trip["code"],)).fetchone()  # fmt: skip
    assert distance < 1e-6
    with pytest.raises(psycopg.errors.NoDataFound):
        db.execute("SELECT hindsight.update_memory('trip', %s, text => 'x1')", (uuid4(),))
    with pytest.raises(psycopg.errors.InvalidParameterValue, match="embedding must be 384 numbers"):
        db.execute("SELECT hindsight.update_memory('trip', %s, text => 'x1', embedding => '[1,2,3]')", (trip["code"],))
    assert db.execute("SELECT hindsight.delete_memory('trip', %s)", (trip["code"],)).fetchone() == (True,)
    assert db.execute("SELECT hindsight.delete_memory('trip', %s)", (trip["code"],)).fetchone() == (False,)
