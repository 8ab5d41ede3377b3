"""Retrieval quality on LoCoMo: the full pipeline, each arm alone, ablations and baselines, in one run.

Protocol of the memory literature: one memory per turn (text "<speaker>: <text>",
time = the session's start), rank the memories of the question's own conversation,
Recall@k = |evidence in top k| / |evidence|, NDCG@10 with binary relevance, and
"all evidence in the top 10", averaged over questions of categories 1-4 (category 5
has no evidence), overall and per category. query_timestamp = the last session's time.

    .venv/bin/python bench/locomo.py [PATH] [--conversations N] [--keep]

PATH defaults to ../shared/data/locomo/locomo_dev.json (or $HINDSIGHT_LOCOMO); the
script exits with a message when the file is absent. Banks are named
bench-locomo-<sample_id> and reused when they hold the right number of turns.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import hindsight_pg
from hindsight_pg._inputs import LocomoConversation, find_locomo, load_locomo

CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop"}
ARMS = ["semantic", "bm25", "graph", "temporal"]

# name -> recall arguments
CONFIGS: dict[str, dict[str, Any]] = {
    "full pipeline (mid)": {},
    "semantic alone": {"arms": ["semantic"]},
    "keyword alone (native, ts_rank_cd)": {"arms": ["bm25"]},
    "graph alone": {"arms": ["graph"]},
    "temporal alone": {"arms": ["temporal"]},
    **{f"without {arm}": {"arms": [a for a in ARMS if a != arm]} for arm in ARMS},
    "RRF(semantic, bm25) baseline": {"arms": ["semantic", "bm25"], "passthrough": "normalized"},
    "full, rank_linear passthrough": {"passthrough": "rank_linear"},
    "full, budget low": {"budget": "low"},
    "full, budget high": {"budget": "high"},
    # bank config changes for one configuration (restored afterwards)
    "full, BM25 keyword backend": {"bank_config": {"keyword_backend": "bm25"}},
    "keyword alone, BM25 backend": {"arms": ["bm25"], "bank_config": {"keyword_backend": "bm25"}},
    "full, BM25 with b = 0 (no length normalisation)": {"bank_config": {"keyword_backend": "bm25", "bm25_b": 0.0}},
    # the graph arm's RRF weight (default 0.25) and what else was tried against its noise
    "full, equal arm weights (graph 1.0)": {"bank_config": {"arm_weights": {"graph": 1.0}}},
    "full, graph RRF weight 0.5": {"bank_config": {"arm_weights": {"graph": 0.5}}},
    "full, graph one hop (weight 1.0)": {"bank_config": {"graph_max_hops": 1, "arm_weights": {"graph": 1.0}}},
    "full, graph semantic floor 0.6 (weight 1.0)": {
        "bank_config": {"graph_semantic_floor": 0.6, "arm_weights": {"graph": 1.0}}
    },
}


@dataclass
class Question:
    conversation: str
    text: str
    category: int
    evidence: set[str]


def normalise_evidence(raw: list[str], known: set[str]) -> tuple[set[str], int]:
    """Evidence dialog ids made canonical (D<session>:<turn>); ids that name no turn are dropped and counted."""
    kept: set[str] = set()
    dropped = 0
    for item in raw:
        for piece in re.split(r"[;,\s]+", item):
            match = re.fullmatch(r"D:?(\d+):0*(\d+)", piece.strip())
            if not match:
                dropped += bool(piece.strip())
                continue
            dia = f"D{int(match.group(1))}:{int(match.group(2))}"
            if dia in known:
                kept.add(dia)
            else:
                dropped += 1
    return kept, dropped


def metrics(ranked: list[str], evidence: set[str]) -> dict[str, float]:
    top5, top10 = set(ranked[:5]), set(ranked[:10])
    # a turn split into several facts counts once, where it first appears
    dcg = sum(1 / math.log2(i + 2) for i, d in enumerate(ranked[:10]) if d in evidence and d not in ranked[:i])
    idcg = sum(1 / math.log2(i + 2) for i in range(min(len(evidence), 10)))
    return {
        "R@5": len(top5 & evidence) / len(evidence),
        "R@10": len(top10 & evidence) / len(evidence),
        "NDCG@10": dcg / idcg,
        "all@10": float(evidence <= top10),
    }


def ensure_bank(client: hindsight_pg.Client, conv: LocomoConversation) -> str:
    bank = f"bench-locomo-{conv.sample_id}"
    row = client.conn.execute("SELECT count(*) FROM hindsight.documents WHERE bank_id = %s", (bank,)).fetchone()
    if row and row[0] == len(conv.items):  # one document per turn
        return bank
    client.delete_bank(bank)
    started = time.perf_counter()
    client.retain_batch(bank, conv.items, create_bank=True)
    print(
        f"  retained {conv.sample_id}: {len(conv.items)} turns in {time.perf_counter() - started:.1f} s",
        file=sys.stderr,
    )
    return bank


def header(client: hindsight_pg.Client) -> str:
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    pg, vec = client.conn.execute(
        "SELECT current_setting('server_version'), (SELECT extversion FROM pg_extension WHERE extname = 'vector')"
    ).fetchone()
    return f"commit {commit or '?'}, PostgreSQL {pg}, pgvector {vec}, {os.cpu_count()} cores"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("path", nargs="?", help="LoCoMo JSON file (default: the shared dev split)")
    parser.add_argument("--conversations", type=int, default=0, help="use only the first N conversations")
    parser.add_argument("--configs", default="", help="subset of configuration names, separated by ';'")
    parser.add_argument("--output", default="bench/results/locomo.json", help="where to write the figures")
    parser.add_argument("--dsn", default=None)
    args = parser.parse_args()

    path = Path(args.path) if args.path else find_locomo()
    if path is None or not path.exists():
        print("LoCoMo data not found: pass a path or set HINDSIGHT_LOCOMO. Skipping.", file=sys.stderr)
        return
    conversations = load_locomo(path)
    if args.conversations:
        conversations = conversations[: args.conversations]
    configs = {k: v for k, v in CONFIGS.items() if not args.configs or k in args.configs.split(";")}

    client = hindsight_pg.connect(args.dsn)
    print(header(client))
    questions: list[tuple[str, Question, Any]] = []
    dropped_ids = 0
    last_time: dict[str, Any] = {}
    for conv in conversations:
        bank = ensure_bank(client, conv)
        known = {item.metadata["dia_id"] for item in conv.items}  # type: ignore[index]
        last_time[bank] = conv.last_session_time
        for qa in conv.questions:
            if qa.get("category") not in CATEGORIES:
                continue
            evidence, dropped = normalise_evidence(qa.get("evidence", []), known)
            dropped_ids += dropped
            if evidence:
                questions.append((bank, Question(conv.sample_id, qa["question"], qa["category"], evidence), None))
    embeddings = client.embedder.embed([q.text for _, q, _ in questions], kind="query")
    print(f"{len(questions)} questions of categories 1-4 from {len(conversations)} conversations; "
          f"{dropped_ids} malformed or unknown evidence ids dropped")  # fmt: skip

    results: dict[str, dict[str, Any]] = {}
    for name, extra in configs.items():
        per_question = []
        for bank in last_time:
            client.conn.execute(
                "UPDATE hindsight.banks SET config = config || %s::jsonb WHERE bank_id = %s",
                (json.dumps(extra.get("bank_config", {})), bank),
            )
        started = time.perf_counter()
        for (bank, question, _), embedding in zip(questions, embeddings, strict=True):
            rows = client.conn.execute(
                "SELECT metadata->>'dia_id' FROM hindsight.recall(bank_id => %(b)s, query => %(q)s,"
                " query_embedding => %(e)s, query_timestamp => %(t)s, budget => %(budget)s, arms => %(arms)s,"
                " passthrough => %(passthrough)s)",
                {"b": bank, "q": question.text, "e": embedding, "t": last_time[bank],
                 "budget": extra.get("budget", "mid"), "arms": extra.get("arms"),
                 "passthrough": extra.get("passthrough", "normalized")},
            ).fetchall()  # fmt: skip
            per_question.append((question.category, metrics([r[0] for r in rows], question.evidence)))
        elapsed = time.perf_counter() - started
        for bank in last_time:
            client.conn.execute(
                "UPDATE hindsight.banks SET config = config - %s::text[] WHERE bank_id = %s",
                (list(extra.get("bank_config", {})), bank),
            )
        table = {"overall": _mean([m for _, m in per_question])}
        for cat, label in CATEGORIES.items():
            table[label] = _mean([m for c, m in per_question if c == cat])
        results[name] = {"metrics": table, "ms_per_question": 1000 * elapsed / len(questions)}
        o = table["overall"]
        print(f"{name:<34} R@5 {o['R@5']:.3f}  R@10 {o['R@10']:.3f}  NDCG@10 {o['NDCG@10']:.3f}  "
              f"all@10 {o['all@10']:.3f}  ({results[name]['ms_per_question']:.1f} ms/question)")  # fmt: skip

    print("\nRecall@10 per category")
    print(f"{'configuration':<34}" + "".join(f"{label:>13}" for label in CATEGORIES.values()))
    for name, result in results.items():
        print(f"{name:<34}" + "".join(f"{result['metrics'][label]['R@10']:>13.3f}" for label in CATEGORIES.values()))
    out = Path(args.output)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps({"header": header(client), "questions": len(questions), "dropped_ids": dropped_ids,
                               "results": results}, indent=1))  # fmt: skip
    print(f"\nwritten to {out}")


def _mean(rows: list[dict[str, float]]) -> dict[str, float]:
    if not rows:
        return {k: float("nan") for k in ("R@5", "R@10", "NDCG@10", "all@10")}
    return {k: statistics.fmean(r[k] for r in rows) for k in rows[0]}


if __name__ == "__main__":
    main()
