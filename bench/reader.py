"""What the packaged reader (hindsight-reader) costs inside the database: its load in a new session, and the rerank
stage's time per candidate count (the reader reading the best N candidates of real recalls by boosted score,
hindsight.texts_to_rerank).

For each of ``--questions`` LoCoMo questions (turn-mode banks of bench/locomo.py, else the demo bank with its four
questions), the candidates of the mid budget come from hindsight.recall_candidates once and the texts a reader reads
from hindsight.texts_to_rerank; then hindsight.rerank scores the first N of them, timed, for each N of
``--candidates``. The medians are the stage's time; quality per N is bench/locomo.py --reranker-candidates 5,10,30
(the same Ns).

    .venv/bin/python bench/reader.py [--candidates 5,10,30] [--questions 100] [--dsn DSN]
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

import psycopg
from _common import LOCOMO_BESIDE_PROJECT, header, write_results

import hindsight_pg
from hindsight_pg._inputs import load_locomo, locomo_path
from hindsight_pl.providers import READER

NONE = "bench-reader-none"  # a bank without a reader, made and dropped by this script
PROVIDER = json.dumps({"reranker_provider": {"kind": "local", "model": READER}})


def questions(client: hindsight_pg.Client, wanted: int) -> list[tuple[str, str]]:
    """(bank, question) pairs: LoCoMo's turn-mode banks when they exist, else the demo's."""
    try:
        conversations = load_locomo(locomo_path(default=LOCOMO_BESIDE_PROJECT))
    except hindsight_pg.InvalidInputError:
        conversations = []
    pairs: list[tuple[str, str]] = []
    if conversations:
        for conv in conversations:
            bank = f"bench-locomo-turn-{conv.sample_id}"
            if client.conn.execute("SELECT 1 FROM hindsight.banks WHERE bank_id = %s", (bank,)).fetchone():
                pairs += [(bank, qa["question"]) for qa in conv.questions if qa.get("category") in (1, 2, 3, 4)]
    if not pairs:
        from hindsight_pg.cli.examples import DEMO_QUESTIONS

        pairs = [("demo", q) for _, q in DEMO_QUESTIONS]
    return pairs[:: max(1, len(pairs) // wanted)][:wanted]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--candidates", type=lambda v: [int(x) for x in v.split(",")], default=[5, 10, 30])
    parser.add_argument("--questions", type=int, default=100)
    parser.add_argument("--dsn", default=None)
    args = parser.parse_args()
    client = hindsight_pg.connect(args.dsn)
    print(header(client.conn))
    chosen = questions(client, args.questions)
    banks = sorted({b for b, _ in chosen})
    if not banks or not client.conn.execute("SELECT 1 FROM hindsight.banks WHERE bank_id = %s", (banks[0],)).fetchone():
        raise SystemExit("no LoCoMo turn-mode banks and no demo bank: run bench/locomo.py --modes turn or make demo")
    saved = dict(client.conn.execute(
        "SELECT bank_id, config FROM hindsight.banks WHERE bank_id = ANY(%s)", (banks,)
    ).fetchall())  # fmt: skip
    most = json.dumps({"reranker_candidates": {"mid": max(args.candidates)}})  # texts_to_rerank's count at mid
    client.conn.execute(
        "UPDATE hindsight.banks SET config = config || %s::jsonb || %s::jsonb WHERE bank_id = ANY(%s)",
        (PROVIDER, most, banks),
    )
    try:
        starts, loads = [], []
        client.delete_bank(NONE)
        client.create_bank(NONE, config={"reranker_provider": {"kind": "none"}})
        for _ in range(5):  # in a new session: Python's start (a bank without a reader), then the reader's load
            with psycopg.connect(client.conn.info.dsn, autocommit=True) as fresh:
                started = time.perf_counter()
                fresh.execute("SELECT hindsight.rerank(%s, 'warm', ARRAY['up'])", (NONE,))
                starts.append(1000 * (time.perf_counter() - started))
                started = time.perf_counter()
                fresh.execute("SELECT hindsight.rerank(%s, 'a question', ARRAY['a memory'])", (banks[0],))
                loads.append(1000 * (time.perf_counter() - started))
        client.delete_bank(NONE)
        print(f"a new session, median of {len(loads)}: its first PL/Python call {statistics.median(starts):.0f} ms; "
              f"then the reader's load and one pair {statistics.median(loads):.0f} ms")  # fmt: skip
        stage: dict[str, dict[str, float]] = {}
        figures = {"first_python_call_ms": statistics.median(starts), "reader_load_ms": statistics.median(loads),
                   "stage": stage}  # fmt: skip
        texts = []
        for bank, question in chosen:
            (row,) = client.conn.execute(
                "SELECT hindsight.texts_to_rerank(hindsight.recall_candidates(%s, %s))",
                (bank, question),
            ).fetchall()  # fmt: skip
            texts.append((bank, question, row[0] or []))
        client.conn.execute("SELECT hindsight.rerank(%s, 'warm', ARRAY['up'])", (banks[0],))
        print(f"\n{len(texts)} questions from {len(banks)} bank(s); the rerank stage's time, one thread:")
        print(f"{'candidates':>10}{'median ms':>11}{'p90 ms':>8}{'ms a pair':>11}")
        for count in args.candidates:
            spent = []
            for bank, question, candidates in texts:
                started = time.perf_counter()
                client.conn.execute("SELECT hindsight.rerank(%s, %s, %s)", (bank, question, candidates[:count]))
                spent.append(1000 * (time.perf_counter() - started))
            spent.sort()
            print(f"{count:>10}{statistics.median(spent):>11.1f}{spent[int(0.9 * len(spent))]:>8.1f}"
                  f"{statistics.median(spent) / count:>11.2f}")  # fmt: skip
            stage[str(count)] = {"median_ms": statistics.median(spent), "p90_ms": spent[int(0.9 * len(spent))],
                                 "questions": len(spent)}  # fmt: skip
        write_results("reader", header(client.conn), figures)
    finally:
        for bank, config in saved.items():
            client.conn.execute("UPDATE hindsight.banks SET config = %s::jsonb WHERE bank_id = %s",
                                (json.dumps(config), bank))  # fmt: skip


if __name__ == "__main__":
    main()
