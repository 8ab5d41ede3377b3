"""Cold connections: what a new database session pays on its first recall, and what a warm pool or the model
server saves, in one run.

A `local` model is loaded once per database session (docs/providers.md#in-a-database-session), so a new
connection's first ``hindsight.recall`` loads the embedding model (multilingual-e5-small) and the packaged
cross-encoder (hindsight-reader) before it answers, and keeps both for the session's life. This script measures,
on a throwaway embedded server (or ``--dsn``), with the same small bank and the demo's four questions:

- warm pool: a psycopg_pool ``ConnectionPool`` of N connections, each warmed by one recall when it opens;
  recall latency afterwards (the baseline every ratio is against), and how long the pool took to fill;
- cold, in-session models: N new connections at once, each timed from connect to its first recall's answer,
  and each backend's resident memory (RSS) and private memory (Private_Clean + Private_Dirty, smaps_rollup)
  while it holds the models;
- cold, model server: the same with the database pointed at ``hindsight-pg serve-models`` (started here as
  a subprocess) through ``hindsight.set_setting('embedding_provider' / 'reranker_provider', {"kind": "http"})``,
  the model server's own RSS, and a warm pool's recall latency through it;
- where a new session's first recall spends its time (``--breakdown``, the median of ``--runs`` new sessions, in
  and out of the model server): each step run alone, in the order a recall meets it, then the recall itself
  (the rest: its SQL functions' first plans, the token counter) and a second recall (warm) for comparison.

    .venv/bin/python bench/cold.py [--dsn DSN] [--sizes 1,10] [--turns 80] [--runs 5] [--breakdown]

Needs psycopg-pool (``pip install psycopg-pool``). The database server must run on this machine (memory is
read from /proc). The load average is printed before and after: on a shared machine the cold figures grow
with it, because every new session competes for the cores while it loads.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import psycopg
import requests
from _common import analyze, header
from psycopg_pool import ConnectionPool

from hindsight_pg import EmbeddedServer
from hindsight_pg.cli.examples import DEMO_QUESTIONS, EXAMPLE_CONVERSATION

BANK = "bench-cold"
QUESTIONS = [q for _, q in DEMO_QUESTIONS]
RECALL = "SELECT count(*) FROM hindsight.recall(%s, %s, query_timestamp => %s)"


def recall(conn: psycopg.Connection, question: str, asked_at: Any) -> None:
    """One recall of ``question`` in bank BANK as of ``asked_at``, every row fetched."""
    conn.execute(RECALL, (BANK, question, asked_at)).fetchone()


def memory_mb(pid: int) -> tuple[float, float]:
    """(RSS, private) memory of a process in MB, from /proc/<pid>/smaps_rollup.

    RSS counts the shared buffers a backend has touched; private memory (Private_Clean + Private_Dirty) is
    what the process holds alone, the models among it. Raises OSError when the process is not on this machine.
    """
    fields: dict[str, int] = {}
    for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines()[1:]:
        name, value = line.split(":", 1)
        fields[name] = int(value.split()[0])
    return fields["Rss"] / 1024, (fields["Private_Clean"] + fields["Private_Dirty"]) / 1024


def cold(dsn: str, n: int, asked_at: Any) -> dict[str, Any]:
    """N new connections at once, each timed from connect to its first recall's answer (seconds).

    Returns {"n", "seconds": [..] sorted, "median_s", "max_s", "rss_mb", "private_mb"} (memory: the median over
    the N backends, read while every connection is still open, after its first recall).
    """
    seconds: list[float] = [0.0] * n
    pids: list[int] = [0] * n
    done = threading.Barrier(n + 1)
    release = threading.Event()
    errors: list[BaseException] = []

    def one(i: int) -> None:
        try:
            started = time.perf_counter()
            with psycopg.connect(dsn, autocommit=True) as conn:
                recall(conn, QUESTIONS[i % len(QUESTIONS)], asked_at)
                seconds[i] = time.perf_counter() - started
                pids[i] = conn.info.backend_pid
                done.wait()
                release.wait()
        except BaseException as exc:  # reported by the caller
            errors.append(exc)
            done.abort()

    threads = [threading.Thread(target=one, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    try:
        done.wait()
        memory = [memory_mb(pid) for pid in pids]
    finally:
        release.set()
        for t in threads:
            t.join()
    if errors:
        raise errors[0]
    seconds.sort()
    return {
        "n": n,
        "seconds": [round(s, 3) for s in seconds],
        "median_s": statistics.median(seconds),
        "max_s": seconds[-1],
        "rss_mb": statistics.median(m[0] for m in memory),
        "private_mb": statistics.median(m[1] for m in memory),
    }


# A new session's first recall, step by step: each statement pays for what it meets first.
NAMED_RECALL = "SELECT count(*) FROM hindsight.recall(%%(bank)s, %%(%s)s, query_timestamp => %%(asked_at)s)"
STEPS = [
    ("import hindsight_pl", "SELECT hindsight._load()"),
    ("import the pipeline, numpy", "SELECT hindsight.embed(%(bank)s, ARRAY[]::text[], 'query')"),
    ("load the embedding model, embed", "SELECT hindsight.embed(%(bank)s, ARRAY['a question'], 'query')"),
    ("first query analysis", "SELECT hindsight.parse_temporal(%(question)s, %(asked_at)s)"),
    ("load the reranker, rerank", "SELECT hindsight.rerank(%(bank)s, %(question)s, ARRAY['an answer'])"),
    ("the recall (first plans, tokens)", NAMED_RECALL % "question"),
    ("a second recall (warm)", NAMED_RECALL % "other"),
]


def breakdown(dsn: str, runs: int, asked_at: Any) -> dict[str, float]:
    """The median milliseconds of each step of STEPS over ``runs`` new sessions (one at a time), and "first
    recall": the sum of all but the warm one, what a first recall takes when it meets them all at once."""
    taken: dict[str, list[float]] = {name: [] for name, _ in STEPS}
    values = {"bank": BANK, "question": QUESTIONS[0], "other": QUESTIONS[1], "asked_at": asked_at}
    for _ in range(runs):
        with psycopg.connect(dsn, autocommit=True) as conn:
            for name, statement in STEPS:
                started = time.perf_counter()
                conn.execute(statement, values).fetchall()
                taken[name].append((time.perf_counter() - started) * 1000)
    medians = {name: statistics.median(ms) for name, ms in taken.items()}
    medians["first recall"] = sum(v for k, v in medians.items() if k != STEPS[-1][0])
    return medians


def warm_pool(dsn: str, n: int, runs: int, asked_at: Any) -> dict[str, Any]:
    """A ConnectionPool of N connections, each warmed by one recall as it opens; then N threads each run
    ``runs`` recalls through it. Returns {"n", "fill_s" (until the pool held N warm connections), "median_ms",
    "p95_ms", "recalls"}."""

    def warm(conn: psycopg.Connection) -> None:
        recall(conn, QUESTIONS[0], asked_at)

    started = time.perf_counter()
    latencies: list[float] = []
    lock = threading.Lock()
    with ConnectionPool(dsn, min_size=n, max_size=n, kwargs={"autocommit": True}, configure=warm) as pool:
        pool.wait(timeout=600)
        fill = time.perf_counter() - started

        def worker(i: int) -> None:
            for r in range(runs):
                with pool.connection() as conn:
                    began = time.perf_counter()
                    recall(conn, QUESTIONS[(i + r) % len(QUESTIONS)], asked_at)
                    took = (time.perf_counter() - began) * 1000
                with lock:
                    latencies.append(took)

        threads = [threading.Thread(target=worker, args=(i,)) for i in range(n)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    latencies.sort()
    return {
        "n": n,
        "fill_s": fill,
        "median_ms": statistics.median(latencies),
        "p95_ms": latencies[int(0.95 * (len(latencies) - 1))],
        "recalls": len(latencies),
    }


def start_model_server() -> tuple[subprocess.Popen[bytes], str]:
    """``hindsight-pg serve-models`` with the bank's models (multilingual-e5-small, hindsight-reader) on a free
    port, as a subprocess; returns it and its URL once /health answers. Raises RuntimeError after 300 s."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    cli = Path(sys.executable).with_name("hindsight-pg")
    proc = subprocess.Popen(
        [str(cli), "serve-models", "--port", str(port), "--reranker-model", "hindsight-reader"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"the model server exited with {proc.returncode}")
        try:
            if requests.get(f"{url}/health", timeout=1).status_code == 200:
                return proc, url
        except requests.ConnectionError:
            time.sleep(0.2)
    proc.kill()
    raise RuntimeError("the model server did not answer /health within 300 s")


def make_bank(dsn: str, turns: int) -> Any:
    """Bank BANK holding the demo conversation's first ``turns`` turns (retained in the database); returns
    the time of its last turn (recall asks as of then)."""
    items = json.loads(Path(EXAMPLE_CONVERSATION).read_text())[:turns]
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute("SELECT hindsight.delete_bank(%s) WHERE EXISTS (SELECT FROM hindsight.banks WHERE bank_id = %s)",
                     (BANK, BANK))  # fmt: skip
        conn.execute("SELECT hindsight.create_bank(%s)", (BANK,))
        for item in items:
            conn.execute(
                "SELECT count(*) FROM hindsight.retain_text(%s, %s, mentioned_at => %s)",
                (BANK, f"{item['speaker']}: {item['text']}", item["timestamp"]),
            )
        analyze(conn)
        return conn.execute(
            "SELECT max(mentioned_at) FROM hindsight.memory_units WHERE bank_id = %s", (BANK,)
        ).fetchone()[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--dsn", default=None, help="a database with the extension (default: a throwaway server)")
    parser.add_argument("--sizes", default="1,10", help="numbers of new connections, comma-separated")
    parser.add_argument("--turns", type=int, default=80, help="demo turns retained into the bank")
    parser.add_argument("--runs", type=int, default=5, help="recalls per connection of a warm pool")
    parser.add_argument("--breakdown", action="store_true", help="only where a first recall's time goes")
    parser.add_argument("--output", default="bench/results/cold.json")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]

    server = None if args.dsn else EmbeddedServer(tempfile.mkdtemp(prefix="hindsight-cold-"))
    dsn = args.dsn or server.ensure_running()  # type: ignore[union-attr]
    model_server: subprocess.Popen[bytes] | None = None
    result: dict[str, Any] = {"load_before": os.getloadavg()}
    try:
        with psycopg.connect(dsn, autocommit=True) as conn:
            result["header"] = header(conn)
        print(result["header"])
        print(f"load average before: {' '.join(f'{x:.2f}' for x in result['load_before'])}")
        asked_at = make_bank(dsn, args.turns)
        if args.breakdown:
            _breakdowns(dsn, args.runs, asked_at)
            return
        result["warm_local"] = [warm_pool(dsn, n, args.runs, asked_at) for n in sizes]
        result["cold_local"] = [cold(dsn, n, asked_at) for n in sizes]
        model_server, url = start_model_server()
        result["model_server_rss_mb"] = memory_mb(model_server.pid)[0]
        _point_at(dsn, url)
        try:
            result["cold_http"] = [cold(dsn, n, asked_at) for n in sizes]
            result["warm_http"] = [warm_pool(dsn, n, args.runs, asked_at) for n in sizes]
            result["model_server_rss_mb_after"] = memory_mb(model_server.pid)[0]
        finally:
            _point_at(dsn, None)
    finally:
        if model_server is not None:
            model_server.terminate()
            model_server.wait(timeout=30)
        if server is not None:
            server.stop()
    result["load_after"] = os.getloadavg()
    _print(result)
    out = Path(args.output)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=1, default=str))
    print(f"written to {out}")


def _breakdowns(dsn: str, runs: int, asked_at: Any) -> None:
    """Print the breakdown of a first recall with the models in the session, then with the model server."""
    local = breakdown(dsn, runs, asked_at)
    model_server, url = start_model_server()
    try:
        _point_at(dsn, url)
        served = breakdown(dsn, runs, asked_at)
    finally:
        _point_at(dsn, None)
        model_server.terminate()
        model_server.wait(timeout=30)
    print(f"a new session's first recall, step by step (median of {runs} sessions, ms); load average "
          f"{os.getloadavg()[0]:.2f}")  # fmt: skip
    print(f"{'step':<34} {'models in the session':>22} {'model server':>13}")
    for name in local:
        print(f"{name:<34} {local[name]:22.0f} {served[name]:13.0f}")


def _point_at(dsn: str, url: str | None) -> None:
    """The database's embedding and reranker providers: the model server at ``url``, or (None) the sessions' own."""
    with psycopg.connect(dsn, autocommit=True) as conn:
        for what, config in (("embedding_provider", {"kind": "http", "url": url, "model": "multilingual-e5-small"}),
                             ("reranker_provider", {"kind": "http", "url": url})):  # fmt: skip
            conn.execute("SELECT hindsight.set_setting(%s, %s)", (what, json.dumps(config) if url else None))


def _print(r: dict[str, Any]) -> None:
    """The figures, each ratio against the warm local pool of the same size (the same concurrency)."""
    base = {w["n"]: w["median_ms"] for w in r["warm_local"]}
    for name in ("warm_local", "warm_http"):
        for w in r[name]:
            print(f"{name:<11} pool of {w['n']:>2}: filled (warm) in {w['fill_s']:6.2f} s; recall median "
                  f"{w['median_ms']:7.1f} ms, p95 {w['p95_ms']:7.1f} ms ({w['recalls']} recalls, {w['n']} at once;"
                  f" x{w['median_ms'] / base[w['n']]:.2f} the warm local pool's)")  # fmt: skip
    for name in ("cold_local", "cold_http"):
        for c in r[name]:
            print(f"{name:<11} {c['n']:>2} new connections at once: first recall median {c['median_s'] * 1000:6.0f} ms,"
                  f" max {c['max_s'] * 1000:6.0f} ms (x{c['median_s'] * 1000 / base[c['n']]:.1f} the warm local"
                  f" pool's); backend RSS {c['rss_mb']:4.0f} MB, private {c['private_mb']:4.0f} MB")  # fmt: skip
    print(f"model server RSS: {r['model_server_rss_mb']:.0f} MB at start, "
          f"{r['model_server_rss_mb_after']:.0f} MB after")  # fmt: skip
    print(f"load average after: {' '.join(f'{x:.2f}' for x in r['load_after'])}")


if __name__ == "__main__":
    main()
