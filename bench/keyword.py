"""The keyword arm on real text as the bank grows: milliseconds and postings read at 10,000 to 1,000,000 units.

Banks of ``--sizes`` sentences of real chat (LongMemEval_S dev, ../shared/data/longmemeval, read where it lies:
its 10,718 distinct sessions in file order, every turn split at sentence ends and line breaks, pieces of three
words or more: 1,080,048 sentences of 16 words on average, about the length of a memory unit) in a database of
their own (``hindsight_bench_keyword``, built once and kept; about 4 minutes for the million). The units go
straight into the table (the triggers keep the BM25 statistics, as for any insert) with one constant embedding and
no HNSW index: the keyword arm reads neither. The queries are LongMemEval's 251 questions, as people typed them.

For each bank, each question runs through ``hindsight._bm25_arm`` (the default backend) at recall budgets 100,
300 and 1,000 (low, mid, high) and through ``hindsight._native_keyword_arm`` (ts_rank_cd) at 300. Printed: median
and p95 ms, and the postings the bm25 arm reads (its terms' document frequencies summed; median and p95).

    .venv/bin/python bench/keyword.py [--sizes 10000,100000,1000000] [--dsn DSN]
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import psycopg
from _common import analyze, header, percentile, write_results

import hindsight_pg

LONGMEMEVAL = Path(__file__).resolve().parents[2] / "shared" / "data" / "longmemeval" / "longmemeval_s_dev.jsonl"
DATABASE = "hindsight_bench_keyword"
BUDGETS = {"low": 100, "mid": 300, "high": 1000}
# a sentence ends at . ! or ? followed by a space and a capital letter or a digit (enough for Wikipedia prose)
SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"])")


def sentences(limit: int) -> tuple[list[str], list[str]]:
    """The first ``limit`` sentences of LongMemEval's distinct sessions, and its questions."""
    texts: list[str] = []
    questions: list[str] = []
    sessions: set[str] = set()
    with LONGMEMEVAL.open(encoding="utf-8") as lines:
        for line in lines:
            record = json.loads(line)
            questions.append(record["question"])
            for session_id, session in zip(record["haystack_session_ids"], record["haystack_sessions"], strict=True):
                if session_id in sessions or len(texts) >= limit:
                    continue
                sessions.add(session_id)
                for turn in session:
                    texts.extend(piece.strip() for sentence in SENTENCE_END.split(turn["content"])
                                 for piece in sentence.split("\n") if len(piece.split()) >= 3)  # fmt: skip
    if len(texts) < limit:
        sys.exit(f"LongMemEval has {len(texts):,} sentences, fewer than {limit:,}")
    return texts[:limit], questions


def database(admin_dsn: str) -> str:
    """The DSN of DATABASE, created with the extension (and no HNSW index) unless it exists."""
    dsn = psycopg.conninfo.make_conninfo(admin_dsn, dbname=DATABASE)
    with psycopg.connect(admin_dsn, autocommit=True) as admin:
        if not admin.execute("SELECT 1 FROM pg_database WHERE datname = %s", (DATABASE,)).fetchone():
            admin.execute(f'CREATE DATABASE "{DATABASE}"')
            with psycopg.connect(dsn, autocommit=True) as conn:
                conn.execute("CREATE EXTENSION hindsight_pg CASCADE")
                conn.execute("DROP INDEX hindsight.memory_units_embedding_idx")  # the keyword arm reads no vector
    return dsn


def build(conn: psycopg.Connection[Any], bank: str, texts: list[str]) -> None:
    """Bank ``bank`` holding ``texts``, unless it holds that many units already."""
    row = conn.execute("SELECT unit_count FROM hindsight._bank_counts WHERE bank_id = %s", (bank,)).fetchone()
    if row and row[0] == len(texts):
        return
    conn.execute("SELECT hindsight.delete_bank(%s)", (bank,))
    conn.execute("SELECT hindsight.create_bank(%s)", (bank,))
    started = time.perf_counter()
    batch = 5000
    for offset in range(0, len(texts), batch):
        conn.execute(
            """INSERT INTO hindsight.memory_units (bank_id, text, embedding, mentioned_at, token_count, search_vector)
               SELECT %(b)s, t.text, l2_normalize(array_fill(1, ARRAY[384])::vector),
                      timestamptz '2024-01-01' + t.n * interval '1 minute', 0,
                      hindsight._search_vector(t.text, 'english')
               FROM unnest(%(texts)s::text[]) WITH ORDINALITY AS t(text, n)""",
            {"b": bank, "texts": texts[offset : offset + batch]},
        )
        done = min(offset + batch, len(texts))
        print(f"\r  {bank}: {done:,}/{len(texts):,} units ({done / (time.perf_counter() - started):,.0f}/s)",
              end="", file=sys.stderr)  # fmt: skip
    print(file=sys.stderr)
    analyze(conn)  # settled, as autovacuum leaves a table: statistics, and a visibility map for index-only scans


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="10000,100000,1000000",
                        help="units per bank (LongMemEval has 1,080,048 sentences)")  # fmt: skip
    parser.add_argument("--dsn", default=None, help="the server (default: the embedded one)")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    admin_dsn = args.dsn or hindsight_pg.EmbeddedServer().ensure_running()
    texts, questions = sentences(max(sizes))
    conn = psycopg.connect(database(admin_dsn), autocommit=True)
    print(header(conn))
    figures: dict[str, Any] = {}
    for size in sizes:
        bank = f"bench-keyword-{size}"
        build(conn, bank, texts[:size])
        config = json.dumps(conn.execute("SELECT hindsight.bank_config(%s)", (bank,)).fetchone()[0])
        calls = {f"bm25 ({budget})": ("SELECT hindsight._bm25_arm(%s, hindsight._query_terms(%s, 'english'), NULL,"
                                      f" NULL, 'any', {budget}, %s::jsonb)", True)
                 for budget in BUDGETS.values()}  # fmt: skip
        calls["native (300)"] = ("SELECT hindsight._native_keyword_arm(%s, hindsight._keyword_query(%s, 'english'),"
                                 " NULL, NULL, 'any', 300)", False)  # fmt: skip
        ms: dict[str, list[float]] = {name: [] for name in calls}
        for question in questions:  # the forms take turns question by question
            for name, (sql, configured) in calls.items():
                started = time.perf_counter()
                conn.execute(sql, (bank, question, config) if configured else (bank, question)).fetchone()
                ms[name].append((time.perf_counter() - started) * 1000)
        postings = [row[0] for row in conn.execute(
            """SELECT (SELECT coalesce(sum(t.df), 0) FROM (
                           SELECT t.df FROM hindsight._bm25_terms t
                           WHERE t.bank_id = %s AND t.term = ANY (hindsight._query_terms(q, 'english'))
                           ORDER BY t.df, t.term LIMIT (%s::jsonb->>'bm25_max_terms')::int) t)
               FROM unnest(%s::text[]) q""", (bank, config, questions)).fetchall()]  # fmt: skip
        figures[bank] = {
            "units": size,
            "queries": len(questions),
            "ms": {name: {"median": statistics.median(v), "p95": percentile(v, 0.95)} for name, v in ms.items()},
            "bm25_postings_read": {"median": statistics.median(postings), "p95": percentile(postings, 0.95)},
        }
        print(
            f"\n{bank}: {size:,} sentences, {len(questions)} LongMemEval questions; the bm25 arm reads"
            f" {statistics.median(postings):,.0f} postings (median, p95 {percentile(postings, 0.95):,.0f})"
        )
        for name, values in ms.items():
            print(f"  {name:<14}{statistics.median(values):8.2f} ms median {percentile(values, 0.95):8.2f} p95")
    write_results("keyword", header(conn), figures)


if __name__ == "__main__":
    main()
