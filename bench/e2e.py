"""Recall and retain end to end from the driver, the query's and the message's embedding included, with 1 and 8
concurrent sessions.

A bank of ``--units`` SQuAD paragraphs (../shared/data/squad, read where it lies; one unit each, the verbatim
extractor, a day apart) is built once (kept for later runs). Then, for each number of sessions, that many
processes (an agent each: its own connection and its own embedder, the driver's default: multilingual-e5-small
on :func:`hindsight_pl.providers.threads` threads) start together, and each runs ``--calls`` rounds of one
``Client.recall`` of a SQuAD question (mid budget) and one ``Client.retain`` of a short message. Printed: each
call's median and p95 latency (ms) and the rounds (a recall and a retain) per second of all sessions together
(wall time of the slowest). The first call of each session is not timed (its model loads then; bench/cold.py
measures that).

    .venv/bin/python bench/e2e.py [--dsn DSN] [--units 2000] [--calls 20] [--sessions 1,8]

On a throwaway embedded server unless --dsn. The load average is printed before and after.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from _common import analyze, header

import hindsight_pg
from hindsight_pg import EmbeddedServer
from hindsight_pl import providers

SQUAD = Path(__file__).resolve().parents[2] / "shared" / "data" / "squad" / "squad-1.0-train.jsonl"
BANK = "bench-e2e"
START = datetime(2024, 1, 1, tzinfo=UTC)


def paragraphs(n: int) -> list[dict[str, Any]]:
    """The first ``n`` SQuAD paragraphs ({title, context, qas})."""
    with SQUAD.open(encoding="utf-8") as f:
        return [json.loads(line) for _, line in zip(range(n), f, strict=False)]


def build(dsn: str, units: int) -> None:
    """Bank BANK holding ``units`` paragraphs, unless it holds them already."""
    with hindsight_pg.connect(dsn) as client:
        have = client.conn.execute("SELECT count(*) FROM hindsight.memory_units WHERE bank_id = %s",
                                   (BANK,)).fetchone()[0]  # fmt: skip
        if have >= units:
            return
        client.delete_bank(BANK)
        client.create_bank(BANK, config={"extractor": "verbatim"})
        items = [{"content": p["context"], "timestamp": (START + timedelta(days=i)).isoformat()}
                 for i, p in enumerate(paragraphs(units))]  # fmt: skip
        started = time.perf_counter()
        for at in range(0, len(items), 200):
            client.retain_batch(BANK, items[at : at + 200])
        print(f"built {BANK}: {len(items)} paragraphs in {time.perf_counter() - started:.0f} s")
        analyze(client.conn)


def session(dsn: str, index: int, calls: int, units: int, start_at: float) -> dict[str, list[float]]:
    """One agent (run in a child process): ``calls`` rounds of a recall and a short retain; latencies in ms."""
    questions = [q["question"] for p in paragraphs(units) for q in p["qas"]][index::16]
    timing: dict[str, list[float]] = {"recall": [], "retain": []}
    with hindsight_pg.connect(dsn) as client:
        client.recall(BANK, "warm up")  # the model loads here, untimed
        time.sleep(max(0.0, start_at - time.time()))
        for n in range(calls):
            started = time.perf_counter()
            client.recall(BANK, questions[n % len(questions)], budget="mid")
            timing["recall"].append((time.perf_counter() - started) * 1000)
            started = time.perf_counter()
            client.retain(BANK, f"Agent {index} noted: {questions[(n + 7) % len(questions)]}",
                          timestamp=START + timedelta(days=units + n))  # fmt: skip
            timing["retain"].append((time.perf_counter() - started) * 1000)
    return timing


def run(dsn: str, sessions: int, calls: int, units: int) -> dict[str, Any]:
    """``sessions`` agents at once (a process each); their latencies and the throughput of all together."""
    start_at = time.time() + 8 + sessions  # every child connected and its model loaded by then
    children = [subprocess.Popen([sys.executable, __file__, "--dsn", dsn, "--session", str(i), "--calls", str(calls),
                                  "--units", str(units), "--start-at", str(start_at)],
                                 stdout=subprocess.PIPE, text=True) for i in range(sessions)]  # fmt: skip
    timings = []
    for child in children:
        out, _ = child.communicate()
        if child.returncode:
            raise RuntimeError(f"a session exited with {child.returncode}")
        timings.append(json.loads(out.strip().splitlines()[-1]))
    wall_s = max(sum(t["recall"]) + sum(t["retain"]) for t in timings) / 1000
    # each session alternates the two calls, so recalls and retains go at one rate: rounds a second
    row: dict[str, Any] = {"sessions": sessions, "rounds_per_s": sessions * calls / wall_s}
    for kind in ("recall", "retain"):
        every = sorted(x for t in timings for x in t[kind])
        row[kind] = {"median_ms": statistics.median(every), "p95_ms": every[int(0.95 * (len(every) - 1))]}
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--dsn", default=None, help="a database with the extension (default: a throwaway server)")
    parser.add_argument("--units", type=int, default=2000, help="SQuAD paragraphs in the bank")
    parser.add_argument("--calls", type=int, default=20, help="rounds (a recall and a retain) per session")
    parser.add_argument("--sessions", default="1,8", help="numbers of concurrent sessions, comma-separated")
    parser.add_argument("--output", default="bench/results/e2e.json")
    parser.add_argument("--session", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--start-at", type=float, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.session is not None:
        print(json.dumps(session(args.dsn, args.session, args.calls, args.units, args.start_at)))
        return
    server = None if args.dsn else EmbeddedServer(tempfile.mkdtemp(prefix="hindsight-e2e-"))
    dsn = args.dsn or server.ensure_running()  # type: ignore[union-attr]
    try:
        with hindsight_pg.connect(dsn) as client:
            print(header(client.conn))
        build(dsn, args.units)
        load_before = os.getloadavg()[0]
        rows = [run(dsn, int(s), args.calls, args.units) for s in args.sessions.split(",")]
    finally:
        if server is not None:
            server.stop()
    print(f"load average before {load_before:.2f}, after {os.getloadavg()[0]:.2f}; "
          f"driver embedding threads: {providers.threads()}")  # fmt: skip
    print(f"{'sessions':>8} {'recall median':>14} {'recall p95':>11} {'retain median':>14} {'retain p95':>11} "
          f"{'rounds/s':>9}")  # fmt: skip
    for r in rows:
        print(
            f"{r['sessions']:>8} {r['recall']['median_ms']:11.0f} ms {r['recall']['p95_ms']:8.0f} ms "
            f"{r['retain']['median_ms']:11.0f} ms {r['retain']['p95_ms']:8.0f} ms {r['rounds_per_s']:9.1f}"
        )
    out = Path(args.output)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps({"units": args.units, "calls": args.calls, "rows": rows}, indent=1))
    print(f"written to {out}")


if __name__ == "__main__":
    main()
