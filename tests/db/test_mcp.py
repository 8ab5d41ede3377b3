"""The MCP server, driven by the MCP SDK's own client over stdio."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import anyio
import pytest
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

pytestmark = pytest.mark.slow

CLI = str(Path(sys.executable).parent / "hindsight-pg")


WRONG_TYPES = [
    ("recall", {"bank_id": "agent", "query": "Falcon", "max_results": "ten"}),
    ("recall", {"bank_id": 5, "query": "Falcon", "max_tokens": 1.5}),
    ("recall", {"bank_id": "agent"}),
    ("retain", {"bank_id": "agent", "content": "x", "tags": "urgent"}),
    ("retain", {"bank_id": "agent", "content": "x", "tags": ["ok", 2]}),
]
WRONG_TYPE_ERRORS = [
    'recall: argument max_results takes an integer >= 1, not "ten"',
    "recall: argument bank_id takes a string, not 5; argument max_tokens takes an integer >= 0, not 1.5",
    "recall: argument query is required (a string)",
    'retain: argument tags takes a list of strings or null, not "urgent"',
    "retain: argument tags takes a list of strings or null (item 1 is 2)",
]


def test_list_tools_retain_two_facts_recall_one_reflect(db, script_server):
    params = StdioServerParameters(command=CLI, args=["mcp", "--dsn", db.info.dsn])
    url = f"http://127.0.0.1:{script_server.server_port}/v1"
    db.execute("SELECT hindsight.create_bank('agent', config => %s)",
               (json.dumps({"llm_base_url": url, "llm_model": "reflect-model"}),))  # fmt: skip
    script_server.script = [
        {"tool": "recall", "arguments": {"query": "Falcon lead"}},
        {"tool": "done", "arguments": {"answer": "Priya leads Falcon.", "memory_ids": ["$first"]}},
    ]

    async def session() -> dict:
        async with stdio_client(params) as (read, write), ClientSession(read, write) as mcp:
            await mcp.initialize()
            tools = {t.name: t for t in (await mcp.list_tools()).tools}
            await mcp.call_tool("retain", {"bank_id": "agent", "content": "Priya leads Project Falcon.",
                                           "entities": ["Priya"], "timestamp": "2025-01-13T10:30:00Z"})  # fmt: skip
            await mcp.call_tool("retain", {"bank_id": "agent", "content": "Tom goes bouldering on Saturdays."})
            recalled = await mcp.call_tool(
                "recall", {"bank_id": "agent", "query": "Who leads Falcon?", "max_results": 1}
            )
            asked = {"bank_id": "agent", "query": "Bouldering, or anything else last week?"}
            as_of = [await mcp.call_tool("recall", {**asked, **extra}) for extra in ({}, {"as_of": "2025-01-20"})]
            bad_as_of = await mcp.call_tool("recall", {**asked, "as_of": "next tuesday"})
            entities = await mcp.call_tool("list_entities", {"bank_id": "agent"})
            missing = await mcp.call_tool("recall", {"bank_id": "nowhere", "query": "anything"})
            too_long = await mcp.call_tool("recall", {"bank_id": "agent", "query": "x" * 2001})
            longest = await mcp.call_tool("recall", {"bank_id": "agent", "query": "Who leads Falcon? " * 111})
            reflected = await mcp.call_tool("reflect", {"bank_id": "agent", "query": "Who leads Falcon?"})
            wrong = [await mcp.call_tool(tool, arguments) for tool, arguments in WRONG_TYPES]
            return {"tools": tools, "recalled": recalled, "entities": entities, "missing": missing, "as_of": as_of,
                    "bad_as_of": bad_as_of,
                    "reflected": reflected, "too_long": too_long, "longest": longest, "wrong": wrong}  # fmt: skip

    out = anyio.run(session)
    assert set(out["tools"]) == {"retain", "recall", "reflect", "list_banks", "create_bank", "list_entities",
                                 "update_memory", "delete_memory"}  # fmt: skip
    schema = out["tools"]["retain"].input_schema
    assert all(prop.get("description") for prop in schema["properties"].values())  # every argument documented
    assert schema["required"] == ["bank_id", "content"]
    (item,) = out["recalled"].structured_content["result"]
    assert item["text"] == "Priya leads Project Falcon." and item["rank"] == 1
    # no date in the text: undated, said that day (docs/reference.md#a-units-dates); the instants beside the text
    assert (item["when"], item["said"], item["about_start"], item["about_end"]) == (
        "said 2025-01-13", "2025-01-13T10:30:00+00:00", None, None)  # fmt: skip
    # as_of is the question's time: asked on 20 January 2025, last week holds Priya's message and it ranks first;
    # asked now, last week holds neither and the text decides
    firsts = [call.structured_content["result"][0]["text"] for call in out["as_of"]]
    assert firsts == ["Tom goes bouldering on Saturdays.", "Priya leads Project Falcon."]
    assert (
        out["bad_as_of"].is_error and "'next tuesday' is not an ISO 8601 date-time" in out["bad_as_of"].content[0].text
    )
    assert "Priya" in out["entities"].content[0].text
    assert out["missing"].is_error and 'unknown bank "nowhere"' in out["missing"].content[0].text
    assert "call the create_bank tool" in out["missing"].content[0].text
    assert out["too_long"].is_error  # the limit every interface shares, named
    assert "query has 2,001 characters, more than the 2,000 allowed (query_chars)" in out["too_long"].content[0].text
    # a question of 1,998 characters is read (the reader cuts it to its share of a pair)
    assert not out["longest"].is_error and out["longest"].structured_content["result"][0]["text"].startswith("Priya")
    # arguments of the wrong type: one line naming the argument and what it takes, not pydantic's report
    assert [(w.is_error, w.content[0].text) for w in out["wrong"]] == [(True, text) for text in WRONG_TYPE_ERRORS]
    reflected = out["reflected"].structured_content
    assert reflected["answer"] == "Priya leads Falcon."
    assert [(m["text"], m["when"], m["said"]) for m in reflected["based_on"]] == [
        ("Priya leads Project Falcon.", "said 2025-01-13", "2025-01-13T10:30:00+00:00")]  # fmt: skip


def test_an_agent_corrects_one_memory_and_forgets_another(db):
    params = StdioServerParameters(command=CLI, args=["mcp", "--dsn", db.info.dsn])

    async def session() -> dict:
        async with stdio_client(params) as (read, write), ClientSession(read, write) as mcp:
            await mcp.initialize()
            for content in ("Priya leads Project Falcon.", "Tom goes bouldering on Saturdays."):
                await mcp.call_tool("retain", {"bank_id": "agent", "content": content, "timestamp": "2025-01-13"})
            found = await mcp.call_tool("recall", {"bank_id": "agent", "query": "Who leads Falcon?", "max_results": 1})
            falcon = found.structured_content["result"][0]["id"]
            updated = await mcp.call_tool("update_memory", {"bank_id": "agent", "memory_id": falcon,
                                                            "text": "Marta took over Project Falcon in March.",
                                                            "tags": ["work"]})  # fmt: skip
            bouldering = await mcp.call_tool("recall", {"bank_id": "agent", "query": "bouldering", "max_results": 1})
            forget = {"bank_id": "agent", "memory_id": bouldering.structured_content["result"][0]["id"]}
            gone, again = [await mcp.call_tool("delete_memory", forget) for _ in range(2)]
            unknown = await mcp.call_tool("update_memory",
                                          {"bank_id": "agent", "memory_id": "not-an-id", "text": "x"})  # fmt: skip
            left = await mcp.call_tool("recall", {"bank_id": "agent", "query": "Who leads Falcon?"})
            unrelated = await mcp.call_tool("recall", {"bank_id": "agent", "query": "What is the capital of Peru?",
                                                       "min_relevance": 0.5})  # fmt: skip
            return {"updated": updated, "gone": gone, "again": again, "unknown": unknown, "left": left,
                    "unrelated": unrelated}  # fmt: skip

    out = anyio.run(session)
    updated = out["updated"].structured_content
    assert updated["text"] == "Marta took over Project Falcon in March." and updated["tags"] == ["work"]
    assert "Marta" in updated["entities"] and "Priya" not in updated["entities"]
    assert out["gone"].structured_content["deleted"] is True and out["again"].structured_content["deleted"] is False
    assert out["unknown"].is_error and "memory_id 'not-an-id' is not a UUID" in out["unknown"].content[0].text
    (marta,) = out["left"].structured_content["result"]
    assert marta["text"] == "Marta took over Project Falcon in March." and 0.1 < marta["relevance"] <= 1
    # the same memory, asked about something else, is below a floor: nothing comes back
    assert out["unrelated"].structured_content["result"] == []
    assert [c.text for c in out["unrelated"].content] == ["[]"]  # said in the text a host reads, too


def test_streamable_http(db):
    import socket
    import subprocess
    import time

    from mcp.client.streamable_http import streamable_http_client

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = subprocess.Popen(
        [CLI, "mcp", "--http", "--port", str(port), "--dsn", db.info.dsn],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 60
        while True:
            with socket.socket() as probe:
                if probe.connect_ex(("127.0.0.1", port)) == 0:
                    break
            assert server.poll() is None, server.stderr.read()
            assert time.monotonic() < deadline
            time.sleep(0.2)

        async def session() -> list[str]:
            async with streamable_http_client(f"http://127.0.0.1:{port}/mcp") as streams:
                read, write = streams[0], streams[1]
                async with ClientSession(read, write) as mcp:
                    await mcp.initialize()
                    await mcp.call_tool("create_bank", {"bank_id": "over-http"})
                    banks = await mcp.call_tool("list_banks", {})
                    return [b["bank_id"] for b in banks.structured_content["result"]]

        assert anyio.run(session) == ["over-http"]
    finally:
        server.terminate()
        server.wait(timeout=30)
