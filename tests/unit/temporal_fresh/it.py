"""Italian: fresh hand-written cases (see the package docstring). R = Saturday 2025-11-01 12:00 UTC."""

from temporal_cases import Case

NEW_YEAR = "2026-01-03"  # a Saturday; this week 2025-12-29..2026-01-04
NEW_YEAR_TUESDAY = "2026-01-06"  # last week 2025-12-29..2026-01-04, across the years

CASES = [
    # basics
    Case("basics", "Cosa ho fatto ieri?", "2025-10-31", "2025-10-31"),
    Case("basics", "Cosa è successo la settimana scorsa?", "2025-10-20", "2025-10-26"),
    Case("basics", "Cosa abbiamo deciso a maggio?", "2025-05-01", "2025-05-31"),
    Case("basics", "Chi ha chiamato tre giorni fa?", "2025-10-29", "2025-10-29"),
    Case("basics", "Cosa c'è venerdì prossimo?", "2025-11-07", "2025-11-07"),
    Case("basics", "Cosa abbiamo mangiato l'altro ieri?", "2025-10-30", "2025-10-30"),
    Case("basics", "Cosa c'è in programma dopodomani?", "2025-11-03", "2025-11-03"),
    # ranges
    Case("ranges", "Cosa abbiamo costruito tra marzo e giugno?", "2025-03-01", "2025-06-30"),
    Case("ranges", "Dove eravamo dal 3 al 9 agosto?", "2025-08-03", "2025-08-09"),
    Case("ranges", "Quanto abbiamo speso da gennaio a oggi?", "2025-01-01", "now"),
    # durations
    Case("durations", "Cosa ho comprato nelle ultime due settimane?", "2025-10-18", "now"),
    Case("durations", "Cosa abbiamo nei prossimi tre giorni?", "2025-11-01", "2025-11-04"),
    # parts of periods
    Case("parts of periods", "Cosa abbiamo fatto all'inizio di agosto?", "2025-08-01", "2025-08-10"),
    Case("parts of periods", "Chi è partito a fine settembre?", "2025-09-21", "2025-09-30"),
    Case("parts of periods", "Cosa è successo a metà luglio?", "2025-07-11", "2025-07-20"),
    # seasons and quarters
    Case("seasons and quarters", "Dove siamo andati l'estate scorsa?", "2025-06-01", "2025-08-31"),
    # holidays
    Case("holidays", "Dove eravamo a Ferragosto?", "2025-08-15", "2025-08-15"),
    Case("holidays", "Cosa abbiamo fatto a Pasquetta?", "2025-04-21", "2025-04-21"),
    Case("holidays", "Cosa abbiamo mangiato a Natale?", "2024-12-25", "2024-12-25"),
    Case("holidays", "Dove abbiamo festeggiato San Silvestro?", "2024-12-31", "2024-12-31"),
    Case("holidays", "Chi è venuto all'Epifania?", "2025-01-06", "2025-01-06"),
    # names and non-dates
    Case("names and non-dates", "Chi abita nella stanza 2019?", None, None),
    Case("names and non-dates", "Buon Natale a tutti!", None, None),
    # turn of year
    Case("turn of year", "Cosa abbiamo fatto a dicembre?", "2025-12-01", "2025-12-31", NEW_YEAR),
    Case("turn of year", "Cosa è successo la settimana scorsa?", "2025-12-29", "2026-01-04", NEW_YEAR_TUESDAY),
    # future weekday
    Case("future weekday", "Cosa faremo venerdì?", "2025-11-07", "2025-11-07"),
    Case("future weekday", "Cosa abbiamo in programma per lunedì?", "2025-11-03", "2025-11-03"),
    # same date last year
    Case("same date last year", "Cosa facevo un anno fa oggi?", "2024-11-01", "2024-11-01"),
    Case("same date last year", "Cosa è successo esattamente un anno fa?", "2024-11-01", "2024-11-01"),
    # week of
    Case("week of", "Cosa abbiamo fatto la settimana del 10 marzo?", "2025-03-10", "2025-03-16"),
    # last days of month
    Case("last days of month", "Cosa è successo negli ultimi giorni di ottobre?", "2025-10-21", "2025-10-31"),
    # relative year quarter
    Case(
        "relative year quarter",
        "Quanto abbiamo venduto nel secondo trimestre dell'anno scorso?",
        "2024-04-01",
        "2024-06-30",
    ),
    # fractional durations
    Case("fractional durations", "Dove abitavamo un anno e mezzo fa?", "2024-05-01", "2024-05-01"),
    Case("fractional durations", "Chi ha iniziato due anni e mezzo fa?", "2023-05-01", "2023-05-01"),
    # two-digit years
    Case("two-digit years", "Dove siamo andati nell'estate del '22?", "2022-06-01", "2022-08-31"),
    Case("two-digit years", "Cosa abbiamo comprato nel '19?", "2019-01-01", "2019-12-31"),
    # generic weekday
    Case("generic weekday", "Ci vediamo ogni lunedì?", None, None),
    Case("generic weekday", "Dove eravamo il Venerdì Santo?", "2025-04-18", "2025-04-18"),
]
