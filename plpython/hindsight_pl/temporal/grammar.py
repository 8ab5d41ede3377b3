"""What turns the time expressions found in a question into one window, for every language.

A language's grammar (``european.py``, ``chinese.py``) finds the **atoms** of a question: each a
:class:`Found`, a stretch of the text and the days it names ("March", "last week", "2019年").
This module then combines them, the same way in every language, driven by the language's word
tables (:class:`Combinators`, compiled once into :class:`Rules`):

1. overlapping atoms: the longer stretch of text wins ("the week before last" over "last week");
2. a named period placed in a year by the next atom ("Christmas of last year");
3. **parts** ("early March", "年底"), then **around** ("around Christmas") change one atom;
4. a relative period **seen from a date** ("the week before 16 November", "two weeks before
   August 11");
5. **ranges** join two atoms ("between March and May", "3月5日至8日"), a year stated on one side
   applying to the other;
6. **open ends** ("since January", "2024年6月前"), and "so far" / "earlier" / "later" next to
   this period ("so far this year");
7. the window: the strongest atom left (lowest rank; the leftmost among equals). Weak atoms (a
   bare year, a month name that is also a word, a count such as "two weeks") count only inside
   steps 3-6.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import date, timedelta

from .dates import Span, apply_part, open_after, open_before, widen

# ranks: which atom gives the window when a question holds several (lower first)
RANK_COMBINED = 0  # a range or an open end
RANK_DATE = 1  # a full date, a day range
RANK_DAY = 2  # today, yesterday, this morning
RANK_AGO = 3  # 3 days ago, a few weeks ago, the past 3 months, the week before last
RANK_PERIOD = 5  # Q3 2024, June 2024, Christmas, summer 2022, week 23
RANK_SEASON = 6
RANK_MONTH = 7  # in May, last March
RANK_RELATIVE = 8  # last week, next month
RANK_YEAR = 9  # in 2019
RANK_MONTH_DAY = 10  # March 13th
RANK_WEEKDAY = 11  # last Tuesday


@dataclass
class Found:
    """One time expression: ``text[start:end]`` names ``span``.

    ``kind``: day, week, weekend, month, year, season, quarter, holiday, period (anything else);
    ``weak``: counts only inside a part, range or open end; ``year_given``: the text states the year;
    ``in_year``: the same named period in another year (for a range whose other side states a
    year); ``repeats``: "year" or "week", how far back the previous occurrence lies; ``now``: the
    word "now" / "today" (a range may end there).
    """

    start: int
    end: int
    span: Span
    kind: str  # day, week, weekend, month, year, season, quarter, holiday, period, count ("two weeks")
    rank: int
    weak: bool = False
    year_given: bool = False
    in_year: Callable[[int], Span | None] | None = field(default=None, repr=False)
    repeats: str | None = None
    now: bool = False
    current: bool = False  # this week / month / year: "so far", "earlier", "later" apply
    part: str | None = None  # the part of a period it names: "late" for "the end of May"
    in_week: bool = False  # a weekday of a given week ("last Monday", 上周一): a range's bare weekday stays there
    # seen from another day: "the week" / "last weekend" / "Sunday" / "two weeks" before or after a date
    # (direction -1 / +1): the previous / next such period, day or offset from that date
    anchored: Callable[[date, int], Span | None] | None = field(default=None, repr=False)

    def previous(self) -> Span | None:
        """The occurrence before this one (a year or a week back), or None."""
        if self.repeats == "week":
            return Span(self.span.start - timedelta(weeks=1), self.span.end - timedelta(weeks=1))
        if self.repeats == "year" and self.in_year is not None:
            return self.in_year(self.span.start.year - 1)
        return None


@dataclass(frozen=True)
class Combinators:
    """A language's words for the combining steps, as regular expressions (lower case, matched on
    whole words). ``*_before`` patterns end right before an atom, ``*_after`` ones start right after it.
    ``range_pairs``: (words before the first end, words between the ends)."""

    part_before: Sequence[tuple[str, str]] = ()
    part_after: Sequence[tuple[str, str]] = ()
    around_before: Sequence[tuple[str, str]] = ()  # (words, "day": a holiday or a day / "holiday": a holiday)
    around_after: Sequence[tuple[str, str]] = ()
    open_before: Sequence[tuple[str, str]] = ()
    open_before_strong: Sequence[tuple[str, str]] = ()  # only before an atom that is no weak one: "by"
    open_after: Sequence[tuple[str, str]] = ()
    so_far: Sequence[str] = ()
    earlier: Sequence[str] = ()
    later: Sequence[str] = ()
    range_pairs: Sequence[tuple[str, str]] = ()
    range_after: Sequence[str] = ()  # words after the second end that close a range (为止)
    open_around: Sequence[tuple[str, str, str]] = ()  # (before, after, how): "from June on"
    of_year: str = ""  # between a named period and a year that places it: "Christmas of last year"
    year_of: str = ""  # between a year and the named period it places: "last year's third quarter"
    anchor: Sequence[tuple[str, int]] = ()  # between a relative period and a date: "the week before 16 November"
    article: str = ""  # an article that may stand between the words before an atom and the atom
    join_days: str = ""  # between two single days that make one window: 昨天和前天, 下周一和周二
    word: str = r"\w"  # what a word is made of, for the boundaries (Chinese: nothing, it has no spaces)


def _alt(patterns: Sequence[str]) -> str:
    return "|".join(f"(?:{p})" for p in sorted(patterns, key=len, reverse=True))


class Rules:
    """The regular expressions of one language's :class:`Combinators`, compiled once (at import)."""

    def __init__(self, c: Combinators) -> None:
        w = c.word
        edge_before = rf"(?<!{w})" if w else ""
        edge_after = rf"(?!{w})" if w else ""
        tail = rf"\s*(?:(?:{c.article})\s*)?$" if c.article else r"\s*$"
        self.part_before = [(re.compile(rf"{edge_before}(?:{p}){tail}"), part) for p, part in c.part_before]
        self.part_after = [(re.compile(rf"\s*(?:{p}){edge_after}"), part) for p, part in c.part_after]
        self.around_before = [(re.compile(rf"{edge_before}(?:{p}){tail}"), kinds) for p, kinds in c.around_before]
        self.around_after = [(re.compile(rf"\s*(?:{p}){edge_after}"), kinds) for p, kinds in c.around_after]
        self.open_before = [(re.compile(rf"{edge_before}(?:{p}){tail}"), how) for p, how in c.open_before]
        self.open_before_strong = [(re.compile(rf"{edge_before}(?:{p}){tail}"), how) for p, how in c.open_before_strong]
        self.open_after = [(re.compile(rf"\s*(?:{p}){edge_after}"), how) for p, how in c.open_after]
        self.open_around = [
            (re.compile(rf"{edge_before}(?:{before}){tail}"), re.compile(rf"\s*(?:{after}){edge_after}"), how)
            for before, after, how in c.open_around
        ]
        self.of_year = re.compile(rf"^\s*(?:{c.of_year})\s*$") if c.of_year else None
        self.year_of = re.compile(rf"^(?:{c.year_of})\s*$") if c.year_of else None
        self.anchor = [(re.compile(rf"^\s*(?:{p})\s*(?:(?:{c.article})\s*)?$" if c.article else rf"^\s*(?:{p})\s*$"), d)
                       for p, d in c.anchor]  # fmt: skip
        self.so_far_after = re.compile(rf"\s*(?:{_alt(c.so_far)}){edge_after}") if c.so_far else None
        self.so_far_before = re.compile(rf"{edge_before}(?:{_alt(c.so_far)}){tail}") if c.so_far else None
        self.earlier = re.compile(rf"{edge_before}(?:{_alt(c.earlier)}){tail}") if c.earlier else None
        self.later = re.compile(rf"{edge_before}(?:{_alt(c.later)}){tail}") if c.later else None
        self.ranges = [
            (
                re.compile(rf"{edge_before}(?:{before}){tail}") if before else None,
                re.compile(
                    rf"^\s*(?:{between})\s*(?:(?:{c.article})\s*)?$" if c.article else rf"^\s*(?:{between})\s*$"
                ),
            )
            for before, between in c.range_pairs
        ]
        self.range_after = re.compile(rf"\s*(?:{_alt(c.range_after)})") if c.range_after else None
        self.join_days = re.compile(rf"^\s*(?:{c.join_days})\s*$") if c.join_days else None


REACH = 80  # characters: how far from an atom the words that combine it may lie


def _before(pattern: re.Pattern[str], text: str, position: int) -> re.Match[str] | None:
    """``pattern`` (anchored with $) ending right at ``position``, looked for within REACH characters."""
    return pattern.search(text, max(0, position - REACH), position)


def _after(pattern: re.Pattern[str], text: str, position: int) -> re.Match[str] | None:
    """``pattern`` starting right at ``position``, within REACH characters."""
    return pattern.match(text, position, min(len(text), position + REACH))


def window(text: str, atoms: list[Found], rules: Rules, today: date) -> Span | None:
    """The window of a question: ``atoms`` (found in ``text``) combined by the steps of this module."""
    if not atoms:
        return None
    kept = _without_overlaps(atoms)
    kept = _placed_in_years(text, kept, rules)
    kept = _parts_and_around(text, kept, rules)
    kept = _anchored(text, kept, rules)
    kept = _joined_days(text, kept, rules)
    kept = _ranges(text, kept, rules, today)
    kept = _open_ends(text, kept, rules, today)
    strong = [f for f in kept if not f.weak and not f.now]
    if not strong:
        return None
    return min(strong, key=lambda f: (f.rank, f.start)).span


def _without_overlaps(atoms: list[Found]) -> list[Found]:
    kept: list[Found] = []
    for f in sorted(atoms, key=lambda f: (-(f.end - f.start), f.rank, f.start)):
        if all(f.end <= k.start or f.start >= k.end for k in kept):
            kept.append(f)
    return sorted(kept, key=lambda f: f.start)


def _placed_in_years(text: str, kept: list[Found], rules: Rules) -> list[Found]:
    """A named period followed by the year that places it: "Christmas of last year", "the fourth quarter
    of last year", "el verano del año pasado" -> that period in that year."""
    if rules.of_year is None:
        return kept
    out: list[Found] = []
    i = 0
    while i < len(kept):
        f = kept[i]
        if i + 1 < len(kept) and f.in_year is not None and not f.year_given:
            year = kept[i + 1]
            if year.kind == "year" and rules.of_year.match(text[f.end : year.start]):
                span = f.in_year(year.span.start.year)
                if span is not None:
                    out.append(replace(f, end=year.end, span=span, year_given=True, weak=False, repeats=None))
                    i += 2
                    continue
        if (
            i + 1 < len(kept)
            and f.kind == "year"
            and rules.year_of
            and rules.year_of.match(text[f.end : kept[i + 1].start])
        ):
            named = kept[i + 1]
            span = named.in_year(f.span.start.year) if named.in_year is not None and not named.year_given else None
            if span is not None:  # "last year's third quarter", "next year's Christmas party"
                out.append(replace(named, start=f.start, span=span, year_given=True, weak=False, repeats=None))
                i += 2
                continue
        out.append(f)
        i += 1
    return out


def _anchored(text: str, kept: list[Found], rules: Rules) -> list[Found]:
    """A relative period seen from a date: "the week before 16 November 2023" (the calendar week before
    that date's), "last weekend before April 10", "the Sunday before October 25", "two weeks before
    August 11" (that day), "the day after Christmas": each as it would be said on that date."""
    out: list[Found] = []
    i = 0
    while i < len(kept):
        f = kept[i]
        if i + 1 < len(kept) and f.anchored is not None and not kept[i + 1].now:
            anchor = kept[i + 1]
            between = text[f.end : anchor.start]
            direction = next((d for pattern, d in rules.anchor if pattern.match(between)), 0)
            if direction:
                span = f.anchored(anchor.span.start if direction < 0 else anchor.span.end, direction)
                if span is not None:
                    out.append(Found(f.start, anchor.end, span, "period", RANK_COMBINED))
                    i += 2
                    continue
        out.append(f)
        i += 1
    return out


def _free(kept: list[Found], start: int, end: int, but: Found) -> list[Found]:
    """The atoms of ``kept`` other than ``but`` that overlap text[start:end] (words a prefix took)."""
    return [k for k in kept if k is not but and k.start < end and start < k.end]


def _parts_and_around(text: str, kept: list[Found], rules: Rules) -> list[Found]:
    out = list(kept)
    for f in kept:
        if f not in out:
            continue
        # the longest part phrase wins ("la seconda metà di" over "metà di")
        found = [
            (m, part)
            for pattern, part in rules.part_before
            if (m := _before(pattern, text, f.start)) and _applies(f, part)
        ]
        if found:
            m, part = min(found, key=lambda mp: mp[0].start())
            out = [k for k in out if k not in _free(out, m.start(), f.start, f)]
            _apply_part(f, part, start=m.start())
        else:
            found = [
                (m, part)
                for pattern, part in rules.part_after
                if (m := _after(pattern, text, f.end)) and _applies(f, part)
            ]
            if found:
                m, part = max(found, key=lambda mp: mp[0].end())
                following = _free(out, f.end, m.end(), f)
                out = [k for k in out if k not in following]
                _apply_part(f, part, end=m.end())
        if f.kind not in ("day", "holiday"):  # "around" widens a holiday or a day, not "over the weekend"
            continue
        for pattern, kinds in rules.around_before:
            if (kinds == "day" or f.kind == "holiday") and (m := _before(pattern, text, f.start)):
                f.span, f.start, f.weak = widen(f.span), m.start(), False
                break
        else:
            for pattern, kinds in rules.around_after:
                if (kinds == "day" or f.kind == "holiday") and (m := _after(pattern, text, f.end)):
                    f.span, f.end, f.weak = widen(f.span), m.end(), False
                    break
    return out


def _applies(f: Found, part: str) -> bool:
    return apply_part(f.span, f.kind, part) is not None


def _apply_part(f: Found, part: str, start: int | None = None, end: int | None = None) -> None:
    kind, in_year = f.kind, f.in_year
    new = apply_part(f.span, kind, part)
    assert new is not None
    f.span = new
    f.start = f.start if start is None else start
    f.end = f.end if end is None else end
    f.rank, f.weak, f.kind, f.current, f.part = min(f.rank, RANK_PERIOD), False, "period", False, part
    if in_year is not None:
        f.in_year = lambda year: _part_in_year(in_year, year, kind, part)


def _part_in_year(in_year: Callable[[int], Span | None], year: int, kind: str, part: str) -> Span | None:
    whole = in_year(year)
    return None if whole is None else apply_part(whole, kind, part)


def _joined_days(text: str, kept: list[Found], rules: Rules) -> list[Found]:
    """Two single days joined ("昨天和前天", "下周一和周二"): one window from the earlier to the later, at most a
    week; a bare weekday after a weekday of a given week stays in that week."""
    if rules.join_days is None:
        return kept
    out: list[Found] = []
    i = 0
    while i < len(kept):
        first = kept[i]
        if i + 1 < len(kept) and first.span.days == 1 and kept[i + 1].span.days == 1 and not kept[i + 1].now:
            second = kept[i + 1]
            if rules.join_days.match(text[first.end : second.start]) and not (first.weak or second.weak):
                a, b = first.span.start, second.span.start
                if first.in_week and second.repeats == "week" and not second.in_week:
                    b = a + timedelta(days=(b.weekday() - a.weekday()) % 7)
                span = Span(min(a, b), max(a, b))
                if span.days <= 7:
                    out.append(Found(first.start, second.end, span, "period", min(first.rank, second.rank)))
                    i += 2
                    continue
        out.append(first)
        i += 1
    return out


def _ranges(text: str, kept: list[Found], rules: Rules, today: date) -> list[Found]:
    out: list[Found] = []
    i = 0
    while i < len(kept):
        first = kept[i]
        if i + 1 < len(kept) and first.kind != "count" and kept[i + 1].kind != "count":
            second = kept[i + 1]
            between = text[first.end : second.start]
            for before_pattern, between_pattern in rules.ranges:
                if not between_pattern.match(between):
                    continue
                m = _before(before_pattern, text, first.start) if before_pattern else None
                if before_pattern is not None and m is None:
                    continue
                if m is None and first.weak and second.weak and not first.kind == second.kind == "month":
                    continue  # "2019-2021" alone: bare numbers are not years ("August to October" is a range)
                span = _join(first, second, today)
                if span is None:
                    continue
                end = second.end
                if rules.range_after and (closing := _after(rules.range_after, text, end)):
                    end = closing.end()
                out.append(Found(m.start() if m else first.start, end, span, "period", RANK_COMBINED))
                i += 2
                break
            else:
                out.append(first)
                i += 1
            continue
        out.append(first)
        i += 1
    return out


def _join(first: Found, second: Found, today: date) -> Span | None:
    """[first's first day, second's last day]: a year stated on one side applies to the other; when
    neither states one and the second would end before the first starts, the first moves back one
    occurrence."""
    if first.now:
        return None
    a, b = first.span, second.span
    if second.now or (second.kind == "day" and second.rank == RANK_DAY and b == Span(today, today)):
        return Span(a.start, today, until_now=True) if a.start <= today else None
    if b.until_now:
        return Span(a.start, b.end, until_now=True)
    if second.year_given and not first.year_given and first.in_year is not None:
        a = first.in_year(b.end.year) or a
        if a.start > b.end:
            a = first.in_year(b.end.year - 1) or a
    elif first.year_given and not second.year_given and second.in_year is not None:
        b = second.in_year(a.start.year) or b
        if b.end < a.start:
            b = second.in_year(a.start.year + 1) or b
    elif first.in_week and second.repeats == "week" and not second.in_week and b.days == 1:
        # "from last Monday to Wednesday", 上周一到周三: the bare weekday stays in the first one's week
        later = a.start + timedelta(days=(b.start.weekday() - a.start.weekday()) % 7)
        b = Span(later, later)
    elif b.end < a.start:
        a = first.previous() or a
    if b.end < a.start:
        return None
    return Span(a.start, b.end)


def _open_ends(text: str, kept: list[Found], rules: Rules, today: date) -> list[Found]:
    out = list(kept)
    for f in kept:
        if f.rank == RANK_COMBINED or f.now or f.kind == "count":
            continue
        how, start, end = None, f.start, f.end
        for before_pattern, after_pattern, name in rules.open_around:
            b = _before(before_pattern, text, f.start)
            a = _after(after_pattern, text, f.end) if b else None
            if b and a:
                how, start, end = name, b.start(), a.end()
                break
        else:
            for pattern, name in [*rules.open_before, *([] if f.weak else rules.open_before_strong)]:
                m = _before(pattern, text, f.start)
                if m and not _free(out, m.start(), f.start, f):
                    how, start = name, m.start()
                    break
            else:
                for pattern, name in rules.open_after:
                    m = _after(pattern, text, f.end)
                    if m:
                        how, end = name, m.end()
                        break
        if how is None and f.current:
            if rules.so_far_after and (m := _after(rules.so_far_after, text, f.end)):
                how, end = "so far", m.end()
            elif (rules.so_far_before and (m := _before(rules.so_far_before, text, f.start))) or (
                rules.earlier and (m := _before(rules.earlier, text, f.start))
            ):
                how, start = "so far", m.start()
            elif rules.later and (m := _before(rules.later, text, f.start)):
                how, start = "later", m.start()
        if how is None:
            continue
        if how == "before" and f.part == "late":
            how = "until"  # "before the end of May" is by the end of May
        span = _open(f.span, how, today)
        out[out.index(f)] = Found(start, end, span, "period", RANK_COMBINED)
    return out


def _open(span: Span, how: str, today: date) -> Span:
    if how == "since":
        return open_after(span, today, inclusive=True)
    if how == "after":
        return open_after(span, today, inclusive=False)
    if how == "before":
        return open_before(span, today, inclusive=False)
    if how == "until":
        return open_before(span, today, inclusive=True)
    if how == "so far":
        return Span(span.start, today, until_now=True)
    return Span(max(today, span.start), span.end)  # later
