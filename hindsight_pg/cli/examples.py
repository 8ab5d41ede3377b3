"""Data to try it on: the demo (a sample team conversation shipped with the package) and LoCoMo."""

from __future__ import annotations

import dataclasses
from importlib import resources
from pathlib import Path
from typing import Annotated

import typer

from .._errors import InvalidInputError
from .._inputs import load_locomo, read_items
from .._unit_dates import bank_time_zone
from . import _render as render
from ._app import Dsn, app, open_client

EXAMPLE_CONVERSATION = Path(str(resources.files("hindsight_pg") / "data" / "team_chat.json"))

# The demo's four questions, one of each kind the pipeline must answer.
DEMO_QUESTIONS = [
    ("a name", "Who is the tech lead of Project Falcon?"),
    ("a paraphrase", "What does Tom do to unwind on weekends?"),
    ("a time", "When did the billing database migration finish?"),
    ("a relation", "Which project is Maya's sister working on?"),
]


@app.command("import-locomo", short_help="Retain LoCoMo conversations turn by turn.")
def import_locomo(
    path: Annotated[Path, typer.Argument(help="A LoCoMo file (locomo10.json format).")],
    conversation: Annotated[
        str | None, typer.Option(help="sample_id of the conversation to import (default: every one).")
    ] = None,
    bank: Annotated[
        str | None, typer.Option(help="Bank id (default: the sample_id; only with one conversation).")
    ] = None,
    dsn: Dsn = None,
) -> None:
    """Retain LoCoMo conversations turn by turn: "<speaker>: <text>" at the session's start time."""
    conversations = load_locomo(path)
    if conversation is not None:
        conversations = [c for c in conversations if c.sample_id == conversation]
        if not conversations:
            raise InvalidInputError(f"no conversation {conversation!r} in {path}")
    if bank is not None and len(conversations) != 1:
        raise InvalidInputError("--bank needs exactly one conversation; add --conversation")
    with open_client(dsn) as client:
        for conv in conversations:
            bank_id = bank or conv.sample_id
            client.delete_bank(bank_id)
            client.create_bank(bank_id, name=f"LoCoMo {conv.sample_id}: {' and '.join(conv.speakers)}")
            result = render.retain_with_progress(client, bank_id, conv.items, f"import {conv.sample_id}")
            skipped = f", {conv.skipped_turns} empty turn(s) skipped" if conv.skipped_turns else ""
            units = len(result.unit_ids)
            render.out.print(f"bank {bank_id!r}: {len(conv.items)} turns retained as {units} memory units{skipped}; "
                             f"{render.merged(result)}")  # fmt: skip


@app.command(short_help="Retain a sample conversation and recall four answers.")
def demo(
    dsn: Dsn = None,
    file: Annotated[Path, typer.Option(help="A JSON list of turns to retain.")] = EXAMPLE_CONVERSATION,
) -> None:
    """Retain a sample team conversation into bank 'demo' and recall answers to four questions. A bank 'demo' that
    exists already is deleted first, with everything retained into it."""
    items = read_items(str(file))
    with open_client(dsn) as client:
        client.delete_bank("demo")
        client.create_bank("demo", name="hindsight_pg demo")
        count = len(render.retain_with_progress(client, "demo", items, "retain demo").unit_ids)
        # ask as of the end of the conversation, so recency does not depend on today's date
        (asked_at,) = client.conn.execute("SELECT max(mentioned_at) FROM hindsight.memory_units WHERE bank_id = 'demo'")
        render.out.print(f"retained {count} memory units from {file}; asking as of {asked_at[0]:%Y-%m-%d}\n")
        zone = bank_time_zone(client, "demo")
        for kind, question in DEMO_QUESTIONS:
            response = client.recall("demo", question, budget="mid", max_tokens=120, query_timestamp=asked_at[0])
            render.out.print(f"[bold]Q ({kind}): {question}[/bold]  [dim]{response.total_tokens} tokens[/dim]")
            render.print_results(dataclasses.replace(response, results=response.results[:3]), "  ", zone)
            render.out.print()
