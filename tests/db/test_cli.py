"""The hindsight-pg command line against the test database."""

from __future__ import annotations

import json
import sys

import pytest
from typer.testing import CliRunner

from hindsight_pg import BankExistsError, BankNotFoundError, ExtractionError, InvalidInputError, cli

runner = CliRunner()


@pytest.fixture
def dsn(db, monkeypatch):
    monkeypatch.setenv("HINDSIGHT_PG_DSN", db.info.dsn)
    return db.info.dsn


def invoke(*args: str, input: str | None = None):
    result = runner.invoke(cli.app, list(args), input=input, env={"COLUMNS": "200"})
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result


def test_retain_recall_and_banks(dsn, tmp_path):
    turns = tmp_path / "chat.json"
    turns.write_text(
        json.dumps(
            [
                {
                    "speaker": "Maya",
                    "text": "Priya is the tech lead of Project Falcon.",
                    "timestamp": "2025-01-13T10:30:00Z",
                },
                {
                    "speaker": "Tom",
                    "text": "Most Saturdays I go bouldering to switch off.",
                    "timestamp": "2025-01-24T17:05:00Z",
                },
            ]
        )
    )
    result = invoke("retain", "team", str(turns), "--tag", "work")
    assert result.exit_code == 0, result.output
    assert "retained 2 item(s) as 2 memory unit(s) in bank 'team'" in result.output

    result = invoke("retain", "team", "-", "--context", "notes", input="Lena works on the Orion robot.\n")
    assert result.exit_code == 0, result.output

    result = invoke("recall", "team", "Who leads Falcon?", "--json", "--limit", "2")
    assert result.exit_code == 0, result.output
    response = json.loads(result.output)
    top = response["results"][0]
    assert top["text"] == "Maya: Priya is the tech lead of Project Falcon."
    assert (top["tags"], top["mentioned_at"]) == (["work"], "2025-01-13T10:30:00+00:00")
    assert (top["occurred_start"], top["when"]) == (None, "said 2025-01-13")  # no date in the text: undated
    assert len(response["results"]) == 2 and response["trace"] is None

    result = invoke("recall", "team", "Which robot does Lena work on?")
    assert result.exit_code == 0
    assert result.output.splitlines()[0].startswith(" 1. [")
    assert "Lena works on the Orion robot." in result.output.splitlines()[0]

    result = invoke("banks")
    assert result.output.split()[:3] == ["team", "3", "units"]


def test_errors_print_one_line_and_exit_1(db, dsn, monkeypatch, capsys):
    monkeypatch.setattr(sys, "argv", ["hindsight-pg", "recall", "ghost", "anything"])
    with pytest.raises(SystemExit) as info:
        cli.main()
    assert info.value.code == 1
    assert capsys.readouterr().err.strip().splitlines() == [
        'error: unknown bank "ghost" (hint: Retain into it (hindsight-pg retain BANK FILE creates it), or hindsight-pg'
        " config BANK --create.)"
    ]
    db.execute("SELECT hindsight.create_bank('real')")
    monkeypatch.setattr(sys, "argv", ["hindsight-pg", "recall", "real", "anything", "--budget", "huge"])
    with pytest.raises(SystemExit):
        cli.main()
    assert capsys.readouterr().err.startswith('error: unknown budget "huge"')


def test_recall_shows_ids_that_update_memory_and_delete_memory_take(dsn, db, monkeypatch, capsys):
    result = invoke("retain", "team", "-", "--timestamp", "2025-03-03T09:00:00",
                    input="Maya: Priya took over Project Falcon.\n\nTom: The standup moved to 10:00.\n")  # fmt: skip
    assert result.exit_code == 0, result.output
    result = invoke("recall", "team", "Who leads Falcon?", "--ids", "--limit", "1")
    line = result.output.strip()
    assert "Priya took over Project Falcon" in line
    memory_id = line.split()[-1]
    result = invoke("update-memory", "team", memory_id, "--text", "Maya: Marta took over Project Falcon on Friday.",
                    "--tag", "work", "--metadata", '{"source": "standup"}')  # fmt: skip
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    # said on Monday 3 March 2025, "took over ... on Friday" is the Friday before: dates read as of when it was said
    assert lines[0] == (f"updated {memory_id}  said 2025-03-03, about 2025-02-28  "
                        "Maya: Marta took over Project Falcon on Friday.")  # fmt: skip
    assert lines[1:] == ["  entities: Marta, Maya, Project Falcon", "  tags: work"]
    (metadata,) = db.execute("SELECT metadata FROM hindsight.memory_units WHERE id = %s", (memory_id,)).fetchone()
    assert metadata == {"source": "standup"}
    result = invoke("delete-memory", "team", memory_id)
    assert (result.exit_code, result.output.strip()) == (0, f"deleted {memory_id}")
    monkeypatch.setattr(sys, "argv", ["hindsight-pg", "delete-memory", "team", memory_id])
    with pytest.raises(SystemExit) as info:
        cli.main()
    assert info.value.code == 1
    hint = "(hint: hindsight-pg recall BANK QUERY --ids shows each memory's id.)"
    assert capsys.readouterr().err.strip() == f'error: bank "team" has no memory {memory_id} {hint}'
    # the same hint for an update of it, and for an id that is no UUID; nothing to change is said, not done
    for argv in (["update-memory", "team", memory_id, "--tag", "x"], ["delete-memory", "team", "abc"],
                 ["update-memory", "team", memory_id]):  # fmt: skip
        monkeypatch.setattr(sys, "argv", ["hindsight-pg", *argv])
        with pytest.raises(SystemExit):
            cli.main()
        err = capsys.readouterr().err
        assert hint in err or "nothing to change" in err, err
    monkeypatch.setattr(sys, "argv", ["hindsight-pg", "update-memory", "team", memory_id, "--metadata", "[1]"])
    with pytest.raises(SystemExit):
        cli.main()
    assert capsys.readouterr().err.startswith("error: --metadata must be a JSON object")
    monkeypatch.setattr(sys, "argv", ["hindsight-pg", "update-memory", "team", memory_id, "--metadata", "{bad"])
    with pytest.raises(SystemExit):
        cli.main()
    assert capsys.readouterr().err.startswith("error: --metadata is not JSON")


def test_a_markdown_file_keeps_its_headings_out_of_the_memories_and_as_their_context(dsn, db, tmp_path):
    notes = tmp_path / "notes.md"
    notes.write_text("# Notes\n\nPriya is the tech lead of Falcon.\n\n## Travel\n\nThe offsite is in Valencia.\n")
    result = invoke("retain", "notes", str(notes), "--context", "my notes")
    assert result.exit_code == 0, result.output
    query = "SELECT text, context FROM hindsight.memory_units WHERE bank_id = 'notes' ORDER BY text"
    rows = db.execute(query).fetchall()
    assert rows == [("Priya is the tech lead of Falcon.", "my notes › Notes"),
                    ("The offsite is in Valencia.", "my notes › Notes › Travel")]  # fmt: skip


def test_help_lists_every_command():
    result = invoke("--help")
    commands = "retain recall update-memory delete-memory banks server demo import-locomo entities mcp serve-models"
    for command in commands.split():
        assert command in result.output
    result = invoke("server", "--help")
    for command in ("start", "stop", "status"):
        assert command in result.output


def test_serve_models_refuses_a_missing_cross_encoder_before_listening(monkeypatch, capsys, tmp_path):
    missing = tmp_path / "no-model"
    monkeypatch.setattr(sys, "argv", ["hindsight-pg", "serve-models", "--reranker-model", str(missing)])
    with pytest.raises(SystemExit) as info:
        cli.main()
    assert info.value.code == 1
    assert capsys.readouterr().err.startswith(f"error: cross-encoder '{missing}' could not be loaded")


def test_entities_speaker_and_append(dsn, tmp_path):
    note = tmp_path / "note.txt"
    note.write_text("I met Priya at the Falcon kickoff in Lisbon.")
    result = invoke("retain", "diary", str(note), "--speaker", "assistant", "--timestamp", "2025-01-13T10:00:00")
    assert result.exit_code == 0, result.output
    more = tmp_path / "more.txt"
    more.write_text("Priya flew back from Lisbon on Friday.")
    result = invoke("retain", "diary", str(more), "--document-id", str(note.resolve()), "--append")
    assert result.exit_code == 0, result.output
    result = invoke("entities", "diary")
    assert result.exit_code == 0, result.output
    lines = [line.split() for line in result.output.splitlines()]  # the console prints tabs as spaces
    assert lines[0][:3] == ["Lisbon", "2", "units"] and lines[0][3].startswith("2025-01-13..")
    assert lines[0][4:6] == ["Priya", "(2),"]
    assert lines[1][:3] == ["Priya", "2", "units"]
    assert ["assistant", "1", "units"] in [line[:3] for line in lines]
    with pytest.raises(BankNotFoundError, match='unknown bank "ghost"'):
        invoke("entities", "ghost")


def test_consolidate_and_recall_preferring_observations(dsn, tmp_path):
    runs = [
        {"content": "Ana ran 5 km in Riverside Park before work.", "timestamp": "2024-01-09T07:00:00Z"},
        {"content": "Ana went running in Riverside Park this morning, about 5 km.",
         "timestamp": "2024-02-13T07:00:00Z"},
        {"content": "Ana did her usual 5 km run in Riverside Park before the office.",
         "timestamp": "2024-04-02T07:00:00Z"},
    ]  # fmt: skip
    items = tmp_path / "runs.json"
    items.write_text(json.dumps([{**r, "entities": ["Ana"]} for r in runs]))
    assert invoke("retain", "ana", str(items)).exit_code == 0
    result = invoke("consolidate", "ana")
    assert result.exit_code == 0, result.output
    (line,) = result.output.splitlines()
    assert line.split()[:3] == ["created", "3", "facts"]
    assert invoke("consolidate", "ana").output.strip() == "(nothing new to consolidate)"
    plain = json.loads(invoke("recall", "ana", "Where does Ana run?", "--json").output)
    preferred = json.loads(invoke("recall", "ana", "Where does Ana run?", "--json", "--prefer-observations").output)
    assert [r["fact_type"] for r in preferred["results"]] == ["observation"]
    (line,) = invoke("recall", "ana", "Where does Ana run?", "--prefer-observations").output.splitlines()
    # an observation was last said on its latest fact's day and is about the days of its facts
    assert "] said 2024-04-02, about 2024-01-09..2024-04-02  observation: Ana did her usual 5 km run" in line
    with pytest.raises(InvalidInputError, match="--at: 'yesterday' is not an ISO 8601 date-time"):
        invoke("recall", "ana", "Where does Ana run?", "--at", "yesterday")
    assert len(plain["results"]) == 4


def test_reflect_and_mental_models(dsn, db, tmp_path, script_server):
    url = f"http://127.0.0.1:{script_server.server_port}/v1"
    db.execute("SELECT hindsight.create_bank('ana', config => %s)",
               (json.dumps({"llm_base_url": url, "llm_model": "reflect-model"}),))  # fmt: skip
    note = tmp_path / "note.txt"
    note.write_text("Ana adopted a grey cat named Pixel.")
    assert invoke("retain", "ana", str(note), "--timestamp", "2024-02-01T18:00:00Z").exit_code == 0
    script_server.script = [
        {"tool": "recall", "arguments": {"query": "Ana's pet"}},
        {"tool": "done", "arguments": {"answer": "Ana has a cat, **Pixel**.", "memory_ids": ["$first"]}},
    ]
    result = invoke("reflect", "ana", "What pet does Ana have?", "--budget", "mid")
    assert result.exit_code == 0, result.output
    assert result.output.splitlines() == [
        "Ana has a cat, **Pixel**.", "", "Based on:",
        "  [world] said 2024-02-01  Ana adopted a grey cat named Pixel."]  # fmt: skip
    schema = tmp_path / "schema.json"
    schema.write_text(json.dumps({"type": "object", "required": ["pet"], "properties": {"pet": {"type": "string"}}}))
    script_server.script = [{"tool": "done", "arguments": {"answer": {"pet": "cat"}, "memory_ids": []}}]
    result = invoke("reflect", "ana", "Ana's pet?", "--schema", str(schema), "--json")
    assert result.exit_code == 0, result.output
    document = json.loads(result.output)
    assert document["answer"] == {"pet": "cat"} and [t["tool"] for t in document["trace"]] == ["done"]
    assert document["usage"][0]["model"] == "reflect-model"
    schema.write_text("{not json")
    with pytest.raises(InvalidInputError, match=r"--schema .*schema\.json: not valid JSON: Expecting property name"):
        invoke("reflect", "ana", "Ana's pet?", "--schema", str(schema))
    # mental models; a failed --refresh creates nothing
    db.execute("SELECT hindsight.configure_bank('ana', '{\"llm_base_url\": \"http://127.0.0.1:9/v1\"}')")
    with pytest.raises(ExtractionError, match="reflect by reflect-model failed") as caught:
        invoke("mental-model", "create", "ana", "pets", "Which pets?", "--refresh")
    assert "http://127.0.0.1:9/v1" in (caught.value.hint or "")
    assert db.execute("SELECT count(*) FROM hindsight.mental_models").fetchone() == (0,)
    db.execute("SELECT hindsight.configure_bank('ana', %s)", (json.dumps({"llm_base_url": url}),))
    script_server.script = [{"tool": "done", "arguments": {"answer": "Ana has a grey cat.", "memory_ids": []}}]
    result = invoke("mental-model", "create", "ana", "pets", "Which pets?", "--refresh")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].startswith("pets (20") and lines[0].endswith("): Which pets?")
    assert lines[1] == "  Ana has a grey cat."
    script_server.script = [{"tool": "done", "arguments": {"answer": "Ana has a cat named Pixel.", "memory_ids": []}}]
    assert invoke("mental-model", "refresh", "ana", "pets").output.splitlines()[1] == "  Ana has a cat named Pixel."
    assert db.execute("SELECT jsonb_array_length(history) FROM hindsight.mental_models").fetchone() == (1,)
    assert invoke("mental-model", "list", "ana").output.splitlines()[1] == "  Ana has a cat named Pixel."
    assert invoke("mental-model", "delete", "ana", "pets").output.strip() == "deleted pets"
    assert invoke("mental-model", "list", "ana").output.strip() == "(no mental models)"
    asked = len(script_server.requests)
    assert invoke("consolidate", "ana", "--no-llm").output.strip() == "(nothing new to consolidate)"
    assert len(script_server.requests) == asked
    with pytest.raises(InvalidInputError, match='has no mental model named "pets"'):
        invoke("mental-model", "delete", "ana", "pets")


def test_config_prints_changes_and_creates(dsn, db):
    result = invoke("config", "fresh", "llm_model=llama3.1:8b", "observation_similarity=0.9", "--create")
    assert result.exit_code == 0, result.output
    shown = json.loads(result.output)
    assert (shown["llm_model"], shown["observation_similarity"]) == ("llama3.1:8b", 0.9)
    result = invoke("config", "fresh", "observation_similarity=", "llm_base_url=http://localhost:11434/v1")
    shown = json.loads(result.output)
    # back to the default of the bank's model (E5's)
    assert (shown["observation_similarity"], shown["llm_base_url"]) == (0.94, "http://localhost:11434/v1")
    assert json.loads(invoke("config", "fresh").output) == shown
    with pytest.raises(InvalidInputError, match="'llm_model' is not KEY=VALUE"):
        invoke("config", "fresh", "llm_model")
    with pytest.raises(BankNotFoundError):
        invoke("config", "ghost", "llm_model=x")


def test_output_lines_are_not_wrapped_and_driver_hints_speak_python(dsn, client, tmp_path):
    long = "Priya said that the Falcon launch moves to the second week of September because of the audit. " * 2
    note = tmp_path / "long.txt"
    note.write_text(long.strip())
    assert invoke("retain", "wrap", str(note)).exit_code == 0
    result = runner.invoke(cli.app, ["recall", "wrap", "When does Falcon launch?"], env={"COLUMNS": "40"})
    (line,) = result.output.splitlines()  # one memory, one line, whatever the terminal width
    assert long.strip()[:60] in line
    with pytest.raises(BankExistsError) as caught:
        client.create_bank("wrap")
    assert caught.value.hint == "Pass exist_ok=True to reuse it."
    with pytest.raises(InvalidInputError, match="config must be a mapping of keys to values, not str"):
        client.configure_bank("wrap", "llm_model=x")


def test_cli_retain_that_fails_creates_no_bank(db, monkeypatch, tmp_path):
    monkeypatch.setenv("HINDSIGHT_PG_DSN", db.info.dsn)
    empty = tmp_path / "empty.txt"
    empty.write_text("  \n")
    result = CliRunner().invoke(cli.app, ["retain", "newbank", str(empty)])
    assert isinstance(result.exception, InvalidInputError)
    assert db.execute("SELECT count(*) FROM hindsight.banks").fetchone()[0] == 0
    listing = tmp_path / "none.json"
    listing.write_text("[]")
    result = CliRunner().invoke(cli.app, ["retain", "newbank", str(listing)])
    assert str(result.exception) == "nothing to retain: no items"
    result = CliRunner().invoke(cli.app, ["retain", "newbank", str(empty), "--timestamp", "last tuesday"])
    assert str(result.exception) == "--timestamp 'last tuesday' is not an ISO 8601 date-time"
