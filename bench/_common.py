"""What every benchmark prints first: the git commit, PostgreSQL and pgvector versions, the core count."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

import psycopg

# LoCoMo's development file beside the project (../shared/data, as the data sets are kept), read where it
# lies when $HINDSIGHT_LOCOMO names no other (hindsight_pg._inputs.locomo_path)
LOCOMO_BESIDE_PROJECT = Path(__file__).resolve().parents[2] / "shared" / "data" / "locomo" / "locomo_dev.json"
# where each benchmark writes its figures (bench/report.py copies them into docs/benchmarks.json)
RESULTS = Path(__file__).resolve().parent / "results"


def write_results(name: str, header_text: str, figures: dict[str, Any]) -> Path:
    """Write ``{"header": header_text, **figures}`` to bench/results/<name>.json and return its path."""
    RESULTS.mkdir(exist_ok=True)
    path = RESULTS / f"{name}.json"
    path.write_text(json.dumps({"header": header_text, **figures}, indent=1, default=str) + "\n")
    print(f"written to {path}")
    return path


def header(conn: psycopg.Connection) -> str:
    """One line, e.g. ``commit fa90a4d, PostgreSQL 15.20 (...), pgvector 0.8.0, shared_buffers 2GB, 2 cores``."""
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    row = conn.execute(
        "SELECT current_setting('server_version'), (SELECT extversion FROM pg_extension WHERE extname = 'vector'),"
        " current_setting('shared_buffers')"
    ).fetchone()
    pg, vec, buffers = row if row else ("?", "?", "?")
    return f"commit {commit or '?'}, PostgreSQL {pg}, pgvector {vec}, shared_buffers {buffers}, {os.cpu_count()} cores"


def header_line() -> str:
    """What a benchmark that needs no database prints first: the git commit and the core count."""
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    return f"commit {commit or '?'}, {os.cpu_count()} cores"


def percentile(values: list[float], q: float) -> float:
    """The nearest-rank ``q`` quantile of ``values`` (0.95: the p95), the sample at round(q * (n - 1)) in order."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def analyze(conn: psycopg.Connection) -> None:
    """Fresh planner statistics and visibility maps for every table the pipeline reads, before anything is timed
    (a bank just built has no statistics yet, and autovacuum's VACUUM and ANALYZE would otherwise land in the middle
    of a measurement; until a VACUUM marks a bulk-built bank's pages all-visible, an index-only scan of its postings
    reads the table too: a sixth of the rows at 100,000 units). ``conn`` must be in autocommit mode."""
    conn.execute(
        "VACUUM (ANALYZE) hindsight.memory_units, hindsight.unit_entities, hindsight.entities, hindsight.memory_links,"
        " hindsight.documents, hindsight.chunks, hindsight._bm25_terms, hindsight._bm25_postings,"
        " hindsight._bank_counts"
    )


def set_config(client: Any, banks: list[str], changes: dict[str, Any]) -> None:
    """Merge ``changes`` into the banks' config (undone by :func:`reset_config`); ``client``: a hindsight_pg Client."""
    if changes:
        client.conn.execute(
            "UPDATE hindsight.banks SET config = config || %s::jsonb WHERE bank_id = ANY(%s)",
            (json.dumps(changes), banks),
        )


def reset_config(client: Any, banks: list[str], keys: list[str]) -> None:
    """Drop ``keys`` from the banks' config: their defaults apply again."""
    if keys:
        client.conn.execute(
            "UPDATE hindsight.banks SET config = config - %s::text[] WHERE bank_id = ANY(%s)", (keys, banks)
        )


ARMS = ["semantic", "keyword", "graph", "temporal"]
NO_READER = {"reranker_provider": {"kind": "none"}}
# The full pipeline and its ablations (bench/ablations.py, bench/agent_memory.py):
# method -> {"config": the banks' config for the run, "arms": recall's arms (default: every one)}
ABLATIONS: dict[str, dict[str, Any]] = {
    "full": {},
    "no reader": {"config": NO_READER},
    "no graph arm": {"arms": [a for a in ARMS if a != "graph"]},
    "no temporal arm": {"arms": [a for a in ARMS if a != "temporal"]},
    "no updates-win": {"config": {"updates_win": "off"}},
    "updates-win, links of 0.8 or more move": {"config": {"update_move_confidence": 0.8}},
    "updates-win, updates among the first 10": {"config": {"update_reach": 10}},
    "no window-first": {"config": {"window_first": False}},
    "window-first, every in-window unit": {"config": {"window_reach": 1000000}},
    "reader weight 0.85": {"config": {"reranker_weight": 0.85}},
    "no recency boost": {"config": {"recency_alpha": 0.0}},
    "recency alpha 0.2 (the old default)": {"config": {"recency_alpha": 0.2}},
    "no temporal boost": {"config": {"temporal_alpha": 0.0}},
    "no proof boost": {"config": {"proof_alpha": 0.0}},
    "semantic+keyword, no reader": {"arms": ["semantic", "keyword"], "config": NO_READER},
}
