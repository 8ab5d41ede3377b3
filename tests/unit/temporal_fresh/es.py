"""Spanish: fresh hand-written cases (see the package docstring). R = Saturday 2025-11-01 12:00 UTC."""

from temporal_cases import Case

NEW_YEAR = "2026-01-03"  # a Saturday; this week 2025-12-29..2026-01-04

CASES = [
    # basics
    Case("basics", "¿Qué hice ayer?", "2025-10-31", "2025-10-31"),
    Case("basics", "¿Qué pasó la semana pasada?", "2025-10-20", "2025-10-26"),
    Case("basics", "¿Qué decidimos en mayo?", "2025-05-01", "2025-05-31"),
    Case("basics", "¿Quién llamó hace tres días?", "2025-10-29", "2025-10-29"),
    Case("basics", "¿Qué hay el próximo viernes?", "2025-11-07", "2025-11-07"),
    Case("basics", "¿Qué comimos anteayer?", "2025-10-30", "2025-10-30"),
    # ranges
    Case("ranges", "¿Qué construimos entre marzo y junio?", "2025-03-01", "2025-06-30"),
    Case("ranges", "¿Dónde estuvimos del 3 al 9 de agosto?", "2025-08-03", "2025-08-09"),
    # open ends
    Case("open ends", "¿Cuánto hemos gastado desde enero?", "2025-01-01", "now"),
    Case("open ends", "¿Cuánto hemos vendido en lo que va del año?", "2025-01-01", "now"),
    # durations
    Case("durations", "¿Qué compré en las últimas dos semanas?", "2025-10-18", "now"),
    Case("durations", "¿Qué tenemos en los próximos tres días?", "2025-11-01", "2025-11-04"),
    # parts of periods
    Case("parts of periods", "¿Qué hicimos a principios de agosto?", "2025-08-01", "2025-08-10"),
    Case("parts of periods", "¿Quién se fue a finales de septiembre?", "2025-09-21", "2025-09-30"),
    Case("parts of periods", "¿Qué pasó a mediados de julio?", "2025-07-11", "2025-07-20"),
    # seasons and quarters
    Case("seasons and quarters", "¿Adónde fuimos el verano pasado?", "2025-06-01", "2025-08-31"),
    Case("seasons and quarters", "¿Cuánto vendimos en el primer trimestre de 2024?", "2024-01-01", "2024-03-31"),
    # holidays
    Case("holidays", "¿Qué cenamos en Nochebuena?", "2024-12-24", "2024-12-24"),
    Case("holidays", "¿Dónde pasamos la Nochevieja?", "2024-12-31", "2024-12-31"),
    Case("holidays", "¿Qué regalos hubo el Día de Reyes?", "2025-01-06", "2025-01-06"),
    Case("holidays", "¿Adónde fuimos en Semana Santa?", "2025-04-13", "2025-04-20"),
    # names and non-dates
    Case("names and non-dates", "¿Qué opina Abril del diseño?", None, None),
    Case("names and non-dates", "¿Quién está en la habitación 2020?", None, None),
    Case("names and non-dates", "¡Feliz Navidad a todos!", None, None),
    # turn of year
    Case("turn of year", "¿Qué hicimos en diciembre?", "2025-12-01", "2025-12-31", NEW_YEAR),
    Case("turn of year", "¿Cuánto gastamos el mes pasado?", "2025-12-01", "2025-12-31", NEW_YEAR),
    # future weekday
    Case("future weekday", "¿Qué vamos a hacer el viernes?", "2025-11-07", "2025-11-07"),
    Case("future weekday", "¿Qué tenemos planeado para el lunes?", "2025-11-03", "2025-11-03"),
    # same date last year
    Case("same date last year", "¿Qué hacía tal día como hoy hace un año?", "2024-11-01", "2024-11-01"),
    Case("same date last year", "¿Dónde estaba hoy hace dos años?", "2023-11-01", "2023-11-01"),
    # week of
    Case("week of", "¿Qué pasó la semana del 10 de marzo?", "2025-03-10", "2025-03-16"),
    # last days of month
    Case("last days of month", "¿Qué hicimos los últimos días de octubre?", "2025-10-21", "2025-10-31"),
    # relative year quarter
    Case("relative year quarter", "¿Cuánto vendimos el segundo trimestre del año pasado?", "2024-04-01", "2024-06-30"),
    Case(
        "relative year quarter",
        "¿Qué planes hay para el primer trimestre del año que viene?",
        "2026-01-01",
        "2026-03-31",
    ),
    # fractional durations
    Case("fractional durations", "¿Dónde vivíamos hace año y medio?", "2024-05-01", "2024-05-01"),
    Case("fractional durations", "¿Quién empezó hace dos años y medio?", "2023-05-01", "2023-05-01"),
    Case("fractional durations", "¿Qué pasó hace medio año?", "2025-05-01", "2025-05-01"),
    # two-digit years
    Case("two-digit years", "¿Adónde fuimos el verano del 22?", "2022-06-01", "2022-08-31"),
    # generic weekday
    Case("generic weekday", "¿Qué solemos hacer los lunes?", None, None),
    Case("generic weekday", "¿Dónde estuvimos el Viernes Santo?", "2025-04-18", "2025-04-18"),
]
