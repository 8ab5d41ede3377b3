"""One short message through retain: where its time goes, from the driver and from SQL.

A bank of --units facts (the conversation of bench/retain.py, retained untimed) takes --n messages of one sentence
each, one at a time, through ``Client.retain`` (the driver: extraction and embedding in this process) and through
``SELECT hindsight.retain_text(...)`` (all in the database, one statement). Printed: median and p90 of each, and
the driver's call split into its parts (the bank's config and known names read, extraction, embedding,
``hindsight.retain``, the rest: preparing the item, the transaction's begin and commit) and the database's
``hindsight.retain`` into its functions (self time per call, from ``pg_stat_user_functions`` over a second run of
the same messages with ``track_functions = 'all'``: entity resolution, links, updates, the statistics and postings
triggers, the item checks). The driver's embedder computes on HINDSIGHT_EMBED_THREADS threads, else 1
(docs/providers.md#threads).

    .venv/bin/python bench/retain_one.py [--units 300] [--n 50] [--dsn DSN]
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from typing import Any

from _common import analyze, header, write_results
from retain import conversation

import hindsight_pg
from hindsight_pg import _database
from hindsight_pl import providers
from hindsight_pl.pipeline import retain as retaining
from hindsight_pl.retain.extract import OfflineExtractor

BANK = "bench-retain-one"
PEOPLE = ["Ana", "Bo", "Chen", "Dara", "Eli", "Farah", "Goran", "Hana"]
PLACES = ["Lisbon", "Kyoto", "Oslo", "Lyon", "Porto", "Tallinn"]
START = datetime(2025, 3, 1, 9, tzinfo=UTC)

RETAIN_TEXT = "SELECT count(*) FROM hindsight.retain_text(%s, %s, mentioned_at => %s)"
FUNCTIONS = """
SELECT p.proname, s.calls, s.self_time FROM pg_catalog.pg_stat_user_functions s
JOIN pg_catalog.pg_proc p ON p.oid = s.funcid WHERE s.schemaname = 'hindsight'
"""


def message(i: int) -> str:
    """The i-th short message: one sentence with two names and a place."""
    a, b = PEOPLE[i % len(PEOPLE)], PEOPLE[(i * 3 + 1) % len(PEOPLE)]
    return f"{a} told {b} that the workshop in {PLACES[i % len(PLACES)]} moves to week {i % 50 + 1}."


def figures(ms: list[float]) -> str:
    """median and p90 of milliseconds."""
    cut = statistics.quantiles(ms, n=10)
    return f"median {statistics.median(ms):7.1f} ms  p90 {cut[-1]:7.1f} ms"


class Clock:
    """Milliseconds spent in named parts of the calls since the last :meth:`take`."""

    def __init__(self) -> None:
        self.spent: dict[str, float] = defaultdict(float)

    @contextmanager
    def part(self, name: str) -> Iterator[None]:
        start = time.perf_counter()
        try:
            yield
        finally:
            self.spent[name] += (time.perf_counter() - start) * 1000

    def wrap(self, owner: Any, attribute: str, name: Callable[..., str] | str) -> None:
        """Times every call of ``owner.attribute`` under ``name`` (or ``name(*args)``)."""
        original = getattr(owner, attribute)

        def timed(*args: Any, **kwargs: Any) -> Any:
            with self.part(name if isinstance(name, str) else name(*args)):
                return original(*args, **kwargs)

        setattr(owner, attribute, timed)

    def take(self) -> dict[str, float]:
        spent, self.spent = dict(self.spent), defaultdict(float)
        return spent


def statement(_db: Any, sql: str, *_args: Any) -> str:
    """The part of the driver's call a statement is."""
    if "hindsight.retain(" in sql:
        return "hindsight.retain (database)"
    return "config, known names (database)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--units", type=int, default=300, help="facts in the bank before the messages")
    parser.add_argument("--n", type=int, default=50, help="messages through each path")
    parser.add_argument("--dsn", default=None)
    parser.add_argument("--keep", action="store_true", help="keep the bank for the next run, and reuse a kept one")
    args = parser.parse_args()

    client = hindsight_pg.connect(args.dsn)
    conn = client.conn
    print(header(conn), f"load {os.getloadavg()[0]:.2f}, driver embedding threads {providers.threads()}")
    kept = args.keep and any(b.bank_id == BANK for b in client.list_banks())
    if not kept:
        client.delete_bank(BANK)
        client.create_bank(BANK)
    try:
        if not kept:
            client.retain_batch(BANK, conversation(args.units))
        analyze(conn)
        (units,) = conn.execute("SELECT count(*) FROM hindsight.memory_units WHERE bank_id = %s", (BANK,)).fetchone()
        print(f"bank: {units} units")
        # warm both paths: the models, the in-database Python, plans
        client.retain(BANK, message(0), timestamp=START)
        conn.execute(RETAIN_TEXT, (BANK, message(0), START))

        clock = Clock()
        clock.wrap(retaining, "bank_config", "config, known names (database)")
        clock.wrap(_database.PsycopgDatabase, "rows", statement)
        clock.wrap(OfflineExtractor, "extract", "extraction")
        embedder = client.embedder_of(BANK, retaining.bank_config(_database.PsycopgDatabase(conn), BANK))
        clock.wrap(embedder, "embed", "embedding")

        def run(offset: int) -> tuple[list[float], list[float], list[dict[str, float]]]:
            driver, sql, parts = [], [], []
            for i in range(offset, offset + args.n):
                when = START + timedelta(hours=i)
                start = time.perf_counter()
                client.retain(BANK, message(i), timestamp=when)
                driver.append((time.perf_counter() - start) * 1000)
                spent = clock.take()
                spent["the rest (item, begin, commit)"] = driver[-1] - sum(spent.values())
                parts.append(spent)
                start = time.perf_counter()
                conn.execute(RETAIN_TEXT, (BANK, message(i + 1000), when)).fetchone()
                sql.append((time.perf_counter() - start) * 1000)
            return driver, sql, parts

        driver, sql, parts = run(1)
        print(f"Client.retain          {figures(driver)}")
        print(f"SQL retain_text        {figures(sql)}")
        print("driver's call, by part (median ms):")
        medians = {k: statistics.median(p.get(k, 0.0) for p in parts) for k in {k for p in parts for k in p}}
        for name, ms in sorted(medians.items(), key=lambda x: -x[1]):
            print(f"  {name:<34}{ms:7.1f}")

        # the database's functions, self time per call, on the same messages again (tracking costs a little)
        conn.execute("SET track_functions = 'all'")
        time.sleep(1.5)
        before = {r[0]: (r[1], r[2]) for r in conn.execute(FUNCTIONS).fetchall()}
        run(1 + args.n)
        conn.execute("SET track_functions = 'none'")
        time.sleep(1.5)  # the backend sends its statistics when idle, at most once a second
        conn.execute("SELECT pg_stat_clear_snapshot()")
        after = {r[0]: (r[1], r[2]) for r in conn.execute(FUNCTIONS).fetchall()}
        per_call = {name: (after[name][1] - before.get(name, (0, 0.0))[1]) / (2 * args.n) for name in after}
        print("database functions, self time per retain (mean ms over both paths):")
        for name, ms in sorted(per_call.items(), key=lambda x: -x[1])[:14]:
            print(f"  {name:<34}{ms:7.2f}")

        def spread(values: list[float]) -> dict[str, float]:
            ordered = sorted(values)
            return {"median": statistics.median(ordered), "p90": ordered[int(0.9 * (len(ordered) - 1))]}

        write_results("retain_one", header(conn), {
            "load": os.getloadavg()[0], "units": units, "messages": args.n, "client_retain_ms": spread(driver),
            "retain_text_ms": spread(sql), "driver_parts_median_ms": medians,
            "functions_self_ms": dict(sorted(per_call.items(), key=lambda x: -x[1])[:14]),
        })  # fmt: skip
    finally:
        if not args.keep:
            client.delete_bank(BANK)


if __name__ == "__main__":
    main()
