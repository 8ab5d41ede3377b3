"""Calendar arithmetic for query analysis: whole-day spans, weeks, months, quarters, seasons, parts.

Conventions (docs/temporal.md): weeks run Monday to Sunday; seasons are meteorological
(northern: spring March-May, summer June-August, autumn September-November, winter
December-February; the southern hemisphere swaps them); parts of a period are thirds
(days 1-10 / 11-20 / 21-end of a month, January-April / May-August / September-December of a
year, the months of a season or quarter, Monday-Tuesday / Wednesday-Thursday / Friday-Sunday of a
week).
"""

from __future__ import annotations

import calendar
from dataclasses import dataclass, replace
from datetime import date, datetime, time, timedelta

DAY = timedelta(days=1)
OPEN_YEARS = 10  # how far "before X" / "until X" reach back, and "after a future X" forward


@dataclass(frozen=True)
class Span:
    """Whole days, both ends included; ``until_now``: the window closes at the reference instant
    (an open end such as "since January"), ``end`` being the reference day."""

    start: date
    end: date
    until_now: bool = False

    @property
    def days(self) -> int:
        return (self.end - self.start).days + 1


def day(d: date) -> Span:
    return Span(d, d)


def shift(d: date, unit: str, n: float, hour: int = 12) -> date | None:
    """``d`` moved by ``n`` units (negative: back): hour, day, week (weekend), fortnight, month, quarter,
    halfyear, year; hours count from ``hour`` o'clock; half a month is 15 days, half a year six months
    (1.5 years: 18 months; 1.5 weeks: 10 days).
    None out of the calendar's range."""
    try:
        if unit == "hour":
            return (datetime.combine(d, time(hour)) + timedelta(hours=n)).date()
        if unit in ("day", "week", "weekend", "fortnight"):  # a fraction of a day is dropped: 1.5 weeks = 10 days
            return d + timedelta(days=int({"day": 1, "fortnight": 14}.get(unit, 7) * n))
        if unit == "month" and n != int(n):  # 1.5 months: a month and fifteen days
            return add_months(d, int(n)) + timedelta(days=15 if n > 0 else -15)
        months = {"month": 1, "quarter": 3, "halfyear": 6, "decade": 120}.get(unit, 12)
        return add_months(d, int(months * n))
    except (ValueError, OverflowError):
        return None


def between(start: date | None, end: date | None, until_now: bool = False) -> Span | None:
    """[start, end], or None when an end is missing or the span would run backwards."""
    return Span(start, end, until_now) if start is not None and end is not None and start <= end else None


def make_date(year: int, month: int, day_number: int) -> date | None:
    """The date, or None when there is none (30 February, the year 0)."""
    try:
        return date(year, month, day_number)
    except ValueError:
        return None


def month_span(year: int, month: int) -> Span:
    return Span(date(year, month, 1), date(year, month, calendar.monthrange(year, month)[1]))


def year_span(year: int) -> Span:
    return Span(date(year, 1, 1), date(year, 12, 31))


def week_span(any_day: date, weeks: int = 0) -> Span:
    """The Monday-to-Sunday week of ``any_day``, shifted by ``weeks``."""
    monday = any_day - timedelta(days=any_day.weekday()) + timedelta(weeks=weeks)
    return Span(monday, monday + 6 * DAY)


def iso_week(year: int, week: int) -> Span | None:
    """ISO week ``week`` of ``year`` (Monday to Sunday), or None when the year has no such week."""
    try:
        monday = date.fromisocalendar(year, week, 1)
    except ValueError:
        return None
    return Span(monday, monday + 6 * DAY)


def weekend_span(any_day: date, weeks: int = 0) -> Span:
    """Saturday and Sunday of the week of ``any_day``, shifted by ``weeks``."""
    saturday = week_span(any_day, weeks).start + 5 * DAY
    return Span(saturday, saturday + DAY)


def relative_period(unit: str, d: date, shift: int) -> Span:
    """The week, weekend, month, quarter or year ``shift`` periods from the one holding ``d``: 0 this
    one, -1 the previous ("last week", and "last weekend": the most recent Saturday-Sunday that has
    ended), 1 the next."""
    if unit == "week":
        return week_span(d, shift)
    if unit == "weekend":
        return weekend_span(d, shift)
    if unit == "month":
        return shift_month(d, shift)
    if unit == "quarter":
        return shift_quarter(d, shift)
    return year_span(d.year + shift)


def seen_from(unit: str, d: date, direction: int) -> Span:
    """The period of ``unit`` just before (``direction`` -1) or just after (+1) the day ``d``: the
    calendar week / month / quarter / year before or after d's, the weekend that ended before d or
    the first one that starts after it ("the weekend after Christmas")."""
    if unit == "weekend" and direction > 0:
        this = weekend_span(d)
        return this if this.start > d else weekend_span(d, 1)
    return relative_period(unit, d, direction)


def add_months(d: date, months: int) -> date:
    """``d`` moved by whole months, the day clipped to the month's length (31 March - 1 month = 28/29 Feb)."""
    index = d.year * 12 + d.month - 1 + months
    year, month = divmod(index, 12)
    return date(year, month + 1, min(d.day, calendar.monthrange(year, month + 1)[1]))


def add_years(d: date, years: int) -> date:
    return add_months(d, 12 * years)


def shift_month(today: date, months: int) -> Span:
    first = add_months(today.replace(day=1), months)
    return month_span(first.year, first.month)


def quarter_span(year: int, quarter: int) -> Span:
    return Span(date(year, 3 * quarter - 2, 1), month_span(year, 3 * quarter).end)


def shift_quarter(today: date, quarters: int) -> Span:
    index = today.year * 4 + (today.month - 1) // 3 + quarters
    return quarter_span(index // 4, index % 4 + 1)


SEASON_MONTHS = {"north": {"spring": 3, "summer": 6, "autumn": 9, "winter": 12},
                 "south": {"autumn": 3, "winter": 6, "spring": 9, "summer": 12}}  # fmt: skip


def season_span(season: str, start_year: int, hemisphere: str) -> Span:
    """The season that starts in ``start_year`` (a December season runs into the next year)."""
    start = date(start_year, SEASON_MONTHS[hemisphere][season], 1)
    last = add_months(start, 2)
    return Span(start, month_span(last.year, last.month).end)


def season_of_year(season: str, year: int, hemisphere: str) -> Span:
    """ "summer 2023": that year's; a December season is the one that holds January of ``year``."""
    first = SEASON_MONTHS[hemisphere][season]
    return season_span(season, year - 1 if first == 12 else year, hemisphere)


def season_relative(season: str, today: date, hemisphere: str, which: str) -> Span:
    """last: the most recent that has ended; next: the first to start after today; bare: the most
    recent that has started; this: the one holding today, else the nearest."""
    candidates = [season_span(season, y, hemisphere) for y in range(today.year - 2, today.year + 2)]
    if which == "last":
        return max((s for s in candidates if s.end < today), key=lambda s: s.end)
    if which == "next":
        return min((s for s in candidates if s.start > today), key=lambda s: s.start)
    if which == "bare":
        return max((s for s in candidates if s.start <= today), key=lambda s: s.start)
    return min(
        candidates,
        key=lambda s: 0 if s.start <= today <= s.end else min(abs((s.start - today).days), abs((today - s.end).days)),
    )


def weekday_relative(weekday: int, today: date, which: str) -> date:
    """last: strictly before today; this / next: that day of this / next week; bare: the most recent,
    today included."""
    if which == "last":
        return today - timedelta(days=(today.weekday() - weekday - 1) % 7 + 1)
    if which == "this":
        return week_span(today).start + timedelta(days=weekday)
    if which == "next":
        return week_span(today, 1).start + timedelta(days=weekday)
    return today - timedelta(days=(today.weekday() - weekday) % 7)


def weekday_next(weekday: int, d: date, direction: int) -> date:
    """The first ``weekday`` strictly before (``direction`` -1) or strictly after (+1) the day ``d``."""
    if direction < 0:
        return weekday_relative(weekday, d, "last")
    return d + timedelta(days=(weekday - d.weekday() - 1) % 7 + 1)


def weekday_seen_from(weekday: int, d: date, direction: int) -> Span:
    """ "the Sunday before October 25" / "the Monday after Easter": that weekday's day."""
    return day(weekday_next(weekday, d, direction))


def month_relative(month: int, today: date, which: str) -> Span:
    """last: the most recent that has ended; this: this year's; next: the first after today; bare: the
    most recent that has started."""
    if which == "last":
        return month_span(today.year if month < today.month else today.year - 1, month)
    if which == "this":
        return month_span(today.year, month)
    if which == "next":
        return month_span(today.year if month > today.month else today.year + 1, month)
    return month_span(today.year if month <= today.month else today.year - 1, month)


def day_of_month_recent(month: int, day_number: int, today: date) -> date | None:
    """The most recent ``day_number`` of ``month``, today included; None for 30 February and the like
    (29 February: the most recent leap year's)."""
    for year in range(today.year, today.year - 9, -1):
        try:
            found = date(year, month, day_number)
        except ValueError:
            if month == 2 and day_number == 29:
                continue
            return None
        if found <= today:
            return found
    return None


def open_before(span: Span, today: date, inclusive: bool) -> Span:
    """ "before X" (``inclusive`` False) / "until X" (True): from ten years before X begins, or from
    today when X lies in the future (or, for "until", has begun and not ended), to the day before X / X's
    last day."""
    end = span.end if inclusive else span.start - DAY
    ongoing = inclusive and span.start < today <= span.end  # "until the end of the year", asked in November
    start = today if span.start > today or ongoing else add_years(span.start, -OPEN_YEARS)
    return Span(start, max(start, end))


def open_after(span: Span, today: date, inclusive: bool) -> Span:
    """ "since X" (``inclusive`` True) / "after X" (False): from X's first day / the day after X to the
    reference instant; after a future X, ten years on."""
    start = span.start if inclusive else span.end + DAY
    if start > today:
        return span if inclusive else Span(start, add_years(start, OPEN_YEARS))
    return Span(start, today, until_now=True)


def apply_part(span: Span, kind: str, part: str) -> Span | None:
    """The ``part`` of ``span`` (a period of ``kind`` month, year, season or quarter), or None when the
    part does not apply to that kind (the period is then kept whole by the caller)."""
    if part in ("weekend 1", "weekend last") and kind == "month":  # its first / last Saturday and the Sunday after
        if part == "weekend 1":
            saturday = span.start + timedelta(days=(5 - span.start.weekday()) % 7)
        else:
            saturday = span.end - timedelta(days=(span.end.weekday() - 5) % 7)
        return Span(saturday, saturday + DAY)
    if part == "week of":  # "the week of March 3": the Monday-to-Sunday week holding that day
        return week_span(span.start) if kind in ("day", "holiday") and span.days == 1 else None
    if part.endswith(" days") and kind in ("month", "year", "season", "quarter", "week"):
        # "the last days of October" (a plural with no number counts five), "the first couple of days of June"
        which, count, _ = part.split(" ")
        n = min(int(count), span.days)
        if which == "first":
            return Span(span.start, span.start + (n - 1) * DAY)
        return Span(span.end - (n - 1) * DAY, span.end)
    if part == "first day":
        return day(span.start)
    if part == "last day":
        return day(span.end)
    if kind == "month":
        last = span.end.day
        days = {"early": (1, 10), "mid": (11, 20), "late": (21, last), "first half": (1, 15),
                "second half": (16, last), "week 1": (1, 7), "week 2": (8, 14), "week 3": (15, 21),
                "week 4": (22, 28), "week last": (last - 6, last)}.get(part)  # fmt: skip
        if days is None:
            return None
        return Span(span.start.replace(day=days[0]), span.start.replace(day=days[1]))
    if kind == "year":
        months = {"early": (1, 4), "mid": (5, 8), "late": (9, 12), "first half": (1, 6),
                  "second half": (7, 12)}.get(part)  # fmt: skip
        if months is None:
            return None
        return Span(date(span.start.year, months[0], 1), month_span(span.start.year, months[1]).end)
    if kind == "week":  # early: Monday-Tuesday, mid: Wednesday-Thursday, late: Friday-Sunday
        days = {"early": (0, 1), "mid": (2, 3), "late": (4, 6)}.get(part)
        if days is None:
            return None
        return Span(span.start + days[0] * DAY, span.start + days[1] * DAY)
    if kind in ("season", "quarter"):
        index = {"early": 0, "mid": 1, "late": 2}.get(part)
        if index is None:
            return None
        first = add_months(span.start, index)
        return month_span(first.year, first.month)
    return None


def widen(span: Span, days: int = 3, at_most: int = 7) -> Span:
    """ "around X": a window of at most ``at_most`` days, ``days`` more on each side."""
    if span.days > at_most:
        return span
    return replace(span, start=span.start - days * DAY, end=span.end + days * DAY)
