"""The one rule every interface follows to show a memory unit's dates (hindsight_pg._types.describe_when)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone
from zoneinfo import ZoneInfoNotFoundError

import pytest

from hindsight_pg._types import describe_when


def day_window(first: str, last: str, zone: timezone = UTC) -> tuple[datetime, datetime]:
    """The window retain stores for days ``first``..``last``: 00:00 of the first to 23:59:59.999999 of the last."""
    start = datetime.fromisoformat(first).replace(tzinfo=zone)
    end = datetime.fromisoformat(last).replace(tzinfo=zone) + timedelta(days=1, microseconds=-1)
    return start, end


SAID = datetime(2025, 2, 26, 14, 5, tzinfo=UTC)


@pytest.mark.parametrize(
    ("first", "last", "expected"),
    [
        ("2025-04-01", "2025-04-01", "said 2025-02-26, about 2025-04-01"),  # another day
        ("2025-02-26", "2025-02-26", "2025-02-26"),  # the day it was said: one date
        ("2025-02-25", "2025-02-26", "said 2025-02-26, about 2025-02-25..2025-02-26"),  # a span holding that day
        ("2025-11-28", "2025-11-29", "said 2025-02-26, about 2025-11-28..2025-11-29"),
        ("2025-10-01", "2025-10-31", "said 2025-02-26, about 2025-10"),  # a whole month
        ("2024-02-01", "2024-02-29", "said 2025-02-26, about 2024-02"),  # a leap February is whole
        ("2024-02-01", "2024-02-28", "said 2025-02-26, about 2024-02-01..2024-02-28"),  # one day short
        ("2025-03-01", "2025-05-31", "said 2025-02-26, about 2025-03..2025-05"),  # whole months
        ("2024-12-01", "2025-02-28", "said 2025-02-26, about 2024-12..2025-02"),  # a winter
        ("2024-01-01", "2024-12-31", "said 2025-02-26, about 2024"),  # a whole year
        ("1990-01-01", "1999-12-31", "said 2025-02-26, about 1990..1999"),  # a decade
        ("2024-01-02", "2024-12-31", "said 2025-02-26, about 2024-01-02..2024-12-31"),
    ],
)
def test_said_and_about(first, last, expected):
    assert describe_when(SAID, *day_window(first, last)) == expected


def test_undated_and_unsaid_units():
    assert describe_when(SAID, None, None) == "said 2025-02-26"
    assert describe_when(None, *day_window("2025-04-01", "2025-04-01")) == "about 2025-04-01"
    assert describe_when(None, None, None) == "undated"
    # one end alone stands for both (as hindsight._time_span reads it)
    assert describe_when(SAID, datetime(2025, 4, 1, tzinfo=UTC), None) == "said 2025-02-26, about 2025-04-01"
    assert describe_when(SAID, None, datetime(2025, 2, 26, 23, tzinfo=UTC)) == "2025-02-26"


def test_days_are_the_banks_time_zone_days():
    # 03:00 UTC on the 13th is still the 12th in Los Angeles (UTC-8 in January)
    said = datetime(2025, 1, 13, 3, 0, tzinfo=UTC)
    assert describe_when(said, None, None) == "said 2025-01-13"
    assert describe_when(said, None, None, "America/Los_Angeles") == "said 2025-01-12"
    # a day window retain made in Los Angeles is that one day there, two days in UTC
    pst = timezone(timedelta(hours=-8))
    window = day_window("2025-01-12", "2025-01-12", pst)
    assert describe_when(said, *window, "America/Los_Angeles") == "2025-01-12"
    assert describe_when(said, *window) == "said 2025-01-13, about 2025-01-12..2025-01-13"
    assert describe_when(said, *window, pst) == "2025-01-12"  # a tzinfo works as well as a name


def test_naive_datetimes_are_utc():
    naive = datetime(2025, 1, 13, 3, 0)
    assert describe_when(naive, None, None, "America/Los_Angeles") == "said 2025-01-12"
    assert describe_when(naive, naive, naive) == "2025-01-13"


def test_an_unknown_zone_is_an_error():
    with pytest.raises(ZoneInfoNotFoundError):
        describe_when(SAID, None, None, "Mars/Olympus_Mons")
