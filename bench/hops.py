"""Hop count of one recall: how many of the extension's functions a call reaches, how often, how many of those
calls cross from SQL into the in-database Python, and how many times the bank's configuration is read (the
driver keeps it from its last call to the bank and the database checks it, ``config_seen``: one read a recall; a
client's first call to a bank reads it twice).

In one transaction with ``track_functions = 'all'`` (superuser), the call runs, then
``pg_stat_xact_user_functions`` (schema hindsight, joined to pg_proc / pg_language) gives every function the
transaction called and how often. A SQL function the planner inlines is not counted (it is no call). Config
reads are the calls of ``hindsight.bank_config`` (``hindsight.provider_config`` reads it through that one).

Cases, on a small bank this script makes (``bench-hops``: a few dated facts, retained from SQL, so that all
four arms run) and drops:

- ``sql recall``: ``SELECT * FROM hindsight.recall(...)``, the query embedded in the database, a window parsed
  from the query;
- ``driver recall``: ``Client.recall`` (the query embedded in the driver's process), its statements counted
  together.

    .venv/bin/python bench/hops.py [--dsn DSN] [--json]
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from typing import Any

from _common import header, write_results

import hindsight_pg

BANK = "bench-hops"
QUERY = "What did Priya decide about Project Falcon in March 2025?"
WHEN = "2025-06-01T00:00:00+00:00"
FACTS = [  # retained through hindsight.retain_text (its offline extraction, entities and links)
    ("Priya moved the Project Falcon launch to April after the load tests failed.", "2025-03-04"),
    ("Priya and Omar agreed that Project Falcon ships without the billing module.", "2025-03-12"),
    ("Omar reported that the Project Falcon load tests pass again.", "2025-03-20"),
    ("Priya took a week off in Lisbon.", "2025-02-10"),
    ("The billing module of Project Falcon needs a security review.", "2025-01-28"),
    ("Dana joined the Project Falcon team as a designer.", "2024-11-05"),
]

COUNTS = """
SELECT p.proname AS name, l.lanname AS language, s.calls
FROM pg_catalog.pg_stat_xact_user_functions s
JOIN pg_catalog.pg_proc p ON p.oid = s.funcid
JOIN pg_catalog.pg_language l ON l.oid = p.prolang
WHERE s.schemaname = 'hindsight'
ORDER BY s.calls DESC, p.proname
"""


def counted(client: hindsight_pg.Client, call: Callable[[], Any]) -> dict[str, Any]:
    """Runs ``call`` in one transaction that tracks every function call; its hop figures. The view holds the
    session's counts not yet reported (PostgreSQL reports them at most once a second), so the counts before the
    call are taken away."""
    conn = client.conn
    with conn.transaction():
        conn.execute("SET LOCAL track_functions = 'all'")
        before = {(r[0], r[1]): r[2] for r in conn.execute(COUNTS).fetchall()}
        call()
        after = conn.execute(COUNTS).fetchall()
    rows = sorted(((r[0], r[1], r[2] - before.get((r[0], r[1]), 0)) for r in after), key=lambda r: (-r[2], r[0]))
    rows = [r for r in rows if r[2] > 0]
    return {
        "functions": len(rows),
        "calls": sum(r[2] for r in rows),
        "python_calls": sum(r[2] for r in rows if r[1] == "plpython3u"),
        "config_reads": sum(r[2] for r in rows if r[0] == "bank_config"),
        "by_function": {f"{r[0]} ({r[1]})": r[2] for r in rows},
    }


def report(figures: dict[str, dict[str, Any]], *, as_json: bool) -> None:
    """Prints one row of :func:`counted`'s figures per case, and with ``as_json`` every function's calls."""
    print(f"{'':<16}{'functions':>10}{'calls':>8}{'python':>8}{'config':>8}")
    for name, f in figures.items():
        print(f"{name:<16}{f['functions']:>10}{f['calls']:>8}{f['python_calls']:>8}{f['config_reads']:>8}")
    if as_json:
        print(json.dumps(figures, indent=1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--dsn", default=None)
    parser.add_argument("--json", action="store_true", help="print every function's call count as JSON too")
    args = parser.parse_args()

    client = hindsight_pg.connect(args.dsn)
    conn = client.conn
    print(header(conn))
    conn.execute("SELECT hindsight.delete_bank(%s)", (BANK,))
    conn.execute("SELECT hindsight.create_bank(%s)", (BANK,))
    try:
        for text, day in FACTS:
            conn.execute("SELECT count(*) FROM hindsight.retain_text(%s, %s, mentioned_at => %s)", (BANK, text, day))
        # warm both paths first (the in-database Python, the models, plans): a hop count, not a first call
        conn.execute("SELECT count(*) FROM hindsight.recall(%s, %s, query_timestamp => %s)", (BANK, QUERY, WHEN))
        client.recall(BANK, QUERY, query_timestamp=WHEN)
        cases = {
            "sql recall": lambda: conn.execute(
                "SELECT count(*) FROM hindsight.recall(%s, %s, query_timestamp => %s)", (BANK, QUERY, WHEN)
            ).fetchall(),
            "driver recall": lambda: client.recall(BANK, QUERY, query_timestamp=WHEN),
        }
        figures = {name: counted(client, call) for name, call in cases.items()}
    finally:
        conn.execute("SELECT hindsight.delete_bank(%s)", (BANK,))
    report(figures, as_json=args.json)
    write_results("hops", header(conn), figures)


if __name__ == "__main__":
    main()
