"""Commands on a bank's memory: retain, recall, update-memory, delete-memory, reflect, consolidate, entities."""

from __future__ import annotations

import dataclasses
import json
from datetime import datetime
from pathlib import Path
from typing import Annotated
from uuid import UUID

import typer
from rich.markup import escape

from hindsight_pl.text import clean_text, is_meaningful

from .._client import DEFAULT_ENTITY_LIMIT, DEFAULT_MAX_RESULTS, DEFAULT_MIN_RELEVANCE
from .._errors import InvalidInputError, MemoryNotFoundError
from .._inputs import read_items
from .._types import describe_when
from .._unit_dates import bank_time_zone
from . import _render as render
from ._app import MEMORY_IDS, Dsn, app, open_client


@app.command(short_help="Retain a file of content into a bank.")
def retain(
    bank: Annotated[str, typer.Argument(help="Bank id (created if missing).")],
    path: Annotated[
        str,
        typer.Argument(
            help="File to retain, or - for standard input: plain text or Markdown (one document), "
            "a .json list of turns {speaker, text, timestamp?} or items {content, ...}, or .jsonl.",
        ),
    ],
    context: Annotated[str | None, typer.Option(help="Context stored with every item (e.g. 'team chat').")] = None,
    timestamp: Annotated[
        str | None, typer.Option(help="ISO 8601 time for items that have none (default: now).")
    ] = None,
    document_id: Annotated[
        str | None, typer.Option(help="Document id of a single item (text files default to their absolute path).")
    ] = None,
    tag: Annotated[list[str] | None, typer.Option("--tag", help="Tag for every item; repeat for several.")] = None,
    speaker: Annotated[
        str | None, typer.Option(help="Who wrote the content (for text not in 'Name: ...' turns).")
    ] = None,
    append: Annotated[
        bool, typer.Option("--append", help="Add to an existing document instead of replacing it.")
    ] = False,
    encoding: Annotated[str, typer.Option(help="Text encoding of the file.")] = "utf-8",
    dsn: Dsn = None,
) -> None:
    """Retain a file of content into a bank (all items in one transaction; the bank is created if missing).

    Facts are extracted with the bank's extractor (offline rules unless the bank says llm), entities
    resolved and facts linked; retaining a document id again updates that document (docs/retain.md).
    """
    if timestamp is not None:
        try:
            datetime.fromisoformat(timestamp)
        except ValueError:
            raise InvalidInputError(f"--timestamp {timestamp!r} is not an ISO 8601 date-time") from None
    items = read_items(path, document_id=document_id, encoding=encoding)
    items = [
        dataclasses.replace(
            item,
            context=item.context or context,
            timestamp=item.timestamp or timestamp,
            tags=[*item.tags, *(tag or [])],
            speaker=item.speaker or speaker,
            update_mode="append" if append else item.update_mode,
        )
        for item in items
    ]
    with open_client(dsn) as client:
        result = render.retain_with_progress(client, bank, items, f"retain {bank}", create_bank=True)
    render.out.print(f"retained {len(items)} item(s) as {len(result.unit_ids)} memory unit(s) in bank {bank!r}; "
              f"{render.merged(result)}")  # fmt: skip


@app.command(short_help="Recall the memories that answer a query, best first.")
def recall(
    bank: Annotated[str, typer.Argument(help="Bank id.")],
    query: Annotated[str, typer.Argument(help="The question or cue.")],
    budget: Annotated[str, typer.Option(help="low | mid | high: candidates per arm (100 / 300 / 1000).")] = "mid",
    max_tokens: Annotated[int, typer.Option(help="Token budget of the returned memories (cl100k_base).")] = 4096,
    limit: Annotated[
        int, typer.Option(min=0, help="Print at most this many results (0: all; the default is SQL recall's).")
    ] = DEFAULT_MAX_RESULTS,
    types: Annotated[
        list[str] | None, typer.Option("--type", help="Fact type to keep: world, experience, observation.")
    ] = None,
    tags: Annotated[list[str] | None, typer.Option("--tag", help="Tag filter; repeat for several.")] = None,
    tags_match: Annotated[str, typer.Option(help="any | all | any_strict | all_strict | exact.")] = "any",
    at: Annotated[
        str | None, typer.Option("--at", help="Recall as of this ISO 8601 time (recency counts from it).")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the response as JSON.")] = False,
    ids: Annotated[
        bool, typer.Option("--ids", help="Print each memory's id (for update-memory and delete-memory).")
    ] = False,
    trace: Annotated[
        bool, typer.Option(help="Show the pipeline trace: in the JSON with --json, else a summary per stage.")
    ] = False,
    prefer_observations: Annotated[
        bool, typer.Option(help="Drop facts that a recalled observation already cites (docs/observations.md).")
    ] = False,
    min_relevance: Annotated[
        float | None,
        typer.Option(min=0.0, max=1.0, help="Drop memories less likely than this (0 to 1) to answer the query."),
    ] = DEFAULT_MIN_RELEVANCE,
    dsn: Dsn = None,
) -> None:
    """Recall the memories of a bank that answer a query, best first, each with its relevance (the probability
    that it answers the query, comparable across recalls; docs/recall.md, "Relevance")."""
    with open_client(dsn) as client:
        response = client.recall(
            bank,
            query,
            budget=budget,
            max_tokens=max_tokens,
            types=types,
            tags=tags,
            tags_match=tags_match,
            query_timestamp=render.at(at),
            prefer_observations=prefer_observations,
            min_relevance=min_relevance,
            max_results=limit or None,
            trace=trace,
        )
        zone = bank_time_zone(client, bank)
    if as_json:
        shown = dataclasses.asdict(response)
        for result, r in zip(shown["results"], response.results, strict=True):
            result["when"] = r.describe_when(zone)  # the dates as every interface shows them
        render.out.print_json(json.dumps(shown, default=render.json_default))
    else:
        if not response.results and not is_meaningful(clean_text(query)):  # no results, as SQL gives: say why
            render.err.print("note: the query has no letter or digit, so there is nothing to search for")
        render.print_results(response, time_zone=zone, ids=ids)
        if response.trace:
            render.print_trace(response.trace)


@app.command("update-memory", short_help="Change one memory: its text, dates, tags or metadata.")
def update_memory(
    bank: Annotated[str, typer.Argument(help="Bank id.")],
    memory_id: Annotated[str, typer.Argument(help="The memory's id (recall --ids or --json shows it).")],
    text: Annotated[
        str | None, typer.Option(help="The new text (re-embedded, its names and dates read again).")
    ] = None,
    start: Annotated[str | None, typer.Option(help="When it happened (ISO 8601), start.")] = None,
    end: Annotated[str | None, typer.Option(help="When it happened (ISO 8601), end.")] = None,
    said: Annotated[str | None, typer.Option(help="When it was said or written (ISO 8601).")] = None,
    tag: Annotated[
        list[str] | None, typer.Option("--tag", help="Its tags, replacing the old ones; repeat for several.")
    ] = None,
    metadata: Annotated[str | None, typer.Option(help="Its metadata, a JSON object replacing the old one.")] = None,
    context: Annotated[str | None, typer.Option(help="Its context (e.g. 'team chat').")] = None,
    entity: Annotated[
        list[str] | None, typer.Option("--entity", help="The names it mentions (default: read from the text).")
    ] = None,
    dsn: Dsn = None,
) -> None:
    """Change one memory (options not given keep their value) and print it as it is now (docs/retain.md, "One
    memory at a time")."""
    memory_id = _memory_id(memory_id)
    if all(v is None for v in (text, start, end, said, tag, metadata, context, entity)):
        raise InvalidInputError("nothing to change: give --text, --start, --end, --said, --tag, --metadata, "
                                "--context or --entity")  # fmt: skip
    try:
        extra = None if metadata is None else json.loads(metadata)
    except json.JSONDecodeError as exc:
        raise InvalidInputError(f"--metadata is not JSON: {exc}",
                                hint='e.g. --metadata \'{"source": "sms"}\'') from None  # fmt: skip
    if extra is not None and not isinstance(extra, dict):
        raise InvalidInputError(f"--metadata must be a JSON object, not {metadata}",
                                hint='e.g. --metadata \'{"source": "sms"}\'')  # fmt: skip
    with open_client(dsn) as client:
        memory = client.update_memory(
            bank, memory_id, text=text, occurred_start=start, occurred_end=end, mentioned_at=said, tags=tag,
            metadata=extra, context=context, entities=entity,
        )  # fmt: skip
        zone = bank_time_zone(client, bank)
    when = describe_when(memory.mentioned_at, memory.occurred_start, memory.occurred_end, zone)
    render.out.print(f"updated {memory.id}  {when}  {escape(memory.text)}")
    if memory.entities:
        render.out.print(f"  entities: {escape(', '.join(memory.entities))}")
    if memory.tags:
        render.out.print(f"  tags: {escape(', '.join(memory.tags))}")


@app.command("delete-memory", short_help="Delete one memory, with its links.")
def delete_memory(
    bank: Annotated[str, typer.Argument(help="Bank id.")],
    memory_id: Annotated[str, typer.Argument(help="The memory's id (recall --ids or --json shows it).")],
    dsn: Dsn = None,
) -> None:
    """Delete one memory with its links and entity references; what it superseded is current again (docs/retain.md,
    "One memory at a time")."""
    memory_id = _memory_id(memory_id)
    with open_client(dsn) as client:
        if not client.delete_memory(bank, memory_id):
            raise MemoryNotFoundError(f'bank "{bank}" has no memory {memory_id}', hint=MEMORY_IDS)
    render.out.print(f"deleted {memory_id}")


def _memory_id(value: str) -> str:
    """MEMORY_ID as a UUID's text, or a usage error that says where ids are."""
    try:
        return str(UUID(value))
    except ValueError:
        raise InvalidInputError(f"MEMORY_ID {value!r} is not a UUID", hint=MEMORY_IDS) from None


@app.command(short_help="List a bank's entities, most mentioned first.")
def entities(
    bank: Annotated[str, typer.Argument(help="Bank id.")],
    limit: Annotated[int, typer.Option(min=1, help="Print at most this many entities.")] = DEFAULT_ENTITY_LIMIT,
    dsn: Dsn = None,
) -> None:
    """List a bank's entities, most mentioned first, with the entities they occur with most."""
    with open_client(dsn) as client:
        rows = client.list_entities(bank, limit=limit)
    if not rows:
        render.out.print(f"(no entities in bank {bank!r})")
    for entity in rows:
        seen = (
            f"{entity.first_seen:%Y-%m-%d}..{entity.last_seen:%Y-%m-%d}"
            if entity.first_seen and entity.last_seen
            else ""
        )
        companions = ", ".join(f"{name} ({n})" for name, n in list(entity.co_occurring.items())[:3])
        render.out.print(f"{entity.canonical_name}\t{entity.mention_count} units\t{seen}\t{companions}")


@app.command(short_help="Consolidate a bank's new facts into observations.")
def consolidate(
    bank: Annotated[str, typer.Argument(help="Bank id.")],
    llm: Annotated[
        bool, typer.Option("--llm/--no-llm", help="Let the bank's language model, if it has one, write the texts.")
    ] = True,
    dsn: Dsn = None,
) -> None:
    """Consolidate the bank's new facts into observations (with the bank's language model, if it has one,
    writing their text); print each observation touched (docs/observations.md)."""
    with open_client(dsn) as client:
        rows = client.consolidate(bank, use_llm=llm)
        texts = dict(
            client.conn.execute(
                "SELECT id, text FROM hindsight.memory_units WHERE bank_id = %s AND id = ANY(%s)",
                (bank, [r[0] for r in rows]),
            ).fetchall()
        )
    if not rows:
        render.out.print("(nothing new to consolidate)")
    for observation_id, action, proof in rows:
        proof_text = f"{proof} facts" if proof is not None else "-"
        render.out.print(f"{action:<8} {proof_text:>9}  {escape(texts.get(observation_id, str(observation_id)))}")


@app.command(short_help="Answer a question from a bank's memory with its model.")
def reflect(
    bank: Annotated[str, typer.Argument(help="Bank id (its config names the language model).")],
    query: Annotated[str, typer.Argument(help="The question to answer from memory.")],
    budget: Annotated[str, typer.Option(help="low | mid | high: 5 / 10 / 20 model calls at most.")] = "low",
    max_tokens: Annotated[int, typer.Option(help="Token budget of each recall the model makes.")] = 4096,
    tags: Annotated[list[str] | None, typer.Option("--tag", help="Tag filter of the recalls; repeat.")] = None,
    tags_match: Annotated[str, typer.Option(help="any | all | any_strict | all_strict | exact.")] = "any",
    schema: Annotated[
        Path | None, typer.Option(help="A JSON schema file: the answer becomes a JSON object that follows it.")
    ] = None,
    at: Annotated[
        str | None, typer.Option("--at", help="Recall as of this ISO 8601 time (recency counts from it).")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print answer, based_on, usage and trace as JSON.")] = False,
    dsn: Dsn = None,
) -> None:
    """Answer a question from a bank's memory with its language model, in its disposition; print the answer
    and the memories it rests on (docs/reflect.md)."""
    response_schema = None
    if schema is not None:
        try:
            response_schema = json.loads(schema.read_text())
        except OSError as exc:
            raise InvalidInputError(f"--schema {schema}: cannot read it: {exc.strerror}") from None
        except ValueError as exc:
            raise InvalidInputError(f"--schema {schema}: not valid JSON: {exc}") from None
    with open_client(dsn) as client:
        result = client.reflect(
            bank, query, budget=budget, max_tokens=max_tokens, tags=tags, tags_match=tags_match,
            response_schema=response_schema, query_timestamp=render.at(at),
        )  # fmt: skip
        whens = render.unit_whens(client, bank, [m["id"] for m in result.based_on], bank_time_zone(client, bank))
    if as_json:
        shown = dataclasses.asdict(result)
        for memory in shown["based_on"]:
            memory["when"] = whens.get(memory["id"])
        render.out.print_json(json.dumps(shown, default=render.json_default))
        return
    answer = result.answer if isinstance(result.answer, str) else json.dumps(result.answer, indent=2)
    render.out.print(escape(answer))
    if result.based_on:
        render.out.print("\nBased on:")
        for memory in result.based_on:
            when = f"{whens[memory['id']]}  " if memory["id"] in whens else ""
            render.out.print(escape(f"  [{memory['fact_type']}] {when}{memory['text']}"))
