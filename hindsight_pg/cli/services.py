"""Long-running services: the embedded server, the MCP server, the model server."""

from __future__ import annotations

from typing import Annotated

import typer

from .._connect import connect
from .._errors import ProviderError
from .._server import MODELS_PORT, EmbeddedServer
from . import _render as render
from ._app import Dsn, app, server_app


@server_app.command("start", short_help="Start the embedded server and print its DSN.")
def server_start(
    models: Annotated[
        bool,
        typer.Option(
            "--models",
            help="Also start the model server (serve-models: multilingual-e5-small and the reader) and point the"
            " database at it: one copy of the models instead of one a session (docs/providers.md#many-short-sessions).",
        ),
    ] = False,
    models_port: Annotated[
        int, typer.Option(help="The model server's port on 127.0.0.1, with --models.")
    ] = MODELS_PORT,
) -> None:
    """Start the embedded server (initialising it on first use) and print its DSN; with --models, the model
    server too (its URL on stderr). `server stop` stops both."""
    server = EmbeddedServer()
    dsn = server.ensure_running()
    if models:
        url = server.start_models(port=models_port)
        render.err.print(f"model server on {url} (log: {server.home / 'models.log'})")
    render.out.print(dsn)


@server_app.command("stop")
def server_stop() -> None:
    """Stop the embedded server."""
    server = EmbeddedServer()
    render.out.print("stopped" if server.stop() else f"not running ({server.home})")


@server_app.command("status")
def server_status() -> None:
    """Print whether the embedded server is initialised and running."""
    status = EmbeddedServer().status()
    state = f"running (pid {status.pid})" if status.running else "stopped"
    if not status.initialized:
        state = "not initialised (starts on first use)"
    models = EmbeddedServer().models_url() or "none (each session loads its own)"
    render.out.print(f"home:   {status.home}\nstate:  {state}\ndsn:    {status.dsn}\nmodels: {models}")


@app.command(short_help="Serve memory to agents over MCP (stdio or HTTP).")
def mcp(
    http: Annotated[bool, typer.Option("--http", help="Serve streamable HTTP instead of stdio.")] = False,
    host: Annotated[str, typer.Option(help="Address to listen on with --http.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on with --http.")] = 8766,
    dsn: Dsn = None,
) -> None:
    """Serve memory to agents over the Model Context Protocol (tools: retain, recall, reflect, list_banks,
    create_bank, list_entities)."""
    import anyio

    from .._mcp import build_server

    server = build_server(lambda: connect(dsn))
    if http:
        render.err.print(f"hindsight-pg MCP server on http://{host}:{port}/mcp")
        anyio.run(lambda: server.run_streamable_http_async(host=host, port=port))
    else:
        anyio.run(server.run_stdio_async)


@app.command("serve-models", short_help="Serve the local models over the TEI protocol.")
def serve_models(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.")] = MODELS_PORT,
    embedding_model: Annotated[
        str, typer.Option(help="all-MiniLM-L6-v2, multilingual-e5-small, or a sentence-transformers model path.")
    ] = "multilingual-e5-small",
    reranker_model: Annotated[
        str | None,
        typer.Option(
            help="hindsight-reader (the packaged reader), an ONNX export's folder, or a sentence-transformers"
            " CrossEncoder path (default: no /rerank)."
        ),
    ] = None,
    threads: Annotated[
        int | None,
        typer.Option(
            min=1,
            help="Native threads of each model call (requests take turns on the models); default"
            " HINDSIGHT_EMBED_THREADS, else 1 (docs/providers.md#threads).",
        ),
    ] = None,
) -> None:
    """Serve the local embedding model and cross-encoder over the text-embeddings-inference protocol
    (POST /embed, POST /rerank, GET /health), for {"kind": "http", "url": ...} providers (docs/providers.md)."""
    from hindsight_pl import errors, providers

    from .._model_server import serve

    embedder = providers.LocalEmbedder(embedding_model, threads=threads)
    reranker = providers.LocalReranker(reranker_model, threads=threads) if reranker_model else None
    try:  # load now: a bad model fails here, not on the first request
        embedder.embed(["warm-up"])
        if reranker is not None:
            reranker.rerank("warm-up", ["warm-up"])
    except errors.ProviderError as exc:
        raise ProviderError(str(exc)) from exc
    render.err.print(f"hindsight-pg model server on http://{host}:{port} (embeddings: {embedding_model}; "
              f"cross-encoder: {reranker_model or 'none'}; {embedder.threads} threads a call)")  # fmt: skip
    serve(embedder, reranker, host, port)


@app.command(short_help="Serve a read-only web inspector of the banks and of recall.")
def ui(
    dsn: Dsn = None,
    host: Annotated[str, typer.Option(help="Address to listen on (127.0.0.1: this machine only).")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 8765,
) -> None:
    """Serve the inspector (docs/ui.md): the banks with their counts, a bank's timeline and entities, and a
    recall playground that shows why each memory came back. Read-only; it connects as the DSN's role, so
    row-level security decides what it shows."""
    import uvicorn

    from ..ui import LOOPBACK, create_app

    # the Host header must name this server (no DNS rebinding); bound to every address, any name goes
    allowed = LOOPBACK if host in LOOPBACK else ["*"] if host in ("0.0.0.0", "::") else [host]
    render.err.print(f"hindsight-pg inspector on http://{host}:{port} (Ctrl-C stops it)")
    uvicorn.run(create_app(dsn, allowed_hosts=allowed), host=host, port=port, log_level="warning")
