"""The pipeline's database (:class:`hindsight_pl.pipeline.database.Database`) over a psycopg 3 connection."""

from __future__ import annotations

from typing import Any

import psycopg
from psycopg.rows import dict_row


class PsycopgDatabase:
    """Runs the pipeline's statements (``$1::type`` parameters) on ``conn`` with psycopg's raw-query
    cursor, rows as dicts. Errors are psycopg's; the client translates them."""

    def __init__(self, conn: psycopg.Connection[Any]) -> None:
        self.conn = conn

    def rows(self, statement: str, *args: Any) -> list[dict[str, Any]]:
        if not isinstance(self.conn, psycopg.Connection):  # an AsyncClient's connection (hindsight_pg._async)
            return self.conn.raw_rows(statement, args, dict_row)
        with psycopg.RawCursor(self.conn, row_factory=dict_row) as cur:
            cur.execute(statement, args)
            return cur.fetchall() if cur.description is not None else []
