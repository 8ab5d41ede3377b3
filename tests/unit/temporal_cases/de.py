"""German cases (docs/temporal.md, "Conventions"); R = Saturday 2025-11-01 12:00 UTC."""

from . import Case

CASES = [
    # --- ranges: [X.first, Y.last] ---
    Case("ranges", "Woran hat Alice zwischen März und Mai gearbeitet?", "2025-03-01", "2025-05-31"),
    Case("ranges", "von Januar bis April 2024", "2024-01-01", "2024-04-30"),
    Case("ranges", "Was war vom 5. bis 8. März?", "2025-03-05", "2025-03-08"),
    # November 2025 would start after February 2025 ends: X moves back a year.
    Case("ranges", "Was ist zwischen November und Februar passiert?", "2024-11-01", "2025-02-28"),
    # Friday 10-31 is after Monday 10-27: Friday moves back a week.
    Case("ranges", "Was lief von Freitag bis Montag?", "2025-10-24", "2025-10-27"),
    Case("ranges", "Projekte zwischen 2019 und 2021", "2019-01-01", "2021-12-31"),
    Case("ranges", "Wo war Bob von Mai bis Juli 2024?", "2024-05-01", "2024-07-31"),
    Case("ranges", "zwischen März 2023 und Mai", "2023-03-01", "2023-05-31"),
    Case("ranges", "Was habe ich vom 1. bis zum 15. Oktober erledigt?", "2025-10-01", "2025-10-15"),
    Case("ranges", "von letzter Woche bis heute", "2025-10-20", "now"),
    Case("ranges", "Termine zwischen dem 10. und dem 20. Juni 2023", "2023-06-10", "2023-06-20"),
    Case("ranges", "Juli bis September", "2025-07-01", "2025-09-30"),
    # Christmas 2024-12-25 (the most recent), Silvester 2024-12-31.
    Case("ranges", "Was haben wir zwischen Weihnachten und Silvester gemacht?", "2024-12-25", "2024-12-31"),
    Case("ranges", "zwischen Weihnachten und Neujahr", "2024-12-25", "2025-01-01"),
    Case("ranges", "Was habe ich von Montag bis Mittwoch gemacht?", "2025-10-27", "2025-10-29"),
    Case("ranges", "Rechnungen vom 3. bis 7. Februar 2024", "2024-02-03", "2024-02-07"),
    Case("ranges", "Was hat sich von Januar bis heute getan?", "2025-01-01", "now"),
    # --- open ends ---
    Case("open ends", "Was hat Alice seit Januar gemacht?", "2025-01-01", "now"),
    Case("open ends", "seit letzter Woche", "2025-10-20", "now"),
    # Easter 2025-04-20; after = from the next day.
    Case("open ends", "Was ist nach Ostern passiert?", "2025-04-21", "now"),
    # "vor" + holiday is "before" (unlike "vor 3 Tagen"); Christmas = 2024-12-25, floor 10 years back.
    Case("open ends", "Was habe ich vor Weihnachten gekauft?", "2014-12-25", "2024-12-24"),
    # until May: floor ten years before May 2025 begins.
    Case("open ends", "bis Mai", "2015-05-01", "2025-05-31"),
    Case("open ends", "Was habe ich bisher in diesem Jahr gelesen?", "2025-01-01", "now"),
    Case("open ends", "dieses Jahr bisher", "2025-01-01", "now"),
    Case("open ends", "seit Anfang des Jahres", "2025-01-01", "now"),
    Case("open ends", "seit 2020", "2020-01-01", "now"),
    # "vor" + a year is "before 2020", not "2020 ... ago".
    Case("open ends", "Was war vor 2020?", "2010-01-01", "2019-12-31"),
    Case("open ends", "nach März", "2025-04-01", "now"),
    # until a future X closes at X.last, starting at R.
    Case("open ends", "Was muss bis nächsten Freitag fertig sein?", "2025-11-01", "2025-11-07"),
    # before a future X: from R to the day before X (next week starts 11-03).
    Case("open ends", "Was muss ich vor nächster Woche erledigen?", "2025-11-01", "2025-11-02"),
    Case("open ends", "seit dem 15. August", "2025-08-15", "now"),
    Case("open ends", "ab März", "2025-03-01", "now"),
    Case("open ends", "Was ist nach Weihnachten 2023 passiert?", "2023-12-26", "now"),
    Case("open ends", "vor Mai 2024", "2014-05-01", "2024-04-30"),
    Case("open ends", "bis 2022", "2012-01-01", "2022-12-31"),
    Case("open ends", "seit Montag", "2025-10-27", "now"),
    Case("open ends", "seit gestern", "2025-10-31", "now"),
    Case("open ends", "Was steht später diese Woche an?", "2025-11-01", "2025-11-02"),
    Case("open ends", "später in diesem Monat", "2025-11-01", "2025-11-30"),
    Case("open ends", "Was ist später in diesem Jahr geplant?", "2025-11-01", "2025-12-31"),
    # --- durations: [R - N units, now]; the future [R, R + N units] ---
    Case("durations", "Was hat Bob in den letzten drei Monaten gemacht?", "2025-08-01", "now"),
    Case("durations", "die letzten 2 Wochen", "2025-10-18", "now"),
    Case("durations", "Was steht in den nächsten 5 Tagen an?", "2025-11-01", "2025-11-06"),
    # R - 24 h = 10-31 12:00.
    Case("durations", "in den letzten 24 Stunden", "2025-10-31", "now"),
    Case("durations", "in den letzten 7 Tagen", "2025-10-25", "now"),
    Case("durations", "Was ist in den vergangenen zehn Tagen passiert?", "2025-10-22", "now"),
    # R - 48 h = 10-30 12:00.
    Case("durations", "in den vergangenen 48 Stunden", "2025-10-30", "now"),
    # R - 5 h = 11-01 07:00.
    Case("durations", "Was ist in den letzten 5 Stunden passiert?", "2025-11-01", "now"),
    Case("durations", "in den nächsten zwei Wochen", "2025-11-01", "2025-11-15"),
    Case("durations", "Was ist in den nächsten 3 Monaten geplant?", "2025-11-01", "2026-02-01"),
    Case("durations", "in den letzten sechs Monaten", "2025-05-01", "now"),
    Case("durations", "innerhalb der letzten 3 Tage", "2025-10-29", "now"),
    Case("durations", "die vergangenen zwei Jahre", "2023-11-01", "now"),
    Case("durations", "in den letzten 12 Monaten", "2024-11-01", "now"),
    Case("durations", "Was kommt in den kommenden 10 Tagen?", "2025-11-01", "2025-11-11"),
    Case("durations", "in den letzten 30 Tagen", "2025-10-02", "now"),
    # 4 weeks = 28 days.
    Case("durations", "die letzten vier Wochen", "2025-10-04", "now"),
    Case("durations", "in den letzten drei Jahren", "2022-11-01", "now"),
    # --- parts of periods ---
    Case("parts of periods", "Anfang März", "2025-03-01", "2025-03-10"),
    Case("parts of periods", "Was war Mitte März?", "2025-03-11", "2025-03-20"),
    Case("parts of periods", "Ende März", "2025-03-21", "2025-03-31"),
    Case("parts of periods", "Was ist Ende 2023 passiert?", "2023-09-01", "2023-12-31"),
    Case("parts of periods", "Mitte 2024", "2024-05-01", "2024-08-31"),
    Case("parts of periods", "die erste Hälfte 2024", "2024-01-01", "2024-06-30"),
    Case("parts of periods", "Was war in der ersten Juniwoche?", "2025-06-01", "2025-06-07"),
    Case("parts of periods", "in der ersten Woche im Juni", "2025-06-01", "2025-06-07"),
    # ISO week 23 of 2025: Monday 06-02 to Sunday 06-08.
    Case("parts of periods", "Was war in KW 23?", "2025-06-02", "2025-06-08"),
    Case("parts of periods", "KW 23 2024", "2024-06-03", "2024-06-09"),
    # ISO week 10 of 2024: 03-04..03-10.
    Case("parts of periods", "in der 10. Kalenderwoche 2024", "2024-03-04", "2024-03-10"),
    # the most recent December is December 2024.
    Case("parts of periods", "Ende Dezember", "2024-12-21", "2024-12-31"),
    Case("parts of periods", "Ende letzten Monats", "2025-10-21", "2025-10-31"),
    Case("parts of periods", "Anfang letzten Jahres", "2024-01-01", "2024-04-30"),
    # summer = the most recent one that has started (2025); its third month.
    Case("parts of periods", "Ende des Sommers", "2025-08-01", "2025-08-31"),
    Case("parts of periods", "in der zweiten Hälfte des Jahres 2023", "2023-07-01", "2023-12-31"),
    Case("parts of periods", "in der letzten Juniwoche", "2025-06-24", "2025-06-30"),
    Case("parts of periods", "am letzten Tag im September", "2025-09-30", "2025-09-30"),
    Case("parts of periods", "Anfang dieses Monats", "2025-11-01", "2025-11-10"),
    Case("parts of periods", "in der zweiten Märzhälfte", "2025-03-16", "2025-03-31"),
    Case("parts of periods", "Anfang Januar 2024", "2024-01-01", "2024-01-10"),
    # --- relative chains ---
    Case("relative chains", "Was war vorletzte Woche?", "2025-10-13", "2025-10-19"),
    Case("relative chains", "vorletzten Monat", "2025-09-01", "2025-09-30"),
    Case("relative chains", "vorletztes Jahr", "2023-01-01", "2023-12-31"),
    Case("relative chains", "Was steht übermorgen an?", "2025-11-03", "2025-11-03"),
    Case("relative chains", "Was habe ich vorgestern gemacht?", "2025-10-30", "2025-10-30"),
    Case("relative chains", "übernächste Woche", "2025-11-10", "2025-11-16"),
    Case("relative chains", "übernächsten Monat", "2026-01-01", "2026-01-31"),
    Case("relative chains", "übernächstes Jahr", "2027-01-01", "2027-12-31"),
    Case("relative chains", "vorletztes Wochenende", "2025-10-18", "2025-10-19"),
    # last Monday (strictly before R) is 10-27; the one before it 10-20.
    Case("relative chains", "Was war am vorletzten Montag?", "2025-10-20", "2025-10-20"),
    # last Friday is 10-31; the one before it 10-24.
    Case("relative chains", "vorletzten Freitag", "2025-10-24", "2025-10-24"),
    # R is a Saturday: "last Saturday" is strictly before R.
    Case("relative chains", "letzten Samstag", "2025-10-25", "2025-10-25"),
    Case("relative chains", "nächsten Montag", "2025-11-03", "2025-11-03"),
    Case("relative chains", "Was ist diesen Sonntag?", "2025-11-02", "2025-11-02"),
    Case("relative chains", "Was machen wir nächstes Wochenende?", "2025-11-08", "2025-11-09"),
    Case("relative chains", "letztes Wochenende", "2025-10-25", "2025-10-26"),
    # --- seasons and quarters (meteorological, northern hemisphere) ---
    Case("seasons and quarters", "Wo war ich im Sommer 2022?", "2022-06-01", "2022-08-31"),
    Case("seasons and quarters", "im dritten Quartal 2024", "2024-07-01", "2024-09-30"),
    Case("seasons and quarters", "Umsatz Q3 2024", "2024-07-01", "2024-09-30"),
    # autumn 2025 holds R and has not ended: last autumn is 2024.
    Case("seasons and quarters", "Was haben wir letzten Herbst gemacht?", "2024-09-01", "2024-11-30"),
    # winter 2024 = the one that holds January 2024.
    Case("seasons and quarters", "im Winter 2024", "2023-12-01", "2024-02-29"),
    Case("seasons and quarters", "letzten Winter", "2024-12-01", "2025-02-28"),
    Case("seasons and quarters", "diesen Herbst", "2025-09-01", "2025-11-30"),
    # no winter holds R: the nearest one.
    Case("seasons and quarters", "Was planen wir diesen Winter?", "2025-12-01", "2026-02-28"),
    Case("seasons and quarters", "nächsten Frühling", "2026-03-01", "2026-05-31"),
    Case("seasons and quarters", "Was war im Sommer?", "2025-06-01", "2025-08-31"),
    Case("seasons and quarters", "letztes Quartal", "2025-07-01", "2025-09-30"),
    Case("seasons and quarters", "Was sind die Ziele für dieses Quartal?", "2025-10-01", "2025-12-31"),
    Case("seasons and quarters", "nächstes Quartal", "2026-01-01", "2026-03-31"),
    Case("seasons and quarters", "im zweiten Quartal", "2025-04-01", "2025-06-30"),
    Case("seasons and quarters", "im Frühjahr 2023", "2023-03-01", "2023-05-31"),
    Case("seasons and quarters", "letzten Sommer", "2025-06-01", "2025-08-31"),
    Case("seasons and quarters", "im vierten Quartal 2023", "2023-10-01", "2023-12-31"),
    Case("seasons and quarters", "im Herbst 2021", "2021-09-01", "2021-11-30"),
    # --- times of day: whole days ---
    Case("times of day", "Was habe ich heute Morgen gemacht?", "2025-11-01", "2025-11-01"),
    Case("times of day", "heute Abend", "2025-11-01", "2025-11-01"),
    Case("times of day", "Worüber haben wir gestern Abend gesprochen?", "2025-10-31", "2025-10-31"),
    Case("times of day", "letzte Nacht", "2025-10-31", "2025-10-31"),
    Case("times of day", "heute Nachmittag", "2025-11-01", "2025-11-01"),
    Case("times of day", "Was steht morgen früh an?", "2025-11-02", "2025-11-02"),
    Case("times of day", "heute früh", "2025-11-01", "2025-11-01"),
    Case("times of day", "gestern Morgen", "2025-10-31", "2025-10-31"),
    Case("times of day", "Was war gestern Nachmittag?", "2025-10-31", "2025-10-31"),
    Case("times of day", "morgen Abend", "2025-11-02", "2025-11-02"),
    # Friday = 10-31.
    Case("times of day", "Was war Freitagabend?", "2025-10-31", "2025-10-31"),
    Case("times of day", "heute Mittag", "2025-11-01", "2025-11-01"),
    Case("times of day", "vorgestern Abend", "2025-10-30", "2025-10-30"),
    Case("times of day", "am Montagmorgen", "2025-10-27", "2025-10-27"),
    Case("times of day", "heute Vormittag", "2025-11-01", "2025-11-01"),
    Case("times of day", "gestern Mittag", "2025-10-31", "2025-10-31"),
    # --- holidays: the most recent on or before R unless told ---
    Case("holidays", "Was haben wir Weihnachten gemacht?", "2024-12-25", "2024-12-25"),
    Case("holidays", "Heiligabend", "2024-12-24", "2024-12-24"),
    Case("holidays", "Wo waren wir an Silvester?", "2024-12-31", "2024-12-31"),
    Case("holidays", "Neujahr", "2025-01-01", "2025-01-01"),
    Case("holidays", "Was haben wir an Ostern gemacht?", "2025-04-20", "2025-04-20"),
    Case("holidays", "am Tag der Deutschen Einheit", "2025-10-03", "2025-10-03"),
    # around: Christmas 2024-12-25 plus three days on each side.
    Case("holidays", "Was war um Weihnachten?", "2024-12-22", "2024-12-28"),
    Case("holidays", "um Weihnachten herum", "2024-12-22", "2024-12-28"),
    Case("holidays", "rund um Silvester", "2024-12-28", "2025-01-03"),
    # over Easter: Easter Sunday 2025-04-20 plus three days on each side.
    Case("holidays", "Was haben wir über Ostern gemacht?", "2025-04-17", "2025-04-23"),
    Case("holidays", "Karfreitag", "2025-04-18", "2025-04-18"),
    Case("holidays", "am Ostermontag", "2025-04-21", "2025-04-21"),
    Case("holidays", "Weihnachten 2023", "2023-12-25", "2023-12-25"),
    # "planen" (plan): a question about the future takes the next Christmas.
    Case("holidays", "Was planen wir für Weihnachten?", "2025-12-25", "2025-12-25"),
    Case("holidays", "letztes Silvester", "2024-12-31", "2024-12-31"),
    Case("holidays", "an Halloween", "2025-10-31", "2025-10-31"),
    Case("holidays", "am Valentinstag", "2025-02-14", "2025-02-14"),
    # Easter Sunday 2024 = 03-31.
    Case("holidays", "Ostern 2024", "2024-03-31", "2024-03-31"),
    Case("holidays", "Neujahr 2024", "2024-01-01", "2024-01-01"),
    Case("holidays", "Silvester 2022", "2022-12-31", "2022-12-31"),
    # --- names and non-dates: no window ---
    Case("names and non-dates", "Was steht in Raum 2019?", None, None),
    Case("names and non-dates", "Läuft der Dienst auf Port 9077?", None, None),
    Case("names and non-dates", "Was hat Herr Mai gesagt?", None, None),
    Case("names and non-dates", "Was hat Alice kürzlich gemacht?", None, None),
    Case("names and non-dates", "Was gab es neulich Neues?", None, None),
    Case("names and non-dates", "Was hat Bob vor Kurzem gesagt?", None, None),
    Case("names and non-dates", "Woran arbeitet Alice in letzter Zeit?", None, None),
    Case("names and non-dates", "Wie heißt Bobs Hund?", None, None),
    Case("names and non-dates", "Welche Datenbank nutzt das Projekt?", None, None),
    # like "the 2020 election": a bare number after a noun is not a year.
    Case("names and non-dates", "Was weißt du über die Wahl 2021?", None, None),
    Case("names and non-dates", "Was ist neu in Version 2024?", None, None),
    Case("names and non-dates", "Kostet das Upgrade 2000 Euro?", None, None),
    Case("names and non-dates", "Was hat Frau Winter vorgeschlagen?", None, None),
    Case("names and non-dates", "Was hält Herr Sommer von dem Plan?", None, None),
    Case("names and non-dates", "Was hat August erzählt?", None, None),
    Case("names and non-dates", "Wer wohnt in Zimmer 1204?", None, None),
    # --- basics ---
    Case("basics", "Was habe ich gestern gemacht?", "2025-10-31", "2025-10-31"),
    Case("basics", "Was war letzte Woche los?", "2025-10-20", "2025-10-26"),
    Case("basics", "Was ist vor 3 Tagen passiert?", "2025-10-29", "2025-10-29"),
    Case("basics", "Worüber haben wir im Mai gesprochen?", "2025-05-01", "2025-05-31"),
    Case("basics", "Juni 2024", "2024-06-01", "2024-06-30"),
    Case("basics", "Was habe ich heute gemacht?", "2025-11-01", "2025-11-01"),
    Case("basics", "Was steht morgen an?", "2025-11-02", "2025-11-02"),
    Case("basics", "letzten Monat", "2025-10-01", "2025-10-31"),
    Case("basics", "letztes Jahr", "2024-01-01", "2024-12-31"),
    Case("basics", "vor zwei Wochen", "2025-10-18", "2025-10-18"),
    # the most recent December that has started is December 2024.
    Case("basics", "im Dezember", "2024-12-01", "2024-12-31"),
    Case("basics", "im Jahr 2019", "2019-01-01", "2019-12-31"),
    Case("basics", "Was war am Montag?", "2025-10-27", "2025-10-27"),
    Case("basics", "vor einem Jahr", "2024-11-01", "2024-11-01"),
    Case("basics", "in drei Tagen", "2025-11-04", "2025-11-04"),
    # the most recent 5 November, R included, is in 2024.
    Case("basics", "am 5. November", "2024-11-05", "2024-11-05"),
    Case("names and non-dates", "Frohe Weihnachten euch allen!", None, None),  # a greeting
    # added from a fresh user's trial of the analyzer
    Case("open ends", "seit letztem Sommer", "2025-06-01", "now"),
    Case("relative chains", "letzte Woche Dienstag", "2025-10-21", "2025-10-21"),
    Case("relative chains", "heute vor einem Jahr", "2024-11-01", "2024-11-01"),
    Case("basics", "am 5.3.24", "2024-03-05", "2024-03-05"),
]

# third pass
CASES += [
    Case("future and generic weekdays", "Was machen wir am Freitag?", "2025-11-07", "2025-11-07"),
    Case("future and generic weekdays", "Was hat Bob am Freitag gesagt?", "2025-10-31", "2025-10-31"),
    Case(
        "future and generic weekdays",
        "Was habe ich am Wochenende gemacht?",
        "2025-11-01",
        "2025-11-02",
        reference="2025-11-03",
    ),
    Case("future and generic weekdays", "Wie war das Wochenende?", "2025-11-01", "2025-11-02", reference="2025-11-04"),
    Case(
        "future and generic weekdays",
        "Was machen wir am Wochenende?",
        "2025-11-08",
        "2025-11-09",
        reference="2025-11-05",
    ),
    Case("anchored days", "letztes Jahr um diese Zeit", "2024-11-01", "2024-11-01"),
    Case("anchored days", "die Woche vom 3. März", "2025-03-03", "2025-03-09"),
    Case("fractional amounts", "vor anderthalb Jahren", "2024-05-01", "2024-05-01"),
    Case("seasons and quarters", "im vierten Quartal des Vorjahres", "2024-10-01", "2024-12-31"),
    Case("parts of periods", "in den letzten Oktobertagen", "2025-10-21", "2025-10-31"),
]
