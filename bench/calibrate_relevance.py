"""A relevance that means the same across recalls: the probability that a recalled memory answers the question,
calibrated on the development splits (Platt scaling: Platt, "Probabilistic Outputs for Support Vector Machines",
1999; a logistic regression of the label on one score).

Recall has two scores that do not depend on the other candidates of a recall: the reader's logit (the
cross-encoder's raw score, for the candidates it read) and the cosine similarity of the query and the memory (the
semantic arm's score, for the candidates that arm found; it depends on the bank's embedding model). So:

  read      relevance = sigmoid(a * logit + b)
  not read  relevance = sigmoid(c * cosine + d)       (the bank's embedding model, multilingual-e5-small)
  neither   relevance = the share of such candidates that answer (a constant)

Data: bench/candidates.py's files (recall's first 30 candidates by boosted rank of LongMemEval's training
questions and the agent-memory suite's dev split; QMSum's weak span labels are measured, not fitted; never
LoCoMo, never LongMemEval's held-out questions), the reader's logits on the first ``--read`` (what the mid budget
reads; bench/train_fusion.py computes and caches them). Figures, each by leave-one-group-out (a question's
group: a suite conversation, a LongMemEval question), on what the fold's model never saw: the expected calibration
error (10 bins), and at relevance >= 0.5 and >= 0.2 the share of the results kept that answer (precision) and the
share of answers kept (recall), per source.

Prints the coefficients to paste into hindsight._relevance (sql/functions/recall/_scoring.sql) and writes the figures to
docs/benchmarks.json (key relevance_calibration).

    .venv/bin/python bench/calibrate_relevance.py [--candidates build/candidates] [--read 10]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import numpy as np
from _common import header_line
from sklearn.linear_model import LogisticRegression
from train_fusion import load, reader_logits

ROOT = Path(__file__).resolve().parents[1]
FITTED = ("lme", "suite")
MEASURED = ("lme", "suite", "qmsum")


def rows(questions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One row per candidate: its group, source, label, logit (None when not read) and cosine (None when the
    semantic arm did not find it)."""
    return [{"group": f"{q['source']}:{q['group']}", "source": q["source"], "label": float(c["relevant"]),
             "logit": c["logit"], "cosine": c["semantic_score"]}
            for q in questions for c in q["candidates"]]  # fmt: skip


def platt(x: np.ndarray, y: np.ndarray) -> tuple[float, float]:
    """(slope, intercept) of sigmoid(slope * x + intercept) fitted to labels y (a barely regularised logistic fit)."""
    model = LogisticRegression(C=1e4).fit(x.reshape(-1, 1), y)
    return float(model.coef_[0, 0]), float(model.intercept_[0])


def fit(train: list[dict[str, Any]]) -> dict[str, float]:
    read = [r for r in train if r["logit"] is not None]
    unread = [r for r in train if r["logit"] is None and r["cosine"] is not None]
    a, b = platt(np.array([r["logit"] for r in read]), np.array([r["label"] for r in read]))
    c, d = platt(np.array([r["cosine"] for r in unread]), np.array([r["label"] for r in unread]))
    rest = [r["label"] for r in train if r["logit"] is None and r["cosine"] is None]
    return {"a": a, "b": b, "c": c, "d": d, "prior": float(np.mean(rest)) if rest else 0.0}


def relevance(model: dict[str, float], row: dict[str, Any]) -> float:
    """What hindsight._relevance gives for the row."""
    if row["logit"] is not None:
        return float(1 / (1 + np.exp(-(model["a"] * row["logit"] + model["b"]))))
    if row["cosine"] is not None:
        return float(1 / (1 + np.exp(-(model["c"] * row["cosine"] + model["d"]))))
    return model["prior"]


def figures(scored: list[tuple[float, float]]) -> dict[str, float]:
    """ECE over 10 bins, and precision / recall of the results at relevance >= 0.5 and >= 0.2."""
    p = np.array([s for s, _ in scored])
    y = np.array([label for _, label in scored])
    bins = np.minimum((p * 10).astype(int), 9)
    ece = sum(abs(p[bins == k].mean() - y[bins == k].mean()) * (bins == k).sum()
              for k in range(10) if (bins == k).any())  # fmt: skip
    out = {"candidates": len(p), "answers": int(y.sum()), "ECE": float(ece / len(p))}
    for cut in (0.5, 0.2):
        kept = p >= cut
        out[f"precision@{cut}"] = float(y[kept].mean()) if kept.any() else 0.0
        out[f"recall@{cut}"] = float(y[kept].sum() / max(1, y.sum()))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--candidates", default=str(ROOT / "build" / "candidates"))
    parser.add_argument("--reader", default="hindsight-reader")
    parser.add_argument("--read", type=int, default=10, help="candidates the reader reads (the mid budget's)")
    parser.add_argument("--no-write", action="store_true", help="do not write docs/benchmarks.json")
    args = parser.parse_args()
    folder = Path(args.candidates)
    print(header_line())
    data: dict[str, list[dict[str, Any]]] = {}
    for source in MEASURED:
        questions = load(folder, source)
        if not questions:
            sys.exit(f"no {folder / source}.jsonl: run bench/candidates.py first")
        reader_logits(questions, folder, source, args.reader, args.read)
        data[source] = rows(questions)
    train = [r for s in FITTED for r in data[s]]
    groups = sorted({r["group"] for r in train})
    held: dict[str, list[tuple[float, float]]] = {s: [] for s in MEASURED}
    for k in range(5):  # five folds of whole groups
        out = set(groups[k::5])
        model = fit([r for r in train if r["group"] not in out])
        for s in FITTED:
            held[s] += [(relevance(model, r), r["label"]) for r in data[s] if r["group"] in out]
    final = fit(train)
    held["qmsum"] = [(relevance(final, r), r["label"]) for r in data["qmsum"]]
    report = {s: figures(held[s]) for s in MEASURED}
    rounded = {k: round(v, 4) for k, v in final.items()}
    print(f"coefficients (every {', '.join(FITTED)} candidate): {json.dumps(rounded)}")
    for s, f in report.items():
        how = "held out by fold" if s in FITTED else "weak span labels, not fitted"
        shown = ", ".join(f"{k} {v:.3f}" if isinstance(v, float) else f"{k} {v}" for k, v in f.items())
        print(f"{s:6} ({how}): {shown}")
    if not args.no_write:
        path = ROOT / "docs" / "benchmarks.json"
        doc = json.loads(path.read_text()) if path.exists() else {}
        doc["relevance_calibration"] = {"method": "Platt scaling, 5 folds of whole groups", "read": args.read,
                                        "coefficients": final, "figures": report, "header": header_line()}  # fmt: skip
        path.write_text(json.dumps(doc, indent=1) + "\n")


if __name__ == "__main__":
    main()
