"""French fact dating cases (see the package docstring for the conventions)."""

from __future__ import annotations

from . import FactCase

CASES = [
    # --- yearless future
    FactCase("yearless future", "2026-11-23", "Le mariage est le 12 décembre.", "2026-12-12", "2026-12-12"),
    FactCase("yearless future", "2025-12-03", "Le déménagement est prévu en février.", "2026-02-01", "2026-02-28"),
    # "On a embauché" is past; the start is to come, in the next January.
    FactCase(
        "yearless future", "2026-11-26", "On a embauché Emma, elle commence le 4 janvier.", "2027-01-04", "2027-01-04"
    ),
    FactCase("yearless future", "2024-10-14", "Le salon a lieu le 3 décembre.", "2024-12-03", "2024-12-03"),
    # --- yearless past
    FactCase("yearless past", "2025-10-07", "Nous avons emménagé en mars.", "2025-03-01", "2025-03-31"),
    FactCase("yearless past", "2027-01-08", "J'ai rendu le rapport le 20 décembre.", "2026-12-20", "2026-12-20"),
    FactCase("yearless past", "2026-02-09", "Il a quitté l'entreprise en novembre.", "2025-11-01", "2025-11-30"),
    # --- weekday future
    # said Tuesday 2025-05-13.
    FactCase("weekday future", "2025-05-13", "La réunion est jeudi.", "2025-05-15", "2025-05-15"),
    # said Friday 2024-08-30: the Monday after is in September.
    FactCase("weekday future", "2024-08-30", "On part lundi.", "2024-09-02", "2024-09-02"),
    # said Monday 2027-03-15.
    FactCase("weekday future", "2027-03-15", "Le plombier passe mercredi.", "2027-03-17", "2027-03-17"),
    # --- weekday past
    # said Thursday 2026-04-16.
    FactCase("weekday past", "2026-04-16", "Mardi, j'ai enfin réparé le vélo.", "2026-04-14", "2026-04-14"),
    # said Wednesday 2025-12-31.
    FactCase("weekday past", "2025-12-31", "Dimanche, on a couru 10 km.", "2025-12-28", "2025-12-28"),
    # --- weekday and date
    # 2025-05-06 is a Tuesday.
    FactCase("weekday and date", "2025-04-23", "La bascule est prévue mardi 6 mai.", "2025-05-06", "2025-05-06"),
    # 2027-11-28 is a Sunday, not a Friday: the date wins.
    FactCase(
        "weekday and date", "2027-11-15", "Le dîner d'équipe est vendredi 28 novembre.", "2027-11-28", "2027-11-28"
    ),
    # --- weekend
    # said Thursday 2026-07-09: the coming weekend.
    FactCase("weekend", "2026-07-09", "Ce week-end, on va à la mer.", "2026-07-11", "2026-07-12"),
    # said Wednesday 2024-01-10.
    FactCase("weekend", "2024-01-10", "Le week-end dernier, on a repeint la cuisine.", "2024-01-06", "2024-01-07"),
    # said Sunday 2025-05-18: this weekend is 05-17..18, the next one the weekend after.
    FactCase("weekend", "2025-05-18", "Le week-end prochain, on reçoit mes parents.", "2025-05-24", "2025-05-25"),
    # --- habitual
    FactCase("habitual", "2025-09-15", "Tous les lundis, on a une réunion d'équipe.", None, None),
    # "le samedi" with the article: on Saturdays.
    FactCase("habitual", "2026-03-07", "Le samedi, je fais de l'escalade.", None, None),
    FactCase("habitual", "2027-06-11", "Le week-end, je fais toujours la grasse matinée.", None, None),
    # --- relative
    FactCase("relative", "2026-01-01", "Hier, j'ai signé le contrat.", "2025-12-31", "2025-12-31"),
    # 2024 is a leap year: tomorrow is 02-29, the day after it 03-01.
    FactCase("relative", "2024-02-28", "Après-demain, le plombier passe.", "2024-03-01", "2024-03-01"),
    # said Wednesday 2025-11-19: next week is Monday 11-24 to Sunday 11-30.
    FactCase("relative", "2025-11-19", "La semaine prochaine, je suis à Lyon.", "2025-11-24", "2025-11-30"),
    FactCase("relative", "2027-01-20", "Le mois dernier, les ventes ont baissé.", "2026-12-01", "2026-12-31"),
    FactCase("relative", "2026-06-03", "Dans trois semaines, on déménage.", "2026-06-24", "2026-06-24"),
    FactCase("relative", "2025-03-01", "Il y a deux jours, j'ai vu le médecin.", "2025-02-27", "2025-02-27"),
    # said Monday 2026-09-14: the most recent Tuesday is in last week either way.
    FactCase("relative", "2026-09-14", "Mardi dernier, j'ai eu un entretien d'embauche.", "2026-09-08", "2026-09-08"),
    # --- explicit
    FactCase("explicit", "2025-02-10", "J'ai obtenu mon diplôme le 12 mars 2024.", "2024-03-12", "2024-03-12"),
    FactCase("explicit", "2024-05-05", "Nous avons vécu à Montréal en 2022.", "2022-01-01", "2022-12-31"),
    FactCase("explicit", "2026-10-01", "Le contrat se termine en janvier 2027.", "2027-01-01", "2027-01-31"),
    # --- no date
    FactCase("no date", "2025-10-15", "Nous avons atteint 10 000 utilisateurs.", None, None),
    # Avril is a first name here.
    FactCase("no date", "2026-04-13", "Avril est notre nouvelle stagiaire.", None, None),
    FactCase("no date", "2024-09-18", "La salle 101 est au troisième étage.", None, None),
    # --- day of month
    FactCase("day of month", "2026-07-09", "Le colis est arrivé le 3.", "2026-07-03", "2026-07-03"),
    FactCase("day of month", "2025-04-10", "Le loyer augmente le 15.", "2025-04-15", "2025-04-15"),
    # the 10th of December has passed: the next 10th is in January.
    FactCase("day of month", "2025-12-20", "Le dernier versement est dû le 10.", "2026-01-10", "2026-01-10"),
    # --- season and holiday
    FactCase("season and holiday", "2025-03-10", "Cet été, on part en Grèce.", "2025-06-01", "2025-08-31"),
    FactCase(
        "season and holiday", "2026-11-20", "Le jour de Noël, on sera chez mes parents.", "2026-12-25", "2026-12-25"
    ),
    FactCase("season and holiday", "2025-01-06", "On a passé la Saint-Sylvestre à Paris.", "2024-12-31", "2024-12-31"),
    # said in November 2026: last winter is December 2025 to February 2026.
    FactCase("season and holiday", "2026-11-20", "L'hiver dernier, on a eu très froid.", "2025-12-01", "2026-02-28"),
    # --- future dates in past sentences, moved dates, start dates
    FactCase(
        "future in a past sentence",
        "2025-02-03",
        "J'ai pris rendez-vous chez le dentiste pour le 3 mars.",
        "2025-03-03",
        "2025-03-03",
    ),
    # said in December about January, the event to come: next year's.
    FactCase(
        "future in a past sentence",
        "2026-12-08",
        "on a pris les billets pour le 10 janvier 🎉",
        "2027-01-10",
        "2027-01-10",
    ),
    FactCase(
        "future in a past sentence",
        "2024-05-14",
        "Je me suis inscrite au semi-marathon du 20 octobre.",
        "2024-10-20",
        "2024-10-20",
    ),
    FactCase(
        "future in a past sentence",
        "2027-03-22",
        "C'est signé ! La remise des clés est le 15 avril.",
        "2027-04-15",
        "2027-04-15",
    ),
    # the event is past.
    FactCase(
        "future in a past sentence",
        "2025-01-10",
        "Le colis est arrivé le 3 janvier.",
        "2025-01-03",
        "2025-01-03",
    ),
    FactCase(
        "future in a past sentence",
        "2026-09-18",
        "le technicien est passé le 9 septembre, tout marche",
        "2026-09-09",
        "2026-09-09",
    ),
    FactCase("moved dates", "2025-05-20", "La réunion est reportée du 3 au 10 juin.", "2025-06-10", "2025-06-10"),
    # avancé: brought forward, B before A.
    FactCase("moved dates", "2024-11-12", "l'entretien a été avancé du 28 au 21 novembre", "2024-11-21", "2024-11-21"),
    # said in December, the new date in January: next year's.
    FactCase(
        "moved dates",
        "2026-12-14",
        "Le séminaire est repoussé du 17 décembre au 14 janvier.",
        "2027-01-14",
        "2027-01-14",
    ),
    # said Tuesday 2027-06-08: the Friday of that week.
    FactCase("moved dates", "2027-06-08", "le rdv a été déplacé à vendredi", "2027-06-11", "2027-06-11"),
    FactCase("moved dates", "2025-03-05", "Le dîner est maintenant le 21.", "2025-03-21", "2025-03-21"),
    # past: the concert happened, on B.
    FactCase(
        "moved dates",
        "2024-07-08",
        "Le concert avait été reporté du 22 juin au 29 juin, c'était génial.",
        "2024-06-29",
        "2024-06-29",
    ),
    FactCase("start date", "2026-02-10", "date de début : 2 mars", "2026-03-02", "2026-03-02"),
    FactCase("start date", "2025-12-19", "Mon premier jour, c'est le 6 janvier.", "2026-01-06", "2026-01-06"),
    FactCase("start date", "2024-08-26", "Contrat signé ! Date d'embauche : 16 septembre.", "2024-09-16", "2024-09-16"),
    # 23:20 in Paris (21:20 UTC): the local day is 10-04.
    FactCase(
        "start date",
        "2027-10-04T23:20:00+02:00",
        "ma date de prise de poste est le 2 novembre",
        "2027-11-02",
        "2027-11-02",
    ),
    FactCase("start date", "2025-04-28", "date de début du stage : 12 mai 👍", "2025-05-12", "2025-05-12"),
]
