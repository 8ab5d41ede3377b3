"""One behaviour in every interface: an empty query, the default number of entities, the CLI's
help, the ports of the two servers. SQL, the driver, the CLI, MCP and the inspector against the test database."""

from __future__ import annotations

import html
import json
import re

import anyio
import pytest
from mcp.server.mcpserver.exceptions import ToolError
from starlette.testclient import TestClient
from typer.testing import CliRunner

from hindsight_pg import BankNotFoundError, InvalidInputError, cli
from hindsight_pg._client import DEFAULT_ENTITY_LIMIT
from hindsight_pg._mcp import build_server
from hindsight_pg.ui import create_app

BLANK = ["", "   ", "?!", "\n\t...", "\x00"]  # nothing with a letter or digit in it


def invoke(*args: str):
    result = CliRunner().invoke(cli.app, list(args), prog_name="hindsight-pg", env={"COLUMNS": "200"})
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result


def call_tool(client, name: str, arguments: dict):
    """A tool of the MCP server (the server the CLI serves) on the test's client; its structured result."""
    server = build_server(lambda: client)
    result = anyio.run(server.call_tool, name, arguments)
    return result.structured_content["result"]


@pytest.fixture
def team(client):
    client.create_bank("team")
    client.retain("team", "Priya leads Project Falcon.", timestamp="2025-01-13T10:30:00Z")
    return "team"


@pytest.mark.parametrize("query", BLANK, ids=repr)
def test_an_empty_query_finds_nothing_everywhere(client, db, team, query, monkeypatch):
    sql_query = query.replace("\x00", "")  # PostgreSQL text holds no NUL; the driver drops it (clean_text)
    assert db.execute("SELECT count(*) FROM hindsight.recall('team', %s)", (sql_query,)).fetchone() == (0,)
    assert client.recall(team, query).results == []
    monkeypatch.setenv("HINDSIGHT_PG_DSN", db.info.dsn)
    if "\x00" not in query:  # an argument of a process cannot hold a NUL
        shown = invoke("recall", team, query)
        assert shown.exit_code == 0 and shown.stdout.strip() == "(no memories)"
        assert "nothing to search for" in shown.stderr
        as_json = invoke("recall", team, query, "--json")
        assert as_json.exit_code == 0 and json.loads(as_json.stdout)["results"] == []
    assert call_tool(client, "recall", {"bank_id": team, "query": query}) == []


def test_an_empty_query_is_still_checked(client, db, team):
    # the checks SQL makes before it finds nothing, made by the driver, the CLI and MCP alike
    with pytest.raises(BankNotFoundError, match='unknown bank "nowhere"'):
        client.recall("nowhere", "")
    with pytest.raises(InvalidInputError, match='unknown budget "huge"'):
        client.recall(team, "  ", budget="huge")
    with pytest.raises(InvalidInputError, match="2,001 characters, more than the 2,000 allowed"):
        client.recall(team, " " * 2001)
    traced = client.recall(team, "?", trace=True)  # the trace SQL's recall_json gives for it
    assert traced.results == [] and traced.trace is not None
    result = CliRunner().invoke(cli.app, ["recall", "nowhere", "", "--dsn", db.info.dsn])
    assert isinstance(result.exception, BankNotFoundError)  # main() prints it as one line and exits 1
    with pytest.raises(ToolError, match=r'unknown bank "nowhere".*call the create_bank tool'):
        call_tool(client, "recall", {"bank_id": "nowhere", "query": ""})
    # a meaningful query still finds its memory, in every interface
    assert [r.text for r in client.recall(team, "Who leads Falcon?").results] == ["Priya leads Project Falcon."]


def test_one_default_number_of_entities(client, db, monkeypatch):
    assert DEFAULT_ENTITY_LIMIT == 20
    names = [f"Person{i:02d}" for i in range(DEFAULT_ENTITY_LIMIT + 5)]
    client.create_bank("crowd")
    client.retain("crowd", "The whole team met on Monday.", entities=names)
    assert db.execute("SELECT count(*) FROM hindsight.entities WHERE bank_id = 'crowd'").fetchone()[0] >= 25

    assert len(client.list_entities("crowd")) == 20
    monkeypatch.setenv("HINDSIGHT_PG_DSN", db.info.dsn)
    assert len(invoke("entities", "crowd").stdout.strip().splitlines()) == 20
    assert len(call_tool(client, "list_entities", {"bank_id": "crowd"})) == 20
    page = TestClient(create_app(db.info.dsn), base_url="http://127.0.0.1").get("/banks/crowd/entities").text
    graph = json.loads(html.unescape(re.search(r'<script id="graph-data"[^>]*>(.*?)</script>', page, re.S)[1]))
    assert len(graph["nodes"]) == 20
    # and each still takes another number when asked
    assert len(client.list_entities("crowd", limit=3)) == 3
    assert len(invoke("entities", "crowd", "--limit", "3").stdout.strip().splitlines()) == 3
    assert len(call_tool(client, "list_entities", {"bank_id": "crowd", "limit": 3})) == 3


COMMANDS = ["retain", "recall", "entities", "consolidate", "reflect", "banks", "config", "reembed", "import-locomo",
            "demo", "mcp", "serve-models", "ui", "server start", "mental-model create", "mental-model refresh",
            "mental-model list", "mental-model delete"]  # fmt: skip


# typer's own placeholders: <str>, <int range>, <list[str]>, <path>, and {bank} for an argument
TYPE_PLACEHOLDER = r"<(?:str|int|float|bool|path|datetime|(?:int|float) range|list\[\w+\])>|\{[a-z_]+\}"


def test_help_names_values_not_python_types():
    for command in COMMANDS:
        output = invoke(*command.split(), "--help").stdout
        assert not re.search(TYPE_PLACEHOLDER, output), (command, output)
    recall = invoke("recall", "--help").stdout
    assert "Usage: hindsight-pg recall [OPTIONS] BANK QUERY" in recall
    for shown in ["--tag TAG", "--type TYPE", "--limit N", "--max-tokens N", "--budget LEVEL", "--at TIME",
                  "--dsn DSN", "  BANK ", "  QUERY "]:  # fmt: skip
        assert shown in recall, shown
    assert "Usage: hindsight-pg config [OPTIONS] BANK [SETTINGS]..." in invoke("config", "--help").stdout


def test_the_mcp_server_and_the_inspector_listen_on_different_ports():
    mcp, ui = invoke("mcp", "--help").stdout, invoke("ui", "--help").stdout
    assert re.search(r"--port PORT +Port to listen on with --http\. +\[default: 8766\]", mcp)
    assert re.search(r"--port PORT +Port to listen on\. +\[default: 8765\]", ui)
