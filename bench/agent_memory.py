"""The agent-memory suite: recall judged as a whole, on conversations an assistant really has.

Conversations of an assistant with one user or a small team (tests/data/agent_memory/, written for this project:
its README says how and what each file holds), each retained message by message as an agent loop does
(``Client.retain`` per message, with its speaker and time, document id = message id), then every question asked at
the conversation's ``asked_at``. A result's message is its unit's document; a message split into several facts
counts once, where it first appears.

Per question: top-1 (the first message answers it), top-3, reciprocal rank of the first answering message (MRR;
0 past the packed results) and Recall@10 (answering messages in the first 10 / answering messages); overall and
per question kind. For the "current" questions (the value now of something that changed): current-first, the
share of those where the answer and at least one message it replaced ("stale") are both recalled in which the
answer ranks above every stale one.

Methods: the bank's default pipeline ("full") and each ablation of bench/_common.py's ABLATIONS (a change of the
banks' config, or of recall's arms, for the run; bench/ablations.py runs the same on LoCoMo and LongMemEval too):

    .venv/bin/python bench/agent_memory.py [--split dev|test|all] [--methods "full;no reader"] [--rebuild]
                                           [--output bench/results/agent_memory_<split>.json] [--show-misses]

Banks are named bench-agent-<conversation id> and reused when they hold one document per message of the same
messages (their SHA-256 is kept in the bank's name: relabelling a question retains nothing again; ``--rebuild``
retains them again after a change to retain). Figures go to bench/results/agent_memory_<split>.json;
bench/report.py puts the test split's in docs/. Tune on dev only; test is measured, never tuned on.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import statistics
import sys
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from _common import ABLATIONS, header, reset_config, set_config

import hindsight_pg

SUITE = Path(__file__).resolve().parents[1] / "tests" / "data" / "agent_memory"
KINDS = ["current", "past", "when", "recent", "who", "multi_hop", "preference", "fact"]


@dataclass
class Message:
    id: str
    date: datetime
    speaker: str
    text: str


@dataclass
class Question:
    id: str
    kind: str
    text: str
    answers: list[str]
    stale: list[str] = field(default_factory=list)


@dataclass
class Conversation:
    id: str
    split: str
    asked_at: datetime
    messages: list[Message]
    questions: list[Question]
    revisions: list[dict[str, str]]
    not_revisions: list[dict[str, str]]
    sha256: str  # of the messages

    @property
    def bank(self) -> str:
        return f"bench-agent-{self.id}"


def load(split: str = "all", folder: Path = SUITE) -> list[Conversation]:
    """The suite's conversations of ``split`` (dev, test or all), in file-name order."""
    splits = ["dev", "test"] if split == "all" else [split]
    found = []
    for name in splits:
        for path in sorted((folder / name).glob("*.json")):
            data = json.loads(path.read_text(encoding="utf-8"))
            found.append(Conversation(
                id=data["id"], split=data["split"], asked_at=datetime.fromisoformat(data["asked_at"]),
                messages=[Message(m["id"], datetime.fromisoformat(m["date"]), m["speaker"], m["text"])
                          for m in data["messages"]],
                questions=[Question(q["id"], q["kind"], q["question"], list(q["answers"]), list(q.get("stale", [])))
                           for q in data["questions"]],
                revisions=data.get("revisions", []), not_revisions=data.get("not_revisions", []),
                sha256=hashlib.sha256(json.dumps(data["messages"], sort_keys=True).encode()).hexdigest(),
            ))  # fmt: skip
    return found


def retainable(messages: list[Message]) -> list[Message]:
    """The messages retain takes: those with a letter or a digit (retain refuses "😍😍" or "?!" as blank)."""
    return [m for m in messages if any(ch.isalnum() for ch in m.text)]


def ensure_bank(client: hindsight_pg.Client, conv: Conversation, *, batch: bool = False, rebuild: bool = False) -> str:
    """The conversation's bank, retained now (message by message, or in one call with ``batch``) unless it already
    holds one document per message of these very messages."""
    name = f"agent-memory {conv.id} {conv.sha256[:16]}"
    row = client.conn.execute(
        "SELECT b.name, (SELECT count(*) FROM hindsight.documents d WHERE d.bank_id = b.bank_id)"
        " FROM hindsight.banks b WHERE b.bank_id = %s", (conv.bank,),
    ).fetchone()  # fmt: skip
    if row and row[0] == name and row[1] == len(retainable(conv.messages)) and not rebuild:
        return conv.bank
    client.delete_bank(conv.bank)
    client.create_bank(conv.bank, name=name)
    started = time.perf_counter()
    items = [
        {"content": m.text, "timestamp": m.date, "speaker": m.speaker, "document_id": m.id}
        for m in retainable(conv.messages)
    ]
    if batch:
        client.retain_batch(conv.bank, items)
    else:
        for item in items:  # an agent loop: each message as it comes
            client.retain_batch(conv.bank, [item])
    print(f"  retained {conv.bank}: {len(items)} messages in {time.perf_counter() - started:.1f} s", file=sys.stderr)
    return conv.bank


def ranked_messages(results: Iterable[Any]) -> list[str]:
    """The messages of recall's results in rank order, each once (a message's several facts count once)."""
    seen: list[str] = []
    for r in results:
        if r.document_id not in seen:
            seen.append(r.document_id)
    return seen


def score(ranked: list[str], question: Question) -> dict[str, float | None]:
    """One question's figures (see the module docstring); ``current_first`` is None where it does not apply."""
    answers = set(question.answers)
    first = next((i for i, m in enumerate(ranked) if m in answers), None)
    current_first = None
    stale = [ranked.index(s) for s in question.stale if s in ranked]
    if question.kind == "current" and first is not None and stale:
        current_first = float(first < min(stale))
    return {
        "top1": float(first == 0),
        "top3": float(first is not None and first < 3),
        "MRR": 0.0 if first is None else 1 / (first + 1),
        "R@10": len(answers & set(ranked[:10])) / len(answers),
        "current_first": current_first,
    }


def summarise(rows: list[dict[str, float | None]]) -> dict[str, Any]:
    """Means of each figure over ``rows`` (current_first over the rows where it applies) and their count."""
    out: dict[str, Any] = {"questions": len(rows)}
    for key in ("top1", "top3", "MRR", "R@10", "current_first"):
        values = [r[key] for r in rows if r[key] is not None]
        out[key] = statistics.fmean(values) if values else None
        if key == "current_first":
            out["current_first_n"] = len(values)
    return out


def recall_ranked(
    client: hindsight_pg.Client, conv: Conversation, question: Question, arms: list[str] | None = None
) -> list[str]:
    """The messages recall ranks for ``question`` (every packed result of a 4,096-token mid recall)."""
    response = client.recall(conv.bank, question.text, query_timestamp=conv.asked_at, max_tokens=4096, arms=arms,
                             max_results=None)  # fmt: skip
    return ranked_messages(response.results)


def run(
    client: hindsight_pg.Client, conversations: list[Conversation], methods: dict[str, dict[str, Any]],
    *, show_misses: bool = False,
) -> dict[str, Any]:  # fmt: skip
    """Every method over every question: {method: {"overall": ..., "by_kind": {...}, "by_conversation": {...}}}."""
    banks = [conv.bank for conv in conversations]
    results: dict[str, Any] = {}
    for name, method in methods.items():
        config = method.get("config", {})
        set_config(client, banks, config)
        rows: list[tuple[Conversation, Question, dict[str, float | None]]] = []
        started = time.perf_counter()
        try:
            for conv in conversations:
                for question in conv.questions:
                    ranked = recall_ranked(client, conv, question, method.get("arms"))
                    rows.append((conv, question, score(ranked, question)))
                    if show_misses and name == "full" and ranked and ranked[0] not in question.answers:
                        at = [ranked.index(a) + 1 if a in ranked else None for a in question.answers]
                        print(
                            f"  miss {conv.id} {question.id} [{question.kind}] {question.text!r}: first {ranked[0]},"
                            f" answers {question.answers} at {at}"
                        )
        finally:
            reset_config(client, banks, list(config))
        elapsed = time.perf_counter() - started
        results[name] = {
            "overall": summarise([r for _, _, r in rows]),
            "by_kind": {k: summarise([r for _, q, r in rows if q.kind == k]) for k in KINDS},
            "by_conversation": {c.id: summarise([r for cv, _, r in rows if cv is c]) for c in conversations},
            "ms_per_question": 1000 * elapsed / max(len(rows), 1),
        }
        o = results[name]["overall"]
        cf = "  -  " if o["current_first"] is None else f"{o['current_first']:.3f}"
        print(f"{name:<24} top-1 {o['top1']:.3f}  top-3 {o['top3']:.3f}  MRR {o['MRR']:.3f}  R@10 {o['R@10']:.3f}"
              f"  current-first {cf} (n={o['current_first_n']})"
              f"  {results[name]['ms_per_question']:.0f} ms/q")  # fmt: skip
    print("\ntop-1 per kind")
    print(f"{'method':<24}" + "".join(f"{k:>11}" for k in KINDS))
    for name, result in results.items():
        cells = [result["by_kind"][k]["top1"] for k in KINDS]
        print(f"{name:<24}" + "".join("          -" if c is None else f"{c:>11.3f}" for c in cells))
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--split", default="dev", choices=["dev", "test", "all"])
    parser.add_argument("--methods", default="", help="method names separated by ';' (default: every one)")
    parser.add_argument("--output", default=None, help="default bench/results/agent_memory_<split>.json")
    parser.add_argument("--batch", action="store_true", help="retain each conversation in one call")
    parser.add_argument("--rebuild", action="store_true", help="retain the banks again (after a change to retain)")
    parser.add_argument("--show-misses", action="store_true", help="print each question 'full' misses at rank 1")
    parser.add_argument("--dsn", default=None)
    args = parser.parse_args()
    methods = ABLATIONS
    if args.methods:
        wanted = [m.strip() for m in args.methods.split(";") if m.strip()]
        if unknown := [m for m in wanted if m not in ABLATIONS]:
            parser.error(f"unknown method {unknown[0]!r}: choose from {'; '.join(ABLATIONS)}")
        methods = {m: ABLATIONS[m] for m in wanted}
    conversations = load(args.split)
    client = hindsight_pg.connect(args.dsn)
    print(header(client.conn))
    for conv in conversations:
        ensure_bank(client, conv, batch=args.batch, rebuild=args.rebuild)
    questions = sum(len(c.questions) for c in conversations)
    print(f"{len(conversations)} conversations ({args.split}), {questions} questions")
    results = run(client, conversations, methods, show_misses=args.show_misses)
    out = Path(args.output or f"bench/results/agent_memory_{args.split}.json")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(
        json.dumps(
            {
                "header": header(client.conn),
                "split": args.split,
                "questions": questions,
                "conversations": [c.id for c in conversations],
                "results": results,
            },
            indent=1,
        )
    )
    print(f"\nwritten to {out}")


if __name__ == "__main__":
    main()
