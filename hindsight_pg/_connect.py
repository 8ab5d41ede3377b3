"""Connecting: the DSN (given, ``$HINDSIGHT_PG_DSN``, else the embedded server), the extension's presence and
version, pgvector's types; a :class:`~hindsight_pg.Client` over the connection."""

from __future__ import annotations

import os
from typing import Any

import psycopg
from pgvector.psycopg import register_vector

from hindsight_pl import __version__
from hindsight_pl.providers import Embedder, Reranker
from hindsight_pl.retain.extract import Extractor

from ._client import Client
from ._errors import ExtensionError, ExtensionVersionError, HindsightError
from ._server import EmbeddedServer

DSN_ENV = "HINDSIGHT_PG_DSN"


def connect(
    dsn: str | None = None,
    *,
    embedder: Embedder | None = None,
    extractor: Extractor | None = None,
    reranker: Reranker | None = None,
) -> Client:
    """Connect to a database that has the hindsight_pg extension and return a :class:`Client`.

    ``dsn`` is a libpq connection string or URI; without it, ``$HINDSIGHT_PG_DSN``;
    without that, the embedded server (started if needed, see
    :class:`hindsight_pg.EmbeddedServer`). ``embedder`` defaults to each bank's own
    provider run in this process (its ``embedding_model``); an embedder given here must
    make the vectors of every bank it is used with (its ``model`` names the model;
    :class:`EmbeddingModelError` otherwise). ``extractor`` (if given) replaces each bank's
    configured fact extractor; ``reranker`` (e.g. :class:`LocalReranker`) scores recall candidates in
    this process instead of the bank's in-database cross-encoder (docs/providers.md).

    Raises :class:`ServerError` when the embedded server cannot start,
    :class:`ExtensionError` when the database lacks the extension,
    :class:`ExtensionVersionError` when its version is not this driver's (``hindsight_pg.__version__``;
    the message says whether to update the extension or the driver), and
    :class:`HindsightError` when the connection fails.
    """
    dsn = dsn or os.environ.get(DSN_ENV) or EmbeddedServer().ensure_running()
    try:
        conn = psycopg.connect(dsn, autocommit=True)
    except psycopg.Error as exc:
        raise HindsightError(f"cannot connect to PostgreSQL: {str(exc).strip()}") from exc
    row = conn.execute("SELECT extversion FROM pg_catalog.pg_extension WHERE extname = 'hindsight_pg'").fetchone()
    try:
        check_extension(row, conn.info.dbname)
    except ExtensionError:
        conn.close()
        raise
    register_vector(conn)
    return Client(conn, embedder=embedder, extractor=extractor, reranker=reranker)


def check_extension(row: tuple[Any, ...] | None, database: str) -> None:
    """Raise :class:`ExtensionError` when ``row`` (``extversion`` of pg_extension's hindsight_pg row, None when
    there is none) says ``database`` lacks the extension, :class:`ExtensionVersionError` when its version is not
    this driver's."""
    if row is None:
        raise ExtensionError(
            f"database {database!r} does not have the hindsight_pg extension",
            hint="Run CREATE EXTENSION hindsight_pg CASCADE; as a superuser (after `make install`).",
        )
    if row[0] != __version__:
        raise ExtensionVersionError(row[0], __version__)
