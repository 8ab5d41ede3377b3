"""Italian cases (docs/temporal.md, "Conventions"); R = Saturday 2025-11-01 12:00 UTC."""

from . import Case

CASES = [
    # --- ranges ---------------------------------------------------------------------------
    Case("ranges", "Su cosa ha lavorato Alice tra marzo e maggio?", "2025-03-01", "2025-05-31"),
    Case("ranges", "fra giugno e agosto", "2025-06-01", "2025-08-31"),
    Case("ranges", "da maggio a luglio 2024", "2024-05-01", "2024-07-31"),  # the year applies to both sides
    Case("ranges", "Cosa è successo dal 5 all'8 marzo?", "2025-03-05", "2025-03-08"),  # the 5 takes March
    # February 2025 ends before November 2025 starts: November moves back a year
    Case("ranges", "tra novembre e febbraio", "2024-11-01", "2025-02-28"),
    # Monday 10-27 ends before Friday 10-31: Friday moves back a week
    Case("ranges", "Cosa ha fatto Bob da venerdì a lunedì?", "2025-10-24", "2025-10-27"),
    Case("ranges", "Dove ha vissuto Alice dal 2019 al 2021?", "2019-01-01", "2021-12-31"),
    Case("ranges", "tra marzo 2023 e maggio", "2023-03-01", "2023-05-31"),
    Case("ranges", "da marzo a oggi", "2025-03-01", "now"),
    Case("ranges", "Quali riunioni ci sono state da lunedì a mercoledì?", "2025-10-27", "2025-10-29"),
    Case("ranges", "dal 1° al 15 settembre", "2025-09-01", "2025-09-15"),
    # the most recent 25 December is 2024-12-25, the most recent 5 January 2025-01-05
    Case("ranges", "dal 25 dicembre al 5 gennaio", "2024-12-25", "2025-01-05"),
    Case("ranges", "Cosa è successo tra il 10 e il 20 ottobre?", "2025-10-10", "2025-10-20"),
    Case("ranges", "da gennaio a marzo 2024", "2024-01-01", "2024-03-31"),
    Case("ranges", "Quali progetti ha seguito Bob tra il 2020 e il 2022?", "2020-01-01", "2022-12-31"),
    # --- open ends ------------------------------------------------------------------------
    Case("open ends", "Cosa ha fatto Alice da gennaio?", "2025-01-01", "now"),
    Case("open ends", "dall'inizio dell'anno", "2025-01-01", "now"),
    Case("open ends", "Cosa è successo dopo Natale?", "2024-12-26", "now"),  # Christmas 2024 + 1 day
    Case("open ends", "Cosa avevamo deciso prima di marzo?", "2015-03-01", "2025-02-28"),  # floor: 10 years back
    Case("open ends", "fino a maggio", "2015-05-01", "2025-05-31"),
    Case("open ends", "Cosa ha imparato Alice finora quest'anno?", "2025-01-01", "now"),
    Case("open ends", "dalla settimana scorsa", "2025-10-20", "now"),
    Case("open ends", "Dove lavorava Bob prima del 2020?", "2010-01-01", "2019-12-31"),
    Case("open ends", "a partire dal 2020", "2020-01-01", "now"),
    Case("open ends", "Cosa è cambiato dopo marzo?", "2025-04-01", "now"),
    Case("open ends", "fino a giugno 2024", "2014-06-01", "2024-06-30"),
    Case("open ends", "Cosa è cambiato da lunedì?", "2025-10-27", "now"),
    Case("open ends", "da ieri", "2025-10-31", "now"),
    Case("open ends", "più avanti questo mese", "2025-11-01", "2025-11-30"),  # later this month
    Case("open ends", "Cosa abbiamo più tardi questa settimana?", "2025-11-01", "2025-11-02"),
    Case("open ends", "più avanti quest'anno", "2025-11-01", "2025-12-31"),
    # a future X: until closes at R on one side, at next Friday (11-07) on the other
    Case("open ends", "fino a venerdì prossimo", "2025-11-01", "2025-11-07"),
    # a future X: before next week (11-03..11-09) runs from R to Sunday 11-02
    Case("open ends", "prima della prossima settimana", "2025-11-01", "2025-11-02"),
    Case("open ends", "Cosa è successo dal 5 marzo?", "2025-03-05", "now"),
    Case("open ends", "dopo l'estate", "2025-09-01", "now"),  # summer 2025 ended 08-31
    Case("open ends", "dall'inizio del mese", "2025-11-01", "now"),
    Case("open ends", "Cosa è cambiato dall'estate del 2024?", "2024-06-01", "now"),
    # --- durations ------------------------------------------------------------------------
    Case("durations", "Cosa ha fatto Alice negli ultimi tre mesi?", "2025-08-01", "now"),
    Case("durations", "le ultime due settimane", "2025-10-18", "now"),
    Case("durations", "Che impegni ho nei prossimi 5 giorni?", "2025-11-01", "2025-11-06"),
    Case("durations", "nelle ultime 24 ore", "2025-10-31", "now"),  # R - 24 h falls on 10-31
    Case("durations", "Cosa è successo negli ultimi 7 giorni?", "2025-10-25", "now"),
    Case("durations", "nell'ultimo anno", "2024-11-01", "now"),
    # not "la settimana scorsa"
    Case("durations", "Con chi ha parlato Bob nell'ultima settimana?", "2025-10-25", "now"),
    Case("durations", "nell'ultimo mese", "2025-10-01", "now"),
    Case("durations", "Quali riunioni ci sono nelle prossime due settimane?", "2025-11-01", "2025-11-15"),
    Case("durations", "nelle ultime 48 ore", "2025-10-30", "now"),
    Case("durations", "Cosa è successo nelle ultime 5 ore?", "2025-11-01", "now"),  # R - 5 h is still 11-01
    Case("durations", "negli ultimi due anni", "2023-11-01", "now"),
    Case("durations", "Cosa ha comprato Alice negli ultimi sei mesi?", "2025-05-01", "now"),
    Case("durations", "negli ultimi 30 giorni", "2025-10-02", "now"),
    Case("durations", "nei prossimi tre mesi", "2025-11-01", "2026-02-01"),
    Case("durations", "Cosa ha fatto Bob negli ultimi dieci giorni?", "2025-10-22", "now"),
    Case("durations", "negli ultimi due giorni", "2025-10-30", "now"),
    # --- parts of periods -----------------------------------------------------------------
    Case("parts of periods", "Cosa è successo all'inizio di marzo?", "2025-03-01", "2025-03-10"),
    Case("parts of periods", "a metà marzo", "2025-03-11", "2025-03-20"),
    Case("parts of periods", "alla fine di marzo", "2025-03-21", "2025-03-31"),
    Case("parts of periods", "Cosa ha deciso Alice a fine 2023?", "2023-09-01", "2023-12-31"),
    Case("parts of periods", "la prima metà del 2024", "2024-01-01", "2024-06-30"),
    Case("parts of periods", "nella seconda metà del 2023", "2023-07-01", "2023-12-31"),
    Case("parts of periods", "Cosa abbiamo fatto la prima settimana di giugno?", "2025-06-01", "2025-06-07"),
    Case("parts of periods", "l'ultima settimana di giugno", "2025-06-24", "2025-06-30"),  # its last 7 days
    # December 2025 has not started: the most recent December is 2024's
    Case("parts of periods", "a fine dicembre", "2024-12-21", "2024-12-31"),
    Case("parts of periods", "a metà 2024", "2024-05-01", "2024-08-31"),
    Case("parts of periods", "all'inizio dell'anno scorso", "2024-01-01", "2024-04-30"),
    Case("parts of periods", "Cosa è successo alla fine del mese scorso?", "2025-10-21", "2025-10-31"),
    Case("parts of periods", "la seconda settimana di settembre", "2025-09-08", "2025-09-14"),
    Case("parts of periods", "la settimana 23 del 2024", "2024-06-03", "2024-06-09"),  # ISO week 23
    Case("parts of periods", "a fine estate", "2025-08-01", "2025-08-31"),  # the season's third month
    Case("parts of periods", "la prima quindicina di agosto", "2025-08-01", "2025-08-15"),  # first half
    Case("parts of periods", "la seconda metà di luglio", "2025-07-16", "2025-07-31"),
    Case("parts of periods", "inizio febbraio 2024", "2024-02-01", "2024-02-10"),
    Case("parts of periods", "fine febbraio 2024", "2024-02-21", "2024-02-29"),  # leap year
    Case("parts of periods", "la terza settimana di ottobre", "2025-10-15", "2025-10-21"),
    Case("parts of periods", "il primo giorno del mese scorso", "2025-10-01", "2025-10-01"),
    Case("parts of periods", "l'ultimo giorno di settembre", "2025-09-30", "2025-09-30"),
    # --- relative chains ------------------------------------------------------------------
    Case("relative chains", "Cosa ho fatto l'altro ieri?", "2025-10-30", "2025-10-30"),
    Case("relative chains", "dopodomani", "2025-11-03", "2025-11-03"),
    Case("relative chains", "Cosa è successo la settimana prima della scorsa?", "2025-10-13", "2025-10-19"),
    Case("relative chains", "la settimana dopo la prossima", "2025-11-10", "2025-11-16"),
    Case("relative chains", "Cosa ha fatto Alice il weekend scorso?", "2025-10-25", "2025-10-26"),
    Case("relative chains", "il fine settimana prossimo", "2025-11-08", "2025-11-09"),
    Case("relative chains", "questo weekend", "2025-11-01", "2025-11-02"),
    Case("relative chains", "Con chi ha parlato Bob lunedì scorso?", "2025-10-27", "2025-10-27"),
    Case("relative chains", "sabato scorso", "2025-10-25", "2025-10-25"),  # strictly before R
    Case("relative chains", "questa domenica", "2025-11-02", "2025-11-02"),  # Sunday of R's week
    Case("relative chains", "lunedì prossimo", "2025-11-03", "2025-11-03"),
    Case("relative chains", "Cosa c'è venerdì prossimo?", "2025-11-07", "2025-11-07"),
    Case("relative chains", "due lunedì fa", "2025-10-20", "2025-10-20"),  # a week before last Monday (10-27)
    Case("relative chains", "tra tre giorni", "2025-11-04", "2025-11-04"),
    Case("relative chains", "fra due settimane", "2025-11-15", "2025-11-15"),
    Case("relative chains", "tra un mese", "2025-12-01", "2025-12-01"),
    Case("relative chains", "Cosa mi ha detto Alice un paio di giorni fa?", "2025-10-29", "2025-10-31"),  # R-3..R-1
    Case("relative chains", "qualche giorno fa", "2025-10-27", "2025-10-30"),  # a few: R-5..R-2
    Case("relative chains", "qualche settimana fa", "2025-09-27", "2025-10-18"),  # R-35..R-14
    Case("relative chains", "un paio di settimane fa", "2025-10-11", "2025-10-25"),  # R-21..R-7
    # R-150..R-60
    Case("relative chains", "Quale progetto ha iniziato Bob qualche mese fa?", "2025-06-04", "2025-09-02"),
    Case("relative chains", "due o tre giorni fa", "2025-10-29", "2025-10-30"),  # R-3..R-2
    Case("relative chains", "un paio di anni fa", "2022-11-01", "2024-11-01"),  # R-3y..R-1y
    Case("relative chains", "qualche anno fa", "2020-11-01", "2023-11-01"),  # R-5y..R-2y
    # --- seasons and quarters -------------------------------------------------------------
    Case("seasons and quarters", "Dove è andata Alice l'estate del 2022?", "2022-06-01", "2022-08-31"),
    Case("seasons and quarters", "il terzo trimestre del 2024", "2024-07-01", "2024-09-30"),
    # autumn 2025 (09-01..11-30) has not ended at R: the last ended one is 2024's
    Case("seasons and quarters", "l'autunno scorso", "2024-09-01", "2024-11-30"),
    Case("seasons and quarters", "Cosa abbiamo fatto l'estate scorsa?", "2025-06-01", "2025-08-31"),
    Case("seasons and quarters", "l'inverno scorso", "2024-12-01", "2025-02-28"),
    Case("seasons and quarters", "quest'autunno", "2025-09-01", "2025-11-30"),  # holds R
    Case("seasons and quarters", "quest'inverno", "2025-12-01", "2026-02-28"),  # the nearest
    Case("seasons and quarters", "la prossima primavera", "2026-03-01", "2026-05-31"),
    Case("seasons and quarters", "Dove è andato Bob in estate?", "2025-06-01", "2025-08-31"),
    Case("seasons and quarters", "nell'inverno del 2024", "2023-12-01", "2024-02-29"),  # holds January 2024
    Case("seasons and quarters", "la primavera del 2023", "2023-03-01", "2023-05-31"),
    Case("seasons and quarters", "Cosa abbiamo venduto nel primo trimestre del 2025?", "2025-01-01", "2025-03-31"),
    Case("seasons and quarters", "il trimestre scorso", "2025-07-01", "2025-09-30"),
    Case("seasons and quarters", "questo trimestre", "2025-10-01", "2025-12-31"),
    Case("seasons and quarters", "il prossimo trimestre", "2026-01-01", "2026-03-31"),
    Case("seasons and quarters", "il secondo trimestre", "2025-04-01", "2025-06-30"),  # no year: this year's
    Case("seasons and quarters", "nel Q4 2023", "2023-10-01", "2023-12-31"),
    Case("seasons and quarters", "l'autunno del 2021", "2021-09-01", "2021-11-30"),
    # --- times of day ---------------------------------------------------------------------
    Case("times of day", "Cosa ho mangiato stamattina?", "2025-11-01", "2025-11-01"),
    Case("times of day", "stasera", "2025-11-01", "2025-11-01"),
    Case("times of day", "Cosa abbiamo mangiato ieri sera?", "2025-10-31", "2025-10-31"),
    Case("times of day", "oggi pomeriggio", "2025-11-01", "2025-11-01"),
    Case("times of day", "Che impegni ho domani mattina?", "2025-11-02", "2025-11-02"),
    Case("times of day", "venerdì sera", "2025-10-31", "2025-10-31"),
    Case("times of day", "ieri mattina", "2025-10-31", "2025-10-31"),
    Case("times of day", "Con chi ha mangiato Alice oggi a pranzo?", "2025-11-01", "2025-11-01"),
    Case("times of day", "ieri pomeriggio", "2025-10-31", "2025-10-31"),
    Case("times of day", "l'altro ieri sera", "2025-10-30", "2025-10-30"),
    Case("times of day", "lunedì mattina", "2025-10-27", "2025-10-27"),
    Case("times of day", "domani sera", "2025-11-02", "2025-11-02"),
    Case("times of day", "Cosa mi ha detto Bob ieri alle 15?", "2025-10-31", "2025-10-31"),
    Case("times of day", "ieri notte", "2025-10-31", "2025-10-31"),  # last night
    Case("times of day", "questa mattina", "2025-11-01", "2025-11-01"),
    # --- holidays -------------------------------------------------------------------------
    Case("holidays", "Cosa hanno regalato ad Alice a Natale?", "2024-12-25", "2024-12-25"),
    Case("holidays", "Cosa abbiamo mangiato alla Vigilia?", "2024-12-24", "2024-12-24"),
    Case("holidays", "la Vigilia di Natale del 2023", "2023-12-24", "2023-12-24"),
    Case("holidays", "San Silvestro", "2024-12-31", "2024-12-31"),
    Case("holidays", "Dove eravamo a Capodanno?", "2025-01-01", "2025-01-01"),
    Case("holidays", "Pasqua", "2025-04-20", "2025-04-20"),
    Case("holidays", "Cosa abbiamo fatto a Pasquetta?", "2025-04-21", "2025-04-21"),  # Easter Monday
    Case("holidays", "Ferragosto", "2025-08-15", "2025-08-15"),
    Case("holidays", "l'Epifania", "2025-01-06", "2025-01-06"),
    Case("holidays", "intorno a Natale", "2024-12-22", "2024-12-28"),  # three days each side
    Case("holidays", "Natale 2023", "2023-12-25", "2023-12-25"),
    Case("holidays", "il prossimo Natale", "2025-12-25", "2025-12-25"),
    Case("holidays", "questo Natale", "2025-12-25", "2025-12-25"),  # this calendar year's
    Case("holidays", "Cosa faremo a Natale?", "2025-12-25", "2025-12-25"),  # future: the next one
    Case("holidays", "Pasqua 2024", "2024-03-31", "2024-03-31"),
    Case("holidays", "Pasquetta 2024", "2024-04-01", "2024-04-01"),
    Case("holidays", "Dove siamo andati a Ferragosto 2023?", "2023-08-15", "2023-08-15"),
    Case("holidays", "il Venerdì Santo", "2025-04-18", "2025-04-18"),
    Case("holidays", "San Valentino", "2025-02-14", "2025-02-14"),
    Case("holidays", "A quale festa è andato Bob ad Halloween?", "2025-10-31", "2025-10-31"),
    Case("holidays", "attorno a Ferragosto", "2025-08-12", "2025-08-18"),  # three days each side
    # --- names and non-dates --------------------------------------------------------------
    Case("names and non-dates", "Cosa si è detto nella stanza 2019?", None, None),
    Case("names and non-dates", "Chi ha aperto la porta 9077?", None, None),
    Case("names and non-dates", "Cosa cambia nella versione 2024?", None, None),
    Case("names and non-dates", "Cosa è successo di recente al progetto?", None, None),
    Case("names and non-dates", "Con chi ha parlato Alice ultimamente?", None, None),
    Case("names and non-dates", "Cosa sa Alice della Primavera di Botticelli?", None, None),  # a painting
    Case("names and non-dates", "Il nuovo ufficio è in via XX Settembre?", None, None),  # a street
    Case("names and non-dates", "Alice è stata al Maggio Musicale Fiorentino?", None, None),  # a festival
    Case("names and non-dates", "Che lavoro fa Domenica Rossi?", None, None),  # Domenica: a given name
    Case("names and non-dates", "Cosa pensa Natale Rossi del progetto?", None, None),  # Natale: a given name
    Case("names and non-dates", "Qual è il colore preferito di Alice?", None, None),
    Case("names and non-dates", "Quanti anni ha Alice?", None, None),
    Case("names and non-dates", "Alice va in palestra ogni lunedì?", None, None),  # every Monday
    Case("names and non-dates", "Quante volte a settimana si allena Alice?", None, None),
    Case("names and non-dates", "Cosa è successo il secondo giorno del congresso?", None, None),
    Case("names and non-dates", "In che anno è nata Alice?", None, None),
    # --- basics ---------------------------------------------------------------------------
    Case("basics", "Cosa ho fatto ieri?", "2025-10-31", "2025-10-31"),
    Case("basics", "la settimana scorsa", "2025-10-20", "2025-10-26"),
    Case("basics", "Cosa mi ha raccontato Alice 3 giorni fa?", "2025-10-29", "2025-10-29"),
    Case("basics", "Dove siamo andati a maggio?", "2025-05-01", "2025-05-31"),
    Case("basics", "giugno 2024", "2024-06-01", "2024-06-30"),
    Case("basics", "oggi", "2025-11-01", "2025-11-01"),
    Case("basics", "Che impegni ho domani?", "2025-11-02", "2025-11-02"),
    Case("basics", "il mese scorso", "2025-10-01", "2025-10-31"),
    Case("basics", "Dove viveva Bob l'anno scorso?", "2024-01-01", "2024-12-31"),
    Case("basics", "Cosa è successo nel 2019?", "2019-01-01", "2019-12-31"),
    Case("basics", "a dicembre", "2024-12-01", "2024-12-31"),  # December 2025 has not started
    Case("basics", "il 13 marzo", "2025-03-13", "2025-03-13"),
    Case("basics", "Cosa ha detto Bob lunedì?", "2025-10-27", "2025-10-27"),
    Case("basics", "due settimane fa", "2025-10-18", "2025-10-18"),
    Case("open ends", "fino alla fine del mese", "2025-11-01", "2025-11-30"),  # from a fresh user's trial
]

# third pass
CASES += [
    Case("future and generic weekdays", "Cosa abbiamo in programma per venerdì?", "2025-11-07", "2025-11-07"),
    Case("anchored days", "l'anno scorso in questo periodo", "2024-11-01", "2024-11-01"),
    Case("fractional amounts", "un anno e mezzo fa", "2024-05-01", "2024-05-01"),
    Case("holidays", "Chi è venuto all'Epifania?", "2025-01-06", "2025-01-06"),
    Case("parts of periods", "gli ultimi giorni di ottobre", "2025-10-21", "2025-10-31"),
]
