"""Query analysis: the date window a query talks about.

``analyze(query, today)`` returns the whole days a query's time expression covers
("last week" -> the previous Monday to Sunday), or None when the query has no
time constraint. ``parse_temporal`` wraps it with a reference instant and a time
zone and returns aware datetimes from 00:00 of the first day to 23:59:59.999999 of
the last. Explicit rules come first (English, Spanish, Italian, French, German,
Russian, and Chinese with its own rule set); dateparser is only the fallback, and
is imported only for a query that shows a date signal the rules did not take.
See docs/temporal.md for every rule.
"""

from __future__ import annotations

import calendar
import re
import unicodedata
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from . import temporal_zh

DAY = timedelta(days=1)


@dataclass(frozen=True)
class Span:
    """Whole days, both ends included."""

    start: date
    end: date


# -- calendar helpers ----------------------------------------------------------------


def day(d: date) -> Span:
    return Span(d, d)


def month_span(year: int, month: int) -> Span:
    return Span(date(year, month, 1), date(year, month, calendar.monthrange(year, month)[1]))


def year_span(year: int) -> Span:
    return Span(date(year, 1, 1), date(year, 12, 31))


def week_span(any_day: date, weeks: int = 0) -> Span:
    """The Monday-to-Sunday week of ``any_day``, shifted by ``weeks``."""
    monday = any_day - timedelta(days=any_day.weekday()) + timedelta(weeks=weeks)
    return Span(monday, monday + 6 * DAY)


def add_months(d: date, months: int) -> date:
    index = d.year * 12 + d.month - 1 + months
    year, month = divmod(index, 12)
    return date(year, month + 1, min(d.day, calendar.monthrange(year, month + 1)[1]))


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
    first = SEASON_MONTHS[hemisphere][season]
    start = date(start_year, first, 1)
    end_month = add_months(start, 2)
    return Span(start, month_span(end_month.year, end_month.month).end)


def season_of_year(season: str, year: int, hemisphere: str) -> Span:
    """ "spring 2023": the season of that year; a December season is the one that holds January of ``year``."""
    first = SEASON_MONTHS[hemisphere][season]
    return season_span(season, year - 1 if first == 12 else year, hemisphere)


def season_relative(season: str, today: date, hemisphere: str, which: str) -> Span:
    candidates = [season_span(season, y, hemisphere) for y in range(today.year - 2, today.year + 2)]
    if which == "last":  # the most recent one that has ended
        return max((s for s in candidates if s.end < today), key=lambda s: s.end)
    if which == "next":
        return min((s for s in candidates if s.start > today), key=lambda s: s.start)
    if which == "bare":  # the most recent one that has started
        return max((s for s in candidates if s.start <= today), key=lambda s: s.start)
    # this: the one holding today, else the nearest
    return min(
        candidates,
        key=lambda s: 0 if s.start <= today <= s.end else min(abs((s.start - today).days), abs((today - s.end).days)),
    )


def weekday_relative(weekday: int, today: date, which: str) -> date:
    if which == "last":  # strictly before today
        return today - timedelta(days=(today.weekday() - weekday - 1) % 7 + 1)
    if which == "this":
        return week_span(today).start + timedelta(days=weekday)
    if which == "next":
        return week_span(today, 1).start + timedelta(days=weekday)
    return today - timedelta(days=(today.weekday() - weekday) % 7)  # bare: the most recent, today included


# -- vocabulary (lower case) ----------------------------------------------------------

NUMBERS = {
    **dict.fromkeys(
        [
            "a",
            "an",
            "one",
            "un",
            "una",
            "uno",
            "une",
            "ein",
            "eine",
            "einem",
            "einer",
            "einen",
            "один",
            "одну",
            "одна",
            "один",
        ],
        1,
    ),
    **dict.fromkeys(["two", "dos", "due", "deux", "zwei", "два", "две"], 2),
    **dict.fromkeys(["three", "tres", "tre", "trois", "drei", "три"], 3),
    **dict.fromkeys(["four", "cuatro", "quattro", "quatre", "vier", "четыре"], 4),
    **dict.fromkeys(["five", "cinco", "cinque", "cinq", "fünf", "пять"], 5),
    **dict.fromkeys(["six", "seis", "sei", "sechs", "шесть"], 6),
    **dict.fromkeys(["seven", "siete", "sette", "sept", "sieben", "семь"], 7),
    **dict.fromkeys(["eight", "ocho", "otto", "huit", "acht", "восемь"], 8),
    **dict.fromkeys(["nine", "nueve", "nove", "neuf", "neun", "девять"], 9),
    **dict.fromkeys(["ten", "diez", "dieci", "dix", "zehn", "десять"], 10),
    **dict.fromkeys(["eleven", "once", "undici", "onze", "elf", "одиннадцать"], 11),
    **dict.fromkeys(["twelve", "doce", "dodici", "douze", "zwölf", "двенадцать"], 12),
}

MONTH_NAMES: dict[str, int] = {}
for _index, _names in enumerate([
    "january enero gennaio janvier januar январь января январе",
    "february febrero febbraio février februar февраль февраля феврале",
    "march marzo mars märz март марта марте",
    "april abril aprile avril апрель апреля апреле",
    "may mayo maggio mai май мая мае",
    "june junio giugno juin juni июнь июня июне",
    "july julio luglio juillet juli июль июля июле",
    "august agosto août август августа августе",
    "september septiembre setiembre settembre septembre сентябрь сентября сентябре",
    "october octubre ottobre octobre oktober октябрь октября октябре",
    "november noviembre novembre ноябрь ноября ноябре",
    "december diciembre dicembre décembre dezember декабрь декабря декабре",
], start=1):  # fmt: skip
    for _name in _names.split():
        MONTH_NAMES[_name] = _index
MONTH_ABBREVIATIONS = {m[:3]: n for m, n in MONTH_NAMES.items() if m.isascii() and len(m) > 3} | {"sept": 9}

WEEKDAY_NAMES: dict[str, int] = {}
for _index, _names in enumerate([
    "monday lunes lunedì lunedi lundi montag понедельник",
    "tuesday martes martedì martedi mardi dienstag вторник",
    "wednesday miércoles miercoles mercoledì mercoledi mercredi mittwoch среда среду",
    "thursday jueves giovedì giovedi jeudi donnerstag четверг",
    "friday viernes venerdì venerdi vendredi freitag пятница пятницу",
    "saturday sábado sabado samedi samstag sonnabend суббота субботу",
    "sunday domingo domenica dimanche sonntag воскресенье",
]):  # fmt: skip
    for _name in _names.split():
        WEEKDAY_NAMES[_name] = _index

SEASON_NAMES = {
    **dict.fromkeys("spring primavera printemps frühling frühjahr весна весной весну весны".split(), "spring"),
    **dict.fromkeys("summer verano estate été sommer лето летом лета".split(), "summer"),
    **dict.fromkeys("autumn fall otoño autunno automne herbst осень осенью осени".split(), "autumn"),
    **dict.fromkeys("winter invierno inverno hiver зима зимой зиму зимы".split(), "winter"),
}

UNITS = {
    **dict.fromkeys(
        "week weeks semana semanas settimana settimane semaine semaines woche wochen неделя неделе "
        "неделю недели недель".split(),
        "week",
    ),
    **dict.fromkeys(
        "month months mes meses mese mesi mois monat monaten monate месяц месяце месяца месяцев".split(), "month"
    ),
    **dict.fromkeys(
        "year years año años anno anni année années an ans jahr jahren jahre jahres год году года лет".split(), "year"
    ),
    **dict.fromkeys("day days día días giorno giorni jour jours tag tagen tage день дня дней".split(), "day"),
    **dict.fromkeys("weekend weekends week-end wochenende выходные выходных".split(), "weekend"),
    **dict.fromkeys("quarter trimestre quartal квартал квартале квартала".split(), "quarter"),
}

LAST = set("last past previous pasado pasada anterior scorso scorsa scorsi passato passata dernier dernière derniers "
           "passé passée précédent précédente letzte letzten letzter letztes vergangene vergangenen vergangenes "
           "vorige vorigen voriges прошлый прошлой прошлом прошлую прошлого прошлые прошлых прошедшей "
           "прошедшие".split())  # fmt: skip
THIS = set("this current este esta estos questo questa quest' ce cet cette diese diesen dieser dieses этот этой "
           "этом эту этого эти".split())  # fmt: skip
NEXT = set("next coming upcoming próximo próxima siguiente prossimo prossima prochain prochaine nächste nächsten "
           "nächster nächstes kommende kommenden следующий следующей следующем следующую следующие "
           "будущей".split())  # fmt: skip

YESTERDAY = {"yesterday", "ayer", "ieri", "hier", "gestern", "вчера"}
TODAY = {"today", "hoy", "oggi", "aujourd'hui", "heute", "сегодня"}
TOMORROW = {"tomorrow", "domani", "demain", "morgen", "завтра"}  # "mañana" also means "morning": left out
DAY_BEFORE_YESTERDAY = ["the day before yesterday", "anteayer", "antier", "antes de ayer", "l'altro ieri",
                        "altroieri", "l'altroieri", "avantieri", "avant-hier", "vorgestern", "позавчера"]  # fmt: skip
COUPLE = ["a couple of", "couple of", "a couple", "un par de", "un paio di", "un couple de", "ein paar", "пару",
          "пара"]  # fmt: skip
FEW = ["a few", "few", "unos", "unas", "algunos", "algunas", "qualche", "alcuni", "alcune", "quelques", "einigen",
       "einige", "wenigen", "несколько"]  # fmt: skip

YEAR_CUES = ["in the year", "in", "during", "throughout", "the year", "since", "en el año", "en", "durante", "el año",
             "nel", "nell'anno", "l'anno", "nel corso del", "pendant", "durant", "l'année", "en l'an", "im jahr",
             "im jahre", "während", "jahr", "в", "во", "за"]  # fmt: skip
MONTH_CUES = ["in", "during", "since", "throughout", "en", "durante", "a", "nel mese di", "nel", "di", "au mois de",
              "au", "im", "в", "во", "in early", "in late", "in mid", "early", "late", "mid"]  # fmt: skip

WORD = r"[\w'’-]+"


def _normalise(query: str) -> str:
    text = unicodedata.normalize("NFC", query).lower().replace("’", "'")
    return re.sub(r"\s+", " ", text)


def _tokens(text: str) -> list[tuple[str, int, int]]:
    """Words with their positions; an elided article (l', d') is a word of its own."""
    out = []
    for match in re.finditer(r"[^\W\d_]+'|[\w-]+", text):
        out.append((match.group(0), match.start(), match.end()))
    return out


def _alt(words: Iterable[str]) -> str:
    return "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))


def _number(token: str) -> int | None:
    if token.isdigit():
        return int(token)
    return NUMBERS.get(token)


# -- explicit rules -------------------------------------------------------------------

Rule = Callable[[str, date, str], Span | None]


def _fixed_days(text: str, today: date, hemisphere: str) -> Span | None:
    if re.search(rf"(?<!\w)(?:{_alt(DAY_BEFORE_YESTERDAY)})(?!\w)", text):
        return day(today - 2 * DAY)
    words = {t for t, _, _ in _tokens(text)}
    if "aujourd'hui" in text or words & TODAY - {"aujourd'hui"}:
        return day(today)
    if words & YESTERDAY:
        return day(today - DAY)
    if words & TOMORROW:
        return day(today + DAY)
    return None


def _vague_ago(text: str, today: date, hemisphere: str) -> Span | None:
    """a couple of / a few days, weeks, months ago (ago, hace, fa, il y a, vor, назад)."""
    ago = r"(?:ago|fa|назад)"
    before = r"(?:hace|il y a|vor)"
    for words, kind in ((COUPLE, "couple"), (FEW, "few")):
        pattern = rf"(?<!\w)(?:{before} )?(?:{_alt(words)}) ({WORD})(?: {ago})?"
        for match in re.finditer(pattern, text):
            unit = UNITS.get(match.group(1))
            has_cue = re.match(before, text[max(0, match.start() - 8) : match.start()].strip()[-8:] or "x") or (
                match.group(0).startswith(("hace", "il y a", "vor"))
            )
            if unit not in ("day", "week", "month") or not (re.search(rf" {ago}$", match.group(0)) or has_cue):
                continue
            if unit == "day":
                return Span(today - (3 if kind == "couple" else 5) * DAY, today - (1 if kind == "couple" else 2) * DAY)
            if unit == "week":
                weeks = (3, 1) if kind == "couple" else (5, 2)
                return Span(today - timedelta(weeks=weeks[0]), today - timedelta(weeks=weeks[1]))
            days = (90, 30) if kind == "couple" else (150, 60)
            return Span(today - timedelta(days=days[0]), today - timedelta(days=days[1]))
    return None


def _n_ago(text: str, today: date, hemisphere: str) -> Span | None:
    """N days / weeks / months / years ago: that single day."""
    number = rf"(\d{{1,4}}|{_alt(NUMBERS)})"
    patterns = [
        rf"(?<!\w){number} ({WORD}) (?:ago|fa|назад)(?!\w)",
        rf"(?<!\w)(?:hace|il y a|vor) {number} ({WORD})",
    ]
    for pattern in patterns:
        for match in re.finditer(pattern, text):
            n, unit = _number(match.group(1)), UNITS.get(match.group(2))
            if n is None or unit not in ("day", "week", "month", "year"):
                continue
            if unit == "day":
                return day(today - timedelta(days=n))
            if unit == "week":
                return day(today - timedelta(weeks=n))
            return day(add_months(today, -n * (12 if unit == "year" else 1)))
    return None


def _modifier_near(tokens: list[tuple[str, int, int]], index: int) -> str | None:
    """last / this / next within two words of tokens[index] (before or after), the nearest first."""
    for distance in (1, 2):
        for j in (index - distance, index + distance):
            if 0 <= j < len(tokens):
                word = tokens[j][0].rstrip("'")
                if word in LAST or tokens[j][0] in LAST:
                    return "last"
                if word in THIS or tokens[j][0] in THIS:
                    return "this"
                if word in NEXT:
                    return "next"
    return None


def _relative_units(text: str, today: date, hemisphere: str) -> Span | None:
    """last / this / next week, month, year, weekend, quarter (in any of the six languages)."""
    text = text.replace("fin de semana", "weekend").replace("fine settimana", "weekend")
    tokens = _tokens(text)
    for i, (word, _, _) in enumerate(tokens):
        unit = UNITS.get(word)
        if unit not in ("week", "month", "year", "weekend", "quarter"):
            continue
        if i > 0 and _number(tokens[i - 1][0]) is not None:  # "3 weeks", "two years": not relative
            continue
        which = _modifier_near(tokens, i)
        if which is None:
            continue
        shift = {"last": -1, "this": 0, "next": 1}[which]
        if unit == "week":
            return week_span(today, shift)
        if unit == "month":
            return shift_month(today, shift)
        if unit == "year":
            return year_span(today.year + shift)
        if unit == "quarter":
            return shift_quarter(today, shift)
        # weekend: last = the most recent Saturday-Sunday before today; this / next = of this / next week
        if which == "last":
            sunday = today - timedelta(days=today.weekday() + 1)
            return Span(sunday - DAY, sunday)
        saturday = week_span(today, shift).start + 5 * DAY
        return Span(saturday, saturday + DAY)
    return None


def _quarters(text: str, today: date, hemisphere: str) -> Span | None:
    match = re.search(r"(?<!\w)(\d{4})[ /-]?q([1-4])(?!\w)", text)
    if match:
        return quarter_span(int(match.group(1)), int(match.group(2)))
    match = re.search(r"(?<!\w)q([1-4])(?:[ /-]?(\d{4}))?(?!\w)", text)
    if match:
        return quarter_span(int(match.group(2)) if match.group(2) else today.year, int(match.group(1)))
    match = re.search(r"(?<!\w)(first|second|third|fourth|1st|2nd|3rd|4th) quarter(?: of (\d{4}))?", text)
    if match:
        quarter = {"first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3, "fourth": 4, "4th": 4}
        return quarter_span(int(match.group(2)) if match.group(2) else today.year, quarter[match.group(1)])
    return None


def _year_ok(year: int, today: date) -> bool:
    return today.year - 120 <= year <= today.year + 20


def _full_dates(text: str, today: date, hemisphere: str) -> Span | None:
    """2024-03-05, 12 March 2023, March 12, 2023, 12 de marzo de 2023: that day."""
    match = re.search(r"(?<![\w-])(\d{4})-(\d{2})-(\d{2})(?![\w-])", text)
    if match:
        return day(date(int(match.group(1)), int(match.group(2)), int(match.group(3))))
    names = _alt(list(MONTH_NAMES) + list(MONTH_ABBREVIATIONS))
    match = re.search(
        rf"(?<!\w)(\d{{1,2}})(?:st|nd|rd|th|\.|º)? (?:of |de |di )?({names})\.?,? (?:de |del )?(\d{{4}})(?!\w)", text
    )
    if match:
        day_of_month, name, year = match.group(1), match.group(2), match.group(3)
    else:
        match = re.search(rf"(?<!\w)({names})\.? (\d{{1,2}})(?:st|nd|rd|th)?,? (\d{{4}})(?!\w)", text)
        if not match:
            return None
        name, day_of_month, year = match.group(1), match.group(2), match.group(3)
    month = MONTH_NAMES.get(name) or MONTH_ABBREVIATIONS[name]
    return day(date(int(year), month, int(day_of_month))) if _year_ok(int(year), today) else None


def _month_year(text: str, today: date, hemisphere: str) -> Span | None:
    """<month> <year>, <year> <month>, the <month> of <year> (month names of the six languages)."""
    names = _alt(list(MONTH_NAMES) + list(MONTH_ABBREVIATIONS))
    match = re.search(rf"(?<!\w)({names})\.?(?: (?:de|del|di|of|года|г\.?))?,? (\d{{4}})(?!\w)", text)
    if match and _year_ok(int(match.group(2)), today):
        month = MONTH_NAMES.get(match.group(1)) or MONTH_ABBREVIATIONS[match.group(1)]
        return month_span(int(match.group(2)), month)
    return None


def _seasons(text: str, today: date, hemisphere: str) -> Span | None:
    tokens = _tokens(text)
    for i, (word, _, _) in enumerate(tokens):
        season = SEASON_NAMES.get(word)
        if season is None:
            continue
        following = tokens[i + 1][0] if i + 1 < len(tokens) else ""
        preceding = tokens[i - 1][0] if i > 0 else ""
        for year_word in (following, preceding):
            if year_word.isdigit() and len(year_word) == 4 and _year_ok(int(year_word), today):
                return season_of_year(season, int(year_word), hemisphere)
        which = _modifier_near(tokens, i)
        if which is not None:
            return season_relative(season, today, hemisphere, which)
        cue = " ".join(t for t, _, _ in tokens[max(0, i - 2) : i])
        if re.search(r"(?:^| )(?:in|during|this|en|durante|in|a|au|en|im|во|в)(?: the| el| la| l'| der)?$", cue) or (
            not word.isascii()
        ):
            if word in ("fall",) and not cue:
                continue
            return season_relative(season, today, hemisphere, "bare")
    return None


def _named_months(text: str, today: date, hemisphere: str) -> Span | None:
    """last March (the most recent March that has ended), this / next March, in May (the most recent that has
    started)."""
    tokens = _tokens(text)
    for i, (word, _, _) in enumerate(tokens):
        month = MONTH_NAMES.get(word)
        if month is None:
            continue
        which = _modifier_near(tokens, i)
        if which == "last":
            year = today.year if month < today.month else today.year - 1
            return month_span(year, month)
        if which == "this":
            return month_span(today.year, month)
        if which == "next":
            return month_span(today.year if month > today.month else today.year + 1, month)
        cue = " ".join(t for t, _, _ in tokens[max(0, i - 3) : i])
        if re.search(rf"(?:^| )(?:{_alt(MONTH_CUES)})(?: the| el| la| le| il| der)?$", cue) or (
            not word.isascii() and word not in ("mars", "mai", "marzo", "mayo", "maggio")
        ):
            year = today.year if month <= today.month else today.year - 1
            return month_span(year, month)
    return None


def _years(text: str, today: date, hemisphere: str) -> Span | None:
    """in / during / throughout / the year YYYY (and the other languages' cues); never a bare number."""
    match = re.search(rf"(?<!\w)(?:{_alt(YEAR_CUES)}) (\d{{4}})(?!\w)", text)
    if match and _year_ok(int(match.group(1)), today):
        return year_span(int(match.group(1)))
    match = re.search(r"(?<!\w)(\d{4}) (?:году|год|г\.?)(?!\w)", text)
    if match and _year_ok(int(match.group(1)), today):
        return year_span(int(match.group(1)))
    return None


def _weekdays(text: str, today: date, hemisphere: str) -> Span | None:
    tokens = _tokens(text)
    for i, (word, _, _) in enumerate(tokens):
        weekday = WEEKDAY_NAMES.get(word)
        if weekday is None:
            continue
        which = _modifier_near(tokens, i) or "bare"
        return day(weekday_relative(weekday, today, which))
    return None


RULES: list[Rule] = [  # in this order: the first rule that matches decides
    _full_dates,
    _fixed_days,
    _vague_ago,
    _n_ago,
    _quarters,
    _month_year,
    _seasons,
    _named_months,
    _relative_units,
    _years,
    _weekdays,
]


# -- dateparser fallback --------------------------------------------------------------

_SIGNAL = re.compile(
    r"\d{1,4}[-/.]\d{1,2}(?:[-/.]\d{1,4})?|\d{1,2}(?:st|nd|rd|th)\b|\b(?:"
    + _alt(list(MONTH_NAMES) + list(WEEKDAY_NAMES))
    + r"|ago|hace|fa|назад|tomorrow|mañana|domani|demain|morgen|завтра|week|month|year|semana|mes|año|mois|"
    r"année|monat|jahr)\b"
)


def _dateparser(text: str, today: date) -> Span | None:
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
    return day(best[1]) if best else None


def _signal_strength(matched: str) -> int:
    """How clearly a dateparser match is a date: 0 = not at all (a bare number, a short word)."""
    score = 0
    if re.search(r"\d{1,4}[-/.]\d{1,2}", matched):
        score += 3
    words = set(re.findall(r"[^\W\d_]+", matched))
    if words & set(MONTH_NAMES) and re.search(r"\d", matched):  # "May" alone may be a verb
        score += 2
    if words & set(WEEKDAY_NAMES):
        score += 2
    if words & {"ago", "hace", "fa", "назад", "tomorrow", "mañana", "domani", "demain", "morgen", "завтра"}:
        score += 2
    if score and re.search(r"\d", matched):
        score += 1
    return score


# -- entry points ---------------------------------------------------------------------


def analyze(query: str, today: date, hemisphere: str = "north") -> Span | None:
    """The days ``query`` talks about, seen from ``today``, or None. Never raises for odd dates:
    arithmetic that leaves the years 1..9999 means no window."""
    if hemisphere not in SEASON_MONTHS:
        raise ValueError(f"hemisphere must be north or south, got {hemisphere!r}")
    try:
        if temporal_zh.has_cjk(query):
            days = temporal_zh.analyze(query, today)
            if days is not None:
                return Span(*days)
            if temporal_zh.blocks_fallback(query):
                return None
        text = _normalise(query)
        for rule in RULES:
            span = rule(text, today, hemisphere)
            if span is not None:
                return span
        return _dateparser(text, today)
    except (OverflowError, ValueError):
        return None


def parse_temporal(
    query: str,
    reference: datetime,
    time_zone: str = "UTC",
    hemisphere: str = "north",
) -> tuple[datetime, datetime] | None:
    """The window of ``query`` as aware datetimes in ``time_zone``: 00:00 of the first day to
    23:59:59.999999 of the last, with days counted from ``reference`` seen in that zone.

    None when the query has no time constraint. Raises ``ValueError`` for an unknown time zone
    or hemisphere; any other failure inside the analysis means None.
    """
    zone = _zone(time_zone)
    if reference.tzinfo is None:
        reference = reference.replace(tzinfo=ZoneInfo("UTC"))
    span = analyze(query, reference.astimezone(zone).date(), hemisphere)
    if span is None:
        return None
    return datetime.combine(span.start, time.min, zone), datetime.combine(span.end, time.max, zone)


def _zone(name: str) -> Any:
    try:
        return ZoneInfo(name)
    except (KeyError, ValueError) as exc:
        raise ValueError(f"unknown time zone {name!r}") from exc
