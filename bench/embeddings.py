"""The embedding models side by side: speed, memory, and retrieval on a Chinese test set.

For each model (all-MiniLM-L6-v2, multilingual-e5-small), in a fresh process of its own:
  * load time and resident memory after loading and embedding (the process's peak RSS);
  * passages: seconds to embed 1,000 LoCoMo turns (one batch call, the way retain embeds);
  * queries: milliseconds per query, embedded one at a time (the way recall embeds), over 200
    LoCoMo questions (median);
  * the Chinese set (tests/data/chinese_recall.json: 95 memories of one user's chats in colloquial
    Chinese over 2025, 60 questions with the ids of the memories that answer them, kinds
    paraphrase, keyword, multi, time, asked as of 2025-12-31T12:00:00Z): the memories retained into
    a bank of the model (verbatim extractor) and every question recalled with the full pipeline
    and with the semantic arm alone, Recall@1/@5/@10 overall and Recall@10 per kind.
LoCoMo quality per model is bench/locomo.py's (--embedding-model). Figures go to
bench/results/embeddings.json.

    .venv/bin/python bench/embeddings.py [--dsn DSN]
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from _common import LOCOMO_BESIDE_PROJECT, header

import hindsight_pg
from hindsight_pg._inputs import load_locomo, locomo_path
from hindsight_pl.providers import E5, MINILM, LocalEmbedder

DATA = Path(__file__).resolve().parent.parent / "tests" / "data" / "chinese_recall.json"
ASKED_AT = "2025-12-31T12:00:00Z"
METHODS = {"full": None, "semantic": ["semantic"]}


def speed(model: str) -> dict[str, float]:
    """Load, passage and query timings and peak memory of ``model`` in this process (run in a child)."""
    conversations = load_locomo(locomo_path(default=LOCOMO_BESIDE_PROJECT))
    passages = [f"{i.speaker}: {i.content}" for c in conversations for i in c.items][:1000]
    queries = [qa["question"] for c in conversations for qa in c.questions][:200]
    started = time.perf_counter()
    embedder = LocalEmbedder(model)
    embedder.embed(["warm up"], kind="query")
    load_s = time.perf_counter() - started
    started = time.perf_counter()
    embedder.embed(passages, kind="passage")
    passages_s = time.perf_counter() - started
    per_query = []
    for q in queries:
        started = time.perf_counter()
        embedder.embed([q], kind="query")
        per_query.append(1000 * (time.perf_counter() - started))
    return {"load_s": load_s, "seconds_per_1000_passages": passages_s * 1000 / len(passages),
            "ms_per_query": statistics.median(per_query),
            "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}  # fmt: skip


def run_model(dsn: str | None, model: str, data: dict[str, Any]) -> dict[str, Any]:
    """One bank retained with ``model``; every question recalled by each method."""
    client = hindsight_pg.connect(dsn, embedder=LocalEmbedder(model))
    bank = f"bench-chinese-{model}"
    client.delete_bank(bank)
    client.create_bank(bank, config={"extractor": "verbatim", "embedding_model": model})
    items = [{"content": m["text"], "timestamp": m["timestamp"], "speaker": m["speaker"],
              "metadata": {"memory_id": m["id"]}} for m in data["memories"]]  # fmt: skip
    client.embedder.embed(["预热"], kind="passage")  # load the model outside the timing
    started = time.perf_counter()
    client.retain_batch(bank, items)
    retain_s = time.perf_counter() - started
    out: dict[str, Any] = {"retain_seconds": retain_s, "methods": {}}
    for name, arms in METHODS.items():
        rows = []
        for q in data["questions"]:
            ranked = [r.metadata.get("memory_id") for r in client.recall(
                bank, q["question"], max_tokens=100_000, query_timestamp=ASKED_AT, arms=arms, max_results=None,
            ).results]  # fmt: skip
            answers = set(q["answers"])
            rows.append({"kind": q["kind"], **{f"R@{k}": len(answers & set(ranked[:k])) / len(answers)
                                                for k in (1, 5, 10)}})  # fmt: skip
        kinds = sorted({r["kind"] for r in rows})
        out["methods"][name] = {
            "overall": {k: statistics.fmean(r[k] for r in rows) for k in ("R@1", "R@5", "R@10")},
            "by_kind": {kind: statistics.fmean(r["R@10"] for r in rows if r["kind"] == kind) for kind in kinds},
        }
    client.delete_bank(bank)
    client.close()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--dsn", default=None)
    parser.add_argument("--output", default="bench/results/embeddings.json")
    parser.add_argument("--speed-of", help=argparse.SUPPRESS)  # the child process measuring one model
    args = parser.parse_args()
    if args.speed_of:
        print(json.dumps(speed(args.speed_of)))
        return
    data = json.loads(DATA.read_text())
    with hindsight_pg.connect(args.dsn) as client:
        print(header(client.conn))
    print(f"{len(data['memories'])} memories, {len(data['questions'])} questions")
    results = {}
    for model in (MINILM, E5):
        child = subprocess.run([sys.executable, __file__, "--speed-of", model], capture_output=True, text=True,
                               check=True)  # fmt: skip
        figures = json.loads(child.stdout.strip().splitlines()[-1])
        print(
            f"{model:<24} load {figures['load_s']:.1f} s, {figures['seconds_per_1000_passages']:.1f} s per 1,000 "
            f"passages, {figures['ms_per_query']:.1f} ms per query, peak RSS {figures['peak_rss_mb']:.0f} MB"
        )
        results[model] = {"speed": figures, **run_model(args.dsn, model, data)}
        for name, figures in results[model]["methods"].items():
            o = figures["overall"]
            kinds = "  ".join(f"{k} {v:.3f}" for k, v in figures["by_kind"].items())
            print(f"{model:<24} {name:<9} R@1 {o['R@1']:.3f}  R@5 {o['R@5']:.3f}  R@10 {o['R@10']:.3f}  "
                  f"(R@10 by kind: {kinds})")  # fmt: skip
        print(f"{model:<24} retained {len(data['memories'])} memories in {results[model]['retain_seconds']:.1f} s")
    out = Path(args.output)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps({"header": header_text(args.dsn), "results": results}, indent=1))
    print(f"written to {out}")


def header_text(dsn: str | None) -> str:
    with hindsight_pg.connect(dsn) as client:
        return header(client.conn)


if __name__ == "__main__":
    main()
