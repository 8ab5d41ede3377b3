"""Holidays: the names people use in a question, and the days they fall on.

Fixed days are written here (Christmas is 25 December everywhere but in Russian, where Рождество
is the Orthodox 7 January). Movable ones come from well-kept libraries: Easter from
``dateutil.easter`` (Western, or Orthodox for Пасха), the others from the ``holidays`` package's
calendars (Thanksgiving, Labor Day and Memorial Day from its United States calendar; 春节, 清明,
端午 and 中秋 from its China calendar). The ``holidays`` package is imported only when a question
names a holiday that needs it.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from datetime import date, timedelta

from .dates import Span


@dataclass(frozen=True)
class Holiday:
    """``fixed``: (month, day); ``easter``: "western" or "orthodox"; ``calendar``: (country, the name
    the ``holidays`` library gives it); ``offset``: days after that date; ``length``: days."""

    fixed: tuple[int, int] | None = None
    easter: str | None = None
    calendar: tuple[str, str] | None = None
    offset: int = 0
    length: int = 1


SPRING_FESTIVAL = ("CN", "Chinese New Year (Spring Festival)")

HOLIDAYS: dict[str, Holiday] = {
    "christmas": Holiday(fixed=(12, 25)),
    "christmas eve": Holiday(fixed=(12, 24)),
    "new year's eve": Holiday(fixed=(12, 31)),
    "new year's day": Holiday(fixed=(1, 1)),
    "new year holidays": Holiday(fixed=(1, 1), length=3),  # 正月
    "halloween": Holiday(fixed=(10, 31)),
    "valentine's day": Holiday(fixed=(2, 14)),
    "independence day": Holiday(fixed=(7, 4)),
    "all saints' day": Holiday(fixed=(11, 1)),
    "epiphany": Holiday(fixed=(1, 6)),
    "ferragosto": Holiday(fixed=(8, 15)),
    "german unity day": Holiday(fixed=(10, 3)),
    "may day": Holiday(fixed=(5, 1)),
    "orthodox christmas": Holiday(fixed=(1, 7)),
    "victory day": Holiday(fixed=(5, 9)),
    "national day": Holiday(fixed=(10, 1)),
    "golden week": Holiday(fixed=(10, 1), length=7),  # 国庆黄金周
    "japanese golden week": Holiday(fixed=(4, 29), length=7),
    "obon": Holiday(fixed=(8, 13), length=4),
    "easter": Holiday(easter="western"),
    "good friday": Holiday(easter="western", offset=-2),
    "easter monday": Holiday(easter="western", offset=1),
    "easter weekend": Holiday(easter="western", offset=-1, length=3),  # Saturday to Monday
    "holy week": Holiday(easter="western", offset=-7, length=8),  # Palm Sunday to Easter Sunday
    "orthodox holy week": Holiday(easter="orthodox", offset=-7, length=8),
    "orthodox easter": Holiday(easter="orthodox"),
    "orthodox good friday": Holiday(easter="orthodox", offset=-2),
    "thanksgiving": Holiday(calendar=("US", "Thanksgiving Day")),
    "black friday": Holiday(calendar=("US", "Thanksgiving Day"), offset=1),
    "cyber monday": Holiday(calendar=("US", "Thanksgiving Day"), offset=4),
    "labor day": Holiday(calendar=("US", "Labor Day")),
    "memorial day": Holiday(calendar=("US", "Memorial Day")),
    "spring festival": Holiday(calendar=SPRING_FESTIVAL),
    "chinese new year's eve": Holiday(calendar=SPRING_FESTIVAL, offset=-1),
    "lantern festival": Holiday(calendar=SPRING_FESTIVAL, offset=14),
    "qingming": Holiday(calendar=("CN", "Tomb-Sweeping Day")),
    "dragon boat festival": Holiday(calendar=("CN", "Dragon Boat Festival")),
    "mid-autumn festival": Holiday(calendar=("CN", "Mid-Autumn Festival")),
}

# What people write (lower case) -> the holiday. Longer names are matched first.
NAMES: dict[str, str] = {
    **dict.fromkeys(
        [
            "christmas",
            "christmas day",
            "xmas",
            "x-mas",
            "weihnachten",
            "erster weihnachtstag",
            "noël",
            "noel",
            "navidad",
            "natale",
            "католическое рождество",
            "католического рождества",
            "圣诞",
            "圣诞节",
            "聖誕",
            "聖誕節",
            "クリスマス",
        ],
        "christmas",
    ),
    **dict.fromkeys(
        [
            "christmas eve",
            "heiligabend",
            "heiligen abend",
            "heilig abend",
            "veille de noël",
            "réveillon de noël",
            "nochebuena",
            "vigilia di natale",
            "vigilia",
            "平安夜",
            "クリスマスイブ",
            "クリスマス・イブ",
        ],
        "christmas eve",
    ),
    **dict.fromkeys(
        [
            "new year's eve",
            "new years eve",
            "new year eve",
            "silvester",
            "saint-sylvestre",
            "la saint sylvestre",
            "réveillon du nouvel an",
            "réveillon du jour de l'an",
            "nochevieja",
            "san silvestro",
            "канун нового года",
            "новогоднюю ночь",
            "новогодняя ночь",
            "大晦日",
        ],
        "new year's eve",
    ),
    **dict.fromkeys(
        [
            "new year's day",
            "new years day",
            "new year's",
            "new year",
            "neujahr",
            "neujahrstag",
            "jour de l'an",
            "nouvel an",
            "año nuevo",
            "capodanno",
            "новый год",
            "нового года",
            "новому году",
            "новом году",
            "новогодние",
            "元旦",
            "元日",
        ],
        "new year's day",
    ),
    **dict.fromkeys(["正月", "お正月"], "new year holidays"),
    **dict.fromkeys(["halloween", "хэллоуин", "万圣节", "萬聖節", "ハロウィン"], "halloween"),
    **dict.fromkeys(
        [
            "valentine's day",
            "valentines day",
            "valentine's",
            "valentinstag",
            "saint-valentin",
            "la saint valentin",
            "san valentín",
            "san valentin",
            "san valentino",
            "день святого валентина",
            "情人节",
            "情人節",
            "バレンタインデー",
            "バレンタイン",
        ],
        "valentine's day",
    ),
    **dict.fromkeys(
        ["independence day", "the fourth of july", "fourth of july", "the 4th of july"], "independence day"
    ),
    **dict.fromkeys(
        [
            "all saints' day",
            "all saints day",
            "toussaint",
            "la toussaint",
            "allerheiligen",
            "ognissanti",
            "todos los santos",
        ],
        "all saints' day",
    ),
    **dict.fromkeys(
        [
            "epiphany",
            "dreikönigstag",
            "heilige drei könige",
            "épiphanie",
            "día de reyes",
            "reyes",
            "los reyes",
            "epifania",
            "l'epifania",
            "befana",
            "la befana",
        ],
        "epiphany",
    ),
    **dict.fromkeys(["ferragosto"], "ferragosto"),
    **dict.fromkeys(["tag der deutschen einheit", "german unity day"], "german unity day"),
    **dict.fromkeys(
        [
            "tag der arbeit",
            "fête du travail",
            "fete du travail",
            "día del trabajo",
            "día del trabajador",
            "festa dei lavoratori",
            "primo maggio",
            "первомай",
            "劳动节",
            "勞動節",
            "五一",
            "五一劳动节",
        ],
        "may day",
    ),
    **dict.fromkeys(["рождество", "рождества", "рождеству", "рождеством"], "orthodox christmas"),
    **dict.fromkeys(["день победы", "дня победы", "victory day"], "victory day"),
    **dict.fromkeys(["国庆", "国庆节", "國慶", "國慶節", "十一国庆"], "national day"),
    **dict.fromkeys(
        ["国庆黄金周", "国庆长假", "国庆假期", "十一长假", "十一假期", "十一黄金周", "國慶假期"], "golden week"
    ),
    **dict.fromkeys(["ゴールデンウィーク", "ゴールデンウイーク"], "japanese golden week"),
    **dict.fromkeys(["お盆", "盂兰盆"], "obon"),
    **dict.fromkeys(
        [
            "easter",
            "easter sunday",
            "ostern",
            "ostersonntag",
            "pâques",
            "paques",
            "pascua",
            "domingo de pascua",
            "domingo de resurrección",
            "pasqua",
            "復活祭",
            "复活节",
        ],
        "easter",
    ),
    **dict.fromkeys(["good friday", "karfreitag", "vendredi saint", "viernes santo", "venerdì santo"], "good friday"),
    **dict.fromkeys(
        [
            "easter monday",
            "ostermontag",
            "lundi de pâques",
            "lundi de paques",
            "lunes de pascua",
            "pasquetta",
            "lunedì dell'angelo",
        ],
        "easter monday",
    ),
    **dict.fromkeys(["пасха", "пасху", "пасхи", "пасхе"], "orthodox easter"),
    **dict.fromkeys(["страстная пятница", "страстную пятницу", "страстной пятницы"], "orthodox good friday"),
    **dict.fromkeys(["thanksgiving", "thanksgiving day"], "thanksgiving"),
    **dict.fromkeys(["black friday"], "black friday"),
    **dict.fromkeys(["cyber monday"], "cyber monday"),
    **dict.fromkeys(
        ["easter weekend", "osterwochenende", "le week-end de pâques", "week-end de pâques"], "easter weekend"
    ),
    **dict.fromkeys(["holy week", "semana santa", "settimana santa", "karwoche", "semaine sainte"], "holy week"),
    **dict.fromkeys(["страстная неделя", "страстную неделю", "страстной неделе"], "orthodox holy week"),
    **dict.fromkeys(["labor day"], "labor day"),
    **dict.fromkeys(["memorial day"], "memorial day"),
    **dict.fromkeys(["春节", "春節", "大年初一", "chinese new year", "lunar new year", "旧正月"], "spring festival"),
    **dict.fromkeys(["除夕", "大年三十", "年三十", "大年夜"], "chinese new year's eve"),
    **dict.fromkeys(["元宵", "元宵节", "元宵節"], "lantern festival"),
    **dict.fromkeys(["清明", "清明节", "清明節"], "qingming"),
    **dict.fromkeys(["端午", "端午节", "端午節"], "dragon boat festival"),
    **dict.fromkeys(["中秋", "中秋节", "中秋節"], "mid-autumn festival"),
}


@functools.lru_cache(maxsize=256)
def _calendar_dates(country: str, name: str, year: int) -> tuple[date, ...]:
    import holidays  # imported only when a question names such a holiday (about 0.15 s)

    found = holidays.country_holidays(country, years=year, language="en_US")
    return tuple(sorted(d for d, names in found.items() if name in names.split("; ")))


def occurrence(key: str, year: int) -> Span | None:
    """The days of holiday ``key`` in ``year``, or None when no calendar gives it for that year."""
    holiday = HOLIDAYS[key]
    if holiday.fixed is not None:
        first = date(year, *holiday.fixed)
    elif holiday.easter is not None:
        from dateutil.easter import EASTER_ORTHODOX, EASTER_WESTERN, easter

        first = easter(year, EASTER_ORTHODOX if holiday.easter == "orthodox" else EASTER_WESTERN)
    else:
        assert holiday.calendar is not None
        dates = _calendar_dates(*holiday.calendar, year)
        if not dates:
            return None
        first = dates[0]
    first += timedelta(days=holiday.offset)
    return Span(first, first + timedelta(days=holiday.length - 1))


def resolve(key: str, today: date, which: str) -> Span | None:
    """Which occurrence a question means: ``bare`` the most recent one that has started (today
    included), ``last`` the most recent that has ended, ``this`` this calendar year's, ``next`` / ``future``
    the first that starts after today (``future``: today included)."""
    if which == "this":
        return occurrence(key, today.year)
    spans = [s for y in range(today.year - 2, today.year + 3) if (s := occurrence(key, y)) is not None]
    if which == "last":
        past = [s for s in spans if s.end < today]
        return past[-1] if past else None
    if which == "next":
        future = [s for s in spans if s.start > today]
        return future[0] if future else None
    if which == "future":
        future = [s for s in spans if s.start >= today]
        return future[0] if future else None
    started = [s for s in spans if s.start <= today]
    return started[-1] if started else None
