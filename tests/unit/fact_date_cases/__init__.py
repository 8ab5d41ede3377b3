"""Fact dating test table: sentences as people say them, the instant they were said, and the days they mean.

Written by hand for this project, from what a careful reader means, by someone who did not read the extractor's
dating code (``plpython/hindsight_pl/temporal/``, ``plpython/hindsight_pl/extract.py``, ``sentences.py``) or its
tests. Each case is
one chat message that holds at most one time expression dating its event, the instant it was said, and the days the
event covers. Honestly ambiguous sentences were left out rather than guessed ("next Friday" said on a Tuesday, "last
weekend" said on a Sunday, "we're moving in June" said in June, Spanish "nos mudamos" that is present and past).

Conventions (those of docs/temporal.md, read for a statement rather than a question):

- ``said`` is an ISO date, meaning 12:00 UTC that day, or an ISO datetime with its offset. Days are read in the
  speaker's calendar: the offset's local date for a datetime (said 2026-01-01T00:40+09:00, "yesterday" is
  2025-12-31), the UTC date for a plain date.
- ``start`` and ``end`` are ISO days, both included: a single day has start == end; a month is its first to its last
  day; a year is 01-01..12-31.
- Weeks run Monday to Sunday; a weekend is Saturday and Sunday. "next week" is the calendar week after the said
  day's, "last month" the calendar month before.
- Tense decides the direction of a yearless date, a month, a weekday, a day of the month, a season or a holiday:
  said about the future (will, is, starts, is due, "see you ..."), the first one after the said day; said about the
  past, the most recent one before it. The tense of the event's own verb counts, not that of another clause ("Hired
  Emma, she starts January 4").
- A month and day with a weekday: the month and day win, even where the weekday contradicts them.
- "in N days / weeks", "N days / weeks ago" are single days (the said day plus or minus N days or 7N days).
- Seasons are meteorological, northern hemisphere: spring March-May, summer June-August, autumn September-November,
  winter December-February. A holiday is its day (Christmas 12-25, Christmas Eve 12-24, New Year's Eve 12-31);
  movable ones as the ``holidays`` package and dateutil's Easter give them.
- (None, None): the message dates nothing: no time expression, numbers or names that are not dates, a habitual or
  generic statement ("every Monday", "on weekends").

How it is used: ``tests/unit/test_fact_dates.py`` runs the extractor on each case's ``text`` with ``said`` as the
instant and compares the days it dates the fact with ``start`` .. ``end``; ``cases(language)`` gives a language's
cases, ``CLASSES`` and ``LANGUAGES`` the names the cases use.
"""

from __future__ import annotations

import importlib
from typing import NamedTuple


class FactCase(NamedTuple):
    """One message and the days its event covers.

    cls: the class below; said: ISO date (the instant is 12:00 UTC that day) or ISO datetime with offset;
    text: one message; start/end: ISO days the message's event covers, both included (None, None: the message
    dates nothing: no time expression, a habitual statement, a generic weekday).
    """

    cls: str
    said: str
    text: str
    start: str | None
    end: str | None


CLASSES = (
    "yearless future",  # a month and day or a month, no year, of an event to come: the next one after said
    "yearless past",  # the same of an event that happened: the most recent one before said
    "weekday future",  # a bare weekday of an event to come: the first such day after said
    "weekday past",  # a bare weekday of an event that happened: the most recent such day before said
    "weekday and date",  # a weekday with a month and day (or a day of the month): the date wins, even contradicted
    "weekend",  # this / last / next weekend, over the weekend: a Saturday..Sunday pair
    "habitual",  # every Monday, on weekends, usually on Sundays: no date
    "relative",  # yesterday, tomorrow, N days ago, in N weeks, next week, last month, next / last weekday, tonight
    "explicit",  # a full date with a year, an ISO date, a month with a year, a year
    "no date",  # no time expression, or numbers and names that are not dates
    "day of month",  # "on the 15th": the said month's if it fits the tense, else the next or previous month's
    "season and holiday",  # this summer, last winter, Christmas Day, Easter Monday, Thanksgiving, 春节
    "future in a past sentence",  # a yearless date in a past or perfect sentence: the dated event's own tense decides
    "moved dates",  # moved from A to B, rescheduled for B, now on the 14th, moved to Friday: the new date B
    "start date",  # start date March 2, first day is April 1, 入职日期: a single day, the next one after said
)

LANGUAGES = ("en", "de", "fr", "es", "it", "zh")


def cases(language: str) -> list[FactCase]:
    """The cases of ``language`` (one of ``LANGUAGES``), in table order.

    Raises ValueError for a language with no module here.
    """
    if language not in LANGUAGES:
        raise ValueError(f"no fact dating cases for language {language!r}; known: {', '.join(LANGUAGES)}")
    module = importlib.import_module(f"{__name__}.{language}")
    return list(module.CASES)
