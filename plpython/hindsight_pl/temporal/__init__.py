"""Query analysis: the date window a question talks about.

``analyze(query, today)`` returns the whole days a question's time expressions cover ("last week"
-> the previous Monday to Sunday, "since January" -> 1 January up to the reference instant), or
None when the question has no time constraint. ``parse_temporal`` wraps it with a reference instant
and a time zone and returns aware datetimes.

How: a language's grammar finds the atoms (``european.py`` for English, German, French, Spanish,
Italian and Russian; ``chinese.py`` for Chinese and Japanese's common forms), ``grammar.py``
combines them (parts of periods, "around", ranges, open ends) and picks the window; dateparser is the
fallback for a question with a date signal no rule took, imported only then. The vocabulary is in
``words.py``, holidays in ``named_days.py``, calendar arithmetic in ``dates.py``. Every rule and
convention: docs/temporal.md.
"""

from __future__ import annotations

import functools
import re
import zoneinfo
from collections.abc import Callable
from datetime import date, datetime, time, timedelta, timezone
from typing import Any
from zoneinfo import ZoneInfo

from . import chinese, european
from .dates import SEASON_MONTHS, Span
from .grammar import Found, window
from .words import MONTH_NAMES, SEASON_NAMES, TODAY, TOMORROW, WEEKDAY_NAMES, YESTERDAY

__all__ = ["MONTH_NAMES", "SEASON_NAMES", "TODAY", "TOMORROW", "WEEKDAY_NAMES", "YESTERDAY", "Span", "analyze",
           "parse_temporal", "zone"]  # fmt: skip

# re-reads the atoms found in a text (text, atoms, reference day) -> atoms: see analyze
Reading = Callable[[str, list[Found], date], list[Found]]


def analyze(
    query: str, today: date, hemisphere: str = "north", hour: int = 12, reading: Reading | None = None
) -> Span | None:
    """The days ``query`` talks about, seen from ``today`` (``hour``: the reference hour, for "the last 5
    hours"), or None. Never raises for odd dates: arithmetic that leaves the years 1..9999 means no
    window. Raises ``ValueError`` for a hemisphere other than north or south.

    ``reading`` re-reads the atoms a grammar found before they are combined: ``reading(text, atoms,
    today)`` -> the atoms to combine (``facts.read_statement`` reads a statement, not a question)."""
    hemisphere = str(hemisphere).strip().lower()
    if hemisphere not in SEASON_MONTHS:
        raise ValueError(f"hemisphere must be north or south, got {hemisphere!r}")
    try:
        if chinese.has_cjk(query):
            text, found = chinese.atoms(query, today, hour, hemisphere)
            found = reading(text, found, today) if reading else found
            span = window(text, found, chinese.RULES, today)
            if span is not None or chinese.blocks_fallback(query):
                return span
        text, found = european.atoms(query, today, hour, hemisphere)
        found = reading(text, found, today) if reading else found
        span = window(text, found, european.RULES, today)
        if span is not None or found:
            return span
        return _dateparser(text, today)
    except (OverflowError, ValueError):
        return None


def parse_temporal(
    query: str,
    reference: datetime,
    time_zone: str = "UTC",
    hemisphere: str = "north",
    reading: Reading | None = None,
) -> tuple[datetime, datetime] | None:
    """The window of ``query`` as aware datetimes in ``time_zone``: 00:00 of the first day to
    23:59:59.999999 of the last, or to ``reference`` itself for an open end ("since January", "the past
    three months"), with days counted from ``reference`` seen in that zone (naive means UTC).

    None when the query has no time constraint. Raises ``ValueError`` for an unknown time zone or
    hemisphere; any other failure inside the analysis means None. ``reading``: as in :func:`analyze`.
    """
    where = zone(time_zone)
    if reference.tzinfo is None:
        reference = reference.replace(tzinfo=ZoneInfo("UTC"))
    local = reference.astimezone(where)
    span = analyze(query, local.date(), hemisphere, local.hour, reading)
    if span is None:
        return None
    start = datetime.combine(span.start, time.min, where)
    end = local if span.until_now else datetime.combine(span.end, time.max, where)
    return start, end


def zone(name: str) -> Any:
    """An IANA zone by its name in any case ("utc", "europe/berlin", as PostgreSQL takes them), or a fixed
    offset written +02:00, -0530, UTC+2."""
    offset = re.fullmatch(r"(?:utc|gmt)?\s*([+-])(\d{1,2})(?::?(\d{2}))?", str(name).strip().lower())
    if offset:
        hours, minutes = int(offset[2]), int(offset[3] or 0)
        if hours <= 14 and minutes < 60:
            sign = 1 if offset[1] == "+" else -1
            return timezone(sign * timedelta(hours=hours, minutes=minutes))
    try:
        return ZoneInfo(_zone_names().get(str(name).strip().lower(), str(name)))
    except (KeyError, ValueError) as exc:
        raise ValueError(f"unknown time zone {name!r}") from exc


@functools.lru_cache(maxsize=1)
def _zone_names() -> dict[str, str]:
    return {zone.lower(): zone for zone in zoneinfo.available_timezones()}


# -- dateparser fallback --------------------------------------------------------------------------

# a slash date with its year, which no rule reads (whether 03/05/2024 is March or May is dateparser's call);
# "version 10.5", "3-1", "page 12.4" are not dates
_SIGNAL = re.compile(r"(?<![\d./])\d{1,2}/\d{1,2}/(?:\d{4}|\d{2})(?![\d/])")
_RELATIVE_WORDS = {"ago", "hace", "fa", "назад", "tomorrow", "mañana", "domani", "demain", "morgen", "завтра"}


def _dateparser(text: str, today: date) -> Span | None:
    """dateparser's search, for a slash date no rule takes ("notes from 03/05/2024"), read as dateparser
    reads it (month first in English); a match counts only with a real date signal."""
    if not _SIGNAL.search(text):
        return None
    from dateparser.search import search_dates  # imported only when needed (about 0.3 s)

    base = datetime.combine(today, time(12))
    found = search_dates(
        text,
        languages=["en", "es", "it", "fr", "de", "ru"],
        settings={"RELATIVE_BASE": base, "PREFER_DATES_FROM": "past", "RETURN_AS_TIMEZONE_AWARE": False},
    )
    best: tuple[int, date] | None = None
    for matched, when in found or []:
        strength = _signal_strength(matched.lower())
        if strength and (best is None or strength > best[0]):
            best = (strength, when.date())
    return Span(best[1], best[1]) if best else None


def _signal_strength(matched: str) -> int:
    """How clearly a dateparser match is a date: 0 = not at all (a bare number, a short word)."""
    score = 0
    if re.search(r"\d{1,4}[-/.]\d{1,2}", matched):
        score += 3
    found_words = set(re.findall(r"[^\W\d_]+", matched))
    if found_words & set(MONTH_NAMES) and re.search(r"\d", matched):
        score += 2
    if found_words & set(WEEKDAY_NAMES):
        score += 2
    if found_words & _RELATIVE_WORDS:
        score += 2
    if score and re.search(r"\d", matched):
        score += 1
    return score
