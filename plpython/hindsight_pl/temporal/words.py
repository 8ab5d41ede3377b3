"""The vocabulary of time in English, German, French, Spanish, Italian and Russian (lower case).

Tables only: the grammar (``european.py``) builds its patterns from them, so a new word or a new
inflection is one entry here.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TypeVar

T = TypeVar("T")


def _table(rows: Iterable[tuple[T, str]]) -> dict[str, T]:
    """{word: value} from (value, "space-separated words"); an underscore stands for a space in a phrase."""
    out: dict[str, T] = {}
    for value, words in rows:
        for word in words.split():
            out[word.replace("_", " ")] = value
    return out


NUMBERS = _table(
    [
        (1, "a an one un una uno une ein eine einem einer einen один одну одна одного одной"),
        (2, "two dos due deux zwei два две двух"),
        (3, "three tres tre trois drei три трёх трех"),
        (4, "four cuatro quattro quatre vier четыре четырёх четырех"),
        (5, "five cinco cinque cinq fünf пять пяти"),
        (6, "six seis sei sechs шесть шести"),
        (7, "seven siete sette sept sieben семь семи"),
        (8, "eight ocho otto huit acht восемь восьми"),
        (9, "nine nueve nove neuf neun девять девяти"),
        (10, "ten diez dieci dix zehn десять десяти"),
        (11, "eleven once undici onze elf одиннадцать"),
        (12, "twelve doce dodici douze zwölf двенадцать"),
        (14, "fourteen catorce quattordici quatorze vierzehn четырнадцать"),
        (15, "fifteen quince quindici quinze fünfzehn пятнадцать"),
        (20, "twenty veinte venti vingt zwanzig двадцать"),
        (13, "thirteen"),
        (16, "sixteen"),
        (18, "eighteen dieciocho diciotto dix-huit achtzehn восемнадцать"),
        (24, "twenty-four veinticuatro ventiquattro vingt-quatre vierundzwanzig двадцать_четыре"),
        (30, "thirty treinta trenta trente dreißig тридцать"),
        (48, "forty-eight"),
        (60, "sixty"),
        (90, "ninety"),
    ]
)  # number words (a, an, one ... twelve, and the tens people use with days)
# vague counts: how far back "a couple of" / "a few" reach in a duration ("the past few days")
VAGUE = _table([
    (3, "a_couple_of couple_of a_couple un_par_de un_paio_di un_couple_de ein_paar пару пара"),
    (5, "a_few few several unos unas algunos algunas varios varias qualche alcuni alcune diversi quelques "
        "plusieurs einige einigen wenigen mehrere несколько"),
])  # fmt: skip

ORDINALS = _table([
    (1, "first 1st primer primero primera primo prima premier première 1er 1re erste ersten erster erstes "
        "первый первая первую первой первого первом"),
    (2, "second 2nd segundo segunda secondo seconda deuxième second seconde 2e zweite zweiten zweiter "
        "второй вторая вторую второго втором"),
    (3, "third 3rd tercer tercero tercera terzo terza troisième 3e dritte dritten dritter drittes "
        "третий третья третью третьей третьего третьем"),
    (4, "fourth 4th cuarto cuarta quarto quarta quatrième 4e vierte vierten vierter viertes "
        "четвёртый четвертый четвёртая четвертая четвёртую четвертую четвёртой четвертой четвёртого "
        "четвертого четвёртом четвертом"),
    (-1, "last final último última ultimo ultima dernier dernière letzte letzten letzter letztes последний "
         "последняя последнюю последней последнего последнем"),
])  # fmt: skip

MONTH_NAMES = _table(
    [
        (1, "january enero gennaio janvier januar jänner январь января январе январю январём январем"),
        (2, "february febrero febbraio février fevrier februar февраль февраля феврале февралём февралем февралю"),
        (3, "march marzo mars märz maerz март марта марте мартом марту"),
        (4, "april abril aprile avril апрель апреля апреле апрелем апрелю"),
        (5, "may mayo maggio mai май мая мае маем маю"),
        (6, "june junio giugno juin juni июнь июня июне июнем июню"),
        (7, "july julio luglio juillet juli июль июля июле июлем июлю"),
        (8, "august agosto août aout август августа августе августом августу"),
        (9, "september septiembre setiembre settembre septembre сентябрь сентября сентябре сентябрём сентябрем"),
        (10, "october octubre ottobre octobre oktober октябрь октября октябре октябрём октябрем"),
        (11, "november noviembre novembre ноябрь ноября ноябре ноябрём ноябрем"),
        (12, "december diciembre dicembre décembre decembre dezember декабрь декабря декабре декабрём декабрем"),
    ]
)
MONTH_ABBREVIATIONS = {m[:3]: n for m, n in MONTH_NAMES.items() if m.isascii() and len(m) > 3} | {"sept": 9}
# Month names that are also common words (a verb, a planet, a name): they need a cue to be a month.
AMBIGUOUS_MONTHS = {"may", "march", "june", "april", "august", "mars", "mai", "mayo", "marzo", "maggio", "jan",
                    "mar", "apr", "jun", "jul", "aug", "sep", "oct", "nov", "dec"}  # fmt: skip

WEEKDAY_NAMES = _table(
    [
        (0, "monday lunes lunedì lunedi lundi montag понедельник понедельника"),
        (1, "tuesday martes martedì martedi mardi dienstag вторник вторника"),
        (2, "wednesday miércoles miercoles mercoledì mercoledi mercredi mittwoch среда среду среды"),
        (3, "thursday jueves giovedì giovedi jeudi donnerstag четверг четверга"),
        (4, "friday viernes venerdì venerdi vendredi freitag пятница пятницу пятницы"),
        (5, "saturday sábado sabado sabato samedi samstag sonnabend суббота субботу субботы"),
        (6, "sunday domingo domenica dimanche sonntag воскресенье воскресенья"),
    ]
)
WEEKDAY_PLURALS = _table([
        (0, "mondays lundis lunes lunedì lunedi montagen понедельника"),
        (1, "tuesdays mardis martes martedì martedi dienstagen вторника"),
        (2, "wednesdays mercredis miércoles miercoles mercoledì mercoledi mittwochen среды"),
        (3, "thursdays jeudis jueves giovedì giovedi donnerstagen четверга"),
        (4, "fridays vendredis viernes venerdì venerdi freitagen пятницы"),
        (5, "saturdays samedis sábados sabados sabati samstagen субботы"),
        (6, "sundays dimanches domingos domeniche sonntagen воскресенья"),
    ])  # fmt: skip

SEASON_NAMES = _table(
    [
        (
            "spring",
            "spring primavera printemps frühling fruehling frühjahr frühlings frühjahrs весна весной весну весны весне",
        ),
        ("summer", "summer verano estate été ete sommer sommers лето летом лета лете"),
        ("autumn", "autumn fall otoño otono autunno automne herbst herbstes herbsts осень осенью осени"),
        ("winter", "winter invierno inverno hiver winters зима зимой зиму зимы зиме"),
    ]
)

UNITS = _table(
    [
        ("hour", "hour hours hrs hora horas ora ore heure heures stunde stunden час часа часов"),
        (
            "day",
            "day days día días dia dias giorno giorni jour jours journée journées tag tage tagen tages "
            "день дня дней сутки суток",
        ),
        (
            "week",
            "week weeks semana semanas settimana settimane semaine semaines woche wochen неделя неделе "
            "неделю недели недель неделях",
        ),
        ("fortnight", "fortnight fortnights"),
        (
            "month",
            "month months mes meses mese mesi mois monat monate monaten monats месяц месяца месяце месяцев месяцы",
        ),
        (
            "year",
            "year years año años ano anni anno année années an ans jahr jahre jahren jahres год году года лет годы",
        ),
        (
            "weekend",
            "weekend weekends week-end week-ends fin_de_semana fines_de_semana fine_settimana "
            "wochenende wochenenden выходные выходных выходным",
        ),
        ("quarter", "quarter quarters trimestre trimestres quartal quartals quartale квартал квартале квартала"),
        ("halfyear", "полгода полугода полугодие semester semestre semestres halbjahr"),
        (
            "decade",
            "decade decades década décadas decennio decenni décennie décennies jahrzehnt jahrzehnte "
            "jahrzehnten десятилетие десятилетия десятилетий",
        ),
    ]
)

LAST = set(
    "last past previous pasado pasada pasados pasadas anterior scorso scorsa scorsi scorse passato passata "
    "dernier dernière derniers dernières précédent précédente letzte letzten letzter letztes vergangene "
    "vergangenen vergangenes vergangener vorige vorigen voriger voriges прошлый прошлой прошлом прошлую "
    "прошлого прошлые прошлых прошлым прошлая прошедшей прошедшие прошедший letztem vorigem vergangenem".split()
)
THIS = set(
    "this current este esta estos estas questo questa quest' ce cet cette diese diesen dieser dieses diesem "
    "этот этой этом эту этого эти этим эта это этих этими текущий текущей текущем".split()
)
NEXT = set(
    "next coming upcoming following próximo próxima próximos próximas siguiente prossimo prossima prossimi "
    "prossime prochain prochaine prochains prochaines nächste nächsten nächster nächstes kommende kommenden "
    "kommender kommendes следующий следующей следующем следующую следующие следующего следующих будущей "
    "будущем будущий будущих que_viene qui_vient nächstem kommendem".split()
)
# a "modifier" word of a unit: last / this / next ("que viene", "qui vient" are joined into one word first)
MODIFIERS = {**dict.fromkeys(LAST, "last"), **dict.fromkeys(THIS, "this"), **dict.fromkeys(NEXT, "next")}

TODAY = {"today", "hoy", "oggi", "aujourd'hui", "heute", "сегодня", "tonight", "tonite", "stasera", "stanotte",
         "stamattina", "stamani", "stamane", "anoche"}  # fmt: skip
YESTERDAY = {"yesterday", "ayer", "ieri", "hier", "gestern", "вчера"}
TOMORROW = {"tomorrow", "domani", "demain", "morgen", "завтра"}  # "mañana" also means "morning": apart
# (phrase, days from today): longer phrases first in the grammar
FIXED_DAYS = _table([
    (-2, "the_day_before_yesterday day_before_yesterday anteayer antier antes_de_ayer anteanoche l'altro_ieri "
         "l'altroieri altroieri avantieri ieri_l'altro avant-hier avant_hier vorgestern позавчера"),
    (2, "the_day_after_tomorrow day_after_tomorrow pasado_mañana pasado_manana dopodomani après-demain "
        "apres-demain übermorgen послезавтра"),
    (0, "today tonight tonite this_morning this_afternoon this_evening this_night "
        "hoy esta_mañana esta_manana esta_tarde esta_noche hoy_por_la_mañana "
        "oggi stamattina stamani stamane stasera stanotte oggi_pomeriggio questa_mattina questa_sera "
        "questa_notte questo_pomeriggio "
        "aujourd'hui ce_matin cet_après-midi cet_apres-midi ce_soir cette_nuit "
        "heute heute_morgen heute_früh heute_vormittag heute_mittag heute_nachmittag heute_abend heute_nacht "
        "сегодня сегодня_утром сегодня_днём сегодня_днем сегодня_вечером сегодня_ночью этим_утром "
        "этим_вечером этой_ночью сегодняшнего_дня ce_midi esta_madrugada"),
    (-1, "yesterday last_night last_evening yesterday_morning yesterday_afternoon yesterday_evening "
         "ayer anoche ayer_por_la_mañana ayer_por_la_tarde ayer_por_la_noche "
         "ieri ieri_sera ieri_mattina ieri_pomeriggio ieri_notte la_notte_scorsa "
         "hier hier_soir hier_matin hier_après-midi la_nuit_dernière "
         "gestern gestern_abend gestern_morgen gestern_früh gestern_nachmittag gestern_nacht letzte_nacht "
         "вчера вчера_утром вчера_днём вчера_днем вчера_вечером вчера_ночью прошлой_ночью вчерашнего_дня"),
    (1, "tomorrow tomorrow_morning tomorrow_afternoon tomorrow_evening tomorrow_night "
        "mañana_por_la_mañana mañana_por_la_tarde mañana_por_la_noche "
        "domani domani_mattina domani_sera "
        "demain demain_matin demain_soir "
        "morgen morgen_früh morgen_abend morgen_nachmittag "
        "завтра завтра_утром завтра_вечером"),
])  # fmt: skip
# times of day after a weekday or a date only describe it: "Friday night", "am Montagabend"
DAY_PARTS = ("morning afternoon evening night noon mañana tarde noche mattina pomeriggio sera notte matin "
             "après-midi soir nuit morgen vormittag nachmittag abend nacht früh утром днём днем вечером "
             "ночью").split()  # fmt: skip

# "ago" after a count ("3 days ago"), or "hace / il y a / vor" before it
AGO_AFTER = ["ago", "back", "fa", "назад", "тому назад"]
AGO_BEFORE = ["hace", "il y a", "vor"]
# "about two weeks ago": a range three days either side
ABOUT = ["about", "around", "roughly", "approximately", "some", "circa", "etwa", "ungefähr", "environ",
         "aproximadamente", "unos", "unas", "più o meno", "примерно", "около"]  # fmt: skip
# "in 3 days", "3 days from now", "dentro de 3 días", "dans 3 jours", "tra 3 giorni", "in 3 Tagen", "через 3 дня"
LATER_BEFORE = ["in", "dentro de", "en", "dans", "tra", "fra", "через"]
LATER_AFTER = ["from now", "later", "hence", "después", "più tardi", "plus tard", "später", "спустя"]

# cue words before a month or year that make it a date ("in May", "during 2020", "im Jahr 2017")
YEAR_CUES = ["in the year", "in", "during", "throughout", "the year", "from", "for", "of", "en el año", "en",
             "durante", "el año", "del año", "nel", "nell'anno", "l'anno", "nel corso del", "del", "pendant",
             "durant", "l'année", "en l'an", "courant", "im jahr", "im jahre", "während", "jahr", "в", "во",
             "за", "de", "von"]  # fmt: skip
MONTH_CUES = ["in", "during", "throughout", "from", "en", "durante", "a", "nel mese di", "nel", "di", "in",
              "au mois de", "au mois d'", "au", "en", "im", "в", "во", "by", "for", "of", "de", "del",
              "mes de", "d'", "courant", "ab"]  # fmt: skip

# -- combinators: parts of a period, "around", open ends, ranges (regular expressions) ---------------

# part words before the period they divide -> the part (docs/temporal.md, "Parts of periods"); prepositions
# before them (in, at, à la, до) stay outside, where an open end may read them ("until the end of May")
PART_BEFORE: list[tuple[str, str]] = [
    (r"(?:the )?(?:very )?(?:beginning|start) of", "early"),
    (r"(?:the )?middle of", "mid"),
    (r"(?:the )?(?:very )?end of", "late"),
    (r"(?:the )?tail end of", "late"),
    (r"early[ -]", "early"), (r"mid[ -]?", "mid"), (r"late[ -]", "late"),
    (r"(?:the )?first half of", "first half"),
    (r"(?:the )?second half of", "second half"),
    (r"(?:the )?first day of", "first day"), (r"(?:the )?last day of", "last day"),
    (r"(?:the )?first week of", "week 1"), (r"(?:the )?second week of", "week 2"),
    (r"(?:the )?third week of", "week 3"), (r"(?:the )?fourth week of", "week 4"),
    (r"(?:the )?last week of", "week last"),
    (r"(?:the )?first weekend of", "weekend 1"), (r"(?:the )?last weekend of", "weekend last"),
    # the first / last days of a period: its beginning / end; the last couple of days: its last three
    (r"(?:the )?(?:very )?(?:first|opening|early) (?:few )?days of", "early"),
    (r"(?:the )?(?:very )?(?:last|final|closing|dying) (?:few )?days of", "late"),
    (r"(?:the )?first (?:a )?couple(?: of)? days of", "first 3 days"),
    (r"(?:the )?(?:last|final) (?:a )?couple(?: of)? days of", "last 3 days"),
    (r"(?:the |in the |during the )?week of", "week of"),  # the week of March 3: the Monday-to-Sunday week holding it
    # German
    (r"(?:anfang|beginn)(?: des| der| von)?", "early"), (r"mitte(?: des| der| von)?", "mid"),
    (r"ende(?: des| der| von)?", "late"),
    (r"der ersten (?:hälfte|jahreshälfte|monatshälfte)(?: des| der| von)?", "first half"),
    (r"(?:die |in der )?(?:erste|ersten) (?:hälfte|jahreshälfte|monatshälfte)(?: des| der| von)?", "first half"),
    (r"(?:die |in der )?(?:zweite|zweiten) (?:hälfte|jahreshälfte|monatshälfte)(?: des| der| von)?",
     "second half"),
    (r"(?:ersten|erster) tag(?: des| im| von)?", "first day"),
    (r"(?:letzten|letzter) tag(?: des| im| von)?", "last day"),
    (r"(?:die |in der )?(?:erste|ersten) woche(?: des| im| von| vom)?", "week 1"),
    (r"(?:die |in der )?(?:zweite|zweiten) woche(?: des| im| von| vom)?", "week 2"),
    (r"(?:die |in der )?(?:dritte|dritten) woche(?: des| im| von| vom)?", "week 3"),
    (r"(?:die |in der )?(?:vierte|vierten) woche(?: des| im| von| vom)?", "week 4"),
    (r"(?:die |in der )?(?:letzte|letzten) woche(?: des| im| von| vom)?", "week last"),
    (r"(?:die |in den )?(?:ersten) tage(?:n)?(?: des| im| von)?", "early"),
    (r"(?:die |in den )?(?:letzten) tage(?:n)?(?: des| im| von)?", "late"),
    (r"(?:die |in der )?woche vom", "week of"),
    # French
    (r"(?:début|commencement)(?: de| du| d'| des)?", "early"),
    (r"(?:milieu)(?: de| du| d'| des)?", "mid"), (r"mi-", "mid"),
    (r"fin(?: de| du| d'| des)?", "late"),
    (r"(?:la )?(?:première) moitié(?: de| du| d')", "first half"),
    (r"(?:la )?(?:seconde|deuxième) moitié(?: de| du| d')", "second half"),
    (r"(?:le )?premier jour(?: de| du| d')", "first day"), (r"(?:le )?dernier jour(?: de| du| d')", "last day"),
    (r"(?:la |pendant la |durant la )?première semaine(?: de| du| d')", "week 1"),
    (r"(?:la |pendant la |durant la )?deuxième semaine(?: de| du| d')", "week 2"),
    (r"(?:la |pendant la |durant la )?troisième semaine(?: de| du| d')", "week 3"),
    (r"(?:la |pendant la |durant la )?quatrième semaine(?: de| du| d')", "week 4"),
    (r"(?:la |pendant la |durant la )?dernière semaine(?: de| du| d')", "week last"),
    (r"(?:les |aux |pendant les |durant les )?premiers jours(?: de| du| d')", "early"),
    (r"(?:les |aux |pendant les |durant les )?derniers jours(?: de| du| d')", "late"),
    (r"(?:la |pendant la |durant la )?semaine du", "week of"),
    # Spanish
    (r"(?:principios|comienzos|inicios|principio|comienzo|inicio)(?: de| del)", "early"),
    (r"(?:mediados)(?: de| del)", "mid"), (r"(?:finales|fines|final|fin)(?: de| del)", "late"),
    (r"(?:la )?primera (?:mitad|quincena)(?: de| del)", "first half"),
    (r"(?:la )?segunda (?:mitad|quincena)(?: de| del)", "second half"),
    (r"(?:nella |la )?prima quindicina(?: di| del| dell')", "first half"),
    (r"(?:nella |la )?seconda quindicina(?: di| del| dell')", "second half"),
    (r"(?:la |pendant la )?première quinzaine(?: de| du| d')", "first half"),
    (r"(?:la |pendant la )?(?:seconde|deuxième) quinzaine(?: de| du| d')", "second half"),
    (r"(?:la )?segunda mitad(?: de| del)", "second half"),
    (r"(?:el )?primer día(?: de| del)", "first day"), (r"(?:el )?último día(?: de| del)", "last day"),
    (r"(?:la )?primera semana(?: de| del)", "week 1"),
    (r"(?:la )?segunda semana(?: de| del)", "week 2"),
    (r"(?:la )?tercera semana(?: de| del)", "week 3"),
    (r"(?:la )?cuarta semana(?: de| del)", "week 4"),
    (r"(?:la )?última semana(?: de| del)", "week last"),
    (r"(?:los |en los |durante los )?primeros días(?: de| del)", "early"),
    (r"(?:los |en los |durante los )?últimos días(?: de| del)", "late"),
    (r"(?:la |en la |durante la )?semana del", "week of"),
    # Italian
    (r"(?:inizio|inizi|principio)(?: di| del| dello| della| dell'| d')?", "early"),
    (r"metà(?: di| del| dello| della| dell')?", "mid"),
    (r"fine(?: di| del| dello| della| dell')?", "late"),
    (r"(?:la )?prima metà(?: di| del| dello| della| dell')", "first half"),
    (r"(?:la )?seconda metà(?: di| del| dello| della| dell')", "second half"),
    (r"(?:il )?primo giorno(?: di| del| dell')", "first day"), (r"(?:l')?ultimo giorno(?: di| del| dell')", "last day"),
    (r"(?:nella |la )?prima settimana(?: di| del| dell')", "week 1"),
    (r"(?:nella |la )?seconda settimana(?: di| del| dell')", "week 2"),
    (r"(?:nella |la )?terza settimana(?: di| del| dell')", "week 3"),
    (r"(?:nella |la )?quarta settimana(?: di| del| dell')", "week 4"),
    (r"(?:nell'|l')?ultima settimana(?: di| del| dell')", "week last"),
    (r"(?:i |nei |durante i )?primi giorni(?: di| del| dell')", "early"),
    (r"(?:gli |negli |durante gli )?ultimi giorni(?: di| del| dell')", "late"),
    (r"(?:la |nella |durante la )?settimana del", "week of"),
    # Russian
    (r"(?:начале|начала)", "early"), (r"(?:середине|середины)", "mid"),
    (r"(?:конце|конца)", "late"),
    (r"(?:первой|первая) половин[еаы]", "first half"),
    (r"(?:во )?(?:второй|вторая) половин[еаы]", "second half"),
    (r"(?:первый|первого) день", "first day"), (r"(?:последний|последнего) день", "last day"),
    (r"(?:первой|первая|первую) недел[еяю]", "week 1"),
    (r"(?:второй|вторая|вторую) недел[еяю]", "week 2"),
    (r"(?:третьей|третья|третью) недел[еяю]", "week 3"),
    (r"(?:четвёртой|четвертой|четвёртая|четвертая) недел[еяю]", "week 4"),
    (r"(?:последней|последняя|последнюю) недел[еяю]", "week last"),
    (r"(?:в )?(?:первые) дни", "early"), (r"(?:в )?(?:последние) дни", "late"),
    (r"(?:на )?неделе", "week of"),
]  # fmt: skip

# "around X" widens a holiday or a single day; "about" / "over" and their likes only a holiday ("what did we
# talk about yesterday" is yesterday)
AROUND_BEFORE = [(r"(?:a)?round|circa|rund um|vers(?: le| la)?|autour d[eu]|aux alentours d[eu]|alrededor de(?:l)?"
                  r"|intorno a(?:l|lla)?|attorno a(?:l|lla)?|verso(?: il| la)?|около|в районе", "day"),
                 (r"about|over|um|über|por|a ridosso d[ie]|под", "holiday")]  # fmt: skip

# open ends: the words before X -> since / after / before / until
OPEN_BEFORE: list[tuple[str, str]] = [
    (r"(?:ever )?since|starting(?: in| from| on)?|beginning(?: in| from)?", "since"),
    (r"after", "after"), (r"before|prior to|earlier than|ahead of", "before"),
    # "up to" but not the verb "get up to" / "be up to" (to do: "what did I get up to last weekend", "what were you
    # up to")
    (r"until|till|til|(?<!\bget )(?<!\bgot )(?<!\bgets )(?<!\bbeen )(?<!\bbe )(?<!\bare )(?<!\bwas )(?<!\bwere )"
     r"(?<!\bis )(?<!'s )(?<!'re )(?<!getting )(?<!\bi )(?<!\byou )(?<!\bwe )(?<!\bthey )(?<!\bhe )(?<!\bshe )"
     r"up to|up until|through", "until"),
    (r"seit(?: dem| der)?|ab(?: dem| der)?", "since"), (r"nach(?: dem| der)?", "after"),
    (r"vor(?: dem| der)?|bevor", "before"), (r"bis(?: zum| zur| ende)?|bis einschließlich", "until"),
    (r"depuis(?: le| la| l')?|à partir de|à partir du|dès", "since"), (r"après(?: le| la| l')?", "after"),
    (r"avant(?: le| la| l')?", "before"), (r"jusqu'(?:à|au|en|aux)|jusqu'à la|jusqu'à l'", "until"),
    (r"desde(?: el| la)?|a partir de(?:l)?", "since"), (r"después de(?:l)?|despues de(?:l)?|tras(?: el| la)?", "after"),
    (r"antes de(?:l)?", "before"), (r"hasta(?: el| la)?", "until"),
    (r"da(?:l|lla|ll'|llo|i|lle)?|a partire da(?:l|lla|ll')?|sin da(?:l)?", "since"),
    (r"dopo(?: il| la| l'| lo)?", "after"), (r"prima d(?:i|el|ella|ell'|ello)", "before"),
    (r"fino a(?:l|lla|ll')?|entro(?: il| la| l')?", "until"),
    (r"с|со|начиная с|начиная со|с самого|от", "since"), (r"после", "after"), (r"до|перед", "before"),
    (r"по", "until"),
]  # fmt: skip
# open ends only before an atom that is no weak one ("won by July 10" is until then; "inspired by autumn" is not)
OPEN_BEFORE_STRONG = [(r"by|no later than|spätestens|au plus tard|a más tardar|entro e non oltre", "until")]
# "so far" / "earlier" next to this period: from its start to now; "later": from today to its end
_IN = r"(?: in| im| dans| en| nel| nell'| в| на| во)?"
SO_FAR = [r"so far", r"to date", r"until now", r"till now", r"up to now", rf"bisher{_IN}", rf"bislang{_IN}",
          r"jusqu'ici", r"jusqu'à présent", r"hasta ahora", r"hasta la fecha", r"finora", r"fino ad ora",
          r"fino a oggi", r"до сих пор", r"пока что", r"(?:en )?lo que va(?: del| de la| de)?"]  # fmt: skip
EARLIER = [rf"earlier{_IN}", rf"früher{_IN}", rf"plus tôt{_IN}", rf"antes{_IN}", rf"prima{_IN}", rf"ранее{_IN}"]
LATER = [rf"later{_IN}", rf"später{_IN}", rf"plus tard{_IN}", rf"más tarde{_IN}", rf"más adelante{_IN}",
         rf"più tardi{_IN}", rf"più avanti{_IN}", rf"позже{_IN}", rf"позднее{_IN}"]  # fmt: skip

# ranges: (words before the first end or "", words between the two ends); the first end may be weak
# (a bare year or month) only after words before it
RANGES: list[tuple[str, str]] = [
    (r"between", r"and"), (r"from", r"to|till|til|until|through|thru|-|–|—"),
    (r"", r"to|till|until|through|thru|-|–|—"),
    (r"zwischen", r"und"), (r"von|vom", r"bis(?: zum| zur)?|-|–"), (r"", r"bis(?: zum| zur)?"),
    (r"entre", r"et|y"), (r"de|du|d'|depuis", r"à|au|aux|jusqu'à|jusqu'au|jusqu'en"), (r"", r"au"),
    (r"de|del|desde", r"a|al|hasta"), (r"", r"al"),
    (r"tra|fra", r"e|ed"), (r"da|dal|dalla|dall'|dai", r"a|al|alla|all'|ai|fino a|fino al|fino all'"),
    (r"между", r"и"), (r"с|со|от", r"по|до"),
]  # fmt: skip
# open ends that need words on both sides of X: "from June on", "a partir de junio en adelante"
OPEN_AROUND = [(r"from|starting", r"on|onwards?|forward|and on", "since"), (r"von|ab", r"an", "since"),
               (r"до", r"включительно", "until"),
               (r"à partir de|dès", r"", "since"), (r"de|desde", r"en adelante", "since"),
               (r"da|dal|dalla|dall'", r"in poi|in avanti", "since")]  # fmt: skip
# a relative period seen from a date: "the week before 16 November", "two weeks after Easter"
ANCHOR = [(r"before|prior to|ahead of", -1), (r"after|following", 1), (r"vor|vor dem|vor der", -1),
          (r"nach|nach dem|nach der", 1), (r"avant|avant le|avant la|avant l'", -1),
          (r"après|après le|après la|après l'", 1), (r"antes de(?:l)?|antes de la", -1),
          (r"después de(?:l)?|después de la|despues de(?:l)?", 1), (r"prima d(?:i|el|ella|ell')", -1),
          (r"dopo(?: il| la| l')?", 1), (r"до|перед", -1), (r"после", 1)]  # fmt: skip
# between a named period and the year that places it: "Christmas of last year", "el verano del año pasado"
# (nothing but a space too: "Q2 last year", "das zweite Quartal letzten Jahres", "во втором квартале прошлого года")
OF_YEAR = r"of|in|de|del|de l'|di|del|dell'|des|du|im|in|в|за|des letzten|des|"
ARTICLE = r"the|el|la|los|las|il|lo|l'|le|les|der|die|das|des|dem|den|du|del|dello|della|dell'|this|this past"

# questions about the future (a future tense, an obligation, a plan in the present: "what did we plan" is past): a
# holiday, month, season or weekday named without last / this / next is the coming one
FUTURE_CUES = ["will", "'ll", "going to", "gonna", "upcoming", "due", "need to", "needs to", "have to", "has to",
               "the plan", "planning", "plans for", "planen", "planeamos", "pianifichiamo", "prévoyons",
               "планируем",
               "wird", "werde", "werden", "vamos a", "va a", "van a", "faremo", "farò", "andremo", "allons",
               "irons", "ferons", "будем", "буду", "будет", "собираемся",
               # a plan for a day: "Was ist für Montag geplant?", "Qu'est-ce qui est prévu ?", "on va faire"
               "est prévu", "est prévue", "sont prévus", "on va", "qu'on va", "vais", "vont", "tenemos planeado",
               "está planeado", "è previsto", "è prevista", "in programma", "запланировано", "запланирован",
               "запланирована"]  # fmt: skip
