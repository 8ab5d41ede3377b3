"""A fusion that is learned: a linear ranker over what recall has per candidate (bench/candidates.py's figures and
the reader's logit), against the weighted RRF of the reader's rank and the boosted rank that recall_finish uses.

Data: bench/candidates.py's files (LongMemEval's training questions, QMSum's training meetings, the agent-memory
suite's dev split; never LoCoMo). The reader (``--reader``, the packaged one by default) scores each question's
first ``--read`` candidates by boosted rank, as recall's stage reads them; its logits are kept beside the
candidates (``<source>.reader-<name>.json``) and reused.

Model: score = w · features, trained listwise (a softmax over a question's candidates against its relevant ones,
ListNet's top-one form: Cao et al., "Learning to Rank: From Pairwise Approach to Listwise Approach", ICML 2007)
with an L2 penalty, by L-BFGS. Validation: leave one group out (a suite conversation; LongMemEval's questions
and QMSum's meetings in 5 folds each), every figure measured on the questions the fold's model never saw.

Figures (per source, by message/turn: a document's several units count once, where it first ranks): top-1,
top-3, MRR, R@5, R@10, NDCG@10 for the boosted passthrough alone, the reader alone over the first ``--read``, the
weighted RRF (weight 0.7, k 60) and the learned ranker.

    .venv/bin/python bench/train_fusion.py [--candidates build/candidates] [--reader hindsight-reader] [--read 10]
                                           [--write FILE]
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
from pathlib import Path
from typing import Any

import numpy as np
from _common import header_line

ROOT = Path(__file__).resolve().parents[1]
SOURCES = ("lme", "qmsum", "suite")
RRF_K = 60.0
READER_WEIGHT = 0.7
# what the ranker reads of a candidate (every one computable in recall_finish)
FEATURES = [
    "passthrough", "boosted", "boosted_rr", "fused_rr", "semantic", "semantic_found", "keyword", "keyword_found",
    "graph", "graph_found", "temporal", "temporal_proximity", "recency", "proof", "read", "reader", "reader_rr",
    "log_tokens", "log_age",
]  # fmt: skip


def load(folder: Path, source: str) -> list[dict[str, Any]]:
    path = folder / f"{source}.jsonl"
    return [json.loads(line) for line in path.open(encoding="utf-8")] if path.exists() else []


def reader_logits(questions: list[dict[str, Any]], folder: Path, source: str, reader: str, read: int) -> None:
    """Sets ``logit`` on each question's first ``read`` candidates by boosted rank (None on the others), cached."""
    from hindsight_pl.providers import LocalReranker

    cache_path = folder / f"{source}.reader-{Path(reader).name}.json"
    cache: dict[str, list[float]] = json.loads(cache_path.read_text()) if cache_path.exists() else {}
    model = None
    for n, q in enumerate(questions):
        key = q["question_id"]
        texts = [c["text"] for c in q["candidates"] if c["boosted_rank"] <= read]
        if key not in cache or len(cache[key]) < len(texts):
            model = model or LocalReranker(reader, threads=1)
            cache[key] = [float(x) for x in model.rerank(q["question"], texts)]
            if n % 20 == 0:
                print(f"  reader: {n}/{len(questions)} questions of {source}", file=sys.stderr)
        for c in q["candidates"]:
            c["logit"] = cache[key][c["boosted_rank"] - 1] if c["boosted_rank"] <= read else None
    cache_path.write_text(json.dumps(cache))


def features(q: dict[str, Any]) -> np.ndarray:
    """The FEATURES of each candidate of question ``q`` (rows in candidate order)."""
    cs = q["candidates"]
    best_boosted = max(c["boosted"] for c in cs) or 1.0
    best_keyword = max((c["keyword_score"] or 0.0) for c in cs) or 1.0
    read = [c for c in cs if c["logit"] is not None]
    reader_rank = {c["unit_id"]: r for r, c in enumerate(sorted(read, key=lambda c: -c["logit"]), start=1)}
    rows = []
    for c in cs:
        logit = c["logit"]
        rows.append([
            c["passthrough_score"],
            c["boosted"] / best_boosted,
            (RRF_K + 1) / (RRF_K + c["boosted_rank"]),
            (RRF_K + 1) / (RRF_K + c["candidate_rank"]),
            c["semantic_score"] or 0.0,
            float(c["semantic_rank"] is not None),
            (c["keyword_score"] or 0.0) / best_keyword,
            float(c["keyword_rank"] is not None),
            c["graph_score"] or 0.0,
            float(c["graph_rank"] is not None),
            c["temporal_score"] or 0.0,
            c["temporal_proximity"] or 0.0,
            c["recency"],
            c["proof"],
            float(logit is not None),
            0.0 if logit is None else 1 / (1 + math.exp(-max(-50.0, min(50.0, logit)))),
            0.0 if logit is None else (RRF_K + 1) / (RRF_K + reader_rank[c["unit_id"]]),
            math.log(max(1, c["token_count"])),
            math.log1p(max(0.0, c["age_days"] or 0.0)),
        ])  # fmt: skip
    return np.asarray(rows, dtype=np.float64)


def rrf_scores(q: dict[str, Any]) -> np.ndarray:
    """recall_finish's weighted RRF of the reader's rank (over what it read) and the boosted rank."""
    read = [c for c in q["candidates"] if c["logit"] is not None]
    reader_rank = {c["unit_id"]: r for r, c in enumerate(sorted(read, key=lambda c: -c["logit"]), start=1)}
    return np.asarray([
        (RRF_K + 1) * ((READER_WEIGHT / (RRF_K + reader_rank[c["unit_id"]]) if c["unit_id"] in reader_rank else 0.0)
                       + (1 - READER_WEIGHT) / (RRF_K + c["boosted_rank"]))
        for c in q["candidates"]
    ])  # fmt: skip


def figures(q: dict[str, Any], scores: np.ndarray) -> dict[str, float]:
    """top-1, top-3, MRR, R@5, R@10, NDCG@10 of the candidates ordered by ``scores`` (ties by boosted rank),
    by document: a document ranks where its first unit does."""
    order = sorted(range(len(q["candidates"])), key=lambda i: (-scores[i], q["candidates"][i]["boosted_rank"]))
    docs: list[str] = []
    relevant: set[str] = set()
    for i in order:
        c = q["candidates"][i]
        if c["document_id"] not in docs:
            docs.append(c["document_id"])
        if c["relevant"]:
            relevant.add(c["document_id"])
    first = next((r for r, d in enumerate(docs) if d in relevant), None)
    dcg = sum(1 / math.log2(r + 2) for r, d in enumerate(docs[:10]) if d in relevant)
    idcg = sum(1 / math.log2(r + 2) for r in range(min(10, len(relevant))))
    return {"top1": float(first == 0), "top3": float(first is not None and first < 3),
            "MRR": 0.0 if first is None else 1 / (first + 1),
            "R@5": len(relevant & set(docs[:5])) / len(relevant),
            "R@10": len(relevant & set(docs[:10])) / len(relevant),
            "NDCG@10": dcg / idcg}  # fmt: skip


def fit(data: list[tuple[np.ndarray, np.ndarray]], l2: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(weights, mean, scale) of the listwise linear ranker over standardised features."""
    import torch

    stacked = np.concatenate([x for x, _ in data])
    mean, scale = stacked.mean(0), stacked.std(0) + 1e-6
    xs = [torch.tensor((x - mean) / scale) for x, _ in data]
    ys = [torch.tensor(y / y.sum()) for _, y in data]
    w = torch.zeros(stacked.shape[1], dtype=torch.float64, requires_grad=True)
    optimizer = torch.optim.LBFGS([w], max_iter=200, line_search_fn="strong_wolfe")

    def closure() -> Any:
        optimizer.zero_grad()
        loss = sum(-(y * torch.log_softmax(x @ w, 0)).sum() for x, y in zip(xs, ys, strict=True)) / len(xs)
        loss = loss + l2 * (w * w).sum()
        loss.backward()
        return loss

    optimizer.step(closure)
    return w.detach().numpy(), mean, scale


def folds(questions: list[dict[str, Any]]) -> list[set[str]]:
    """Groups held out together: a suite conversation each; LongMemEval's questions and QMSum's meetings in 5
    folds each."""
    suite = sorted({q["group"] for q in questions if q["source"] == "suite"})
    held = [{g} for g in suite]
    for source in ("lme", "qmsum"):
        groups = sorted({q["group"] for q in questions if q["source"] == source})
        held += [set(groups[i::5]) for i in range(5) if groups[i::5]]
    return held


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--candidates", default=str(ROOT / "build" / "candidates"))
    parser.add_argument("--reader", default="hindsight-reader")
    parser.add_argument("--read", type=int, default=10, help="candidates the reader reads (the mid budget's)")
    parser.add_argument("--l2", type=float, default=1e-3)
    parser.add_argument("--write", default=None, help="write the model trained on every question to this file")
    args = parser.parse_args()
    folder = Path(args.candidates)
    print(header_line())
    questions = []
    for source in SOURCES:
        found = [q for q in load(folder, source) if any(c["relevant"] for c in q["candidates"])]
        reader_logits(found, folder, source, args.reader, args.read)
        questions += found
        print(f"{source}: {len(found)} questions with an answer among their candidates")
    data = {q["question_id"]: (features(q), np.asarray([float(c["relevant"]) for c in q["candidates"]]))
            for q in questions}  # fmt: skip
    learned: dict[str, np.ndarray] = {}
    for held in folds(questions):
        train = [data[q["question_id"]] for q in questions if q["group"] not in held]
        w, mean, scale = fit(train, args.l2)
        for q in questions:
            if q["group"] in held:
                learned[q["question_id"]] = ((data[q["question_id"]][0] - mean) / scale) @ w
    methods = {
        "passthrough (boosted)": lambda q: -np.asarray([c["boosted_rank"] for c in q["candidates"]], dtype=float),
        "reader alone": lambda q: np.asarray([c["logit"] if c["logit"] is not None else -1e9 - c["boosted_rank"]
                                              for c in q["candidates"]]),
        f"RRF (weight {READER_WEIGHT})": rrf_scores,
        "learned": lambda q: learned[q["question_id"]],
    }  # fmt: skip
    for source in SOURCES:
        chosen = [q for q in questions if q["source"] == source]
        if not chosen:
            continue
        print(f"\n{source} ({len(chosen)} questions, held-out folds)")
        print(f"  {'method':24} " + " ".join(f"{k:>7}" for k in ("top1", "top3", "MRR", "R@5", "R@10", "NDCG@10")))
        for name, scorer in methods.items():
            rows = [figures(q, scorer(q)) for q in chosen]
            print(f"  {name:24} " + " ".join(f"{statistics.fmean(r[k] for r in rows):7.3f}"
                                             for k in rows[0]))  # fmt: skip
    w, mean, scale = fit(list(data.values()), args.l2)
    print("\nweights on every question (standardised features):")
    for name, value in sorted(zip(FEATURES, w, strict=True), key=lambda p: -abs(p[1])):
        print(f"  {name:20} {value:+.3f}")
    if args.write:
        Path(args.write).write_text(json.dumps({
            "features": FEATURES, "weights": list(w / scale), "bias": float(-(mean / scale) @ w),
            "read": args.read, "reader": args.reader, "l2": args.l2, "questions": len(questions),
        }, indent=1) + "\n")  # fmt: skip


if __name__ == "__main__":
    main()
