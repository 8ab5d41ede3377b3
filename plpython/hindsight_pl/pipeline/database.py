"""What the pipeline needs of a database: run one statement and fetch its rows.

A statement is SQL with ``$1``, ``$2``, ... parameters, each cast where it first appears (``$1::text``,
``$4::uuid[]``), so the statement itself says the types (``plpy.prepare`` needs them; psycopg reads
the same text with its raw-query cursor). Rows come back as dicts. Parameters go in as text,
numbers, lists or None. The two implementations return a uuid (text in plpy, ``UUID`` in psycopg)
and JSON (text in plpy, decoded in psycopg) differently: :func:`text_of` and :func:`json_of` read
either. Statements cast such columns to text where they can; a call Citus should send whole to the
worker holding the bank stays a bare function call (``SELECT hindsight.recall_json(...)``, no cast
around it: docs/scale-out.md), and its value is read with these two.
"""

from __future__ import annotations

import json
import re
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


def sqlstate_of(error: Any) -> str | None:
    """The SQLSTATE of a ``plpy.SPIError``: PL/Python sets ``sqlstate`` on the classes of PostgreSQL's own codes
    only; ``spidata[0]`` holds any code packed six bits a character, first character lowest (PostgreSQL's
    MAKE_SQLSTATE)."""
    code = getattr(error, "sqlstate", None)
    if code is not None:
        return str(code)
    data = getattr(error, "spidata", None)
    if not data or not isinstance(data[0], int):
        return None
    return "".join(chr(((data[0] >> (6 * i)) & 0x3F) + ord("0")) for i in range(5))


def text_of(value: Any) -> str | None:
    """A uuid (or text) column as text, None as None."""
    return None if value is None else str(value)


def json_of(value: Any) -> Any:
    """A json or jsonb column decoded: plpy gives its text, psycopg the value."""
    return json.loads(value) if isinstance(value, str) else value
