"""Recall latency at 10,000 and 100,000 memory units, against bare pgvector kNN in the same run.

Builds synthetic banks (sentences from templates with people, places, projects and
dates over three years; entities from the templates; temporal links between a
person's consecutive facts instead of retain's own links) through the real retain path, with embeddings composed
from the default model's embeddings of the template parts so that building takes minutes, not
hours. Then, per bank and over the same queries (a third of them with a time window):

- hindsight.recall without a cross-encoder (the bank's reranker_provider set to none) at budgets low / mid /
  high (median, p95), with the default keyword backend (bm25) and with native (ts_rank_cd);
- a bare kNN query (ORDER BY embedding <=> q LIMIT 10, and LIMIT 300 at ef_search 300): the baseline; it
  filters the shared HNSW index's nearest by bank, so for a bank that is a small share of the table it returns
  fewer than 300 rows (the count is printed); the bank's own 300 nearest are measured beside it, exactly (index
  scans off) and through the index's iterative scan (strict order), and recall is compared with the faster;
- each keyword arm alone;
- milliseconds per phase from the trace (median);
- throughput: --sessions (8) concurrent sessions, each its own connection, running recall mid (or the bare kNN
  LIMIT 300) over the queries for --seconds (15): calls per second and p95.

    .venv/bin/python bench/latency.py [--sizes 10000,100000] [--queries 200] [--sessions 8] [--seconds 15]

Banks are named bench-latency-<size> and reused when they hold the right number of units.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import threading
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np
from _common import analyze, header, percentile

import hindsight_pg

PEOPLE = [
    "Alice", "Bob", "Carmen", "Dmitri", "Elena", "Farid", "Grace", "Hiro", "Ines", "Jonas", "Kemi", "Lars",
    "Maya", "Nadia", "Omar", "Priya", "Quinn", "Rosa", "Sven", "Tara", "Umar", "Vera", "Wes", "Ximena",
    "Yusuf", "Zoe", "Arjun", "Bea", "Chen", "Dara", "Emil", "Fatima", "Gil", "Hana", "Ivo", "Jade",
]  # fmt: skip
PLACES = [
    "Lisbon", "Berlin", "Nairobi", "Osaka", "Toronto", "Lima", "Oslo", "Seoul", "Cairo", "Austin", "Porto",
    "the head office", "the lake house", "the Denver lab", "the warehouse", "the customer site",
]  # fmt: skip
PROJECTS = [
    "Project Atlas", "Project Falcon", "Orion", "the billing migration", "the search rewrite", "the mobile app",
    "the data warehouse", "the onboarding flow", "the security audit", "the pricing page", "the API gateway",
    "the recommendation engine", "the hiring plan", "the Q3 roadmap", "the support bot", "the design system",
]  # fmt: skip
TEMPLATES = [
    "{p} met {q} in {place} to discuss {project}.",
    "{p} finished the first milestone of {project}.",
    "{p} is worried that {project} will slip past the deadline.",
    "{p} flew to {place} for a workshop on {project}.",
    "{p} and {q} disagreed about the scope of {project}.",
    "{p} presented the results of {project} to the leadership team.",
    "{p} asked {q} to review the design of {project}.",
    "{p} took a week off and went hiking near {place}.",
    "{p} reported a production incident caused by {project}.",
    "{p} hired two engineers for {project} in {place}.",
    "{p} wrote the retrospective for {project}.",
    "{p} celebrated a birthday with {q} in {place}.",
]  # fmt: skip
QUESTIONS = [
    ("What did {p} do in {place}?", False),
    ("Who is working on {project}?", False),
    ("What went wrong with {project}?", False),
    ("When did {p} meet {q}?", False),
    ("What happened with {project} in {month} {year}?", True),
    ("What was {p} busy with in {month} {year}?", True),
]
MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
          "November", "December"]  # fmt: skip
START = datetime(2023, 1, 1, tzinfo=UTC)
KNN300 = "SELECT id FROM hindsight.memory_units WHERE bank_id = %s ORDER BY embedding <=> %s LIMIT 300"
BASELINE = "bare kNN LIMIT 300, ef_search 300"
# the forms of KNN300 timed (the row names of the latency table) and the session settings of each
KNN300_FORMS = {
    BASELINE: {"hnsw.ef_search": 300},
    "exact kNN of the bank, LIMIT 300": {"enable_indexscan": "off"},
    "HNSW kNN of the bank, iterative, LIMIT 300": {"hnsw.ef_search": 300, "hnsw.iterative_scan": "strict_order"},
}
DAYS = 3 * 365


def component_vectors(embedder: hindsight_pg.Embedder) -> dict[str, np.ndarray]:
    parts = PEOPLE + PLACES + PROJECTS + [t.replace("{p}", "").replace("{q}", "").replace("{place}", "")
                                          .replace("{project}", "") for t in TEMPLATES]  # fmt: skip
    vectors = embedder.embed(parts)
    return dict(zip(parts, vectors, strict=True))


def make_units(n: int, parts: dict[str, np.ndarray], rng: random.Random) -> list[dict[str, Any]]:
    units = []
    noise = np.random.default_rng(rng.randrange(2**32))
    for _ in range(n):
        template = rng.choice(TEMPLATES)
        p, q = rng.sample(PEOPLE, 2)
        place, project = rng.choice(PLACES), rng.choice(PROJECTS)
        text = template.format(p=p, q=q, place=place, project=project)
        skeleton = template.replace("{p}", "").replace("{q}", "").replace("{place}", "").replace("{project}", "")
        vector = 1.2 * parts[skeleton] + parts[p] + 0.6 * parts[project]
        if "{q}" in template:
            vector = vector + 0.5 * parts[q]
        if "{place}" in template:
            vector = vector + 0.5 * parts[place]
        vector = vector + noise.normal(0, 0.03, vector.shape)
        vector = vector / np.linalg.norm(vector)
        when = START + timedelta(days=rng.uniform(0, DAYS))
        entities = [p, project] + ([q] if "{q}" in template else []) + ([place] if "{place}" in template else [])
        units.append(
            {"text": text, "embedding": [round(float(x), 6) for x in vector], "when": when, "entities": entities}
        )
    return units


def build_bank(
    client: hindsight_pg.Client, bank: str, size: int, parts: dict[str, np.ndarray], defer_index: bool = False
) -> None:
    """Retains ``size`` synthetic units into ``bank`` unless it already holds that many. With ``defer_index``
    the shared HNSW index is dropped for the build and created again after it, with its own definition (one
    CREATE INDEX instead of a million inserts into the graph; for a database that holds this bank alone), and
    retain's knowledge-update search is off (``update_candidates`` 0: without the index it reads every unit, so
    the build slowed as the bank grew, to 57 units/s by 24,000), so that bank has no supersedes links."""
    conn = client.conn
    row = conn.execute("SELECT unit_count FROM hindsight._bank_counts WHERE bank_id = %s", (bank,)).fetchone()
    if row and row[0] == size:
        return
    index = None
    if defer_index:
        index = conn.execute("SELECT pg_get_indexdef('hindsight.memory_units_embedding_idx'::regclass)").fetchone()[0]
        conn.execute("DROP INDEX hindsight.memory_units_embedding_idx")
    try:
        client.delete_bank(bank)
        # the shared HNSW index takes each unit as it comes; retain's own links off (bench/retain.py
        # measures them), and the temporal links below
        # keep this bank's link structure fixed across runs
        config = {"temporal_link_neighbours": 0, "semantic_link_top_k": 0}
        if defer_index:  # with no index, retain's knowledge-update search would scan the bank for every unit
            config["update_candidates"] = 0
        conn.execute("SELECT hindsight.create_bank(%s, config => %s::jsonb)", (bank, json.dumps(config)))
        rng = random.Random(size)
        started = time.perf_counter()
        batch = 2000
        for offset in range(0, size, batch):
            units = make_units(min(batch, size - offset), parts, rng)
            items = [{"document_id": f"u{offset + i}", "timestamp": u["when"].isoformat(),
                      "units": [{"text": u["text"], "embedding": u["embedding"], "entities": u["entities"]}]}
                     for i, u in enumerate(units)]  # fmt: skip
            conn.execute("SELECT count(*) FROM hindsight.retain(%s, %s::jsonb)", (bank, json.dumps(items)))
            done = offset + len(units)
            rate = done / (time.perf_counter() - started)
            print(f"\r  {bank}: {done:,}/{size:,} units retained ({rate:,.0f}/s)", end="", file=sys.stderr)
        print(file=sys.stderr)
        # temporal links: each fact to the same person's next fact, set-based
        conn.execute(
            """INSERT INTO hindsight.memory_links (bank_id, from_unit_id, to_unit_id, link_type, weight)
               SELECT %(b)s, id, next_id, 'temporal', 0.8 FROM (
                   SELECT u.id,
                          lead(u.id) OVER (PARTITION BY split_part(u.text, ' ', 1) ORDER BY u.mentioned_at) AS next_id
                   FROM hindsight.memory_units u WHERE u.bank_id = %(b)s) s
               WHERE next_id IS NOT NULL""",
            {"b": bank},
        )
    finally:  # the index comes back even when the build stops half way
        if index is not None:
            started = time.perf_counter()
            conn.execute("SET maintenance_work_mem = '4GB'")
            conn.execute(index)
            print(f"  HNSW index built in {time.perf_counter() - started:.0f} s", file=sys.stderr)


def make_queries(n: int, rng: random.Random) -> list[tuple[str, tuple[datetime, datetime] | None]]:
    queries = []
    for i in range(n):
        template, temporal = QUESTIONS[i % len(QUESTIONS)]
        p, q = rng.sample(PEOPLE, 2)
        year, month = rng.choice([2023, 2024, 2025]), rng.randrange(12)
        text = template.format(p=p, q=q, place=rng.choice(PLACES), project=rng.choice(PROJECTS),
                               month=MONTHS[month], year=year)  # fmt: skip
        window = None
        if temporal:
            start = datetime(year, month + 1, 1, tzinfo=UTC)
            end = datetime(year + (month == 11), (month + 1) % 12 + 1, 1, tzinfo=UTC) - timedelta(microseconds=1)
            window = (start, end)
        queries.append((text, window))
    return queries


def timed(conn: Any, sql: str, params: Any) -> float:
    started = time.perf_counter()
    conn.execute(sql, params).fetchall()
    return (time.perf_counter() - started) * 1000


def summary(values: list[float]) -> str:
    return f"{statistics.median(values):7.2f} {percentile(values, 0.95):7.2f}"


def throughput(
    dsn: str | None, sessions: int, seconds: float, sql: str, params: list[tuple[Any, ...]], setup: str = ""
) -> dict[str, float]:
    """``sessions`` connections (each after ``setup``) run ``sql`` over ``params`` in turn for ``seconds``:
    calls per second, p95 ms and the number of calls."""
    times: list[float] = []
    lock = threading.Lock()
    connections = [hindsight_pg.connect(dsn).conn for _ in range(sessions)]
    for conn in connections:  # warm each session (plans, the in-database package)
        conn.prepare_threshold = None  # as main's connection
        if setup:
            conn.execute(setup)
        conn.execute(sql, params[0]).fetchall()

    def run(conn: Any, offset: int) -> None:
        mine = []
        i = offset
        while time.perf_counter() < stop:
            mine.append(timed(conn, sql, params[i % len(params)]))
            i += 1
        with lock:
            times.extend(mine)

    started = time.perf_counter()
    stop = started + seconds
    threads = [threading.Thread(target=run, args=(c, i * 7)) for i, c in enumerate(connections)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    elapsed = time.perf_counter() - started
    for conn in connections:
        conn.close()
    return {"per_s": len(times) / elapsed, "p95": percentile(times, 0.95), "calls": len(times)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="10000,100000")
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--output", default="bench/results/latency.json")
    parser.add_argument("--dsn", default=None)
    parser.add_argument(
        "--defer-index",
        action="store_true",
        help="build banks with the shared HNSW index dropped, then create it (a database of its own), and retain's"
        " knowledge-update search off (no supersedes links in those banks)",
    )
    parser.add_argument("--sessions", type=int, default=8, help="concurrent sessions for the throughput figures")
    parser.add_argument("--seconds", type=float, default=15.0, help="how long each throughput run lasts")
    args = parser.parse_args()

    client = hindsight_pg.connect(args.dsn)
    conn = client.conn
    # each statement planned for its own bank: psycopg prepares a statement run five times, and PostgreSQL's generic
    # plan for "bank_id = $1" is the average bank's (an exact scan, far from the best for the largest bank)
    conn.prepare_threshold = None
    print(header(conn))
    parts = component_vectors(client.embedder)
    queries = make_queries(args.queries, random.Random(7))
    embeddings = client.embedder.embed([q for q, _ in queries], kind="query")
    report: dict[str, Any] = {"header": header(conn)}

    for size in [int(s) for s in args.sizes.split(",")]:
        bank = f"bench-latency-{size}"
        build_bank(client, bank, size, parts, defer_index=args.defer_index)
        analyze(conn)  # a bank built or reused: statistics and visibility as a bank in use has them
        # the pipeline without a cross-encoder (the reader's own time is bench/reader.py's)
        none = json.dumps({"reranker_provider": {"kind": "none"}})
        conn.execute("SELECT hindsight.configure_bank(%s, %s::jsonb)", (bank, none))
        rows: dict[str, list[float]] = {}
        phases: dict[str, list[float]] = {}
        returned: list[int] = []  # rows the bare kNN LIMIT 300 returns for this bank
        for (text, window), emb in zip(queries, embeddings, strict=True):
            window_text = None if window is None else f"[{window[0]},{window[1]}]"
            for backend, label in (("bm25", "bm25, default"), ("native", "native")):
                conn.execute(
                    "UPDATE hindsight.banks SET config = config || jsonb_build_object('keyword_backend', %s::text)"
                    " WHERE bank_id = %s",
                    (backend, bank),
                )
                for budget in ("low", "mid", "high"):
                    rows.setdefault(f"recall {budget} ({label})", []).append(timed(conn,
                        "SELECT * FROM hindsight.recall(%s, %s, %s, budget => %s, temporal_window => %s::tstzrange)",
                        (bank, text, emb, budget, window_text)))  # fmt: skip
            conn.execute("UPDATE hindsight.banks SET config = config - 'keyword_backend' WHERE bank_id = %s", (bank,))
            conn.execute("SET hnsw.ef_search = 40")
            rows.setdefault("bare kNN LIMIT 10", []).append(timed(conn,
                "SELECT id FROM hindsight.memory_units WHERE bank_id = %s ORDER BY embedding <=> %s LIMIT 10",
                (bank, emb)))  # fmt: skip
            # the baseline filters the shared index's 300 nearest by bank: a bank that is a small share of the
            # table gets fewer than 300 rows back (counted); the bank's own 300 nearest are measured beside it,
            # exactly (index scans off) and through the iterative scan
            for name, settings in KNN300_FORMS.items():
                for setting, value in settings.items():
                    conn.execute(f"SET {setting} = {value}")
                started = time.perf_counter()
                got = conn.execute(KNN300, (bank, emb)).fetchall()
                rows.setdefault(name, []).append((time.perf_counter() - started) * 1000)
                if name == BASELINE:
                    returned.append(len(got))
                for setting in settings:
                    conn.execute(f"RESET {setting}")
            rows.setdefault("keyword arm alone, native (ts_rank_cd, 300)", []).append(timed(conn,
                "SELECT hindsight._native_keyword_arm(%s, hindsight._keyword_query(%s, 'english'),"
                " NULL, NULL, 'any', 300)",
                (bank, text)))  # fmt: skip
            rows.setdefault("keyword arm alone, bm25 (300)", []).append(timed(conn,
                "SELECT hindsight._bm25_arm(%s, hindsight._query_terms(%s, 'english'), NULL, NULL, 'any', 300,"
                " hindsight.bank_config(%s))",
                (bank, text, bank)))  # fmt: skip
            (trace,) = conn.execute(
                "SELECT hindsight.recall_json(%s, %s, %s, trace => true, temporal_window => %s::tstzrange) -> 'trace'",
                (bank, text, emb, window_text)).fetchone()  # fmt: skip
            for arm, info in trace["arms"].items():
                if info["ran"] and info["ms"] is not None:
                    phases.setdefault(f"arm {arm}", []).append(info["ms"])
            phases.setdefault("fusion + candidates", []).append(trace["fusion"]["ms"])
            phases.setdefault("finish (scoring, packing)", []).append(trace["phases_ms"]["finish"])
        print(f"\n{bank}: {len(queries)} queries ({sum(w is not None for _, w in queries)} with a time window)")
        print(f"{'':<40}{'median':>8}{'p95':>8}   ms")
        for name, values in rows.items():
            print(f"{name:<40}{summary(values)}")
        ratio = statistics.median(rows["recall mid (bm25, default)"]) / statistics.median(rows[BASELINE])
        # the bank's own 300 nearest as fast as pgvector gives them: exact for a bank that is a small share of the
        # table, the iterative HNSW scan for a large one
        full_knn = min(
            statistics.median(rows["exact kNN of the bank, LIMIT 300"]),
            statistics.median(rows["HNSW kNN of the bank, iterative, LIMIT 300"]),
        )
        full_ratio = statistics.median(rows["recall mid (bm25, default)"]) / full_knn
        print(
            f"{'recall mid (default) / bare kNN LIMIT 300':<40}{ratio:7.1f}x"
            f"   (that kNN returns {statistics.median(returned):.0f} rows, median)"
        )
        print(f"{'recall mid (default) / full kNN 300':<40}{full_ratio:7.1f}x   (the faster of exact and iterative)")
        print("phases of recall mid, default backend (trace, median ms):")
        for name, values in phases.items():
            print(f"  {name:<38}{statistics.median(values):7.2f}")
        params = [(bank, text, emb, None if w is None else f"[{w[0]},{w[1]}]")
                  for (text, w), emb in zip(queries, embeddings, strict=True)]  # fmt: skip
        flows = {
            "recall mid": throughput(
                args.dsn,
                args.sessions,
                args.seconds,
                "SELECT * FROM hindsight.recall(%s, %s, %s, temporal_window => %s::tstzrange)",
                params,
            ),
            BASELINE: throughput(
                args.dsn,
                args.sessions,
                args.seconds,
                KNN300,
                [(bank, emb) for bank, _, emb, _ in params],
                setup="SET hnsw.ef_search = 300",
            ),
        }
        print(f"throughput, {args.sessions} sessions for {args.seconds:.0f} s:")
        for name, flow in flows.items():
            print(f"  {name:<38}{flow['per_s']:8.1f}/s  p95 {flow['p95']:7.2f} ms")
        report[bank] = {
            "queries": len(queries),
            "ms": {k: {"median": statistics.median(v), "p95": percentile(v, 0.95)} for k, v in rows.items()},
            "ratio_mid_to_knn300": ratio,
            "knn300_rows_returned_median": statistics.median(returned),
            "ratio_mid_to_full_knn300": full_ratio,
            "throughput": {"sessions": args.sessions, "seconds": args.seconds, **flows},
            "phases_median_ms": {k: statistics.median(v) for k, v in phases.items()},
        }
    out = Path(args.output)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(report, indent=1))
    print(f"\nwritten to {out}")


if __name__ == "__main__":
    main()
