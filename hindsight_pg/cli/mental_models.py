"""The ``mental-model`` commands: create, refresh, list, delete."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.markup import escape

from .._errors import InvalidInputError
from . import _render as render
from ._app import Dsn, models_app, open_client


@models_app.command("create")
def model_create(
    bank: Annotated[str, typer.Argument(help="Bank id.")],
    name: Annotated[str, typer.Argument(help="The mental model's name, unique in the bank.")],
    source_query: Annotated[str, typer.Argument(help="The question each refresh answers.")],
    tags: Annotated[list[str] | None, typer.Option("--tag", help="Tag filter of its recalls; repeat.")] = None,
    max_tokens: Annotated[int, typer.Option(help="Token budget of each recall of a refresh.")] = 2048,
    refresh: Annotated[bool, typer.Option(help="Refresh it at once (needs the bank's language model).")] = False,
    dsn: Dsn = None,
) -> None:
    """Create a mental model (and refresh it with --refresh)."""
    with open_client(dsn) as client, client.conn.transaction():  # a failed --refresh creates nothing
        model = client.create_mental_model(bank, name, source_query, tags=tags or (), max_tokens=max_tokens)
        if refresh:
            model = client.refresh_mental_model(bank, name)
    render.print_model(model)


@models_app.command("refresh", short_help="Refresh a mental model by reflecting on its source query.")
def model_refresh(
    bank: Annotated[str, typer.Argument(help="Bank id.")],
    name: Annotated[str, typer.Argument(help="The mental model's name.")],
    dsn: Dsn = None,
) -> None:
    """Refresh a mental model: reflect on its source query; the previous content goes to its history."""
    with open_client(dsn) as client:
        render.print_model(client.refresh_mental_model(bank, name))


@models_app.command("list")
def model_list(bank: Annotated[str, typer.Argument(help="Bank id.")], dsn: Dsn = None) -> None:
    """List a bank's mental models with their content."""
    with open_client(dsn) as client:
        models = client.list_mental_models(bank)
    if not models:
        render.out.print("(no mental models)")
    for model in models:
        render.print_model(model)


@models_app.command("delete")
def model_delete(
    bank: Annotated[str, typer.Argument(help="Bank id.")],
    name: Annotated[str, typer.Argument(help="The mental model's name.")],
    dsn: Dsn = None,
) -> None:
    """Delete a mental model."""
    with open_client(dsn) as client:
        if not client.delete_mental_model(bank, name):
            raise InvalidInputError(f'bank "{bank}" has no mental model named "{name}"')
    render.out.print(f"deleted {escape(name)}")
