"""The ``hindsight-pg`` application: its command groups, the options every command shares, and the
entry point that turns a hindsight error into one line on standard error and exit status 1."""

from __future__ import annotations

import sys
from typing import Annotated

import typer
from rich.markup import escape

from hindsight_pl import __version__

from .._client import Client, connect
from .._errors import HindsightError
from . import _render as render

# Click's plain help, not rich's: paragraphs are rewrapped to the terminal (no hard breaks inside a
# command's description) and flags show no type.
HELP_SETTINGS = {"help_option_names": ["-h", "--help"], "max_content_width": 100}

app = typer.Typer(
    help="hindsight_pg: agent memory inside PostgreSQL. Retain what an agent hears; recall what matters.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
    rich_markup_mode=None,
    context_settings=HELP_SETTINGS,
)
server_app = typer.Typer(
    help="Manage the embedded PostgreSQL server ($HINDSIGHT_PG_HOME).", no_args_is_help=True, rich_markup_mode=None
)
app.add_typer(server_app, name="server", short_help="Start, stop or show the embedded PostgreSQL server.")
models_app = typer.Typer(
    help="Mental models: named summaries of a bank that reflect keeps up to date (docs/reflect.md).",
    no_args_is_help=True,
    rich_markup_mode=None,
)
app.add_typer(models_app, name="mental-model", short_help="Create, refresh, list or delete mental models.")

Dsn = Annotated[
    str | None,
    typer.Option(
        "--dsn",
        envvar="HINDSIGHT_PG_DSN",
        help="PostgreSQL connection string. Default: the embedded server.",
        show_default=False,
    ),
]


def open_client(dsn: str | None) -> Client:
    """A client on ``dsn`` (else ``$HINDSIGHT_PG_DSN``, else the embedded server)."""
    return connect(dsn)


def _version(value: bool) -> None:
    if value:
        render.out.print(f"hindsight-pg {__version__}")
        raise typer.Exit()


@app.callback()
def _options(
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="Print the version and exit.")
    ] = False,
) -> None:
    """hindsight_pg: agent memory inside PostgreSQL. Retain what an agent hears; recall what matters."""


def main() -> None:
    """Entry point of ``hindsight-pg``: one clear line and exit status 1 on any hindsight error."""
    try:
        app()
    except HindsightError as exc:
        render.err.print(f"[red]error:[/red] {escape(str(exc))}", soft_wrap=True)
        sys.exit(1)
    except KeyboardInterrupt:
        render.err.print("interrupted")
        sys.exit(130)
