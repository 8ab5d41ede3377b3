"""A Model Context Protocol server: hindsight_pg's memory as tools for an agent.

``hindsight-pg mcp`` serves over stdio (the default, for agents that start it as a
subprocess) or streamable HTTP (``--http``), with the official MCP Python SDK. Tools:
retain, recall, reflect (for a bank whose config names a language model), list_banks,
create_bank, list_entities. Arguments past a limit of ``hindsight_pl.limits`` (a query over 2,000 characters,
content over 1,000,000, ...) are refused by the driver with a message that names the limit.
"""

from __future__ import annotations

import contextlib
import json
import threading
from collections.abc import Callable, Iterator
from datetime import datetime
from typing import Annotated, Any
from uuid import UUID

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp_types import CallToolResult, TextContent
from pydantic import Field, ValidationError

from hindsight_pl import __version__, limits

from ._client import DEFAULT_ENTITY_LIMIT, DEFAULT_MAX_RESULTS, DEFAULT_MIN_RELEVANCE, Client
from ._errors import BankNotFoundError, HindsightError, MemoryNotFoundError
from ._types import describe_when
from ._unit_dates import bank_time_zone, unit_dates

INSTRUCTIONS = (
    "Long-term memory in banks (one per user or agent). Call `retain` with anything worth remembering "
    "(a message, a fact, a note) and its time; call `recall` with a question to get the few memories that "
    "answer it, best first, within a token budget; `update_memory` corrects one and `delete_memory` forgets one "
    "(by the id recall gives). For a bank configured with a language model, `reflect` has that model answer a "
    "question from memory and cite what it used."
)


class _Server(MCPServer):
    """The SDK's server, with arguments that fail their schema refused in one line that names each argument
    and the type it takes (:func:`argument_errors`), not pydantic's report with its links; and an empty list
    (a recall that found nothing) said as ``[]`` in the text content too, where the SDK would send no content
    block at all and a host that reads text would see nothing."""

    async def call_tool(self, name: str, arguments: dict[str, Any], context: Context[Any, Any] | None = None) -> Any:
        try:
            result = await super().call_tool(name, arguments, context)
            if (
                isinstance(result, CallToolResult)
                and not result.content
                and result.structured_content == {"result": []}
            ):
                result.content = [TextContent(type="text", text="[]")]
            return result
        except ToolError as exc:
            if not isinstance(exc.__cause__, ValidationError):
                raise
            schema = next((tool.input_schema for tool in await self.list_tools() if tool.name == name), {})
            raise ToolError(f"{name}: {argument_errors(exc.__cause__, schema)}") from exc.__cause__


def argument_errors(error: ValidationError, schema: dict[str, Any]) -> str:
    """One line for a tool's arguments that failed its JSON ``schema``: each argument at fault once, with what it
    takes, e.g. ``argument limit takes an integer >= 1, not "ten"; argument query is required (a string)``."""
    parts: dict[str, str] = {}
    for problem in error.errors():
        argument = str(problem["loc"][0]) if problem["loc"] else "arguments"
        if argument in parts:
            continue
        takes = describe_type(schema.get("properties", {}).get(argument, {}), schema.get("$defs", {}))
        if problem["type"] == "missing":
            parts[argument] = f"argument {argument} is required ({takes})"
        elif len(problem["loc"]) > 1:  # an item of a list
            where = ".".join(str(part) for part in problem["loc"][1:])
            parts[argument] = f"argument {argument} takes {takes} (item {where} is {_shown(problem['input'])})"
        else:
            parts[argument] = f"argument {argument} takes {takes}, not {_shown(problem['input'])}"
    return "; ".join(parts.values())


def _shown(value: Any) -> str:
    """A rejected value as JSON, cut to 40 characters."""
    text = json.dumps(value, default=str)
    return text if len(text) <= 40 else text[:39] + "…"


def describe_type(schema: dict[str, Any], defs: dict[str, Any]) -> str:
    """A JSON schema's type in words: "a string", "an integer >= 1", "a list of strings", "a string or null"."""
    if "$ref" in schema:
        schema = defs.get(schema["$ref"].rsplit("/", 1)[-1], {})
    if "anyOf" in schema:
        kinds = [describe_type(s, defs) for s in schema["anyOf"] if s.get("type") != "null"]
        nullable = any(s.get("type") == "null" for s in schema["anyOf"])
        return " or ".join(kinds + (["null"] if nullable else []))
    kind = schema.get("type")
    if kind == "array":
        item = describe_type(schema.get("items", {}), defs)
        return f"a list of {item.removeprefix('a ').removeprefix('an ')}s" if item != "a value" else "a list"
    words = {"string": "a string", "integer": "an integer", "number": "a number", "boolean": "true or false",
             "object": "an object"}.get(kind or "", "a value")  # fmt: skip
    bounds = [f">= {schema['minimum']}"] if "minimum" in schema else []
    bounds += [f"<= {schema['maximum']}"] if "maximum" in schema else []
    return " ".join([words, *bounds])


def build_server(connect: Callable[[], Client]) -> MCPServer:
    """The MCP server over one client, opened on first use by ``connect``; calls are serialised."""
    lock = threading.Lock()
    holder: dict[str, Client] = {}

    def client() -> Client:
        if "client" not in holder:
            holder["client"] = connect()
        return holder["client"]

    @contextlib.contextmanager
    def serialised() -> Iterator[None]:
        """One call at a time on the connection; hindsight errors reach the agent as their message."""
        with lock:
            try:
                yield
            except BankNotFoundError as exc:  # the driver's hint names Python and the CLI; an agent has a tool
                raise ToolError(f"{exc.args[0]} (hint: call the create_bank tool first)") from exc
            except MemoryNotFoundError as exc:
                raise ToolError(f"{exc.args[0]} (hint: the recall tool gives each memory's id)") from exc
            except HindsightError as exc:
                raise ToolError(str(exc)) from exc

    server: MCPServer = _Server(name="hindsight-pg", instructions=INSTRUCTIONS, version=__version__)

    @server.tool()
    def retain(
        bank_id: Annotated[str, Field(description="Bank to store into; created if it does not exist.")],
        content: Annotated[
            str,
            Field(
                description="The text to remember: a message, a fact, a note, a document "
                f"(at most {limits.value('content_chars'):,} characters)."
            ),
        ],
        timestamp: Annotated[
            str | None, Field(description="When it was said or happened, ISO 8601 (default: now).")
        ] = None,
        context: Annotated[str | None, Field(description="Where it comes from, e.g. 'chat with Bob'.")] = None,
        tags: Annotated[list[str] | None, Field(description="Tags to filter recall by later.")] = None,
        entities: Annotated[
            list[str] | None, Field(description="Names of people, places or projects it mentions.")
        ] = None,
        document_id: Annotated[
            str | None, Field(description="Stable id: retaining the same id again replaces the memory.")
        ] = None,
        speaker: Annotated[
            str | None,
            Field(
                description="Who said or wrote it (unless the text is 'Name: ...' turns); 'assistant' marks "
                "the agent's own actions and words."
            ),
        ] = None,
    ) -> dict[str, Any]:
        """Remember content in a bank: its facts, with their dates and the people, places and projects they
        name. Returns the document id, how many facts (memory units) were stored, and the repeated facts that
        were stored as one of them ("merged": text, the unit it went into, why)."""
        with serialised():
            result = client().retain(
                bank_id, content, timestamp=timestamp, context=context, tags=tags or (), entities=entities or (),
                document_id=document_id, speaker=speaker, create_bank=True,
            )  # fmt: skip
        merged = [{"text": m.text, "into": str(m.unit_id), "reason": m.reason} for m in result.merged]
        return {"bank_id": bank_id, "document_id": result.document_ids[0], "units": len(result.unit_ids),
                "merged": merged}  # fmt: skip

    @server.tool()
    def recall(
        bank_id: Annotated[str, Field(description="Bank to search.")],
        query: Annotated[
            str,
            Field(
                description="The question or cue, in natural language "
                f"(at most {limits.value('query_chars'):,} characters)."
            ),
        ],
        max_tokens: Annotated[
            int, Field(description="Token budget of the memories returned (cl100k_base).", ge=0)
        ] = 1024,
        budget: Annotated[
            str, Field(description="Search effort: low, mid or high (100 / 300 / 1000 candidates per arm).")
        ] = "mid",
        tags: Annotated[list[str] | None, Field(description="Only memories with any of these tags.")] = None,
        max_results: Annotated[int, Field(description="At most this many memories.", ge=1)] = DEFAULT_MAX_RESULTS,
        min_relevance: Annotated[
            float | None,
            Field(
                description="Only memories at least this likely (0 to 1) to answer the query; 'relevance' of each "
                "result is that probability, comparable across recalls.",
                ge=0,
                le=1,
            ),
        ] = DEFAULT_MIN_RELEVANCE,
        as_of: Annotated[
            str | None,
            Field(
                description="When the question is asked, ISO 8601 (default: now): 'last week', 'recently' and "
                "'now' are read from it, and recency counts back from it."
            ),
        ] = None,
    ) -> list[dict[str, Any]]:
        """Find the memories of a bank that answer a query, best first. Each has its text, its dates ("when":
        "said 2025-02-26, about 2025-04-01" for a memory said one day about another, one date when they are
        the same day, "said 2025-02-26" for an undated one; "said", "about_start", "about_end" as ISO 8601
        times), context, relevance (the probability that it answers, comparable across recalls: threshold it with
        min_relevance), score (comparable within one recall only) and id."""
        with serialised():
            response = client().recall(bank_id, query, max_tokens=max_tokens, budget=budget, tags=tags,
                                       max_results=max_results, min_relevance=min_relevance,
                                       query_timestamp=as_of)  # fmt: skip
            zone = bank_time_zone(client(), bank_id)
        return [
            {"rank": r.rank, "text": r.text, **dates(r.mentioned_at, r.occurred_start, r.occurred_end, zone),
             "context": r.context, "relevance": None if r.relevance is None else round(r.relevance, 4),
             "score": round(r.scores.final, 4), "id": str(r.id)}
            for r in response.results
        ]  # fmt: skip

    @server.tool()
    def update_memory(
        bank_id: Annotated[str, Field(description="Bank that holds the memory.")],
        memory_id: Annotated[str, Field(description="The memory's id, as recall gives it.")],
        text: Annotated[
            str | None, Field(description="The corrected text (its names and dates are read again).")
        ] = None,
        tags: Annotated[list[str] | None, Field(description="Its tags, replacing the old ones.")] = None,
        about_start: Annotated[
            str | None, Field(description="When what it says happened, ISO 8601 (start of the span).")
        ] = None,
        about_end: Annotated[str | None, Field(description="When what it says happened, ISO 8601 (end).")] = None,
    ) -> dict[str, Any]:
        """Correct one memory of a bank: a new text, tags or dates (what is not given stays). Returns the memory
        as it is now: its text, dates ("when", as recall gives them), entities and tags."""
        with serialised():
            memory = client().update_memory(bank_id, memory_uuid(memory_id), text=text, tags=tags,
                                            occurred_start=about_start, occurred_end=about_end)  # fmt: skip
            zone = bank_time_zone(client(), bank_id)
        return {"id": str(memory.id), "text": memory.text,
                **dates(memory.mentioned_at, memory.occurred_start, memory.occurred_end, zone),
                "entities": memory.entities, "tags": memory.tags}  # fmt: skip

    @server.tool()
    def delete_memory(
        bank_id: Annotated[str, Field(description="Bank that holds the memory.")],
        memory_id: Annotated[str, Field(description="The memory's id, as recall gives it.")],
    ) -> dict[str, Any]:
        """Forget one memory of a bank (a wrong or outdated fact): it is deleted with its links, and what it had
        replaced is current again. Returns whether there was such a memory."""
        with serialised():
            deleted = client().delete_memory(bank_id, memory_uuid(memory_id))
        return {"id": memory_id, "deleted": deleted}

    @server.tool()
    def reflect(
        bank_id: Annotated[str, Field(description="Bank to answer from; its config must name a language model.")],
        query: Annotated[
            str,
            Field(
                description=f"The question, in natural language (at most {limits.value('query_chars'):,} characters)."
            ),
        ],
        budget: Annotated[
            str, Field(description="Effort: low, mid or high (at most 5 / 10 / 20 model calls).")
        ] = "low",
        tags: Annotated[list[str] | None, Field(description="Only memories with any of these tags.")] = None,
    ) -> dict[str, Any]:
        """Answer a question from a bank's memory with the bank's language model, which looks memories up
        itself; returns the answer (Markdown) and the memories it rests on (id, text and dates, as recall
        gives them)."""
        with serialised():
            result = client().reflect(bank_id, query, budget=budget, tags=tags)
            zone = bank_time_zone(client(), bank_id)
            found = {
                unit: dates(*when, zone)
                for unit, when in unit_dates(client(), bank_id, (m["id"] for m in result.based_on)).items()
            }
        # a cited mental model or source is no memory unit: no dates
        undated = {"when": None, "said": None, "about_start": None, "about_end": None}
        based_on = [{"id": m["id"], "text": m["text"], **found.get(m["id"], undated)} for m in result.based_on]
        return {"answer": result.answer, "based_on": based_on}

    @server.tool()
    def list_banks() -> list[dict[str, Any]]:
        """The memory banks this connection may use, with their sizes."""
        with serialised():
            banks = client().list_banks()
        return [{"bank_id": b.bank_id, "name": b.name, "units": b.unit_count} for b in banks]

    @server.tool()
    def create_bank(
        bank_id: Annotated[str, Field(description="Id of the new bank (at most 200 characters).")],
        name: Annotated[str | None, Field(description="A human-readable name.")] = None,
    ) -> dict[str, Any]:
        """Create a memory bank (nothing happens if it exists)."""
        with serialised():
            bank = client().create_bank(bank_id, name=name, exist_ok=True)
        return {"bank_id": bank.bank_id, "name": bank.name, "units": bank.unit_count}

    @server.tool()
    def list_entities(
        bank_id: Annotated[str, Field(description="Bank whose entities to list.")],
        limit: Annotated[
            int, Field(description="At most this many, most mentioned first.", ge=1)
        ] = DEFAULT_ENTITY_LIMIT,
    ) -> list[dict[str, Any]]:
        """People, places and projects a bank's memories mention, most mentioned first."""
        with serialised():
            found = client().list_entities(bank_id, limit=limit)  # an unknown bank is an error, not an empty list
        return [
            {
                "name": e.canonical_name,
                "mentions": e.mention_count,
                "first_seen": e.first_seen.isoformat() if e.first_seen else None,
                "last_seen": e.last_seen.isoformat() if e.last_seen else None,
            }
            for e in found
        ]

    return server


def memory_uuid(value: str) -> UUID:
    """A tool's memory_id as a UUID, or a tool error that says where ids come from."""
    try:
        return UUID(value)
    except ValueError:
        raise ToolError(f"memory_id {value!r} is not a UUID (hint: the recall tool gives each memory's id)") from None


def dates(
    mentioned_at: datetime | None, occurred_start: datetime | None, occurred_end: datetime | None, zone: str
) -> dict[str, str | None]:
    """A memory's dates as a tool gives them: ``when``, the text every interface shows
    (:func:`hindsight_pg._types.describe_when`: "said 2025-02-26, about 2025-04-01", or one date when they
    agree), and ``said``, ``about_start``, ``about_end`` (ISO 8601 instants, None where the unit has none)."""
    return {
        "when": describe_when(mentioned_at, occurred_start, occurred_end, zone),
        "said": mentioned_at.isoformat() if mentioned_at else None,
        "about_start": occurred_start.isoformat() if occurred_start else None,
        "about_end": occurred_end.isoformat() if occurred_end else None,
    }
