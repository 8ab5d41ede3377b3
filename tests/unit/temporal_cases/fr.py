"""French cases (docs/temporal.md, "Conventions"); R = Saturday 2025-11-01 12:00 UTC."""

from . import Case

CASES = [
    # --- ranges: [X.first, Y.last] ---
    Case("ranges", "Sur quoi Alice a-t-elle travaillé entre mars et mai ?", "2025-03-01", "2025-05-31"),
    Case("ranges", "de janvier à avril 2024", "2024-01-01", "2024-04-30"),
    Case("ranges", "Qu'est-ce qui s'est passé du 5 au 8 mars ?", "2025-03-05", "2025-03-08"),
    # November 2025 would start after February 2025 ends: X moves back a year.
    Case("ranges", "entre novembre et février", "2024-11-01", "2025-02-28"),
    # Friday 10-31 is after Monday 10-27: Friday moves back a week.
    Case("ranges", "Qu'ai-je fait de vendredi à lundi ?", "2025-10-24", "2025-10-27"),
    Case("ranges", "les projets entre 2019 et 2021", "2019-01-01", "2021-12-31"),
    Case("ranges", "Où était Bob de mai à juillet 2024 ?", "2024-05-01", "2024-07-31"),
    Case("ranges", "entre mars 2023 et mai", "2023-03-01", "2023-05-31"),
    Case("ranges", "Qu'ai-je terminé du 1er au 15 octobre ?", "2025-10-01", "2025-10-15"),
    Case("ranges", "de janvier jusqu'à aujourd'hui", "2025-01-01", "now"),
    Case("ranges", "les rendez-vous entre le 10 et le 20 juin 2023", "2023-06-10", "2023-06-20"),
    Case("ranges", "de juillet à septembre", "2025-07-01", "2025-09-30"),
    # Christmas 2024-12-25 (the most recent); New Year's Day 2025-01-01.
    Case("ranges", "Qu'avons-nous fait entre Noël et le jour de l'An ?", "2024-12-25", "2025-01-01"),
    Case("ranges", "entre Noël et la Saint-Sylvestre", "2024-12-25", "2024-12-31"),
    Case("ranges", "Qu'ai-je fait de lundi à mercredi ?", "2025-10-27", "2025-10-29"),
    Case("ranges", "les factures du 3 au 7 février 2024", "2024-02-03", "2024-02-07"),
    Case("ranges", "de mars jusqu'à maintenant", "2025-03-01", "now"),
    # --- open ends ---
    Case("open ends", "Qu'a fait Alice depuis janvier ?", "2025-01-01", "now"),
    Case("open ends", "depuis la semaine dernière", "2025-10-20", "now"),
    # Christmas = 2024-12-25; after = from the next day.
    Case("open ends", "Que s'est-il passé après Noël ?", "2024-12-26", "now"),
    # before March 2025: floor ten years before it begins.
    Case("open ends", "avant mars", "2015-03-01", "2025-02-28"),
    Case("open ends", "jusqu'en mai", "2015-05-01", "2025-05-31"),
    Case("open ends", "Qu'est-ce qui était prévu jusqu'à mai ?", "2015-05-01", "2025-05-31"),
    Case("open ends", "Qu'ai-je lu depuis le début de l'année ?", "2025-01-01", "now"),
    Case("open ends", "cette année jusqu'ici", "2025-01-01", "now"),
    Case("open ends", "plus tôt cette année", "2025-01-01", "now"),
    Case("open ends", "depuis 2020", "2020-01-01", "now"),
    Case("open ends", "Que s'est-il passé avant 2020 ?", "2010-01-01", "2019-12-31"),
    Case("open ends", "après mars", "2025-04-01", "now"),
    # until a future X: from R to X.last (next Friday = 11-07).
    Case("open ends", "Qu'est-ce qui reste bloqué jusqu'à vendredi prochain ?", "2025-11-01", "2025-11-07"),
    # before a future X: from R to the day before X (next week starts 11-03).
    Case("open ends", "Que dois-je régler avant la semaine prochaine ?", "2025-11-01", "2025-11-02"),
    Case("open ends", "depuis le 15 août", "2025-08-15", "now"),
    Case("open ends", "à partir de mars", "2025-03-01", "now"),
    Case("open ends", "Que s'est-il passé après Noël 2023 ?", "2023-12-26", "now"),
    Case("open ends", "avant mai 2024", "2014-05-01", "2024-04-30"),
    Case("open ends", "jusqu'en 2022", "2012-01-01", "2022-12-31"),
    Case("open ends", "depuis lundi", "2025-10-27", "now"),
    Case("open ends", "depuis hier", "2025-10-31", "now"),
    Case("open ends", "Qu'est-ce qui est prévu plus tard cette semaine ?", "2025-11-01", "2025-11-02"),
    Case("open ends", "plus tard dans l'année", "2025-11-01", "2025-12-31"),
    Case("open ends", "plus tôt ce mois-ci", "2025-11-01", "now"),
    # earlier this week: from Monday 10-27.
    Case("open ends", "De quoi avons-nous parlé plus tôt cette semaine ?", "2025-10-27", "now"),
    # --- durations: [R - N units, now]; the future [R, R + N units] ---
    Case("durations", "Qu'a fait Bob au cours des trois derniers mois ?", "2025-08-01", "now"),
    Case("durations", "les 2 dernières semaines", "2025-10-18", "now"),
    Case("durations", "Qu'est-ce qui est prévu dans les 5 prochains jours ?", "2025-11-01", "2025-11-06"),
    # R - 24 h = 10-31 12:00.
    Case("durations", "ces dernières 24 heures", "2025-10-31", "now"),
    Case("durations", "les 7 derniers jours", "2025-10-25", "now"),
    Case("durations", "Que s'est-il passé au cours des dix derniers jours ?", "2025-10-22", "now"),
    # R - 48 h = 10-30 12:00.
    Case("durations", "ces 48 dernières heures", "2025-10-30", "now"),
    # R - 5 h = 11-01 07:00.
    Case("durations", "au cours des 5 dernières heures", "2025-11-01", "now"),
    Case("durations", "dans les deux prochaines semaines", "2025-11-01", "2025-11-15"),
    Case("durations", "Qu'est-ce qui est prévu dans les 3 prochains mois ?", "2025-11-01", "2026-02-01"),
    Case("durations", "les six derniers mois", "2025-05-01", "now"),
    Case("durations", "ces deux dernières années", "2023-11-01", "now"),
    Case("durations", "au cours des 12 derniers mois", "2024-11-01", "now"),
    Case("durations", "les 30 derniers jours", "2025-10-02", "now"),
    # 4 weeks = 28 days.
    Case("durations", "les quatre dernières semaines", "2025-10-04", "now"),
    # the past year: R - 1 year.
    Case("durations", "au cours de l'année écoulée", "2024-11-01", "now"),
    Case("durations", "dans les 10 jours à venir", "2025-11-01", "2025-11-11"),
    Case("durations", "au cours des trois dernières années", "2022-11-01", "now"),
    # --- parts of periods ---
    Case("parts of periods", "début mars", "2025-03-01", "2025-03-10"),
    Case("parts of periods", "Que s'est-il passé mi-mars ?", "2025-03-11", "2025-03-20"),
    Case("parts of periods", "fin mars", "2025-03-21", "2025-03-31"),
    Case("parts of periods", "Que s'est-il passé fin 2023 ?", "2023-09-01", "2023-12-31"),
    Case("parts of periods", "mi-2024", "2024-05-01", "2024-08-31"),
    Case("parts of periods", "la première moitié de 2024", "2024-01-01", "2024-06-30"),
    Case("parts of periods", "Qu'ai-je fait la première semaine de juin ?", "2025-06-01", "2025-06-07"),
    # ISO week 23 of 2025: Monday 06-02 to Sunday 06-08.
    Case("parts of periods", "la semaine 23", "2025-06-02", "2025-06-08"),
    Case("parts of periods", "la semaine 23 de 2024", "2024-06-03", "2024-06-09"),
    # ISO week 10 of 2024: 03-04..03-10.
    Case("parts of periods", "la 10e semaine de 2024", "2024-03-04", "2024-03-10"),
    # the most recent December is December 2024.
    Case("parts of periods", "fin décembre", "2024-12-21", "2024-12-31"),
    Case("parts of periods", "à la fin du mois dernier", "2025-10-21", "2025-10-31"),
    Case("parts of periods", "au début de l'année dernière", "2024-01-01", "2024-04-30"),
    # summer = the most recent one that has started (2025); its third month.
    Case("parts of periods", "à la fin de l'été", "2025-08-01", "2025-08-31"),
    Case("parts of periods", "la seconde moitié de 2023", "2023-07-01", "2023-12-31"),
    Case("parts of periods", "la dernière semaine de juin", "2025-06-24", "2025-06-30"),
    Case("parts of periods", "le dernier jour de septembre", "2025-09-30", "2025-09-30"),
    Case("parts of periods", "au début de ce mois", "2025-11-01", "2025-11-10"),
    Case("parts of periods", "début janvier 2024", "2024-01-01", "2024-01-10"),
    Case("parts of periods", "la deuxième semaine d'octobre", "2025-10-08", "2025-10-14"),
    Case("parts of periods", "mi-octobre", "2025-10-11", "2025-10-20"),
    # --- relative chains ---
    Case("relative chains", "Qu'ai-je fait avant-hier ?", "2025-10-30", "2025-10-30"),
    Case("relative chains", "Qu'est-ce qui est prévu après-demain ?", "2025-11-03", "2025-11-03"),
    Case("relative chains", "l'avant-dernière semaine", "2025-10-13", "2025-10-19"),
    Case("relative chains", "l'avant-dernier mois", "2025-09-01", "2025-09-30"),
    Case("relative chains", "l'avant-dernier week-end", "2025-10-18", "2025-10-19"),
    # last Monday (strictly before R) is 10-27; the one before it 10-20.
    Case("relative chains", "l'avant-dernier lundi", "2025-10-20", "2025-10-20"),
    # three Fridays ago: one before last Friday (10-31) is 10-24, two before 10-17.
    Case("relative chains", "il y a trois vendredis", "2025-10-17", "2025-10-17"),
    Case("relative chains", "Que s'est-il passé il y a deux lundis ?", "2025-10-20", "2025-10-20"),
    Case("relative chains", "le week-end dernier", "2025-10-25", "2025-10-26"),
    Case("relative chains", "Que fait-on le week-end prochain ?", "2025-11-08", "2025-11-09"),
    Case("relative chains", "ce week-end", "2025-11-01", "2025-11-02"),
    Case("relative chains", "lundi prochain", "2025-11-03", "2025-11-03"),
    # R is a Saturday: last Friday is the day before.
    Case("relative chains", "vendredi dernier", "2025-10-31", "2025-10-31"),
    Case("relative chains", "Qu'est-ce qui est prévu ce dimanche ?", "2025-11-02", "2025-11-02"),
    Case("relative chains", "le mois prochain", "2025-12-01", "2025-12-31"),
    Case("relative chains", "la semaine prochaine", "2025-11-03", "2025-11-09"),
    # --- seasons and quarters (meteorological, northern hemisphere) ---
    Case("seasons and quarters", "Où étais-je l'été 2022 ?", "2022-06-01", "2022-08-31"),
    Case("seasons and quarters", "au troisième trimestre 2024", "2024-07-01", "2024-09-30"),
    Case("seasons and quarters", "chiffre d'affaires T3 2024", "2024-07-01", "2024-09-30"),
    # autumn 2025 holds R and has not ended: last autumn is 2024.
    Case("seasons and quarters", "Qu'avons-nous fait l'automne dernier ?", "2024-09-01", "2024-11-30"),
    # winter 2024 = the one that holds January 2024.
    Case("seasons and quarters", "l'hiver 2024", "2023-12-01", "2024-02-29"),
    Case("seasons and quarters", "l'hiver dernier", "2024-12-01", "2025-02-28"),
    Case("seasons and quarters", "cet automne", "2025-09-01", "2025-11-30"),
    # no winter holds R: the nearest one.
    Case("seasons and quarters", "Qu'est-ce qu'on prévoit cet hiver ?", "2025-12-01", "2026-02-28"),
    Case("seasons and quarters", "le printemps prochain", "2026-03-01", "2026-05-31"),
    Case("seasons and quarters", "Qu'ai-je fait en été ?", "2025-06-01", "2025-08-31"),
    Case("seasons and quarters", "le trimestre dernier", "2025-07-01", "2025-09-30"),
    Case("seasons and quarters", "Quels sont les objectifs de ce trimestre ?", "2025-10-01", "2025-12-31"),
    Case("seasons and quarters", "le trimestre prochain", "2026-01-01", "2026-03-31"),
    Case("seasons and quarters", "au deuxième trimestre", "2025-04-01", "2025-06-30"),
    Case("seasons and quarters", "au printemps 2023", "2023-03-01", "2023-05-31"),
    Case("seasons and quarters", "l'été dernier", "2025-06-01", "2025-08-31"),
    Case("seasons and quarters", "au quatrième trimestre 2023", "2023-10-01", "2023-12-31"),
    Case("seasons and quarters", "à l'automne 2021", "2021-09-01", "2021-11-30"),
    Case("seasons and quarters", "au premier trimestre", "2025-01-01", "2025-03-31"),
    # --- times of day: whole days ---
    Case("times of day", "Qu'ai-je fait ce matin ?", "2025-11-01", "2025-11-01"),
    Case("times of day", "ce soir", "2025-11-01", "2025-11-01"),
    Case("times of day", "De quoi avons-nous parlé hier soir ?", "2025-10-31", "2025-10-31"),
    Case("times of day", "cet après-midi", "2025-11-01", "2025-11-01"),
    Case("times of day", "Qu'est-ce qui est prévu demain matin ?", "2025-11-02", "2025-11-02"),
    Case("times of day", "hier matin", "2025-10-31", "2025-10-31"),
    Case("times of day", "Que s'est-il passé hier après-midi ?", "2025-10-31", "2025-10-31"),
    Case("times of day", "demain soir", "2025-11-02", "2025-11-02"),
    # Friday = 10-31.
    Case("times of day", "Qu'ai-je fait vendredi soir ?", "2025-10-31", "2025-10-31"),
    Case("times of day", "ce midi", "2025-11-01", "2025-11-01"),
    Case("times of day", "avant-hier soir", "2025-10-30", "2025-10-30"),
    Case("times of day", "la nuit dernière", "2025-10-31", "2025-10-31"),
    # Monday = 10-27.
    Case("times of day", "lundi matin", "2025-10-27", "2025-10-27"),
    Case("times of day", "hier midi", "2025-10-31", "2025-10-31"),
    # --- holidays: the most recent on or before R unless told ---
    Case("holidays", "Qu'avons-nous fait à Noël ?", "2024-12-25", "2024-12-25"),
    Case("holidays", "la Saint-Sylvestre", "2024-12-31", "2024-12-31"),
    Case("holidays", "Où étions-nous le jour de l'An ?", "2025-01-01", "2025-01-01"),
    Case("holidays", "Qu'avons-nous fait à Pâques ?", "2025-04-20", "2025-04-20"),
    # Toussaint is 11-01: R's own day counts.
    Case("holidays", "la Toussaint", "2025-11-01", "2025-11-01"),
    # around: Christmas 2024-12-25 plus three days on each side.
    Case("holidays", "Que s'est-il passé vers Noël ?", "2024-12-22", "2024-12-28"),
    Case("holidays", "autour de Noël", "2024-12-22", "2024-12-28"),
    Case("holidays", "autour du jour de l'An", "2024-12-29", "2025-01-04"),
    Case("holidays", "le réveillon de Noël", "2024-12-24", "2024-12-24"),
    Case("holidays", "Noël 2023", "2023-12-25", "2023-12-25"),
    # future tense (ferons = will do): the next Christmas.
    Case("holidays", "Que ferons-nous à Noël ?", "2025-12-25", "2025-12-25"),
    Case("holidays", "le lundi de Pâques", "2025-04-21", "2025-04-21"),
    Case("holidays", "le Vendredi saint", "2025-04-18", "2025-04-18"),
    # Easter Sunday 2024 = 03-31.
    Case("holidays", "Pâques 2024", "2024-03-31", "2024-03-31"),
    Case("holidays", "à la Saint-Valentin", "2025-02-14", "2025-02-14"),
    Case("holidays", "Qu'avons-nous fait à Halloween ?", "2025-10-31", "2025-10-31"),
    Case("holidays", "la Saint-Sylvestre 2022", "2022-12-31", "2022-12-31"),
    # "last X" is the most recent one that has ended: Toussaint 2025 (today) has not.
    Case("holidays", "la Toussaint dernière", "2024-11-01", "2024-11-01"),
    # --- names and non-dates: no window ---
    Case("names and non-dates", "Qu'y a-t-il dans la salle 2019 ?", None, None),
    Case("names and non-dates", "Le service écoute-t-il sur le port 9077 ?", None, None),
    # Mars the planet (months are lower-case in French).
    Case("names and non-dates", "Où en est la mission vers Mars ?", None, None),
    Case("names and non-dates", "Quoi de neuf dans la version 2024 ?", None, None),
    Case("names and non-dates", "Qu'a fait Alice récemment ?", None, None),
    Case("names and non-dates", "De quoi avons-nous parlé dernièrement ?", None, None),
    Case("names and non-dates", "Qu'a fait Alice ces temps-ci ?", None, None),
    Case("names and non-dates", "Comment s'appelle le chien de Bob ?", None, None),
    Case("names and non-dates", "Quelle base de données utilise le projet ?", None, None),
    Case("names and non-dates", "Que pense Juliette des photos du rover sur Mars ?", None, None),
    # Avril as a first name ("Did April call?").
    Case("names and non-dates", "Avril a-t-elle appelé ?", None, None),
    # like "the 2020 election": a bare number after a noun is not a year.
    Case("names and non-dates", "Qu'a-t-on dit sur la présidentielle 2022 ?", None, None),
    Case("names and non-dates", "Le nouvel abonnement coûte-t-il 2000 euros ?", None, None),
    Case("names and non-dates", "Qui est dans la chambre 1204 ?", None, None),
    Case("names and non-dates", "Quel est le rôle de Bob dans l'équipe ?", None, None),
    # --- basics ---
    Case("basics", "Qu'est-ce que j'ai fait hier ?", "2025-10-31", "2025-10-31"),
    Case("basics", "la semaine dernière", "2025-10-20", "2025-10-26"),
    Case("basics", "Que s'est-il passé il y a 3 jours ?", "2025-10-29", "2025-10-29"),
    Case("basics", "De quoi avons-nous parlé en mai ?", "2025-05-01", "2025-05-31"),
    Case("basics", "juin 2024", "2024-06-01", "2024-06-30"),
    Case("basics", "Qu'ai-je fait aujourd'hui ?", "2025-11-01", "2025-11-01"),
    Case("basics", "Qu'est-ce qui est prévu demain ?", "2025-11-02", "2025-11-02"),
    Case("basics", "le mois dernier", "2025-10-01", "2025-10-31"),
    Case("basics", "l'année dernière", "2024-01-01", "2024-12-31"),
    Case("basics", "il y a deux semaines", "2025-10-18", "2025-10-18"),
    # the most recent December that has started is December 2024.
    Case("basics", "en décembre", "2024-12-01", "2024-12-31"),
    Case("basics", "en 2019", "2019-01-01", "2019-12-31"),
    Case("basics", "Qu'ai-je fait lundi ?", "2025-10-27", "2025-10-27"),
    Case("basics", "samedi dernier", "2025-10-25", "2025-10-25"),
    Case("basics", "il y a un an", "2024-11-01", "2024-11-01"),
    Case("basics", "dans 3 jours", "2025-11-04", "2025-11-04"),
    Case("open ends", "jusqu'à la fin du mois", "2025-11-01", "2025-11-30"),  # from a fresh user's trial
]

# third pass
CASES += [
    Case("future and generic weekdays", "Qu'est-ce qu'on va faire vendredi ?", "2025-11-07", "2025-11-07"),
    Case("anchored days", "à la même époque l'an dernier", "2024-11-01", "2024-11-01"),
    Case("anchored days", "la semaine du 3 mars", "2025-03-03", "2025-03-09"),
    Case("fractional amounts", "il y a un an et demi", "2024-05-01", "2024-05-01"),
    Case("seasons and quarters", "le dernier trimestre de l'année prochaine", "2026-10-01", "2026-12-31"),
    Case("parts of periods", "les derniers jours d'octobre", "2025-10-21", "2025-10-31"),
]
