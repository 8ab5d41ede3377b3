"""The LLM extractor's real client (openai) against a small local server of the chat-completions protocol
(tests/_chat_server.py, fixture chat_server)."""

from __future__ import annotations

from datetime import UTC, datetime

import psycopg
import pytest

from hindsight_pg import ExtractionError, InvalidInputError
from hindsight_pl.llm import FACTS_SCHEMA, SYSTEM_PROMPT


@pytest.fixture
def llm_bank(client, chat_server, monkeypatch):
    monkeypatch.setenv("HINDSIGHT_TEST_LLM_KEY", "sk-test-123")
    client.create_bank("l", config={
        "extractor": "llm", "llm_base_url": f"http://127.0.0.1:{chat_server.server_port}/v1",
        "llm_model": "facts-model", "llm_api_key_env": "HINDSIGHT_TEST_LLM_KEY"})  # fmt: skip
    return "l"


def stored(db):
    return db.execute(
        "SELECT text, fact_type, occurred_start, occurred_end, ARRAY(SELECT e.canonical_name FROM"
        " hindsight.unit_entities ue JOIN hindsight.entities e ON e.bank_id = ue.bank_id AND e.id = ue.entity_id"
        " WHERE ue.unit_id = u.id ORDER BY 1) FROM hindsight.memory_units u ORDER BY text"
    ).fetchall()


def test_llm_facts_are_stored_with_when_who_why_dates_types_and_causes(client, db, chat_server, llm_bank):
    content = "Ana: I moved to Lyon last spring for a new job at Sanofi. #lyon\nAssistant: I booked your flight."
    result = client.retain(llm_bank, content, timestamp="2024-06-10T12:00:00Z")
    assert len(result.unit_ids) == 2
    assert stored(db) == [
        ("Ana moved to Lyon | When: last spring | Involving: Ana | for a new job at Sanofi", "world",
         datetime(2024, 3, 1, tzinfo=UTC), datetime(2024, 5, 31, 23, 59, 59, 999999, tzinfo=UTC),
         ["Ana", "Lyon", "Sanofi"]),
        ("The assistant booked Ana's flight to Lyon | When: next Friday | Involving: Ana", "experience",
         datetime(2024, 6, 14, tzinfo=UTC), datetime(2024, 6, 14, 23, 59, 59, 999999, tzinfo=UTC), ["Ana", "Lyon"]),
    ]  # fmt: skip
    links = db.execute(
        "SELECT a.text LIKE 'The assistant%%', b.text LIKE 'Ana moved%%', l.link_type, l.weight"
        " FROM hindsight.memory_links l JOIN hindsight.memory_units a ON a.id = l.from_unit_id"
        " JOIN hindsight.memory_units b ON b.id = l.to_unit_id WHERE l.link_type IN ('caused_by', 'causes')"
        " ORDER BY l.link_type"
    ).fetchall()
    assert links == [(False, False, "caused_by", 1.0), (True, True, "causes", 1.0)] or links == [
        (True, True, "caused_by", 1.0), (False, False, "causes", 1.0)]  # fmt: skip
    (request,) = chat_server.requests
    assert client.llm_usage == [
        {"purpose": "fact extraction", "model": "facts-model", "prompt_tokens": 200, "completion_tokens": 120}
    ]
    assert request["path"] == "/v1/chat/completions" and request["auth"] == "Bearer sk-test-123"
    body = request["body"]
    assert body["model"] == "facts-model" and body["temperature"] == 0.1
    assert body["response_format"] == {
        "type": "json_schema",
        "json_schema": {"name": "facts", "strict": True, "schema": FACTS_SCHEMA},
    }
    assert body["messages"][0] == {"role": "system", "content": SYSTEM_PROMPT}
    assert body["messages"][1]["content"].startswith("Said on: 2024-06-10 (Monday)\n\nAna: I moved to Lyon")


def test_retain_text_extracts_with_the_model_from_the_database(client, db, chat_server, llm_bank):
    content = "Ana: I moved to Lyon last spring for a new job at Sanofi. #lyon\nAssistant: I booked your flight."
    client.retain(llm_bank, content, timestamp="2024-06-10T12:00:00Z")
    by_driver = stored(db)
    db.execute("SELECT hindsight.delete_document('l', document_id) FROM hindsight.documents")
    assert stored(db) == []
    rows = db.execute(
        "SELECT * FROM hindsight.retain_text('l', %s, mentioned_at => '2024-06-10T12:00:00Z')", (content,)
    ).fetchall()
    assert len(rows) == 2 and stored(db) == by_driver  # the same client and prompt, called by the server
    driver_request, sql_request = chat_server.requests
    assert sql_request["body"] == driver_request["body"]
    assert sql_request["auth"] == "Bearer none"  # the server's environment has no HINDSIGHT_TEST_LLM_KEY
    with pytest.raises(psycopg.Error) as caught:
        db.execute("SELECT * FROM hindsight.retain_text('l', 'Bo: #broken')")
    assert caught.value.sqlstate == "HS503" and "fact extraction by facts-model failed" in str(caught.value)
    assert len(stored(db)) == 2


def test_an_overflowing_answer_is_retried_on_the_two_halves(client, db, chat_server, llm_bank):
    first = " ".join(f"Part one sentence {i} mentions #first and says little." for i in range(12))
    second = " ".join(f"Part two sentence {i} mentions #second and says little." for i in range(12))
    client.retain(llm_bank, f"{first}\n\n{second}")
    assert len(chat_server.requests) == 3  # the whole chunk, then each half
    assert [row[0] for row in stored(db)] == ["The first half has a fact", "The second half has a fact"]


def test_a_failing_endpoint_raises_and_writes_nothing(client, db, chat_server, llm_bank):
    with pytest.raises(ExtractionError, match="fact extraction by facts-model failed"):
        client.retain_batch(llm_bank, [{"content": "Ana: I moved to Lyon. #lyon"}, {"content": "Bo: #broken"}])
    assert stored(db) == []
    assert db.execute("SELECT count(*) FROM hindsight.documents").fetchone() == (0,)


def test_an_answer_off_the_schema_raises(client, db, chat_server, llm_bank):
    with pytest.raises(ExtractionError, match="answered without the facts schema"):
        client.retain(llm_bank, "Bo: this answer is #prose")


def test_the_llm_extractor_needs_a_url_and_a_model(client):
    with pytest.raises(InvalidInputError, match="extractor llm needs llm_base_url and llm_model"):
        client.create_bank("x", config={"extractor": "llm"})
    with pytest.raises(psycopg.errors.InvalidParameterValue, match="extractor must be offline, verbatim or llm"):
        client.conn.execute("SELECT hindsight.create_bank('y', config => '{\"extractor\": \"gpt\"}')")


@pytest.mark.parametrize(
    ("item", "message"),
    [
        ({"content": "   "}, "item 0: content is blank or has only punctuation"),
        ({"content": "?! -- !?"}, "item 0: content is blank or has only punctuation"),
        ({"content": "Ana: hello #lyon", "timestamp": "yesterday-ish"}, "item 0: 'yesterday-ish' is not an ISO 8601"),
        ({"content": "Ana: hello #lyon", "update_mode": "merge"}, "item 0: update_mode must be replace or append"),
    ],
)
def test_bad_input_is_refused_before_the_model_is_asked(client, db, chat_server, llm_bank, item, message):
    with pytest.raises(InvalidInputError, match=message):
        client.retain_batch(llm_bank, [item])
    assert chat_server.requests == []
    assert db.execute("SELECT count(*) FROM hindsight.documents").fetchone() == (0,)
