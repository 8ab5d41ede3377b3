"""The inspector's timeline: every week, month or year of a bank's units on a time axis, the empty ones too, with
the axis's ticks (docs/ui.md, "A bank's timeline")."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, date, datetime, timedelta
from typing import Any

from .._errors import InvalidInputError


def period_start(day: date, grain: str) -> date:
    """The first day of the week (Monday), month or year that holds ``day``."""
    if grain == "week":
        return day - timedelta(days=day.weekday())
    return day.replace(day=1) if grain == "month" else day.replace(month=1, day=1)


def period_end(start: date, grain: str) -> date:
    """The last day of the week, month or year that starts on ``start``."""
    if grain == "week":
        return start + timedelta(days=6) if start < date.max - timedelta(days=6) else date.max
    if grain == "year" or start.month == 12:
        return start.replace(month=12, day=31)
    return date(start.year, start.month + 1, 1) - timedelta(days=1)


# The time axis's ticks: every period over a short span, then the first period of each month, quarter, year, five,
# twenty-five or a hundred years as the span grows (up to the number of periods on the left): 10 to 40 labels.
TICKS = {
    "week": [(15, "week"), (70, "month"), (210, "quarter"), (780, "year"), (None, "5 years")],
    "month": [(15, "month"), (48, "quarter"), (180, "year"), (None, "5 years")],
    "year": [(30, "year"), (150, "5 years"), (750, "25 years"), (None, "100 years")],
}
YEARS = {"year": 1, "5 years": 5, "25 years": 25, "100 years": 100}
MAX_PERIODS = 600  # a span of more weeks or months than this is charted by year


def _group(unit: str, day: date) -> tuple[int, int]:
    """The month, quarter or run of years (a ``unit`` of TICKS) that ``day`` falls in."""
    if unit == "month":
        return day.year, day.month
    if unit == "quarter":
        return day.year, (day.month - 1) // 3
    return day.year // YEARS[unit], 0


def _tick(day: date, grain: str, unit: str, first: bool) -> str | None:
    """The axis label of the period starting on ``day`` (a week's Monday, a month's or a year's first day), or
    None between ticks; the year is written at the first label and at each January."""
    if unit != grain:  # the first period of each month, quarter or run of years
        previous = period_start(day - timedelta(days=1), grain) if day > date.min else day
        if previous != day and _group(unit, previous) == _group(unit, day):
            return None
    if grain == "year" or unit in ("year", "5 years"):
        return str(day.year)
    year = f" {day.year}" if first or (day.month == 1 and day.day <= 7) else ""
    return f"{day:%b} {day.day}{year}" if unit == "week" else f"{day:%b}{year}"


def _span(first: date, last: date, grain: str) -> int:
    """How many weeks, months or years run from the one starting on ``first`` to the one starting on ``last``."""
    if grain == "week":
        return (last - first).days // 7 + 1
    months = (last.year - first.year) * 12 + last.month - first.month + 1
    return months if grain == "month" else last.year - first.year + 1


def chart(counts: Sequence[tuple[date, int]], grain: str, start: date | None, end: date | None,
             zoom: bool = False) -> tuple[str, list[dict[str, Any]]]:  # fmt: skip
    """Every week or month from the first of ``counts`` ((first day, units), ascending) to the last, the empty
    ones too, or with ``zoom`` those of the chosen range ``start`` to ``end`` (either may be None); every year
    instead when they would be more than MAX_PERIODS. Returns that grain and, per period, its first and last
    day, its units, its axis label (:func:`_tick`, None between ticks) and whether it meets the chosen range
    (False when none is chosen, or zoomed to it)."""
    if not counts and not (zoom and start and end):
        return grain, []
    first = period_start(start, grain) if zoom and start else counts[0][0]
    last = period_start(end, grain) if zoom and end else counts[-1][0]
    if _span(first, last, grain) > MAX_PERIODS:
        grain, first, last = "year", first.replace(month=1, day=1), last.replace(month=1, day=1)
        years: dict[date, int] = {}
        for day, n in counts:
            years[day.replace(month=1, day=1)] = years.get(day.replace(month=1, day=1), 0) + n
        counts = sorted(years.items())
        if zoom and _span(first, last, grain) > MAX_PERIODS:
            raise InvalidInputError(f"a range charted alone spans at most {MAX_PERIODS} years")
    units = dict(counts)
    unit = next(u for most, u in TICKS[grain] if most is None or _span(first, last, grain) <= most)
    periods, day, labelled = [], first, False
    while day <= last:
        end_day = period_end(day, grain)
        label = _tick(day, grain, unit, not labelled)
        labelled = labelled or label is not None
        chosen = not zoom and bool(start or end) and (start is None or end_day >= start) and (end is None or day <= end)
        periods.append({"start": day, "end": end_day, "units": units.get(day, 0), "tick": label, "chosen": chosen})
        if end_day == date.max:
            break
        day = end_day + timedelta(days=1)
    return grain, periods


def midnight(day: date, last: bool = False) -> datetime:
    moment = datetime(day.year, day.month, day.day, tzinfo=UTC)
    return moment.replace(hour=23, minute=59, second=59, microsecond=999999) if last else moment
