"""Retain throughput: facts per second into one bank, the database side and end to end.

A synthetic 10,000-turn conversation between two people (deterministic: fixed
seed, templates over names, places, projects and days) is retained in turns of
one item each, in groups of 64 items per ``hindsight.retain`` call (what the
driver sends).

1. Database side: facts are extracted (offline extractor) and embedded
   (the default model) before the clock starts, so the figure is what
   ``hindsight.retain`` costs: inserts, token counts, BM25 postings, entity
   resolution, temporal and semantic links. Reported per 1,000 facts as the bank
   fills, and for the last 2,000 facts, retained with 10,000 already in the bank.
   Baseline in the same run: the same rows loaded with COPY into memory_units of
   a bank that already holds the first --turns facts (loaded by COPY too, untimed), so the
   bank, the table and the shared HNSW index have the size retain saw; no resolution, no
   links; facts/s.
2. End to end: ``client.retain_batch`` on 1,000 further turns with extraction and
   embedding included.

    .venv/bin/python bench/retain.py [--turns 10000] [--tail 2000] [--dsn DSN]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from _common import analyze, header

import hindsight_pg
from hindsight_pl.retain.dedupe import Deduplicator
from hindsight_pl.retain.extract import OfflineExtractor

GROUP = 64
NAMES = ["Ana", "Bo", "Chen", "Dara", "Eli", "Farah", "Goran", "Hana", "Ivo", "Jun", "Kira", "Luis", "Mira", "Nils",
         "Omar", "Pia", "Quinn", "Rosa", "Sami", "Tove"]  # fmt: skip
PLACES = ["Lisbon", "Kyoto", "Oslo", "Lyon", "Austin", "Hanoi", "Porto", "Quebec", "Tallinn", "Nairobi", "Cusco",
          "Bergen", "Malaga", "Seoul", "Dublin"]  # fmt: skip
PROJECTS = ["Project Falcon", "Project Atlas", "Orion", "Nimbus", "Project Kestrel", "Helios", "Tundra", "Quasar"]
THINGS = [
    "a pottery class",
    "a new bike",
    "the garden shed",
    "a jazz concert",
    "the marathon",
    "a cooking course",
    "the climbing gym",
    "a used piano",
    "the book club",
    "a camping trip",
    "the science fair",
    "a film night",
]
TEMPLATES = [
    "I went to {place} with {name} last weekend and we loved the food.",
    "{name} told me that {project} is finally moving to the beta stage.",
    "Yesterday I signed up for {thing}; {name} recommended it to me.",
    "We are planning a trip to {place} next month, {name} found cheap tickets.",
    "{project} missed its deadline because the tests kept failing for {name}.",
    "My sister {name} just started working on {project} in {place}.",
    "I finished {thing} two days ago and it was exhausting but fun.",
    "{name} and I talked about moving to {place} someday.",
    "The review of {project} is on Friday, and {name} leads it.",
    "I bought tickets for {thing} with {name} for next Saturday.",
    "Last year {name} ran the marathon in {place} in under four hours.",
    "I keep thinking about {thing}; maybe I will try it again in the spring.",
]


def conversation(turns: int, seed: int = 7) -> list[hindsight_pg.MemoryItem]:
    """Two speakers, one turn every 40 minutes, each turn one or two template sentences."""
    rng = random.Random(seed)
    start = datetime(2023, 1, 2, 9, tzinfo=UTC)
    items = []
    for n in range(turns):
        speaker = ("Caroline", "Melanie")[n % 2]
        sentences = [
            rng.choice(TEMPLATES).format(name=rng.choice(NAMES), place=rng.choice(PLACES),
                                         project=rng.choice(PROJECTS), thing=rng.choice(THINGS))
            for _ in range(rng.choice((1, 1, 2)))
        ]  # fmt: skip
        items.append(hindsight_pg.MemoryItem(
            content=f"{speaker}: {' '.join(sentences)} (turn {n})", timestamp=start + timedelta(minutes=40 * n),
            document_id=f"turn-{n}", metadata={"turn": n}))  # fmt: skip
    return items


def payloads(client: hindsight_pg.Client, items: list[hindsight_pg.MemoryItem]) -> list[dict[str, Any]]:
    """The hindsight.retain items the driver would send, extracted and embedded (not timed)."""
    extractor, dedupe = OfflineExtractor(), Deduplicator(0.95)
    out = []
    for item in items:
        content = item.content
        facts = dedupe.by_text(extractor.extract([content], timestamp=item.timestamp))  # type: ignore[arg-type]
        out.append({"document_id": item.document_id, "content": content, "chunks": [content],
                    "timestamp": item.timestamp.isoformat(), "metadata": dict(item.metadata or {}),  # type: ignore[union-attr]
                    "units": [{"text": f.text, "chunk_index": 0, "fact_type": f.fact_type, "entities": f.entities,
                               "occurred_start": f.occurred_start.isoformat() if f.occurred_start else None,
                               "occurred_end": f.occurred_end.isoformat() if f.occurred_end else None}
                              for f in facts]})  # fmt: skip
    texts = [u["text"] for p in out for u in p["units"]]
    vectors = client.embedder.embed(texts, kind="passage")
    flat = iter(vectors)
    for p in out:
        for u in p["units"]:
            u["embedding"] = [round(float(x), 7) for x in next(flat)]
    return out


def retain_groups(client: hindsight_pg.Client, bank: str, items: list[dict[str, Any]]) -> tuple[int, float]:
    """Retains items in groups of GROUP, one transaction per group; returns (facts, seconds)."""
    facts, started = 0, time.perf_counter()
    for start in range(0, len(items), GROUP):
        group = items[start : start + GROUP]
        with client.conn.transaction():
            client.conn.execute("SELECT count(*) FROM hindsight.retain(%s, %s::jsonb)", (bank, json.dumps(group)))
        facts += sum(len(i["units"]) for i in group)
    return facts, time.perf_counter() - started


def copy_units(client: hindsight_pg.Client, bank: str, items: list[dict[str, Any]]) -> tuple[int, float]:
    """The items' units loaded with COPY into ``bank`` (no documents, entities or links; the shared HNSW index
    and the BM25 triggers run as for any insert); returns (facts, seconds)."""
    rows = [(u["text"], "[" + ",".join(map(str, u["embedding"])) + "]", i["timestamp"])
            for i in items for u in i["units"]]  # fmt: skip
    started = time.perf_counter()
    with client.conn.transaction(), client.conn.cursor() as cur:
        cur.execute("CREATE TEMP TABLE baseline (text text, embedding text, mentioned_at timestamptz) ON COMMIT DROP")
        with cur.copy("COPY baseline (text, embedding, mentioned_at) FROM STDIN") as copy:
            for row in rows:
                copy.write_row(row)
        cur.execute(
            "INSERT INTO hindsight.memory_units (bank_id, text, embedding, mentioned_at, token_count, search_vector)"
            " SELECT %s, text, embedding::vector, mentioned_at, 0, to_tsvector('english', text) FROM baseline",
            (bank,),
        )
    return len(rows), time.perf_counter() - started


def copy_baseline(
    client: hindsight_pg.Client, bank: str, before: list[dict[str, Any]], items: list[dict[str, Any]]
) -> tuple[int, float]:
    """The floor of any retain: ``items``' units loaded with COPY into a bank that already holds ``before``'s
    (loaded first, untimed), so the bank, the table and the shared HNSW index are the size retain saw."""
    client.delete_bank(bank)
    client.create_bank(bank)
    copy_units(client, bank, before)
    analyze(client.conn)  # fresh statistics for the timed COPY, as for every benchmark
    return copy_units(client, bank, items)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--turns", type=int, default=10000, help="turns retained before the measured tail")
    parser.add_argument("--tail", type=int, default=2000, help="turns retained with --turns already in the bank")
    parser.add_argument("--end-to-end", type=int, default=1000, help="turns retained through client.retain_batch")
    parser.add_argument("--output", default="bench/results/retain.json")
    parser.add_argument("--dsn", default=None)
    args = parser.parse_args()

    client = hindsight_pg.connect(args.dsn)
    print(header(client.conn))
    turns = conversation(args.turns + args.tail + args.end_to_end)
    started = time.perf_counter()
    prepared = payloads(client, turns[: args.turns + args.tail])
    print(f"extracted and embedded {len(prepared)} turns in {time.perf_counter() - started:.1f} s (not timed below)",
          file=sys.stderr)  # fmt: skip

    bank = "bench-retain"
    client.delete_bank(bank)
    client.create_bank(bank)
    curve = []
    done = 0
    for start in range(0, args.turns, 1000):
        facts, seconds = retain_groups(client, bank, prepared[start : min(start + 1000, args.turns)])
        done += facts
        curve.append({"facts_in_bank": done, "facts_per_s": facts / seconds})
        print(f"  {done:>6} facts in the bank: {facts / seconds:7.0f} facts/s", file=sys.stderr)
    tail_facts, tail_seconds = retain_groups(client, bank, prepared[args.turns :])
    links = dict(
        client.conn.execute(
            "SELECT link_type, count(*) FROM hindsight.memory_links WHERE bank_id = %s GROUP BY 1", (bank,)
        ).fetchall()
    )
    entities = client.conn.execute("SELECT count(*) FROM hindsight.entities WHERE bank_id = %s", (bank,)).fetchone()[0]
    base_facts, base_seconds = copy_baseline(
        client, "bench-retain-copy", prepared[: args.turns], prepared[args.turns :]
    )
    client.delete_bank("bench-retain-copy")

    e2e_bank = "bench-retain-e2e"
    client.delete_bank(e2e_bank)
    client.create_bank(e2e_bank)
    tail_items = turns[args.turns + args.tail :]
    started = time.perf_counter()
    e2e = client.retain_batch(e2e_bank, tail_items)
    e2e_seconds = time.perf_counter() - started
    client.delete_bank(e2e_bank)

    result = {
        "header": header(client.conn), "turns": args.turns, "facts_before_tail": done,
        "tail": {"facts": tail_facts, "seconds": tail_seconds, "facts_per_s": tail_facts / tail_seconds},
        "copy_baseline": {"facts": base_facts, "seconds": base_seconds, "facts_per_s": base_facts / base_seconds},
        "curve": curve, "links": links, "entities": entities,
        "end_to_end": {"turns": len(tail_items), "facts": len(e2e.unit_ids), "seconds": e2e_seconds,
                       "facts_per_s": len(e2e.unit_ids) / e2e_seconds},
    }  # fmt: skip
    print(
        f"database side, {tail_facts} facts retained with {done} in the bank: "
        f"{tail_facts / tail_seconds:.0f} facts/s ({1000 * tail_seconds / tail_facts:.2f} ms per fact)"
    )
    print(
        f"baseline, the same rows by COPY into memory_units of a bank holding {done}: "
        f"{base_facts / base_seconds:.0f} facts/s; "
        f"retain costs {base_facts / base_seconds / (tail_facts / tail_seconds):.1f}x the bare insert"
    )
    print(f"links: {links}; entities: {entities}")
    print(
        f"end to end (offline extraction + {getattr(client.embedder, 'model', 'embeddings')} on CPU + database): "
        f"{len(e2e.unit_ids)} facts from "
        f"{len(tail_items)} turns in {e2e_seconds:.1f} s = {len(e2e.unit_ids) / e2e_seconds:.0f} facts/s"
    )
    out = Path(args.output)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=1))
    print(f"written to {out}")


if __name__ == "__main__":
    main()
