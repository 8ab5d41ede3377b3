"""Recall's own candidates, for training what reads and ranks them: for each training question, the first 30
candidates by boosted passthrough rank (what the reader reads at the high budget, hindsight.texts_to_rerank),
with every figure recall has per candidate and whether the candidate answers the question.

Sources (never LoCoMo, never LongMemEval's held-out questions):
  lme    LongMemEval_S dev, the training split of bench/longmemeval.py (its banks bench-lme-<question id>,
         retained there: ``bench/longmemeval.py --split train --methods "exact cosine"``; a question whose bank
         is missing or incomplete is skipped, and counted); relevant: the ``has_answer`` user turns.
  suite  the agent-memory suite's dev split (bench/agent_memory.py's banks, retained here when missing);
         relevant: a question's answers; ``stale``: the messages a current-value question's answer revised.
  qmsum  QMSum's training meetings (../shared/data/qmsum/train, MIT; the first ``--meetings`` by name), each
         retained here as bank bench-qmsum-<meeting>, one memory a turn (the verbatim extractor, the speaker
         kept, turns a second apart from an arbitrary 2024-01-01, disfluency marks removed); its specific
         queries, asked after the meeting; relevant: the turns inside the query's spans (weak: a span is often
         tens of turns).

Each candidate's figures (FEATURES): the fused rank and score, each arm's rank and score (null where the arm did
not find it), the temporal proximity, the calibrated passthrough score, recency, proof, the boosted score and
rank, its token count and its age in days at the question's time. Recall runs without a reader (the banks'
reranker is not read: hindsight.recall_candidates and hindsight._boosted only).

Writes ``--out``/<source>.jsonl, one line a question: {"source", "group" (the conversation: questions of one
group are never split between training and validation), "question_id", "question", "asked_at",
"candidates": [{"unit_id", "document_id", "text", "relevant", "stale", <FEATURES>}, ...]}.

    .venv/bin/python bench/candidates.py [--sources lme,suite,qmsum] [--meetings 20] [--out build/candidates]
                                         [--dsn DSN]
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from _common import header
from rich.progress import Progress

import hindsight_pg
from hindsight_pg import MemoryItem
from hindsight_pl.text import is_meaningful

ROOT = Path(__file__).resolve().parents[1]
READ = 30  # candidates a question keeps: what the reader reads at the high budget
FEATURES = [
    "candidate_rank", "rrf_score", "semantic_rank", "semantic_score", "keyword_rank", "keyword_score",
    "graph_rank", "graph_score", "temporal_rank", "temporal_score", "temporal_proximity", "passthrough_score",
    "recency", "proof", "boosted", "boosted_rank", "token_count", "age_days",
]  # fmt: skip

CANDIDATES_SQL = f"""
WITH s AS (
    SELECT hindsight.recall_candidates(%(bank)s, %(question)s, budget => 'high', max_tokens => 1000000,
                                       query_timestamp => %(asked_at)s) AS state
)
SELECT u.id::text AS unit_id, u.document_id, b.rerank_text AS text,
       c.candidate_rank, c.rrf_score, c.semantic_rank, c.semantic_score, c.keyword_rank, c.keyword_score,
       c.graph_rank, c.graph_score, c.temporal_rank, c.temporal_score, c.temporal_proximity, b.passthrough_score,
       b.recency, b.proof, b.boosted, b.boosted_rank, b.token_count,
       extract(epoch FROM %(asked_at)s::timestamptz
               - coalesce(u.occurred_start, u.occurred_end, u.mentioned_at))::float8 / 86400 AS age_days
FROM s
CROSS JOIN LATERAL hindsight._boosted(s.state, 'calibrated') b
JOIN unnest((s.state).candidates) c ON c.unit_id = b.unit_id
JOIN hindsight.memory_units u ON u.bank_id = %(bank)s AND u.id = b.unit_id
WHERE b.boosted_rank <= {READ}
ORDER BY b.boosted_rank
"""


def candidates(client: hindsight_pg.Client, bank: str, question: str, asked_at: Any) -> list[dict[str, Any]]:
    """The first READ candidates of ``question`` on ``bank`` by boosted rank, each a dict of its figures."""
    cursor = client.conn.execute(CANDIDATES_SQL, {"bank": bank, "question": question, "asked_at": asked_at})
    names = [d.name for d in cursor.description or []]
    return [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]


def lme_questions(client: hindsight_pg.Client, meetings: int) -> Iterator[tuple[str, dict[str, Any]]]:
    """(bank, question) of every LongMemEval training question whose bank holds its haystack."""
    from longmemeval import SSA, find_data, held_out, read, turns, when

    questions = list(read(find_data()))
    kept_out = held_out([q["question_id"] for q in questions])
    skipped = 0
    for q in questions:
        if q["question_id"] in kept_out or q["question_type"] == SSA or q["question_id"].endswith("_abs"):
            continue
        bank = f"bench-lme-{q['question_id']}"
        indexed = list(turns(q, False))
        row = client.conn.execute("SELECT count(*) FROM hindsight.documents WHERE bank_id = %s", (bank,)).fetchone()
        if not row or row[0] != len(indexed):
            skipped += 1
            continue
        relevant = {turn_id for turn_id, _, turn, _ in indexed if turn.get("has_answer")}
        if relevant:
            yield bank, {"group": q["question_id"], "question_id": q["question_id"], "question": q["question"],
                         "asked_at": when(q["question_date"]), "relevant": relevant, "stale": set()}  # fmt: skip
    print(f"lme: {skipped} training questions without a complete bank skipped", file=sys.stderr)


def suite_questions(client: hindsight_pg.Client, meetings: int) -> Iterator[tuple[str, dict[str, Any]]]:
    """(bank, question) of every question of the agent-memory suite's dev split."""
    from agent_memory import ensure_bank, load

    for conv in load("dev"):
        bank = ensure_bank(client, conv)
        for q in conv.questions:
            yield bank, {"group": conv.id, "question_id": q.id, "question": q.text, "asked_at": conv.asked_at,
                         "relevant": set(q.answers), "stale": set(q.stale)}  # fmt: skip


QMSUM = ROOT.parent / "shared" / "data" / "qmsum" / "train"
MARK = re.compile(r"\s*\{\w+\}\s*")  # QMSum's {disfmarker}, {vocalsound}, ...


def qmsum_questions(client: hindsight_pg.Client, meetings: int) -> Iterator[tuple[str, dict[str, Any]]]:
    """(bank, query) of every specific query of the first ``meetings`` QMSum training meetings, retained here."""
    start = datetime(2024, 1, 1, 9, tzinfo=UTC)
    for path in sorted(QMSUM.glob("*.json"))[:meetings]:
        meeting = json.loads(path.read_text(encoding="utf-8"))
        bank = f"bench-qmsum-{path.stem}"
        items = []
        for i, turn in enumerate(meeting["meeting_transcripts"]):
            text = MARK.sub(" ", turn["content"]).strip()
            if is_meaningful(text):
                items.append(MemoryItem(text, timestamp=start + timedelta(seconds=i), document_id=f"{path.stem}#{i}",
                                        speaker=turn["speaker"]))  # fmt: skip
        row = client.conn.execute("SELECT count(*) FROM hindsight.documents WHERE bank_id = %s", (bank,)).fetchone()
        if not row or row[0] != len(items):
            client.delete_bank(bank)
            client.create_bank(bank, config={"extractor": "verbatim", "reranker_provider": {"kind": "none"}})
            client.retain_batch(bank, items)
        asked_at = start + timedelta(seconds=len(meeting["meeting_transcripts"]) + 60)
        for n, q in enumerate(meeting["specific_query_list"]):
            inside = {f"{path.stem}#{i}" for a, b in q["relevant_text_span"] for i in range(int(a), int(b) + 1)}
            yield bank, {"group": path.stem, "question_id": f"{path.stem}:{n}", "question": q["query"],
                         "asked_at": asked_at, "relevant": inside, "stale": set()}  # fmt: skip


SOURCES = {"lme": lme_questions, "suite": suite_questions, "qmsum": qmsum_questions}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sources", default="lme,suite,qmsum", help=f"of {', '.join(SOURCES)}, separated by commas")
    parser.add_argument("--out", default=str(ROOT / "build" / "candidates"))
    parser.add_argument("--meetings", type=int, default=20, help="QMSum training meetings to retain and ask")
    parser.add_argument("--dsn", default=None)
    args = parser.parse_args()
    wanted = [s.strip() for s in args.sources.split(",") if s.strip()]
    if unknown := [s for s in wanted if s not in SOURCES]:
        parser.error(f"unknown source {unknown[0]!r}: choose from {', '.join(SOURCES)}")
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    client = hindsight_pg.connect(args.dsn)
    print(header(client.conn))
    for source in wanted:
        found = list(SOURCES[source](client, args.meetings))
        lines, with_answer = 0, 0
        with (out / f"{source}.jsonl").open("w", encoding="utf-8") as f, Progress(transient=True) as progress:
            task = progress.add_task(source, total=len(found))
            for bank, q in found:
                rows = candidates(client, bank, q["question"], q["asked_at"])
                for row in rows:
                    row["relevant"] = row["document_id"] in q["relevant"]
                    row["stale"] = row["document_id"] in q["stale"]
                with_answer += any(r["relevant"] for r in rows)
                f.write(json.dumps({"source": source, "group": q["group"], "question_id": q["question_id"],
                                    "question": q["question"], "asked_at": q["asked_at"].isoformat(),
                                    "candidates": rows}) + "\n")  # fmt: skip
                lines += 1
                progress.advance(task)
        print(f"{source}: {lines} questions, {with_answer} with an answer among their first {READ} -> "
              f"{out / f'{source}.jsonl'}")  # fmt: skip


if __name__ == "__main__":
    main()
