"""What the pipeline needs of a database: run one statement and fetch its rows.

A statement is SQL with ``$1``, ``$2``, ... parameters, each cast where it first appears (``$1::text``,
``$4::uuid[]``), so the statement itself says the types (``plpy.prepare`` needs them; psycopg reads
the same text with its raw-query cursor). Rows come back as dicts. So that both implementations give
the same Python values, statements return only text, numbers, booleans and arrays of those: uuids,
times and JSON are cast to text in the statement (``id::text``, ``to_json(t) #>> '{}'``,
``doc::text``), and parameters go in as text, numbers, lists or None.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, Protocol

PARAMETER = re.compile(r"\$(\d+)(?:::((?:[A-Za-z_][\w.]*)(?: precision)?(?:\[\])?))?")


class Database(Protocol):
    """Runs ``statement`` with ``args`` ($1, $2, ... in order) and returns its rows as dicts."""

    def rows(self, statement: str, *args: Any) -> list[dict[str, Any]]: ...


def parameter_types(statement: str) -> list[str]:
    """The type of each parameter of ``statement``, $1 first, from the cast where it first appears.
    Raises ValueError for a parameter never cast or a number skipped."""
    types: dict[int, str] = {}
    for number, cast in PARAMETER.findall(statement):
        if cast and int(number) not in types:
            types[int(number)] = cast
    numbers = {int(n) for n, _ in PARAMETER.findall(statement)}
    if not numbers:
        return []
    missing = sorted(set(range(1, max(numbers) + 1)) - set(types))
    if missing:
        raise ValueError(f"statement parameters {missing} are not cast to a type: {statement[:80]!r}")
    return [types[n] for n in sorted(types)]


def one(db: Database, statement: str, *args: Any) -> dict[str, Any] | None:
    """The first row of ``statement``, or None."""
    found = db.rows(statement, *args)
    return found[0] if found else None


class PlpyDatabase:
    """:class:`Database` over PL/Python's ``plpy``, inside PostgreSQL. Each statement is prepared once per
    ``plans`` (PL/Python's ``GD``, so once per session)."""

    def __init__(self, plpy: Any, plans: dict[str, Any]) -> None:
        self.plpy = plpy
        self.plans = plans

    def rows(self, statement: str, *args: Any) -> list[dict[str, Any]]:
        plan = self.plans.get(statement)
        if plan is None:
            plan = self.plans[statement] = self.plpy.prepare(statement, parameter_types(statement))
        return [dict(row) for row in self.plpy.execute(plan, list(args))]


def sequence(value: Sequence[Any] | None) -> list[Any] | None:
    """A list for an array parameter (None stays None)."""
    return None if value is None else list(value)
