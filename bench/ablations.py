"""Every stage earns its place: the full pipeline and each ablation on LoCoMo, LongMemEval and the agent-memory suite,
in one run, on the same banks.

  * LoCoMo dev split, turn mode (one memory per turn, bench/locomo.py's banks): R@5, R@10, NDCG@10 over the 760
    questions of categories 1-4;
  * LongMemEval_S dev split, the 60 held-out questions of bench/longmemeval.py (user turns): R@5, R@10, NDCG@10;
  * the agent-memory suite (bench/agent_memory.py's banks), its test split (and dev with ``--suite-split all``):
    top-1, top-3, MRR, current-first.

Every method is the bank's default pipeline with the reader unless it says otherwise; a method changes the banks'
config for its run (or recall's arms) and restores it. The banks' update links are judged again first
(``hindsight.link_updates`` after dropping the old ones) when ``--relink`` is given, so that every bank carries the
links of the judge in the tree.

    .venv/bin/python bench/ablations.py [--methods "full;no reader"] [--suite-split test|dev|all] [--relink]
                                        [--skip locomo,longmemeval]

Figures go to bench/results/ablations.json; bench/report.py puts the table in docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import agent_memory
import locomo
import longmemeval
from _common import ABLATIONS, LOCOMO_BESIDE_PROJECT, analyze, header, reset_config, set_config
from rich.progress import Progress

import hindsight_pg
from hindsight_pg._inputs import load_locomo, locomo_path, normalise_evidence


def relink(client: hindsight_pg.Client, banks: list[str]) -> None:
    """Judge every bank's update links again: drop its supersedes links and superseded_at, then link_updates."""
    for bank in banks:
        client.conn.execute("DELETE FROM hindsight.memory_links WHERE bank_id = %s AND link_type = 'supersedes'",
                            (bank,))  # fmt: skip
        client.conn.execute("UPDATE hindsight.memory_units SET superseded_at = NULL WHERE bank_id = %s", (bank,))
        client.conn.execute("SELECT hindsight.link_updates(%s)", (bank,))


def recall_ids(client: hindsight_pg.Client, bank: str, query: str, embedding: Any, asked: Any, arms: Any,
               column: str) -> list[str]:  # fmt: skip
    """``column`` (an SQL expression over the result row) of every packed result of a mid recall, in rank order."""
    rows = client.conn.execute(
        f"SELECT {column} FROM hindsight.recall(bank_id => %s, query => %s, query_embedding => %s,"
        " query_timestamp => %s, arms => %s, max_tokens => 100000, max_results => NULL) ORDER BY rank",
        (bank, query, embedding, asked, arms),
    ).fetchall()
    return [r[0] for r in rows]


class Benchmark:
    """One benchmark's questions and banks: ``run(method)`` -> its figures."""

    name = ""
    banks: list[str]

    def run(self, client: hindsight_pg.Client, method: dict[str, Any]) -> dict[str, float]:
        raise NotImplementedError


class LoCoMo(Benchmark):
    name = "LoCoMo dev (turn)"

    def __init__(self, client: hindsight_pg.Client):
        conversations = load_locomo(locomo_path(None, default=LOCOMO_BESIDE_PROJECT))
        self.questions: list[tuple[str, Any, locomo.Question]] = []
        self.banks = []
        for conv in conversations:
            bank = locomo.ensure_bank(client, conv, "turn")
            self.banks.append(bank)
            known = {item.metadata["dia_id"] for item in conv.items}  # type: ignore[index]
            for qa in conv.questions:
                evidence, _ = normalise_evidence(qa.get("evidence", []), known)
                if qa.get("category") in locomo.CATEGORIES and evidence:
                    q = locomo.Question(conv.sample_id, qa["question"], qa["category"], evidence)
                    self.questions.append((bank, conv.last_session_time, q))
        self.embeddings = client.embedder.embed([q.text for _, _, q in self.questions], kind="query")

    def run(self, client: hindsight_pg.Client, method: dict[str, Any]) -> dict[str, float]:
        rows = []
        for (bank, asked, q), e in zip(self.questions, self.embeddings, strict=True):
            ranked = recall_ids(client, bank, q.text, e, asked, method.get("arms"), "metadata->>'dia_id'")
            rows.append(locomo.metrics(ranked, q.evidence))
        return {k: statistics.fmean(r[k] for r in rows) for k in ("R@5", "R@10", "NDCG@10")}


class LongMemEval(Benchmark):
    name = "LongMemEval held-out"

    def __init__(self, client: hindsight_pg.Client):
        questions = list(longmemeval.read(longmemeval.find_data()))
        kept_out = longmemeval.held_out([q["question_id"] for q in questions])
        self.questions = []
        self.banks = []
        for q in questions:
            if (
                q["question_id"] not in kept_out
                or q["question_id"].endswith("_abs")
                or q["question_type"] == longmemeval.SSA
            ):
                continue
            evidence = {t for t, _, turn, _ in longmemeval.turns(q, False) if turn.get("has_answer")}
            if not evidence:
                continue
            bank, _ = longmemeval.ensure_bank(client, q, False)
            self.banks.append(bank)
            embedding = client.embedder_for(bank).embed([q["question"]], kind="query")[0]
            self.questions.append((bank, q, evidence, embedding))
        # bench/longmemeval.py leaves its run's reader in the banks' config: the defaults here
        reset_config(client, self.banks, ["reranker_provider", "reranker_candidates"])

    def run(self, client: hindsight_pg.Client, method: dict[str, Any]) -> dict[str, float]:
        rows = []
        for bank, q, evidence, embedding in self.questions:
            ranked = recall_ids(client, bank, q["question"], embedding, longmemeval.when(q["question_date"]),
                                method.get("arms"), "metadata->>'turn'")  # fmt: skip
            rows.append(longmemeval.metrics(ranked, evidence, set(q["answer_session_ids"]), ""))
        return {k: statistics.fmean(r[k] for r in rows) for k in ("R@5", "R@10", "NDCG@10")}


class Suite(Benchmark):
    def __init__(self, client: hindsight_pg.Client, split: str):
        self.name = f"agent-memory {split}"
        self.conversations = agent_memory.load(split)
        self.banks = [agent_memory.ensure_bank(client, c) for c in self.conversations]

    def run(self, client: hindsight_pg.Client, method: dict[str, Any]) -> dict[str, float]:
        rows = [agent_memory.score(agent_memory.recall_ranked(client, c, q, method.get("arms")), q)
                for c in self.conversations for q in c.questions]  # fmt: skip
        out = agent_memory.summarise(rows)
        return {k: out[k] for k in ("top1", "top3", "MRR", "current_first")}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--methods", default="", help="method names separated by ';' (default: every one)")
    parser.add_argument("--suite-split", default="test", choices=["dev", "test", "all"])
    parser.add_argument("--skip", default="", help="benchmarks to leave out: locomo, longmemeval, suite")
    parser.add_argument("--relink", action="store_true", help="judge every bank's update links again first")
    parser.add_argument("--output", default="bench/results/ablations.json")
    parser.add_argument("--dsn", default=None)
    args = parser.parse_args()
    methods = ABLATIONS
    if args.methods:
        wanted = [m.strip() for m in args.methods.split(";") if m.strip()]
        if unknown := [m for m in wanted if m not in ABLATIONS]:
            parser.error(f"unknown method {unknown[0]!r}: choose from {'; '.join(ABLATIONS)}")
        methods = {m: ABLATIONS[m] for m in wanted}
    skip = {s.strip() for s in args.skip.split(",") if s.strip()}
    client = hindsight_pg.connect(args.dsn)
    print(header(client.conn))
    benchmarks: list[Benchmark] = []
    if "locomo" not in skip:
        benchmarks.append(LoCoMo(client))
    if "longmemeval" not in skip:
        benchmarks.append(LongMemEval(client))
    if "suite" not in skip:
        splits = ["dev", "test"] if args.suite_split == "all" else [args.suite_split]
        benchmarks += [Suite(client, s) for s in splits]
    if args.relink:
        started = time.perf_counter()
        for b in benchmarks:
            relink(client, b.banks)
        print(f"update links judged again in {time.perf_counter() - started:.0f} s", file=sys.stderr)
    analyze(client.conn)
    results: dict[str, dict[str, dict[str, float]]] = {}
    with Progress(transient=True) as progress:
        task = progress.add_task("methods", total=len(methods) * len(benchmarks))
        for name, method in methods.items():
            results[name] = {}
            for b in benchmarks:
                config = method.get("config", {})
                set_config(client, b.banks, config)
                try:
                    results[name][b.name] = b.run(client, method)
                finally:
                    reset_config(client, b.banks, list(config))
                progress.advance(task)
            cells = "  ".join(f"{b.name}: " + " ".join(f"{k} {v:.3f}" for k, v in results[name][b.name].items()
                                                         if v is not None) for b in benchmarks)  # fmt: skip
            print(f"{name:<34} {cells}", flush=True)
    out = Path(args.output)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(
        json.dumps(
            {
                "header": header(client.conn),
                "benchmarks": [b.name for b in benchmarks],
                "methods": {k: v for k, v in methods.items()},
                "results": results,
            },
            indent=1,
        )
    )
    print(f"\nwritten to {out}")


if __name__ == "__main__":
    main()
