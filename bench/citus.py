"""One node against a Citus cluster, in one run, on the same data: recall latency, retain throughput,
recall throughput of concurrent clients, and 100 banks spread over two workers. Figures for docs/benchmarks.md
("Citus").

Starts a throwaway cluster (a coordinator and two workers on this machine, tests/citus/_cluster.py);
the single node is a database without Citus on the coordinator's own server, so both sides run the
same server programs with the same settings. LoCoMo conv-26 (419 turns) is retained turn by turn
(one memory unit per turn, embeddings computed once up front, so only the database is timed), then
every one of its questions is recalled with its query embedding given:

  single       hindsight.recall_json on the single node
  delegated    the same call through the coordinator: Citus sends it whole to the worker holding the bank
  worker       the same call on that worker directly (no coordinator): the delegated call minus the hop
  not delegated  SELECT * FROM hindsight.recall(...) in a transaction block, which Citus does not delegate:
               the coordinator runs the pipeline and sends each of its queries to the worker

Needs Citus (make citus). Run: make bench-citus, or .venv/bin/python bench/citus.py --help.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import statistics
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import psycopg
from _common import LOCOMO_BESIDE_PROJECT, analyze, header, percentile, write_results
from pgvector.psycopg import register_vector

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "citus"))
from _cluster import CitusCluster, Sent, worker_of

from hindsight_pg import InvalidInputError, LocalEmbedder
from hindsight_pg._inputs import load_locomo, locomo_path

BANK = "conv-26"
BATCH = 20  # items per retain call


def connect(dsn: str) -> psycopg.Connection[Any]:
    conn = psycopg.connect(dsn, autocommit=True)
    register_vector(conn)
    return conn


def items_of(conv: Any, embedder: LocalEmbedder) -> list[dict[str, Any]]:
    """One item per turn with its one unit and its embedding, as hindsight.retain takes them."""
    texts = [item.content for item in conv.items]
    vectors = embedder.embed(texts, kind="passage")
    return [
        {"document_id": item.document_id, "content": item.content, "timestamp": str(item.timestamp),
         "units": [{"text": item.content, "embedding": v.tolist()}]}
        for item, v in zip(conv.items, vectors, strict=True)
    ]  # fmt: skip


def retain_all(conn: psycopg.Connection[Any], items: list[dict[str, Any]], transaction: bool, bank: str) -> float:
    """Seconds to retain every item in batches of BATCH (each call one statement, or one transaction)."""
    conn.execute("SELECT hindsight.delete_bank(%s)", (bank,))
    conn.execute("SELECT hindsight.create_bank(%s)", (bank,))
    start = time.perf_counter()
    for i in range(0, len(items), BATCH):
        with conn.transaction() if transaction else contextlib.nullcontext():
            batch = json.dumps(items[i : i + BATCH])
            conn.execute("SELECT * FROM hindsight.retain(%s, %s::jsonb)", (bank, batch)).fetchall()
    return time.perf_counter() - start


def recall_once(conn: psycopg.Connection[Any], question: str, embedding: Any, form: str) -> float:
    """Milliseconds of one recall in the given form."""
    start = time.perf_counter()
    if form == "not delegated":
        with conn.transaction():
            conn.execute("SELECT * FROM hindsight.recall(%s, %s, %s)", (BANK, question, embedding)).fetchall()
    else:
        conn.execute("SELECT hindsight.recall_json(%s, %s, %s)", (BANK, question, embedding)).fetchone()
    return (time.perf_counter() - start) * 1000


def throughput(dsn: str, queries: list[tuple[str, Any]], threads: int, seconds: float) -> tuple[float, list[float]]:
    """Recalls per second of ``threads`` clients, each on its own connection, calling recall_json over the
    questions in turn (each client from its own offset) for ``seconds``, and every call's milliseconds."""
    deadline = time.perf_counter() + seconds
    times: list[list[float]] = [[] for _ in range(threads)]

    def client(n: int) -> None:
        with connect(dsn) as conn:
            i = n * len(queries) // threads
            while time.perf_counter() < deadline:
                question, embedding = queries[i % len(queries)]
                times[n].append(recall_once(conn, question, embedding, "delegated"))
                i += 1

    start = time.perf_counter()
    with ThreadPoolExecutor(threads) as pool:
        list(pool.map(client, range(threads)))
    every = [t for client_times in times for t in client_times]
    return len(every) / (time.perf_counter() - start), every


def remote_commands(conn: psycopg.Connection[Any], question: str, embedding: Any, form: str) -> int:
    """How many commands the coordinator sends to the workers for one recall."""
    with Sent(conn) as sent:
        recall_once(conn, question, embedding, form)
        return len(sent.commands)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=2, help="times every question is recalled per form (default 2)")
    parser.add_argument("--banks", type=int, default=100, help="banks for the placement figure (default 100)")
    parser.add_argument("--threads", type=int, default=8, help="clients of the throughput figure (default 8)")
    parser.add_argument("--seconds", type=float, default=60, help="seconds of the throughput figure, 0: none (60)")
    args = parser.parse_args()
    try:
        locomo = locomo_path(default=LOCOMO_BESIDE_PROJECT)
    except InvalidInputError as exc:
        sys.exit(str(exc))
    (conv,) = [c for c in load_locomo(locomo) if c.sample_id == BANK]
    embedder = LocalEmbedder()
    items = items_of(conv, embedder)
    questions = [q["question"] for q in conv.questions]
    queries = list(zip(questions, embedder.embed(questions, kind="query"), strict=True))

    with CitusCluster(workers=2) as cluster:
        with psycopg.connect(cluster.dsn(), autocommit=True) as coordinator:
            coordinator.execute("SET client_min_messages = warning")
            coordinator.execute("CREATE EXTENSION hindsight_pg CASCADE")
            coordinator.execute("SELECT hindsight.distribute(shard_count => 32)")
            coordinator.execute("CREATE DATABASE single")
        with psycopg.connect(cluster.dsn("single"), autocommit=True) as single:
            single.execute("SET client_min_messages = warning")
            single.execute("CREATE EXTENSION hindsight_pg CASCADE")
        single, coordinator = connect(cluster.dsn("single")), connect(cluster.dsn())
        print(header(single) + f", Citus {coordinator.execute('SELECT citus_version()').fetchone()[0].split()[1]},"
              " a coordinator and two workers on this machine (unix sockets)")  # fmt: skip
        print(f"{BANK}: {len(items)} turns, one memory unit each; {len(queries)} questions x {args.rounds} rounds")

        print("\nRetain (batches of 20 items, the whole conversation; facts per second)")
        paths = {
            "single node": (single, False),
            "coordinator, one statement a batch (delegated)": (coordinator, False),
            "coordinator, a transaction a batch (not delegated)": (coordinator, True),
        }
        # warm every path's sessions first (the in-database Python's first import, plan caches), on the
        # bank itself so that both sides time the same placement; the best of two runs counts
        retain = {name: min(retain_all(conn, items, tx, BANK) for _ in range(2)) for name, (conn, tx) in paths.items()}
        for name, seconds in retain.items():
            print(f"  {name:52s} {len(items) / seconds:7.1f} facts/s  ({seconds:5.1f} s)")
        # the last run above left the cluster's bank in place; the single node's too
        analyze(single)
        analyze(coordinator)
        port = worker_of(coordinator, BANK)
        (holder,) = [w for w in cluster.workers if w.port == port]
        worker = connect(holder.dsn())

        print("\nRecall latency (hindsight.recall_json with the query embedding; ms)")
        forms = {"single": single, "delegated": coordinator, "worker": worker, "not delegated": coordinator}
        for name, conn in forms.items():  # warm every session (embeddings are given: no model loads)
            for question, embedding in queries[:5]:
                recall_once(conn, question, embedding, name)
        results: dict[str, list[float]] = {name: [] for name in forms}
        for _ in range(args.rounds):  # interleaved, so that whatever else the machine does hits every form alike
            for question, embedding in queries:
                for name, conn in forms.items():
                    results[name].append(recall_once(conn, question, embedding, name))
        question, embedding = queries[0]
        commands = {
            name: remote_commands(coordinator, question, embedding, name) for name in ("delegated", "not delegated")
        }
        hop = []
        for _ in range(200):
            start = time.perf_counter()
            coordinator.execute("SELECT hindsight.bank_config(%s)", (BANK,)).fetchone()
            hop.append((time.perf_counter() - start) * 1000)
        base = statistics.median(results["single"])
        for name, times in results.items():
            median = statistics.median(times)
            p95 = percentile(times, 0.95)
            print(f"  {name:14s} median {median:6.2f}  p95 {p95:6.2f}  ({median / base:4.2f}x single)")
        print(f"  a delegated call that does almost nothing (bank_config): median {statistics.median(hop):.2f} ms")
        print(f"  commands the coordinator sends for one recall: delegated {commands['delegated']},"
              f" not delegated {commands['not delegated']}")  # fmt: skip
        figures: dict[str, Any] = {
            "retain_facts_per_s": {name: len(items) / seconds for name, seconds in retain.items()},
            "recall_ms": {
                name: {"median": statistics.median(t), "p95": percentile(t, 0.95)} for name, t in results.items()
            },
            "bank_config_hop_ms": statistics.median(hop), "commands": commands, "throughput": {},
        }  # fmt: skip

        if args.seconds > 0:
            print(f"\nRecall throughput ({args.threads} clients, {args.seconds:.0f} s a row, recall_json as above)")
            for reader in ("the reader (default)", "no reader"):
                if reader == "no reader":  # the bank's config, on both sides
                    for conn in (single, coordinator):
                        conn.execute(
                            "SELECT hindsight.configure_bank(%s, %s)", (BANK, '{"reranker_provider": {"kind": "none"}}')
                        )
                for name, dsn in (("single node", cluster.dsn("single")), ("cluster (coordinator)", cluster.dsn())):
                    rate, times = throughput(dsn, queries, args.threads, args.seconds)
                    figures["throughput"][f"{name}, {reader}"] = {
                        "per_s": rate, "p50": statistics.median(times), "p95": percentile(times, 0.95)}  # fmt: skip
                    print(f"  {name + ', ' + reader:44s} {rate:6.1f} recalls/s  p50 {statistics.median(times):6.1f} ms"
                          f"  p95 {percentile(times, 0.95):6.1f} ms  ({len(times)} recalls)")  # fmt: skip

        print(f"\n{args.banks} banks over two workers (32 shards)")
        for b in range(args.banks):
            coordinator.execute("SELECT hindsight.create_bank(%s)", (f"tenant-{b:03d}",))
        placement = dict(coordinator.execute(
            "SELECT s.shardid, p.nodeport FROM pg_dist_shard s JOIN pg_dist_shard_placement p USING (shardid)"
            " WHERE s.logicalrelid = 'hindsight.banks'::regclass").fetchall())  # fmt: skip
        tenants = [f"tenant-{b:03d}" for b in range(args.banks)]
        shard_of = dict(coordinator.execute(
            "SELECT b, get_shard_id_for_distribution_column('hindsight.banks', b) FROM unnest(%s::text[]) b",
            (tenants,)).fetchall())  # fmt: skip
        for w in cluster.workers:
            shards = [s for s, p in placement.items() if p == w.port]
            banks = [b for b, s in shard_of.items() if placement[s] == w.port]
            print(f"  {w.name}: {len(shards)} of the 32 shards, {len(banks)} banks"
                  f" (banks per shard {min(sum(shard_of[b] == s for b in banks) for s in shards)}"
                  f"-{max(sum(shard_of[b] == s for b in banks) for s in shards)})")  # fmt: skip
        write_results("citus", header(single), figures)
        for conn in (single, coordinator, worker):
            conn.close()


if __name__ == "__main__":
    main()
