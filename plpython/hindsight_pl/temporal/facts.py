"""The time a statement talks about: how the offline extractor dates a fact.

The query analyzer (:func:`~hindsight_pl.temporal.analyze`) reads questions, and a question asks about
the past: a bare "April 1st" is the most recent one, "on Thursday" the last Thursday. A statement is
said the other way round as often: "Starts April 1st." said in February means the coming one, "The
design review is on Thursday." the coming Thursday. :func:`statement_window` finds the same atoms
as the analyzer and re-reads each one from its own clause before they are combined (the analyzer's
``reading`` hook, :func:`read_statement`):

1. **Clauses.** A statement splits into sentences (. ! ? ; 。！？ and line ends) and each sentence
   into clauses (commas, colons, dashes, brackets, and "but" / "because" / "and" + a subject ...).
2. **Orientation** of an atom: the tense of the verb nearest to it in its clause (the last one
   before it, else the first after it; in a clause without a verb, the nearest verb of its
   sentence): ``past`` (a past tense or a present perfect: "passed", "we met", "has started", "ist
   gegangen", "est parti", "llegó", "è arrivato", "прошли", "了", "ました"), ``future`` (a future or a
   present tense: "will", "is on", "starts", "we fly", "wird", "commence", "va a", "будет", and a
   planning verb before "for" / "to": "booked for June", "moved to Friday"), ``habitual``
   ("usually", "every Monday", "most Saturdays", "jeden Montag", "tous les", "los lunes",
   "по понедельникам", "每周") or ``none`` (no verb in the sentence: "External GDPR audit in
   October.").
3. **Habitual** clauses date nothing: their atoms are dropped.
4. **Yearless and weekless atoms** (a bare month, day of a month, season, holiday, quarter or
   weekday: no year, no last / this / next) are moved to the occurrence the clause means: in a
   ``past`` clause the most recent one that has begun (today included); otherwise (``future``,
   ``none``) the first one that has not ended (today included). "April 1st" said on 2025-02-26 in
   "Starts April 1st" is 2025-04-01; "on Thursday" said on Wednesday 2026-12-02 in "The design review
   is on Thursday" is 2026-12-03; "We launched on December 7th" said in June is last December's.
   Atoms that say which one ("last March", "next Friday", "2024", "tomorrow", "3 days ago") stay as
   the analyzer reads them.
5. **"This weekend"** (and "the weekend", "dieses Wochenende", "ce week-end", 这个周末 ...): in a
   ``past`` clause the most recent weekend that has begun; in a ``future`` clause the coming one (the
   current one on a Saturday or Sunday); in a clause without a verb, said on a Monday, the one just
   past, else the coming one.
6. **A weekday beside a date** ("Tuesday May 6", "Tuesday, 6 May"): the date wins, even when the
   weekday contradicts it; "May 6" after a weekday is a date even without the ordinal or the
   preposition the analyzer asks of "May".

What it returns: :func:`statement_window` gives aware datetimes in the given time zone, 00:00 of the
first day to 23:59:59.999999 of the last (as :func:`~hindsight_pl.temporal.parse_temporal`), or None
when the statement dates nothing. :func:`orientation` gives an atom's orientation, for tests and
docs. docs/retain.md ("Dates") describes the rules with examples and the measured accuracy.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import replace
from datetime import date, datetime, timedelta

from . import chinese, european, parse_temporal, words
from .dates import Span, add_months, day, day_of_month_recent, make_date, relative_period
from .grammar import RANK_COMBINED, RANK_MONTH_DAY, RANK_RELATIVE, Found

__all__ = ["has_tense", "language", "orientation", "read_statement", "statement_window"]

PAST, FUTURE, HABITUAL, NONE = "past", "future", "habitual", "none"
# present tenses date forward ("is on Thursday", "starts January 4"): the same reading as a future one
_PRESENT = "present"


def statement_window(
    statement: str, reference: datetime, time_zone: str = "UTC", hemisphere: str = "north"
) -> tuple[datetime, datetime] | None:
    """The days ``statement`` (said at ``reference``) places its fact in, as aware datetimes in
    ``time_zone`` (00:00 of the first day to 23:59:59.999999 of the last), or None. Raises
    ``ValueError`` for an unknown time zone or hemisphere."""
    return parse_temporal(statement, reference, time_zone, hemisphere, reading=read_statement)


def read_statement(text: str, atoms: list[Found], today: date) -> list[Found]:
    """The analyzer's ``atoms`` of ``text`` (its normalised text) re-read as a statement said on
    ``today``: habitual ones dropped, yearless ones moved to the occurrence their clause means, "this
    weekend" placed, a weekday beside a date dropped (rules 3-6 of the module docstring)."""
    lang = language(text)
    atoms = _dates_after_weekdays(text, [*atoms, *_statement_atoms(text, atoms, today, lang)], today)
    atoms, moved = _moves(text, atoms, lang)
    out: list[Found] = []
    for f in atoms:
        if f.weak and lang != "fr" and text[f.start : f.end] in ("an", "ans"):
            continue  # French "an" (year) in another language is a word: "sie fängt am 4. Januar an"
        if id(f) in moved:  # a moved date's "to" (到, "bis") opens no period: the new date is the fact's date
            span = _roll(f, today, moved[id(f)]) if _bare(text, f, lang) else f.span
            out.append(replace(f, span=span, rank=RANK_COMBINED))
            continue
        way = orientation(text, f.start, f.end, lang)
        if way == HABITUAL:
            continue
        if _open_end(text, f, atoms, lang):
            out.append(f)  # "since March", "by Friday": an open end, read as a question reads it
        elif f.kind == "weekend" and _this_weekend(text, f, today, lang):
            out.append(replace(f, span=_weekend(today, way)))
        elif f.kind == "day" and f.repeats == "week" and _COMING.search(text, f.start, f.end):
            ahead = (f.span.start.weekday() - today.weekday()) % 7 or 7  # "is coming Saturday": the first one ahead
            out.append(replace(f, span=day(today + timedelta(days=ahead))))
        elif _bare(text, f, lang):
            out.append(replace(f, span=_roll(f, today, way)))
        else:
            out.append(f)
    return out


# -- moved dates (rule 7) --------------------------------------------------------------------------------

# verbs that move a date ("moved", "verschoben", "reportée", "pospuesto", "spostata", 推迟), the word before the new
# date ("to", "auf", "au", "al", 到), the word before a replaced one ("instead of", "statt", "au lieu du"), and a
# pluperfect that puts the moved event in the past ("had been moved", "avait été reporté", "era stato rinviato")
_MOVE_VERBS = {
    "en": r"\b(?:mov(?:ed|ing|es)|move|push(?:ed|ing)|postpon\w*|reschedul\w*|shift(?:ed|ing)|bump(?:ed|ing)|"
    r"delay(?:ed|ing)|brought\b[^,.;:]{0,30}\bforward|pull(?:ed|ing)\b[^,.;:]{0,30}\bforward|put back"
    r"|chang(?:ed|ing))\b",
    "de": r"\b(?:verschoben|verschiebt|verschieben|verlegt|verlegen|vorgezogen|umgelegt|umgebucht|geändert)\b",
    "fr": r"\b(?:report|avanc|repouss|d[ée]plac|d[ée]cal|chang)(?:é|ée|és|ées|e|er)\b",
    "es": r"\b(?:cambi\w*|pospu\w*|aplaz\w*|adelant\w*|movid[oa]s?|movi[óo]|mueve|pas[óo]|trasladad\w*|retrasad\w*)\b",
    "it": r"\b(?:spostat\w*|spost[oa]|anticipat\w*|rinviat\w*|posticipat\w*|slittat\w*|cambiat\w*|rimandat\w*)\b",
    "zh": r"推迟|改到|改成|改为|提前到|挪到|延期到|延后到|推到|换到",
}  # fmt: skip
_MOVE_VERBS_RE = {lang: re.compile(p) for lang, p in _MOVE_VERBS.items()}
_TO_BEFORE = {
    "en": r"\b(?:to|till|until|for|onto)\s+(?:the\s+)?$",
    "de": r"\b(?:auf|zum|zur)\s+(?:den\s+|dem\s+)?$",
    "fr": r"(?:\b(?:au|à|a|pour)\s+(?:le\s+)?)$",
    "es": r"\b(?:al|a|para)\s+(?:el\s+)?$",
    "it": r"(?:\b(?:al|a|per)\s+(?:il\s+)?|\ball')$",
    "zh": r"(?:到|至|为|成)$",
}
_TO_BEFORE_RE = {lang: re.compile(p) for lang, p in _TO_BEFORE.items()}
_INSTEAD_OF = re.compile(
    r"(?:\binstead of|\brather than|\b(?:an)?statt(?: am| dem| des)?|\banstelle(?: des| vom)?"
    r"|\bau lieu d(?:u|e la|e l'|e)"
    r"|\ben (?:vez|lugar) de(?:l)?|\binvece d(?:el|i|ella)|\banzich[ée]|而不是)\s*(?:the\s+|le\s+|el\s+|il\s+)?$"
)
# after the new date, words that say the moved event took place: "..., was gorgeous", "and it went fine", "war
# trotzdem super", "c'était génial", "y salió genial", "è andata benissimo"
_GOOD = (
    r"(?:\w+ )?(?:fine|great|good|well|lovely|gorgeous|amazing|perfect|fun|brilliant|ok|okay|super|toll|schön"
    r"|gut|génial|bien|super|genial|bien|bene|benissimo|bellissim[oa])"
)
_HAPPENED = re.compile(
    rf"\b(?:was|were|went|turned out)\s+{_GOOD}\b|\b(?:war|waren|lief|liefen)\s+{_GOOD}\b"
    rf"|(?:c'était|s'est (?:bien )?passée?)\s*{_GOOD}?|\b(?:salió|fue|estuvo)\s+{_GOOD}\b"
    rf"|\b(?:è stat[oa]|è andat[oa])\s+{_GOOD}\b|(?:很顺利|挺好的|结束了)"
)
_PLUPERFECT = re.compile(
    r"\bhad (?:been |got |gotten )?\w+|\bavai(?:t|ent) été\b|\b(?:era|erano) stat[oaie]\b|\bhabía(?:n)? sido\b"
    r"|\b(?:war|waren|hatte|hatten)\b[^,.;:]*\b(?:verschoben|verlegt|vorgezogen)\b"
)


def _moves(text: str, atoms: list[Found], lang: str) -> tuple[list[Found], dict[int, str]]:
    """Rule 7: a date replaced in its own sentence gives way. "Instead of the 12th it's the 19th": the 12th goes.
    "The review moved from January 30 to February 4", "vom 12. auf den 19. März verschoben", "del 5 al 12 de
    octubre" after a verb that moves a date: the new date alone stays, read ahead (a move sets what is to come)
    unless the sentence says the moved event has happened (a pluperfect, or after the new date a past "was",
    "went", "war", "c'était", "salió": "..., was gorgeous tho"). Returns the atoms kept and, by ``id``, the
    orientation of each new date."""
    kept = [f for f in atoms if not _INSTEAD_OF.search(text, max(0, f.start - 24), f.start)]
    verbs = _MOVE_VERBS_RE.get("zh" if lang == "ja" else lang)
    to_before = _TO_BEFORE_RE.get("zh" if lang == "ja" else lang)
    if verbs is None or to_before is None:
        return kept, {}
    moved: dict[int, str] = {}
    for sentence in _pieces(text, _SENTENCE_END, 0, len(text)):
        verb = verbs.search(text, *sentence)
        inside = [f for f in kept if sentence[0] <= f.start < sentence[1] and not f.weak]
        if verb is None or not inside:
            continue
        targets = [f for f in inside if to_before.search(text, max(sentence[0], f.start - 12), f.start)]
        if not targets:  # "we moved here in March": a move of house, not of a date
            continue
        # the new date, a range too ("moved to April 2 to April 6"): the targets from the first on
        first = min(t.start for t in targets)
        new = [f for f in inside if f.start >= first]
        happened = _PLUPERFECT.search(text, *sentence) or _HAPPENED.search(text, max(f.end for f in new), sentence[1])
        for f in new:
            moved[id(f)] = PAST if happened else FUTURE
        kept = [f for f in kept if not (sentence[0] <= f.start < sentence[1]) or f.start >= first]
    return kept, moved


def has_tense(sentence: str) -> bool:
    """Whether the tense rules find a verb in ``sentence`` written in German, French, Spanish, Italian or
    Russian ("On part lundi.", "Übermorgen kommt der Techniker."); always False for English (the
    extractor's own word lists read it) and for Chinese and Japanese."""
    text = european.normalise(sentence)[0]
    lang = language(text)
    return lang not in ("en", "zh", "ja") and bool(_tags(text, 0, len(text), lang))


# -- languages ------------------------------------------------------------------------------------------

_STOPWORDS = {
    "en": "the is are was were will and to we i you it on in of this that my our with for be have has at he she "
    "they starts just",
    "de": "der die das und ist sind wir ich nicht am im mit ein eine zu auf für den dem des wird haben hat war "
    "er sie es uns",
    "fr": "le la les et est sont nous je un une du des pour dans avec ce cette au aux il elle on été avons ai "
    "c'est j'ai très chez pas ne mon ma mes notre ont sommes",
    "es": "el la los las y es son nosotros que en del un una por para con este esta al fue hemos ha está estamos "
    "vamos fuimos muy pero también ya",
    "it": "il lo la gli le e è sono noi che di del della un una per con questo questa al ho ha abbiamo siamo "
    "era eravamo nel nella alla dalla anche già molto ci siamo andiamo vado",
}
# time words tell a short message's language ("Dimanche, on a couru 10 km.", "Ayer acepté la oferta."): two
# points each
_WEEKDAYS_OF = {
    "de": "montag dienstag mittwoch donnerstag freitag samstag sonntag gestern heute morgen vorgestern übermorgen "
    "januar februar märz juni juli oktober dezember",
    "fr": "lundi mardi mercredi jeudi vendredi samedi dimanche hier demain aujourd'hui avant-hier après-demain "
    "janvier février avril juin juillet août septembre octobre décembre",
    "es": "lunes martes miércoles miercoles jueves viernes sábado sabado domingo ayer mañana hoy anteayer "
    "enero febrero abril mayo junio julio septiembre octubre noviembre diciembre",
    "it": "lunedì lunedi martedì martedi mercoledì mercoledi giovedì giovedi venerdì venerdi sabato domenica ieri "
    "domani oggi dopodomani gennaio febbraio aprile maggio giugno luglio settembre ottobre dicembre",
}
_STOPWORD_SETS = {lang: set(ws.split()) for lang, ws in _STOPWORDS.items()}
_WEEKDAY_SETS = {lang: set(ws.split()) for lang, ws in _WEEKDAYS_OF.items()}
_KANA = re.compile(r"[\u3040-\u30ff]")


def language(text: str) -> str:
    """The language of ``text``, as far as the tense rules need it: en, de, fr, es, it, ru, zh or ja
    (Chinese characters with kana are Japanese; Cyrillic is Russian; otherwise the most function words)."""
    if chinese.has_cjk(text):
        return "ja" if _KANA.search(text) else "zh"
    if re.search(r"[а-яё]", text, re.IGNORECASE):
        return "ru"
    tokens = re.findall(r"[^\W\d_]+(?:'[^\W\d_]+)?", text.lower())
    scores = {lang: sum(t in stop for t in tokens) for lang, stop in _STOPWORD_SETS.items()}
    for lang, names in _WEEKDAY_SETS.items():
        scores[lang] += 2 * sum(t in names for t in tokens)
    scores["es"] += 2 * len(re.findall(r"[ñ¿¡]", text))
    scores["de"] += 2 * len(re.findall(r"[äöüß]", text))
    accented = bool(re.search(r"[^\W\d_a-z]", text.lower()))  # a tie goes to English, unless a letter is not
    lower = text.lower()

    def rank(lang: str) -> tuple[int, bool, bool]:  # then to a language whose tense rules find a verb
        verbs = lang != "en" and any(p.search(lower) for p, _ in _TAGS[lang])
        return scores[lang], (lang == "en") != accented, verbs

    best = max(scores, key=rank)
    return best if scores[best] else "en"


# -- clauses ------------------------------------------------------------------------------------------

_SUBJECTS = {
    "en": r"i|we|you|he|she|they|it|the|our|my",
    "de": r"ich|wir|du|er|sie|es|ihr|man|die|der|das|unser|unsere",
    "fr": r"je|j'|nous|il|elle|ils|elles|on|tu|vous|le|la|les",
    "es": r"yo|nosotros|él|ella|ellos|ellas|el|la|los|las",
    "it": r"io|noi|lui|lei|loro|il|la|lo|i|gli|le",
    "ru": r"я|мы|он|она|они|ты|вы",
}
_CONJUNCTIONS = {
    "en": r"but|because|although|though|while|whereas|so|and then|which|and (?=(?:{s}) )",
    "de": r"aber|weil|denn|doch|sondern|obwohl|während|und (?=(?:{s}) )",
    "fr": r"mais|parce que|car|alors que|tandis que|et (?=(?:{s}) )",
    "es": r"pero|porque|aunque|mientras|y (?=(?:{s}) )",
    "it": r"ma|perché|anche se|mentre|e (?=(?:{s}) )",
    "ru": r"но|а|потому что|хотя|и (?=(?:{s}) )",
}
_SENTENCE_END = re.compile(r"(?<!\d)[.!?…]+(?=\s|$)|[;\n]|[。！？；]")
_CLAUSE_BREAK = {
    lang: re.compile(rf"(?:,|:|\s[-–—]\s|[()]|\s(?:{c.format(s=_SUBJECTS[lang])})\s)")
    for lang, c in _CONJUNCTIONS.items()
}
_CJK_CLAUSE_BREAK = re.compile(r"[，、：,:（）()]|但是|可是|不过|因为|所以|けど|が、")


def _pieces(text: str, pattern: re.Pattern[str], start: int, end: int) -> list[tuple[int, int]]:
    """[start, end) cut at every match of ``pattern``: (start, end) of each piece."""
    cuts = [start]
    for m in pattern.finditer(text, start, end):
        cuts.extend((m.start(), m.end()))
    cuts.append(end)
    return [(cuts[i], cuts[i + 1]) for i in range(0, len(cuts), 2)]


def _around(pieces: list[tuple[int, int]], position: int) -> tuple[int, int]:
    return next((p for p in pieces if p[0] <= position < p[1]), pieces[-1])


# -- tense ---------------------------------------------------------------------------------------------

_EN_IRREGULAR_PAST = (
    "ate awoke became began bit blew broke bought brought built burnt came caught chose crept dealt did dove drank "
    "drew drove dug fed felt fell fled flung forbade froze ground hung knelt leapt lit meant mistook overslept "
    "overtook rebuilt rewrote sank shone shrank slid sought sped spun spat split spread sprang stank strode struck "
    "stung swept swore swung tore trod undertook underwent upset withdrew wound felt "
    "fought found flew forgot forgave froze gave got went grew had heard held hid hit hurt kept knew laid led "
    "left lent lost made meant met paid quit ran rang rode rose said sang sank sat saw sent shook shot showed "
    "shut slept sold spent spoke stood stole stuck swam taught thought threw told took tore understood was were "
    "woke won wore wrote wasn't weren't didn't hadn't couldn't wouldn't"
).split()
_EN_PARTICIPLES = (
    "been done gone seen taken given eaten written begun known grown flown driven ridden spoken broken chosen "
    "forgotten gotten got made had found left met sent spent told won bought brought thought caught taught built "
    "paid said sold heard held kept lost felt run come become hit put set quit"
).split()
_EN_NOT_PAST_ED = set(
    "need feed red bed seed speed indeed hundred breed shed weed bred shred sacred naked wicked wretched rugged "
    "beloved aged ragged excited interested tired bored worried scared pleased thrilled delighted stressed "
    "supposed based exhausted overwhelmed relieved obsessed stoked pumped jazzed nervous-ed".split()
)
# verbs that set a date for something else: "booked for June", "moved to Friday", "scheduled for Thursday"
_PLANNING = (
    r"(?:schedul|reschedul|plann|book|mov|push|postpon|delay|set|confirm|announc|arrang|fix|slat|pencil|propos|"
    r"invit|agre|decid|bump|shift|reserv|regist|enrol|ticket|sign\w* up|rebook|noted)\w*"
)
_EN_PRESENT = (
    "is are am isn't aren't do does don't doesn't has have can can't must needs wants hopes starts begins opens "
    "closes ends leaves arrives lands flies meets goes comes returns launches ships kicks hosts moves joins takes "
    "happens gets plays heads marries celebrates graduates presents finishes wraps expires renews due"
).split()
_EN_DETERMINERS = set("the a an my our your his her their its this that these those".split())
_EN_IS = {f"{w}'s" for w in ("it", "he", "she", "that", "there", "what", "who", "here")}
# "the show's on November 21", "the launch's set for May": a noun's "'s" there is "is"
_EN_IS_BEFORE = {"on", "at", "in", "due", "set", "booked", "scheduled", "planned", "now", "still"}
_EN_PRONOUN_VERB = re.compile(r"\b(?:i|we|you|they|he|she)\s+(?:also\s+|just\s+|still\s+|finally\s+)?([a-z]+)\b")


def _english_tags(clause: str, offset: int) -> list[tuple[int, str]]:
    """(position, tense) of the English verbs in ``clause`` (whose first character is at ``offset``)."""
    tags: list[tuple[int, str]] = []
    tokens = [(m.group(0), m.start()) for m in re.finditer(r"[a-z]+(?:'[a-z]+)?|'[a-z]+", clause)]
    previous = ""
    for i, (word, at) in enumerate(tokens):
        following = tokens[i + 1][0] if i + 1 < len(tokens) else ""
        tense = None
        going_to = word == "going" and following == "to" and previous not in ("was", "were")
        if word in ("will", "shall", "gonna", "won't", "would", "wouldn't") or word.endswith("'ll") or going_to:
            tense = FUTURE
        elif word in ("have", "has", "'ve", "haven't", "hasn't") or word.endswith("'ve"):
            rest = [t for t, _ in tokens[i + 1 : i + 3]]
            participle = any(t in _EN_PARTICIPLES or (t.endswith("ed") and t not in _EN_NOT_PAST_ED) for t in rest)
            tense = PAST if participle else _PRESENT
        elif word in ("used",) and following == "to":
            tense = HABITUAL
        elif word in _EN_IRREGULAR_PAST:
            tense = PAST
        elif (
            word.endswith("ed")
            and len(word) > 4
            and word not in _EN_NOT_PAST_ED
            and previous not in _EN_DETERMINERS
            and previous not in ("is", "are", "am", "be", "been", "being", "get", "gets", "getting", "so", "very",
                                 "really", "too", "more", "most")
            and not previous.endswith(("'s", "'re", "'m"))
        ):  # fmt: skip
            tense = PAST
        elif (
            (word in _EN_PRESENT and previous not in _EN_DETERMINERS) or word.endswith(("'re", "'m")) or word in _EN_IS
            or (word.endswith("'s") and following in _EN_IS_BEFORE)
        ):  # fmt: skip
            tense = _PRESENT  # "she starts", not "the starts"
        if tense:
            tags.append((offset + at, tense))
        previous = word
    for m in _EN_PRONOUN_VERB.finditer(clause):  # "she starts", "we fly", "they left"
        verb = m.group(1)
        if verb in _EN_IRREGULAR_PAST or (verb.endswith("ed") and verb not in _EN_NOT_PAST_ED):
            tags.append((offset + m.start(1), PAST))
        elif verb not in ("usually", "always", "often", "never", "really", "all", "both", "too"):
            tags.append((offset + m.start(1), _PRESENT))
    return tags


def _alt(items: Iterable[str]) -> str:
    return "|".join(sorted(set(items), key=len, reverse=True))


_DE_PARTICIPLE = (
    r"(?:ab|an|auf|aus|ein|mit|vor|zu|um|zurück|los|fest|statt|weg|hin|her|über|durch)?"
    r"ge(?!gen\b|nug\b|stern\b|rn\b|rne\b|nau\b|rade\b|sund\b|meinsam\b|hen\b|ben\b|winnen\b|nießen\b|hören\b)"
    r"[a-zäöüß]{2,}(?:t|en)"
)
# a participle without ge- (inseparable prefixes, -ieren verbs): "unterschrieben", "verkauft", "organisiert"
_DE_PARTICIPLE_END = (
    rf"(?:{_DE_PARTICIPLE}|(?:be|ver|er|ent|zer|emp|miss|unter|über|hinter|wider)[a-zäöüß]{{3,}}(?:t|en)"
    r"|[a-zäöüß]{3,}iert)"
)
_DE_PLANNED = r"geplant|angesetzt|vorgesehen|terminiert|angekündigt|verschoben|festgelegt|gebucht|verlegt|bestätigt"
_NOT_PARTICIPLE = rf"(?!(?:{_alt(re.escape(w) for w in [*words.WEEKDAY_NAMES, *words.MONTH_NAMES])}|lieu)\b)"
_FR_BETWEEN = r"(?:(?:pas|déjà|bien|enfin|aussi|encore|toujours|jamais|vraiment|tous|tout|finalement|rien) )?"
_IT_BETWEEN = r"(?:(?:già|finalmente|appena|anche|ancora|sempre|mai|davvero|tutti|tutto|non) )?"
_FR_PARTICIPLE = r"(?:été|[a-zéèêàâîïôûç]+(?:é|ée|és|ées|i|ie|is|ies|it|ite|u|ue|us|ert|erte|int|inte))"
_FR_PLANNED = r"prévue?s?|fixée?s?|programmée?s?|planifiée?s?|organisée?s?|décalée?s?|reportée?s?|confirmée?s?"
_IT_PARTICIPLE = r"[a-zàèéìòù]+(?:ato|ata|ati|ate|uto|uta|uti|ute|ito|ita|iti|ite|tto|tta|sto|sta|so|sa)"
_IT_PLANNED = r"previst[oaie]|fissat[oaie]|programmat[oaie]|pianificat[oaie]|spostat[oaie]|confermat[oaie]"
_ES_PLANNED = r"previst[oa]s?|programad[oa]s?|fijad[oa]s?|planead[oa]s?|confirmad[oa]s?|aplazad[oa]s?"
_RU_NOT_PAST = (
    "или если мили более школа дела дело тела тело села село стола стол пола пол сила числа число зла "
    "футбол футбола футболе стало вела вели мало пила"
).split()

# per language: (pattern, tense), matched on the lower-case text; the tense is at the match's start
_TAGS: dict[str, list[tuple[re.Pattern[str], str]]] = {
    lang: [(re.compile(p), t) for p, t in rows]
    for lang, rows in {
        "de": [
            (r"\b(?:wird|werde|werden|wirst|werdet|würde|würden)\b", FUTURE),
            (rf"\b(?:habe|hat|haben|hast|habt|hatte|hatten)\b(?=.*\b{_DE_PARTICIPLE}\b)", PAST),
            (rf"\b(?:habe|hat|haben|hast|habt|bin|ist|sind|bist|seid)\b(?=.*\b{_DE_PARTICIPLE_END}$)", PAST),
            (rf"\b(?:bin|ist|sind|bist|seid)\b(?=.*\b(?!(?:{_DE_PLANNED})\b){_DE_PARTICIPLE}\b)", PAST),
            (
                r"\b(?:war|waren|warst|wart|hatte|hatten|hattest|wurde|wurden|ging|gingen|kam|kamen|gab|fand|fanden|"
                r"sah|sahen|traf|trafen|fuhr|fuhren|flog|flogen|lief|blieb|blieben|begann|begannen|fing|fingen|"
                r"sagte|machte|machten|feierten|feierte|zogen|zog)\b",
                PAST,
            ),
            (
                r"\b(?:ist|sind|bin|bist|seid|habe|hat|haben|findet|finden|beginnt|beginnen|startet|starten|fängt|"
                r"fangen|kommt|kommen|geht|gehen|fliegt|fliegen|fährt|fahren|heiraten|heirate|heiratet|ziehe|zieht|"
                r"ziehen|treffen|trifft|gibt|feiern|feiert|läuft|endet|beginne|starte|fliege|fahre|komme)\b",
                _PRESENT,
            ),
        ],
        "fr": [
            (r"\b(?:vais|vas|va|allons|allez|vont)\s+[a-zéèêàç]+(?:er|ir|re|oir)\b", FUTURE),
            (
                r"\b[a-zéèêàâîïôûç]{2,}(?:erai|eras|era|erons|erez|eront|irai|ira|irons|iront|rai|ra|rons|ront)\b"
                r"(?<!\bextra)(?<!opéra)(?<!caméra)",
                FUTURE,
            ),
            (
                rf"(?:\b|(?<='))(?:ai|as|a|avons|avez|ont|avait|avaient)\s+{_FR_BETWEEN}{_NOT_PARTICIPLE}{_FR_PARTICIPLE}\b",
                PAST,
            ),
            (
                rf"(?:\b|(?<='))(?:suis|es|est|sommes|êtes|sont)\s+{_FR_BETWEEN}(?!(?:{_FR_PLANNED})\b){_NOT_PARTICIPLE}{_FR_PARTICIPLE}\b",
                PAST,
            ),
            (
                r"\b(?:était|étaient|étais|avait|avaient|fut|furent|[a-zéèç]{3,}(?:aient|ait))\b"
                r"(?<!\bfait)(?<!\bsait)(?<!\bplait)(?<!\bplaît)",
                PAST,
            ),
            (
                r"(?:\b|(?<='))(?:est|sont|suis|sommes|a|ont|commence|commencent|débute|débutent|arrive|arrivent|"
                r"part|partons|pars|passe|passent|vient|viennent|augmente|augmentent|rentre|rentrons|a lieu|"
                r"ont lieu|se marie|se marient|déménage|déménageons)\b",
                _PRESENT,
            ),
        ],
        "es": [
            (r"\b(?:voy|vas|va|vamos|vais|van)\s+a\s+[a-záéíóúñ]+(?:ar|er|ir)\b", FUTURE),
            (r"\b[a-záéíóúñ]{2,}(?:ré|rás|rá|remos|réis|rán)\b", FUTURE),
            (r"\b(?:he|has|ha|hemos|habéis|han|había|habían)\s+[a-záéíóúñ]+(?:ado|ido|to|cho)\b", PAST),
            (
                r"\b(?:fue|fui|fuimos|fueron|fuiste|era|eran|estuvo|estuve|estuvimos|tuvo|tuve|tuvimos|hubo|dijo|"
                r"hizo|hicimos|vino|vinieron|pude|pudo|[a-záéíóúñ]{2,}(?:ó|aron|ieron|aste|iste|aba|aban|ábamos)"
                r"|[a-záéíóúñ]{3,}(?<!qu)é|(?!aquí|allí|ahí|así)[a-záéíóúñ]{3,}í)\b",
                PAST,
            ),
            (
                r"\b(?:es|son|está|están|empieza|empiezan|comienza|comienzan|tiene|tenemos|hay|llega|llegan|sale|"
                r"salimos|sube|suben|viene|vienen|nos casamos|se casa|se casan|vuela|volamos|viaja|viajamos)\b",
                _PRESENT,
            ),
        ],
        "it": [
            (r"\b[a-zàèéìòù]{2,}(?:erò|irò|arò|drò|rrò|vrò|erai|irai|rà|remo|rete|ranno)\b", FUTURE),
            (
                rf"\b(?:ho|hai|ha|abbiamo|avete|hanno|avevo|aveva|avevamo|avevano)\s+{_IT_BETWEEN}{_NOT_PARTICIPLE}{_IT_PARTICIPLE}\b",
                PAST,
            ),
            (
                rf"\b(?:sono|sei|è|siamo|siete)\s+{_IT_BETWEEN}(?!(?:{_IT_PLANNED})\b){_NOT_PARTICIPLE}{_IT_PARTICIPLE}\b",
                PAST,
            ),
            (
                r"\b(?:era|erano|ero|eravamo|fu|furono|[a-zàèéìòù]{2,}(?:ava|avano|avamo|eva|evano|evamo|iva|ivano))\b",
                PAST,
            ),
            (
                r"\b(?:è|sono|siamo|inizia|iniziano|comincia|cominciano|parte|partiamo|arriva|arrivano|c'è|ci sono|"
                r"viene|vengono|aumenta|aumentano|va|vanno|deve|devono|andiamo|vado|si sposa|ci sposiamo|"
                r"abbiamo|ha|hanno)\b",
                _PRESENT,
            ),
        ],
        "ru": [
            (
                r"(?<![а-яё])(?:буду|будет|будем|будете|будут|будешь|собираюсь|собираемся|собирается|планируем|"
                r"планирую)(?![а-яё])",
                FUTURE,
            ),
            (
                rf"(?<![а-яё])(?!(?:{_alt(_RU_NOT_PAST)})(?![а-яё]))[а-яё]*[аеиоуыяюё]л(?:а|о|и)?(?:сь|ся)?(?![а-яё])",
                PAST,
            ),
            (
                r"(?<![а-яё])(?:есть|начинается|начнётся|начнется|будет|приезжает|уезжает|женится|выходит|состоится|"
                r"стартует|прилетает|улетает)(?![а-яё])",
                _PRESENT,
            ),
        ],
        "zh": [
            (r"会|将|要|打算|计划|准备|预计|定于|定在|即将|开始|是", FUTURE),
            (r"(?<!为)了(?!解)|过(?![年节生])|已经|刚刚|刚|曾经|曾", PAST),
        ],
        "ja": [
            (r"ました|でした|かった|だった|った|んだ|[しいきえれけべめねせて]た(?!め)", PAST),
            (r"ます|です|予定|つもり|でしょう|だろう|始まる|する", FUTURE),
        ],
    }.items()
}

_MORE_TIME_WORDS = "time times mornings evenings nights afternoons summers winters jahr woche tag morgen abend".split()
_TIME_WORDS = _alt(
    re.escape(w)
    for w in [
        *words.UNITS,
        *words.WEEKDAY_NAMES,
        *words.WEEKDAY_PLURALS,
        *words.MONTH_NAMES,
        *words.SEASON_NAMES,
        *words.DAY_PARTS,
        *_MORE_TIME_WORDS,
    ]
)
_WEEKDAY_PLURALS = _alt(re.escape(w) for w in words.WEEKDAY_PLURALS)
_WEEKDAYS = _alt(re.escape(w) for w in words.WEEKDAY_NAMES)
_HABITUAL = {
    "en": rf"\b(?:usually|normally|typically|generally|regularly|often|sometimes|always|whenever|tends? to|used to"
    rf"|on (?:{_WEEKDAY_PLURALS}|weekends)|most (?:{_WEEKDAY_PLURALS}|weekends|days|mornings|evenings|nights|weeks)"
    rf"|(?:every|each)(?: other| single)? (?:{_TIME_WORDS}))\b",
    "de": rf"\b(?:normalerweise|meistens|gewöhnlich|üblicherweise|regelmäßig|oft|manchmal|immer|jeweils"
    rf"|montags|dienstags|mittwochs|donnerstags|freitags|samstags|sonntags|wochenends|abends|morgens"
    rf"|(?:jeden|jede|jedes|jedem|alle) (?:{_TIME_WORDS}))\b",
    "fr": rf"(?:\b|(?<='))(?:d'habitude|habituellement|généralement|normalement|souvent|parfois|toujours"
    rf"|le (?:{_WEEKDAYS})(?! \d)|(?:chaque|tous les|toutes les) (?:{_TIME_WORDS}))\b",
    "es": rf"\b(?:normalmente|generalmente|habitualmente|a menudo|a veces|siempre|suel(?:o|es|e|emos|en)"
    rf"|los (?:{_WEEKDAY_PLURALS}|fines de semana)(?! \d)|(?:cada|todos los|todas las) (?:{_TIME_WORDS}))\b",
    "it": rf"\b(?:di solito|solitamente|generalmente|normalmente|spesso|a volte|sempre"
    rf"|(?:il|la) (?:{_WEEKDAYS})(?! \d)|(?:ogni|tutti i|tutte le) (?:{_TIME_WORDS}))\b",
    "ru": r"(?<![а-яё])(?:обычно|часто|иногда|всегда|как правило|кажд[а-яё]*|по (?:понедельникам|вторникам|средам"
    r"|четвергам|пятницам|субботам|воскресеньям|выходным|утрам|вечерам))(?![а-яё])",
    "zh": r"每|通常|总是|总会|经常|常常|一般|平时|往往|老是",
    "ja": r"毎|いつも|よく|普段|たいてい|大抵",
}
_HABITUAL_RE = {lang: re.compile(p) for lang, p in _HABITUAL.items()}
# a planning or booking verb in the past, then the word that introduces what it set: "we booked the venue for June
# 14", "got tickets for june 12", "j'ai pris rendez-vous pour le 3 mars", "me inscribí en la maratón del 1 de
# diciembre", "ho prenotato il dentista per il 21 maggio": the date of what was planned (ahead, as a future tense)
_PLANNING_BEFORE: dict[str, list[re.Pattern[str]]] = {}
for _lang, _verbs, _before in [
        ("en", _PLANNING, "for|to|until|till"),
        # "cancelled the dentist appointment on march 3": the appointment's day ("got cancelled on Monday": the day
        # it was called off)
        ("en", r"cancel\w*\s+(?:the|my|our|a|an|his|her|their|your)", "on|for"),
        ("fr", r"(?:pris|r[ée]serv|inscrit|book|achet|programm|fix|cal|planifi|pr[ée]vu|command)\w*",
         "pour|au|du|le|la"),
        ("es", r"(?:reserv|inscrib|inscrit|apunt|compr|program|agend|ped[íi]|saqu[ée]|sacamos|cog[íi])\w*",
         "para|del|de|el"),
        ("it", r"(?:prenotat|pres[oaie]|iscritt|comprat|programmat|fissat|segnat|ordinat)\w*",
         "per|del|della|di|il"),
        ("de", r"(?:angemeldet|reserviert|gekauft|bestellt|gebucht|eingetragen)", "für|zum|zur|am|auf"),
]:  # fmt: skip
    _PLANNING_BEFORE.setdefault(_lang, []).append(
        re.compile(rf"(?:\b|(?<=')){_verbs}\b[^,.;:]*\b(?:{_before})\b[^,.;:]{{0,40}}$")
    )
# a date's label that points ahead whatever verb came before: "HR confirmed my start date March 2"
_DATE_LABEL_BEFORE = re.compile(
    r"\b(?:start(?:ing)? date|first day|last day|due date|deadline|go-live|starttermin|eintrittsdatum|erster tag"
    r"|letzter tag|erster arbeitstag|letzter arbeitstag|date de début|premier jour|dernier jour|fecha de inicio"
    r"|primer día|último día|data di inizio|primo giorno|ultimo giorno)\b[^,.;]{0,12}$"
    r"|(?:入职日期|开始日期|截止日期)[是为：:]?$"
)
_CJK_BOOKING = re.compile(r"订|预订|预约|报名|买了|抢到|约了|定了|予約|申し込")


def _tags(text: str, start: int, end: int, lang: str) -> list[tuple[int, str]]:
    """(position in ``text``, tense) of the verbs and tense cues in text[start:end]."""
    piece = text[start:end]
    if lang == "en":
        found = _english_tags(piece, start)
    else:
        found = [(start + m.start(), tense) for pattern, tense in _TAGS.get(lang, []) for m in pattern.finditer(piece)]
    strongest: dict[int, str] = {}
    for position, tense in found:  # "sind ... umgezogen": the past, not the present of "sind"
        if strongest.get(position) in (None, _PRESENT):
            strongest[position] = tense
    return sorted(strongest.items())


def orientation(text: str, start: int, end: int, lang: str | None = None) -> str:
    """How the clause around text[start:end] (an atom) places its time: "past", "future", "habitual"
    or "none" (rule 2 of the module docstring; a present tense counts as "future")."""
    lang = lang or language(text)
    sentence = _around(_pieces(text, _SENTENCE_END, 0, len(text)), start)
    breaks = _CJK_CLAUSE_BREAK if lang in ("zh", "ja") else _CLAUSE_BREAK.get(lang, _CLAUSE_BREAK["en"])
    clause = _around(_pieces(text, breaks, *sentence), start)
    if _HABITUAL_RE[lang].search(text, *clause):
        return HABITUAL
    tags = [t for t in _tags(text, *clause, lang) if not start <= t[0] < end]
    label = _DATE_LABEL_BEFORE.search(text, clause[0], start)
    if label and not any(label.start() <= t[0] < start for t in tags):
        return FUTURE  # "Accepted the offer, start date March 2": a start is to come, whatever came before
    before = [t for t in tags if t[0] < start]
    after = [t for t in tags if t[0] >= end]
    if before or after:
        position, tense = before[-1] if before else after[0]
        if tense == HABITUAL:
            return HABITUAL
        if tense == PAST and any(p.search(text[position:start]) for p in _PLANNING_BEFORE.get(lang, [])):
            return FUTURE  # "we booked the venue for June 14": the date of what was booked
        if tense == PAST and _DATE_LABEL_BEFORE.search(text, position, start):
            return FUTURE  # "confirmed my start date March 2": the start is to come
        if tense == PAST and lang in ("zh", "ja") and _CJK_BOOKING.search(text, clause[0], start):
            return FUTURE  # 订好了3月3日的牙医: the appointment booked
        return PAST if tense == PAST else FUTURE
    if lang in ("zh", "ja"):
        return NONE  # no tense in the clause: its own verb has none either (她1月4日入职)
    tags = [t for t in _tags(text, *sentence, lang) if not start <= t[0] < end and not clause[0] <= t[0] < clause[1]]
    if tags:
        position, tense = min(tags, key=lambda t: abs(t[0] - start))
        if tense == PAST and lang == "en" and re.match(_PLANNING, text[position:]):
            return FUTURE  # "Proposed new date for the cutover: Tuesday May 6"
        return PAST if tense == PAST else HABITUAL if tense == HABITUAL else FUTURE
    return NONE


def _open_end(text: str, f: Found, atoms: list[Found], lang: str) -> bool:
    """Whether ``f`` is the end of an open period ("since March", "by Friday", "before mid-February",
    "2024年6月前") rather than the second end of a range ("May 5 until May 8")."""
    rules = chinese.RULES if lang in ("zh", "ja") else european.RULES
    start = f.start
    part = next((m for pattern, _ in rules.part_before if (m := pattern.search(text, max(0, start - 40), start))), None)
    start = part.start() if part else start  # "before mid-February"
    for pattern, _ in [*rules.open_before, *rules.open_before_strong]:
        m = pattern.search(text, max(0, start - 40), start)
        if m is not None:
            return not any(a is not f and m.start() - 3 <= a.end <= m.start() for a in atoms)
    return any(pattern.match(text, f.end) for pattern, _ in rules.open_after)


# -- moving atoms --------------------------------------------------------------------------------------

_CJK_MODIFIERS = re.compile(r"[上下去明今来先本这前后]")


def _bare(text: str, f: Found, lang: str) -> bool:
    """Whether an atom names a repeating time without saying which one: a month, a day of a month, a
    season, a holiday, a quarter or a weekday with no year and no last / this / next."""
    if f.year_given or f.in_week or f.now:
        return False
    if f.repeats not in ("week", "year") and not (f.kind == "day" and f.rank == RANK_MONTH_DAY):
        return False
    said = text[f.start : f.end]
    if lang in ("zh", "ja"):
        return not _CJK_MODIFIERS.search(said)
    return not any(w in words.MODIFIERS for w in re.findall(r"[^\W\d_]+", said))


def _step(f: Found, span: Span, direction: int) -> Span | None:
    """The occurrence of ``f`` after (``direction`` 1) or before (-1) ``span``."""
    if f.repeats == "week":
        return Span(span.start + direction * timedelta(weeks=1), span.end + direction * timedelta(weeks=1))
    if f.repeats == "year" and f.in_year is not None:
        for years in (1, 2):
            found = f.in_year(span.start.year + direction * years)
            if found is not None and (found.start - span.start).days * direction > 0:
                return found
        return None
    if f.kind == "day":  # "on the 3rd": the same day of the next / previous month that has it
        for months in (1, 2):
            first = add_months(span.start.replace(day=1), direction * months)
            candidate = make_date(first.year, first.month, span.start.day)
            if candidate:
                return day(candidate)
    return None


def _roll(f: Found, today: date, way: str) -> Span:
    """The occurrence of a bare atom the clause means: in the past the most recent that has begun, else
    the first that has not ended; without a verb, the most recent when it ended less than a third as far
    back as the next one lies ahead ("Back from Easter." two days after it), else the next (rule 4)."""
    if way == NONE:
        recent, coming = _roll(f, today, PAST), _roll(f, today, FUTURE)
        return recent if recent.end < today and 3 * (today - recent.end).days < (coming.start - today).days else coming
    span: Span | None = f.span
    for _ in range(4):
        if span is None:
            return f.span
        if way == PAST and span.start > today:
            span = _step(f, span, -1)
        elif way != PAST and span.end < today:
            span = _step(f, span, 1)
        else:
            return span
    return span or f.span


def _this_weekend(text: str, f: Found, today: date, lang: str) -> bool:
    """A weekend atom that is this week's or "the weekend" (no last / next said)."""
    if f.span not in (relative_period("weekend", today, 0), relative_period("weekend", today, -1)):
        return False
    said = text[f.start : f.end]
    if lang in ("zh", "ja"):
        return not re.search(r"[上下先来]", said)
    return not any(words.MODIFIERS.get(w) in ("last", "next") for w in re.findall(r"[^\W\d_]+", said))


def _weekend(today: date, way: str) -> Span:
    """Rule 5: "this weekend" read from the clause."""
    this = relative_period("weekend", today, 0)
    begun = this if this.start <= today else relative_period("weekend", today, -1)
    if way == PAST or (way == NONE and today.weekday() == 0):
        return begun
    return this


_DATE_AFTER_WEEKDAY = re.compile(
    rf",? (?:the )?(?:(?P<m>{european.MONTH})\.? (?P<d>{european.DOM})(?:st|nd|rd|th)?"
    rf"|(?P<d2>{european.DOM})(?:st|nd|rd|th|\.)? (?:of )?(?P<m2>{european.MONTH})"
    rf"|(?P<d3>{european.DOM})(?:st|nd|rd|th))(?![\w:])"
)


_COMING = re.compile(r"\b(?:this )?(?:coming|upcoming)\b")
_DAY_ALONE = {
    "en": r"(?:\b(?:for|due|is|on|by)|'s) the (?P<d>{dom})(?:st|nd|rd|th)\b"
    r"(?! (?:of|century|birthday|anniversary|floor|place))",
    "de": r"\b(?:am|zum|bis zum|ab dem) (?P<d>{dom})\.(?= ?(?:[,;!?]|$|\.|[a-zäöüß]+(?![a-zäöüß]*\.? ?\d)))",
    "fr": r"\ble (?P<d>{dom})(?:er)?(?= ?(?:[.,;!?]|$))",
    "es": r"\bel (?:día )?(?P<d>{dom})(?= ?(?:[.,;!?]|$))",
    "it": r"\b(?:il|l') ?(?P<d>{dom})(?= ?(?:[.,;!?]|$))",
    "zh": r"(?<![月\d])(?P<d>\d{{1,2}})[号日](?![楼线床门房位车机桌])",
}
_DAY_ALONE_RE = {lang: re.compile(p.format(dom=european.DOM)) for lang, p in _DAY_ALONE.items()}
_WEEKEND_ALONE = re.compile(r"\b(?:all|the whole|the entire) weekend\b|\b(?:am|übers) wochenende\b")


def _statement_atoms(text: str, atoms: list[Found], today: date, lang: str) -> list[Found]:
    """Forms a statement uses that the analyzer leaves alone: a day of the month alone ("booked for the
    9th", "am 15.", "le 3", "el día 15", "il 20", "20号": the most recent such day, today included, until
    the clause says otherwise) and a weekend without a modifier ("all weekend", "am Wochenende")."""
    out: list[Found] = []

    def free(start: int, end: int) -> bool:  # a weak atom there ("weekend" alone) gives way
        return all(a.end <= start or a.start >= end for a in [*atoms, *out] if not a.weak)

    patterns = [_DAY_ALONE_RE["zh"]] if lang in ("zh", "ja") else [p for k, p in _DAY_ALONE_RE.items() if k != "zh"]
    for m in (m for pattern in patterns for m in pattern.finditer(text)):
        if free(m.start(), m.end()):
            for back in range(3):
                first = add_months(today.replace(day=1), -back)
                found = make_date(first.year, first.month, int(m["d"]))
                if found and found <= today:
                    out.append(Found(m.start(), m.end(), day(found), "day", RANK_MONTH_DAY))
                    break
    for m in _WEEKEND_ALONE.finditer(text):
        if free(m.start(), m.end()):
            out.append(Found(m.start(), m.end(), relative_period("weekend", today, 0), "weekend", RANK_RELATIVE))
    return out


def _dates_after_weekdays(text: str, atoms: list[Found], today: date) -> list[Found]:
    """Rule 6: a weekday right before a date ("Tuesday May 6", "Tuesday, 6 May") gives way to the date; a
    month and day there that the analyzer did not take ("May 6": "May" is a verb too) become a date."""
    out = list(atoms)
    for f in atoms:
        if not (f.kind == "day" and f.repeats == "week"):
            continue
        m = _DATE_AFTER_WEEKDAY.match(text, f.end)
        if m is None:
            continue
        taken = [a for a in atoms if a.kind == "day" and a is not f and a.start < m.end() and m.start() < a.end]
        if m["d3"] and not taken:  # "Thursday the 18th": that day of the month
            found = make_date(today.year, today.month, int(m["d3"]))
            if found is None:
                continue
            if found > today:
                previous = add_months(today.replace(day=1), -1)
                found = make_date(previous.year, previous.month, int(m["d3"])) or found
            out.append(Found(m.start("d3"), m.end(), day(found), "day", RANK_MONTH_DAY))
        elif not any(a.repeats != "week" for a in taken) and not m["d3"]:
            name, number = (m["m"], m["d"]) if m["m"] else (m["m2"], m["d2"])
            month = words.MONTH_NAMES.get(name) or words.MONTH_ABBREVIATIONS.get(name)
            recent = day_of_month_recent(month, int(number), today) if month else None
            if month is None or recent is None:
                continue

            def in_year(y: int, month: int = month, number: int = int(number)) -> Span | None:
                found = make_date(y, month, number)
                return day(found) if found else None

            start = m.start("m") if m["m"] else m.start("d2")
            out.append(Found(start, m.end(), day(recent), "day", RANK_MONTH_DAY, in_year=in_year, repeats="year"))
        out.remove(f)
    return out
