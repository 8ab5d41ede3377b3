"""A second, independent set of query analysis cases: one module per language, each a list ``CASES``.

Who wrote it and how: an engineer who had not read the analyzer (plpython/hindsight_pl/temporal/) nor
the first tables (tests/unit/temporal_cases/, whose ``Case`` type and reference this package reuses)
wrote every question and its window by hand, from docs/temporal.md ("Conventions") and from what a
careful speaker of the language means; every date was checked with Python's ``datetime``. Questions
that stay honestly ambiguous under the conventions (two readings a day or more apart) were left out.
The set exists to measure the analyzer, not to tune it: a case is not changed because the analyzer
disagrees, only when the conventions or the language say it is wrong.

The reference instant, unless a case gives its own day, is Saturday 2025-11-01 12:00 UTC (time zone
UTC, northern hemisphere), as in ``temporal_cases``. Other reference days (``Case.reference``, still
12:00 UTC) put questions on a Monday to Thursday (the weekend, a coming weekday) or across the turn of
the year (asked Saturday 2026-01-03 or Tuesday 2026-01-06).

Shape of a case: ``Case(cls, query, start, end, reference=None)``: ``start`` / ``end`` ISO days, both
included; ``end`` may be ``"now"`` (the window closes at the reference instant); both None when the
question has no time constraint.
"""

from __future__ import annotations

import importlib

from temporal_cases import REFERENCE_DAY, REFERENCE_HOUR, Case

__all__ = ["CLASSES", "LANGUAGES", "REFERENCE_DAY", "REFERENCE_HOUR", "Case", "load"]

CLASSES = (
    # everyday forms, the classes of temporal_cases
    "basics",  # yesterday, last week, in May, N days ago, next Friday, a numeric date, a year
    "ranges",  # between X and Y, from X to Y, X-Y, a range of weekdays
    "open ends",  # since / after / before / until X, so far this year, later this month
    "durations",  # the past / next N units, within N days, the last N hours
    "parts of periods",  # early / mid / late X, the first week of X, ISO week N, 月初, 上旬
    "relative chains",  # the day before yesterday, the week after next, two Thursdays ago
    "seasons and quarters",  # with a year or relative; one southern-hemisphere case
    "times of day",  # this morning, last night, Thursday afternoon: whole days
    "holidays",  # Christmas, Easter, 春节, 国庆, Ferragosto, День Победы
    "names and non-dates",  # no window: names, room numbers, "spring roll", greetings
    "turn of year",  # asked 2026-01-03 / 2026-01-06: "in December" is last December, "last week" across years
    # forms the analyzer is known to be weak on, in English and the other European languages (and Japanese)
    "future weekday",  # "what are we doing on Friday?": the coming Friday, not the last one
    "same date last year",  # "this time last year", "a year ago today": the same day a year (or N) back
    "week of",  # "the week of March 10": the Monday..Sunday holding that day
    "last days of month",  # "the last days of October": the docs' "late" (day 21 to the last)
    "relative year quarter",  # "Q2 of last year", "the last quarter of next year"
    "fractional durations",  # "a year and a half ago", "eighteen months ago": that single day
    "two-digit years",  # "in '19", "summer of '22", "el verano del 22"
    "generic weekday",  # "never on a Friday", "Friday Night Lights": none; "Black Friday": the holiday
    "de past weekend",  # German past-tense weekend questions, asked on a Saturday or early in the week
    # forms the analyzer is known to be weak on, in Chinese
    "zh relative month day",  # 上个月3号, 下个月15日: a day of a relative month
    "zh relative week weekday",  # 上周星期一, 下周三, 这周五: a weekday of a relative week
    "zh week after next/before last",  # 大下周, 大上周, 下下周, 上上周 (and their weekdays, weekends)
    "zh same day other year",  # 明年今日, 去年本日, 去年的今天
    "zh fractional",  # 一年半前, 两个半月前, 两年半后 (a future single day), 半年前
    "zh last n days",  # 前三天, 最近五天, 过去两周: durations that end now
    "zh joined days",  # 明后天, 今明两天, 周六日, 昨天和前天: two days joined into one window
    "zh weekday range",  # 周五到周一, 周一至周三
    "zh colloquial numbers",  # 俩月前, 仨星期前, 两三天前 (a range), 一两周前
    "zh relative year quarter",  # 上一年度第二季度, 去年第四季度, 今年一季度, 上上季度
    "zh not a date",  # 周杰伦 is a name, 后天免疫 is not "the day after tomorrow", 上海 is not 上
)

LANGUAGES = ("en", "de", "fr", "es", "it", "ru", "zh", "ja")


def load(language: str) -> list[Case]:
    """The cases of one language (a module of this package), e.g. ``load("zh")``.

    Raises ModuleNotFoundError for a language that has no module here.
    """
    module = importlib.import_module(f"{__name__}.{language}")
    cases: list[Case] = module.CASES
    return cases
