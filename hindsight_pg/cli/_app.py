"""The ``hindsight-pg`` application: its command groups, the options every command shares, and the
entry point that turns a hindsight error into one line on standard error and exit status 1."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Annotated, Any

import typer
from rich.markup import escape
from typer.core import TyperArgument, TyperCommand, TyperOption
from typer.models import CommandFunctionType

from hindsight_pl import __version__

from .._client import Client
from .._connect import connect
from .._errors import BankNotFoundError, HindsightError, MemoryNotFoundError
from . import _render as render

# Click's plain help, not rich's: paragraphs are rewrapped to the terminal (no hard breaks inside a
# command's description) and flags show no type.
HELP_SETTINGS = {"help_option_names": ["-h", "--help"], "max_content_width": 100}

# What an option's value is called in the help where its name alone does not say it; an integer is N, a file PATH,
# any other value the option's name (--tag TAG). Arguments are their names in capitals (BANK, QUERY).
METAVARS = {"dsn": "DSN", "at": "TIME", "timestamp": "TIME", "budget": "LEVEL", "tags_match": "MODE",
            "host": "ADDRESS", "port": "PORT", "context": "TEXT", "document_id": "ID", "speaker": "NAME",
            "embedding_model": "MODEL", "reranker_model": "MODEL", "conversation": "SAMPLE_ID",
            "start": "TIME", "end": "TIME", "said": "TIME", "metadata": "JSON", "entity": "NAME",
            "min_relevance": "P"}  # fmt: skip


def metavar(param: TyperArgument | TyperOption) -> str:
    """The placeholder the help shows for a parameter's value: ``--max-tokens N``, ``--tag TAG``, ``BANK``
    (never typer's ``<list[str]>``)."""
    name = param.name or "value"
    if isinstance(param, TyperArgument):
        return name.upper()
    if name in METAVARS:
        return METAVARS[name]
    if param.type_descriptor.annotation is int:
        return "N"
    if param.type_descriptor.is_path:
        return "PATH"
    long = [opt for opt in param.opts if opt.startswith("--")]
    return (long[0][2:] if long else name).upper().replace("-", "_")


class Command(TyperCommand):
    """A command whose help names each value by :func:`metavar`: ``Usage: hindsight-pg recall [OPTIONS] BANK
    QUERY``, ``--tag TAG``, ``--limit N``."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for param in self.params:
            flag = isinstance(param, TyperOption) and param.is_flag
            if isinstance(param, TyperArgument | TyperOption) and param.metavar is None and not flag:
                param.metavar = metavar(param)

    def collect_usage_pieces(self, ctx: Any) -> list[str]:
        pieces = [self.options_metavar] if self.options_metavar else []
        for param in self.get_params(ctx):
            if isinstance(param, TyperArgument):
                piece = str(param.metavar) if param.required else f"[{param.metavar}]"
                pieces.append(piece if param.nargs == 1 else f"{piece}...")
        return pieces

    def format_options(self, ctx: Any, formatter: Any) -> None:
        arguments, options = [], []
        for param in self.get_params(ctx):
            record = param.get_help_record(ctx)
            if record is None:
                continue
            if isinstance(param, TyperArgument):  # the name alone, without typer's <str> after it
                arguments.append((str(param.metavar), record[1]))
            else:
                options.append(record)
        for title, records in (("Arguments", arguments), ("Options", options)):
            if records:
                with formatter.section(title):
                    formatter.write_dl(records)


class App(typer.Typer):
    """typer's application whose commands are :class:`Command` unless they say otherwise."""

    def command(
        self, *args: Any, cls: type[TyperCommand] | None = None, **kwargs: Any
    ) -> Callable[[CommandFunctionType], CommandFunctionType]:
        return super().command(*args, cls=cls or Command, **kwargs)


app = App(
    help="hindsight_pg: agent memory inside PostgreSQL. Retain what an agent hears; recall what matters.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
    rich_markup_mode=None,
    context_settings=HELP_SETTINGS,
)
server_app = App(
    help="Manage the embedded PostgreSQL server ($HINDSIGHT_PG_HOME).", no_args_is_help=True, rich_markup_mode=None
)
app.add_typer(server_app, name="server", short_help="Start, stop or show the embedded PostgreSQL server.")
models_app = App(
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


# where the CLI's user finds a memory's id
MEMORY_IDS = "hindsight-pg recall BANK QUERY --ids shows each memory's id."


def main() -> None:
    """Entry point of ``hindsight-pg``: one clear line and exit status 1 on any hindsight error."""
    try:
        app()
    except HindsightError as exc:
        if isinstance(exc, BankNotFoundError):  # the driver's hint names a Python call; say the commands
            exc.hint = (
                "Retain into it (hindsight-pg retain BANK FILE creates it), or hindsight-pg config BANK --create."
            )
        elif isinstance(exc, MemoryNotFoundError):
            exc.hint = MEMORY_IDS
        render.err.print(f"[red]error:[/red] {escape(str(exc))}", soft_wrap=True)
        sys.exit(1)
    except KeyboardInterrupt:
        render.err.print("interrupted")
        sys.exit(130)
