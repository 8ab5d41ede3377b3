"""Russian: fresh hand-written cases (see the package docstring). R = Saturday 2025-11-01 12:00 UTC."""

from temporal_cases import Case

NEW_YEAR = "2026-01-03"  # a Saturday; this week 2025-12-29..2026-01-04
NEW_YEAR_TUESDAY = "2026-01-06"  # last week 2025-12-29..2026-01-04, across the years

CASES = [
    # basics
    Case("basics", "Что я делал вчера?", "2025-10-31", "2025-10-31"),
    Case("basics", "Что было на прошлой неделе?", "2025-10-20", "2025-10-26"),
    Case("basics", "Что мы решили в мае?", "2025-05-01", "2025-05-31"),
    Case("basics", "Кто звонил три дня назад?", "2025-10-29", "2025-10-29"),
    Case("basics", "Что у нас в следующую пятницу?", "2025-11-07", "2025-11-07"),
    Case("basics", "Что мы ели позавчера?", "2025-10-30", "2025-10-30"),
    # ranges
    Case("ranges", "Что мы строили с марта по июнь?", "2025-03-01", "2025-06-30"),
    Case("ranges", "Где мы были с 3 по 9 августа?", "2025-08-03", "2025-08-09"),
    # open ends
    Case("open ends", "Сколько мы потратили с января?", "2025-01-01", "now"),
    Case("open ends", "Что нужно сделать до конца месяца?", "2025-11-01", "2025-11-30"),
    # durations
    Case("durations", "Что я купил за последние две недели?", "2025-10-18", "now"),
    Case("durations", "Что у нас в ближайшие три дня?", "2025-11-01", "2025-11-04"),
    # parts of periods
    Case("parts of periods", "Что мы делали в начале августа?", "2025-08-01", "2025-08-10"),
    Case("parts of periods", "Кто уехал в конце сентября?", "2025-09-21", "2025-09-30"),
    Case("parts of periods", "Что случилось в середине июля?", "2025-07-11", "2025-07-20"),
    # seasons and quarters
    Case("seasons and quarters", "Куда мы ездили прошлым летом?", "2025-06-01", "2025-08-31"),
    # holidays
    Case("holidays", "Что мы делали на Пасху в прошлом году?", "2024-05-05", "2024-05-05"),
    Case("holidays", "Что мы делали на Рождество?", "2025-01-07", "2025-01-07"),
    Case("holidays", "Кто приходил на Пасху?", "2025-04-20", "2025-04-20"),
    Case("holidays", "Где мы были на День Победы?", "2025-05-09", "2025-05-09"),
    # names and non-dates
    Case("names and non-dates", "Что сказала Майя о проекте?", None, None),
    Case("names and non-dates", "Кто живёт в комнате 2019?", None, None),
    # turn of year
    Case("turn of year", "Что мы делали в декабре?", "2025-12-01", "2025-12-31", NEW_YEAR),
    Case("turn of year", "Что было на прошлой неделе?", "2025-12-29", "2026-01-04", NEW_YEAR_TUESDAY),
    # future weekday
    Case("future weekday", "Что мы будем делать в пятницу?", "2025-11-07", "2025-11-07"),
    Case("future weekday", "Что запланировано на понедельник?", "2025-11-03", "2025-11-03"),
    # same date last year
    Case("same date last year", "Что случилось ровно год назад?", "2024-11-01", "2024-11-01"),
    Case("same date last year", "Что я делал в этот день в прошлом году?", "2024-11-01", "2024-11-01"),
    # last days of month
    Case("last days of month", "Что мы делали в последние дни октября?", "2025-10-21", "2025-10-31"),
    # relative year quarter
    Case("relative year quarter", "Сколько мы продали во втором квартале прошлого года?", "2024-04-01", "2024-06-30"),
    Case(
        "relative year quarter", "Что запланировано на четвёртый квартал следующего года?", "2026-10-01", "2026-12-31"
    ),
    # fractional durations
    Case("fractional durations", "Где мы жили полтора года назад?", "2024-05-01", "2024-05-01"),
    Case("fractional durations", "Что случилось полгода назад?", "2025-05-01", "2025-05-01"),
    Case("fractional durations", "Кто пришёл два с половиной года назад?", "2023-05-01", "2023-05-01"),
    # two-digit years
    Case("two-digit years", "Куда мы ездили летом 22-го?", "2022-06-01", "2022-08-31"),
    # generic weekday
    Case("generic weekday", "Мы встречаемся по понедельникам?", None, None),
]
