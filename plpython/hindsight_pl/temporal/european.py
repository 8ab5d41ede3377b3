"""Time expressions in English, German, French, Spanish, Italian and Russian: the atoms of a question.

Each finder returns the :class:`~.grammar.Found` atoms of one family (dates, days, "ago" forms,
durations, months, seasons, quarters, weeks, holidays, relative periods, years, weekdays), built
from the tables of ``words.py``; ``grammar.window`` combines them. Conventions: docs/temporal.md.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, timedelta
from functools import partial

from .. import limits
from . import named_days, words
from .dates import (
    DAY,
    Span,
    add_months,
    apply_part,
    between,
    day,
    day_of_month_recent,
    iso_week,
    make_date,
    month_relative,
    month_span,
    quarter_span,
    relative_period,
    season_of_year,
    season_relative,
    seen_from,
    shift,
    shift_month,
    week_span,
    weekday_relative,
    weekday_seen_from,
    widen,
    year_span,
)
from .grammar import (
    RANK_AGO,
    RANK_DATE,
    RANK_DAY,
    RANK_MONTH,
    RANK_MONTH_DAY,
    RANK_PERIOD,
    RANK_RELATIVE,
    RANK_SEASON,
    RANK_WEEKDAY,
    RANK_YEAR,
    Combinators,
    Found,
    Rules,
)


@dataclass(frozen=True)
class Context:
    """What a finder needs besides the text: the reference day and hour, the hemisphere, whether the
    question is about the future, and the text as written (for capitals)."""

    today: date
    hour: int
    hemisphere: str
    future: bool
    cased: str
    soon: bool = False  # future, or German's present ("Was machen wir am Freitag?"): a bare weekday or weekend ahead


def _alt(items: Iterable[str]) -> str:
    return "|".join(re.escape(w) for w in sorted(set(items), key=len, reverse=True))


# of a question, read (query_chars, hindsight_pl.limits); a longer text is cut, and only eight times as much is
# looked at before whitespace is collapsed (docs/temporal.md, "Limits")
MAX_CHARACTERS = limits.value("query_chars")
B = r"(?<![\w'])"  # a word starts here
E = r"(?![\w])"  # a word ends here
MONTH = _alt([*words.MONTH_NAMES, *words.MONTH_ABBREVIATIONS])
WEEKDAY = _alt(words.WEEKDAY_NAMES)
UNIT = _alt(words.UNITS)
NUM = rf"\d{{1,3}}|{_alt(words.NUMBERS)}"
VAGUE = _alt(words.VAGUE)
ORD = _alt(words.ORDINALS)
YEAR = r"(?:1[5-9]|2[0-9])\d\d"
DOM = r"(?:3[01]|[12]\d|0?[1-9])"  # a day of the month
DOM_SUFFIX = r"(?:st|nd|rd|th|\.|º|°|er|ᵉʳ|-?е|-?го)?"
LAST, THIS, NEXT = _alt(words.LAST), _alt(words.THIS), _alt(words.NEXT)
FUTURE_CUES = re.compile(rf"(?:{B}|(?<=\w)(?='))(?:{_alt(words.FUTURE_CUES)}){E}")

RULES = Rules(
    Combinators(
        part_before=words.PART_BEFORE,
        around_before=words.AROUND_BEFORE,
        open_before=words.OPEN_BEFORE,
        open_before_strong=words.OPEN_BEFORE_STRONG,
        so_far=words.SO_FAR,
        earlier=words.EARLIER,
        later=words.LATER,
        range_pairs=words.RANGES,
        open_around=words.OPEN_AROUND,
        anchor=words.ANCHOR,
        of_year=words.OF_YEAR,
        year_of="'s",
        article=words.ARTICLE,
        word=r"\w",
    )
)


def normalise(query: str, today: date | None = None) -> tuple[str, str]:
    """(lower-case text, the same text as written): NFKC (full-width digits become ASCII), one kind
    of apostrophe and dash, single spaces, a two-digit year after an apostrophe written out ("in '19" ->
    "in 2019", seen from ``today``); both strings have the same length, position for position."""
    text = unicodedata.normalize("NFKC", query).replace("’", "'").replace("‘", "'")
    text = re.sub(r"\s+", " ", text[: 8 * MAX_CHARACTERS]).strip()[:MAX_CHARACTERS]
    if today is not None and "'" in text:
        text = _TWO_DIGIT_YEAR.sub(partial(_four_digits, today=today), text)
    lower = "".join(c.lower() if len(c.lower()) == 1 else c for c in text)
    lower = re.sub(r"\b(que|qui) (viene|vient)\b", r"\1_\2", lower)  # "el viernes que viene": one modifier
    return lower, text


# "in '19", "summer '22", "March '24": the year within five years after today, else the century before ("Summer
# of '42" is 1942); "the '90s" is a decade, not a year
_TWO_DIGIT_YEAR = re.compile(r"(?<![\w'])'(\d\d)(?![\w'])")


def _four_digits(m: re.Match[str], today: date) -> str:
    year = int(m[1])
    return str(year + (2000 if year <= today.year % 100 + 5 else 1900))


def number(word: str) -> int | None:
    if word.isdigit():
        return int(word)
    return words.NUMBERS.get(word) or words.VAGUE.get(word)


def _tail(text: str, end: int, reach: int = 60) -> str:
    """The ``reach`` characters before ``end``: where the words that qualify an atom lie."""
    return text[max(0, end - reach) : end]


def _year_ok(year: int, today: date) -> bool:
    return today.year - 120 <= year <= today.year + 20


def _month_number(name: str) -> int:
    return words.MONTH_NAMES.get(name) or words.MONTH_ABBREVIATIONS[name.rstrip(".")]


def _offset_day(unit: str, n: int, hour: int, d: date, direction: int) -> Span | None:
    """The day ``n`` units before (``direction`` -1) or after (+1) ``d``: "two weeks before August 11"."""
    moved = shift(d, unit, direction * n, hour)
    return day(moved) if moved else None


def _next_day(d: date, direction: int) -> Span:
    """ "the day before / after X"."""
    return day(d + direction * DAY)


# -- dates ------------------------------------------------------------------------------------------


def _numeric_dates(text: str, ctx: Context) -> list[Found]:
    """2024-03-05, 2024/03/05, and day-first 5.3.2024 / 5.3.24 (German, French, Russian, Italian write it
    so); a two-digit year is the one within twenty years after today, else the century before."""
    out = []
    for pattern, order in ((r"(?<![\w.-])(\d{4})[-/](\d{1,2})[-/](\d{1,2})(?![\w-])", (1, 2, 3)),
                           (r"(?<![\w.])(\d{1,2})\.(\d{1,2})\.(\d{4}|\d{2})(?![\w.])", (3, 2, 1))):  # fmt: skip
        for m in re.finditer(pattern, text):
            year, month, day_number = (int(m[i]) for i in order)
            if len(m[order[0]]) == 2:
                year += 2000 if year <= ctx.today.year % 100 + 20 else 1900
            found = make_date(year, month, day_number)
            if found:
                out.append(Found(m.start(), m.end(), day(found), "day", RANK_DATE, year_given=True))
    return out


_DAY_ARTICLE = r"(?:the |el |le |il |l'|lo |dem |den |der |la )?"
_DAY_RANGE_INTRO = (
    rf"(?:(?:from|between|vom|von|du|del|dal|dall'|entre|tra|fra|zwischen|с|со|от|между) )?{_DAY_ARTICLE}"
)
_DAY_RANGE_JOIN = (
    rf"(?:-|–|—|to|through|thru|until|till|and|al|au|bis|bis zum|a|all'|allo|al|e|ed|y|et|und|по|до|и) ?{_DAY_ARTICLE}"
)
_OF = r"(?:of |de |di |del |d')?"
_YEAR_TAIL = rf"(?:(?:, ?| )(?:de |del |of )?(?P<y>{YEAR})(?: года| г\.?)?)?"


def _dates(text: str, ctx: Context) -> list[Found]:
    """Dates with a month name: full dates, day ranges inside a month, and a day of a month without
    a year (the most recent one; "may" needs an ordinal or a preposition, being a verb too)."""
    out: list[Found] = []
    patterns = [
        # 5-8 March (2024), from the 5th to the 8th of March
        (
            rf"{B}{_DAY_RANGE_INTRO}(?P<d1>{DOM}){DOM_SUFFIX} ?{_DAY_RANGE_JOIN}(?P<d2>{DOM}){DOM_SUFFIX}"
            rf" {_OF}(?P<m>{MONTH})\.?{_YEAR_TAIL}{E}"
        ),
        # March 5-8 (, 2024)
        (
            rf"{B}(?:from |between )?(?P<m>{MONTH})\.? (?P<d1>{DOM}){DOM_SUFFIX} ?(?:-|–|—|to|through|thru|until|till"
            rf"|and) ?(?:the )?(?P<d2>{DOM}){DOM_SUFFIX}{_YEAR_TAIL}{E}"
        ),
        # 12 March 2023, the 1st of July, 5 de mayo, 5. Mai, le 1er mars, 5 марта
        rf"{B}(?:the )?(?P<d1>{DOM}){DOM_SUFFIX} {_OF}(?P<m>{MONTH})\.?{_YEAR_TAIL}{E}",
        # March 12(th)(, 2023)
        rf"{B}(?P<m>{MONTH})\.? (?:the )?(?P<d1>{DOM})(?:st|nd|rd|th)?{_YEAR_TAIL}(?![\w:])",
    ]
    for pattern in patterns:
        for m in re.finditer(pattern, text):
            groups = m.groupdict()
            name, d1, d2, y = groups["m"], int(groups["d1"]), groups.get("d2"), groups.get("y")
            if name == "may" and not d2 and not y and not _may_is_a_month(text, m):
                continue
            month = _month_number(name)
            if y and not _year_ok(int(y), ctx.today):
                continue
            found = _day_of_month(m, month, d1, int(d2) if d2 else None, int(y) if y else None, ctx)
            if found:
                # "Tuesday May 6", "Friday, 9 May": the date's own day (a weekday that contradicts it loses)
                weekday = _WEEKDAY_BEFORE.search(_tail(text, m.start(), 20))
                if weekday:
                    found.start -= len(_tail(text, m.start(), 20)) - weekday.start()
                out.append(found)
    return out


_WEEKDAY_BEFORE = re.compile(rf"{B}(?:{WEEKDAY}),? (?:the )?$")


def _days_of_relative_months(text: str, ctx: Context) -> list[Found]:
    """the 20th of last month, from the 20th to the 25th of this month."""
    out = []
    pattern = (rf"{B}{_DAY_RANGE_INTRO}(?P<d1>{DOM})(?:st|nd|rd|th)(?: ?{_DAY_RANGE_JOIN}(?P<d2>{DOM})(?:st|nd|rd|th))?"
               rf" of (?P<w>{LAST}|{THIS}|{NEXT}) month{E}")  # fmt: skip
    for m in re.finditer(pattern, text):
        month = shift_month(ctx.today, {"last": -1, "this": 0, "next": 1}[words.MODIFIERS[m["w"]]]).start
        span = between(make_date(month.year, month.month, int(m["d1"])),
                        make_date(month.year, month.month, int(m["d2"] or m["d1"])))  # fmt: skip
        if span:
            out.append(Found(m.start(), m.end(), span, "day" if span.days == 1 else "period", RANK_DATE))
    return out


def _days_alone(text: str, ctx: Context) -> list[Found]:
    """ "on the 3rd", "since the 21st": the most recent such day of a month, today included (a
    preposition makes it a date: "the 21st century", "her 3rd birthday" are not)."""
    out = []
    pattern = (rf"{B}(?:on|since|until|till|by|before|after|from|week of) (?P<day>(?:the )?(?P<d>{DOM})(?:st|nd|rd|th))"
               rf"(?! (?:of|century|birthday|anniversary|floor|place|time|round|edition|grade|try|attempt|day|week))"
               rf"{E}")  # fmt: skip
    for m in re.finditer(pattern, text):
        number_ = int(m["d"])
        for back in range(3):
            first = add_months(ctx.today.replace(day=1), -back)
            found = make_date(first.year, first.month, number_)
            if found and found <= ctx.today:
                out.append(Found(m.start("day"), m.end(), day(found), "day", RANK_MONTH_DAY))
                break
    return out


def _may_is_a_month(text: str, m: re.Match[str]) -> bool:
    """ "May" is a modal verb too: "May 6", "6 May", "Tuesday May 6" are dates, "may I ask", "May 6 people
    join?", "6 may come" are not."""
    before = _tail(text, m.start())
    if re.search(r"\d(?:st|nd|rd|th)", m.group(0)) or _WEEKDAY_BEFORE.search(before):
        return True
    if re.search(r"(?:^|\s)(?:on|by|from|since|until|till|before|after|of|in|the) $", before):
        return True
    following = text[m.end() : m.end() + 20]
    if re.match(r"(?:$|[^\w\s'-]| ?[-–]|,)", following):  # the end of a clause: "May 6?", "6 May, we"
        return True
    word = re.match(r" ([^\W\d_]+)", following)
    if m.group(0).startswith("may"):  # May 6 <word>: a date unless a plural noun follows ("May 6 people join")
        return word is not None and not (word[1] in _COUNTED or (word[1].endswith("s") and word[1] not in _NOT_PLURAL))
    return word is not None and word[1] in _AFTER_A_DATE  # 6 May <word>: only before words a date takes


_COUNTED = {"people", "persons", "of", "more", "men", "women", "children", "kids", "staff", "folks"}
_NOT_PLURAL = {"is", "was", "has", "as", "this", "its", "does", "us", "always", "plus"}
_AFTER_A_DATE = {"and", "or", "to", "through", "till", "until", "at", "in", "on", "we", "i", "was", "is", "when",
                 "last", "this", "next", "meeting", "deadline"}  # fmt: skip


def _day_of_month(
    m: re.Match[str], month: int, d1: int, d2: int | None, year: int | None, ctx: Context
) -> Found | None:
    def in_year(y: int) -> Span | None:
        return between(make_date(y, month, d1), make_date(y, month, d2 or d1))

    if year is not None:
        span = in_year(year)
        rank = RANK_DATE
    else:
        recent = day_of_month_recent(month, d1, ctx.today)
        span = in_year(recent.year) if recent else None
        rank = RANK_DATE if d2 else RANK_MONTH_DAY
    if span is None:
        return None
    return Found(m.start(), m.end(), span, "day" if span.days == 1 else "period", rank, year_given=year is not None,
                 in_year=in_year, repeats=None if year else "year")  # fmt: skip


def _month_years(text: str, ctx: Context) -> list[Found]:
    """June 2024, March of 2023, marzo de 2023, März 2023, марта 2023 года."""
    out = []
    pattern = rf"{B}(?P<m>{MONTH})\.?(?: (?:de|del|di|of|года|г\.?))?,? (?P<y>{YEAR})(?: года| г\.?)?{E}"
    for m in re.finditer(pattern, text):
        if _year_ok(int(m["y"]), ctx.today):
            span = month_span(int(m["y"]), _month_number(m["m"]))
            out.append(Found(m.start(), m.end(), span, "month", RANK_PERIOD, year_given=True))
    return out


# -- days, "ago", durations -------------------------------------------------------------------------

_FIXED = _alt(words.FIXED_DAYS)
# words that make a following "hier" German ("here"), not French ("yesterday")
_GERMAN = re.compile(
    r"(?<!\w)(?:ist|sind|wir|haben|habe|hat|was|wer|wie|wo|ich|und|der|die|das|nicht|mit|auf|im)(?!\w)"
)


def _fixed_days(text: str, ctx: Context) -> list[Found]:
    out = []
    for m in re.finditer(rf"{B}(?:{_FIXED}){E}", text):
        phrase = m.group(0)
        if phrase == "hier" and _GERMAN.search(text):
            continue
        if phrase == "morgen" and re.search(r"guten $", _tail(text, m.start())):
            continue
        offset = int(words.FIXED_DAYS[phrase])
        span = day(ctx.today + offset * DAY)
        out.append(Found(m.start(), m.end(), span, "day", RANK_DAY, current=offset == 0))
    # Spanish "mañana" is tomorrow, except "la mañana" / "esta mañana" (the morning)
    for m in re.finditer(r"(?<![\w'])mañana(?!\w)", text):
        if not re.search(r"(?:la|esta|de|por) $", _tail(text, m.start())):
            out.append(Found(m.start(), m.end(), day(ctx.today + DAY), "day", RANK_DAY))
    return out


_AGO_AFTER = _alt(words.AGO_AFTER)
_HALF = r"half an?|a half|half|medio|mezzo|un demi|une demie|ein halbes|einem halben"
_TODAY = r"today|heute|hoy|oggi|aujourd'hui|сегодня"
BN = r"(?<![\w'.,])"  # a number starts here (not "1.5", not "3,5")
_ABOUT = _alt(words.ABOUT)
# "what did we talk about two weeks ago": "about" names the topic there, it does not make the day approximate
_ABOUT_A_TOPIC = re.compile(
    r"(?:talk|talked|talking|think|thought|hear|heard|know|knew|say|said|ask|asked|learn|"
    r"learned|read|write|wrote|speak|spoke|tell|told|forget|forgot|remember|complain|"
    r"complained|chat|chatted|argue|argued|joke|joked|care|worry|worried|dream|talks) $"
)
_AGO_BEFORE = _alt(words.AGO_BEFORE)
_OR = r"(?:-|–|or|to|o|ou|oder|или|-или-)"


_SAME_TIME = ("at this time|around this time|about this time|this time|at the same time|the same time|same time|"
              "on this day|"
              "this day|on this date|this date|on the same day|the same day|on the same date|the same date|"
              "um diese zeit|zur gleichen zeit|zur selben zeit|an diesem tag|am selben tag|heute|"
              "à la même époque|à cette époque|à la même date|au même moment|à pareille époque|le même jour|"
              "por estas fechas|en estas fechas|por esta época|en esta época|el mismo día|tal día como hoy|"
              "in questo periodo|di questi tempi|in questi giorni|lo stesso giorno|"
              "в это же время|в это время|в этот же день|в этот день|в тот же день")  # fmt: skip
# a year back / ahead after "this time" (one word a line; "~" stands for a space, "que_viene" is one word)
_YEAR_BACK = {w.replace("~", " ") for w in (
    "last~year letztes~jahr letzten~jahres im~letzten~jahr voriges~jahr vorigen~jahres im~vorjahr l'an~dernier "
    "l'année~dernière l'an~passé l'année~passée de~l'an~dernier de~l'année~dernière el~año~pasado del~año~pasado "
    "l'anno~scorso dell'anno~scorso в~прошлом~году прошлого~года").split()}  # fmt: skip
_YEAR_AHEAD = {w.replace("~", " ") for w in (
    "next~year nächstes~jahr nächsten~jahres im~nächsten~jahr l'an~prochain l'année~prochaine el~año~que_viene "
    "del~año~que_viene el~próximo~año del~próximo~año l'anno~prossimo dell'anno~prossimo в~следующем~году "
    "следующего~года").split()}  # fmt: skip
_SAME_DAY = re.compile(
    rf"{B}(?:(?:{_SAME_TIME}),? (?P<a>{_alt(_YEAR_BACK | _YEAR_AHEAD)})"
    rf"|(?P<b>{_alt(_YEAR_BACK | _YEAR_AHEAD)}),? (?:{_SAME_TIME})){E}"
)


def _ago(text: str, ctx: Context) -> list[Found]:
    """N units ago (that day), a couple / a few units ago (a range), two or three days ago, two
    Tuesdays / weekends ago, in N days / N days from now (that day); "two weeks" alone is a count,
    which only an anchor gives a day ("two weeks before August 11")."""
    out: list[Found] = []
    today = ctx.today
    count = rf"(?P<n>{NUM}|{VAGUE}|{_HALF})"
    pairs = rf"(?P<n1>{NUM}) ?{_OR} ?(?P<n2>{NUM})"
    units = rf"(?P<u>{UNIT}|{_alt(words.WEEKDAY_PLURALS)})"
    for pattern in (  # "a year ago today", "heute vor einem Jahr": today does not outrank it
        rf"{BN}(?:(?:{_TODAY}) )?(?P<about>(?:{_ABOUT}) )?(?:{pairs}|{count}) {units} (?:{_AGO_AFTER})"
        rf"(?:,? (?:{_TODAY}))?{E}",
        rf"{B}(?:(?:{_TODAY}),? )?(?:{_AGO_BEFORE}) (?:{pairs}|{count}) {units}(?:,? (?:{_TODAY}))?{E}",
    ):
        for m in re.finditer(pattern, text):
            span = _ago_span(m, ctx)
            if span is not None and m.groupdict().get("about") and not _ABOUT_A_TOPIC.search(_tail(text, m.start())):
                span = widen(span)  # about two weeks ago: three days either side
            if span is not None:
                out.append(Found(m.start(), m.end(), span, "day" if span.days == 1 else "period", RANK_AGO))
    for m in _SAME_DAY.finditer(text):  # this time last year, à la même époque l'an dernier: that day a year back
        years = -1 if (m["a"] or m["b"]) in _YEAR_BACK else 1
        moved = shift(today, "year", years, ctx.hour)
        if moved:
            out.append(Found(m.start(), m.end(), day(moved), "day", RANK_AGO))
    for m in re.finditer(rf"{B}(?P<u>год|месяц|неделю|день) назад{E}", text):  # "(ровно) год назад": one unit
        moved = shift(today, words.UNITS[m["u"]], -1, ctx.hour)
        if moved:
            out.append(Found(m.start(), m.end(), day(moved), "day", RANK_AGO))
    for m in re.finditer(rf"{B}полгода назад{E}", text):
        moved = shift(today, "year", -0.5, ctx.hour)
        if moved:
            out.append(Found(m.start(), m.end(), day(moved), "day", RANK_AGO))
    for m in re.finditer(rf"{B}(?:the |in the )?(?:(?P<y>1[5-9]\d0|20\d0)|'?(?P<yy>[1-9]0))'?s{E}", text):
        decade = int(m["y"]) if m["y"] else 1900 + int(m["yy"])  # the 1990s, the '90s: that decade
        if _year_ok(decade + 9, today):
            out.append(Found(m.start(), m.end(), Span(date(decade, 1, 1), date(decade + 9, 12, 31)), "period",
                             RANK_YEAR))  # fmt: skip
    for m in re.finditer(rf"{B}(?:the |in the )?(?P<w>twenties|thirties|forties|fifties|sixties|seventies|eighties|"
                         rf"nineties){E}", text):  # fmt: skip
        decade = 1900 + 10 * ["twenties", "thirties", "forties", "fifties", "sixties", "seventies", "eighties",
                              "nineties"].index(m["w"]) + 20  # fmt: skip
        if m.group(0).startswith(("the", "in the")):  # "in the eighties"; "she is in her eighties" has "her"
            out.append(Found(m.start(), m.end(), Span(date(decade, 1, 1), date(decade + 9, 12, 31)), "period",
                             RANK_YEAR))  # fmt: skip
    for m in re.finditer(rf"{B}(?P<n>{NUM}) (?P<u>{UNIT}){E}", text):
        n, unit = number(m["n"]), words.UNITS[m["u"]]
        if n and unit in ("day", "week", "month", "year", "fortnight"):
            out.append(Found(m.start(), m.end(), day(today), "count", RANK_AGO, weak=True,
                             anchored=partial(_offset_day, unit, n, ctx.hour)))  # fmt: skip
    later = (
        rf"{B}(?:(?:{_alt(words.LATER_BEFORE)}) (?P<n1>{NUM}|{VAGUE}) (?P<u1>{UNIT})"
        rf"|(?P<half>half )?(?P<n2>{NUM}|{VAGUE}) (?P<u2>{UNIT}) (?:{_alt(words.LATER_AFTER)})"
        rf"|через (?:(?P<n3>{NUM}) )?(?P<u3>{UNIT})){E}"
    )
    for m in re.finditer(later, text):
        word = m["n1"] or m["n2"] or m["n3"] or "1"
        unit = words.UNITS[m["u1"] or m["u2"] or m["u3"]]
        n = number(word)
        if word in words.VAGUE or n is None or unit in ("weekend", "quarter") or (m["u1"] and unit == "hour"):
            continue  # "haven't talked in a few days" is not a date
        moved = shift(today, unit, n / 2 if m["half"] and n == 1 else n, ctx.hour)  # half a year from now
        if moved:
            out.append(Found(m.start(), m.end(), day(moved), "day", RANK_AGO))
    return out


# an amount with a half: "a year and a half", "one and a half years", "1.5 years", "anderthalb Jahre", "un an et
# demi", "año y medio", "un anno e mezzo", "полтора года", "два с половиной года"
_HALVES = {"anderthalb": 1, "eineinhalb": 1, "einundeinhalb": 1, "zweieinhalb": 2, "dreieinhalb": 3,
           "viereinhalb": 4, "fünfeinhalb": 5, "полтора": 1, "полторы": 1}  # fmt: skip
_FRACTIONS = [
    re.compile(rf"{BN}(?:(?P<n>{NUM}) )?(?P<u>{UNIT}) (?:and a half|et demie?|y medio|e mezzo){E}"),
    re.compile(rf"{BN}(?P<n>{NUM}) (?:and a half|с половиной) (?P<u>{UNIT}){E}"),
    re.compile(rf"{BN}(?P<n>\d{{1,3}})[.,]5 (?P<u>{UNIT}){E}"),
    re.compile(rf"{B}(?P<h>{_alt(_HALVES)}) (?P<u>{UNIT}){E}"),
]
_FRACTION_BEFORE = [
    (re.compile(rf"(?:^|(?<=\s))(?:{_AGO_BEFORE}) $"), "ago"),
    (re.compile(rf"(?:^|(?<=\s))(?:{_alt(words.LATER_BEFORE)}) $"), "later"),
    (re.compile(r"(?:^|(?<=\s))(?:(?:in|over|during|within|for) )?(?:the )?(?:past|last|previous) $"), "past"),
    (re.compile(r"(?:^|(?<=\s))(?:(?:in|over|during) )?the (?:next|coming|following) $"), "next"),
]
_FRACTION_AFTER = [(re.compile(rf" (?:{_AGO_AFTER}){E}"), "ago"),
                   (re.compile(rf" (?:{_alt(words.LATER_AFTER)}){E}"), "later")]  # fmt: skip


def _fractions(text: str, ctx: Context) -> list[Found]:
    """An amount with a half, ago or later (that day: "a year and a half ago" -> R - 18 months) or as a duration
    ("the past year and a half" -> [R - 18 months, now]); half a month is fifteen days."""
    out = []
    for pattern in _FRACTIONS:
        for m in pattern.finditer(text):
            g = m.groupdict()
            whole = _HALVES[g["h"]] if g.get("h") else number(g["n"]) if g.get("n") else 1
            unit = words.UNITS[g["u"]]
            if whole is None or unit not in ("day", "week", "fortnight", "month", "year"):
                continue
            n = whole + 0.5
            before = _tail(text, m.start(), 30)
            how, start, end = None, m.start(), m.end()
            for regex, name in _FRACTION_BEFORE:
                if b := regex.search(before):
                    how, start = name, m.start() - len(before) + b.start()
                    break
            if how is None or how == "later":
                for regex, name in _FRACTION_AFTER:
                    if a := regex.match(text, m.end()):
                        how, end = name, a.end()
                        break
            if how is None:
                continue
            moved = shift(ctx.today, unit, n if how in ("later", "next") else -n, ctx.hour)
            if moved is None:
                continue
            span = {"ago": day(moved), "later": day(moved), "past": Span(moved, ctx.today, True),
                    "next": Span(ctx.today, moved)}[how]  # fmt: skip
            out.append(Found(start, end, span, "day" if span.days == 1 and not span.until_now else "period", RANK_AGO))
    return out


def _ago_span(m: re.Match[str], ctx: Context) -> Span | None:
    today = ctx.today
    groups = m.groupdict()
    word = groups["u"]
    if word in words.WEEKDAY_PLURALS:  # two Tuesdays ago: the Tuesday before last
        n = number(groups.get("n") or "")
        if not n:
            return None
        last = weekday_relative(words.WEEKDAY_PLURALS[word], today, "last")
        return day(last - timedelta(weeks=n - 1))
    unit = words.UNITS[word]
    if groups.get("n1"):
        low, high = number(groups["n1"]), number(groups["n2"])
        if low is None or high is None or not low < high <= low + 5:
            return None
        return between(shift(today, unit, -high, ctx.hour), shift(today, unit, -low, ctx.hour))
    n_word = groups["n"]
    if n_word in words.VAGUE:
        return _vague_ago(unit, words.VAGUE[n_word], today)
    if re.fullmatch(_HALF, n_word):  # half a year ago: six months; half a month ago: fifteen days
        moved = shift(today, unit, -0.5, ctx.hour) if unit in ("month", "year") else None
        return day(moved) if moved else None
    n = number(n_word)
    if n is None:
        return None
    if unit == "weekend":
        return relative_period("weekend", today, -n)
    moved = shift(today, unit, -n, ctx.hour)
    return day(moved) if moved else None


def _vague_ago(unit: str, vague: int, today: date) -> Span | None:
    """a couple (3) / a few (5) units ago, as ranges (docs/temporal.md)."""
    couple = vague == 3
    if unit == "day":
        return Span(today - (3 if couple else 5) * DAY, today - (1 if couple else 2) * DAY)
    if unit == "week":
        return Span(today - (21 if couple else 35) * DAY, today - (7 if couple else 14) * DAY)
    if unit == "month":
        return Span(today - (90 if couple else 150) * DAY, today - (30 if couple else 60) * DAY)
    if unit == "year":
        return between(shift(today, "year", -3 if couple else -5, 0), shift(today, "year", -1 if couple else -2, 0))
    return None


_PLURAL_UNITS = set("days weeks months years hours días semanas meses años horas giorni settimane mesi anni ore "
                    "jours semaines années ans heures tage tagen wochen monate monaten jahre jahren stunden дни "
                    "недели месяцы годы часы дней недель месяцев лет часов".split())  # fmt: skip
_DURATIONS = [
    # English: (in / over / during / within / for) the past / last / next (N) units
    rf"{B}(?:(?:in|over|during|within|for|throughout) )?(?P<the>the )?(?P<dir>past|last|previous|next|coming"
    rf"|following) (?:(?P<n>{NUM}|{VAGUE}) )?(?P<u>{UNIT}){E}",
    rf"{B}(?P<within>within|in under|in less than) (?:the )?(?P<n>{NUM}|{VAGUE}) (?P<u>{UNIT}){E}",
    # German: die letzten 3 Tage, in den nächsten 5 Tagen, seit drei Tagen
    rf"{B}(?:in |während |innerhalb |über )?(?P<the>den |der |die |des )(?P<dir>letzten|vergangenen|nächsten"
    rf"|kommenden|letzte|vergangene|nächste|kommende) (?:(?P<n>{NUM}|{VAGUE}) )?(?P<u>{UNIT}){E}",
    rf"{B}(?P<since>seit|depuis|desde hace|da|since) (?P<n>{NUM}|{VAGUE}) (?P<u>{UNIT}){E}",
    # French: les 3 derniers jours, au cours des deux dernières semaines, dans les 5 prochains jours
    rf"{B}(?:au cours |pendant |durant |lors |dans |sur )?(?P<the>des |les |ces )(?:(?P<n>{NUM}|{VAGUE}) )?"
    rf"(?P<dir>derniers|dernières|prochains|prochaines) (?:(?P<n2>{NUM}) )?(?P<u>{UNIT}){E}",
    rf"{B}(?:au cours |pendant |durant |sur |dans )?(?:de |des )?(?P<the>l'|la |le |les |ces )(?:(?P<n>{NUM}) )?"
    rf"(?P<u>{UNIT}) (?P<dir>écoulée|écoulé|écoulées|écoulés|passée|passés|passées|à venir|qui viennent){E}",
    # Spanish: los últimos tres meses, en las próximas dos semanas, el último año
    rf"{B}(?:en |durante |a lo largo de )?(?P<the>los |las |el |la )(?P<dir>últimos|últimas|último|última|próximos"
    rf"|próximas|pasados|pasadas) (?:(?P<n>{NUM}|{VAGUE}) )?(?P<u>{UNIT}){E}",
    # Italian: negli ultimi tre mesi, nei prossimi 5 giorni, nell'ultimo anno
    rf"{B}(?P<the>negli |nelle |nei |nel |nell'|gli |le |i |l'|il |durante gli |durante le |in |per gli |per le )"
    rf"(?P<dir>ultimi|ultime|ultimo|ultima|prossimi|prossime|prossimo|prossima|passati|passate|scorsi|scorse) "
    rf"(?:(?P<n>{NUM}|{VAGUE}) )?(?P<u>{UNIT}){E}",
    # Russian: за последние три месяца, в ближайшие 5 дней, за последний год
    rf"{B}(?P<the>за |в |на |в течение |в течении )?(?P<dir>последние|последний|последнюю|последних|ближайшие"
    rf"|ближайший|ближайшую|ближайших|следующие|прошедшие) (?:(?P<n>{NUM}|{VAGUE}) )?(?P<u>{UNIT}){E}",
]
_DIRECTION = {**dict.fromkeys("past last previous letzten vergangenen letzte vergangene derniers dernières últimos "
                              "últimas último última pasados pasadas ultimi ultime ultimo ultima passati passate "
                              "scorsi scorse последние последний последнюю последних прошедшие".split(), "past"),
              **dict.fromkeys("écoulée écoulé écoulées écoulés passée passés passées".split(), "past"),
              **dict.fromkeys(["à venir", "qui viennent"], "next"),
              **dict.fromkeys("next coming following nächsten kommenden nächste kommende prochains prochaines "
                              "próximos próximas prossimi prossime prossimo prossima ближайшие ближайший "
                              "ближайшую ближайших следующие".split(), "next")}  # fmt: skip


def _durations(text: str, ctx: Context) -> list[Found]:
    """the past / last N units -> [R - N units, now]; the next N units -> [R, R + N units]; "within N
    days" and "seit drei Tagen" look back. "last week" without an article or a number is the calendar
    week (``_relative_units``)."""
    out = []
    for pattern in _DURATIONS:
        for m in re.finditer(pattern, text):
            g = m.groupdict()
            unit = words.UNITS.get(g["u"])
            if unit is None or unit == "weekend":
                continue
            n_word = g.get("n") or g.get("n2")
            if unit == "quarter" and not n_word and _OF_A_RELATIVE_YEAR.match(text, m.end()):
                continue  # "the last quarter of next year": its fourth quarter (_quarters)
            if g.get("dir"):
                direction = _DIRECTION[g["dir"]]
                if not (g.get("the") or n_word or g["dir"] == "past"):
                    continue  # "last week": the calendar week
                if (
                    direction == "next"
                    and not n_word
                    and g["u"] not in _PLURAL_UNITS
                    and not g["dir"].isascii()
                    and not g["dir"].startswith("ближайш")
                ):
                    continue  # "il prossimo trimestre", "el próximo mes": the calendar period
                if (
                    direction == "next"
                    and not n_word
                    and g["u"] not in _PLURAL_UNITS
                    and g["dir"] in ("nächsten", "nächste", "kommenden", "kommende", "prossimo", "prossima")
                ):
                    continue  # fmt: skip
            else:
                direction = "past"
            if n_word:
                n = number(n_word)
            elif g["u"] in _PLURAL_UNITS:
                n = 5  # "ces derniers jours", "in den letzten Wochen": a few
            else:
                n = 1
            if n is None or n == 0:
                continue
            if direction == "past":
                span = between(shift(ctx.today, unit, -n, ctx.hour), ctx.today, until_now=True)
            else:
                span = between(ctx.today, shift(ctx.today, unit, n, ctx.hour))
            if span:
                out.append(Found(m.start(), m.end(), span, "period", RANK_AGO))
    return out


# -- periods ----------------------------------------------------------------------------------------


def _tokens(text: str) -> list[tuple[str, int, int]]:
    """Words with their positions: an elided article (l', d') is a word of its own, a possessive 's is
    not part of its word ("Monday's"), a hyphen separates words ("mid-October") but in week-end."""
    found = re.finditer(r"[^\W\d_]+(?='s(?!\w))|[^\W\d_]+'|week-ends?|\w+", text)
    return [(m.group(0), m.start(), m.end()) for m in found]


Token = tuple[str, int, int]


def _modifier(tokens: list[Token], first: int, last: int | None = None) -> tuple[str, int, int] | None:
    """last / this / next right before tokens[first] or right after tokens[last] ("last March", "la
    semana pasada", "el viernes que viene"): (which, the text's start and end with the modifier)."""
    last = first if last is None else last
    for j in (first - 1, last + 1):
        if 0 <= j < len(tokens):
            which = words.MODIFIERS.get(tokens[j][0]) or words.MODIFIERS.get(tokens[j][0].rstrip("'"))
            if which:
                return which, min(tokens[first][1], tokens[j][1]), max(tokens[last][2], tokens[j][2])
    return None


def _cue_before(text: str, start: int, cues: list[str], ctx: Context) -> bool:
    """A cue word right before ``start`` ("in May", "during the summer"), not written with a capital
    inside a sentence (that starts a title: "El otoño del patriarca")."""
    m = re.search(rf"(?:^|(?<=[\s(]))(?P<cue>{_alt(cues)})(?: the| el| la| le| il| der| l')? $", _tail(text, start))
    return m is not None and not _cased_cue(ctx, m, "cue")


def _relative_units(text: str, ctx: Context) -> list[Found]:
    """last / this / next week, month, year, weekend, quarter; in every language's word order ("la
    semana pasada", "на прошлой неделе"); "the month", "des Jahres" (no modifier) are this period,
    weak: a part or an open end gives them a window ("the end of the month")."""
    out = []
    tokens = _tokens(text)
    today = ctx.today
    for i, (word, start, end) in enumerate(tokens):
        unit = words.UNITS.get(word)
        if unit not in ("week", "month", "year", "weekend", "quarter"):
            continue
        if i > 0 and (number(tokens[i - 1][0]) is not None or tokens[i - 1][0] in ("few", "couple", "several")):
            continue
        if re.match(rf" {YEAR}(?!\d)", text[end:]):
            continue  # "the year 2020", "des Jahres 2023": the year
        first = i  # "fin de semana", "fine settimana": a weekend in three / two words
        if word in ("semana", "settimana", "semaine") and i >= 1 and tokens[i - 1][0] in ("fin", "fine"):
            unit, first, start = "weekend", i - 1, tokens[i - 1][1]
        elif word in ("semana", "semaine") and i >= 2 and tokens[i - 2][0] == "fin" and tokens[i - 1][0] == "de":
            unit, first, start = "weekend", i - 2, tokens[i - 2][1]
        near = _modifier(tokens, first, i)
        if near and near[1] == start and i + 2 < len(tokens) and words.UNITS.get(tokens[i + 2][0]) == "year":
            near = None  # "четвёртый квартал следующего года": the modifier places the year, not the quarter
        if near is None and word in _PLURAL_UNITS:
            continue  # "after years in hospital admin": a bare plural names no period
        which, lo, hi = near or ("this", start, end)
        span = relative_period(unit, today, {"last": -1, "this": 0, "next": 1}[which])
        weak = near is None
        if unit == "weekend" and weak and re.search(r"(?:^|\s)(?:the|am|übers|das|el|il|nel|на) $", _tail(text, start)):
            # "over the weekend", "how was the weekend?", "am Wochenende": the most recent one that has begun, from
            # Monday to Thursday; on Friday, or in a question about the future, the coming one
            weak = False
            if today.weekday() < 4 and not ctx.soon:
                span = relative_period("weekend", today, -1)
        out.append(Found(lo, hi, span, unit, RANK_RELATIVE, weak=weak, current=which == "this",
                         anchored=partial(seen_from, unit)))  # fmt: skip
    for m in re.finditer(rf"{B}(?:the|el|le|la|der|den|dem|il|l'|al|au|am) (?:day|día|dia|jour|tag|giorno|"
                         rf"lendemain|veille)(?= (?:{'|'.join(a for a, _ in words.ANCHOR)}))", text):  # fmt: skip
        out.append(Found(m.start(), m.end(), day(today), "day", RANK_DAY, weak=True,
                         anchored=_next_day))  # fmt: skip
    for m in re.finditer(rf"{B}(?:des |im |dem )?vorjahr(?:es|s)?{E}", text):  # des Vorjahres: last year
        out.append(Found(m.start(), m.end(), year_span(today.year - 1), "year", RANK_RELATIVE))
    for m in re.finditer(rf"{B}(?P<w>jahres|monats)(?P<p>ende|anfang|beginn|mitte){E}", text):
        whole = year_span(today.year) if m["w"] == "jahres" else month_span(today.year, today.month)
        part = {"ende": "late", "anfang": "early", "beginn": "early", "mitte": "mid"}[m["p"]]
        piece = apply_part(whole, "year" if m["w"] == "jahres" else "month", part)
        if piece:
            out.append(Found(m.start(), m.end(), piece, "period", RANK_PERIOD))
    return out


_CHAIN_UNITS = {
    "week": "week|semaine|semana|settimana|woche|неделе|неделю|недели",
    "month": "month|mois|mes|mese|monat|месяце|месяц|месяца",
    "year": "year|année|año|anno|jahr|году|год|года",
    "weekend": "weekend|week-end|fin de semana|wochenende|выходных|выходные",
}
# (words around a unit, periods from this one): the week before last, vorletzte Woche, la semana antepasada
_CHAIN_FORMS = [
    (r"(?:the )?(?:{u}) before last", -2),
    (r"(?:the )?(?:{u}) after next", 2),
    (r"(?:vorletzte|vorletzten|vorletzter|vorletztes|vorvergangene|vorvergangenen) (?:{u})", -2),
    (r"(?:übernächste|übernächsten|übernächster|übernächstes) (?:{u})", 2),
    (r"(?:la |el )?(?:{u}) antepasad[ao]", -2),
    (r"(?:l'|la |le )?avant-derni(?:er|ère) (?:{u})", -2),
    (r"(?:la |il |l')?(?:{u}) prima del(?:la|lo|l')? scors[ao]", -2),
    (r"(?:la |il |l')?(?:{u}) dopo (?:la|il|lo|l') ?prossim[ao]", 2),
    (r"(?:на |в )?позапрошл\w* (?:{u})", -2),
]
_CHAINS = [(re.compile(rf"{B}{form.format(u=forms)}{E}"), unit, steps)
           for unit, forms in _CHAIN_UNITS.items() for form, steps in _CHAIN_FORMS]  # fmt: skip


def _chains(text: str, ctx: Context) -> list[Found]:
    """the week / month / year / weekend before last (vorletzte, antepasada, позапрошлой, avant-dernière,
    prima della scorsa) and after next; the Monday before last / after next; this past Monday."""
    out = []
    today = ctx.today
    for pattern, unit, steps in _CHAINS:
        for m in pattern.finditer(text):
            out.append(Found(m.start(), m.end(), relative_period(unit, today, steps), unit, RANK_AGO))
    for m in re.finditer(rf"{B}(?:the |el |la |le |il )?(?P<d>{WEEKDAY}) (?:before last|antes del pasado|avant-dernier)"
                         rf"{E}|{B}(?:am |l'|le )?(?:vorletzten|vorletzter|vorletzte|avant-dernier|avant-dernière) "
                         rf"(?P<e>{WEEKDAY}){E}", text):  # fmt: skip
        weekday = m["d"] or m["e"]
        last = weekday_relative(words.WEEKDAY_NAMES[weekday], today, "last")
        out.append(Found(m.start(), m.end(), day(last - timedelta(weeks=1)), "day", RANK_AGO))
    for m in re.finditer(rf"{B}(?:the )?(?P<d>{WEEKDAY}) after next{E}", text):
        nxt = weekday_relative(words.WEEKDAY_NAMES[m["d"]], today, "next")
        out.append(Found(m.start(), m.end(), day(nxt + timedelta(weeks=1)), "day", RANK_AGO))
    for m in re.finditer(rf"{B}this past (?P<d>{WEEKDAY}){E}", text):
        out.append(Found(m.start(), m.end(), day(weekday_relative(words.WEEKDAY_NAMES[m["d"]], today, "last")),
                         "day", RANK_AGO))  # fmt: skip
    return out


def _months(text: str, ctx: Context) -> list[Found]:
    """A month name: "last March" (the most recent that has ended), "this / next April", "in May" (the
    most recent that has started). A month name that is also a word ("May I", "la mission vers Mars",
    "Clínica Mayo": capitalised in a language that writes months in lower case) needs a cue; without
    one it is weak."""
    out = []
    tokens = _tokens(text)
    for i, (word, start, end) in enumerate(tokens):
        month = words.MONTH_NAMES.get(word) or words.MONTH_ABBREVIATIONS.get(word)
        if month is None:
            continue
        if word in words.MONTH_ABBREVIATIONS and word not in words.MONTH_NAMES:
            out.append(Found(start, end + (text[end : end + 1] == "."), month_relative(month, ctx.today, "bare"),
                             "month", RANK_MONTH, weak=True, in_year=partial(month_span, month=month),
                             repeats="year"))  # fmt: skip
            continue
        near = _modifier(tokens, i)
        which, lo, hi = near or ("bare", start, end)
        name = _capitalised_name(ctx.cased, start, word)
        cue = _cue_before(text, start, words.MONTH_CUES, ctx) and not name
        weak = not near and not cue and (word in words.AMBIGUOUS_MONTHS or name or word.isascii())
        if which == "bare" and ctx.future:  # "what will we do in December?": the coming one
            which = "this" if month >= ctx.today.month else "next"
        span = month_relative(month, ctx.today, which)
        out.append(Found(lo, hi, span, "month", RANK_MONTH, weak=weak,
                         in_year=partial(month_span, month=month), repeats="year"))  # fmt: skip
    return out


# time words of languages that write them in lower case (Spanish, Italian, French, Russian): written with a
# capital inside a sentence they are names or titles
_LOWER_CASE_MONTHS = {w for w in [*words.MONTH_NAMES, *words.SEASON_NAMES] if re.search("[а-я]", w)} | set(
    "enero febrero marzo abril mayo junio julio agosto septiembre setiembre octubre noviembre diciembre gennaio "
    "febbraio aprile maggio giugno luglio settembre ottobre dicembre janvier février mars avril juin juillet "
    "septembre octobre décembre primavera verano estate otoño otono autunno invierno inverno printemps été ete "
    "automne hiver".split())  # fmt: skip


def _capitalised_name(cased: str, start: int, word: str) -> bool:
    """A month name of a language that writes months in lower case, capitalised inside a sentence:
    a name ("Clínica Mayo", "Мая", "Mars")."""
    if word not in _LOWER_CASE_MONTHS or not cased[start : start + 1].isupper():
        return False
    before = _tail(cased, start).rstrip()
    return bool(before) and before[-1] not in '.!?¿¡:"«'


def _seasons(text: str, ctx: Context) -> list[Found]:
    """summer 2022, the summer of 2022, last summer, this winter, in the summer, летом."""
    out = []
    tokens = _tokens(text)
    for i, (word, start, end) in enumerate(tokens):
        season = words.SEASON_NAMES.get(word)
        if season is None:
            continue

        def in_year(y: int, season: str = season) -> Span:
            return season_of_year(season, y, ctx.hemisphere)

        after = re.match(rf" (?:of |de |del |di |dell'|des |d')?(?:the year )?({YEAR})(?: года| г\.?)?{E}", text[end:])
        year = (int(after[1]), after.end()) if after else None
        short = re.match(r" (?:del |de |di |dell')(\d\d)(?![\w.,:])| (\d\d)-(?:го|ого)(?!\w)", text[end:])
        if short and not year:  # "el verano del 22", "летом 22-го": a two-digit year, as "summer '22"
            two = int(short[1] or short[2])
            year = (two + (2000 if two <= ctx.today.year % 100 + 5 else 1900), short.end())
        year_before = re.search(rf"{B}({YEAR}) $", _tail(text, start))
        if year and _year_ok(year[0], ctx.today):
            out.append(Found(start, end + year[1], in_year(year[0]), "season", RANK_SEASON, year_given=True,
                             in_year=in_year))  # fmt: skip
            continue
        if year_before and _year_ok(int(year_before[1]), ctx.today):
            out.append(Found(year_before.start(), end, in_year(int(year_before[1])), "season", RANK_SEASON,
                             year_given=True, in_year=in_year))  # fmt: skip
            continue
        near = _modifier(tokens, i)
        which, lo, hi = near or ("bare", start, end)
        cue = _cue_before(text, start, ["in", "during", "over", "this", "en", "durante", "in", "au", "im",
                                        "во", "в", "d'", "de", "cet", "el", "la", "l'", "für", "por"], ctx)  # fmt: skip
        # a season needs a cue, a modifier or a year; Russian's instrumental (летом, зимой: "in summer") is one
        weak = not near and not cue and not re.search(r"(?:ом|ой|ью)$", word)
        weak = weak or _capitalised_name(ctx.cased, start, word)
        if which == "bare" and ctx.future:  # "what will we do in the summer?": the one under way, else the next
            current = season_relative(season, ctx.today, ctx.hemisphere, "this")
            which = "this" if current.start <= ctx.today <= current.end else "next"
        span = season_relative(season, ctx.today, ctx.hemisphere, which)
        out.append(Found(lo, hi, span, "season", RANK_SEASON, weak=weak, in_year=in_year, repeats="year"))
    return out


_QUARTER_WORD = r"(?:quarter|trimestre|quartal|квартал[еау]?)"


_YEAR_WORDS = r"year|année|an|año|anno|jahres|jahr|года|году|год"
_OF_A_RELATIVE_YEAR = re.compile(rf",? (?:of |in |de |del |di |dell'|des |du |d')?(?:the |l'|la |el |il |le )?"
                                 rf"(?:(?:{LAST}|{THIS}|{NEXT}) (?:{_YEAR_WORDS})"
                                 rf"|(?:{_YEAR_WORDS}) (?:{LAST}|{THIS}|{NEXT})){E}")  # fmt: skip


def _quarters(text: str, ctx: Context) -> list[Found]:
    """Q3 2024, 2024 Q3, q2 (this year's), the third quarter (of 2022), el tercer trimestre de 2022, im
    dritten Quartal 2024, в третьем квартале 2024 года."""
    out = []
    year_tail = rf"(?:,? (?:of |de |del |di |des |dell'|d')?(?P<y>{YEAR})(?: года| г\.?)?)?"
    patterns = [
        rf"{B}(?P<y0>{YEAR})[ /-]?q(?P<q>[1-4]){E}",
        rf"{B}q(?P<q>[1-4])(?:[ /-]?(?:'|')?(?P<y>{YEAR}))?{E}",
        rf"{B}t(?P<q>[1-4])[ /-]?(?P<y>{YEAR}){E}",
        rf"{B}(?:the |el |il |le |das |im |in the |в |во |au |nel |en el )?(?P<o>{ORD}) {_QUARTER_WORD}{year_tail}{E}",
        rf"{B}(?P<q>[1-4])(?:st|nd|rd|th|\.|º|er|e|-?й|-?м)? {_QUARTER_WORD}{year_tail}{E}",
    ]
    for pattern in patterns:
        for m in re.finditer(pattern, text):
            g = m.groupdict()
            quarter = int(g["q"]) if g.get("q") else int(words.ORDINALS[g["o"]])
            if quarter == -1 and not g.get("y") and not _OF_A_RELATIVE_YEAR.match(text, m.end()):
                continue  # "last quarter": the previous one (_relative_units); "the last quarter of 2024": Q4
            quarter = 4 if quarter == -1 else quarter
            if not 1 <= quarter <= 4:
                continue
            y = g.get("y") or g.get("y0")
            if y and not _year_ok(int(y), ctx.today):
                continue
            year = int(y) if y else ctx.today.year
            out.append(Found(m.start(), m.end(), quarter_span(year, quarter), "quarter", RANK_PERIOD,
                             year_given=bool(y), in_year=partial(quarter_span, quarter=quarter),
                             repeats="year"))  # fmt: skip
    return out


def _weeks(text: str, ctx: Context) -> list[Found]:
    """ISO weeks: week 23 (of 2024), KW 23, the 23rd week of 2024, semaine 23."""
    out = []
    patterns = [
        rf"{B}(?:calendar week|week|kw|kalenderwoche|semaine|semana|settimana|неделя|неделе) ?(?:no\.? |nr\.? |n° |#)?"
        rf"(?P<w>\d{{1,2}})(?:,? (?:of |de |del |di |des jahres )?(?P<y>{YEAR}))?{E}",
        rf"{B}(?:the |la |на |в )?(?P<w>\d{{1,2}})(?:st|nd|rd|th|\.|e|ème|ª|º|-?й|-?я|-?ой) (?:calendar )?"
        rf"(?:week|kw|kalenderwoche|semaine|semana|settimana|неделе|неделя|неделю)(?: of| de| del| di| des jahres)?"
        rf"(?: (?P<y>{YEAR})(?: года)?)?{E}",
    ]
    for pattern in patterns:
        for m in re.finditer(pattern, text):
            year = int(m["y"]) if m["y"] else ctx.today.year
            span = iso_week(year, int(m["w"]))
            if span and 1 <= int(m["w"]) <= 53:
                out.append(Found(m.start(), m.end(), span, "week", RANK_PERIOD, year_given=bool(m["y"])))
    return out


_HOLIDAY_NAMES = _alt(n for n in named_days.NAMES if n.isascii() or not re.search(r"[\u3040-\u9fff]", n))


def _holidays(text: str, ctx: Context) -> list[Found]:
    """Christmas, Easter, Thanksgiving, Silvester, Noël, Nochevieja, Ferragosto, Рождество ... (named_days)."""
    out = []
    tokens = _tokens(text)
    for m in re.finditer(rf"(?:{B}|(?<=\w'))(?:{_HOLIDAY_NAMES}){E}", text):  # all'Epifania: after an elision too
        key = named_days.NAMES[m.group(0)]
        year = re.match(rf",? (?:de |del |di |of |des )?({YEAR})(?: года| г\.?)?{E}", text[m.end() :])
        end = m.end()
        start = m.start()
        if year and _year_ok(int(year[1]), ctx.today):
            span = named_days.occurrence(key, int(year[1]))
            end += year.end()
            year_given = True
        else:
            first = next((i for i, t in enumerate(tokens) if t[1] >= m.start()), 0)
            last = max((i for i, t in enumerate(tokens) if t[2] <= m.end()), default=first)
            near = _modifier(tokens, first, last)
            which, start, end = near or ("future" if ctx.future else "bare", start, end)
            span = named_days.resolve(key, ctx.today, which)
            year_given = False
        if span is None:
            continue
        out.append(Found(start, end, span, "holiday", RANK_PERIOD, year_given=year_given,
                         in_year=partial(named_days.occurrence, key), repeats="year"))  # fmt: skip
    return out


_YEAR_CUE = _alt(words.YEAR_CUES)
_YEAR_NOUN = (
    r"the year|year|jahr|jahres|des jahres|im jahr|im jahre|l'année|l'an|année|el año|del año|año|l'anno|dell'anno|anno"
)


def _cased_cue(ctx: Context, m: re.Match[str], group: str) -> bool:
    """The cue word is written with a capital inside a sentence: it starts a title ("El otoño del
    patriarca"), it does not make a date."""
    if not m[group]:
        return False
    start = m.start(group)
    before = _tail(ctx.cased, start).rstrip()
    return ctx.cased[start : start + 1].isupper() and bool(before) and before[-1] not in '.!?¿¡:"«'


def _years(text: str, ctx: Context) -> list[Found]:
    """in / during / the year YYYY, в 2020 году: that year; a bare YYYY is a weak atom (a range or an
    open end may use it: "between 2019 and 2021", "before 2020"); "the 2020 election" has no window."""
    out = []
    for m in re.finditer(rf"(?<![\w.,/#])(?<!\d-)(?:(?P<cue>{_YEAR_CUE}) )?(?:(?P<noun>{_YEAR_NOUN}) )?(?P<y>{YEAR})"
                         rf"(?P<suffix> (?:году|год|года|г\.?))?(?![\w/]|-\d|[.,]\d)", text):  # fmt: skip
        year = int(m["y"])
        if not _year_ok(year, ctx.today) or _cased_cue(ctx, m, "cue"):
            continue
        weak = not (m["cue"] or m["suffix"] or m["noun"])
        start = m.start("noun") if m["noun"] else m.start("y")
        out.append(Found(start, m.end(), year_span(year), "year", RANK_YEAR, weak=weak, year_given=True))
    return out


def _weekdays(text: str, ctx: Context) -> list[Found]:
    """last Tuesday (strictly before today), this / next Friday (of this / next week), on Monday (the most
    recent, today included), Monday of last week; a time of day after it only describes it."""
    out = []
    tokens = _tokens(text)
    for i, (word, start, end) in enumerate(tokens):
        weekday = words.WEEKDAY_NAMES.get(word)
        if weekday is None:
            stem = next((w for w in words.WEEKDAY_NAMES if word.startswith(w) and word[len(w) :] in words.DAY_PARTS),
                        None)  # fmt: skip
            if stem is None:
                continue
            weekday = words.WEEKDAY_NAMES[stem]
        week = re.match(rf" (?:of |de la |della |der |de |на |in der |la )?(?:the )?(?P<m>{LAST}|{THIS}|{NEXT})"
                        rf" (?:week|semana|settimana|semaine|woche|неделе){E}", text[end:])  # fmt: skip
        if week:
            shift = {"last": -1, "this": 0, "next": 1}[words.MODIFIERS[week["m"]]]
            d = week_span(ctx.today, shift).start + timedelta(days=weekday)
            out.append(Found(start, end + week.end(), day(d), "day", RANK_WEEKDAY, in_week=True))
            continue
        week = re.search(rf"{B}(?P<m>{LAST}|{THIS}|{NEXT}) (?:week|semana|settimana|semaine|woche|неделе) $",
                         _tail(text, start))  # fmt: skip
        if week:  # "letzte Woche Dienstag", "next week Friday"
            shift = {"last": -1, "this": 0, "next": 1}[words.MODIFIERS[week["m"]]]
            d = week_span(ctx.today, shift).start + timedelta(days=weekday)
            out.append(Found(week.start(), end, day(d), "day", RANK_WEEKDAY, in_week=True))
            continue
        near = _modifier(tokens, i)
        which, lo, hi = near or ("bare", start, end)
        d = weekday_relative(weekday, ctx.today, which)
        if which == "bare" and ctx.soon:  # "what will we do on Monday?": the coming one, today included
            d = ctx.today + timedelta(days=(weekday - ctx.today.weekday()) % 7)
        part = re.match(rf" (?:{_alt(words.DAY_PARTS)}){E}", text[hi:])
        if part:
            hi += part.end()
        out.append(Found(lo, hi, day(d), "day", RANK_WEEKDAY, repeats="week", in_week=near is not None,
                         anchored=partial(weekday_seen_from, weekday)))  # fmt: skip
    return out


def _nows(text: str, ctx: Context) -> list[Found]:
    """now, present, jetzt, сих пор: the end of a range ("from March until now")."""
    return [Found(m.start(), m.end(), Span(ctx.today, ctx.today, True), "day", RANK_DAY, weak=True, now=True)
            for m in re.finditer(rf"{B}(?:now|present|the present|ahora|adesso|maintenant|présent|jetzt|сих пор"
                                 rf"|настоящего времени|la fecha|date){E}", text)]  # fmt: skip


def _german_compounds(text: str, ctx: Context) -> list[Found]:
    """die erste Juniwoche, in der letzten Juniwoche, die zweite Märzhälfte, in den letzten Oktobertagen."""
    out = []
    for m in re.finditer(rf"{B}(?:in )?(?:den |die )?(?P<o>ersten|letzten) (?P<m>{MONTH})tagen?{E}", text):
        whole = month_relative(_month_number(m["m"]), ctx.today, "bare")
        span = apply_part(whole, "month", "early" if m["o"] == "ersten" else "late")
        if span:
            out.append(Found(m.start(), m.end(), span, "period", RANK_PERIOD))
    parts = {"erste": "week 1", "zweite": "week 2", "dritte": "week 3", "vierte": "week 4", "letzte": "week last"}
    for m in re.finditer(rf"{B}(?:in )?(?:der |die )?(?P<o>erste|zweite|dritte|vierte|letzte)n? (?P<m>{MONTH})"
                         rf"(?P<k>woche|hälfte){E}", text):  # fmt: skip
        month = _month_number(m["m"])
        part = parts[m["o"]] if m["k"] == "woche" else {"erste": "first half", "zweite": "second half"}.get(m["o"])
        span = apply_part(month_relative(month, ctx.today, "bare"), "month", part) if part else None
        if span:
            out.append(Found(m.start(), m.end(), span, "period", RANK_PERIOD))
    return out


FINDERS = [_numeric_dates, _dates, _days_alone, _days_of_relative_months, _german_compounds, _month_years,
           _fixed_days, _ago, _fractions, _durations, _relative_units, _chains, _months, _seasons, _quarters, _weeks,
           _holidays, _years, _weekdays, _nows]  # fmt: skip


def atoms(query: str, today: date, hour: int, hemisphere: str) -> tuple[str, list[Found]]:
    """The normalised text of ``query`` and every time expression in it."""
    text, cased = normalise(query, today)
    future = bool(FUTURE_CUES.search(text) or _PRESENT_FOR_FUTURE.search(text))
    german_present = bool(_GERMAN_QUESTION.search(text)) and not _GERMAN_PAST.search(text)
    ctx = Context(today, hour, hemisphere, future, cased, soon=future or german_present)
    found: list[Found] = []
    for finder in FINDERS:
        found.extend(finder(text, ctx))
    return text, [f for f in found if not _not_a_date(f, text, ctx)]


# the present for the future: "what are we doing on Friday?", "what's planned for Monday?" ("what were we doing",
# "what did we plan" are past)
_PRESENT_FOR_FUTURE = re.compile(
    r"(?<![\w'])(?:(?:am i|are (?:we|you|they)|is (?:he|she|it|there)|we're|i'm|you're|they're|he's|she's) "
    r"(?:\w+ )?\w{2,}ing|(?:is|are) (?:\w+ )?(?:planned|scheduled|booked|coming up|happening|on the agenda))(?!\w)"
    r"|(?<=\w)(?:'s|'re) (?:\w+ )?(?:planned|scheduled|booked|coming up|happening|on the agenda)(?!\w)"
)
# German says the coming weekday in the present ("Was machen wir am Freitag?"); a form of haben or sein's past
# makes the question past ("Was habe ich am Wochenende gemacht?", "Wie war das Wochenende?")
_GERMAN_QUESTION = re.compile(r"(?<!\w)(?:wir|ich|du|ihr|habe|hast|habt|haben|sind|seid|nicht|und|dem|für|übers|wen|"
                              r"wem|wie|mit|machen|machst|geplant|ist|gibt)(?!\w)")  # fmt: skip
_GERMAN_PAST = re.compile(r"(?<!\w)(?:habe|hast|hat|haben|habt|hatte|hattest|hatten|war|warst|waren|wart|wurde|"
                          r"wurden|gewesen|ging|gingen)(?!\w)")  # fmt: skip
_QUOTED = re.compile(r"«[^»]*»|“[^”]*”|„[^“”]*[“”]|\"[^\"]*\"")
_STREET = re.compile(r"(?:street|st\.|avenue|ave\.|road|straße|strasse|str\.|platz|allee|calle|avenida|plaza|via|viale|"
                     r"piazza|corso|rue|boulevard|place|avenue|улица|улице|улицу|улицы|проспект|проспекте|площадь|"
                     r"площади|переулок)(?: del| de la| de| des| du| della| dei)? $")  # fmt: skip
_RECURRING = re.compile(r"(?:every|each|jeden|jede|jedes|todos los|todas las|(?<!\w)los|cada|ogni|tutti i|tutte le|"
                        r"tous les|toutes les|chaque|каждый|каждую|каждое|каждого) $")  # fmt: skip
# an indefinite article before a weekday: any such day ("a" is a preposition in Spanish and Italian: "de lunes a
# viernes", so only after an English or German word)
_ANY_WEEKDAY = re.compile(r"(?<!\w)(?:un|une|ein|einem|einen|cualquier|qualsiasi|qualunque|любой|любую|любое) $")
_ANY_WEEKDAY_EN = re.compile(r"(?<![\w'])(?:a|an|any|some) $")
_ENGLISH_NAMED_DAYS = set(
    "monday tuesday wednesday thursday friday saturday sunday january february march april may june july august "
    "september october november december".split()
)
_GREETING = re.compile(r"(?:happy|merry|frohe|frohes|fröhliche|schöne|schönes|joyeux|joyeuses|bonne|feliz|felices|"
                       r"buon|buona|buone) $")  # fmt: skip
_TIME_WORDS = {*words.MONTH_NAMES, *words.WEEKDAY_NAMES, *words.SEASON_NAMES, *words.DAY_PARTS, *words.UNITS}


def _not_a_date(f: Found, text: str, ctx: Context) -> bool:
    """Names and titles that hold time words: a title in quotation marks («Лето», "Summer of '42"), a
    street named after a date (улица 8 Марта, via XX Settembre), a recurring day (every Monday, todos los
    lunes), a greeting (Happy New Year, Frohe Weihnachten), and a capitalised time word inside a sentence
    next to another capitalised word (Natale Rossi, Primavera Sound, March Madness, Black Monday)."""
    if any(q.start() < f.start and f.end <= q.end() for q in _QUOTED.finditer(ctx.cased)):
        return True
    before = _tail(text, f.start)
    if _STREET.search(before) or (_RECURRING.search(before) and f.kind == "day" and f.repeats == "week"):
        return True
    if (
        f.kind == "day"
        and f.repeats == "week"
        and (
            _ANY_WEEKDAY.search(before)
            or (_ANY_WEEKDAY_EN.search(before) and text[f.start : f.end].split(" ")[0] in _ENGLISH_NAMED_DAYS)
        )
    ):
        return True  # "never on a Friday", "any Monday", "un lunes": a weekday in general
    greeting = _GREETING.search(before) or (before.endswith("с ") and text[f.end - 2 : f.end] == "ом")
    if f.kind == "holiday" and greeting:
        return True  # "Happy new year", "Frohe Weihnachten", "С Рождеством": a greeting, not a date
    first = ctx.cased[f.start : f.end].split(" ")[0]
    if first[:1].isupper() and _tail(ctx.cased, f.start).rstrip()[-1:] not in ("", ".", "!", "?", "¿", "¡", ":", '"'):
        following = re.match(r" ([^\W\d_][\w']*)", ctx.cased[f.end :])
        if following and following[1][:1].isupper() and following[1].lower() not in _TIME_WORDS:
            return True
        tail = _tail(ctx.cased, f.start)
        previous = re.search(r"(?:^|(?<=[\s(\"«]))([^\W\d_][\w']*) $", tail)
        before_previous = tail[: previous.start()].rstrip()[-1:] if previous else ""
        if (first.lower() in _ENGLISH_NAMED_DAYS and previous and previous[1][:1].isupper() and previous[1] != "I"
                and before_previous not in ("", ".", "!", "?", "¿", "¡", ":")
                and previous[1].lower() not in _TIME_WORDS and previous[1].lower() not in words.MODIFIERS):  # fmt: skip
            return True  # "What caused Black Monday?" (English only: German writes every noun with a capital)
    return False
