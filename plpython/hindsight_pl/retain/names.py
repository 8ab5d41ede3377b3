"""Names: the proper-noun spans and quoted names of a passage that are entities (``find_names``), told from sentence
openers, dates, holidays, time zones and shouting; the bank's known names tell a name from a sentence's first word.
The offline extractor's entities (:mod:`hindsight_pl.retain.extract`)."""

from __future__ import annotations

import re
from collections.abc import Iterable

from ..temporal import chinese, named_days, words
from .sentences import AUXILIARIES, IRREGULAR_PAST, LINKING, NOT_PAST_ED, WORD, base_verb, split_sentences

_QUOTED = re.compile(r"[\"“]([^\"“”\n]{1,60})[\"”]|[「《『]([^」》』\n]{1,40})[」》』]")


# Words that start with a capital without naming anything: pronouns, determiners,
# greetings, time words, and words that open sentences. A span never starts or
# ends with one, and one alone is never an entity.
_NOT_NAMES = frozenset(
    """
    i i'm i'll i've i'd me my mine we us our you your yours he him his she her hers it its they them their
    everyone everybody someone somebody nobody anyone anybody nothing something everything people
    the a an this that these those there here what when where why how who whom whose which if then than
    but and or so also just now well oh hey hi hello bye goodbye thanks thank wow yes no yeah yep nope sure
    ok okay great good nice awesome cool sorry please maybe actually anyway congrats congratulations
    definitely absolutely totally really honestly lol haha omg btw yay aww ah um uh hmm happy merry
    fyi imo imho tbh idk asap
    after before during since until while as at in on of for with from to by about not let let's
    do does did is are was were be been have has had can could would should will shall may might must
    some any all every each many much most more few one two three first last next other another such
    today tonight tomorrow yesterday morning evening afternoon night week weekend month year
    monday tuesday wednesday thursday friday saturday sunday
    january february march april june july august september october november december
    spring summer autumn fall winter mr mrs ms dr prof sir madam mom dad mum
    """.split()
)


_POSSESSIVE = re.compile(r"['’]s$")


# Month and weekday abbreviations ("Feb", "Sep 9", "Tue"), from the query analyzer's vocabulary: dates, not
# names. Those that are also given names ("Jan", "Jun", "Sun") are dates only beside a number.
_MONTHS = [m for m in words.MONTH_NAMES if m in _NOT_NAMES or m == "may"]


_WEEKDAYS = [d for d in words.WEEKDAY_NAMES if d in _NOT_NAMES]


_DATE_ABBREVIATIONS = frozenset(
    {a for a in words.MONTH_ABBREVIATIONS if any(m.startswith(a) for m in _MONTHS)}
    | {d[:3] for d in _WEEKDAYS}
    | {"tues", "thur", "thurs"}
)


_GIVEN_NAME_DATES = frozenset({"jan", "jun", "sun"})


_NOT_NAMES = _NOT_NAMES | (_DATE_ABBREVIATIONS - _GIVEN_NAME_DATES)


# Holidays and named days ("Easter Monday", "Black Friday", "Valentine's day"), the query analyzer's names
# (hindsight_pl.temporal.named_days): times, not entities, matched case-insensitively at a span's start.
_HOLIDAY = re.compile(
    "(?:{})\\b".format("|".join(re.escape(n) for n in sorted(named_days.NAMES, key=len, reverse=True) if n.isascii())),
    re.IGNORECASE,
)


# Time zones written in capitals ("21:00 UTC", "9am PST"): parts of a time, not names.
_TIME_ZONES = frozenset(
    "utc gmt cet cest eet eest wet west bst ist est edt cst cdt mst mdt pst pdt akst akdt hst aest aedt acst awst"
    " jst kst nzst nzdt".split()
)


# Nouns that open a name ("Project Atlas", "Lake Tahoe") even at the start of a sentence.
_NAME_HEADS = frozenset(
    "project team operation mount mt lake river saint st university college school hotel club museum park"
    " camp studio cafe bank".split()
)


_ADJECTIVE_ENDINGS = ("able", "ible", "ful", "ous", "ive", "ly", "ing", "ed", "less", "est")


# Words that join capitalised words into one name ("Bank of America"); "and" joins two ("iOS and Android").
# lower-case words inside a name, between two capitalised ones: "Bank of America", "Casa do Largo", "Ana da Silva",
# "Ludwig van Beethoven", "Hamad bin Khalifa", "Villa della Rosa"
_CONNECT = frozenset("of & de van von der den ter ten da das do dos di della dei la le du del bin ibn al el".split())


# a lower-case particle joined by a hyphen to the capitalised rest of a name: "al-Farsi", "el-Sayed"
_HYPHEN_PARTICLES = frozenset({"al", "el", "ad", "ash", "as", "at", "az", "ibn", "bin", "abu", "ben"})


# a title kept with the name after it, as written ("Dr Okafor", "Prof. Lindqvist"); alone it is no name
_TITLES = frozenset({"mr", "mrs", "ms", "dr", "prof", "sir"})


def find_names(passage: str, known: Iterable[str] = ()) -> list[str]:
    """Proper-noun spans and quoted names in ``passage``, in order of appearance, without repeats.

    A span is a run of capitalised words (``of``, ``de`` ... may join them, ``and``
    separates two; a possessive 's is dropped; a number after a numbering noun or a
    version after a product stays: "Room 101", "PostgreSQL 11"). Not names: words
    that only open a sentence, common capitalised words (pronouns, greetings, days,
    months and their abbreviations), holidays ("Easter Monday", "Black Friday"), time
    zones ("UTC"), shouted words ("LIKE", "OMG") and single letters. A
    sentence-initial word alone counts only when it is ``known`` (the speaker, the
    caller's entities), capitalised elsewhere in the passage, the subject of a finite
    verb ("Ada flew") or a name addressed ("Rachel, can you ...").
    """
    known_lower = {k.strip().lower() for k in known if k.strip()}
    sentences = split_sentences(passage) if passage.strip() else []
    spans: list[tuple[str, bool, bool]] = []  # (name, starts its sentence, names an owner)
    for sentence in sentences:
        spans.extend(_capitalised_spans(sentence))
    inner = {name.lower() for name, initial, _ in spans if not initial}
    inner_words = {w for name in inner for w in name.split()}
    found: list[str] = []
    for name, initial, owner in spans:
        words = name.split()
        unknown = initial and name.lower() not in known_lower and name.lower() not in inner
        if initial and not unknown and len(words) == 1 and name.lower() not in inner:
            lower = name.lower().replace("’", "'")
            if base_verb(lower) or lower in IRREGULAR_PAST or _written_lower(name, passage):
                continue  # "See you soon", "Got it": known or not, a verb opening a sentence is none
        if unknown and len(words) > 1 and words[0].lower() not in _NAME_HEADS | inner_words | known_lower:
            rest = words[2:] if words[1].lower() in _CONNECT else words[1:]
            if " ".join(rest).lower() in known_lower or all(_acronym(w) for w in rest):
                # "Pictures of Biscuit", "External GDPR audit": a capital that only opens the sentence
                # before a name the bank knows, or before an abbreviation
                name, words, unknown = " ".join(rest), rest, False
        if unknown and owner:
            if len(words) == 1 and _written_lower(name, passage):
                continue  # "Blue's my fave ... the blue vase": a common word
        elif unknown:
            # a sentence's first word is capitalised anyway: a verb or an adjective there
            # ("Clickable Falcon") is not part of the name that follows
            first = words[0].lower().replace("’", "'")
            if len(words) == 1 and (not _subject_of_verb(name, passage) or _written_lower(name, passage)):
                continue  # "Blue's my fave ... the blue vase": a common word
            if (
                first not in inner_words
                and first not in _NAME_HEADS
                and first not in known_lower
                and (base_verb(first) or first in IRREGULAR_PAST or first.endswith(_ADJECTIVE_ENDINGS))
            ):
                name = " ".join(words[1:])
                if not name or name.isdigit():  # "Got paged", "Call 911": a verb or a number alone is no name
                    continue
        found.extend(_as_known(name, known_lower, passage, owner))
    quoted: list[str] = []
    for match in _QUOTED.finditer(passage):
        name = (match.group(1) or match.group(2) or "").strip(" ,.!?;:")
        if name and len(name.split()) <= 5 and (chinese.has_cjk(name) or name[:1].isupper()):
            quoted.append(name)
    quoted_lower = [f" {q.lower()} " for q in quoted]
    unique: dict[str, str] = {}
    for name in [*found, *quoted]:
        padded = f" {name.lower()} "
        if any(padded != q and padded in q for q in quoted_lower):
            continue  # "Hobbit" inside the quoted "The Hobbit"
        unique.setdefault(name.lower(), name)
    return list(unique.values())


# A name is one thing: the verb after it, if it is the subject, agrees with one ("Ada is", "Ada has").
_SINGULAR_FINITE = frozenset(
    "is was has does did will would shall should can could may might must 's 'll 'd isn't wasn't hasn't doesn't"
    " didn't won't wouldn't can't couldn't shouldn't mustn't".split()
)


# What may follow a name addressed at the start of a sentence ("Rachel, can you ...", "Sofia, the lookup ...").
_AFTER_ADDRESS = frozenset(
    "you can could would will please how what when where why which who let's lets the thanks thank do did are is"
    " have".split()
)


def _acronym(word: str) -> bool:
    """A word of two to four capital letters ("SDK", "GDPR", "NASA"): a technical term as often as a name; not a
    Roman numeral, a version ("Warrior II", "Henry VIII")."""
    return 2 <= len(word) <= 4 and word.isalpha() and word.isupper() and not re.fullmatch(r"[IVX]+", word)


def _as_known(name: str, known: set[str], passage: str, owner: bool) -> list[str]:
    """The names a capitalised span ``name`` of ``passage`` stands for, given the names the bank and the caller
    know (``known``, lower case): itself when known; an abbreviation ("SDK", "CI", "GDPR") only when known,
    an owner ("NASA's") or joined by and / or / & to a capitalised name ("Apple and IBM"), else none; a
    plural of a known name that name ("three Androids": "Android"); a run of known names each of them
    ("Android Google Pay": "Android", "Google Pay"); anything else itself."""
    lower = name.lower()
    if lower in known:
        return [name]
    words = name.split()
    if len(words) == 1 and _acronym(name):
        return [name] if owner or _joined_to_a_name(name, passage) else []
    if len(words) == 1 and lower.endswith("s") and lower[:-1] in known and not _POSSESSIVE.search(name):
        return [name[:-1]]
    parts = _known_parts(words, known)
    return parts if len(parts) > 1 else [name]


def _known_parts(words: list[str], known: set[str]) -> list[str]:
    """``words`` cut into known names, the longest first at each place; [] when some word is in none."""
    if not words:
        return []
    for end in range(len(words), 0, -1):
        head = " ".join(words[:end])
        if head.lower() in known:
            rest = _known_parts(words[end:], known)
            if rest or end == len(words):
                return [head, *rest]
    return []


def _joined_to_a_name(word: str, passage: str) -> bool:
    """Whether ``word`` is joined in ``passage`` by "and", "or" or "&" to a capitalised word that is not
    itself an abbreviation or a common word ("Apple and IBM", "IBM or Google"; not "SQL and DDL")."""
    w = re.escape(word)
    other = r"([^\W\d_][\w’'-]*)"
    for pattern in (rf"(?<![^\W\d_]){w}\s+(?:and|or|&)\s+{other}", rf"{other}\s+(?:and|or|&)\s+{w}(?![^\W\d_])"):
        for match in re.finditer(pattern, passage):
            neighbour = match.group(1)
            if _capitalised(neighbour) and not _acronym(neighbour) and _plain(neighbour) not in _NOT_NAMES:
                return True
    return False


def _written_lower(word: str, passage: str) -> bool:
    """Whether ``word`` appears in lower case in ``passage`` (a word opening a sentence is then a common one)."""
    lower = _POSSESSIVE.sub("", word).lower()
    if lower == _POSSESSIVE.sub("", word):
        return False
    return re.search(rf"(?<![^\W\d_]){re.escape(lower)}(?![^\W\d_])", passage) is not None


def _subject_of_verb(word: str, passage: str) -> bool:
    """Whether ``word`` opens a sentence of ``passage`` as a name: the subject of a finite verb in the singular
    ("Ada flew to Rome", "Biscuit and I will ..."; not "Comments welcome", "Dashboards are green", "Still
    working") or a name addressed ("Rachel, can you ...")."""
    opening = rf"(?:^|[.!?]\s+){re.escape(word)}"
    for match in re.finditer(rf"{opening}(?:\s+and\s+[^\W\d_]+)?\s+([^\W\d_]+(?:['’][a-z]+)?)", passage):
        following = match.group(1).lower().replace("’", "'")
        if match.group(0).lower().count(" and ") and following in AUXILIARIES | IRREGULAR_PAST:
            return True  # "Biscuit and I will": a plural verb after two subjects
        if following in _SINGULAR_FINITE or (following in IRREGULAR_PAST and following != "were"):
            return True
        if following.endswith("ed") and len(following) > 4 and following not in NOT_PAST_ED:
            return True
        # a verb in -s is as often a plural noun ("Critical fixes", "Row counts", "Forecast says"): not enough
    for match in re.finditer(rf"{opening},\s+([^\W\d_]+(?:['’][a-z]+)?)", passage):
        if match.group(1).lower().replace("’", "'") in _AFTER_ADDRESS:
            return True
    return False


def _capitalised_spans(sentence: str) -> list[tuple[str, bool, bool]]:
    """(name, opens the sentence, names an owner: "Tom's") of each capitalised span of ``sentence``."""
    tokens: list[tuple[str, int]] = []
    for m in WORD.finditer(sentence):  # "Counter-Strike", "Coca-Cola", "al-Farsi": one word
        joined = tokens and _capitalised(m.group(0)) and _gap(sentence, tokens[-1], (m.group(0), m.start())) == "-"
        if joined and (_capitalised(tokens[-1][0]) or tokens[-1][0] in _HYPHEN_PARTICLES):
            tokens[-1] = (sentence[tokens[-1][1] : m.end()], tokens[-1][1])
        else:
            tokens.append((m.group(0), m.start()))
    spans: list[tuple[str, bool, bool]] = []
    i = 0
    while i < len(tokens):
        if not _capitalised(tokens[i][0]):
            i += 1
            continue
        start = i
        j = i + 1
        while j < len(tokens) and not _POSSESSIVE.search(tokens[j - 1][0]):  # "Tom's Apple Pay": two names
            gap = _gap(sentence, tokens[j - 1], tokens[j]).strip()
            title_dot = gap == "." and tokens[j - 1][0].lower() in _TITLES  # "Dr. Okafor"
            if _capitalised(tokens[j][0]) and (not gap or title_dot):
                j += 1
            elif (tokens[j][0].lower() in _CONNECT and j + 1 < len(tokens) and _capitalised(tokens[j + 1][0])
                  and not _punctuation_between(sentence, tokens[j - 1], tokens[j])):  # fmt: skip
                j += 2
            else:
                break
        words = [t[0] for t in tokens[start:j]]
        owner = bool(_POSSESSIVE.search(words[-1]))  # "Tom's ..." names its owner
        # a word after "!" or "?" opens a sentence the segmenter left joined ("Yum! Sounds great.")
        initial = start == 0 or bool(_AFTER_EXCLAMATION.search(sentence, 0, tokens[start][1]))
        first = start
        while words:
            if words[0].lower() in _TITLES and len(words) > 1 and _plain(words[1]) not in _NOT_NAMES:
                break  # "Dr Okafor": the title stays, as written
            if _plain(words[0]) in _NOT_NAMES or words[0].lower() in _CONNECT:  # "When do Tom ...": not "do Tom"
                drop = 1
            elif holiday := _HOLIDAY.match(sentence.replace("’", "'"), tokens[start][1]):
                # "Black Friday", "Easter Monday", "Valentine's day": the tokens the holiday's name covers
                drop = sum(1 for _, at in tokens[start:] if at < holiday.end())
                j = max(j, start + drop)
            else:
                break
            del words[:drop]
            initial = False if words else initial
            start += drop
        whole = bool(words)
        while words and (_plain(words[-1]) in _NOT_NAMES or words[-1].lower() in _CONNECT):
            words.pop()
            whole = False
        if len(words) == 1 and _not_a_name_here(words[0], sentence, tokens, start, j):
            words = []
        if words:
            # names keep their numbers: "Room 101", "iPhone 15", "Python 3.12", "the 2024 Tax Return"
            number = _number_after(sentence, tokens, j, words[-1]) if whole else None
            if number is not None and not _POSSESSIVE.search(words[-1]):
                words.append(number[0])
                j = number[1]
            if start == first and _number_before(sentence, tokens, start):
                words.insert(0, tokens[start - 1][0])
                start -= 1
            name = _POSSESSIVE.sub("", _written(sentence, tokens, start, words))
            if len(name) > 1 and not name.isdigit():
                spans.append((name, initial and start == first, owner))
        i = j
    return spans


_AFTER_EXCLAMATION = re.compile(r"[!?]+['\"”’)]*\s+$")


# Nouns that a number names things by ("Room 101", "Flight 202", "Gate 4"), whatever follows it.
_NUMBERED = frozenset(
    "room flight gate platform terminal building floor suite apartment apt unit ticket issue bug case order invoice"
    " version release model series route bus train line highway interstate chapter section table figure page level"
    " season episode phase sprint grade class lot bay dock pier track hall ward bed seat row zone block sector lab"
    " wing locker box exit".split()
)


_DETERMINERS = frozenset("the my our your his her their its this that a an these those".split())


def _number_after(sentence: str, tokens: list[tuple[str, int]], j: int, last: str) -> tuple[str, int] | None:
    """The number that ends a name whose last word is ``last`` and whose next token is ``tokens[j]``: its
    text ("101", "3.12", "15") and the index of the token after it; None when ``tokens[j]`` is not a
    number of the name. A number after a noun of numbering ("Room", "Flight") belongs to the name;
    after a product's name written in mixed case, always ("PostgreSQL 11 box", "iPhone 15 case"); after
    another name only when no lower-case word follows it ("Falcon 1.2.", but "paid Ana 50 dollars")."""
    if j >= len(tokens) or not tokens[j][0][:1].isdigit() or _punctuation_between(sentence, tokens[j - 1], tokens[j]):
        return None
    end = j + 1
    while end < len(tokens) and tokens[end][0][:1].isdigit() and _gap(sentence, tokens[end - 1], tokens[end]) in ".-":
        end += 1  # "3.12", "12-B"
    number = sentence[tokens[j][1] : tokens[end - 1][1] + len(tokens[end - 1][0])]
    if last.lower() in _NUMBERED or _mixed_case(last):
        return number, end  # "Room 101 is", "PostgreSQL 11 box"
    if end == len(tokens) or _punctuation_between(sentence, tokens[end - 1], tokens[end]):
        return number, end
    following = tokens[end][0]
    if _capitalised(following) or _plain(following) in _NOT_NAMES or following.lower() in _CONNECT:
        return number, end
    return None


def _number_before(sentence: str, tokens: list[tuple[str, int]], start: int) -> bool:
    """Whether a number opens the name at ``tokens[start]``: a year or count right before it, at the start of
    the sentence or after a determiner ("the 2024 Tax Return", not "In 2024 Ana moved")."""
    if start == 0 or not tokens[start - 1][0].isdigit():
        return False
    if _punctuation_between(sentence, tokens[start - 1], tokens[start]):
        return False
    return start == 1 or tokens[start - 2][0].lower() in _DETERMINERS


def _not_a_name_here(word: str, sentence: str, tokens: list[tuple[str, int]], start: int, end: int) -> bool:
    """Whether a one-word span ``tokens[start:end]`` is, where it stands, no name: a given name that is also
    a date beside a number ("Jan 5", "on 3 Jun"), a unit in capitals after a number ("30 GB"), or an
    adjective of a people or country between a determiner and a noun ("the Italian place", "that new
    Georgian place")."""
    lower = word.lower()
    if lower in _GIVEN_NAME_DATES and _beside_number(sentence, tokens, start, end):
        return True
    if word.isupper() and start > 0 and tokens[start - 1][0].isdigit():
        return _gap(sentence, tokens[start - 1], tokens[start]) == " "
    if not lower.endswith(("ese", "ish", "ian")) or start == 0 or end == len(tokens):
        return False
    return tokens[start - 1][0].lower() in _DETERMINERS | {"new", "old"} and tokens[end][0].islower()


def _beside_number(sentence: str, tokens: list[tuple[str, int]], start: int, end: int) -> bool:
    """Whether a number is next to ``tokens[start:end]`` in ``sentence`` (no punctuation between)."""
    before = start > 0 and tokens[start - 1][0].isdigit() and not _punctuation_between(
        sentence, tokens[start - 1], tokens[start])  # fmt: skip
    after = end < len(tokens) and tokens[end][0][:1].isdigit() and not _punctuation_between(
        sentence, tokens[end - 1], tokens[end])  # fmt: skip
    return before or after


def _mixed_case(word: str) -> bool:
    """A capital after a lower-case letter: a product's way of writing ("PostgreSQL", "iPhone", "macOS")."""
    return bool(re.search(r"[^\W\d_]*[a-z][^\W\d_]*[A-Z]", word))


def _plain(word: str) -> str:
    """A word for the stop list: lower case, straight apostrophe, no plural -s ("Saturdays"), no
    contraction of a stop word ("She's", "What's", "We'll", "They're"), and "not" for a negated verb."""
    lower = word.lower().replace("’", "'")
    if lower.endswith("n't"):
        return "not"  # "Don't", "Can't": a negated verb is never a name
    for suffix in ("'s", "'ll", "'re", "'ve", "'d", "'m"):
        if lower.endswith(suffix) and lower[: -len(suffix)] in _NOT_NAMES:
            return lower[: -len(suffix)]
    return lower[:-1] if lower.endswith("s") and lower[:-1] in _NOT_NAMES and len(lower) > 3 else lower


def _capitalised(word: str) -> bool:
    """A capitalised word, or one with a capital inside ("iPhone", "eBay"), that is not "I", a time zone
    ("UTC") or a shouted common word ("LIKE", "OMG", "AMAZING")."""
    if word.isupper() and len(word) > 1 and _shouted_or_zone(word.lower().replace("’", "'")):
        return False
    if re.fullmatch(r"[A-Z]{2,}s|Q[1-4]", word):  # "PKs", "APIs": a plural of a common noun; "Q2": a quarter
        return False
    if word[:1].islower() and any(c.isupper() for c in word[1:]) and "'" not in word and "’" not in word:
        return True
    return word[:1].isupper() and word.lower().replace("’", "'") not in {"i", "i'm", "i'll", "i've", "i'd"}


def _shouted_or_zone(lower: str) -> bool:
    """Whether a word written in capitals, given in lower case, is a time zone or a common word shouted."""
    if lower in _TIME_ZONES or _plain(lower) in _NOT_NAMES or lower in AUXILIARIES or lower in IRREGULAR_PAST:
        return True
    return base_verb(lower) or lower in LINKING or (len(lower) > 4 and lower.endswith(_ADJECTIVE_ENDINGS))


def _written(sentence: str, tokens: list[tuple[str, int]], start: int, words: list[str]) -> str:
    """``words`` (the tokens from ``start`` on, a number perhaps added) joined by spaces, but a title's dot kept as
    written: "Dr. Okafor"."""
    out = words[0]
    for k in range(1, len(words)):
        left, right = start + k - 1, start + k
        dot = (right < len(tokens) and tokens[left][0] == words[k - 1] and tokens[right][0] == words[k]
               and _gap(sentence, tokens[left], tokens[right]).strip() == ".")  # fmt: skip
        out += (". " if dot else " ") + words[k]
    return out


def _gap(sentence: str, left: tuple[str, int], right: tuple[str, int]) -> str:
    return sentence[left[1] + len(left[0]) : right[1]]


def _punctuation_between(sentence: str, left: tuple[str, int], right: tuple[str, int]) -> bool:
    return bool(_gap(sentence, left, right).strip())
