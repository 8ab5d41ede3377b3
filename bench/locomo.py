"""Retrieval quality on LoCoMo: the full pipeline, each arm alone, ablations and baselines, in one run.

Protocol of the memory literature: rank the memories of the question's own conversation
(time of a turn = its session's start), Recall@k = |evidence in top k| / |evidence|,
NDCG@10 with binary relevance (a turn split into several facts counts once), and "all
evidence in the top 10", averaged over questions of categories 1-4 (category 5 has no
evidence), overall and per category. query_timestamp = the last session's time.

Two modes, each with its own banks:
  turn   one memory per turn, text "<speaker>: <text>" (the verbatim extractor)
  facts  the offline extractor's facts, each mapped back to the dialog id of its turn

    .venv/bin/python bench/locomo.py [PATH] [--modes turn,facts] [--conversations N] [--extra]
                                     [--embedding-model all-MiniLM-L6-v2 --output bench/results/locomo_minilm.json]
                                     [--reranker build/reranker --reranker-candidates 10,20,50 --methods full]

Every method runs without a reader (reranker_provider none) except 'full, reranked (N)': the bank's default
pipeline, the packaged reader (or --reranker) reading N candidates (10, the default mid budget, unless
--reranker-candidates says otherwise; --reranker none leaves these out).

PATH defaults to $HINDSIGHT_LOCOMO, else ../shared/data/locomo/locomo_dev.json beside the project; the
script exits with a message when the file is absent. Banks are named
bench-locomo-<mode>-<sample_id> (-<model> for another model than the default,
--embedding-model) and reused when they hold one document per turn of that model.
`--extra` adds the configurations tried while tuning (keyword backends, graph weights).
Figures go to bench/results/locomo.json; bench/report.py puts them in docs/.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from _common import LOCOMO_BESIDE_PROJECT, analyze, header, reset_config, set_config

import hindsight_pg
from hindsight_pg._inputs import LocomoConversation, load_locomo, locomo_path, normalise_evidence
from hindsight_pl.providers import E5, MINILM, READER, LocalEmbedder

CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop"}
ARMS = ["semantic", "keyword", "graph", "temporal"]

MODES = {"turn": "verbatim", "facts": "offline"}  # mode -> the banks' extractor

# method -> recall arguments; the first six names are the ones docs/benchmarks.json promises (before 0.3.0
# the keyword arm was called bm25: "bm25", "semantic+bm25" and "full without bm25" in figures measured then)
METHODS: dict[str, dict[str, Any]] = {
    "full": {},
    "semantic": {"arms": ["semantic"]},
    "keyword": {"arms": ["keyword"]},
    "graph": {"arms": ["graph"]},
    "temporal": {"arms": ["temporal"]},
    "semantic+keyword": {"arms": ["semantic", "keyword"]},
    **{f"full without {arm}": {"arms": [a for a in ARMS if a != arm]} for arm in ARMS},
    "full, budget low": {"budget": "low"},
    "full, budget high": {"budget": "high"},
    "full, normalized passthrough": {"passthrough": "normalized"},
    "full, rank_linear passthrough": {"passthrough": "rank_linear"},
}
# --extra: what was tried while tuning (a bank config change for one method, restored afterwards)
EXTRA: dict[str, dict[str, Any]] = {
    "full, BM25 keyword backend": {"bank_config": {"keyword_backend": "bm25"}},
    "keyword, BM25 backend": {"arms": ["keyword"], "bank_config": {"keyword_backend": "bm25"}},
    "full, BM25 with b = 0": {"bank_config": {"keyword_backend": "bm25", "bm25_b": 0.0}},
    "full, graph RRF weight 1.0": {"bank_config": {"arm_weights": {"graph": 1.0}}},
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


def ensure_bank(client: hindsight_pg.Client, conv: LocomoConversation, mode: str) -> str:
    """The conversation's bank for ``mode``, retained now unless it already holds one document per turn."""
    model = getattr(client.embedder, "model", E5)
    bank = f"bench-locomo-{mode}-{conv.sample_id}" + ("" if model == E5 else f"-{model}")
    row = client.conn.execute(
        "SELECT count(*) FROM hindsight.documents d JOIN hindsight.banks b USING (bank_id)"
        " WHERE bank_id = %s AND b.config->>'extractor' = %s AND b.config->>'embedding_model' = %s",
        (bank, MODES[mode], model),
    ).fetchone()
    if row and row[0] == len(conv.items):
        return bank
    client.delete_bank(bank)
    client.create_bank(bank, config={"extractor": MODES[mode], "embedding_model": model})
    started = time.perf_counter()
    result = client.retain_batch(bank, conv.items)
    print(
        f"  retained {bank}: {len(conv.items)} turns, {len(result.unit_ids)} memory units"
        f" in {time.perf_counter() - started:.1f} s",
        file=sys.stderr,
    )
    return bank


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("path", nargs="?", help="LoCoMo JSON file (default: the shared dev split)")
    parser.add_argument("--modes", default="turn,facts", help="turn, facts or both, separated by commas")
    parser.add_argument("--conversations", type=int, default=0, help="use only the first N conversations")
    parser.add_argument("--methods", default="", help="subset of method names, separated by ';'")
    parser.add_argument("--extra", action="store_true", help="also run the configurations tried while tuning")
    parser.add_argument("--output", default="bench/results/locomo.json", help="where to write the figures")
    parser.add_argument(
        "--embedding-model",
        default=E5,
        choices=[E5, MINILM],
        help="the banks' embedding model (banks of another model than the default are named -<model>)",
    )
    parser.add_argument("--reranker", default=READER,
                        help="the reader of the methods 'full, reranked (N)' (the banks reranking N candidates with it"
                        " inside the database): hindsight-reader (the packaged reader, the default), a cross-encoder"
                        " folder (e.g. build/reranker), or none; every other method runs without one")  # fmt: skip
    parser.add_argument("--reranker-candidates", type=lambda v: [int(x) for x in v.split(",")], default=[10],
                        help="candidates the reranker reads at the mid budget, e.g. 10,20,50: one method each",
                        )  # fmt: skip
    parser.add_argument("--dsn", default=None)
    args = parser.parse_args()

    modes = [m.strip() for m in args.modes.split(",") if m.strip()]
    if unknown := [m for m in modes if m not in MODES]:
        parser.error(f"unknown mode {unknown[0]!r}: choose from {', '.join(MODES)}")
    try:
        path = locomo_path(args.path, default=LOCOMO_BESIDE_PROJECT)
    except hindsight_pg.InvalidInputError as exc:
        print(f"{exc}. Skipping.", file=sys.stderr)
        return
    conversations = load_locomo(path)
    if args.conversations:
        conversations = conversations[: args.conversations]
    methods = {**METHODS, **(EXTRA if args.extra else {})}
    if args.reranker != "none":
        provider = {
            "kind": "local",
            "model": args.reranker if args.reranker == READER else str(Path(args.reranker).resolve()),
        }
        for count in args.reranker_candidates:
            methods[f"full, reranked ({count})"] = {
                "bank_config": {"reranker_provider": provider, "reranker_candidates": {"mid": count}}
            }
    if args.methods:
        wanted = [m.strip() for m in args.methods.split(";")]
        if unknown := [m for m in wanted if m not in methods]:
            parser.error(f"unknown method {unknown[0]!r}: choose from {'; '.join(methods)}")
        methods = {m: methods[m] for m in wanted}

    client = hindsight_pg.connect(args.dsn, embedder=LocalEmbedder(args.embedding_model))
    print(header(client.conn))
    output: dict[str, Any] = {"header": header(client.conn), "data": str(path), "modes": {}}
    for mode in modes:
        print(f"\n== mode {mode} ({MODES[mode]} extractor)")
        output["modes"][mode] = run_mode(client, conversations, mode, methods)
    out = Path(args.output)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(output, indent=1))
    print(f"\nwritten to {out}; bench/report.py puts the figures in docs/")


def run_mode(
    client: hindsight_pg.Client, conversations: list[LocomoConversation], mode: str, methods: dict[str, Any]
) -> dict[str, Any]:
    """Every method over every question of ``conversations`` in ``mode``'s banks: the mode's figures."""
    questions: list[tuple[str, Question]] = []
    dropped_ids = 0
    last_time: dict[str, Any] = {}
    for conv in conversations:
        bank = ensure_bank(client, conv, mode)
        known = {item.metadata["dia_id"] for item in conv.items}  # type: ignore[index]
        last_time[bank] = conv.last_session_time
        for qa in conv.questions:
            if qa.get("category") not in CATEGORIES:
                continue
            evidence, dropped = normalise_evidence(qa.get("evidence", []), known)
            dropped_ids += dropped
            if evidence:
                questions.append((bank, Question(conv.sample_id, qa["question"], qa["category"], evidence)))
    analyze(client.conn)
    embeddings = client.embedder.embed([q.text for _, q in questions], kind="query")
    units = client.conn.execute(
        "SELECT count(*) FROM hindsight.memory_units WHERE bank_id = ANY(%s)", (list(last_time),)
    ).fetchone()[0]  # fmt: skip
    print(f"{len(questions)} questions of categories 1-4 from {len(conversations)} conversations"
          f" ({units} memory units); {dropped_ids} malformed or unknown evidence ids dropped")  # fmt: skip

    results: dict[str, dict[str, Any]] = {}
    for name, extra in methods.items():
        per_question = []
        # every method says which reader it runs: none unless it names one (the default reads with ours)
        config = {"reranker_provider": {"kind": "none"}, **extra.get("bank_config", {})}
        set_config(client, list(last_time), config)
        try:
            started = time.perf_counter()
            for (bank, question), embedding in zip(questions, embeddings, strict=True):
                rows = client.conn.execute(
                    "SELECT metadata->>'dia_id' FROM hindsight.recall(bank_id => %(b)s, query => %(q)s,"
                    " query_embedding => %(e)s, query_timestamp => %(t)s, budget => %(budget)s, arms => %(arms)s,"
                    " passthrough => %(passthrough)s)",
                    {"b": bank, "q": question.text, "e": embedding, "t": last_time[bank],
                     "budget": extra.get("budget", "mid"), "arms": extra.get("arms"),
                     "passthrough": extra.get("passthrough", "calibrated")},
                ).fetchall()  # fmt: skip
                per_question.append((question.category, metrics([r[0] for r in rows], question.evidence)))
            elapsed = time.perf_counter() - started
        finally:
            reset_config(client, list(last_time), list(config))
        by_category = {label: _mean([m for c, m in per_question if c == cat]) for cat, label in CATEGORIES.items()}
        results[name] = {
            "overall": _mean([m for _, m in per_question]),
            "by_category": by_category,
            "ms_per_question": 1000 * elapsed / len(questions),
        }
        o = results[name]["overall"]
        print(f"{name:<38} R@5 {o['R@5']:.3f}  R@10 {o['R@10']:.3f}  NDCG@10 {o['NDCG@10']:.3f}  "
              f"all@10 {o['all@10']:.3f}  ({results[name]['ms_per_question']:.1f} ms/question)")  # fmt: skip

    print("\nRecall@10 per category")
    print(f"{'method':<38}" + "".join(f"{label:>13}" for label in CATEGORIES.values()))
    for name, result in results.items():
        print(
            f"{name:<38}" + "".join(f"{result['by_category'][label]['R@10']:>13.3f}" for label in CATEGORIES.values())
        )
    return {"questions": len(questions), "memory_units": units, "dropped_ids": dropped_ids, "results": results}


def _mean(rows: list[dict[str, float]]) -> dict[str, float]:
    if not rows:
        return {k: float("nan") for k in ("R@5", "R@10", "NDCG@10", "all@10")}
    return {k: statistics.fmean(r[k] for r in rows) for k in rows[0]}


if __name__ == "__main__":
    main()
