"""Thousands of banks (docs/benchmarks.md, "Many banks"; docs/reliability.md).

Builds, once, a database of 5,000 banks (4,900 of 20 memory units, 100 of 2,000; synthetic unit
vectors and words) and a second database holding one of the 2,000-unit banks alone, then measures:

1. design: planning time and locks of a one-bank nearest-neighbour query on 1,500 banks of 6 units,
   with a partial HNSW index per bank (the 0.2.0 design) and with the one shared index (this one);
2. planning time of recall's statements for one bank, and the locks one recall holds;
3. recall p50 / p95 in a 2,000-unit bank among 5,000 banks against the same bank alone;
4. 16 sessions recalling random banks for 60 s (default max_locks_per_transaction): recalls/s, errors;
5. a bank crossing hnsw_min_units while 4 sessions retain into other banks: their slowest retain;
6. load: 8 sessions mixing retain and recall on 50 banks for 60 s: retains/s, recalls/s, p50/p95, errors.

With --million, instead: a database of 1,000,000 units over 1,000 banks of mixed sizes (one of 100,000, nine of
30,000, ninety of 5,000, one of 1,000, 299 of 500, 600 of 10 to 90), and two more holding its 1,000-unit and its
100,000-unit bank alone (built once, about 15 minutes on 2 cores, most of it the shared HNSW index over a million
random vectors), then:

7. recall p50 / p95 in the 1,000-unit bank and in the 100,000-unit bank, among the million and alone (turn by
   turn, 3 x 200 queries);
8. retain p50 / p95: 4 sessions retaining one unit at a time into a new small bank for --seconds, in the million
   database and in the 1,000-unit bank's own database.

Everything runs against the embedded server (or --dsn); the databases are kept for the next run.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import threading
import time
from collections.abc import Callable
from typing import Any

import psycopg
from _common import analyze, header, percentile

import hindsight_pg

BIG_DB = "hindsight_bench_banks"
ALONE_DB = "hindsight_bench_alone"
SMALL, SMALL_UNITS, LARGE, LARGE_UNITS = 4900, 20, 100, 2000
MILLION_DB = "hindsight_bench_million"
# 1,000 banks, 1,000,446 units: (name, units)
MILLION_BANKS = (
    [("m-100000", 100_000), ("m-1000", 1_000)]
    + [(f"m-30000-{i}", 30_000) for i in range(9)]
    + [(f"m-5000-{i}", 5_000) for i in range(90)]
    + [(f"m-500-{i}", 500) for i in range(299)]
    + [(f"m-tiny-{i}", 10 + i * 7 % 81) for i in range(600)]
)
WORDS = ("garden tulip oslo budget meeting flight ticket room report review launch sensor lab client "
         "invoice travel dentist piano recipe hiking server backup deadline").split()  # fmt: skip


def vector_sql(seed_column: str) -> str:
    """SQL for a random unit vector, one per row (the reference to the row keeps it from being a constant)."""
    return (
        f"l2_normalize((SELECT array_agg(random() - 0.5) FROM generate_series(1, 384) WHERE {seed_column} > 0)::vector)"
    )


def text_sql(n: str, b: str) -> str:
    """SQL for a unit's text: its number, its bank and three of WORDS chosen by the number."""
    words = "ARRAY[" + ", ".join(f"'{w}'" for w in WORDS) + "]"
    # %% is psycopg's escape for the modulo operator
    picks = [f"({words})[1 + ({n} * {k} + {o}) %% {len(WORDS)}]" for k, o in ((7, 0), (13, 5), (3, 11))]
    return f"'note ' || {n} || ' of ' || {b} || ': ' || " + " || ' ' || ".join(picks)


def fill(conn: psycopg.Connection[Any], pieces: list[tuple[str, int, int]]) -> None:
    """Banks and their units ``first``..``last`` of each piece (bank, first, last) straight into the tables (the
    triggers keep the statistics)."""
    conn.execute(
        "INSERT INTO hindsight.banks (bank_id) SELECT unnest(%s::text[]) ON CONFLICT DO NOTHING",
        (sorted({b for b, _, _ in pieces}),),
    )
    conn.execute(
        f"""INSERT INTO hindsight.memory_units (bank_id, text, embedding, mentioned_at, token_count, search_vector)
            SELECT s.b, {text_sql("s.n", "s.b")}, {vector_sql("s.n")},
                   timestamptz '2025-01-01' + s.n * interval '1 hour', 12,
                   hindsight._search_vector({text_sql("s.n", "s.b")}, 'english')
            FROM (SELECT b.bank_id AS b, g AS n
                  FROM unnest(%s::text[], %s::int[], %s::int[]) AS b(bank_id, first, last),
                       generate_series(b.first, b.last) g) s""",
        ([b for b, _, _ in pieces], [f for _, f, _ in pieces], [t for _, _, t in pieces]),
    )


def pieces_of(banks: list[tuple[str, int]], most: int = 20_000) -> list[list[tuple[str, int, int]]]:
    """``banks`` (name, units) cut into statements of at most ``most`` units (a trigger holds a statement's rows)."""
    statements: list[list[tuple[str, int, int]]] = [[]]
    room = most
    for bank, size in banks:
        first = 1
        while first <= size:
            if room == 0:
                statements.append([])
                room = most
            last = min(size, first + room - 1)
            statements[-1].append((bank, first, last))
            room -= last - first + 1
            first = last + 1
    return statements


def database(admin_dsn: str, name: str, banks: list[tuple[str, int]], rebuild: bool = False) -> str:
    """The DSN of database ``name`` holding ``banks``, built unless it already holds them (or ``rebuild``)."""
    dsn = psycopg.conninfo.make_conninfo(admin_dsn, dbname=name)
    with psycopg.connect(admin_dsn, autocommit=True) as admin:
        if admin.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone():
            with psycopg.connect(dsn) as conn:  # reused: the retains of the phases below add to it a little
                row = conn.execute("SELECT count(*) FROM hindsight.banks WHERE bank_id = ANY (%s)",
                                   ([b for b, _ in banks],)).fetchone()  # fmt: skip
            if row == (len(banks),) and not rebuild:
                return dsn
            admin.execute(f'DROP DATABASE "{name}" WITH (FORCE)')
        admin.execute(f'CREATE DATABASE "{name}"')
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute("CREATE EXTENSION hindsight_pg CASCADE")
        conn.execute("SELECT setseed(0.15)")
        # the shared index is built once over the loaded rows (faster than unit by unit), under its own name
        conn.execute("DROP INDEX hindsight.memory_units_embedding_idx")
        started = time.perf_counter()
        statements = pieces_of(banks)
        for done, pieces in enumerate(statements, 1):
            fill(conn, pieces)
            print(f"\r  {name}: {done:,}/{len(statements):,} statements loaded", end="", file=sys.stderr)
        print(f" in {time.perf_counter() - started:.0f} s", file=sys.stderr)
        started = time.perf_counter()
        conn.execute("SET maintenance_work_mem = '4GB'")  # a million vectors' graph fits
        conn.execute("CREATE INDEX memory_units_embedding_idx ON hindsight.memory_units"
                     " USING hnsw (embedding vector_cosine_ops)")  # fmt: skip
        print(f"  {name}: shared HNSW index built in {time.perf_counter() - started:.0f} s", file=sys.stderr)
        analyze(conn)
    return dsn


def random_vector(rng: random.Random) -> str:
    v = [rng.gauss(0, 1) for _ in range(384)]
    norm = sum(x * x for x in v) ** 0.5
    return "[" + ",".join(f"{x / norm:.6f}" for x in v) + "]"


def queries(n: int, rng: random.Random) -> list[tuple[str, str]]:
    return [(" ".join(rng.sample(WORDS, 3)), random_vector(rng)) for _ in range(n)]


RECALL = "SELECT count(*) FROM hindsight.recall(%s, %s, %s::vector)"


def timed_recalls(dsns: list[str], bank: str, qs: list[tuple[str, str]], rounds: int = 3) -> list[list[float]]:
    """Milliseconds of each recall of ``qs`` in ``bank`` of each database, the databases taking turns
    query by query (so drift of the machine falls on both alike), after a warm-up round."""
    conns = [psycopg.connect(dsn, autocommit=True) for dsn in dsns]
    out: list[list[float]] = [[] for _ in dsns]
    try:
        for r in range(rounds + 1):
            for q, e in qs:
                for conn, times in zip(conns, out, strict=True):
                    t = time.perf_counter()
                    conn.execute(RECALL, (bank, q, e))
                    if r:
                        times.append((time.perf_counter() - t) * 1000)
    finally:
        for conn in conns:
            conn.close()
    return out


def planning_ms(conn: psycopg.Connection[Any], sql: str, params: tuple[Any, ...]) -> float:
    plan = conn.execute("EXPLAIN (SUMMARY, FORMAT JSON) " + sql, params).fetchone()[0]
    return float(plan[0]["Planning Time"])


def design_evaluation(admin_dsn: str) -> dict[str, Any]:
    """1,500 banks of 6 units, the same rows three ways: a partial HNSW index per bank, one shared index,
    and 16 hash partitions by bank with an HNSW index each. Planning and locks of a one-bank query with
    the bank id a constant (custom plan) and a parameter (generic plan, as a PL/pgSQL function's
    statements get after five calls)."""
    name = "hindsight_bench_design"
    with psycopg.connect(admin_dsn, autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.execute(f'CREATE DATABASE "{name}"')
    dsn = psycopg.conninfo.make_conninfo(admin_dsn, dbname=name)
    out: dict[str, Any] = {}
    rng = random.Random(3)
    q = random_vector(rng)
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute("CREATE EXTENSION vector")
        conn.execute("CREATE TABLE units (bank_id text, id int, embedding vector(384), PRIMARY KEY (bank_id, id))")
        conn.execute(f"INSERT INTO units SELECT 'b' || b, g, {vector_sql('g')} FROM generate_series(1, 1500) b,"
                     " generate_series(1, 6) g")  # fmt: skip
        conn.execute("CREATE TABLE units_hash (bank_id text, id int, embedding vector(384), PRIMARY KEY (bank_id, id))"
                     " PARTITION BY HASH (bank_id)")  # fmt: skip
        for k in range(16):
            conn.execute(
                f"CREATE TABLE units_hash_{k} PARTITION OF units_hash FOR VALUES WITH (MODULUS 16, REMAINDER {k})"
            )
        conn.execute("INSERT INTO units_hash SELECT * FROM units")
        for design in ("partial", "shared", "hash partitions"):
            table = "units_hash" if design == "hash partitions" else "units"
            query = f"SELECT id FROM {table} WHERE bank_id = 'b7' ORDER BY embedding <=> %s::vector LIMIT 10"
            started = time.perf_counter()
            if design == "hash partitions":
                conn.execute("CREATE INDEX ON units_hash USING hnsw (embedding vector_cosine_ops)")
            elif design == "partial":
                for b in range(1, 1501):
                    conn.execute(f"CREATE INDEX units_b{b} ON units USING hnsw (embedding vector_cosine_ops)"
                                 f" WHERE bank_id = 'b{b}'")  # fmt: skip
            else:
                conn.execute("DO $$ DECLARE r record; BEGIN FOR r IN SELECT indexname FROM pg_indexes"
                             " WHERE tablename = 'units' AND indexname LIKE 'units\\_b%' LOOP"
                             " EXECUTE format('DROP INDEX %I', r.indexname); END LOOP; END $$")  # fmt: skip
                conn.execute("CREATE INDEX units_shared ON units USING hnsw (embedding vector_cosine_ops)")
            build = time.perf_counter() - started
            conn.execute("ANALYZE units")
            plans = [planning_ms(conn, query, (q,)) for _ in range(20)]
            with conn.transaction():
                conn.execute(query, (q,)).fetchall()
                locks = conn.execute("SELECT count(*) FROM pg_locks WHERE pid = pg_backend_pid()").fetchone()[0]
            conn.execute(f"PREPARE one_bank (text, vector) AS SELECT id FROM {table} WHERE bank_id = $1"
                         " ORDER BY embedding <=> $2 LIMIT 10")  # fmt: skip
            conn.execute("SET plan_cache_mode = force_generic_plan")
            with conn.transaction():
                conn.execute(f"EXECUTE one_bank('b7', '{q}')").fetchall()  # a utility statement takes no parameters
                generic = conn.execute("SELECT count(*) FROM pg_locks WHERE pid = pg_backend_pid()").fetchone()[0]
            conn.execute("RESET plan_cache_mode")
            conn.execute("DEALLOCATE one_bank")
            out[design] = {"planning_ms": statistics.median(plans), "locks": locks, "locks_generic_plan": generic,
                           "index_build_s": round(build, 1)}  # fmt: skip
    with psycopg.connect(admin_dsn, autocommit=True) as admin:
        admin.execute(f'DROP DATABASE "{name}" WITH (FORCE)')
    return out


def recall_planning(conn: psycopg.Connection[Any], bank: str, q: tuple[str, str]) -> dict[str, float]:
    """Planning time of recall's statements for one bank, as the arms write them (bank id a constant)."""
    text, e = q
    tsq = "plainto_tsquery('english', %s)"
    statements = {
        "semantic (exact)": ("SELECT u.id FROM hindsight.memory_units u WHERE u.bank_id = %s"
                             " ORDER BY (u.embedding <=> %s::vector) + 0, u.id LIMIT 300", (bank, e)),
        "semantic (hnsw)": ("SELECT u.id FROM hindsight.memory_units u WHERE u.bank_id = %s"
                            " ORDER BY u.embedding <=> %s::vector LIMIT 300", (bank, e)),
        "keyword": (f"SELECT u.id FROM hindsight.memory_units u WHERE u.bank_id = %s AND u.search_vector @@ {tsq}"
                    f" ORDER BY ts_rank_cd(u.search_vector, {tsq}) DESC LIMIT 300", (bank, text, text)),
        "temporal": ("SELECT u.id FROM hindsight.memory_units u WHERE u.bank_id = %s AND"
                     " hindsight._time_span(u.occurred_start, u.occurred_end, u.mentioned_at) &&"
                     " tstzmultirange(tstzrange('2025-01-01', '2025-02-01'))", (bank,)),
        "graph": ("SELECT l.to_unit_id FROM hindsight.memory_links l WHERE l.bank_id = %s"
                  " AND l.from_unit_id = ANY (%s::uuid[])", (bank, [])),
    }  # fmt: skip
    return {
        name: statistics.median(planning_ms(conn, sql, p) for _ in range(20)) for name, (sql, p) in statements.items()
    }


def recall_locks(conn: psycopg.Connection[Any], bank: str, q: tuple[str, str]) -> int:
    with conn.transaction():
        conn.execute(RECALL, (bank, *q))
        return int(conn.execute("SELECT count(*) FROM pg_locks WHERE pid = pg_backend_pid()").fetchone()[0])


def sessions(dsn: str, n: int, seconds: float, work: Callable[[psycopg.Connection[Any], random.Random], str]) -> dict:
    """``n`` sessions each calling ``work(conn, rng)`` (which returns its kind) for ``seconds``."""
    times: dict[str, list[float]] = {}
    errors: list[str] = []
    lock = threading.Lock()

    def run(seed: int) -> None:
        rng = random.Random(seed)
        with psycopg.connect(dsn, autocommit=True) as conn:
            end = time.perf_counter() + seconds
            while time.perf_counter() < end:
                t = time.perf_counter()
                try:
                    kind = work(conn, rng)
                except psycopg.Error as exc:
                    with lock:
                        errors.append(f"{exc.sqlstate}: {str(exc).strip()[:120]}")
                    continue
                with lock:
                    times.setdefault(kind, []).append((time.perf_counter() - t) * 1000)

    threads = [threading.Thread(target=run, args=(s,)) for s in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    out: dict[str, Any] = {"errors": len(errors), "first_errors": sorted(set(errors))[:3]}
    for kind, ms in times.items():
        out[kind] = {"per_s": round(len(ms) / seconds, 1), "p50_ms": round(percentile(ms, 0.5), 2),
                     "p95_ms": round(percentile(ms, 0.95), 2), "max_ms": round(max(ms), 1), "n": len(ms)}  # fmt: skip
    return out


def retain_one(conn: psycopg.Connection[Any], bank: str, rng: random.Random) -> None:
    words = " ".join(rng.sample(WORDS, 4))
    unit = {"text": f"Agent note {rng.randrange(10**9)}: {words}.", "embedding": json.loads(random_vector(rng)),
            "entities": [rng.choice(["Dana", "Kestrel", "Project Atlas", "Mara"])]}  # fmt: skip
    item = {"units": [unit]}
    conn.execute("SELECT count(*) FROM hindsight.retain(%s, %s::jsonb)", (bank, json.dumps([item])))


def lock_waits(dsn: str, stop: threading.Event, found: list[float]) -> None:
    """Until ``stop``: sample pg_stat_activity every 5 ms and append to ``found`` the length (ms) of
    every wait for a heavyweight lock seen (a wait is one backend waiting on a Lock during one query)."""
    open_waits: dict[tuple[int, Any], float] = {}
    with psycopg.connect(dsn, autocommit=True) as conn:
        while not stop.is_set():
            now = time.perf_counter()
            waiting = {(pid, started) for pid, started in conn.execute(
                "SELECT pid, query_start FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
                " AND datname = current_database()").fetchall()}  # fmt: skip
            for key in waiting - open_waits.keys():
                open_waits[key] = now
            for key in open_waits.keys() - waiting:
                found.append((now - open_waits.pop(key)) * 1000)
            time.sleep(0.005)
    found.extend((time.perf_counter() - t) * 1000 for t in open_waits.values())


def crossing(dsn: str, small: list[str]) -> dict[str, Any]:
    """4 sessions retain one unit at a time into small banks, first alone, then while a fifth session
    takes a new bank (hnsw_min_units 1,000) past that threshold in batches of 100."""

    def others(conn: psycopg.Connection[Any], rng: random.Random) -> str:
        retain_one(conn, rng.choice(small), rng)
        return "retain"

    alone = sessions(dsn, 4, 15, others)
    rng = random.Random(9)
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute("SELECT hindsight.delete_bank('crossing')")
        conn.execute("SELECT hindsight.create_bank('crossing', config => '{\"hnsw_min_units\": 1000}')")
    grower_times: list[float] = []

    def grow() -> None:
        with psycopg.connect(dsn, autocommit=True) as conn:
            for _ in range(12):
                items = [{"units": [{"text": f"Crossing fact {rng.randrange(10**9)}.",
                                     "embedding": json.loads(random_vector(rng))}]} for _ in range(100)]  # fmt: skip
                t = time.perf_counter()
                conn.execute("SELECT count(*) FROM hindsight.retain('crossing', %s::jsonb)", (json.dumps(items),))
                grower_times.append(time.perf_counter() - t)

    grower = threading.Thread(target=grow)
    stop, waits = threading.Event(), []
    sampler = threading.Thread(target=lock_waits, args=(dsn, stop, waits))
    sampler.start()
    grower.start()
    during = sessions(dsn, 4, 15, others)
    grower.join()
    stop.set()
    sampler.join()
    with psycopg.connect(dsn, autocommit=True) as conn:
        units, path = conn.execute(
            "SELECT unit_count, hindsight._semantic_path('crossing') FROM hindsight._bank_counts"
            " WHERE bank_id = 'crossing'"
        ).fetchone()
        conn.execute("SELECT hindsight.delete_bank('crossing')")
    return {"others_alone": alone, "others_during": during, "lock_waits_seen": len(waits),
            "longest_lock_wait_ms": round(max(waits, default=0.0), 1), "crossing_bank_units": units,
            "crossing_bank_path": path, "crossing_batches_s": [round(t, 2) for t in grower_times]}  # fmt: skip


def million(admin_dsn: str, seconds: float, rebuild: bool) -> dict[str, Any]:
    """Sections 7 and 8: one bank among a million units in 1,000 banks against the same bank alone."""
    big = database(admin_dsn, MILLION_DB, MILLION_BANKS, rebuild)
    out: dict[str, Any] = {"banks": len(MILLION_BANKS), "units": sum(n for _, n in MILLION_BANKS)}
    qs = queries(200, random.Random(11))
    alones: dict[int, str] = {}
    for bank, size in (("m-1000", 1_000), ("m-100000", 100_000)):
        alone = alones[size] = database(admin_dsn, f"hindsight_bench_alone_{size}", [(bank, size)], rebuild)
        paths = {}
        for name, dsn in (("among", big), ("alone", alone)):
            with psycopg.connect(dsn, autocommit=True) as conn:
                paths[name] = conn.execute("SELECT hindsight._semantic_path(%s)", (bank,)).fetchone()[0]
        among, by_itself = timed_recalls([big, alone], bank, qs)
        out[f"recall_{size}_unit_bank"] = {
            "among_million": {"p50_ms": round(percentile(among, 0.5), 2), "p95_ms": round(percentile(among, 0.95), 2)},
            "alone": {"p50_ms": round(percentile(by_itself, 0.5), 2), "p95_ms": round(percentile(by_itself, 0.95), 2)},
            "ratio_p50": round(percentile(among, 0.5) / percentile(by_itself, 0.5), 2),
            "semantic_path": paths,
        }
        print(f"recall in the {size:,}-unit bank:", json.dumps(out[f"recall_{size}_unit_bank"]))
    for name, dsn in (("among_million", big), ("alone", alones[1_000])):
        with psycopg.connect(dsn, autocommit=True) as conn:
            conn.execute("SELECT hindsight.delete_bank('retain-probe')")
            conn.execute("SELECT hindsight.create_bank('retain-probe')")

        def retain(conn: psycopg.Connection[Any], r: random.Random) -> str:
            retain_one(conn, "retain-probe", r)
            return "retain"

        out.setdefault("retain_small_bank", {})[name] = sessions(dsn, 4, seconds, retain)
        with psycopg.connect(dsn, autocommit=True) as conn:
            conn.execute("SELECT hindsight.delete_bank('retain-probe')")
        print(f"retain into a new bank, 4 sessions, {name}:", json.dumps(out["retain_small_bank"][name]))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__ + "\nA first run takes about 15 minutes (it builds the two databases, "
        f"{BIG_DB} and {ALONE_DB}, on the server); later runs about 5.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--dsn", help="a database of the server to use (default: the embedded server)")
    parser.add_argument("--seconds", type=float, default=60, help="length of the concurrent phases (default 60)")
    parser.add_argument(
        "--out", default="bench/results/many_banks.json", help="where the figures go as JSON (default: %(default)s)"
    )
    parser.add_argument("--rebuild", action="store_true",
                        help="build the databases again (after a change to the extension's functions)")  # fmt: skip
    parser.add_argument("--skip-design", action="store_true", help="skip the design comparison (1,500 partial indexes)")
    parser.add_argument("--million", action="store_true",
                        help="sections 7 and 8 only: a million units over 1,000 banks (writes many_banks_million.json"
                        " unless --out)")  # fmt: skip
    args = parser.parse_args()
    admin_dsn = args.dsn or hindsight_pg.EmbeddedServer().ensure_running()
    with psycopg.connect(admin_dsn) as conn:
        print(header(conn))
        max_locks = conn.execute("SHOW max_locks_per_transaction").fetchone()[0]
    if args.million:
        figures = million(admin_dsn, args.seconds, args.rebuild)
        out = args.out if args.out != parser.get_default("out") else "bench/results/many_banks_million.json"
        with open(out, "w") as f:
            json.dump({"header": header(psycopg.connect(admin_dsn)), **figures}, f, indent=2)
        print(f"wrote {out}")
        return
    rng = random.Random(1)
    small = [f"small-{i}" for i in range(SMALL)]
    large = [f"large-{i}" for i in range(LARGE)]
    banks = [(b, SMALL_UNITS) for b in small] + [(b, LARGE_UNITS) for b in large]
    result: dict[str, Any] = {"max_locks_per_transaction": max_locks}

    result["design"] = design_evaluation(admin_dsn) if not args.skip_design else {}
    print("design (1,500 banks of 6 units, one-bank kNN query):", json.dumps(result["design"]))

    big = database(admin_dsn, BIG_DB, banks, args.rebuild)
    alone = database(admin_dsn, ALONE_DB, [("large-7", LARGE_UNITS)], args.rebuild)
    qs = queries(200, rng)
    with psycopg.connect(big, autocommit=True) as conn:
        result["planning_ms"] = {"large-7": recall_planning(conn, "large-7", qs[0]),
                                 "small-7": recall_planning(conn, "small-7", qs[0])}  # fmt: skip
        result["locks_in_one_recall"] = recall_locks(conn, "large-7", qs[0])
        result["paths"] = {b: conn.execute("SELECT hindsight._semantic_path(%s)", (b,)).fetchone()[0]
                           for b in ("large-7", "small-7")}  # fmt: skip
    with psycopg.connect(alone, autocommit=True) as conn:
        result["paths"]["large-7 alone"] = conn.execute("SELECT hindsight._semantic_path('large-7')").fetchone()[0]
    print("planning (ms):", json.dumps(result["planning_ms"]), "locks held by one recall:",
          result["locks_in_one_recall"], "paths:", result["paths"])  # fmt: skip

    among, by_itself = timed_recalls([big, alone], "large-7", qs)
    result["recall_2000_unit_bank"] = {
        "among_5000_banks": {"p50_ms": round(percentile(among, 0.5), 2), "p95_ms": round(percentile(among, 0.95), 2)},
        "alone": {"p50_ms": round(percentile(by_itself, 0.5), 2), "p95_ms": round(percentile(by_itself, 0.95), 2)},
        "ratio_p50": round(percentile(among, 0.5) / percentile(by_itself, 0.5), 2),
    }
    print("recall in a 2,000-unit bank:", json.dumps(result["recall_2000_unit_bank"]))

    every = small + large

    def recall_random(conn: psycopg.Connection[Any], r: random.Random) -> str:
        q, e = r.choice(qs)
        conn.execute(RECALL, (r.choice(every), q, e))
        return "recall"

    result["sixteen_sessions"] = sessions(big, 16, args.seconds, recall_random)
    print(f"16 sessions, {args.seconds:.0f} s, random banks:", json.dumps(result["sixteen_sessions"]))

    result["crossing"] = crossing(big, small)
    print("a bank crossing hnsw_min_units:", json.dumps(result["crossing"]))

    fifty = rng.sample(small, 40) + rng.sample(large, 10)

    def mixed(conn: psycopg.Connection[Any], r: random.Random) -> str:
        bank = r.choice(fifty)
        if r.random() < 0.5:
            retain_one(conn, bank, r)
            return "retain"
        q, e = r.choice(qs)
        conn.execute(RECALL, (bank, q, e))
        return "recall"

    result["load"] = sessions(big, 8, args.seconds, mixed)
    print(f"load: 8 sessions, 50 banks, {args.seconds:.0f} s, half retains:", json.dumps(result["load"]))
    with open(args.out, "w") as f:
        json.dump({"header": header(psycopg.connect(admin_dsn)), **result}, f, indent=2)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
