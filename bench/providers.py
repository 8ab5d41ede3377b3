"""Model providers: milliseconds to embed a query and to rerank 300 candidates on each path, and recall
latency with and without the rerank stage, in one run.

Paths: the driver's own models (local), the same models inside a database session
(hindsight.embed / hindsight.rerank, local), and the model server (hindsight-pg serve-models,
started here in this process) called from the driver and from the database (http).

No trained cross-encoder ships here, so the rerank figures use the tests' tiny random one (two
layers, 32 wide: a lower bound) and, as a proxy for ms-marco-MiniLM-L-6-v2 (the same six-layer,
384-wide architecture as all-MiniLM-L6-v2), MiniLM embedding the 300 "query [SEP] candidate" pairs.

    .venv/bin/python bench/providers.py [--bank B] [--runs 50] [--proxy-runs 10]

Recall runs on the bank bench-locomo-turn-conv-26 (made by bench/locomo.py) unless --bank. Every
timed figure cycles through the six QUERIES (run i asks QUERIES[i % 6]; the rerank figures score
that query against the same 300 candidates); each figure says how many runs it took.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from _common import header

import hindsight_pg
from hindsight_pl.providers import MINILM, HTTPEmbedder, HTTPReranker, LocalEmbedder, LocalReranker

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from _models import build_tiny_cross_encoder, model_server

QUERIES = [
    "What did Caroline research?", "When did Melanie sign up for a pottery class?", "Where did Caroline move from?",
    "What does Melanie paint?", "Who went camping at the lake?", "What did Caroline do at the support group?",
]  # fmt: skip


def timed(call: Callable[[str], Any], repeat: int) -> dict[str, float]:
    """Median and p95 milliseconds of ``call(query)`` over ``repeat`` runs, run i with QUERIES[i % 6] (after
    one warm-up with the first), and the number of runs."""
    call(QUERIES[0])
    values = []
    for i in range(repeat):
        query = QUERIES[i % len(QUERIES)]
        started = time.perf_counter()
        call(query)
        values.append((time.perf_counter() - started) * 1000)
    values.sort()
    return {"median": statistics.median(values), "p95": values[int(0.95 * (len(values) - 1))], "runs": repeat}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bank", default="bench-locomo-turn-conv-26")
    parser.add_argument("--runs", type=int, default=50, help="timed runs per figure")
    parser.add_argument(
        "--proxy-runs", type=int, default=10, help="timed runs of the MiniLM-size rerank proxy (about 2 s each)"
    )
    parser.add_argument("--output", default="bench/results/providers.json")
    parser.add_argument("--dsn", default=None)
    args = parser.parse_args()

    client = hindsight_pg.connect(args.dsn)
    conn = client.conn
    print(header(conn))
    if conn.execute("SELECT count(*) FROM hindsight.banks WHERE bank_id = %s", (args.bank,)).fetchone()[0] == 0:
        print(f"bank {args.bank!r} not found: run bench/locomo.py first, or pass --bank. Skipping.", file=sys.stderr)
        return
    candidates = [r[0] for r in conn.execute(
        "SELECT text FROM hindsight.memory_units WHERE bank_id = %s ORDER BY id LIMIT 300", (args.bank,))]  # fmt: skip
    tiny_path = build_tiny_cross_encoder(Path(tempfile.mkdtemp(prefix="hindsight-bench-ce-")) / "model")
    model = conn.execute("SELECT hindsight.bank_config(%s)->>'embedding_model'", (args.bank,)).fetchone()[0]
    minilm, tiny = LocalEmbedder(MINILM), LocalReranker(tiny_path)  # MiniLM: the rerank proxy's architecture
    embedder = LocalEmbedder(model)  # the bank's model: what recall embeds with
    n = args.runs
    ms: dict[str, dict[str, float]] = {}

    def db_setting(name: str, value: dict[str, Any] | None) -> None:
        conn.execute("SELECT hindsight.set_setting(%s, %s)", (name, json.dumps(value) if value else None))

    def recall_sql(query: str) -> None:
        conn.execute("SELECT count(*) FROM hindsight.recall(%s, %s)", (args.bank, query)).fetchone()

    def embed_sql(query: str) -> None:
        conn.execute("SELECT hindsight.embed(%s, ARRAY[%s], 'query')", (args.bank, query)).fetchone()

    first = time.perf_counter()
    conn.execute("SELECT hindsight.embed(%s, ARRAY['warm-up'], 'query')", (args.bank,)).fetchone()
    print(f"first in-database embedding of a session (loads {model}): {(time.perf_counter() - first) * 1000:.0f} ms")
    pid = conn.execute("SELECT pg_backend_pid()").fetchone()[0]
    rss = _rss_mb(pid)

    ms["embed 1 query: driver, local"] = timed(lambda q: embedder.embed([q], kind="query"), n)
    ms["embed 1 query: database, local"] = timed(embed_sql, n)
    ms["rerank 300: driver, tiny cross-encoder"] = timed(lambda q: tiny.rerank(q, candidates), n)
    ms["rerank 300: MiniLM-size proxy (embed 300 pairs)"] = timed(
        lambda q: minilm.embed([f"{q} [SEP] {c}" for c in candidates]), args.proxy_runs
    )
    ms["recall: driver embeds, no rerank"] = timed(lambda q: client.recall(args.bank, q), n)
    ms["recall: database embeds, no rerank"] = timed(recall_sql, n)
    driver_rerank = hindsight_pg.Client(conn, embedder=embedder, reranker=tiny)
    ms["recall: driver embeds and reranks (tiny)"] = timed(lambda q: driver_rerank.recall(args.bank, q), n)
    db_setting("reranker_provider", {"kind": "local", "model": tiny_path})
    try:
        ms["recall: database embeds and reranks (tiny)"] = timed(recall_sql, n)
        with model_server(embedder, tiny) as url:
            remote = {"kind": "http", "url": url, "model": model}  # the server runs the bank's model
            ms["embed 1 query: driver, http"] = timed(lambda q: HTTPEmbedder(url).embed([q], kind="query"), n)
            ms["rerank 300: driver, http (tiny)"] = timed(lambda q: HTTPReranker(url).rerank(q, candidates), n)
            db_setting("embedding_provider", remote)
            db_setting("reranker_provider", remote)
            ms["embed 1 query: database, http"] = timed(embed_sql, n)
            ms["recall: database embeds and reranks over http (tiny)"] = timed(recall_sql, n)
    finally:
        db_setting("embedding_provider", None)
        db_setting("reranker_provider", None)

    for name, figure in ms.items():
        print(f"{name:<55} median {figure['median']:8.2f} ms   p95 {figure['p95']:8.2f} ms   ({figure['runs']} runs)")
    print(f"database session resident memory after loading {model}: {rss:.0f} MB")
    out = Path(args.output)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps({"header": header(conn), "bank": args.bank, "ms": ms, "session_rss_mb": rss}, indent=1))
    print(f"written to {out}")


def _rss_mb(pid: int) -> float:
    """Resident memory of a process in MB (from /proc; the database runs on this machine)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


if __name__ == "__main__":
    main()
