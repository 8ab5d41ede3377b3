"""Retrieval on the Chinese test set (tests/data/chinese_recall.json) with each embedding model.

The set: 95 memories of one user's chats in colloquial Chinese over 2025, 60 questions with the
ids of the memories that answer them (kinds: paraphrase, keyword, multi, time), asked as of
2025-12-31T12:00:00Z. For each model (all-MiniLM-L6-v2, multilingual-e5-small) the memories go
into a bank of their own (retained with that model's vectors) and every question is recalled with
the full pipeline and with the semantic arm alone: Recall@1/@5/@10 overall and per kind, and the
seconds to embed the memories. Figures go to bench/results/chinese.json.

    .venv/bin/python bench/chinese.py [--dsn DSN]
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path
from typing import Any

from _common import header

import hindsight_pg
from hindsight_pl.providers import E5, MINILM, LocalEmbedder

DATA = Path(__file__).resolve().parent.parent / "tests" / "data" / "chinese_recall.json"
ASKED_AT = "2025-12-31T12:00:00Z"
METHODS = {"full": None, "semantic": ["semantic"]}


def run_model(dsn: str | None, model: str, data: dict[str, Any]) -> dict[str, Any]:
    """One bank retained with ``model``; every question recalled by each method."""
    client = hindsight_pg.connect(dsn, embedder=LocalEmbedder(model))
    bank = f"bench-chinese-{model}"
    client.delete_bank(bank)
    client.create_bank(bank, config={"extractor": "verbatim"})
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
                bank, q["question"], max_tokens=100_000, query_timestamp=ASKED_AT, arms=arms).results]  # fmt: skip
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
    parser.add_argument("--output", default="bench/results/chinese.json")
    args = parser.parse_args()
    data = json.loads(DATA.read_text())
    with hindsight_pg.connect(args.dsn) as client:
        print(header(client.conn))
    print(f"{len(data['memories'])} memories, {len(data['questions'])} questions")
    results = {}
    for model in (MINILM, E5):
        results[model] = run_model(args.dsn, model, data)
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
