"""Italian fact dating cases (see the package docstring for the conventions)."""

from __future__ import annotations

from . import FactCase

CASES = [
    # --- yearless future
    FactCase("yearless future", "2026-11-23", "Il matrimonio è il 12 dicembre.", "2026-12-12", "2026-12-12"),
    FactCase("yearless future", "2025-12-02", "Comincio il nuovo lavoro il 4 gennaio.", "2026-01-04", "2026-01-04"),
    FactCase("yearless future", "2025-03-25", "L'audit sarà a ottobre.", "2025-10-01", "2025-10-31"),
    # "Abbiamo assunto" is past; the start is to come, in the next January.
    FactCase(
        "yearless future",
        "2027-12-06",
        "Abbiamo assunto Paolo, inizia il 10 gennaio.",
        "2028-01-10",
        "2028-01-10",
    ),
    # --- yearless past
    FactCase("yearless past", "2025-10-07", "Ci siamo trasferiti a marzo.", "2025-03-01", "2025-03-31"),
    FactCase("yearless past", "2026-01-12", "Il 20 dicembre ho firmato il contratto.", "2025-12-20", "2025-12-20"),
    FactCase("yearless past", "2027-02-01", "Giulia è entrata in azienda a novembre.", "2026-11-01", "2026-11-30"),
    # --- weekday future
    # said Tuesday 2025-05-13.
    FactCase("weekday future", "2025-05-13", "La riunione è giovedì.", "2025-05-15", "2025-05-15"),
    # said Friday 2026-10-16.
    FactCase("weekday future", "2026-10-16", "Partiamo lunedì per Roma.", "2026-10-19", "2026-10-19"),
    # said Monday 2024-02-26.
    FactCase("weekday future", "2024-02-26", "L'idraulico viene mercoledì.", "2024-02-28", "2024-02-28"),
    # --- weekday past
    # said Wednesday 2024-04-17.
    FactCase("weekday past", "2024-04-17", "Domenica ho corso 10 km.", "2024-04-14", "2024-04-14"),
    # said Friday 2027-01-01: the Tuesday before is in the old year.
    FactCase("weekday past", "2027-01-01", "Martedì si è bloccato il server.", "2026-12-29", "2026-12-29"),
    # --- weekday and date
    # 2025-05-06 is a Tuesday.
    FactCase("weekday and date", "2025-04-23", "La consegna è martedì 6 maggio.", "2025-05-06", "2025-05-06"),
    # 2027-11-28 is a Sunday, not a Friday: the date wins.
    FactCase("weekday and date", "2027-11-15", "La cena di squadra è venerdì 28 novembre.", "2027-11-28", "2027-11-28"),
    # --- weekend
    # said Thursday 2025-06-12: the coming weekend.
    FactCase("weekend", "2025-06-12", "Questo fine settimana andiamo al lago.", "2025-06-14", "2025-06-15"),
    # said Wednesday 2026-12-09.
    FactCase(
        "weekend", "2026-12-09", "Lo scorso fine settimana abbiamo dipinto la cucina.", "2026-12-05", "2026-12-06"
    ),
    # said Saturday 2024-03-09: this weekend is 03-09..10, the next one the weekend after.
    FactCase(
        "weekend", "2024-03-09", "Il prossimo fine settimana arrivano i miei genitori.", "2024-03-16", "2024-03-17"
    ),
    # --- habitual
    FactCase("habitual", "2025-09-15", "Ogni lunedì abbiamo la riunione di team.", None, None),
    FactCase("habitual", "2026-03-08", "La domenica vado sempre a nuotare.", None, None),
    FactCase("habitual", "2027-06-11", "Nei fine settimana dormo sempre fino a tardi.", None, None),
    # --- relative
    FactCase("relative", "2025-01-01", "Ieri ho accettato l'offerta.", "2024-12-31", "2024-12-31"),
    FactCase("relative", "2026-12-30", "Dopodomani arriva il tecnico.", "2027-01-01", "2027-01-01"),
    # 2025 is not a leap year: two days before 03-02 is 02-28.
    FactCase("relative", "2025-03-02", "L'altro ieri si è dimesso Marco.", "2025-02-28", "2025-02-28"),
    # said Wednesday 2027-12-29: next week is Monday 2028-01-03 to Sunday 01-09.
    FactCase("relative", "2027-12-29", "La settimana prossima sono a Milano.", "2028-01-03", "2028-01-09"),
    FactCase("relative", "2026-01-15", "Il mese scorso abbiamo vinto due nuovi clienti.", "2025-12-01", "2025-12-31"),
    FactCase("relative", "2024-06-05", "Tra due settimane iniziano i lavori.", "2024-06-19", "2024-06-19"),
    FactCase("relative", "2025-09-02", "Tre giorni fa mi sono rotto il braccio.", "2025-08-30", "2025-08-30"),
    # --- explicit
    FactCase("explicit", "2025-02-01", "Mi sono laureata il 12 marzo 2024.", "2024-03-12", "2024-03-12"),
    FactCase("explicit", "2025-06-06", "Nel 2023 abbiamo vissuto a Torino.", "2023-01-01", "2023-12-31"),
    FactCase("explicit", "2026-10-01", "Il contratto scade a gennaio 2027.", "2027-01-01", "2027-01-31"),
    # --- no date
    FactCase("no date", "2025-10-15", "Abbiamo raggiunto 10.000 utenti.", None, None),
    # Domenica Rossi is a person, not a Sunday.
    FactCase("no date", "2026-03-01", "Domenica Rossi è la nostra nuova commercialista.", None, None),
    FactCase("no date", "2024-09-18", "La sala 101 è al terzo piano.", None, None),
    # --- day of month
    FactCase("day of month", "2026-07-09", "Il pacco è arrivato il 3.", "2026-07-03", "2026-07-03"),
    FactCase("day of month", "2025-04-10", "L'affitto aumenta il 15.", "2025-04-15", "2025-04-15"),
    # the 20th of December has passed: the next 20th is in January.
    FactCase("day of month", "2024-12-22", "Il saldo va pagato il 20.", "2025-01-20", "2025-01-20"),
    # --- season and holiday
    FactCase("season and holiday", "2025-02-20", "Quest'estate andiamo in Sardegna.", "2025-06-01", "2025-08-31"),
    FactCase("season and holiday", "2024-09-10", "A Ferragosto eravamo al mare.", "2024-08-15", "2024-08-15"),
    FactCase(
        "season and holiday", "2026-11-20", "Il giorno di Natale pranzeremo dai nonni.", "2026-12-25", "2026-12-25"
    ),
    FactCase(
        "season and holiday",
        "2027-01-04",
        "La vigilia di Natale ho cucinato per dodici persone.",
        "2026-12-24",
        "2026-12-24",
    ),
    # --- future dates in past sentences, moved dates, start dates
    FactCase(
        "future in a past sentence",
        "2025-05-05",
        "Ho prenotato il dentista per il 21 maggio.",
        "2025-05-21",
        "2025-05-21",
    ),
    # said in December about January, the event to come: next year's.
    FactCase(
        "future in a past sentence",
        "2026-12-16",
        "abbiamo preso i biglietti per il 9 gennaio 😍",
        "2027-01-09",
        "2027-01-09",
    ),
    FactCase(
        "future in a past sentence",
        "2024-01-22",
        "Mi sono iscritta alla maratona di Firenze del 24 novembre.",
        "2024-11-24",
        "2024-11-24",
    ),
    FactCase(
        "future in a past sentence",
        "2027-09-06",
        "Firmato il compromesso! Il rogito è il 20 ottobre.",
        "2027-10-20",
        "2027-10-20",
    ),
    # the event is past; said in January about December: the previous year's.
    FactCase(
        "future in a past sentence", "2025-01-08", "Il pacco è arrivato il 29 dicembre.", "2024-12-29", "2024-12-29"
    ),
    FactCase(
        "future in a past sentence",
        "2026-04-16",
        "l'elettricista è venuto il 7 aprile, tutto a posto",
        "2026-04-07",
        "2026-04-07",
    ),
    FactCase(
        "moved dates", "2025-02-24", "La riunione è stata spostata dal 6 al 13 marzo.", "2025-03-13", "2025-03-13"
    ),
    # anticipata: brought forward, B before A.
    FactCase(
        "moved dates", "2024-09-09", "la consegna è stata anticipata dal 30 al 23 settembre", "2024-09-23", "2024-09-23"
    ),
    # said in December, the new date in January: next year's.
    FactCase(
        "moved dates", "2026-12-02", "Il corso è slittato dal 10 dicembre al 21 gennaio.", "2027-01-21", "2027-01-21"
    ),
    # said Tuesday 2027-10-12: the Thursday of that week.
    FactCase("moved dates", "2027-10-12", "la call è stata spostata a giovedì", "2027-10-14", "2027-10-14"),
    FactCase("moved dates", "2025-11-04", "La cena adesso è il 22.", "2025-11-22", "2025-11-22"),
    # past: the concert happened, on B.
    FactCase(
        "moved dates",
        "2024-06-27",
        "Il concerto era stato rinviato dal 7 al 14 giugno, bellissimo.",
        "2024-06-14",
        "2024-06-14",
    ),
    FactCase("start date", "2026-02-12", "il mio primo giorno è il 2 marzo", "2026-03-02", "2026-03-02"),
    FactCase("start date", "2025-12-10", "Data di inizio: 12 gennaio.", "2026-01-12", "2026-01-12"),
    FactCase(
        "start date",
        "2024-07-29",
        "contratto firmato! data di assunzione 2 settembre",
        "2024-09-02",
        "2024-09-02",
    ),
    # 21:00 in New York (02:00 UTC on 04-01): the local day is 03-31, so April 1 is the next day.
    FactCase(
        "start date", "2027-03-31T21:00:00-05:00", "la mia data di inizio è il 1° aprile", "2027-04-01", "2027-04-01"
    ),
    FactCase("start date", "2025-08-25", "Primo giorno di lavoro: 15 settembre", "2025-09-15", "2025-09-15"),
]
