"""The driver under asyncio: :class:`AsyncClient` over psycopg's ``AsyncConnection``, with every method of
:class:`~hindsight_pg.Client`, its arguments, results and errors.

One definition of each method: an AsyncClient runs the :class:`Client` method itself in a worker thread
(``asyncio.to_thread``: the models it runs, an embedding or an extraction, never block the event loop), and every
statement that method sends goes to the ``AsyncConnection`` on the caller's event loop (:class:`_LoopConnection`
hands it over and waits for its rows). So the SQL, the checks, the result mapping, the retries and the error
classes are the Client's; only the connection differs.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import os
from collections.abc import Awaitable, Callable, Coroutine, Iterator, Sequence
from typing import Any, TypeVar

import psycopg
from pgvector.psycopg import register_vector_async

from ._client import Client
from ._connect import DSN_ENV, check_extension
from ._errors import HindsightError
from ._server import EmbeddedServer

T = TypeVar("T")


class _Rows:
    """What a statement gave, read whole on the event loop: a cursor's ``fetchone``, ``fetchall``, ``description``
    and ``rowcount``, for code written against psycopg's synchronous cursor."""

    def __init__(self, rows: list[Any], description: Any, rowcount: int) -> None:
        self._rows, self.description, self.rowcount = rows, description, rowcount
        self._at = 0

    def fetchone(self) -> Any:
        if self._at >= len(self._rows):
            return None
        self._at += 1
        return self._rows[self._at - 1]

    def fetchall(self) -> list[Any]:
        rest, self._at = self._rows[self._at :], len(self._rows)
        return rest

    def __iter__(self) -> Iterator[Any]:
        return iter(self.fetchall())


class _LoopCursor(_Rows):
    """``conn.cursor(row_factory=...)`` of a :class:`_LoopConnection`: ``execute`` runs on the event loop."""

    def __init__(self, connection: _LoopConnection, row_factory: Any) -> None:
        super().__init__([], None, -1)
        self._connection, self._row_factory = connection, row_factory

    def execute(self, query: Any, params: Any = None) -> _LoopCursor:
        self._rows, self.description, self.rowcount = self._connection._run(
            self._connection._fetch(query, params, self._row_factory, raw=False)
        )
        self._at = 0
        return self

    def __enter__(self) -> _LoopCursor:
        return self

    def __exit__(self, *exc: object) -> None:
        return None


class _LoopConnection:
    """The part of psycopg's synchronous ``Connection`` a :class:`Client` uses (``execute``, ``cursor``,
    ``transaction``, ``info``, ``close`` and the pipeline's raw statements), for a worker thread, over an
    ``AsyncConnection`` whose event loop runs in another thread: each call is handed to the loop and waited for."""

    def __init__(self, conn: psycopg.AsyncConnection[Any], loop: asyncio.AbstractEventLoop) -> None:
        self.aconn, self._loop = conn, loop

    @property
    def info(self) -> Any:
        return self.aconn.info

    def _run(self, coroutine: Coroutine[Any, Any, T]) -> T:
        return asyncio.run_coroutine_threadsafe(coroutine, self._loop).result()

    async def _fetch(self, query: Any, params: Any, row_factory: Any, *, raw: bool) -> tuple[list[Any], Any, int]:
        factory = psycopg.AsyncRawCursor if raw else psycopg.AsyncCursor
        async with factory(self.aconn, row_factory=row_factory) as cur:
            await cur.execute(query, params)
            rows = await cur.fetchall() if cur.description is not None else []
            return rows, cur.description, cur.rowcount

    def execute(self, query: Any, params: Any = None) -> _Rows:
        return _Rows(*self._run(self._fetch(query, params, None, raw=False)))

    def raw_rows(self, statement: str, args: Sequence[Any], row_factory: Any) -> list[Any]:
        """The rows of a statement with ``$n`` parameters (psycopg's raw-query cursor)."""
        return self._run(self._fetch(statement, args, row_factory, raw=True))[0]

    def cursor(self, *, row_factory: Any = None) -> _LoopCursor:
        return _LoopCursor(self, row_factory)

    @contextlib.contextmanager
    def transaction(self) -> Iterator[None]:
        transaction = self.aconn.transaction()
        self._run(transaction.__aenter__())
        try:
            yield
        except BaseException as exc:
            if not self._run(transaction.__aexit__(type(exc), exc, exc.__traceback__)):
                raise
        else:
            self._run(transaction.__aexit__(None, None, None))

    def close(self) -> None:
        self._run(self.aconn.close())


# The methods of Client an AsyncClient offers as coroutines (tests/db/test_async.py checks that every public
# method of Client is here).
METHODS = (
    "create_bank", "configure_bank", "get_bank", "list_banks", "delete_bank",
    "retain", "retain_batch", "update_memory", "delete_memory", "delete_document",
    "recall", "reflect", "consolidate", "list_entities", "reembed", "embedder_for", "embedder_of",
    "create_mental_model", "refresh_mental_model", "get_mental_model", "list_mental_models", "delete_mental_model",
)  # fmt: skip


class AsyncClient:
    """A :class:`Client` for asyncio over one psycopg ``AsyncConnection``: ``await client.recall(...)``, and every
    other method of Client (:data:`METHODS`) the same way, with the same arguments, results and errors.

    The connection must have the pgvector type registered: :func:`connect_async` does it, and so does
    :func:`configure_async`, the ``configure`` of a ``psycopg_pool.AsyncConnectionPool``. Calls on one
    AsyncClient run one at a time (one connection, one statement at a time); concurrent calls want a pool,
    an AsyncClient per connection taken from it. ``embedder``, ``extractor`` and ``reranker`` as for Client.
    """

    def __init__(self, conn: psycopg.AsyncConnection[Any], **models: Any) -> None:
        self.conn = conn
        self._models = models
        self._client: Client | None = None  # made on the first call, bound to the loop that made it
        self._lock = asyncio.Lock()

    def _bound(self) -> Client:
        if self._client is None:
            self._client = Client(_LoopConnection(self.conn, asyncio.get_running_loop()),  # type: ignore[arg-type]
                                  **self._models)  # fmt: skip
        return self._client

    @property
    def retries(self) -> int:
        """Calls run again after a deadlock, a serialization failure or a Citus worker's failure (Client.retries)."""
        return self._client.retries if self._client else 0

    @property
    def llm_usage(self) -> list[dict[str, Any]]:
        """One record per language-model call (Client.llm_usage)."""
        return self._client.llm_usage if self._client else []

    def __getattr__(self, name: str) -> Callable[..., Awaitable[Any]]:
        if name not in METHODS:
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
        method = getattr(Client, name)

        @functools.wraps(method)
        async def call(*args: Any, **kwargs: Any) -> Any:
            async with self._lock:
                client = self._bound()
                return await asyncio.to_thread(getattr(client, name), *args, **kwargs)

        return call

    async def close(self) -> None:
        """Close the connection."""
        await self.conn.close()

    async def __aenter__(self) -> AsyncClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()


async def configure_async(conn: psycopg.AsyncConnection[Any]) -> None:
    """Make a new ``AsyncConnection`` ready for an :class:`AsyncClient`: check that its database has this driver's
    version of the extension and register the pgvector type. Pass it as ``configure`` to a
    ``psycopg_pool.AsyncConnectionPool``. Raises :class:`ExtensionError` / :class:`ExtensionVersionError` as
    :func:`~hindsight_pg.connect` does."""
    cursor = await conn.execute("SELECT extversion FROM pg_catalog.pg_extension WHERE extname = 'hindsight_pg'")
    check_extension(await cursor.fetchone(), conn.info.dbname)
    await register_vector_async(conn)


async def connect_async(dsn: str | None = None, **models: Any) -> AsyncClient:
    """:func:`~hindsight_pg.connect` for asyncio: an :class:`AsyncClient` on a new autocommit ``AsyncConnection``
    (``dsn``, else ``$HINDSIGHT_PG_DSN``, else the embedded server), checked and configured by
    :func:`configure_async`; ``embedder``, ``extractor`` and ``reranker`` as for connect. Raises what connect
    raises."""
    target = dsn or os.environ.get(DSN_ENV)
    if not target:
        target = await asyncio.to_thread(EmbeddedServer().ensure_running)
    try:
        conn = await psycopg.AsyncConnection.connect(target, autocommit=True)
    except psycopg.Error as exc:
        raise HindsightError(f"cannot connect to PostgreSQL: {str(exc).strip()}") from exc
    try:
        await configure_async(conn)
    except BaseException:
        await conn.close()
        raise
    return AsyncClient(conn, **models)
