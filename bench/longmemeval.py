"""Retrieval quality on LongMemEval_S (development split): the full pipeline and its baselines, in one run.

Protocol (the LongMemEval paper's retrieval evaluation, turn level): each question is its own bank holding its
haystack (~50 chat sessions); one memory per turn (the verbatim extractor: a turn longer than 3,000 characters
is several chunks, and counts once, where it first appears), said at its session's date; every question is
recalled as of its ``question_date``. Figures, per question type and overall:

  turn-level Recall@5, Recall@10 and NDCG@10 (binary relevance) over the ``has_answer`` turns;
  session-level Recall@5: whether any evidence session holds one of the top 5 turns (recall_any).

Abstention questions (ids ending in ``_abs``: no evidence) are counted and left out. Methods, on the same banks
and questions: the full pipeline, the semantic arm alone, the keyword arm alone, semantic+keyword (their RRF inside the
pipeline), and exact cosine (``ORDER BY embedding <=> query``, no pipeline).

Default protocol: the user's turns only, single-session-assistant questions skipped (their evidence is in the
assistant's turns); ``--all-turns`` indexes every turn and keeps them (about twice the retain time).

Held-out questions: the 60 questions whose SHA-256 of ``question_id`` is smallest are kept out of all training and
tuning (bench/longmemeval.py --split held-out is what docs/benchmarks.md reports; ``--split train`` are the other
191). The rule is :func:`held_out`; it never changes.

    .venv/bin/python bench/longmemeval.py [--split held-out|train|all] [--questions N] [--all-turns]
                                          [--reranker build/reranker --methods full] [--dsn DSN]

Data: ``$HINDSIGHT_LONGMEMEVAL``, else ``../shared/data/longmemeval/longmemeval_s_dev.jsonl`` beside the project
(read where it lies, never copied). Banks are named bench-lme-<question_id>[-all] and reused when they hold one
document per indexed turn. Figures go to bench/results/longmemeval.json.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import os
import statistics
import sys
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from _common import analyze, header
from rich.progress import Progress

import hindsight_pg
from hindsight_pg import MemoryItem
from hindsight_pl.providers import READER
from hindsight_pl.text import is_meaningful

HELD_OUT = 60
METHODS: dict[str, list[str] | None] = {
    "full": None,
    "semantic": ["semantic"],
    "keyword": ["keyword"],
    "semantic+keyword": ["semantic", "keyword"],
}
COSINE = "exact cosine"
SSA = "single-session-assistant"


def find_data() -> Path:
    if os.environ.get("HINDSIGHT_LONGMEMEVAL"):
        return Path(os.environ["HINDSIGHT_LONGMEMEVAL"])
    return Path(__file__).resolve().parents[2] / "shared" / "data" / "longmemeval" / "longmemeval_s_dev.jsonl"


def held_out(question_ids: list[str]) -> set[str]:
    """The questions kept out of training and tuning: the HELD_OUT ids with the smallest SHA-256."""
    return set(sorted(question_ids, key=lambda q: hashlib.sha256(q.encode()).hexdigest())[:HELD_OUT])


def read(path: Path) -> Iterator[dict[str, Any]]:
    with path.open(encoding="utf-8") as lines:
        for line in lines:
            yield json.loads(line)


def when(text: str) -> datetime:
    """``2023/05/30 (Tue) 23:40`` as an aware UTC datetime."""
    return datetime.strptime(text[:10] + text[-6:], "%Y/%m/%d %H:%M").replace(tzinfo=UTC)


def turns(question: dict[str, Any], all_turns: bool) -> Iterator[tuple[str, str, dict[str, Any], datetime]]:
    """(turn id ``<session>#<index>``, session id, turn, said at) of every indexed turn."""
    for session_id, date, session in zip(question["haystack_session_ids"], question["haystack_dates"],
                                         question["haystack_sessions"], strict=True):  # fmt: skip
        for index, turn in enumerate(session):
            if (all_turns or turn["role"] == "user") and is_meaningful(turn["content"]):  # not "?" alone
                yield f"{session_id}#{index}", session_id, turn, when(date)


def ensure_bank(client: hindsight_pg.Client, question: dict[str, Any], all_turns: bool) -> tuple[str, float]:
    """The question's bank (retained now unless it holds one document per indexed turn) and the seconds spent."""
    bank = f"bench-lme-{question['question_id']}" + ("-all" if all_turns else "")
    indexed = list(turns(question, all_turns))
    row = client.conn.execute(
        "SELECT count(*) FROM hindsight.documents WHERE bank_id = %s", (bank,)
    ).fetchone()  # fmt: skip
    if row and row[0] == len(indexed):
        return bank, 0.0
    client.delete_bank(bank)
    client.create_bank(bank, config={"extractor": "verbatim"})
    started = time.perf_counter()
    items = [MemoryItem(turn["content"], timestamp=said, document_id=turn_id, speaker=turn["role"],
                        metadata={"turn": turn_id, "session": session_id})
             for turn_id, session_id, turn, said in indexed]  # fmt: skip
    client.retain_batch(bank, items)
    return bank, time.perf_counter() - started


def metrics(ranked: list[str], evidence: set[str], sessions: set[str], newest: str) -> dict[str, float]:
    """Turn-level R@5, R@10, NDCG@10 of ``ranked`` turn ids (first appearance of each), session R@5 (any), and
    newest R@1 / R@5 / R@10: whether the evidence turn said last (``newest``, the current value of a knowledge
    update) is first, in the top 5, in the top 10."""
    seen: list[str] = []
    for turn in ranked:
        if turn not in seen:
            seen.append(turn)
    top5, top10 = set(seen[:5]), set(seen[:10])
    dcg = sum(1 / math.log2(i + 2) for i, t in enumerate(seen[:10]) if t in evidence)
    idcg = sum(1 / math.log2(i + 2) for i in range(min(len(evidence), 10)))
    return {
        "R@5": len(top5 & evidence) / len(evidence),
        "R@10": len(top10 & evidence) / len(evidence),
        "NDCG@10": dcg / idcg,
        "session R@5": float(any(t.split("#")[0] in sessions for t in seen[:5])),
        "newest R@1": float(seen[:1] == [newest]),
        "newest R@5": float(newest in top5),
        "newest R@10": float(newest in top10),
    }


def mean(rows: list[dict[str, float]]) -> dict[str, float]:
    return {key: statistics.fmean(r[key] for r in rows) for key in rows[0]} if rows else {}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--split", choices=["held-out", "train", "all"], default="held-out")
    parser.add_argument("--questions", type=int, default=0, help="only the first N questions of the split")
    parser.add_argument(
        "--question-type", default=None, help="only questions of this type (e.g. knowledge-update, temporal-reasoning)"
    )
    parser.add_argument("--all-turns", action="store_true", help="index the assistant's turns too (full protocol)")
    parser.add_argument("--reranker", default=None,
                        help="hindsight-reader (the packaged reader) or a cross-encoder folder (e.g. build/reranker):"
                        " the banks rerank with it inside the database for this run (--methods full only makes sense"
                        " then); without it they run without a reader")  # fmt: skip
    parser.add_argument("--reranker-candidates", type=int, default=10, help="candidates the reranker reads (mid)")
    parser.add_argument("--methods", default="", help="subset of the methods, separated by commas")
    parser.add_argument("--output", default="bench/results/longmemeval.json")
    parser.add_argument("--dsn", default=None)
    args = parser.parse_args()
    path = find_data()
    if not path.exists():
        sys.exit(f"LongMemEval data not found at {path}: set HINDSIGHT_LONGMEMEVAL")
    questions = list(read(path))
    kept_out = held_out([q["question_id"] for q in questions])
    chosen = [q for q in questions
              if args.split == "all" or (q["question_id"] in kept_out) == (args.split == "held-out")]  # fmt: skip
    abstentions = [q for q in chosen if q["question_id"].endswith("_abs")]
    skipped = [q for q in chosen if q["question_type"] == SSA and not args.all_turns]
    chosen = [q for q in chosen if q not in abstentions and q not in skipped]
    if args.question_type:
        chosen = [q for q in chosen if q["question_type"] == args.question_type]
    if args.questions:
        chosen = chosen[: args.questions]

    client = hindsight_pg.connect(args.dsn)
    print(header(client.conn))
    print(f"{path.name}: split {args.split}, {len(chosen)} questions evaluated, {len(abstentions)} abstention and "
          f"{len(skipped)} single-session-assistant questions left out; "
          f"{'every turn' if args.all_turns else 'the user turns'} indexed")  # fmt: skip
    wanted = [m.strip() for m in args.methods.split(",") if m.strip()] or [*METHODS, COSINE]
    if unknown := [m for m in wanted if m not in [*METHODS, COSINE]]:
        parser.error(f"unknown method {unknown[0]!r}: choose from {', '.join([*METHODS, COSINE])}")
    per_method: dict[str, list[tuple[str, dict[str, float]]]] = {m: [] for m in wanted}
    model = args.reranker if args.reranker == READER else str(Path(args.reranker or ".").resolve())
    reranker = {"reranker_provider": {"kind": "local", "model": model},
                "reranker_candidates": {"mid": args.reranker_candidates}} if args.reranker else {
                    "reranker_provider": {"kind": "none"}}  # fmt: skip
    retain_s: list[float] = []
    recall_ms: list[float] = []
    with Progress(transient=True) as progress:
        task = progress.add_task("questions", total=len(chosen))
        for question in chosen:
            bank, spent = ensure_bank(client, question, args.all_turns)
            if spent:
                retain_s.append(spent)
            client.conn.execute(  # the reranker of this run, or none
                "UPDATE hindsight.banks SET config = config - '{reranker_provider,reranker_candidates}'::text[]"
                " || %s::jsonb WHERE bank_id = %s",
                (json.dumps(reranker), bank),
            )
            said = {turn_id: (at, int(turn_id.rsplit("#", 1)[1]))
                    for turn_id, _, turn, at in turns(question, args.all_turns) if turn.get("has_answer")}  # fmt: skip
            evidence = set(said)
            newest = max(said, key=said.__getitem__) if said else ""
            sessions = set(question["answer_session_ids"])
            if not evidence:  # the evidence is in turns this protocol does not index
                progress.advance(task)
                continue
            analyze(client.conn)
            embedding = client.embedder_for(bank).embed([question["question"]], kind="query")[0]
            asked = when(question["question_date"])
            for name, arms in METHODS.items():
                if name not in per_method:
                    continue
                started = time.perf_counter()
                rows = client.conn.execute(
                    "SELECT metadata->>'turn' FROM hindsight.recall(bank_id => %s, query => %s, query_embedding => %s,"
                    " query_timestamp => %s, arms => %s, max_tokens => 1000000) WHERE rank <= 10 ORDER BY rank",
                    (bank, question["question"], embedding, asked, arms),
                ).fetchall()  # fmt: skip
                if name == "full":
                    recall_ms.append(1000 * (time.perf_counter() - started))
                per_method[name].append(
                    (question["question_type"], metrics([r[0] for r in rows], evidence, sessions, newest))
                )
            if COSINE not in per_method:
                progress.advance(task)
                continue
            rows = client.conn.execute(  # every unit's distance (a materialised scan: no index), the nearest first
                "WITH u AS MATERIALIZED (SELECT id, metadata, embedding FROM hindsight.memory_units WHERE bank_id = %s)"
                " SELECT metadata->>'turn' FROM u ORDER BY embedding <=> %s, id LIMIT 30",
                (bank, embedding),
            ).fetchall()  # fmt: skip
            per_method[COSINE].append(
                (question["question_type"], metrics([r[0] for r in rows], evidence, sessions, newest))
            )
            progress.advance(task)

    first = next(iter(per_method))
    types = sorted({t for t, _ in per_method[first]})
    results: dict[str, Any] = {}
    reader = f", {args.reranker_candidates} candidates reranked by {args.reranker}" if args.reranker else ""
    print(
        f"\n{'method':<16}{'R@5':>8}{'R@10':>8}{'NDCG@10':>9}{'sess R@5':>10}{'newest R@1/5/10':>18}"
        f"   (n = {len(per_method[first])}){reader}"
    )
    for name, rows in per_method.items():
        overall = mean([m for _, m in rows])
        results[name] = {"overall": overall, "by_type": {t: mean([m for k, m in rows if k == t]) for t in types}}
        print(f"{name:<16}{overall['R@5']:>8.3f}{overall['R@10']:>8.3f}{overall['NDCG@10']:>9.3f}"
              f"{overall['session R@5']:>10.3f}   {overall['newest R@1']:.3f}/{overall['newest R@5']:.3f}/"
              f"{overall['newest R@10']:.3f}")  # fmt: skip
    print("\nNDCG@10 per question type (n)")
    print(f"{'method':<16}" + "".join(f"{t[:22]:>24}" for t in types))
    counts = {t: sum(1 for k, _ in per_method[first] if k == t) for t in types}
    print(f"{'(questions)':<16}" + "".join(f"{counts[t]:>24}" for t in types))
    for name in per_method:
        print(f"{name:<16}" + "".join(f"{results[name]['by_type'][t]['NDCG@10']:>24.3f}" for t in types))
    timing = {
        "retain_s_per_question": statistics.median(retain_s) if retain_s else None,
        "recall_ms_median": statistics.median(recall_ms) if recall_ms else None,
    }
    print(f"\nretain (banks made this run: {len(retain_s)}): "
          f"{timing['retain_s_per_question'] or 0:.1f} s median a question; "
          f"full recall {timing['recall_ms_median'] or 0:.0f} ms median")  # fmt: skip
    out = Path(args.output)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps({
        "header": header(client.conn), "split": args.split, "question_type": args.question_type,
        "all_turns": args.all_turns, "reranker": args.reranker,
        "reranker_candidates": args.reranker_candidates if args.reranker else None,
        "questions": len(per_method[first]), "abstentions_left_out": len(abstentions),
        "single_session_assistant_left_out": len(skipped), "question_types": counts, "results": results,
        "timing": timing,
    }, indent=1))  # fmt: skip
    print(f"written to {out}")


if __name__ == "__main__":
    main()
