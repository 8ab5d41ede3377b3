"""A bank's memory units' dates as the interfaces show them (CLI, MCP, inspector): the bank's time zone, and
the said / about dates of given units, for :func:`hindsight_pg._types.describe_when` (docs/reference.md,
"A unit's dates")."""

from __future__ import annotations

import contextlib
from collections.abc import Iterable
from datetime import datetime
from uuid import UUID

from ._client import Client

Dates = tuple[datetime | None, datetime | None, datetime | None]  # mentioned_at, occurred_start, occurred_end


def bank_time_zone(client: Client, bank_id: str) -> str:
    """The bank's ``time_zone`` config (default UTC): the zone whose days its memories' dates are shown in.
    Raises :class:`~hindsight_pg.BankNotFoundError` for an unknown bank."""
    return str(client.get_bank(bank_id).config.get("time_zone") or "UTC")


def unit_dates(client: Client, bank_id: str, ids: Iterable[str]) -> dict[str, Dates]:
    """(mentioned_at, occurred_start, occurred_end) of the bank's memory units among ``ids`` (uuid text), by id;
    an id that is no unit of the bank (a mental model, a cited source's chunk id) is left out. One query."""
    uuids = []
    for text in ids:
        with contextlib.suppress(ValueError):
            uuids.append(UUID(text))
    rows = client.conn.execute(
        "SELECT id::text, mentioned_at, occurred_start, occurred_end FROM hindsight.memory_units"
        " WHERE bank_id = %s AND id = ANY(%s)",
        (bank_id, uuids),
    ).fetchall()
    return {unit: (said, start, end) for unit, said, start, end in rows}
