"""The ``hindsight-pg`` command line.

Every command talks to the database named by ``--dsn`` or ``$HINDSIGHT_PG_DSN``,
else to the embedded server (started on first use). Errors print one line on
standard error and exit with status 1.
"""

from __future__ import annotations

import dataclasses
import json
import sys
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from hindsight_pl import __version__

from ._client import Client, connect
from ._errors import HindsightError, InvalidInputError, ProviderError
from ._inputs import load_locomo, read_items
from ._server import EmbeddedServer
from ._types import MemoryItem, MentalModel, RecallResponse, RetainResult

app = typer.Typer(
    help="hindsight_pg: agent memory inside PostgreSQL. Retain what an agent hears; recall what matters.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)
server_app = typer.Typer(help="Manage the embedded PostgreSQL server ($HINDSIGHT_PG_HOME).", no_args_is_help=True)
app.add_typer(server_app, name="server")
models_app = typer.Typer(
    help="Mental models: named summaries of a bank that reflect keeps up to date (docs/reflect.md).",
    no_args_is_help=True,
)
app.add_typer(models_app, name="mental-model")

out = Console(highlight=False, soft_wrap=True)  # a memory is one line, also when piped
err = Console(stderr=True, highlight=False)

Dsn = Annotated[
    str | None,
    typer.Option(
        "--dsn",
        envvar="HINDSIGHT_PG_DSN",
        help="PostgreSQL connection string. Default: the embedded server.",
        show_default=False,
    ),
]

EXAMPLE_CONVERSATION = Path(__file__).resolve().parent.parent / "docs" / "examples" / "team_chat.json"

# The demo's four questions, one of each kind the pipeline must answer.
DEMO_QUESTIONS = [
    ("a name", "Who is the tech lead of Project Falcon?"),
    ("a paraphrase", "What does Tom do to unwind on weekends?"),
    ("a time", "When did the billing database migration finish?"),
    ("a relation", "Which project is Maya's sister working on?"),
]


def _client(dsn: str | None) -> Client:
    return connect(dsn)


def _progress() -> Progress:
    return Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=err,
        transient=False,
    )


def _retain_with_progress(
    client: Client, bank: str, items: Sequence[MemoryItem], label: str, *, create_bank: bool = False
) -> RetainResult:
    with _progress() as bar:
        task = bar.add_task(label, total=len(items))
        return client.retain_batch(bank, items, progress=lambda n: bar.advance(task, n), create_bank=create_bank)


def _merged(result: RetainResult) -> str:
    """The summary's account of the facts stored as another unit (docs/retain.md): none is lost unsaid."""
    return f"{len(result.merged)} repeated fact(s) merged into kept units"


@app.command()
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
    with _client(dsn) as client:
        result = _retain_with_progress(client, bank, items, f"retain {bank}", create_bank=True)
    out.print(f"retained {len(items)} item(s) as {len(result.unit_ids)} memory unit(s) in bank {bank!r}; "
              f"{_merged(result)}")  # fmt: skip


@app.command()
def recall(
    bank: Annotated[str, typer.Argument(help="Bank id.")],
    query: Annotated[str, typer.Argument(help="The question or cue.")],
    budget: Annotated[str, typer.Option(help="low | mid | high: candidates per arm (100 / 300 / 1000).")] = "mid",
    max_tokens: Annotated[int, typer.Option(help="Token budget of the returned memories (cl100k_base).")] = 4096,
    limit: Annotated[int, typer.Option(min=0, help="Print at most this many results (0: all).")] = 10,
    types: Annotated[
        list[str] | None, typer.Option("--type", help="Fact type to keep: world, experience, observation.")
    ] = None,
    tags: Annotated[list[str] | None, typer.Option("--tag", help="Tag filter; repeat for several.")] = None,
    tags_match: Annotated[str, typer.Option(help="any | all | any_strict | all_strict | exact.")] = "any",
    at: Annotated[
        str | None, typer.Option("--at", help="Recall as of this ISO 8601 time (recency counts from it).")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the response as JSON.")] = False,
    trace: Annotated[
        bool, typer.Option(help="Show the pipeline trace: in the JSON with --json, else a summary per stage.")
    ] = False,
    prefer_observations: Annotated[
        bool, typer.Option(help="Drop facts that a recalled observation already cites (docs/observations.md).")
    ] = False,
    dsn: Dsn = None,
) -> None:
    """Recall the memories of a bank that answer a query, best first."""
    with _client(dsn) as client:
        response = client.recall(
            bank,
            query,
            budget=budget,
            max_tokens=max_tokens,
            types=types,
            tags=tags,
            tags_match=tags_match,
            query_timestamp=_at(at),
            prefer_observations=prefer_observations,
            trace=trace,
        )
    if limit > 0:
        response = dataclasses.replace(response, results=response.results[:limit])
    if as_json:
        out.print_json(json.dumps(dataclasses.asdict(response), default=_json_default))
    else:
        _print_results(response)
        if response.trace:
            _print_trace(response.trace)


def _print_trace(trace: dict[str, Any]) -> None:
    out.print(f"[dim]recall budget {trace['recall_budget']}, {trace['total_ms']:.1f} ms in all[/dim]")
    for arm, info in trace["arms"].items():
        state = f"{len(info['hits'])} hits, {info['ms'] or 0:.1f} ms" if info["ran"] else "did not run"
        out.print(f"[dim]  {arm:<9}{state}[/dim]")
    prefilter = trace["prefilter"]
    out.print(f"[dim]  fused    {trace['fusion']['fused']} units, {prefilter['kept']} kept for scoring[/dim]")
    packing = trace["packing"]
    out.print(f"[dim]  packed   {packing['kept']} of {packing['candidates']} ({packing['tokens']} tokens)[/dim]")


def _json_default(value: Any) -> Any:
    if isinstance(value, datetime):
        return value.isoformat()
    return str(value)


def _at(value: str | None) -> datetime | None:
    """``--at`` as a datetime (naive: UTC, as the driver reads it), or a usage error naming the option."""
    if value is None:
        return None
    try:
        return datetime.fromisoformat(value)
    except ValueError:
        raise InvalidInputError(f"--at: {value!r} is not an ISO 8601 date-time", hint="e.g. 2025-06-27T09:00") from None


def _print_results(response: RecallResponse, indent: str = "") -> None:
    if not response.results:
        out.print(f"{indent}(no memories)")
    for r in response.results:
        when = r.mentioned_at.strftime("%Y-%m-%d") if r.mentioned_at else "          "
        arms = ", ".join(
            f"{arm} #{rank}"
            for arm, rank in (("semantic", r.scores.semantic_rank), ("bm25", r.scores.bm25_rank))
            if rank is not None
        )
        kind = ""
        if r.fact_type == "observation":  # an observation spans its facts' dates
            first, last = r.occurred_start or r.mentioned_at, r.occurred_end or r.mentioned_at
            kind = f"observation ({first:%Y-%m-%d}..{last:%Y-%m-%d}): " if first and last else "observation: "
        out.print(f"{indent}{r.rank:>2}. \\[{r.scores.final:.3f}] {when}  {kind}{escape(r.text)}  [dim]({arms})[/dim]")


def _version(value: bool) -> None:
    if value:
        out.print(f"hindsight-pg {__version__}")
        raise typer.Exit()


@app.callback()
def _options(
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="Print the version and exit.")
    ] = False,
) -> None:
    """hindsight_pg: agent memory inside PostgreSQL. Retain what an agent hears; recall what matters."""


@app.command()
def banks(dsn: Dsn = None) -> None:
    """List the banks with their memory unit counts."""
    with _client(dsn) as client:
        rows = client.list_banks()
    if not rows:
        out.print("(no banks)")
    for bank in rows:
        out.print(f"{bank.bank_id}\t{bank.unit_count} units\tcreated {bank.created_at:%Y-%m-%d %H:%M}")


@app.command()
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
    with _client(dsn) as client, client.conn.transaction():  # a refused setting creates nothing
        if create:
            client.create_bank(bank, exist_ok=True)
        if changes:
            client.configure_bank(bank, changes)
        shown = client.get_bank(bank).config
    out.print_json(json.dumps(shown))


@app.command()
def entities(
    bank: Annotated[str, typer.Argument(help="Bank id.")],
    limit: Annotated[int, typer.Option(min=1, help="Print at most this many entities.")] = 20,
    dsn: Dsn = None,
) -> None:
    """List a bank's entities, most mentioned first, with the entities they occur with most."""
    with _client(dsn) as client:
        rows = client.list_entities(bank, limit=limit)
    if not rows:
        out.print(f"(no entities in bank {bank!r})")
    for entity in rows:
        seen = (
            f"{entity.first_seen:%Y-%m-%d}..{entity.last_seen:%Y-%m-%d}"
            if entity.first_seen and entity.last_seen
            else ""
        )
        companions = ", ".join(f"{name} ({n})" for name, n in list(entity.co_occurring.items())[:3])
        out.print(f"{entity.canonical_name}\t{entity.mention_count} units\t{seen}\t{companions}")


@app.command()
def consolidate(
    bank: Annotated[str, typer.Argument(help="Bank id.")],
    llm: Annotated[
        bool, typer.Option("--llm/--no-llm", help="Let the bank's language model, if it has one, write the texts.")
    ] = True,
    dsn: Dsn = None,
) -> None:
    """Consolidate the bank's new facts into observations (with the bank's language model, if it has one,
    writing their text); print each observation touched (docs/observations.md)."""
    with _client(dsn) as client:
        rows = client.consolidate(bank, use_llm=llm)
        texts = dict(
            client.conn.execute(
                "SELECT id, text FROM hindsight.memory_units WHERE bank_id = %s AND id = ANY(%s)",
                (bank, [r[0] for r in rows]),
            ).fetchall()
        )
    if not rows:
        out.print("(nothing new to consolidate)")
    for observation_id, action, proof in rows:
        proof_text = f"{proof} facts" if proof is not None else "-"
        out.print(f"{action:<8} {proof_text:>9}  {escape(texts.get(observation_id, str(observation_id)))}")


@app.command()
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
    with _client(dsn) as client:
        result = client.reflect(
            bank, query, budget=budget, max_tokens=max_tokens, tags=tags, tags_match=tags_match,
            response_schema=response_schema, query_timestamp=_at(at),
        )  # fmt: skip
    if as_json:
        out.print_json(json.dumps(dataclasses.asdict(result), default=_json_default))
        return
    answer = result.answer if isinstance(result.answer, str) else json.dumps(result.answer, indent=2)
    out.print(escape(answer))
    if result.based_on:
        out.print("\nBased on:")
        for memory in result.based_on:
            out.print(escape(f"  [{memory['fact_type']}] {memory['text']}"))


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
    with _client(dsn) as client, client.conn.transaction():  # a failed --refresh creates nothing
        model = client.create_mental_model(bank, name, source_query, tags=tags or (), max_tokens=max_tokens)
        if refresh:
            model = client.refresh_mental_model(bank, name)
    _print_model(model)


@models_app.command("refresh")
def model_refresh(
    bank: Annotated[str, typer.Argument(help="Bank id.")],
    name: Annotated[str, typer.Argument(help="The mental model's name.")],
    dsn: Dsn = None,
) -> None:
    """Refresh a mental model: reflect on its source query; the previous content goes to its history."""
    with _client(dsn) as client:
        _print_model(client.refresh_mental_model(bank, name))


@models_app.command("list")
def model_list(bank: Annotated[str, typer.Argument(help="Bank id.")], dsn: Dsn = None) -> None:
    """List a bank's mental models with their content."""
    with _client(dsn) as client:
        models = client.list_mental_models(bank)
    if not models:
        out.print("(no mental models)")
    for model in models:
        _print_model(model)


@models_app.command("delete")
def model_delete(
    bank: Annotated[str, typer.Argument(help="Bank id.")],
    name: Annotated[str, typer.Argument(help="The mental model's name.")],
    dsn: Dsn = None,
) -> None:
    """Delete a mental model."""
    with _client(dsn) as client:
        if not client.delete_mental_model(bank, name):
            raise InvalidInputError(f"bank {bank!r} has no mental model named {name!r}")
    out.print(f"deleted {escape(name)}")


def _print_model(model: MentalModel) -> None:
    when = model.last_refreshed_at.isoformat(timespec="seconds") if model.last_refreshed_at else "never refreshed"
    out.print(f"[bold]{escape(model.name)}[/bold] ({when}): {escape(model.source_query)}")
    if model.content is not None:
        out.print(f"  {escape(model.content)}")


@server_app.command("start")
def server_start() -> None:
    """Start the embedded server (initialising it on first use) and print its DSN."""
    dsn = EmbeddedServer().ensure_running()
    out.print(dsn)


@server_app.command("stop")
def server_stop() -> None:
    """Stop the embedded server."""
    server = EmbeddedServer()
    out.print("stopped" if server.stop() else f"not running ({server.home})")


@server_app.command("status")
def server_status() -> None:
    """Print whether the embedded server is initialised and running."""
    status = EmbeddedServer().status()
    state = f"running (pid {status.pid})" if status.running else "stopped"
    if not status.initialized:
        state = "not initialised (starts on first use)"
    out.print(f"home:   {status.home}\nstate:  {state}\ndsn:    {status.dsn}")


@app.command("import-locomo")
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
    with _client(dsn) as client:
        for conv in conversations:
            bank_id = bank or conv.sample_id
            client.delete_bank(bank_id)
            client.create_bank(bank_id, name=f"LoCoMo {conv.sample_id}: {' and '.join(conv.speakers)}")
            result = _retain_with_progress(client, bank_id, conv.items, f"import {conv.sample_id}")
            skipped = f", {conv.skipped_turns} empty turn(s) skipped" if conv.skipped_turns else ""
            out.print(f"bank {bank_id!r}: {len(conv.items)} turns retained as {len(result.unit_ids)} memory units"
                      f"{skipped}; {_merged(result)}")  # fmt: skip


@app.command()
def mcp(
    http: Annotated[bool, typer.Option("--http", help="Serve streamable HTTP instead of stdio.")] = False,
    host: Annotated[str, typer.Option(help="Address to listen on with --http.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on with --http.")] = 8765,
    dsn: Dsn = None,
) -> None:
    """Serve memory to agents over the Model Context Protocol (tools: retain, recall, reflect, list_banks,
    create_bank, list_entities)."""
    import anyio

    from ._mcp import build_server

    server = build_server(lambda: connect(dsn))
    if http:
        err.print(f"hindsight-pg MCP server on http://{host}:{port}/mcp")
        anyio.run(lambda: server.run_streamable_http_async(host=host, port=port))
    else:
        anyio.run(server.run_stdio_async)


@app.command("serve-models")
def serve_models(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 8081,
    embedding_model: Annotated[
        str, typer.Option(help="all-MiniLM-L6-v2, multilingual-e5-small, or a sentence-transformers model path.")
    ] = "all-MiniLM-L6-v2",
    reranker_model: Annotated[
        str | None, typer.Option(help="A sentence-transformers CrossEncoder path or name (default: no /rerank).")
    ] = None,
) -> None:
    """Serve the local embedding model and cross-encoder over the text-embeddings-inference protocol
    (POST /embed, POST /rerank, GET /health), for {"kind": "http", "url": ...} providers (docs/providers.md)."""
    from hindsight_pl import errors, providers

    from ._model_server import serve

    embedder = providers.LocalEmbedder(embedding_model)
    reranker = providers.LocalReranker(reranker_model) if reranker_model else None
    try:  # load now: a bad model fails here, not on the first request
        embedder.embed(["warm-up"])
        if reranker is not None:
            reranker.rerank("warm-up", ["warm-up"])
    except errors.ProviderError as exc:
        raise ProviderError(str(exc)) from exc
    err.print(f"hindsight-pg model server on http://{host}:{port} (embeddings: {embedding_model}; "
              f"cross-encoder: {reranker_model or 'none'})")  # fmt: skip
    serve(embedder, reranker, host, port)


@app.command()
def demo(
    dsn: Dsn = None,
    file: Annotated[Path, typer.Option(help="A JSON list of turns to retain.")] = EXAMPLE_CONVERSATION,
) -> None:
    """Retain a sample team conversation into bank 'demo' and recall answers to four questions."""
    items = read_items(str(file))
    with _client(dsn) as client:
        client.delete_bank("demo")
        client.create_bank("demo", name="hindsight_pg demo")
        count = len(_retain_with_progress(client, "demo", items, "retain demo").unit_ids)
        # ask as of the end of the conversation, so recency does not depend on today's date
        (asked_at,) = client.conn.execute("SELECT max(mentioned_at) FROM hindsight.memory_units WHERE bank_id = 'demo'")
        out.print(f"retained {count} memory units from {file}; asking as of {asked_at[0]:%Y-%m-%d}\n")
        for kind, question in DEMO_QUESTIONS:
            response = client.recall("demo", question, budget="mid", max_tokens=120, query_timestamp=asked_at[0])
            out.print(f"[bold]Q ({kind}): {question}[/bold]  [dim]{response.total_tokens} tokens[/dim]")
            _print_results(dataclasses.replace(response, results=response.results[:3]), indent="  ")
            out.print()


def main() -> None:
    """Entry point of ``hindsight-pg``: one clear line and exit status 1 on any hindsight error."""
    try:
        app()
    except HindsightError as exc:
        err.print(f"[red]error:[/red] {escape(str(exc))}", soft_wrap=True)
        sys.exit(1)
    except KeyboardInterrupt:
        err.print("interrupted")
        sys.exit(130)
