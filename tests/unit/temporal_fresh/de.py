"""German: fresh hand-written cases (see the package docstring). R = Saturday 2025-11-01 12:00 UTC."""

from temporal_cases import Case

MONDAY = "2025-11-03"  # the weekend just past: 11-01..11-02
TUESDAY = "2025-11-04"
WEDNESDAY = "2025-11-05"
THURSDAY = "2025-11-06"
NEW_YEAR = "2026-01-03"  # a Saturday; this week 2025-12-29..2026-01-04
NEW_YEAR_TUESDAY = "2026-01-06"  # last week 2025-12-29..2026-01-04, across the years

CASES = [
    # basics
    Case("basics", "Was habe ich gestern gemacht?", "2025-10-31", "2025-10-31"),
    Case("basics", "Was war letzte Woche los?", "2025-10-20", "2025-10-26"),
    Case("basics", "Was haben wir im Mai besprochen?", "2025-05-01", "2025-05-31"),
    Case("basics", "Was ist vor drei Tagen passiert?", "2025-10-29", "2025-10-29"),
    Case("basics", "Was steht nächsten Freitag an?", "2025-11-07", "2025-11-07"),
    Case("basics", "Wen habe ich letzten Monat getroffen?", "2025-10-01", "2025-10-31"),
    Case("basics", "Was haben wir vorgestern gegessen?", "2025-10-30", "2025-10-30"),
    Case("basics", "Was ist übermorgen geplant?", "2025-11-03", "2025-11-03"),
    # ranges
    Case("ranges", "Was haben wir zwischen März und Juni gebaut?", "2025-03-01", "2025-06-30"),
    Case("ranges", "Wo waren wir vom 3. bis 9. August?", "2025-08-03", "2025-08-09"),
    # open ends
    Case("open ends", "Was haben wir seit Januar ausgegeben?", "2025-01-01", "now"),
    Case("open ends", "Wo hat sie vor 2022 gewohnt?", "2012-01-01", "2021-12-31"),
    Case("open ends", "Was ist bis Ende des Jahres noch zu tun?", "2025-11-01", "2025-12-31"),
    # durations
    Case("durations", "Was habe ich in den letzten zwei Wochen gekauft?", "2025-10-18", "now"),
    Case("durations", "Was steht in den nächsten drei Tagen an?", "2025-11-01", "2025-11-04"),
    # parts of periods
    Case("parts of periods", "Was haben wir Anfang Oktober gemacht?", "2025-10-01", "2025-10-10"),
    Case("parts of periods", "Was wurde in KW 12 geliefert?", "2025-03-17", "2025-03-23"),
    # holidays
    Case("holidays", "Was haben wir an Heiligabend gegessen?", "2024-12-24", "2024-12-24"),
    Case("holidays", "Wo waren wir an Silvester?", "2024-12-31", "2024-12-31"),
    Case("holidays", "Was haben wir an Ostern gemacht?", "2025-04-20", "2025-04-20"),
    Case("holidays", "Was war am Tag der Deutschen Einheit los?", "2025-10-03", "2025-10-03"),
    # names and non-dates
    Case("names and non-dates", "Was meint August zu dem Entwurf?", None, None),
    Case("names and non-dates", "Wer wohnt in Zimmer 2019?", None, None),
    Case("names and non-dates", "Frohes neues Jahr!", None, None),
    # turn of year
    Case("turn of year", "Was haben wir im Dezember gemacht?", "2025-12-01", "2025-12-31", NEW_YEAR),
    Case("turn of year", "Was war letzte Woche?", "2025-12-29", "2026-01-04", NEW_YEAR_TUESDAY),
    # future weekday
    Case("future weekday", "Was machen wir am Freitag?", "2025-11-07", "2025-11-07"),
    Case("future weekday", "Was ist für Montag geplant?", "2025-11-03", "2025-11-03"),
    Case("future weekday", "Was werden wir am Mittwoch besprechen?", "2025-11-05", "2025-11-05"),
    # same date last year
    Case("same date last year", "Was war heute vor zwei Jahren?", "2023-11-01", "2023-11-01"),
    Case("same date last year", "Was habe ich letztes Jahr um diese Zeit gemacht?", "2024-11-01", "2024-11-01"),
    # week of
    Case("week of", "Was war in der Woche vom 10. März?", "2025-03-10", "2025-03-16"),
    Case("week of", "Wer war in der Woche vom 15. Oktober im Urlaub?", "2025-10-13", "2025-10-19"),
    # last days of month
    Case("last days of month", "Was haben wir in den letzten Oktobertagen gemacht?", "2025-10-21", "2025-10-31"),
    Case("last days of month", "Was geschah in den letzten Tagen im September?", "2025-09-21", "2025-09-30"),
    # relative year quarter
    Case("relative year quarter", "Wie lief das zweite Quartal letzten Jahres?", "2024-04-01", "2024-06-30"),
    Case("relative year quarter", "Was planen wir fürs erste Quartal nächsten Jahres?", "2026-01-01", "2026-03-31"),
    Case("relative year quarter", "Wie war der Umsatz im vierten Quartal des Vorjahres?", "2024-10-01", "2024-12-31"),
    # fractional durations
    Case("fractional durations", "Wo haben wir vor anderthalb Jahren gewohnt?", "2024-05-01", "2024-05-01"),
    Case("fractional durations", "Was ist vor einem halben Jahr passiert?", "2025-05-01", "2025-05-01"),
    Case("fractional durations", "Was war vor eineinhalb Jahren?", "2024-05-01", "2024-05-01"),
    Case("fractional durations", "Wer hat vor zweieinhalb Jahren angefangen?", "2023-05-01", "2023-05-01"),
    # generic weekday
    Case("generic weekday", "Treffen wir uns immer montags?", None, None),
    Case("generic weekday", "Was haben wir an Karfreitag gemacht?", "2025-04-18", "2025-04-18"),
    # de past weekend: asked on Saturday noon, a past-tense question about "the weekend" means the one
    # that is over (10-25..10-26), not the one that began this morning; asked Monday to Thursday, the one
    # just past (11-01..11-02); a question about the future takes the coming one
    Case("de past weekend", "Was habe ich am Wochenende gemacht?", "2025-10-25", "2025-10-26"),
    Case("de past weekend", "Wen haben wir am Wochenende besucht?", "2025-10-25", "2025-10-26"),
    Case("de past weekend", "Was haben wir letztes Wochenende gemacht?", "2025-10-25", "2025-10-26"),
    Case("de past weekend", "Was war am vergangenen Wochenende los?", "2025-10-25", "2025-10-26"),
    Case("de past weekend", "Wo waren wir am vorletzten Wochenende?", "2025-10-18", "2025-10-19"),
    Case("de past weekend", "Was habe ich am Wochenende gemacht?", "2025-11-01", "2025-11-02", MONDAY),
    Case("de past weekend", "Wie war das Wochenende?", "2025-11-01", "2025-11-02", TUESDAY),
    Case("de past weekend", "Was haben wir letztes Wochenende gekocht?", "2025-11-01", "2025-11-02", MONDAY),
    Case("de past weekend", "Was habe ich übers Wochenende gelesen?", "2025-11-01", "2025-11-02", WEDNESDAY),
    Case("de past weekend", "Was habe ich am vergangenen Wochenende eingekauft?", "2025-11-01", "2025-11-02", THURSDAY),
    Case("de past weekend", "Was machen wir am Wochenende?", "2025-11-08", "2025-11-09", WEDNESDAY),
    Case("de past weekend", "Was machen wir am Wochenende?", "2025-11-01", "2025-11-02"),
]
