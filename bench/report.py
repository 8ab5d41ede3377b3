"""Put the latest benchmark figures in docs/: benchmarks.json, benchmarks.png and the tables of benchmarks.md.

Two steps. :func:`collect` reads what every benchmark wrote to bench/results/<script>.json (and
agent_memory_test.json, locomo_minilm.json: the suite's test split, LoCoMo on MiniLM banks) into
docs/benchmarks.json, each file whole under its name (its ``header`` says where it was measured; a file not there
leaves its part as it was; latency_1m.json's banks join latency's). :func:`render` makes every table of the docs from
docs/benchmarks.json alone, and :func:`fill_tables` puts each between "<!-- generated: NAME -->" and
"<!-- end generated -->" in docs/benchmarks.md (docs/temporal.md for the query analysis); the analysis around them
is written by hand. tests/unit/test_benchmarks_page.py holds every generated block to the JSON.

    .venv/bin/python bench/report.py
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

BENCH = Path("bench")
RESULTS = BENCH / "results"
DOCS = Path("docs")
SUMMARY = DOCS / "benchmarks.json"
# results files named otherwise than their script: each a key of docs/benchmarks.json too
OTHER_RESULTS = ("agent_memory_test", "locomo_minilm", "many_banks_million")
CATEGORIES = ["multi-hop", "temporal", "open-domain", "single-hop"]
MAIN_METHODS = ["full", "semantic", "keyword", "graph", "temporal", "semantic+keyword"]
LATENCY_ROWS = [
    "bare kNN LIMIT 10",
    "bare kNN LIMIT 300, ef_search 300",
    "exact kNN of the bank, LIMIT 300",
    "HNSW kNN of the bank, iterative, LIMIT 300",
    "keyword arm alone, native (ts_rank_cd, 300)",
    "keyword arm alone, bm25 (300)",
    "recall low (bm25, default)",
    "recall mid (bm25, default)",
    "recall high (bm25, default)",
    "recall low (native)",
    "recall mid (native)",
    "recall high (native)",
]


def main() -> None:
    summary = json.loads(SUMMARY.read_text()) if SUMMARY.exists() else {}
    collect(summary)
    SUMMARY.write_text(json.dumps(summary, indent=1) + "\n")
    print(f"written {SUMMARY}")
    for page, tables in render(summary).items():
        fill_tables(DOCS / page, tables)
    if "locomo" in summary and "latency" in summary:
        chart(summary["locomo"], summary["latency"], DOCS / "benchmarks.png")


def collect(summary: dict[str, Any]) -> None:
    """Every benchmark's results file that exists (bench/results/<script>.json, and :data:`OTHER_RESULTS`), whole,
    into ``summary`` under its name."""
    names = sorted({p.stem for p in BENCH.glob("*.py") if not p.stem.startswith("_")} - {"report"})
    for name in [*names, *OTHER_RESULTS]:
        path = RESULTS / f"{name}.json"
        if not path.exists():
            continue
        found = json.loads(path.read_text())
        if name == "latency":
            # a bank of a million units lives in a database of its own (latency.py --defer-index --output
            # bench/results/latency_1m.json): its columns join the table when that file exists
            million = RESULTS / "latency_1m.json"
            if million.exists():
                found.update(
                    {k: v for k, v in json.loads(million.read_text()).items() if k.startswith("bench-latency-")}
                )
        summary[name] = found


def render(summary: dict[str, Any]) -> dict[str, dict[str, str]]:
    """Every generated table of the docs from ``summary`` (docs/benchmarks.json) alone: {page: {block name:
    markdown}}. A table whose figures the summary lacks is not made."""
    tables: dict[str, str] = {}
    if "locomo" in summary:
        for mode, run in summary["locomo"]["modes"].items():
            tables[f"locomo {mode}"] = locomo_table(run)
        if "locomo_minilm" in summary:  # the same methods on banks of MiniLM (bench/locomo.py --embedding-model)
            tables["locomo models"] = locomo_models_table(summary["locomo"], summary["locomo_minilm"])
    makers = {"embeddings": ("embeddings", embeddings_table), "latency": ("latency", latency_table),
              "providers": ("providers", providers_table), "consolidate": ("consolidate", consolidate_table),
              "ablations": ("ablations", ablations_table), "agent_memory_test": ("agent memory", agent_memory_table),
              "update_pairs": ("update pairs", update_pairs_table), "keyword": ("keyword", keyword_table),
              "many_banks_million": ("many banks million", many_banks_million_table)}  # fmt: skip
    for key, (block, make) in makers.items():
        if key in summary:
            tables[block] = make(summary[key])
    pages = {"benchmarks.md": tables}
    if "temporal" in summary:
        pages["temporal.md"] = {"temporal pass": temporal_pass_table(summary["temporal"]),
                                "temporal speed": temporal_speed_table(summary["temporal"])}  # fmt: skip
    return pages


def machine(header: str) -> str:
    """Where a benchmark ran, as its header says, without the commit (docs/benchmarks.json keeps it)."""
    return re.sub(r"^commit [0-9a-f]+, ", "", header)


def locomo_table(run: dict[str, Any]) -> str:
    """Markdown: overall figures per method, then Recall@10 per category."""
    lines = [
        f"{run['questions']} questions, {run['memory_units']} memory units, "
        f"{run['dropped_ids']} malformed or unknown evidence ids dropped.",
        "",
        "| method | R@5 | R@10 | NDCG@10 | all evidence in top 10 | ms / question |",
        "|---|---|---|---|---|---|",
    ]
    for name, result in run["results"].items():
        o = result["overall"]
        cells = [f"{o[k]:.3f}" for k in ("R@5", "R@10", "NDCG@10", "all@10")] + [f"{result['ms_per_question']:.1f}"]
        label = f"**{name}**" if name == "full" else name
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    lines += ["", "Recall@10 per category:", "", "| method | " + " | ".join(CATEGORIES) + " |"]
    lines.append("|---|" + "---|" * len(CATEGORIES))
    for name, result in run["results"].items():
        lines.append(f"| {name} | " + " | ".join(f"{result['by_category'][c]['R@10']:.3f}" for c in CATEGORIES) + " |")
    return "\n".join(lines)


def ablations_table(run: dict[str, Any]) -> str:
    """Markdown: per method, each benchmark's figures (bench/ablations.py)."""
    columns = [("LoCoMo dev (turn)", ["R@5", "R@10", "NDCG@10"]), ("LongMemEval held-out", ["R@5", "NDCG@10"]),
               ("agent-memory dev", ["top1", "current_first"]),
               ("agent-memory test", ["top1", "top3", "MRR", "current_first"])]  # fmt: skip
    columns = [(b, keys) for b, keys in columns if b in run["benchmarks"]]
    head = [f"{b.split(' (')[0].replace('agent-memory', 'suite')} {k.replace('current_first', 'current first')}"
            for b, keys in columns for k in keys]  # fmt: skip
    lines = ["| method | " + " | ".join(head) + " |", "|---|" + "---|" * len(head)]
    full = run["results"]["full"]
    for name, result in run["results"].items():
        cells = []
        for b, keys in columns:
            for k in keys:
                value, base = result[b][k], full[b][k]
                mark = "" if name == "full" or value is None or abs(value - base) < 0.0005 else (
                    " ▲" if value > base else " ▼")  # fmt: skip
                cells.append("–" if value is None else f"{value:.3f}{mark}")
        lines.append(f"| {'**full**' if name == 'full' else name} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def agent_memory_table(run: dict[str, Any]) -> str:
    """Markdown: the suite's figures per question kind for the full pipeline and without the reader."""
    kinds = ["current", "past", "when", "recent", "who", "multi_hop", "preference", "fact"]
    lines = [f"{run['questions']} questions of {len(run['conversations'])} conversations ({run['split']} split).", "",
             "| method | top-1 | top-3 | MRR | R@10 | current first | "
             + " | ".join(f"top-1 {k}" for k in kinds) + " |",
             "|---|" + "---|" * (5 + len(kinds))]  # fmt: skip
    for name, result in run["results"].items():
        o = result["overall"]
        cells = [f"{o[k]:.3f}" for k in ("top1", "top3", "MRR", "R@10")]
        cells.append(f"{o['current_first']:.3f} ({o['current_first_n']})")
        cells += [f"{result['by_kind'][k]['top1']:.3f}" for k in kinds]
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def update_pairs_table(run: dict[str, Any]) -> str:
    """Markdown: the labelled pair set, and the rule's and the judge's precision and recall on it."""
    p = run["pairs"]
    lines = [f"Pairs (revisions): written for training {p['train']['pairs']} ({p['train']['revisions']}), dev "
             f"{p['dev']['pairs']} ({p['dev']['revisions']}), test {p['test']['pairs']} ({p['test']['revisions']}).",
             "", "| decision | split | threshold | linked | precision | recall |",
             "|---|---|---|---|---|---|"]  # fmt: skip
    for split, m in run["rule"].items():
        lines.append(f"| the rule alone | {split} | – | {m['linked']} | {m['precision']:.3f} | {m['recall']:.3f} |")
    judge = run["judge"]
    for split in ("dev (out of fold)", "test"):
        for what in ("link", "move"):
            m = judge[split][what]
            lines.append(f"| rule, then judge ({what} threshold chosen on dev) | {split} | {m['threshold']:.3f} | "
                         f"{m['linked']} | {m['precision']:.3f} | {m['recall']:.3f} |")  # fmt: skip
    for m in judge["test, each threshold"]:
        lines.append(f"| rule, then judge | test | {m['threshold']:.1f} | {m['linked']} | {m['precision']:.3f} | "
                     f"{m['recall']:.3f} |")  # fmt: skip
    return "\n".join(lines)


def locomo_models_table(e5: dict[str, Any], minilm: dict[str, Any]) -> str:
    """Markdown: Recall@10 / NDCG@10 of the methods both runs have, per mode, E5 against MiniLM."""
    lines = ["| mode | method | multilingual-e5-small R@10 | NDCG@10 | all-MiniLM-L6-v2 R@10 | NDCG@10 |",
             "|---|---|---|---|---|---|"]  # fmt: skip
    for mode, run in e5["modes"].items():
        other = minilm["modes"].get(mode, {}).get("results", {})
        for name, result in run["results"].items():
            if name not in other:
                continue
            a, b = result["overall"], other[name]["overall"]
            lines.append(f"| {mode} | {name} | {a['R@10']:.3f} | {a['NDCG@10']:.3f} | {b['R@10']:.3f} | "
                         f"{b['NDCG@10']:.3f} |")  # fmt: skip
    return "\n".join(lines)


def embeddings_table(run: dict[str, Any]) -> str:
    """Markdown: speed and memory of each model, then its retrieval on the Chinese set."""
    lines = ["| model | load (s) | s per 1,000 passages | ms per query | peak RSS (MB) |", "|---|---|---|---|---|"]
    for model, figures in run["results"].items():
        sp = figures["speed"]
        lines.append(f"| {model} | {sp['load_s']:.1f} | {sp['seconds_per_1000_passages']:.1f} | "
                     f"{sp['ms_per_query']:.1f} | {sp['peak_rss_mb']:.0f} |")  # fmt: skip
    kinds = sorted(next(iter(run["results"].values()))["methods"]["full"]["by_kind"])
    lines += ["", "Chinese set (60 questions over 95 memories):", "",
              "| model | method | R@1 | R@5 | R@10 | " + " | ".join(f"R@10 {k}" for k in kinds) + " |",
              "|---|---|---|---|---|" + "---|" * len(kinds)]  # fmt: skip
    for model, figures in run["results"].items():
        for method, m in figures["methods"].items():
            o = m["overall"]
            lines.append(f"| {model} | {method} | {o['R@1']:.3f} | {o['R@5']:.3f} | {o['R@10']:.3f} | "
                         + " | ".join(f"{m['by_kind'][k]:.3f}" for k in kinds) + " |")  # fmt: skip
    return "\n".join(lines)


def latency_table(latency: dict[str, Any]) -> str:
    """Markdown: median and p95 per measurement and bank, the ratio to bare kNN, and the phases."""
    banks = [k for k in latency if k.startswith("bench-latency-")]
    sizes = [f"{int(b.rsplit('-', 1)[1]):,}" for b in banks]
    lines = [
        f"Measured on {machine(latency['header'])}.",
        "",
        "| ms | " + " | ".join(f"{s} median | p95" for s in sizes) + " |",
        "|---|" + "---|---|" * len(banks),
    ]
    for row in LATENCY_ROWS:
        if all(row in latency[b]["ms"] for b in banks):
            cells = [f"{latency[b]['ms'][row]['median']:.2f} | {latency[b]['ms'][row]['p95']:.2f}" for b in banks]
            lines.append(f"| {row} | " + " | ".join(cells) + " |")
    lines.append(
        "| recall mid (default) / bare kNN LIMIT 300 | "
        + " | ".join(f"{latency[b]['ratio_mid_to_knn300']:.1f}× | " for b in banks)
        + " |"
    )
    if all("knn300_rows_returned_median" in latency[b] for b in banks):
        lines.append(
            "| rows the bare kNN LIMIT 300 returns (median) | "
            + " | ".join(f"{latency[b]['knn300_rows_returned_median']:.0f} | " for b in banks)
            + " |"
        )
        lines.append(
            "| recall mid (default) / the bank's full kNN 300 (the faster of the two) | "
            + " | ".join(f"{latency[b]['ratio_mid_to_full_knn300']:.1f}× | " for b in banks)
            + " |"
        )
    lines += ["", "Phases of a mid recall (trace, medians, ms, default backend):", ""]
    lines += ["| phase | " + " | ".join(sizes) + " |", "|---|" + "---|" * len(banks)]
    for phase in latency[banks[0]]["phases_median_ms"]:
        lines.append(f"| {phase} | " + " | ".join(f"{latency[b]['phases_median_ms'][phase]:.1f}" for b in banks) + " |")
    first = latency[banks[0]].get("throughput")
    if first:
        lines += ["", f"Throughput, {first['sessions']} concurrent sessions for {first['seconds']:.0f} s each "
                  "(calls per second, p95 ms):", ""]  # fmt: skip
        lines += ["| | " + " | ".join(f"{s} calls/s | p95" for s in sizes) + " |", "|---|" + "---|---|" * len(banks)]
        for flow in ("recall mid", "bare kNN LIMIT 300, ef_search 300"):
            cells = [f"{latency[b]['throughput'][flow]['per_s']:.1f} | {latency[b]['throughput'][flow]['p95']:.2f}"
                     for b in banks]  # fmt: skip
            lines.append(f"| {flow} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def keyword_table(run: dict[str, Any]) -> str:
    """Markdown: bench/keyword.py's ms (median, p95) per form (rows) and bank size (columns), postings read last."""
    banks = [k for k in run if k != "header"]
    lines = [f"Measured on {machine(run['header'])}.", "",
             "| ms | " + " | ".join(f"{run[b]['units']:,} median | p95" for b in banks) + " |",
             "|---|" + "---|---|" * len(banks)]  # fmt: skip
    for form in run[banks[0]]["ms"]:
        cells = [f"{run[b]['ms'][form]['median']:.2f} | {run[b]['ms'][form]['p95']:.2f}" for b in banks]
        lines.append(f"| {form} | " + " | ".join(cells) + " |")
    cells = [f"{run[b]['bm25_postings_read']['median']:,.0f} | {run[b]['bm25_postings_read']['p95']:,.0f}"
             for b in banks]  # fmt: skip
    lines.append("| postings the bm25 arm reads | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def many_banks_million_table(run: dict[str, Any]) -> str:
    """Markdown: bench/many_banks.py --million: recall among the million and alone, then retain."""
    lines = [f"Measured on {machine(run['header'])}; {run['units']:,} units in {run['banks']:,} banks.", "",
             "| recall (3 x 200 queries, turn by turn) | among the million: p50 | p95 | alone: p50 | p95 | p50 ratio |"
             " semantic path (among / alone) |", "|---|---|---|---|---|---|---|"]  # fmt: skip
    for key, figure in run.items():
        if key.startswith("recall_"):
            size = int(key.split("_")[1])
            among, alone = figure["among_million"], figure["alone"]
            lines.append(f"| the {size:,}-unit bank | {among['p50_ms']:.1f} ms | {among['p95_ms']:.1f} ms |"
                         f" {alone['p50_ms']:.1f} ms | {alone['p95_ms']:.1f} ms | **{figure['ratio_p50']:.2f}x** |"
                         f" {figure['semantic_path']['among']} / {figure['semantic_path']['alone']} |")  # fmt: skip
    lines += ["", "| retain, 4 sessions, one unit a call, into a new bank | retains/s | p50 | p95 | max | errors |",
              "|---|---|---|---|---|---|"]  # fmt: skip
    for name, label in (("among_million", "among the million"), ("alone", "beside the 1,000-unit bank alone")):
        flow = run["retain_small_bank"][name]
        retain = flow["retain"]
        lines.append(f"| {label} | {retain['per_s']:.1f} | {retain['p50_ms']:.0f} ms | {retain['p95_ms']:.0f} ms |"
                     f" {retain['max_ms']:.0f} ms | {flow['errors']} |")  # fmt: skip
    return "\n".join(lines)


def temporal_pass_table(temporal: dict[str, Any]) -> str:
    """Markdown: cases passed / cases per class (rows) and language (columns)."""
    languages = list(temporal["pass"])
    classes = list(dict.fromkeys(c for lang in languages for c in temporal["pass"][lang]))
    lines = ["| class | " + " | ".join(languages) + " |", "|---|" + "---|" * len(languages)]
    for cls in classes:
        cells = [f"{temporal['pass'][lang][cls][0]}/{temporal['pass'][lang][cls][1]}" if cls in temporal["pass"][lang]
                 else "" for lang in languages]  # fmt: skip
        lines.append(f"| {cls} | " + " | ".join(cells) + " |")
    totals = [sum(v[0] for v in temporal["pass"][lang].values()) for lang in languages]
    counts = [sum(v[1] for v in temporal["pass"][lang].values()) for lang in languages]
    lines.append("| **all** | " + " | ".join(f"**{t}/{c}**" for t, c in zip(totals, counts, strict=True)) + " |")
    return "\n".join(lines)


def temporal_speed_table(temporal: dict[str, Any]) -> str:
    """Markdown: the one-off costs of a session, then median and p95 per class."""
    lines = ["| one-off, in a fresh session | ms |", "|---|---|"]
    lines += [f"| {name} | {value:.0f} |" for name, value in temporal["first_ms"].items()]
    lines += ["", "| class | median ms | p95 ms | calls |", "|---|---|---|---|"]
    for cls, figure in temporal["ms"].items():
        lines.append(f"| {cls} | {figure['median']:.2f} | {figure['p95']:.2f} | {figure['calls']} |")
    return "\n".join(lines)


def providers_table(models: dict[str, Any]) -> str:
    """Markdown: median and p95 per measurement of bench/providers.py."""
    lines = [f"Measured on {machine(models['header'])}.", "",
             f"On bank `{models['bank']}`; a database session that loaded MiniLM holds "
             f"{models['session_rss_mb']:.0f} MB resident.", "", "| ms | median | p95 | runs |",
             "|---|---|---|---|"]  # fmt: skip
    for name, figure in models["ms"].items():
        lines.append(f"| {name} | {figure['median']:.2f} | {figure['p95']:.2f} | {figure.get('runs', '')} |")
    return "\n".join(lines)


def consolidate_table(run: dict[str, Any]) -> str:
    """Markdown: the medians of bench/consolidate.py."""
    facts = run["facts"]
    return "\n".join([
        f"Bank `{run['bank']}`: {facts:,} facts, {run['observations']} observations; medians of {run['repeat']} runs.",
        "", "| measurement | ms |", "|---|---|",
        f"| consolidate every fact ({facts / run['consolidate_s']:.0f} facts/s) | {run['consolidate_s'] * 1000:.0f} |",
        f"| consolidate again, nothing new | {run['again_s'] * 1000:.1f} |",
        f"| consolidate the newest 10 % | {run['newest_tenth_s'] * 1000:.0f} |",
        f"| retain's semantic links for these facts (retain with them minus without) | "
        f"{run['semantic_links_s'] * 1000:.0f} |",
        f"| consolidate every fact plus those links | {(run['consolidate_s'] + run['semantic_links_s']) * 1000:.0f} |",
        f"| baseline: pairwise scan for candidate pairs ({run['pairwise_over_consolidate_with_links']:.1f}× "
        f"consolidate plus links) | {run['pairwise_scan_s'] * 1000:.0f} |",
    ])  # fmt: skip


def fill_tables(path: Path, tables: dict[str, str]) -> None:
    """Replace each generated block of ``path`` whose name is in ``tables``; report names with no block."""
    text = path.read_text()
    for name, table in tables.items():
        pattern = re.compile(rf"(<!-- generated: {re.escape(name)} -->\n).*?(<!-- end generated -->)", re.S)
        text, count = pattern.subn(lambda m, t=table: m.group(1) + t + "\n" + m.group(2), text)
        if not count:
            print(f"{path} has no block '<!-- generated: {name} -->': its table was not written")
    path.write_text(text)
    print(f"written the tables of {path}")


def chart(locomo: dict[str, Any], latency: dict[str, Any], out: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    modes = list(locomo["modes"])
    fig, axes = plt.subplots(1, len(modes) + 1, figsize=(6 * (len(modes) + 1), 5))
    groups = ["overall", *CATEGORIES]
    for ax, mode in zip(axes, modes, strict=False):
        results = locomo["modes"][mode]["results"]
        methods = [m for m in MAIN_METHODS if m in results]
        width = 0.8 / len(methods)
        for i, method in enumerate(methods):
            values = [
                results[method]["overall"]["R@10"] if g == "overall" else results[method]["by_category"][g]["R@10"]
                for g in groups
            ]
            ax.bar([x + i * width for x in range(len(groups))], values, width, label=method)
        ax.set_xticks([x + width * (len(methods) - 1) / 2 for x in range(len(groups))])
        ax.set_xticklabels(groups, fontsize=9)
        ax.set_ylim(0, 1)
        ax.set_ylabel("Recall@10")
        ax.set_title(f"LoCoMo dev, {mode} mode ({locomo['modes'][mode]['questions']} questions)")
        ax.legend(fontsize=8, ncol=2)
    right = axes[-1]
    banks = [k for k in latency if k.startswith("bench-latency-")]
    shown = {
        "bare kNN LIMIT 10": "kNN 10",
        "bare kNN LIMIT 300, ef_search 300": "kNN 300\n(ef 300)",
        "keyword arm alone, native (ts_rank_cd, 300)": "keyword\nts_rank_cd",
        "keyword arm alone, bm25 (300)": "keyword\nBM25",
        "recall low (bm25, default)": "recall low",
        "recall mid (bm25, default)": "recall mid",
        "recall high (bm25, default)": "recall high",
    }
    rows, labels = list(shown), list(shown.values())
    width = 0.8 / len(banks)
    for i, bank in enumerate(banks):
        values = [latency[bank]["ms"][r]["median"] for r in rows]
        right.bar(
            [x + i * width for x in range(len(rows))], values, width, label=f"{int(bank.rsplit('-', 1)[1]):,} units"
        )
    right.set_xticks([x + width * (len(banks) - 1) / 2 for x in range(len(rows))])
    right.set_xticklabels(labels, fontsize=8, rotation=30, ha="right")
    right.set_ylabel("median ms")
    right.set_title("Recall latency without a cross-encoder")
    right.legend()
    fig.suptitle(f"{machine(locomo['header'])}  |  latency: {machine(latency['header'])}", fontsize=8)
    fig.tight_layout()
    fig.savefig(out, dpi=100)
    print(f"written {out}")


if __name__ == "__main__":
    main()
