"""Spanish fact dating cases (see the package docstring for the conventions).

Left out: first person plural preterites that are also presents ("nos mudamos en marzo", "volamos el lunes")
with nothing else to tell the tense.
"""

from __future__ import annotations

from . import FactCase

CASES = [
    # --- yearless future
    FactCase("yearless future", "2026-11-23", "La boda es el 12 de diciembre.", "2026-12-12", "2026-12-12"),
    FactCase("yearless future", "2025-12-02", "Empiezo en el nuevo trabajo el 4 de enero.", "2026-01-04", "2026-01-04"),
    FactCase("yearless future", "2025-03-25", "La auditoría será en octubre.", "2025-10-01", "2025-10-31"),
    # "contratamos" is past here ("ya"); the start is to come, in the next February.
    FactCase(
        "yearless future",
        "2024-11-27",
        "Ya contratamos a Lucía, empieza el 3 de febrero.",
        "2025-02-03",
        "2025-02-03",
    ),
    # --- yearless past
    FactCase("yearless past", "2025-10-07", "Me mudé aquí en marzo.", "2025-03-01", "2025-03-31"),
    FactCase("yearless past", "2026-01-12", "El 20 de diciembre firmé el contrato.", "2025-12-20", "2025-12-20"),
    FactCase("yearless past", "2027-02-01", "Carlos entró en la empresa en noviembre.", "2026-11-01", "2026-11-30"),
    # --- weekday future
    # said Tuesday 2025-05-13.
    FactCase("weekday future", "2025-05-13", "La reunión es el jueves.", "2025-05-15", "2025-05-15"),
    # said Friday 2026-10-16.
    FactCase("weekday future", "2026-10-16", "Viajaremos a Madrid el lunes.", "2026-10-19", "2026-10-19"),
    # said Sunday 2024-09-15.
    FactCase("weekday future", "2024-09-15", "El fontanero vendrá el miércoles.", "2024-09-18", "2024-09-18"),
    # --- weekday past
    # said Thursday 2024-04-18.
    FactCase("weekday past", "2024-04-18", "El lunes corrí 10 km.", "2024-04-15", "2024-04-15"),
    # said Friday 2027-01-01: the Tuesday before is in the old year.
    FactCase("weekday past", "2027-01-01", "El martes se cayó el servidor.", "2026-12-29", "2026-12-29"),
    # --- weekday and date
    # 2025-05-06 is a Tuesday.
    FactCase("weekday and date", "2025-04-23", "La migración es el martes 6 de mayo.", "2025-05-06", "2025-05-06"),
    # 2026-03-14 is a Saturday, not a Friday: the date wins.
    FactCase("weekday and date", "2026-03-02", "La cena es el viernes 14 de marzo.", "2026-03-14", "2026-03-14"),
    # --- weekend
    # said Thursday 2025-06-12: the coming weekend.
    FactCase("weekend", "2025-06-12", "Este fin de semana vamos a la sierra.", "2025-06-14", "2025-06-15"),
    # said Wednesday 2026-12-09.
    FactCase("weekend", "2026-12-09", "El fin de semana pasado pintamos la cocina.", "2026-12-05", "2026-12-06"),
    # said Sunday 2024-03-10: this weekend is 03-09..10, the next one the weekend after.
    FactCase("weekend", "2024-03-10", "El próximo fin de semana vienen mis padres.", "2024-03-16", "2024-03-17"),
    # --- habitual
    FactCase("habitual", "2025-09-15", "Todos los lunes tenemos reunión de equipo.", None, None),
    FactCase("habitual", "2026-03-08", "Los domingos siempre voy a nadar.", None, None),
    FactCase("habitual", "2027-06-11", "Los fines de semana duermo hasta tarde.", None, None),
    # --- relative
    FactCase("relative", "2025-01-01", "Ayer acepté la oferta.", "2024-12-31", "2024-12-31"),
    FactCase("relative", "2026-12-30", "Pasado mañana viene el técnico.", "2027-01-01", "2027-01-01"),
    # 2025 is not a leap year: two days before 03-02 is 02-28.
    FactCase("relative", "2025-03-02", "Anteayer dimitió Jorge.", "2025-02-28", "2025-02-28"),
    # said Wednesday 2027-12-29: next week is Monday 2028-01-03 to Sunday 01-09.
    FactCase("relative", "2027-12-29", "La semana que viene estoy en Sevilla.", "2028-01-03", "2028-01-09"),
    FactCase("relative", "2026-01-15", "El mes pasado ganamos dos clientes nuevos.", "2025-12-01", "2025-12-31"),
    FactCase("relative", "2024-06-05", "Dentro de dos semanas empieza la obra.", "2024-06-19", "2024-06-19"),
    FactCase("relative", "2025-09-02", "Hace tres días me rompí el brazo.", "2025-08-30", "2025-08-30"),
    # --- explicit
    FactCase("explicit", "2025-02-01", "Me gradué el 12 de marzo de 2024.", "2024-03-12", "2024-03-12"),
    FactCase("explicit", "2025-06-06", "Vivimos en Lima en 2023.", "2023-01-01", "2023-12-31"),
    FactCase("explicit", "2026-10-01", "El contrato termina en enero de 2027.", "2027-01-01", "2027-01-31"),
    # --- no date
    FactCase("no date", "2025-10-15", "Ya tenemos 10.000 usuarios.", None, None),
    # Abril is a first name here.
    FactCase("no date", "2026-04-13", "Abril es nuestra nueva becaria.", None, None),
    FactCase("no date", "2024-09-18", "La sala 101 está en el tercer piso.", None, None),
    # --- day of month
    FactCase("day of month", "2026-07-09", "El paquete llegó el día 3.", "2026-07-03", "2026-07-03"),
    FactCase("day of month", "2025-04-10", "El alquiler sube el día 15.", "2025-04-15", "2025-04-15"),
    # the 10th of December has passed: the next 10th is in January.
    FactCase("day of month", "2025-12-20", "La última cuota vence el día 10.", "2026-01-10", "2026-01-10"),
    # --- season and holiday
    FactCase("season and holiday", "2025-02-20", "Este verano vamos a Galicia.", "2025-06-01", "2025-08-31"),
    FactCase("season and holiday", "2025-01-07", "En Nochebuena cené con mis abuelos.", "2024-12-24", "2024-12-24"),
    FactCase("season and holiday", "2026-12-20", "El día de Reyes vamos a ir al cine.", "2027-01-06", "2027-01-06"),
]
