"""French: fresh hand-written cases (see the package docstring). R = Saturday 2025-11-01 12:00 UTC."""

from temporal_cases import Case

NEW_YEAR = "2026-01-03"  # a Saturday; this week 2025-12-29..2026-01-04

CASES = [
    # basics
    Case("basics", "Qu'est-ce que j'ai fait hier ?", "2025-10-31", "2025-10-31"),
    Case("basics", "Qu'est-ce qui s'est passé la semaine dernière ?", "2025-10-20", "2025-10-26"),
    Case("basics", "Qu'avons-nous décidé en mai ?", "2025-05-01", "2025-05-31"),
    Case("basics", "Qui a appelé il y a trois jours ?", "2025-10-29", "2025-10-29"),
    Case("basics", "Qu'est-ce qui est prévu vendredi prochain ?", "2025-11-07", "2025-11-07"),
    Case("basics", "Qu'avons-nous mangé avant-hier ?", "2025-10-30", "2025-10-30"),
    Case("basics", "Où étions-nous il y a six mois ?", "2025-05-01", "2025-05-01"),
    # ranges
    Case("ranges", "Qu'avons-nous construit entre mars et juin ?", "2025-03-01", "2025-06-30"),
    Case("ranges", "Où étions-nous du 3 au 9 août ?", "2025-08-03", "2025-08-09"),
    # open ends
    Case("open ends", "Combien avons-nous dépensé depuis janvier ?", "2025-01-01", "now"),
    Case("open ends", "Qu'avons-nous lancé après juin ?", "2025-07-01", "now"),
    # durations
    Case("durations", "Qu'ai-je acheté au cours des deux dernières semaines ?", "2025-10-18", "now"),
    Case("durations", "Qu'est-ce qui est prévu dans les trois prochains jours ?", "2025-11-01", "2025-11-04"),
    # parts of periods
    Case("parts of periods", "Qu'avons-nous fait début août ?", "2025-08-01", "2025-08-10"),
    Case("parts of periods", "Qui est parti fin septembre ?", "2025-09-21", "2025-09-30"),
    Case("parts of periods", "Que s'est-il passé à la mi-juillet ?", "2025-07-11", "2025-07-20"),
    # seasons and quarters
    Case("seasons and quarters", "Où sommes-nous allés l'été dernier ?", "2025-06-01", "2025-08-31"),
    Case("seasons and quarters", "Quelles étaient les ventes au premier trimestre 2024 ?", "2024-01-01", "2024-03-31"),
    # holidays
    Case("holidays", "Qu'avons-nous mangé à Noël ?", "2024-12-25", "2024-12-25"),
    Case("holidays", "Où étions-nous à la Toussaint 2023 ?", "2023-11-01", "2023-11-01"),
    Case("holidays", "Qui est venu le jour de l'An ?", "2025-01-01", "2025-01-01"),
    Case("holidays", "Qu'avons-nous fait à Pâques ?", "2025-04-20", "2025-04-20"),
    Case("holidays", "Où avons-nous fêté la Saint-Sylvestre ?", "2024-12-31", "2024-12-31"),
    # names and non-dates
    Case("names and non-dates", "Qu'en pense Avril ?", None, None),
    Case("names and non-dates", "Qui occupe la chambre 2018 ?", None, None),
    Case("names and non-dates", "Bonne année à tous !", None, None),
    # turn of year
    Case("turn of year", "Qu'avons-nous fait en décembre ?", "2025-12-01", "2025-12-31", NEW_YEAR),
    Case("turn of year", "Qu'est-ce qui s'est passé la semaine dernière ?", "2025-12-22", "2025-12-28", NEW_YEAR),
    # future weekday
    Case("future weekday", "Qu'est-ce qu'on va faire vendredi ?", "2025-11-07", "2025-11-07"),
    Case("future weekday", "Qu'est-ce qui est prévu pour lundi ?", "2025-11-03", "2025-11-03"),
    Case("future weekday", "Que ferons-nous mercredi ?", "2025-11-05", "2025-11-05"),
    # same date last year
    Case("same date last year", "Que s'est-il passé il y a un an jour pour jour ?", "2024-11-01", "2024-11-01"),
    Case("same date last year", "Que faisais-je l'année dernière à la même date ?", "2024-11-01", "2024-11-01"),
    # week of
    Case("week of", "Qu'avons-nous fait la semaine du 10 mars ?", "2025-03-10", "2025-03-16"),
    Case("week of", "Qui était absent la semaine du 15 octobre ?", "2025-10-13", "2025-10-19"),
    # last days of month
    Case("last days of month", "Qu'avons-nous fait les derniers jours d'octobre ?", "2025-10-21", "2025-10-31"),
    Case("last days of month", "Que s'est-il passé les derniers jours de septembre ?", "2025-09-21", "2025-09-30"),
    # relative year quarter
    Case(
        "relative year quarter",
        "Combien avons-nous vendu au deuxième trimestre de l'année dernière ?",
        "2024-04-01",
        "2024-06-30",
    ),
    Case(
        "relative year quarter",
        "Qu'est-ce qui est prévu au dernier trimestre de l'année prochaine ?",
        "2026-10-01",
        "2026-12-31",
    ),
    # fractional durations
    Case("fractional durations", "Où habitions-nous il y a un an et demi ?", "2024-05-01", "2024-05-01"),
    Case("fractional durations", "Qui est arrivé il y a deux ans et demi ?", "2023-05-01", "2023-05-01"),
    # generic weekday
    Case("generic weekday", "On se voit tous les lundis ?", None, None),
    Case("generic weekday", "Où étions-nous le Vendredi saint ?", "2025-04-18", "2025-04-18"),
]
