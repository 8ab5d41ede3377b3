"""A unit's date, one rule (hindsight._effective_date): the time it is about, one end of the occurred span
standing for both, else when it was said; temporal proximity alone measures from the middle of a span."""

from __future__ import annotations

import pytest
from _helpers import bank, put, vec

START, END, SAID = "2024-03-01 00:00+00", "2024-03-05 00:00+00", "2024-04-01 00:00+00"
MIDDLE = "2024-03-03 00:00+00"


@pytest.mark.parametrize(
    ("occurred_start", "occurred_end", "mentioned_at", "date", "proximity_point"),
    [
        (None, None, None, None, None),
        (START, None, None, START, START),
        (None, END, None, END, END),
        (None, None, SAID, SAID, SAID),
        (START, END, None, START, MIDDLE),
        (START, None, SAID, START, START),
        (None, END, SAID, END, END),  # the end alone stands for the span, as _time_span and describe_when read it
        (START, END, SAID, START, MIDDLE),
    ],
)
def test_a_units_date_and_its_proximity_point(db, occurred_start, occurred_end, mentioned_at, date, proximity_point):
    db.execute("SET TimeZone = 'UTC'")
    got = db.execute(
        "SELECT hindsight._effective_date(%(s)s, %(e)s, %(m)s) IS NOT DISTINCT FROM %(d)s::timestamptz,"
        " hindsight._best_date(%(s)s, %(e)s, %(m)s) IS NOT DISTINCT FROM %(p)s::timestamptz",
        {"s": occurred_start, "e": occurred_end, "m": mentioned_at, "d": date, "p": proximity_point},
    ).fetchone()
    assert got == (True, True)


def test_recency_and_the_timeline_date_a_unit_known_only_to_end_by_that_end(db):
    """A unit about a time that ended (occurred_end alone) ages from that end, not from when it was said, and
    the bank's first and last dates count it there."""
    bank(db, "ended")
    unit = {"text": "The lease ran until March 2020.", "embedding": vec(d0=1), "occurred_end": "2020-03-31T23:59:59Z",
            "mentioned_at": "2024-06-01T00:00:00Z"}  # fmt: skip
    put(db, "ended", [unit])
    (recency,) = db.execute(
        "SELECT hindsight._recency(occurred_start, occurred_end, mentioned_at, '2024-06-01'::timestamptz)"
        " FROM hindsight.memory_units WHERE bank_id = 'ended'"
    ).fetchone()
    assert recency == pytest.approx(0.1)  # four years before: the linear floor (from the mention it would be 1.0)
    (first, last) = db.execute(
        "SELECT first_date, last_date FROM hindsight.bank_stats WHERE bank_id = 'ended'"
    ).fetchone()
    assert first == last and first.year == 2020
