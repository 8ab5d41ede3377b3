"""Hop count of one retain: the functions one short message reaches through ``Client.retain`` and through SQL
``hindsight.retain_text``, how often, how many of those calls cross from SQL into the in-database Python, and how
many times the bank's configuration is read (calls of ``hindsight.bank_config``, the driver's own read included).
Counted and printed as bench/hops.py counts a recall (:func:`hops.counted`, :func:`hops.report`), on a small bank
this script makes (``bench-hops-retain``: four dated facts) and drops.

    .venv/bin/python bench/hops_retain.py [--dsn DSN] [--json]
"""

from __future__ import annotations

import argparse

from _common import header, write_results
from hops import counted, report

import hindsight_pg

BANK = "bench-hops-retain"
MESSAGE = "Omar moved the Project Falcon review to Friday because Priya is in Lisbon."
WHEN = "2025-03-25T10:00:00+00:00"
FACTS = [  # what the bank holds before: dated facts naming some of the message's names
    ("Priya moved the Project Falcon launch to April after the load tests failed.", "2025-03-04", ["Priya"]),
    ("Priya and Omar agreed that Project Falcon ships without the billing module.", "2025-03-12", ["Priya", "Omar"]),
    ("Omar reported that the Project Falcon load tests pass again.", "2025-03-20", ["Omar"]),
    ("Priya took a week off in Lisbon.", "2025-02-10", ["Priya"]),
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--dsn", default=None)
    parser.add_argument("--json", action="store_true", help="print every function's call count as JSON too")
    args = parser.parse_args()

    client = hindsight_pg.connect(args.dsn)
    print(header(client.conn))
    client.delete_bank(BANK)
    client.create_bank(BANK)
    try:
        for text, day, entities in FACTS:
            client.retain(BANK, text, timestamp=day, entities=entities)
        conn = client.conn
        # warm both paths first (the in-database Python, the models, plans): a hop count, not a first call
        conn.execute("SELECT count(*) FROM hindsight.retain_text(%s, %s, mentioned_at => %s)", (BANK, MESSAGE, WHEN))
        cases = {
            "driver retain": lambda: client.retain(BANK, MESSAGE, timestamp=WHEN),
            "sql retain_text": lambda: conn.execute(
                "SELECT count(*) FROM hindsight.retain_text(%s, %s, mentioned_at => %s)", (BANK, MESSAGE, WHEN)
            ).fetchall(),
        }
        figures = {name: counted(client, call) for name, call in cases.items()}
    finally:
        client.delete_bank(BANK)
    report(figures, as_json=args.json)
    write_results("hops_retain", header(client.conn), figures)


if __name__ == "__main__":
    main()
