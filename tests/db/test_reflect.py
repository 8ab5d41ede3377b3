"""Reflect: the agent loop with the real openai client against a scripted local chat-completions server
(tests/_chat_server.py), over a real bank; dispositions, directives, structured answers, errors."""

from __future__ import annotations

import json
from datetime import datetime

import psycopg
import pytest

from hindsight_pg import ExtractionError, InvalidInputError
from hindsight_pl.reflect import DISPOSITION, render_system_prompt

FACTS = [
    {"content": "Ana ran 5 km in Riverside Park before work.", "timestamp": "2024-01-09T07:00:00Z"},
    {"content": "Ana adopted a grey cat named Pixel.", "timestamp": "2024-02-01T18:00:00Z"},
    {"content": "Ben bought a red bicycle for commuting.", "timestamp": "2024-03-01T09:00:00Z"},
]


@pytest.fixture
def bank(client, script_server):
    url = f"http://127.0.0.1:{script_server.server_port}/v1"
    client.create_bank("ana", config={
        "llm_base_url": url, "llm_model": "reflect-model",
        "disposition": {"skepticism": 5, "empathy": 1},
        "directives": [
            {"name": "brevity", "content": "Answer in one sentence.", "priority": 1},
            {"name": "cite", "content": "Name the dates of the memories you use.", "priority": 5},
            {"name": "old", "content": "Answer in French.", "priority": 9, "active": False},
        ]})  # fmt: skip
    client.retain_batch("ana", FACTS)
    return "ana"


def test_the_loop_recalls_then_answers_citing_only_what_it_saw(client, script_server, bank):
    script_server.script = [
        {"tool": "recall", "arguments": {"query": "Which pet does Ana have?"}},
        {"tool": "done", "arguments": {"answer": "Ana has a grey cat named **Pixel**.",
                                       "memory_ids": ["$first", "00000000-0000-0000-0000-000000000000"]}},
    ]  # fmt: skip
    result = client.reflect(bank, "What pet does Ana have?")
    assert result.answer == "Ana has a grey cat named **Pixel**."
    assert [m["text"] for m in result.based_on] == ["Ana adopted a grey cat named Pixel."]  # the unknown id is dropped
    assert [t["tool"] for t in result.trace] == ["recall", "done"] and result.trace[0]["results"] == 3
    assert [u["purpose"] for u in result.usage] == ["reflect", "reflect"]
    first, second = script_server.requests
    assert first["model"] == "reflect-model" and first["temperature"] == 0.1 and first["tool_choice"] == "auto"
    assert [t["function"]["name"] for t in first["tools"]] == [
        "recall", "search_observations", "search_mental_models", "expand", "done"]  # fmt: skip
    assert first["messages"][1] == {"role": "user", "content": "What pet does Ana have?"}
    tool_message = second["messages"][-1]
    assert tool_message["role"] == "tool" and tool_message["tool_call_id"] == "call_1"
    assert json.loads(tool_message["content"])["results"][0]["text"] == "Ana adopted a grey cat named Pixel."


def test_the_disposition_and_directives_reach_the_system_prompt(client, script_server, bank):
    script_server.script = [{"tool": "done", "arguments": {"answer": "Nothing in memory.", "memory_ids": []}}]
    client.reflect(bank, "What is Ana's job?")
    system = script_server.requests[0]["messages"][0]
    assert system["role"] == "system"
    assert DISPOSITION["skepticism"][5] in system["content"] and DISPOSITION["empathy"][1] in system["content"]
    assert DISPOSITION["literalism"][3] in system["content"]  # the default level
    rules = system["content"].split("most important first:\n")[1].splitlines()
    assert rules == ["- cite: Name the dates of the memories you use.", "- brevity: Answer in one sentence."]
    # every level renders differently
    for trait, levels in DISPOSITION.items():
        prompts = {render_system_prompt({"disposition": {trait: level}}) for level in levels}
        assert len(prompts) == 5


def test_the_last_iteration_forces_done(client, script_server, bank):
    script_server.script = [{"tool": "recall", "arguments": {"query": f"try {i}"}} for i in range(4)]
    script_server.script.append({"tool": "done", "arguments": {"answer": "Ana runs.", "memory_ids": []}})
    result = client.reflect(bank, "What does Ana do?", budget="low")  # 5 iterations
    assert result.answer == "Ana runs."
    choices = [r["tool_choice"] for r in script_server.requests]
    assert choices == ["auto"] * 4 + [{"type": "function", "function": {"name": "done"}}]


def test_expand_and_observations_tools(client, script_server, bank):
    script_server.script = [
        {"tool": "recall", "arguments": {"query": "Ben"}},
        {"tool": "expand", "arguments": {"memory_id": "$first"}},
        {"tool": "search_observations", "arguments": {"query": "Ben"}},
        {"tool": "done", "arguments": {"answer": "Ben commutes by bicycle.", "memory_ids": []}},
    ]
    result = client.reflect(bank, "How does Ben commute?", budget="mid")
    assert [(t["tool"], t.get("results")) for t in result.trace] == [
        ("recall", 3), ("expand", 1), ("search_observations", 0), ("done", None)]  # fmt: skip


def test_a_response_schema_makes_a_validated_object(client, script_server, bank):
    schema = {"type": "object", "required": ["pet", "name"], "additionalProperties": False,
              "properties": {"pet": {"type": "string"}, "name": {"type": "string"}}}  # fmt: skip
    script_server.script = [
        {"tool": "done", "arguments": {"answer": {"pet": "cat", "name": "Pixel"}, "memory_ids": []}}
    ]
    result = client.reflect(bank, "Ana's pet?", response_schema=schema)
    assert result.answer == {"pet": "cat", "name": "Pixel"}
    done = next(t for t in script_server.requests[0]["tools"] if t["function"]["name"] == "done")
    assert done["function"]["parameters"]["properties"]["answer"] == schema
    script_server.script = [{"tool": "done", "arguments": {"answer": {"pet": "cat"}, "memory_ids": []}}]
    with pytest.raises(ExtractionError, match="does not follow response_schema: 'name' is a required property"):
        client.reflect(bank, "Ana's pet?", response_schema=schema)


def test_no_language_model_and_bad_dispositions_are_refused(client, db):
    client.create_bank("plain")
    with pytest.raises(InvalidInputError, match="bank 'plain' has no language model to reflect with") as caught:
        client.reflect("plain", "anything")
    assert "llm_base_url" in (caught.value.hint or "")
    with pytest.raises(psycopg.errors.InvalidParameterValue, match='trait "empathy" must be an integer from 1 to 5'):
        db.execute("""SELECT hindsight.create_bank('x', config => '{"disposition": {"empathy": 7}}')""")
    with pytest.raises(psycopg.errors.InvalidParameterValue, match="directive 1 is not"):
        db.execute("""SELECT hindsight.create_bank('y', config => '{"directives": [{"content": "no name"}]}')""")


def test_mental_models_refresh_keep_history_and_are_searchable(client, db, script_server, bank):
    model = client.create_mental_model(bank, "pets", "What pets do people here have?", tags=[], max_tokens=1024)
    assert (model.name, model.content, model.last_refreshed_at, model.history) == ("pets", None, None, [])
    with pytest.raises(InvalidInputError, match='already has a mental model named "pets"'):
        client.create_mental_model(bank, "pets", "again?")
    script_server.script = [
        {"tool": "recall", "arguments": {"query": "Ana adopted a grey cat named Pixel"}},
        {"tool": "done", "arguments": {"answer": "Ana has a cat, Pixel.", "memory_ids": ["$first"]}},
    ]
    first = client.refresh_mental_model(bank, "pets")
    assert first.content == "Ana has a cat, Pixel." and first.last_refreshed_at is not None and first.history == []
    (cat_id,) = first.based_on
    assert db.execute("SELECT text FROM hindsight.memory_units WHERE id = %s", (cat_id,)).fetchone() == (
        "Ana adopted a grey cat named Pixel.",)  # fmt: skip
    assert script_server.requests[0]["messages"][1]["content"] == "What pets do people here have?"
    script_server.script = [{"tool": "done", "arguments": {"answer": "Ana has a grey cat.", "memory_ids": []}}]
    second = client.refresh_mental_model(bank, "pets")
    assert second.content == "Ana has a grey cat." and second.based_on == []
    (earlier,) = second.history
    assert earlier["content"] == "Ana has a cat, Pixel."
    assert datetime.fromisoformat(earlier["refreshed_at"]) == first.last_refreshed_at
    # reflect finds it with its tool
    script_server.script = [
        {"tool": "search_mental_models", "arguments": {"query": "cats"}},
        {"tool": "done", "arguments": {"answer": "A grey cat.", "memory_ids": ["$first"]}},
    ]
    result = client.reflect(bank, "What cat is there?")
    assert [(m["text"], m["fact_type"]) for m in result.based_on] == [("pets: Ana has a grey cat.", "mental_model")]
    assert [m.name for m in client.list_mental_models(bank)] == ["pets"]
    assert client.delete_mental_model(bank, "pets") and not client.delete_mental_model(bank, "pets")
    with pytest.raises(InvalidInputError, match='has no mental model named "pets"'):
        client.get_mental_model(bank, "pets")


def _sql_reflect(db, *args, **named):
    params = ", ".join(["%s"] * len(args) + [f"{k} => %s" for k in named])
    return db.execute(f"SELECT * FROM hindsight.reflect({params})", (*args, *named.values())).fetchone()


def test_sql_reflect_runs_the_drivers_loop_inside_the_database(client, db, script_server, bank):
    script = [
        {"tool": "recall", "arguments": {"query": "Which pet does Ana have?"}},
        {"tool": "expand", "arguments": {"memory_id": "$first"}},
        {"tool": "done", "arguments": {"answer": "Ana has a grey cat named **Pixel**.",
                                       "memory_ids": ["$first", "00000000-0000-0000-0000-000000000000"]}},
    ]  # fmt: skip
    script_server.script = [dict(turn) for turn in script]
    from_driver = client.reflect(bank, "What pet does Ana have?")
    driver_requests, script_server.requests = script_server.requests, []
    script_server.script = [dict(turn) for turn in script]
    answer, structured, based_on, usage, trace = _sql_reflect(db, bank, "What pet does Ana have?")
    assert answer == "Ana has a grey cat named **Pixel**." and structured is None
    assert [(m["text"], m["fact_type"]) for m in based_on] == [("Ana adopted a grey cat named Pixel.", "world")]
    assert [m["id"] for m in based_on] == [m["id"] for m in from_driver.based_on]  # the same recall, in the database
    assert [(t["tool"], t.get("results")) for t in trace] == [("recall", 3), ("expand", 1), ("done", None)]
    assert trace == from_driver.trace
    assert [(u["purpose"], u["model"], u["prompt_tokens"]) for u in usage] == [("reflect", "reflect-model", 300)] * 3
    # the same requests reach the model: prompt, tools, tool results
    assert [r["messages"] for r in script_server.requests] == [r["messages"] for r in driver_requests]
    assert script_server.requests[0]["tools"] == driver_requests[0]["tools"]
    system = script_server.requests[0]["messages"][0]["content"]
    assert system == render_system_prompt(client.get_bank(bank).config) and DISPOSITION["skepticism"][5] in system


def test_sql_reflect_structured_answers_budgets_and_errors(db, script_server, bank):
    schema = {"type": "object", "required": ["pet"], "properties": {"pet": {"type": "string"}}}
    script_server.script = [{"tool": "done", "arguments": {"answer": {"pet": "cat"}, "memory_ids": []}}]
    answer, structured, based_on, _, _ = _sql_reflect(db, bank, "Ana's pet?", response_schema=json.dumps(schema))
    assert structured == {"pet": "cat"} and json.loads(answer) == {"pet": "cat"} and based_on == []
    script_server.script = [{"tool": "done", "arguments": {"answer": {"animal": "cat"}, "memory_ids": []}}]
    with pytest.raises(psycopg.Error, match="does not follow response_schema: 'pet' is a required property") as caught:
        _sql_reflect(db, bank, "Ana's pet?", response_schema=json.dumps(schema))
    assert caught.value.sqlstate == "HS503"
    with pytest.raises(psycopg.errors.InvalidParameterValue, match="response_schema is not a JSON schema"):
        _sql_reflect(db, bank, "Ana's pet?", response_schema='{"type": "kitten"}')
    with pytest.raises(psycopg.errors.InvalidParameterValue) as caught:
        _sql_reflect(db, bank, "Ana's pet?", budget="huge")
    assert (
        caught.value.diag.message_primary == 'unknown budget "huge": use one of low, mid, high'
    )  # no PL/Python prefix
    with pytest.raises(psycopg.errors.InvalidParameterValue, match="the question is blank"):
        _sql_reflect(db, bank, " ?! ")
    script_server.script = [{"tool": "recall", "arguments": {"query": f"try {i}"}} for i in range(9)]
    script_server.script.append({"tool": "done", "arguments": {"answer": "Ana runs.", "memory_ids": []}})
    assert _sql_reflect(db, bank, "What does Ana do?", budget="mid")[0] == "Ana runs."
    assert len(script_server.requests) == 2 + 10  # two calls above, then the mid budget's ten
    db.execute("SELECT hindsight.create_bank('plain')")
    with pytest.raises(psycopg.errors.InvalidParameterValue, match="bank 'plain' has no language model") as caught:
        _sql_reflect(db, "plain", "anything")
    assert "llm_base_url" in caught.value.diag.message_hint
    with pytest.raises(psycopg.Error) as caught:
        _sql_reflect(db, "nobody", "anything")
    assert (caught.value.sqlstate, caught.value.diag.message_primary) == ("HS404", 'unknown bank "nobody"')


def test_sql_model_calls_go_only_to_allowed_endpoints_for_ordinary_roles(client, db, script_server, bank):
    role = "reflect_writer"
    assert db.execute("SELECT count(*) FROM hindsight.consolidate(%s)", (bank,)).fetchone() == (0,)  # nothing to write
    runs = [("Ana ran 5 km in Riverside Park before work.", "2024-04-09"),
            ("Ana went running in Riverside Park this morning, about 5 km.", "2024-05-13")]  # fmt: skip
    # two more runs: consolidation now makes an observation, for the model to write
    client.retain_batch(bank, [{"content": t, "timestamp": f"{d}T07:00:00Z", "entities": ["Ana"]} for t, d in runs])
    db.execute(f"CREATE ROLE {role}")
    url = f"http://127.0.0.1:{script_server.server_port}/v1"
    db.execute("SELECT hindsight.create_bank('notes', config => %s)",
               (json.dumps({"extractor": "llm", "llm_base_url": url, "llm_model": "facts-model"}),))  # fmt: skip
    for bank_id in (bank, "notes"):
        db.execute("SELECT hindsight.grant_bank(%s, %s, 'write')", (bank_id, role))
    db.execute(f"SET ROLE {role}")
    with pytest.raises(psycopg.errors.InsufficientPrivilege) as caught:
        _sql_reflect(db, bank, "What pet does Ana have?")
    assert caught.value.diag.message_primary == f"the database may not call the language model at {url}"
    assert "set_setting('llm_endpoints'" in caught.value.diag.message_hint
    calls = [
        ("SELECT * FROM hindsight.consolidate(%s)", bank),
        ("SELECT * FROM hindsight._consolidate_with_llm(%s)", bank),  # the wrapper's body checks too
        ("SELECT * FROM hindsight.retain_text(%s, 'Ana: I moved to Lyon.')", "notes"),
    ]
    for statement, bank_id in calls:
        with pytest.raises(psycopg.errors.InsufficientPrivilege, match="may not call the language model"):
            db.execute(statement, (bank_id,))
    assert script_server.requests == []
    offline = db.execute("SELECT action, proof_count FROM hindsight.consolidate(%s, use_llm => false)", (bank,))
    assert offline.fetchall() == [("created", 3)]  # the three runs; without the model no endpoint is needed
    with pytest.raises(psycopg.errors.InsufficientPrivilege, match="only a superuser may change llm_endpoints"):
        db.execute("SELECT hindsight.set_setting('llm_endpoints', %s)", (json.dumps({"base_urls": [url]}),))
    db.execute("RESET ROLE")
    with pytest.raises(psycopg.errors.InvalidParameterValue, match="llm_endpoints must be"):
        db.execute("""SELECT hindsight.set_setting('llm_endpoints', '{"base_urls": "everything"}')""")
    db.execute("SELECT hindsight.set_setting('llm_endpoints', %s)", (json.dumps({"base_urls": [url + "/"]}),))
    db.execute(f"SET ROLE {role}")
    script_server.script = [
        {"tool": "recall", "arguments": {"query": "Ana adopted a grey cat named Pixel"}},
        {"tool": "done", "arguments": {"answer": "A cat.", "memory_ids": ["$first"]}},
    ]
    answer, _, based_on, _, _ = _sql_reflect(db, bank, "What pet does Ana have?")
    assert answer == "A cat." and [m["text"] for m in based_on] == ["Ana adopted a grey cat named Pixel."]
    db.execute("RESET ROLE")


def test_sql_refreshes_a_mental_model_with_reflect_in_the_database(db, script_server, bank):
    (made,) = db.execute("SELECT (hindsight.create_mental_model(%s, 'pets', 'Which pets?')).name", (bank,)).fetchone()
    assert made == "pets"
    script_server.script = [
        {"tool": "recall", "arguments": {"query": "Ana adopted a grey cat named Pixel"}},
        {"tool": "done", "arguments": {"answer": "Ana has a cat, Pixel.", "memory_ids": ["$first"]}},
    ]
    with db.cursor(row_factory=psycopg.rows.dict_row) as cur:
        first = cur.execute("SELECT * FROM hindsight.refresh_mental_model(%s, 'pets')", (bank,)).fetchone()
        assert first["content"] == "Ana has a cat, Pixel." and first["history"] == []
        assert script_server.requests[0]["messages"][1]["content"] == "Which pets?"
        (cat,) = first["based_on"]
        assert cur.execute("SELECT text FROM hindsight.memory_units WHERE id = %s", (cat,)).fetchone() == {
            "text": "Ana adopted a grey cat named Pixel."}  # fmt: skip
        script_server.script = [{"tool": "done", "arguments": {"answer": "Ana has a grey cat.", "memory_ids": []}}]
        second = cur.execute("SELECT * FROM hindsight.refresh_mental_model(%s, 'pets')", (bank,)).fetchone()
        assert (second["content"], second["based_on"]) == ("Ana has a grey cat.", [])
        assert second["last_refreshed_at"] >= first["last_refreshed_at"]
        (earlier,) = second["history"]
        assert earlier["content"] == "Ana has a cat, Pixel."
        assert datetime.fromisoformat(earlier["refreshed_at"]) == first["last_refreshed_at"]
        # the stored embedding is the content's: of two models, "a grey cat" is nearest this one
        cur.execute(
            "INSERT INTO hindsight.mental_models (bank_id, name, source_query, content, embedding)"
            " VALUES (%s, 'work', 'Jobs?', 'Ben works night shifts as a nurse.',"
            " (hindsight.embed(%s, ARRAY['Ben works night shifts as a nurse.']))[1])",
            (bank, bank),
        )
        nearest = cur.execute(
            "SELECT name FROM hindsight.nearest_mental_models(%s,"
            " (hindsight.embed(%s, ARRAY['a grey cat'], 'query'))[1])",
            (bank, bank),
        ).fetchall()
        assert nearest == [{"name": "pets"}, {"name": "work"}]
    with pytest.raises(psycopg.errors.InvalidParameterValue) as caught:
        db.execute("SELECT hindsight.refresh_mental_model(%s, 'plants')", (bank,))
    assert caught.value.diag.message_primary == 'bank "ana" has no mental model named "plants"'


def test_sql_creates_and_deletes_mental_models_with_clear_errors(db, bank):
    made = db.execute(
        "SELECT name, source_query, tags, max_tokens, content FROM hindsight.create_mental_model(%s, 'pets', "
        "'Which pets?', tags => ARRAY['home'], max_tokens => 512)",
        (bank,),
    ).fetchone()
    assert made == ("pets", "Which pets?", ["home"], 512, None)
    refused = [
        ("SELECT hindsight.create_mental_model(%s, 'pets', 'Again?')", psycopg.errors.InvalidParameterValue,
         'already has a mental model named "pets"'),
        ("SELECT hindsight.create_mental_model(%s, '  ', 'Which pets?')", psycopg.errors.InvalidParameterValue,
         "needs a name and a source query"),
        ("SELECT hindsight.create_mental_model(%s, 'p', 'Q?', max_tokens => 0)", psycopg.errors.InvalidParameterValue,
         "max_tokens must be a positive integer"),
        (f"SELECT hindsight.create_mental_model(%s, 'long', '{'x' * 2001}')", psycopg.errors.ProgramLimitExceeded,
         "2,001 characters"),
    ]  # fmt: skip
    for statement, error, message in refused:
        with pytest.raises(error, match=message):
            db.execute(statement, (bank,))
    with pytest.raises(psycopg.Error) as unknown:
        db.execute("SELECT hindsight.create_mental_model('no-such-bank', 'pets', 'Which pets?')")
    assert unknown.value.sqlstate == "HS404"
    assert db.execute("SELECT count(*) FROM hindsight.mental_models").fetchone() == (1,)  # nothing else was made
    assert db.execute("SELECT hindsight.delete_mental_model(%s, 'pets')", (bank,)).fetchone() == (True,)
    assert db.execute("SELECT hindsight.delete_mental_model(%s, 'pets')", (bank,)).fetchone() == (False,)
