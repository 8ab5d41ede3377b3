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
    # --- future dates in past sentences, moved dates, start dates
    FactCase(
        "future in a past sentence",
        "2025-03-17",
        "Ya reservé el dentista para el 2 de abril.",
        "2025-04-02",
        "2025-04-02",
    ),
    # said in December about January, the event to come: next year's.
    FactCase(
        "future in a past sentence",
        "2026-12-03",
        "ya compré las entradas para el 17 de enero!!",
        "2027-01-17",
        "2027-01-17",
    ),
    FactCase(
        "future in a past sentence",
        "2024-02-06",
        "Me inscribí en la maratón de Valencia del 1 de diciembre.",
        "2024-12-01",
        "2024-12-01",
    ),
    FactCase(
        "future in a past sentence",
        "2027-07-12",
        "Ya firmamos, nos entregan las llaves el 1 de agosto.",
        "2027-08-01",
        "2027-08-01",
    ),
    # the event is past; said in January about December: the previous year's.
    FactCase(
        "future in a past sentence", "2025-01-14", "El paquete llegó el 28 de diciembre.", "2024-12-28", "2024-12-28"
    ),
    FactCase(
        "future in a past sentence",
        "2026-10-20",
        "el técnico vino el 6 de octubre y lo dejó arreglado",
        "2026-10-06",
        "2026-10-06",
    ),
    FactCase("moved dates", "2025-09-22", "cambiamos la cena del 5 al 12 de octubre", "2025-10-12", "2025-10-12"),
    # adelantado: brought forward, B before A.
    FactCase(
        "moved dates", "2024-04-15", "La entrega se ha adelantado del 30 al 23 de abril.", "2024-04-23", "2024-04-23"
    ),
    # said in November, the new date in January: next year's.
    FactCase(
        "moved dates",
        "2026-11-30",
        "Han pospuesto la reunión del 15 de diciembre al 12 de enero.",
        "2027-01-12",
        "2027-01-12",
    ),
    # said Tuesday 2027-02-16: the Friday of that week.
    FactCase("moved dates", "2027-02-16", "la reunión se ha movido al viernes", "2027-02-19", "2027-02-19"),
    FactCase("moved dates", "2025-06-02", "La fiesta ahora es el día 20.", "2025-06-20", "2025-06-20"),
    # past: the wedding happened, on B.
    FactCase(
        "moved dates",
        "2024-03-20",
        "Al final la boda se pasó del 2 al 9 de marzo y salió genial.",
        "2024-03-09",
        "2024-03-09",
    ),
    FactCase("start date", "2026-02-11", "fecha de inicio: 2 de marzo", "2026-03-02", "2026-03-02"),
    FactCase("start date", "2025-12-22", "mi primer día de trabajo es el 7 de enero", "2026-01-07", "2026-01-07"),
    FactCase(
        "start date",
        "2024-08-19",
        "Contrato firmado 😊 fecha de incorporación: 2 de septiembre.",
        "2024-09-02",
        "2024-09-02",
    ),
    # 23:50 in Buenos Aires (02:50 UTC on 05-03): the local day is 05-02, so May 3 is the next day.
    FactCase(
        "start date", "2027-05-02T23:50:00-03:00", "mi fecha de inicio es el 3 de mayo", "2027-05-03", "2027-05-03"
    ),
    FactCase("start date", "2025-10-13", "El primer día del curso es el 3 de noviembre.", "2025-11-03", "2025-11-03"),
]
