"""Offline consolidation: time to turn a bank's facts into observations, against a pairwise scan.

A bank holds the turns of the LoCoMo dev conversations (offline extractor, the default model),
built once and reused (``bench-consolidate-<n>``; about 3 minutes for all five). Each
measurement starts from no observation (observations deleted, ``consolidated_at`` cleared)
and times:

1. ``hindsight.consolidate(bank, use_llm => false)`` on every fact (the first run);
2. the same again with nothing new (idempotence: it should do almost nothing);
3. incremental: the oldest 90 % of facts consolidated first (untimed), then the newest 10 %.

Baseline in the same run: the O(n^2) scan consolidation avoids, one query that counts the fact
pairs sharing an entity with cosine >= observation_similarity (0.85) by comparing every pair.
consolidate finds its candidates through retain's semantic links and unit_entities instead, so
those links are counted too: the same facts (extracted and embedded first, untimed) are retained
into two scratch banks in groups of 64, with the default semantic_link_top_k (50) and with 0;
the difference is what building the links cost retain, and it is added to consolidate's time.

    .venv/bin/python bench/consolidate.py [--conversations 5] [--repeat 3] [--dsn DSN]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from _common import LOCOMO_BESIDE_PROJECT, analyze, header
from retain import payloads, retain_groups

import hindsight_pg
from hindsight_pg._inputs import load_locomo, locomo_path

PAIRWISE = """
    SELECT count(*) FROM hindsight.memory_units a
    JOIN hindsight.memory_units b ON b.bank_id = a.bank_id AND b.id > a.id
    WHERE a.bank_id = %(bank)s AND a.fact_type IN ('world', 'experience') AND b.fact_type IN ('world', 'experience')
      AND 1 - (a.embedding <=> b.embedding) >= 0.85
      AND EXISTS (SELECT FROM hindsight.unit_entities x JOIN hindsight.unit_entities y
                  ON y.bank_id = x.bank_id AND y.entity_id = x.entity_id
                  WHERE x.bank_id = a.bank_id AND x.unit_id = a.id AND y.unit_id = b.id)
"""


def build(client: hindsight_pg.Client, bank: str, conversations: int) -> int:
    """The bank of the first ``conversations`` LoCoMo conversations, built unless it exists; its fact count."""
    if bank not in {b.bank_id for b in client.list_banks()}:
        print(f"building {bank} from {conversations} LoCoMo conversations (once) ...", file=sys.stderr)
        client.create_bank(bank)
        for conv in load_locomo(locomo_path(default=LOCOMO_BESIDE_PROJECT))[:conversations]:
            client.retain_batch(bank, conv.items)
        client.conn.commit()
    row = client.conn.execute(
        "SELECT count(*) FROM hindsight.memory_units WHERE bank_id = %s AND fact_type <> 'observation'", (bank,)
    ).fetchone()
    return int(row[0]) if row else 0


def reset(client: hindsight_pg.Client, bank: str) -> None:
    """No observation, no fact consolidated."""
    client.conn.execute("DELETE FROM hindsight.memory_units WHERE bank_id = %s AND fact_type = 'observation'", (bank,))
    client.conn.execute("UPDATE hindsight.memory_units SET consolidated_at = NULL WHERE bank_id = %s", (bank,))
    client.conn.commit()
    analyze(client.conn)


def timed(client: hindsight_pg.Client, sql: str, params: Any) -> tuple[float, list[Any]]:
    start = time.perf_counter()
    rows = client.conn.execute(sql, params).fetchall()
    client.conn.commit()
    return time.perf_counter() - start, rows


def semantic_links_cost(client: hindsight_pg.Client, conversations: int) -> dict[str, float]:
    """Seconds retain spends building semantic links for the bank's facts: the same items retained with the
    default semantic_link_top_k and with 0, each into a scratch bank (best of two each, to damp noise)."""
    locomo = load_locomo(locomo_path(default=LOCOMO_BESIDE_PROJECT))
    items = [item for conv in locomo[:conversations] for item in conv.items]
    prepared = payloads(client, items)
    seconds: dict[str, float] = {}
    for name, config in (("with", {}), ("without", {"semantic_link_top_k": 0})):
        runs = []
        for _ in range(2):
            client.delete_bank("bench-consolidate-links")
            client.create_bank("bench-consolidate-links", config=config)
            runs.append(retain_groups(client, "bench-consolidate-links", prepared)[1])
        client.delete_bank("bench-consolidate-links")
        seconds[name] = min(runs)
    return {"retain_with_links_s": seconds["with"], "retain_without_links_s": seconds["without"],
            "semantic_links_s": max(0.0, seconds["with"] - seconds["without"])}  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--conversations", type=int, default=5, help="LoCoMo conversations in the bank (dev: 5)")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each measurement (the median is reported)")
    parser.add_argument("--output", default="bench/results/consolidate.json")
    parser.add_argument("--dsn", default=None)
    args = parser.parse_args()

    client = hindsight_pg.connect(args.dsn)
    print(header(client.conn))
    bank = f"bench-consolidate-{args.conversations}"
    facts = build(client, bank, args.conversations)
    consolidate = "SELECT * FROM hindsight.consolidate(%s, use_llm => false)"
    first, again, tail, pairwise = [], [], [], []
    observations = 0
    for _ in range(args.repeat):
        reset(client, bank)
        seconds, rows = timed(client, consolidate, (bank,))
        first.append(seconds)
        observations = sum(1 for r in rows if r[1] == "created")
        again.append(timed(client, consolidate, (bank,))[0])
        reset(client, bank)
        # the newest 10 % arrive later: mark them consolidated, consolidate the rest, then clear the mark
        client.conn.execute(
            "UPDATE hindsight.memory_units SET consolidated_at = now() WHERE bank_id = %s AND id IN ("
            " SELECT id FROM hindsight.memory_units WHERE bank_id = %s AND fact_type <> 'observation'"
            " ORDER BY coalesce(occurred_start, mentioned_at) DESC, created_at DESC, id LIMIT %s)",
            (bank, bank, max(1, facts // 10)),
        )
        client.conn.execute(
            "CREATE TEMP TABLE newest AS SELECT id FROM hindsight.memory_units"
            " WHERE bank_id = %s AND consolidated_at IS NOT NULL",
            (bank,),
        )
        client.conn.execute(consolidate, (bank,))
        client.conn.execute(
            "UPDATE hindsight.memory_units SET consolidated_at = NULL"
            " WHERE bank_id = %s AND id IN (SELECT id FROM newest)",
            (bank,),
        )
        client.conn.execute("DROP TABLE newest")
        client.conn.commit()
        tail.append(timed(client, consolidate, (bank,))[0])
        pairwise.append(timed(client, PAIRWISE, {"bank": bank})[0])
    result = {
        "header": header(client.conn), "bank": bank, "facts": facts, "observations": observations,
        "repeat": args.repeat,
        "consolidate_s": statistics.median(first), "again_s": statistics.median(again),
        "newest_tenth_s": statistics.median(tail), "pairwise_scan_s": statistics.median(pairwise),
    }  # fmt: skip
    result.update(semantic_links_cost(client, args.conversations))
    result["pairwise_over_consolidate"] = result["pairwise_scan_s"] / result["consolidate_s"]
    with_links = result["consolidate_s"] + result["semantic_links_s"]
    result["pairwise_over_consolidate_with_links"] = result["pairwise_scan_s"] / with_links
    print(f"{facts} facts -> {observations} observations")
    print(f"consolidate, every fact:      {result['consolidate_s'] * 1000:8.0f} ms "
          f"({facts / result['consolidate_s']:.0f} facts/s)")  # fmt: skip
    print(f"consolidate again, none new:  {result['again_s'] * 1000:8.1f} ms")
    print(f"consolidate the newest 10 %:  {result['newest_tenth_s'] * 1000:8.0f} ms")
    print(f"baseline pairwise scan:       {result['pairwise_scan_s'] * 1000:8.0f} ms "
          f"({result['pairwise_over_consolidate']:.1f}x consolidate, finding candidate pairs only)")  # fmt: skip
    print(f"retain's semantic links for these facts: {result['semantic_links_s'] * 1000:8.0f} ms "
          f"(retain {result['retain_with_links_s']:.1f} s with them, "
          f"{result['retain_without_links_s']:.1f} s without); "
          f"pairwise scan = {result['pairwise_over_consolidate_with_links']:.1f}x consolidate + links")  # fmt: skip
    Path(args.output).parent.mkdir(parents=True, exist_ok=True)
    Path(args.output).write_text(json.dumps(result, indent=2) + "\n")
    reset(client, bank)


if __name__ == "__main__":
    main()
