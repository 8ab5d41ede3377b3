"""Spanish cases (docs/temporal.md, "Conventions"); R = Saturday 2025-11-01 12:00 UTC."""

from . import Case

CASES = [
    # --- ranges ---------------------------------------------------------------------------
    Case("ranges", "¿En qué trabajó Alice entre marzo y mayo?", "2025-03-01", "2025-05-31"),
    Case("ranges", "de mayo a julio de 2024", "2024-05-01", "2024-07-31"),  # the year applies to both sides
    Case("ranges", "¿Qué pasó del 5 al 8 de marzo?", "2025-03-05", "2025-03-08"),  # the 5 takes March
    # February 2025 ends before November 2025 starts: November moves back a year
    Case("ranges", "entre noviembre y febrero", "2024-11-01", "2025-02-28"),
    # Monday 10-27 ends before Friday 10-31: Friday moves back a week
    Case("ranges", "¿Qué hizo Bob del viernes al lunes?", "2025-10-24", "2025-10-27"),
    Case("ranges", "entre marzo de 2023 y mayo", "2023-03-01", "2023-05-31"),
    Case("ranges", "¿Dónde vivió Alice de 2019 a 2021?", "2019-01-01", "2021-12-31"),
    Case("ranges", "desde marzo hasta ahora", "2025-03-01", "now"),
    Case("ranges", "¿Qué reuniones hubo entre el lunes y el miércoles?", "2025-10-27", "2025-10-29"),
    Case("ranges", "de enero a marzo de 2024", "2024-01-01", "2024-03-31"),
    Case("ranges", "¿Qué pasó entre el 10 y el 20 de octubre?", "2025-10-10", "2025-10-20"),
    Case("ranges", "¿Qué viajes hizo Alice de junio a septiembre?", "2025-06-01", "2025-09-30"),
    # the most recent 25 December is 2024-12-25, the most recent 5 January 2025-01-05
    Case("ranges", "del 25 de diciembre al 5 de enero", "2024-12-25", "2025-01-05"),
    Case("ranges", "del 1 al 15 de septiembre", "2025-09-01", "2025-09-15"),
    Case("ranges", "¿Qué proyectos llevó Bob entre 2020 y 2022?", "2020-01-01", "2022-12-31"),
    # --- open ends ------------------------------------------------------------------------
    Case("open ends", "¿Qué ha hecho Alice desde enero?", "2025-01-01", "now"),
    Case("open ends", "desde la semana pasada", "2025-10-20", "now"),
    Case("open ends", "¿Qué pasó después de Navidad?", "2024-12-26", "now"),  # Christmas 2024 + 1 day
    Case("open ends", "¿Qué decidimos antes de marzo?", "2015-03-01", "2025-02-28"),  # floor: 10 years back
    Case("open ends", "hasta mayo", "2015-05-01", "2025-05-31"),
    Case("open ends", "¿Qué ha aprendido Alice en lo que va del año?", "2025-01-01", "now"),
    Case("open ends", "en lo que va de mes", "2025-11-01", "now"),
    Case("open ends", "¿Qué ha pasado en lo que va de semana?", "2025-10-27", "now"),  # since Monday
    Case("open ends", "¿Dónde trabajaba Bob antes de 2020?", "2010-01-01", "2019-12-31"),
    Case("open ends", "desde 2020", "2020-01-01", "now"),
    Case("open ends", "¿Qué cambió después de marzo?", "2025-04-01", "now"),
    Case("open ends", "hasta junio de 2024", "2014-06-01", "2024-06-30"),
    Case("open ends", "¿Qué ha hecho Alice desde el lunes?", "2025-10-27", "now"),
    Case("open ends", "desde ayer", "2025-10-31", "now"),
    Case("open ends", "más adelante este mes", "2025-11-01", "2025-11-30"),  # later this month
    Case("open ends", "¿Qué tenemos más tarde esta semana?", "2025-11-01", "2025-11-02"),
    Case("open ends", "más adelante este año", "2025-11-01", "2025-12-31"),
    # a future X: until closes at R on one side, at next Friday (11-07) on the other
    Case("open ends", "hasta el próximo viernes", "2025-11-01", "2025-11-07"),
    # a future X: before next week (11-03..11-09) runs from R to Sunday 11-02
    Case("open ends", "antes de la próxima semana", "2025-11-01", "2025-11-02"),
    Case("open ends", "¿Qué ha pasado desde el 5 de marzo?", "2025-03-05", "now"),
    Case("open ends", "después del verano", "2025-09-01", "now"),  # summer 2025 ended 08-31
    Case("open ends", "a partir de octubre", "2025-10-01", "now"),
    Case("open ends", "¿Qué ha cambiado desde el verano de 2024?", "2024-06-01", "now"),
    # --- durations ------------------------------------------------------------------------
    Case("durations", "¿Qué hizo Alice en los últimos tres meses?", "2025-08-01", "now"),
    Case("durations", "las últimas dos semanas", "2025-10-18", "now"),
    Case("durations", "¿Qué tengo en los próximos 5 días?", "2025-11-01", "2025-11-06"),
    Case("durations", "en las últimas 24 horas", "2025-10-31", "now"),  # R - 24 h falls on 10-31
    Case("durations", "¿Qué pasó en los últimos 7 días?", "2025-10-25", "now"),
    Case("durations", "el último año", "2024-11-01", "now"),  # "the past year": a duration
    Case("durations", "¿Con quién habló Bob la última semana?", "2025-10-25", "now"),  # not "la semana pasada"
    Case("durations", "en el último mes", "2025-10-01", "now"),
    Case("durations", "¿Qué reuniones hay en las próximas dos semanas?", "2025-11-01", "2025-11-15"),
    Case("durations", "en las últimas 48 horas", "2025-10-30", "now"),
    Case("durations", "¿Qué ha pasado en las últimas 5 horas?", "2025-11-01", "now"),  # R - 5 h is still 11-01
    Case("durations", "en los últimos dos años", "2023-11-01", "now"),
    Case("durations", "¿Qué compró Alice en los últimos seis meses?", "2025-05-01", "now"),
    Case("durations", "en los últimos 30 días", "2025-10-02", "now"),
    Case("durations", "en los próximos 3 meses", "2025-11-01", "2026-02-01"),
    Case("durations", "¿Qué hizo Bob en los últimos diez días?", "2025-10-22", "now"),
    # --- parts of periods -----------------------------------------------------------------
    Case("parts of periods", "¿Qué pasó a principios de marzo?", "2025-03-01", "2025-03-10"),
    Case("parts of periods", "a mediados de marzo", "2025-03-11", "2025-03-20"),
    Case("parts of periods", "a finales de marzo", "2025-03-21", "2025-03-31"),
    Case("parts of periods", "¿Qué decidió Alice a finales de 2023?", "2023-09-01", "2023-12-31"),
    Case("parts of periods", "la primera mitad de 2024", "2024-01-01", "2024-06-30"),
    Case("parts of periods", "en la segunda mitad de 2023", "2023-07-01", "2023-12-31"),
    Case("parts of periods", "¿Qué hicimos la primera semana de junio?", "2025-06-01", "2025-06-07"),
    Case("parts of periods", "la última semana de junio", "2025-06-24", "2025-06-30"),  # its last 7 days
    # December 2025 has not started: the most recent December is 2024's
    Case("parts of periods", "a finales de diciembre", "2024-12-21", "2024-12-31"),
    Case("parts of periods", "a mediados de 2024", "2024-05-01", "2024-08-31"),
    Case("parts of periods", "a principios del año pasado", "2024-01-01", "2024-04-30"),
    Case("parts of periods", "¿Qué pasó a finales del mes pasado?", "2025-10-21", "2025-10-31"),
    Case("parts of periods", "la segunda semana de septiembre", "2025-09-08", "2025-09-14"),
    Case("parts of periods", "la semana 23 de 2024", "2024-06-03", "2024-06-09"),  # ISO week 23
    Case("parts of periods", "a finales del verano", "2025-08-01", "2025-08-31"),  # the season's third month
    Case("parts of periods", "la primera quincena de agosto", "2025-08-01", "2025-08-15"),  # first half
    Case("parts of periods", "la segunda quincena de julio", "2025-07-16", "2025-07-31"),
    Case("parts of periods", "a principios de febrero de 2024", "2024-02-01", "2024-02-10"),
    Case("parts of periods", "a finales de febrero de 2024", "2024-02-21", "2024-02-29"),  # leap year
    Case("parts of periods", "la tercera semana de octubre", "2025-10-15", "2025-10-21"),
    Case("parts of periods", "el primer día del mes pasado", "2025-10-01", "2025-10-01"),
    # --- relative chains ------------------------------------------------------------------
    Case("relative chains", "¿Qué hice anteayer?", "2025-10-30", "2025-10-30"),
    Case("relative chains", "antier", "2025-10-30", "2025-10-30"),
    Case("relative chains", "pasado mañana", "2025-11-03", "2025-11-03"),
    Case("relative chains", "¿Qué pasó la semana antepasada?", "2025-10-13", "2025-10-19"),
    Case("relative chains", "el año antepasado", "2023-01-01", "2023-12-31"),
    Case("relative chains", "el mes antepasado", "2025-09-01", "2025-09-30"),
    Case("relative chains", "¿Qué hizo Alice el fin de semana pasado?", "2025-10-25", "2025-10-26"),
    Case("relative chains", "el próximo fin de semana", "2025-11-08", "2025-11-09"),
    Case("relative chains", "este fin de semana", "2025-11-01", "2025-11-02"),
    Case("relative chains", "¿Con quién habló Bob el lunes pasado?", "2025-10-27", "2025-10-27"),
    Case("relative chains", "el sábado pasado", "2025-10-25", "2025-10-25"),  # strictly before R
    Case("relative chains", "este domingo", "2025-11-02", "2025-11-02"),  # Sunday of R's week
    Case("relative chains", "el próximo lunes", "2025-11-03", "2025-11-03"),
    Case("relative chains", "¿Qué hay el viernes que viene?", "2025-11-07", "2025-11-07"),
    Case("relative chains", "dentro de tres días", "2025-11-04", "2025-11-04"),
    Case("relative chains", "dentro de dos semanas", "2025-11-15", "2025-11-15"),
    Case("relative chains", "¿Qué me dijo Alice hace un par de días?", "2025-10-29", "2025-10-31"),  # R-3..R-1
    Case("relative chains", "hace unos días", "2025-10-27", "2025-10-30"),  # a few: R-5..R-2
    Case("relative chains", "hace unas semanas", "2025-09-27", "2025-10-18"),  # R-35..R-14
    Case("relative chains", "hace un par de semanas", "2025-10-11", "2025-10-25"),  # R-21..R-7
    Case("relative chains", "¿Qué proyecto empezó Bob hace unos meses?", "2025-06-04", "2025-09-02"),  # R-150..R-60
    Case("relative chains", "hace dos o tres días", "2025-10-29", "2025-10-30"),  # R-3..R-2
    Case("relative chains", "hace un par de años", "2022-11-01", "2024-11-01"),  # R-3y..R-1y
    Case("relative chains", "hace unos años", "2020-11-01", "2023-11-01"),  # R-5y..R-2y
    # --- seasons and quarters -------------------------------------------------------------
    Case("seasons and quarters", "¿Adónde viajó Alice el verano de 2022?", "2022-06-01", "2022-08-31"),
    Case("seasons and quarters", "el tercer trimestre de 2024", "2024-07-01", "2024-09-30"),
    # autumn 2025 (09-01..11-30) has not ended at R: the last ended one is 2024's
    Case("seasons and quarters", "el otoño pasado", "2024-09-01", "2024-11-30"),
    Case("seasons and quarters", "¿Qué hicimos el verano pasado?", "2025-06-01", "2025-08-31"),
    Case("seasons and quarters", "el invierno pasado", "2024-12-01", "2025-02-28"),
    Case("seasons and quarters", "este otoño", "2025-09-01", "2025-11-30"),  # holds R
    Case("seasons and quarters", "este invierno", "2025-12-01", "2026-02-28"),  # the nearest
    Case("seasons and quarters", "la próxima primavera", "2026-03-01", "2026-05-31"),
    Case("seasons and quarters", "¿Adónde fue Bob en verano?", "2025-06-01", "2025-08-31"),
    Case("seasons and quarters", "el invierno de 2024", "2023-12-01", "2024-02-29"),  # holds January 2024
    Case("seasons and quarters", "la primavera de 2023", "2023-03-01", "2023-05-31"),
    Case("seasons and quarters", "¿Qué vendimos en el primer trimestre de 2025?", "2025-01-01", "2025-03-31"),
    Case("seasons and quarters", "el trimestre pasado", "2025-07-01", "2025-09-30"),
    Case("seasons and quarters", "este trimestre", "2025-10-01", "2025-12-31"),
    Case("seasons and quarters", "el próximo trimestre", "2026-01-01", "2026-03-31"),
    Case("seasons and quarters", "el segundo trimestre", "2025-04-01", "2025-06-30"),  # no year: this year's
    Case("seasons and quarters", "el cuarto trimestre de 2023", "2023-10-01", "2023-12-31"),
    Case("seasons and quarters", "en otoño de 2021", "2021-09-01", "2021-11-30"),
    # southern hemisphere (a bank in Argentina): summer is December-February
    Case(
        "seasons and quarters",
        "¿Adónde fuimos de vacaciones el verano pasado?",
        "2024-12-01",
        "2025-02-28",
        hemisphere="south",
    ),
    # southern spring is September-November and holds R
    Case("seasons and quarters", "¿Qué plantamos esta primavera?", "2025-09-01", "2025-11-30", hemisphere="south"),
    # --- times of day ---------------------------------------------------------------------
    Case("times of day", "¿Qué comí esta mañana?", "2025-11-01", "2025-11-01"),
    Case("times of day", "esta tarde", "2025-11-01", "2025-11-01"),
    Case("times of day", "¿Qué tengo esta noche?", "2025-11-01", "2025-11-01"),
    Case("times of day", "¿Qué cenamos anoche?", "2025-10-31", "2025-10-31"),
    Case("times of day", "ayer por la tarde", "2025-10-31", "2025-10-31"),
    Case("times of day", "¿Qué tengo mañana por la mañana?", "2025-11-02", "2025-11-02"),
    Case("times of day", "el viernes por la noche", "2025-10-31", "2025-10-31"),
    Case("times of day", "ayer por la mañana", "2025-10-31", "2025-10-31"),
    Case("times of day", "¿Con quién comió Alice hoy a mediodía?", "2025-11-01", "2025-11-01"),
    Case("times of day", "el lunes por la mañana", "2025-10-27", "2025-10-27"),
    Case("times of day", "mañana por la noche", "2025-11-02", "2025-11-02"),
    Case("times of day", "¿Qué me dijo Bob ayer a las 3 de la tarde?", "2025-10-31", "2025-10-31"),
    Case("times of day", "anteanoche", "2025-10-30", "2025-10-30"),  # the night of the day before yesterday
    Case("times of day", "¿Qué ruido hubo esta madrugada?", "2025-11-01", "2025-11-01"),
    Case("times of day", "hoy por la tarde", "2025-11-01", "2025-11-01"),
    # --- holidays -------------------------------------------------------------------------
    Case("holidays", "¿Qué le regalaron a Alice en Navidad?", "2024-12-25", "2024-12-25"),
    Case("holidays", "Nochebuena", "2024-12-24", "2024-12-24"),
    Case("holidays", "¿Dónde cenamos en Nochevieja?", "2024-12-31", "2024-12-31"),
    Case("holidays", "Año Nuevo", "2025-01-01", "2025-01-01"),
    Case("holidays", "¿Qué hicimos el día de Reyes?", "2025-01-06", "2025-01-06"),
    Case("holidays", "el domingo de Pascua", "2025-04-20", "2025-04-20"),
    Case("holidays", "¿Qué hicimos en Pascua?", "2025-04-20", "2025-04-20"),
    Case("holidays", "alrededor de Navidad", "2024-12-22", "2024-12-28"),  # three days each side
    Case("holidays", "la Navidad de 2023", "2023-12-25", "2023-12-25"),
    Case("holidays", "la próxima Navidad", "2025-12-25", "2025-12-25"),
    Case("holidays", "esta Navidad", "2025-12-25", "2025-12-25"),  # this calendar year's
    Case("holidays", "¿Qué vamos a hacer en Navidad?", "2025-12-25", "2025-12-25"),  # future: the next one
    Case("holidays", "la Nochevieja de 2022", "2022-12-31", "2022-12-31"),
    Case("holidays", "¿A qué fiesta fue Bob en Halloween?", "2025-10-31", "2025-10-31"),
    Case("holidays", "San Valentín", "2025-02-14", "2025-02-14"),
    Case("holidays", "el Viernes Santo", "2025-04-18", "2025-04-18"),
    Case("holidays", "la Pascua de 2024", "2024-03-31", "2024-03-31"),
    Case("holidays", "la Navidad pasada", "2024-12-25", "2024-12-25"),
    Case("holidays", "el día de Reyes de 2024", "2024-01-06", "2024-01-06"),
    Case("holidays", "¿Dónde vamos a pasar el Año Nuevo?", "2026-01-01", "2026-01-01"),  # future: the next one
    # --- names and non-dates --------------------------------------------------------------
    Case("names and non-dates", "¿Qué se habló en la sala 2019?", None, None),
    Case("names and non-dates", "¿Quién abrió el puerto 9077?", None, None),
    Case("names and non-dates", "¿Qué cambia en la versión 2024?", None, None),
    Case("names and non-dates", "¿Qué sabes de la Clínica Mayo?", None, None),
    Case("names and non-dates", "¿Qué ha pasado recientemente con el proyecto?", None, None),
    Case("names and non-dates", "¿Con quién ha hablado Alice últimamente?", None, None),
    Case("names and non-dates", "¿Qué le regaló Alice a Abril?", None, None),  # Abril: a given name
    Case("names and non-dates", "¿Cuál es el color favorito de Alice?", None, None),
    Case("names and non-dates", "¿Cuántos años tiene el hijo de Alice?", None, None),
    Case("names and non-dates", "¿Alice leyó El otoño del patriarca?", None, None),  # a book title
    Case("names and non-dates", "¿Alice va al gimnasio todos los lunes?", None, None),  # every Monday
    Case("names and non-dates", "¿Fue Bob al Primavera Sound?", None, None),  # a festival
    Case("names and non-dates", "¿Cuántas veces a la semana entrena Alice?", None, None),
    Case("names and non-dates", "¿Qué pasó el segundo día del congreso?", None, None),
    Case("names and non-dates", "¿En qué año nació Alice?", None, None),
    Case("names and non-dates", "¿Cuánto cuesta la habitación 2021?", None, None),
    # --- basics ---------------------------------------------------------------------------
    Case("basics", "¿Qué hice ayer?", "2025-10-31", "2025-10-31"),
    Case("basics", "la semana pasada", "2025-10-20", "2025-10-26"),
    Case("basics", "¿Qué me contó Alice hace 3 días?", "2025-10-29", "2025-10-29"),
    Case("basics", "¿Adónde fuimos en mayo?", "2025-05-01", "2025-05-31"),
    Case("basics", "junio de 2024", "2024-06-01", "2024-06-30"),
    Case("basics", "hoy", "2025-11-01", "2025-11-01"),
    Case("basics", "¿Qué tengo mañana?", "2025-11-02", "2025-11-02"),
    Case("basics", "el mes pasado", "2025-10-01", "2025-10-31"),
    Case("basics", "¿Dónde vivía Bob el año pasado?", "2024-01-01", "2024-12-31"),
    Case("basics", "¿Qué pasó en 2019?", "2019-01-01", "2019-12-31"),
    Case("basics", "en diciembre", "2024-12-01", "2024-12-31"),  # December 2025 has not started
    Case("basics", "el 13 de marzo", "2025-03-13", "2025-03-13"),
    Case("basics", "¿Qué dijo Bob el lunes?", "2025-10-27", "2025-10-27"),
    Case("basics", "hace dos semanas", "2025-10-18", "2025-10-18"),
]

# third pass
CASES += [
    Case("future and generic weekdays", "¿Qué solemos hacer los lunes?", None, None),
    Case("future and generic weekdays", "¿Qué tenemos planeado para el viernes?", "2025-11-07", "2025-11-07"),
    Case("anchored days", "por estas fechas el año pasado", "2024-11-01", "2024-11-01"),
    Case("fractional amounts", "hace año y medio", "2024-05-01", "2024-05-01"),
    Case("seasons and quarters", "el verano del 22", "2022-06-01", "2022-08-31"),
    Case(
        "future and generic weekdays",
        "¿Qué hiciste el fin de semana?",
        "2025-11-01",
        "2025-11-02",
        reference="2025-11-03",
    ),
]
