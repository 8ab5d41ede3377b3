"""Query analysis, table-driven: (query, reference day, expected first day, expected last day or None)."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from hindsight_pl.temporal import analyze, parse_temporal

W = date(2025, 1, 15)  # a Wednesday
A = date(2026, 8, 7)  # a Friday
J = date(2026, 7, 17)  # a Friday


def d(text: str) -> date:
    return date.fromisoformat(text)


CASES = [
    # -- the fixed cases, R = 2025-01-15 (Wednesday) --
    ("last week", W, "2025-01-06", "2025-01-12"),
    ("last month", W, "2024-12-01", "2024-12-31"),
    ("last year", W, "2024-01-01", "2024-12-31"),
    ("last weekend", W, "2025-01-11", "2025-01-12"),
    ("a couple of days ago", W, "2025-01-12", "2025-01-14"),
    ("June 2024", W, "2024-06-01", "2024-06-30"),
    ("上周", W, "2025-01-06", "2025-01-12"),
    ("上上周", W, "2024-12-30", "2025-01-05"),
    ("下周", W, "2025-01-20", "2025-01-26"),
    ("周末", W, "2025-01-18", "2025-01-19"),
    ("上个月", W, "2024-12-01", "2024-12-31"),
    ("去年", W, "2024-01-01", "2024-12-31"),
    ("本季度", W, "2025-01-01", "2025-03-31"),
    ("2024年上半年", W, "2024-01-01", "2024-06-30"),
    ("两天前", W, "2025-01-13", "2025-01-13"),
    ("半个月前", W, "2024-12-31", "2024-12-31"),
    ("过去一周", W, "2025-01-08", "2025-01-15"),
    ("今年以来", W, "2025-01-01", "2025-01-15"),
    ("本周一到周三", W, "2025-01-13", "2025-01-15"),
    # -- R = 2026-08-07 --
    ("what happened in 2019", A, "2019-01-01", "2019-12-31"),
    ("last spring", A, "2026-03-01", "2026-05-31"),
    ("what did we do last winter", A, "2025-12-01", "2026-02-28"),
    # -- English --
    ("What did I do yesterday?", W, "2025-01-14", "2025-01-14"),
    ("what's on today", W, "2025-01-15", "2025-01-15"),
    ("what is planned for tomorrow", W, "2025-01-16", "2025-01-16"),
    ("notes from 03/05/2024", W, "2024-03-05", "2024-03-05"),  # dateparser: month first in English
    ("the 15th of June", W, "2024-06-15", "2024-06-15"),
    ("the day before yesterday we shipped", W, "2025-01-13", "2025-01-13"),
    ("a few days ago", W, "2025-01-10", "2025-01-13"),
    ("couple of weeks ago", W, "2024-12-25", "2025-01-08"),
    ("a few weeks ago", W, "2024-12-11", "2025-01-01"),
    ("a couple of months ago", W, "2024-10-17", "2024-12-16"),
    ("a few months ago", W, "2024-08-18", "2024-11-16"),
    ("3 days ago", W, "2025-01-12", "2025-01-12"),
    ("two weeks ago", W, "2025-01-01", "2025-01-01"),
    ("5 months ago", W, "2024-08-15", "2024-08-15"),
    ("one year ago", W, "2024-01-15", "2024-01-15"),
    ("ten days ago", W, "2025-01-05", "2025-01-05"),
    ("this week", W, "2025-01-13", "2025-01-19"),
    ("next week", W, "2025-01-20", "2025-01-26"),
    ("this month", W, "2025-01-01", "2025-01-31"),
    ("next month", W, "2025-02-01", "2025-02-28"),
    ("this year", W, "2025-01-01", "2025-12-31"),
    ("next year", W, "2026-01-01", "2026-12-31"),
    ("this weekend", W, "2025-01-18", "2025-01-19"),
    ("next weekend", W, "2025-01-25", "2025-01-26"),
    ("last quarter", W, "2024-10-01", "2024-12-31"),
    ("this quarter", W, "2025-01-01", "2025-03-31"),
    ("next quarter", W, "2025-04-01", "2025-06-30"),
    ("Q3 2024 results", W, "2024-07-01", "2024-09-30"),
    ("sales in q2", W, "2025-04-01", "2025-06-30"),
    ("2023 Q4", W, "2023-10-01", "2023-12-31"),
    ("the third quarter of 2022", W, "2022-07-01", "2022-09-30"),
    ("last March", W, "2024-03-01", "2024-03-31"),
    ("last March", A, "2026-03-01", "2026-03-31"),
    ("last December", W, "2024-12-01", "2024-12-31"),
    ("in December", W, "2024-12-01", "2024-12-31"),
    ("what did we discuss in May", J, "2026-05-01", "2026-05-31"),
    ("during July", J, "2026-07-01", "2026-07-31"),
    ("next April", W, "2025-04-01", "2025-04-30"),
    ("March 2023", W, "2023-03-01", "2023-03-31"),
    ("sept 2021", W, "2021-09-01", "2021-09-30"),
    ("the year 1999", W, "1999-01-01", "1999-12-31"),
    ("during 2020", W, "2020-01-01", "2020-12-31"),
    ("throughout 2018", W, "2018-01-01", "2018-12-31"),
    ("in 1850", W, None, None),  # more than 120 years before R
    ("last Tuesday", W, "2025-01-14", "2025-01-14"),
    ("last Wednesday", W, "2025-01-08", "2025-01-08"),  # R is a Wednesday: a week back
    ("on Monday", W, "2025-01-13", "2025-01-13"),
    ("next Friday", W, "2025-01-24", "2025-01-24"),
    ("this Friday", W, "2025-01-17", "2025-01-17"),
    ("port 9077 and also last Tuesday", A, "2026-08-04", "2026-08-04"),
    ("spring 2023", A, "2023-03-01", "2023-05-31"),
    ("summer 2024", A, "2024-06-01", "2024-08-31"),
    ("winter 2024", A, "2023-12-01", "2024-02-29"),
    ("this spring", A, "2026-03-01", "2026-05-31"),
    ("this winter", A, "2026-12-01", "2027-02-28"),
    ("next summer", A, "2027-06-01", "2027-08-31"),
    ("last autumn", A, "2025-09-01", "2025-11-30"),
    ("last fall", A, "2025-09-01", "2025-11-30"),
    ("in the summer", A, "2026-06-01", "2026-08-31"),
    # -- no window --
    ("is the cache listening on port 9077", A, None, None),
    ("check job 4417", A, None, None),
    ("buffer size 1024 vs 4096", A, None, None),
    ("meeting in room 2019", A, None, None),
    ("Who leads Project Atlas?", A, None, None),
    ("May I ask what the plan is?", A, None, None),
    ("the fall of the empire", A, None, None),
    ("What's our policy on team:infra & a|b?", A, None, None),
    ("", A, None, None),
    # -- Spanish --
    ("¿qué hice ayer?", W, "2025-01-14", "2025-01-14"),
    ("hoy", W, "2025-01-15", "2025-01-15"),
    ("anteayer", W, "2025-01-13", "2025-01-13"),
    ("la semana pasada", W, "2025-01-06", "2025-01-12"),
    ("el mes pasado", W, "2024-12-01", "2024-12-31"),
    ("el año pasado", W, "2024-01-01", "2024-12-31"),
    ("hace 3 días", W, "2025-01-12", "2025-01-12"),
    ("hace un par de días", W, "2025-01-12", "2025-01-14"),
    ("el fin de semana pasado", W, "2025-01-11", "2025-01-12"),
    ("en 2020", W, "2020-01-01", "2020-12-31"),
    ("marzo de 2023", W, "2023-03-01", "2023-03-31"),
    # -- Italian --
    ("ieri", W, "2025-01-14", "2025-01-14"),
    ("la settimana scorsa", W, "2025-01-06", "2025-01-12"),
    ("il mese scorso", W, "2024-12-01", "2024-12-31"),
    ("l'anno scorso", W, "2024-01-01", "2024-12-31"),
    ("3 giorni fa", W, "2025-01-12", "2025-01-12"),
    ("un paio di settimane fa", W, "2024-12-25", "2025-01-08"),
    ("nel 2021", W, "2021-01-01", "2021-12-31"),
    # -- French --
    ("hier", W, "2025-01-14", "2025-01-14"),
    ("aujourd'hui", W, "2025-01-15", "2025-01-15"),
    ("avant-hier", W, "2025-01-13", "2025-01-13"),
    ("la semaine dernière", W, "2025-01-06", "2025-01-12"),
    ("le mois dernier", W, "2024-12-01", "2024-12-31"),
    ("l'année dernière", W, "2024-01-01", "2024-12-31"),
    ("il y a 2 semaines", W, "2025-01-01", "2025-01-01"),
    ("il y a quelques jours", W, "2025-01-10", "2025-01-13"),
    ("en 2019", W, "2019-01-01", "2019-12-31"),
    # -- German --
    ("gestern", W, "2025-01-14", "2025-01-14"),
    ("vorgestern", W, "2025-01-13", "2025-01-13"),
    ("letzte Woche", W, "2025-01-06", "2025-01-12"),
    ("letzten Monat", W, "2024-12-01", "2024-12-31"),
    ("letztes Jahr", W, "2024-01-01", "2024-12-31"),
    ("vor 4 Tagen", W, "2025-01-11", "2025-01-11"),
    ("vor ein paar Tagen", W, "2025-01-12", "2025-01-14"),
    ("nächste Woche", W, "2025-01-20", "2025-01-26"),
    ("im Jahr 2017", W, "2017-01-01", "2017-12-31"),
    # -- Russian --
    ("вчера", W, "2025-01-14", "2025-01-14"),
    ("позавчера", W, "2025-01-13", "2025-01-13"),
    ("на прошлой неделе", W, "2025-01-06", "2025-01-12"),
    ("в прошлом месяце", W, "2024-12-01", "2024-12-31"),
    ("в прошлом году", W, "2024-01-01", "2024-12-31"),
    ("3 дня назад", W, "2025-01-12", "2025-01-12"),
    ("несколько дней назад", W, "2025-01-10", "2025-01-13"),
    ("в 2020 году", W, "2020-01-01", "2020-12-31"),
    # -- Chinese --
    ("今天", W, "2025-01-15", "2025-01-15"),
    ("昨天我们开了会", W, "2025-01-14", "2025-01-14"),
    ("前天", W, "2025-01-13", "2025-01-13"),
    ("大前天", W, "2025-01-12", "2025-01-12"),
    ("明天", W, "2025-01-16", "2025-01-16"),
    ("后天", W, "2025-01-17", "2025-01-17"),
    ("本周", W, "2025-01-13", "2025-01-19"),
    ("这周", W, "2025-01-13", "2025-01-19"),
    ("上星期", W, "2025-01-06", "2025-01-12"),
    ("上个礼拜", W, "2025-01-06", "2025-01-12"),
    ("上周一", W, "2025-01-06", "2025-01-06"),
    ("这周五", W, "2025-01-17", "2025-01-17"),
    ("下周日", W, "2025-01-26", "2025-01-26"),
    ("周日", W, "2025-01-12", "2025-01-12"),
    ("星期一", W, "2025-01-13", "2025-01-13"),
    ("上周末", W, "2025-01-11", "2025-01-12"),
    ("本月", W, "2025-01-01", "2025-01-31"),
    ("下个月", W, "2025-02-01", "2025-02-28"),
    ("上上个月", W, "2024-11-01", "2024-11-30"),
    ("上个月月初", W, "2024-12-01", "2024-12-10"),
    ("本月中旬", W, "2025-01-11", "2025-01-20"),
    ("上个月底", W, "2024-12-21", "2024-12-31"),
    ("今年", W, "2025-01-01", "2025-12-31"),
    ("前年", W, "2023-01-01", "2023-12-31"),
    ("明年", W, "2026-01-01", "2026-12-31"),
    ("去年下半年", W, "2024-07-01", "2024-12-31"),
    ("上季度", W, "2024-10-01", "2024-12-31"),
    ("第三季度", W, "2025-07-01", "2025-09-30"),
    ("2024年第二季度", W, "2024-04-01", "2024-06-30"),
    ("2024年3月", W, "2024-03-01", "2024-03-31"),
    ("2024年3月5日", W, "2024-03-05", "2024-03-05"),
    ("二〇二四年五月", W, "2024-05-01", "2024-05-31"),
    ("5月", W, "2024-05-01", "2024-05-31"),
    ("3天前", W, "2025-01-12", "2025-01-12"),
    ("十天前", W, "2025-01-05", "2025-01-05"),
    ("两周前", W, "2025-01-01", "2025-01-01"),
    ("三个月前", W, "2024-10-15", "2024-10-15"),
    ("一年前", W, "2024-01-15", "2024-01-15"),
    ("前两天", W, "2025-01-12", "2025-01-14"),
    ("几天前", W, "2025-01-10", "2025-01-13"),
    ("最近三天", W, "2025-01-12", "2025-01-15"),
    ("最近两周", W, "2025-01-01", "2025-01-15"),
    ("近半年", W, "2024-07-15", "2025-01-15"),
    ("过去一个月", W, "2024-12-15", "2025-01-15"),
    ("去年至今", W, "2024-01-01", "2025-01-15"),
    ("上週", W, "2025-01-06", "2025-01-12"),  # traditional
    ("兩天前", W, "2025-01-13", "2025-01-13"),
    ("每周一开会", W, None, None),
    ("上周杰伦发了新歌", W, "2025-01-06", "2025-01-12"),  # "last week, (Jay Chou) 杰伦 released a song": a date
    ("今日头条的新闻", W, None, None),
    ("周一鸣提到的方案", W, None, None),
    ("周一提到的方案", W, "2025-01-13", "2025-01-13"),
    ("我们讨论了方案", W, None, None),
    # -- a day of a month without a year: the most recent one; ranges; it outranks a weekday --
    ("what happened on March 13th", W, "2024-03-13", "2024-03-13"),
    ("the cutover is on Thursday night, January 9th", W, "2025-01-09", "2025-01-09"),
    ("the 1st of July party", W, "2024-07-01", "2024-07-01"),
    ("vacation from May 19th to June 2nd", W, "2024-05-19", "2024-06-02"),
    ("Dec 31 - Jan 2 trip", W, "2024-12-31", "2025-01-02"),
    ("what did we do on May 5th", W, "2024-05-05", "2024-05-05"),
]


@pytest.mark.parametrize(("query", "today", "start", "end"), CASES, ids=[f"{c[0]}@{c[1]}" for c in CASES])
def test_rules(query, today, start, end):
    span = analyze(query, today)
    if start is None:
        assert span is None
    else:
        assert span is not None, "no window"
        assert (span.start, span.end) == (d(start), d(end))


def test_there_are_enough_cases():
    assert len(CASES) >= 120


def test_southern_hemisphere_flips_seasons():
    span = analyze("last spring", A, hemisphere="south")  # September to November 2025
    assert (span.start, span.end) == (d("2025-09-01"), d("2025-11-30"))
    span = analyze("summer 2024", A, hemisphere="south")  # December 2023 to February 2024
    assert (span.start, span.end) == (d("2023-12-01"), d("2024-02-29"))


def test_parse_temporal_gives_whole_days_in_the_time_zone():
    reference = datetime(2025, 1, 15, 3, 0, tzinfo=UTC)  # still January 14 in New York
    start, end = parse_temporal("yesterday", reference, "America/New_York")
    zone = ZoneInfo("America/New_York")
    assert start == datetime(2025, 1, 13, 0, 0, tzinfo=zone)
    assert end == datetime(2025, 1, 13, 23, 59, 59, 999999, tzinfo=zone)
    assert end - start == timedelta(days=1) - timedelta(microseconds=1)


def test_parse_temporal_errors_and_no_window():
    assert parse_temporal("nothing here", datetime(2025, 1, 15)) is None
    with pytest.raises(ValueError, match="unknown time zone 'Mars/Olympus'"):
        parse_temporal("today", datetime(2025, 1, 15), "Mars/Olympus")
    with pytest.raises(ValueError, match="hemisphere"):
        analyze("today", W, hemisphere="east")


def test_out_of_range_arithmetic_is_no_window():
    assert analyze("9000 years ago", date(100, 1, 1)) is None
    assert analyze("next year", date(9999, 6, 1)) is None


def test_no_date_signal_does_not_import_dateparser():
    import sys

    sys.modules.pop("dateparser.search", None)
    assert analyze("Who is the tech lead of Project Falcon?", W) is None
    assert "dateparser.search" not in sys.modules


def test_dateparser_fallback_takes_real_dates_only():
    span = analyze("what happened on 2024-03-05 at the office", W)
    assert (span.start, span.end) == (d("2024-03-05"), d("2024-03-05"))
    span = analyze("the meeting of 12 March 2023", W)
    assert (span.start, span.end) == (d("2023-03-12"), d("2023-03-12"))
    span = analyze("we met on the 3rd and it was fine", W)  # "on the 3rd": the most recent 3rd
    assert (span.start, span.end) == (d("2025-01-03"), d("2025-01-03"))
    assert analyze("the 3rd floor and the 21st century", W) is None  # a day number without "on" is too weak
    assert analyze("upgrade to version 10.5, page 12.4, score 3-1", W) is None  # numbers, not dates


def test_time_zones_in_any_case_and_offsets():
    reference = datetime(2025, 1, 15, 12, 0, tzinfo=UTC)
    for name, lower in [("utc", datetime(2025, 1, 14, tzinfo=UTC)), ("europe/berlin", None), ("+02:00", None)]:
        start, _ = parse_temporal("yesterday", reference, name)
        assert start.date() == date(2025, 1, 14)
        if lower:
            assert start == lower
    start, _ = parse_temporal("yesterday", reference, "-0530")
    assert start.utcoffset() == -timedelta(hours=5, minutes=30)
    assert analyze("last summer", A, hemisphere="South") == analyze("last summer", A, hemisphere="south")


def test_the_driver_takes_strings_and_dates_and_refuses_the_rest():
    import hindsight_pg

    start, end = hindsight_pg.parse_temporal("yesterday", "2025-01-15T12:00:00+00:00")
    assert (start.date(), end.date()) == (d("2025-01-14"), d("2025-01-14"))
    start, _ = hindsight_pg.parse_temporal("yesterday", date(2025, 1, 15), "Asia/Shanghai")
    assert start == datetime(2025, 1, 14, tzinfo=ZoneInfo("Asia/Shanghai"))
    for query in (None, b"yesterday", 42):
        with pytest.raises(hindsight_pg.InvalidInputError, match="query must be a string"):
            hindsight_pg.parse_temporal(query)
    with pytest.raises(hindsight_pg.InvalidInputError, match="reference must be a datetime, a date or an ISO"):
        hindsight_pg.parse_temporal("yesterday", "the day Bob left")


def test_a_long_text_is_read_in_its_first_2000_characters():
    assert analyze("in 2019 " * 2000, W) == analyze("in 2019", W)
    assert analyze("x" * 2000 + " yesterday", W) is None  # beyond what is read
    assert analyze("🎄 Christmas 🎅", W) == analyze("Christmas", W)
