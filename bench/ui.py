"""Page times of the inspector (hindsight-pg ui) on a large bank: each page requested through starlette's
test client (the app's own work: SQL, templates; no network), the median and the slowest of --runs requests.

    .venv/bin/python bench/ui.py --dsn DSN --bank bench-latency-100000 [--runs 5]

The bank must exist (bench/latency.py builds banks of 10,000 to 1,000,000 units). Figures go to
bench/results/ui.json.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

from _common import header
from starlette.testclient import TestClient

import hindsight_pg
from hindsight_pg.ui import create_app


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--dsn", default=None)
    parser.add_argument("--bank", default="bench-latency-100000")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--output", default="bench/results/ui.json")
    args = parser.parse_args()
    with hindsight_pg.connect(args.dsn) as client:
        print(header(client.conn))
        units = client.get_bank(args.bank).unit_count
        entity = client.conn.execute(
            "SELECT canonical_name FROM hindsight.entities WHERE bank_id = %s ORDER BY mention_count DESC LIMIT 1",
            (args.bank,),
        ).fetchone()
    ui = TestClient(create_app(args.dsn), base_url="http://127.0.0.1")
    b = args.bank
    pages = {
        "banks": "/",
        "timeline by month": f"/banks/{b}?by=month",
        "timeline by week, one month, page 3": f"/banks/{b}?by=week&start=2024-03-01&end=2024-03-31&page=3",
        "entities": f"/banks/{b}/entities",
        "entities, one entity's units": f"/banks/{b}/entities?entity={entity[0] if entity else ''}",
        "recall playground": f"/banks/{b}/recall?q=What+did+the+team+decide+about+the+launch%3F&dropped=on",
    }
    results = {}
    print(f"bank {b!r}: {units} units; {args.runs} requests per page")
    for name, path in pages.items():
        ui.get(path)  # warm: the first recall of a session loads the model
        times = []
        for _ in range(args.runs):
            started = time.perf_counter()
            response = ui.get(path)
            times.append(1000 * (time.perf_counter() - started))
            assert response.status_code == 200, (path, response.status_code)
        results[name] = {"median_ms": statistics.median(times), "max_ms": max(times)}
        print(f"{name:<40} median {statistics.median(times):7.1f} ms   slowest {max(times):7.1f} ms")
    out = Path(args.output)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps({"header": header_text(args.dsn), "bank": b, "units": units, "pages": results}, indent=1))


def header_text(dsn: str | None) -> str:
    with hindsight_pg.connect(dsn) as client:
        return header(client.conn)


if __name__ == "__main__":
    main()
