"""Query analysis speed: hindsight.parse_temporal in a fresh database session, first call and typical calls.

    .venv/bin/python bench/temporal.py [--calls 300]

Prints the first call of a session (imports hindsight_pl), the first call that needs
dateparser (imports it), and medians over mixed queries: with no date signal (no
dateparser), with an explicit rule, and falling back to dateparser.
"""

from __future__ import annotations

import argparse
import statistics
import time

import psycopg
from _common import header

import hindsight_pg

NO_SIGNAL = ["Who leads Project Falcon?", "What does Tom do to unwind?", "check job 4417", "port 9077 status"]
RULES = ["What did Alice do last spring?", "last week", "上周的会议", "la semana pasada", "in 2019", "Q3 2024"]
FALLBACK = ["notes from 03/05/2024", "see you on 5.3.2024", "the 15th of June"]  # no explicit rule takes these


def timed(conn: psycopg.Connection, query: str) -> float:
    started = time.perf_counter()
    conn.execute("SELECT hindsight.parse_temporal(%s, '2025-01-15 10:00+00')", (query,)).fetchone()
    return (time.perf_counter() - started) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--calls", type=int, default=300)
    parser.add_argument("--dsn", default=None)
    args = parser.parse_args()
    dsn = args.dsn or hindsight_pg.connect(args.dsn, embedder=None).conn.info.dsn
    with psycopg.connect(dsn, autocommit=True) as conn:  # a fresh session: nothing imported yet
        print(header(conn))
        first = timed(conn, "last week")
        first_fallback = timed(conn, FALLBACK[0])
        groups = {"no date signal": NO_SIGNAL, "explicit rule": RULES, "dateparser fallback": FALLBACK}
        medians = {}
        for name, queries in groups.items():
            values = [timed(conn, queries[i % len(queries)]) for i in range(args.calls)]
            medians[name] = statistics.median(values)
    print(f"first call in a session (imports hindsight_pl):   {first:8.2f} ms")
    print(f"first call needing dateparser (imports it):        {first_fallback:8.2f} ms")
    for name, value in medians.items():
        print(f"median, {name:<40} {value:8.3f} ms")


if __name__ == "__main__":
    main()
