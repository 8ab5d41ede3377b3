"""German fact dating cases (see the package docstring for the conventions)."""

from __future__ import annotations

from . import FactCase

CASES = [
    # --- yearless future
    FactCase("yearless future", "2026-11-23", "Die Hochzeit ist am 12. Dezember.", "2026-12-12", "2026-12-12"),
    FactCase("yearless future", "2025-11-20", "Das neue Büro eröffnet im Februar.", "2026-02-01", "2026-02-28"),
    FactCase("yearless future", "2024-12-09", "Mein Umzug ist am 3. Januar.", "2025-01-03", "2025-01-03"),
    # "eingestellt" is past; the start is to come, in the next January.
    FactCase(
        "yearless future",
        "2026-11-26",
        "Wir haben Emma eingestellt, sie fängt am 4. Januar an.",
        "2027-01-04",
        "2027-01-04",
    ),
    # --- yearless past
    FactCase("yearless past", "2025-10-07", "Wir sind im März umgezogen.", "2025-03-01", "2025-03-31"),
    FactCase(
        "yearless past",
        "2026-01-12",
        "Am 20. Dezember habe ich den Vertrag unterschrieben.",
        "2025-12-20",
        "2025-12-20",
    ),
    FactCase("yearless past", "2027-02-01", "Im November hat Lena bei uns angefangen.", "2026-11-01", "2026-11-30"),
    # --- weekday future
    # said Tuesday 2025-05-13.
    FactCase("weekday future", "2025-05-13", "Die Besprechung ist am Donnerstag.", "2025-05-15", "2025-05-15"),
    # said Friday 2026-10-16.
    FactCase("weekday future", "2026-10-16", "Wir fliegen am Montag nach Rom.", "2026-10-19", "2026-10-19"),
    # said Wednesday 2024-12-18.
    FactCase("weekday future", "2024-12-18", "Der Handwerker kommt am Samstag.", "2024-12-21", "2024-12-21"),
    # --- weekday past
    # said Wednesday 2024-04-17.
    FactCase(
        "weekday past", "2024-04-17", "Am Sonntag bin ich einen Halbmarathon gelaufen.", "2024-04-14", "2024-04-14"
    ),
    # said Friday 2027-01-01: the Tuesday before is in the old year.
    FactCase("weekday past", "2027-01-01", "Am Dienstag ist der Server abgestürzt.", "2026-12-29", "2026-12-29"),
    # --- weekday and date
    # 2025-05-06 is a Tuesday.
    FactCase("weekday and date", "2025-04-23", "Die Abnahme ist am Dienstag, dem 6. Mai.", "2025-05-06", "2025-05-06"),
    # 2026-03-14 is a Saturday, not a Friday: the date wins.
    FactCase("weekday and date", "2026-03-02", "Wir treffen uns am Freitag, 14. März.", "2026-03-14", "2026-03-14"),
    # --- weekend
    # said Thursday 2025-06-12: the coming weekend.
    FactCase("weekend", "2025-06-12", "Dieses Wochenende fahren wir an den Bodensee.", "2025-06-14", "2025-06-15"),
    # said Wednesday 2026-12-09.
    FactCase("weekend", "2026-12-09", "Letztes Wochenende haben wir die Küche gestrichen.", "2026-12-05", "2026-12-06"),
    # said Monday 2024-11-04, past tense: the weekend just past.
    FactCase("weekend", "2024-11-04", "Am Wochenende hat es nur geregnet.", "2024-11-02", "2024-11-03"),
    # --- habitual
    FactCase("habitual", "2025-09-15", "Jeden Montag haben wir Teammeeting.", None, None),
    FactCase("habitual", "2026-03-08", "Sonntags gehe ich immer schwimmen.", None, None),
    FactCase("habitual", "2027-06-11", "Am Wochenende schlafe ich meistens aus.", None, None),
    # --- relative
    FactCase("relative", "2025-01-01", "Gestern habe ich das Angebot angenommen.", "2024-12-31", "2024-12-31"),
    FactCase("relative", "2026-12-30", "Übermorgen kommt der Techniker.", "2027-01-01", "2027-01-01"),
    # 2025 is not a leap year: two days before 03-02 is 02-28.
    FactCase("relative", "2025-03-02", "Vorgestern hat Jonas gekündigt.", "2025-02-28", "2025-02-28"),
    # said Wednesday 2027-12-29: next week is Monday 2028-01-03 to Sunday 01-09.
    FactCase("relative", "2027-12-29", "Nächste Woche bin ich in Hamburg.", "2028-01-03", "2028-01-09"),
    FactCase(
        "relative", "2026-01-15", "Letzten Monat haben wir zwei neue Kunden gewonnen.", "2025-12-01", "2025-12-31"
    ),
    FactCase("relative", "2024-06-05", "In zwei Wochen beginnt die Renovierung.", "2024-06-19", "2024-06-19"),
    FactCase("relative", "2025-09-02", "Vor drei Tagen habe ich mir das Bein gebrochen.", "2025-08-30", "2025-08-30"),
    # "Weihnachtsbaum" is a tree, not Christmas: the date is tomorrow.
    FactCase("relative", "2025-11-28", "Morgen früh holen wir den Weihnachtsbaum.", "2025-11-29", "2025-11-29"),
    # --- explicit
    FactCase(
        "explicit", "2025-02-01", "Ich habe am 12. März 2024 meinen Abschluss gemacht.", "2024-03-12", "2024-03-12"
    ),
    FactCase("explicit", "2025-06-06", "Im Jahr 2023 haben wir in Wien gewohnt.", "2023-01-01", "2023-12-31"),
    FactCase("explicit", "2026-12-01", "Die Frist endet am 15.01.2027.", "2027-01-15", "2027-01-15"),
    # --- no date
    FactCase("no date", "2025-10-15", "Wir haben 10.000 Nutzer erreicht.", None, None),
    # Mai is a surname here.
    FactCase("no date", "2026-05-04", "Herr Mai ist unser neuer Vermieter.", None, None),
    FactCase("no date", "2024-09-18", "Das Meeting findet in Raum 101 statt.", None, None),
    FactCase("no date", "2027-03-03", "Python 3.12 läuft bei uns stabil.", None, None),
    # --- day of month
    FactCase("day of month", "2025-04-10", "Die Miete wird am 15. erhöht.", "2025-04-15", "2025-04-15"),
    FactCase("day of month", "2026-07-09", "Das Paket kam am 3. an.", "2026-07-03", "2026-07-03"),
    # the 20th of December has passed: the next 20th is in January.
    FactCase("day of month", "2024-12-22", "Die letzte Rate ist am 20. fällig.", "2025-01-20", "2025-01-20"),
    # --- season and holiday
    FactCase("season and holiday", "2025-02-20", "Diesen Sommer fahren wir nach Norwegen.", "2025-06-01", "2025-08-31"),
    FactCase("season and holiday", "2025-01-10", "An Heiligabend hat es geschneit.", "2024-12-24", "2024-12-24"),
    FactCase("season and holiday", "2026-12-01", "An Silvester feiern wir in Berlin.", "2026-12-31", "2026-12-31"),
    # said in May 2027: last winter is December 2026 to February 2027.
    FactCase("season and holiday", "2027-05-10", "Letzten Winter war die Heizung kaputt.", "2026-12-01", "2027-02-28"),
    # Easter 2025 is Sunday 04-20, Easter Monday 04-21.
    FactCase(
        "season and holiday", "2025-03-20", "Am Ostermontag fahren wir zu meinen Eltern.", "2025-04-21", "2025-04-21"
    ),
    # --- future dates in past sentences, moved dates, start dates
    FactCase(
        "future in a past sentence",
        "2025-04-08",
        "hab den Flug für den 3. Mai gebucht",
        "2025-05-03",
        "2025-05-03",
    ),
    # said in December about January, the arrival to come: next year's.
    FactCase(
        "future in a past sentence",
        "2026-12-11",
        "Haben die Ferienwohnung gebucht, Anreise ist am 2. Januar 🙂",
        "2027-01-02",
        "2027-01-02",
    ),
    FactCase(
        "future in a past sentence",
        "2024-01-15",
        "Hab mich für den Marathon angemeldet, der ist am 29. September.",
        "2024-09-29",
        "2024-09-29",
    ),
    FactCase(
        "future in a past sentence",
        "2027-06-21",
        "zahnarzttermin ausgemacht, für den 8. juli",
        "2027-07-08",
        "2027-07-08",
    ),
    # the event is past; said in January about December: the previous year's.
    FactCase(
        "future in a past sentence",
        "2025-01-09",
        "Das Paket ist am 30. Dezember angekommen.",
        "2024-12-30",
        "2024-12-30",
    ),
    FactCase(
        "future in a past sentence",
        "2026-05-20",
        "Handwerker war am 12. Mai da, alles repariert.",
        "2026-05-12",
        "2026-05-12",
    ),
    FactCase(
        "moved dates",
        "2026-03-04",
        "Die Präsentation wurde vom 12. auf den 19. März verschoben.",
        "2026-03-19",
        "2026-03-19",
    ),
    # vorgezogen: brought forward, B before A.
    FactCase(
        "moved dates",
        "2024-10-01",
        "Abgabe wurde vorgezogen, vom 25. auf den 18. Oktober 😩",
        "2024-10-18",
        "2024-10-18",
    ),
    # said Monday 2025-11-24: the Thursday of that week.
    FactCase("moved dates", "2025-11-24", "Das Meeting wurde auf Donnerstag verlegt.", "2025-11-27", "2025-11-27"),
    # said in December, the new date in January: next year's.
    FactCase(
        "moved dates",
        "2027-12-15",
        "Notartermin verschoben vom 22. Dezember auf den 7. Januar.",
        "2028-01-07",
        "2028-01-07",
    ),
    FactCase("moved dates", "2025-07-02", "der umzug ist jetzt am 26.", "2025-07-26", "2025-07-26"),
    # past: the party happened, on B.
    FactCase(
        "moved dates",
        "2026-02-16",
        "Die Feier wurde vom 31. Januar auf den 7. Februar verschoben, war trotzdem super.",
        "2026-02-07",
        "2026-02-07",
    ),
    FactCase("start date", "2026-02-09", "Starttermin: 2. März", "2026-03-02", "2026-03-02"),
    FactCase("start date", "2025-12-17", "Mein erster Arbeitstag ist der 5. Januar.", "2026-01-05", "2026-01-05"),
    FactCase(
        "start date",
        "2024-06-25",
        "Vertrag unterschrieben! Arbeitsbeginn ist der 1. August.",
        "2024-08-01",
        "2024-08-01",
    ),
    # 22:45 in Berlin (20:45 UTC): the local day is 08-30.
    FactCase(
        "start date", "2027-08-30T22:45:00+02:00", "mein startdatum ist der 1. september", "2027-09-01", "2027-09-01"
    ),
    FactCase("start date", "2025-09-10", "Eintrittsdatum laut Vertrag: 15. Oktober", "2025-10-15", "2025-10-15"),
]
