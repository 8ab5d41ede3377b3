"""Query analysis: pass rate on the hand-written tables and parse time per class, through hindsight.parse_temporal.

    .venv/bin/python bench/temporal.py [--repeat 3] [--dsn DSN]

Every case of tests/unit/temporal_cases/ (eight languages, ten classes) is parsed by the database
function `hindsight.parse_temporal` in one session, `--repeat` times; a case passes when the window
equals the hand-written one. Prints and writes (bench/results/temporal.json; bench/report.py puts the
tables in docs/temporal.md):

* the pass rate per language and class;
* the parse time per class, median and p95 over every call of that class (milliseconds, one SQL
  round trip each, on this machine's loopback);
* the one-off costs of a fresh session: the first call (imports hindsight_pl), the first that
  needs dateparser (a numeric date no rule takes), the first that needs the holidays package.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import defaultdict
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import psycopg
from _common import header

import hindsight_pg

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "unit"))
from temporal_cases import CLASSES, LANGUAGES, REFERENCE_DAY, REFERENCE_HOUR, Case, load

SQL = "SELECT hindsight.parse_temporal(%s, %s, 'UTC', %s)"


def reference_of(case: Case) -> datetime:
    day = date.fromisoformat(case.reference) if case.reference else REFERENCE_DAY
    return datetime(day.year, day.month, day.day, REFERENCE_HOUR, tzinfo=UTC)


def passes(case: Case, window: Any, reference: datetime) -> bool:
    if case.start is None:
        return window is None
    if window is None:
        return False
    end = "now" if window.upper == reference else window.upper.date().isoformat()
    return (window.lower.date().isoformat(), end) == (case.start, case.end)


def timed(conn: psycopg.Connection, query: str, reference: datetime, hemisphere: str = "north") -> tuple[Any, float]:
    started = time.perf_counter()
    row = conn.execute(SQL, (query, reference, hemisphere)).fetchone()
    return (row[0] if row else None), (time.perf_counter() - started) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=3, help="times each case is parsed (default 3)")
    parser.add_argument("--dsn", default=None, help="default: $HINDSIGHT_PG_DSN or the embedded server")
    parser.add_argument("--output", default="bench/results/temporal.json", help="where to write the figures")
    args = parser.parse_args()
    dsn = args.dsn or hindsight_pg.connect(args.dsn, embedder=None).conn.info.dsn
    cases = [(language, case) for language in LANGUAGES for case in load(language)]
    reference = datetime(2025, 11, 1, 12, tzinfo=UTC)
    with psycopg.connect(dsn, autocommit=True) as conn:  # a fresh session: nothing imported yet
        head = header(conn)
        print(head)
        first = {
            "first call (imports hindsight_pl)": timed(conn, "last week", reference)[1],
            "first numeric date (imports dateparser)": timed(conn, "notes from 03/05/2024", reference)[1],
            "first holiday from a calendar (imports holidays)": timed(conn, "since Thanksgiving", reference)[1],
        }
        ok: dict[str, dict[str, list[int]]] = defaultdict(lambda: defaultdict(lambda: [0, 0]))
        ms: dict[str, list[float]] = defaultdict(list)
        failures = []
        for round_number in range(args.repeat):
            for language, case in cases:
                window, elapsed = timed(conn, case.query, reference_of(case), case.hemisphere)
                ms[case.cls].append(elapsed)
                if round_number == 0:
                    good = passes(case, window, reference_of(case))
                    ok[language][case.cls][0] += good
                    ok[language][case.cls][1] += 1
                    if not good:
                        failures.append(f"{language} [{case.cls}] {case.query!r}: got {window}")
    result = {
        "header": head,
        "cases": len(cases),
        "repeat": args.repeat,
        "pass": {lang: {cls: ok[lang][cls] for cls in CLASSES if ok[lang][cls][1]} for lang in LANGUAGES},
        "ms": {cls: {"median": statistics.median(v), "p95": _p95(v), "calls": len(v)} for cls, v in ms.items()},
        "first_ms": first,
        "failures": failures,
    }
    out = Path(args.output)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=1) + "\n")
    for name, value in first.items():
        print(f"{name:<50} {value:8.1f} ms")
    print(f"{'class':<22} {'median ms':>10} {'p95 ms':>8}")
    for cls in CLASSES:
        if cls in result["ms"]:
            print(f"{cls:<22} {result['ms'][cls]['median']:10.3f} {result['ms'][cls]['p95']:8.3f}")
    for language in LANGUAGES:
        passed = sum(v[0] for v in ok[language].values())
        total = sum(v[1] for v in ok[language].values())
        print(f"{language}: {passed}/{total} cases pass")
    for line in failures:
        print("FAIL", line)
    print(f"written {out}")


def _p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


if __name__ == "__main__":
    main()
