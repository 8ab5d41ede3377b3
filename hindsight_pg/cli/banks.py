"""Commands on banks: list them, print or change their config."""

from __future__ import annotations

import json
from typing import Annotated, Any

import typer

from hindsight_pl.providers import E5, MINILM

from .._errors import InvalidInputError
from . import _render as render
from ._app import Dsn, app, open_client


@app.command()
def banks(dsn: Dsn = None) -> None:
    """List the banks with their memory unit counts."""
    with open_client(dsn) as client:
        rows = client.list_banks()
    if not rows:
        render.out.print("(no banks)")
    for bank in rows:
        render.out.print(f"{bank.bank_id}\t{bank.unit_count} units\tcreated {bank.created_at:%Y-%m-%d %H:%M}")


@app.command(short_help="Print or change a bank's config.")
def config(
    bank: Annotated[str, typer.Argument(help="Bank id.")],
    settings: Annotated[
        list[str] | None,
        typer.Argument(
            help="KEY=VALUE pairs to change; VALUE is JSON (a bare word is a string), KEY= restores the default. "
            "None: print the config.",
            show_default=False,
        ),
    ] = None,
    create: Annotated[bool, typer.Option(help="Create the bank with these settings if it does not exist.")] = False,
    dsn: Dsn = None,
) -> None:
    """Print or change a bank's config (docs/reference.md lists the keys), e.g.
    `hindsight-pg config ana llm_base_url=http://localhost:11434/v1 llm_model=llama3.1:8b`."""
    changes: dict[str, Any] = {}
    for setting in settings or []:
        key, sep, value = setting.partition("=")
        if not sep or not key.strip():
            raise InvalidInputError(f"{setting!r} is not KEY=VALUE", hint="e.g. llm_model=llama3.1:8b")
        try:
            changes[key.strip()] = json.loads(value) if value else None
        except ValueError:
            changes[key.strip()] = value
    with open_client(dsn) as client, client.conn.transaction():  # a refused setting creates nothing
        if create:
            client.create_bank(bank, exist_ok=True)
        if changes:
            client.configure_bank(bank, changes)
        shown = client.get_bank(bank).config
    render.out.print_json(json.dumps(shown))


@app.command(short_help="Re-make a bank's vectors with another embedding model.")
def reembed(
    bank: Annotated[str, typer.Argument(help="Bank id.")],
    model: Annotated[str, typer.Option(help=f"The model to move to: {MINILM}, {E5}, or a path.")],
    batch_size: Annotated[int, typer.Option(min=1, help="Memory units embedded and committed at a time.")] = 64,
    dsn: Dsn = None,
) -> None:
    """Re-embed every memory unit and mental model of BANK with MODEL and record MODEL as the bank's
    embedding_model (docs/providers.md). Resumable: run it again after a stop and it goes on where it
    was; until it ends, the bank answers with its old model. e.g.
    `hindsight-pg reembed ana --model multilingual-e5-small`."""
    with open_client(dsn) as client:
        before = client.get_bank(bank).config.get("embedding_model")
        with render.progress() as bar:
            task = bar.add_task(f"reembed {bank}", total=None)
            count = client.reembed(
                bank, model, batch_size=batch_size,
                progress=lambda done, total: bar.update(task, completed=done, total=total),
            )  # fmt: skip
    if count == 0 and before == model:
        render.out.print(f"bank {bank!r} already uses {model}: nothing to do")
    else:
        render.out.print(f"bank {bank!r}: {count} memory units re-embedded, {before} -> {model}")
