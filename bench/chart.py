"""Draw docs/benchmarks.png from bench/results/locomo.json and bench/results/latency.json.

.venv/bin/python bench/chart.py
"""

from __future__ import annotations

import json
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt

RESULTS = Path("bench/results")


def main() -> None:
    locomo = json.loads((RESULTS / "locomo.json").read_text())
    latency = json.loads((RESULTS / "latency.json").read_text())
    fig, (left, right) = plt.subplots(1, 2, figsize=(13, 5.5))

    names = list(locomo["results"])
    recall10 = [locomo["results"][n]["metrics"]["overall"]["R@10"] for n in names]
    colours = ["#2b6cb0" if n.startswith("full pipeline") else "#a0aec0" for n in names]
    left.barh(names[::-1], recall10[::-1], color=colours[::-1])
    left.set_xlabel("Recall@10")
    left.set_title(f"LoCoMo dev split ({locomo['questions']} questions, turn-level)")
    for y, value in enumerate(recall10[::-1]):
        left.text(value + 0.005, y, f"{value:.3f}", va="center", fontsize=8)
    left.set_xlim(0, max(recall10) * 1.15)

    banks = [k for k in latency if k.startswith("bench-latency-")]
    rows = ["bare kNN LIMIT 10", "bare kNN LIMIT 300, ef_search 300", "keyword arm alone, native (ts_rank_cd, 300)",
            "keyword arm alone, bm25 (300)", "recall low (native)", "recall mid (native)", "recall mid (bm25)",
            "recall high (native)"]  # fmt: skip
    width = 0.8 / len(banks)
    for i, bank in enumerate(banks):
        values = [latency[bank]["ms"][r]["median"] for r in rows]
        right.bar([x + i * width for x in range(len(rows))], values, width, label=bank.split("-")[-1] + " units")
    right.set_xticks([x + width * (len(banks) - 1) / 2 for x in range(len(rows))])
    labels = [
        "kNN 10",
        "kNN 300\n(ef 300)",
        "keyword\nts_rank_cd",
        "keyword\nBM25",
        "recall low",
        "recall mid",
        "recall mid\n(BM25)",
        "recall high",
    ]
    right.set_xticklabels(labels, fontsize=8, rotation=30, ha="right")
    right.set_ylabel("median ms (200 queries)")
    right.set_title("Recall latency without a cross-encoder")
    right.legend()
    fig.suptitle(latency["header"], fontsize=8)
    fig.tight_layout()
    out = Path("docs/benchmarks.png")
    fig.savefig(out, dpi=110)
    print(f"written to {out}")


if __name__ == "__main__":
    main()
