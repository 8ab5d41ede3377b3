"""Query analysis test tables: one module per language, each a list ``CASES`` of :class:`Case`.

Every expected window was written by hand from the conventions in docs/temporal.md ("Conventions"),
not produced by the analyzer. The reference instant, unless a case gives its own day, is
Saturday 2025-11-01 12:00 UTC (time zone UTC, northern hemisphere).

tests/unit/test_temporal_tables.py runs them; bench/temporal.py reports the pass rate per language
and class, and the parse time per class.
"""

from __future__ import annotations

import importlib
from datetime import date
from typing import NamedTuple

REFERENCE_DAY = date(2025, 11, 1)  # a Saturday; the instant is 12:00 UTC
REFERENCE_HOUR = 12

CLASSES = (
    "ranges",  # between X and Y, from X to Y, X-Y
    "open ends",  # since / after / before / until X, so far this year, earlier this month
    "durations",  # the past / last / next N units, over the last N hours, the past year
    "parts of periods",  # early / mid / late X, first half of X, the first week of X, week N
    "relative chains",  # the day before yesterday, the week before last, two Tuesdays ago
    "seasons and quarters",  # with an explicit year, or relative
    "times of day",  # this morning, tonight, last night: whole days
    "holidays",  # Christmas, New Year's Eve, Easter, 春节, 国庆
    "names and non-dates",  # no window: names, numbers, words that look like dates
    "basics",  # the forms of the first pass: yesterday, last week, N days ago, in May, 2024年3月
    # added in the third pass, fewer cases each:
    "anchored days",  # a day of a relative month or week, the same date another year, the week of X, Tuesday May 6
    "fractional amounts",  # a year and a half ago, 一个半月前, полтора года назад, 俩月前
    "joined days",  # 明后天, 今明两天, 周六日, 昨天和前天, 下周一和周二
    "future and generic weekdays",  # what are we doing on Friday, never on a Friday, am Wochenende
)
# the classes each language needs a minimum of cases in (test_temporal_tables): those of the first passes
CORE_CLASSES = CLASSES[:10]

LANGUAGES = ("en", "de", "fr", "es", "it", "ru", "zh", "ja")


class Case(NamedTuple):
    """One query and the window a user means.

    ``start`` / ``end``: ISO days, both included; ``end`` may be ``"now"`` (the window closes at the
    reference instant); both None when the query has no time constraint. ``reference``: an ISO day
    when the case needs another reference day (still 12:00 UTC).
    """

    cls: str
    query: str
    start: str | None
    end: str | None
    reference: str | None = None
    hemisphere: str = "north"


def load(language: str) -> list[Case]:
    """The cases of one language (a module of this package)."""
    module = importlib.import_module(f"{__name__}.{language}")
    cases: list[Case] = module.CASES
    return cases
