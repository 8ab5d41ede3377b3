"""Fact extraction: from a retained item's chunks to the facts stored as memory units.

The extractors share one interface (:class:`Extractor`); a bank picks one with its
``extractor`` config key. This module runs in the driver and inside the database
(``hindsight.retain_text``):

* :class:`OfflineExtractor` (default): deterministic rules, no network. Facts are
  conversational turns or groups of one to three sentences; dates come from the
  query analyzer's rules (``hindsight_pl.temporal``); entities are the speaker, the
  caller's names, and proper-noun spans and quoted names in the text.
* :class:`VerbatimExtractor`: each chunk is one fact as written (no dates), the
  "one memory per turn" protocol of the LoCoMo literature.
* ``hindsight_pg.LLMExtractor`` (the driver only): any OpenAI-compatible chat-completions
  endpoint.

docs/retain.md describes them.
"""

from __future__ import annotations

import re
import threading
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from functools import lru_cache
from typing import Any, Protocol

from . import limits, text
from .temporal import chinese, facts, named_days, words

# A conversational turn: "Name: what they said" (up to four words of name).
_TURN = re.compile(r"^\s*(?P<speaker>[^\W\d_][^\n:：.!?\"]{0,39}?)\s*[:：]\s*(?P<said>(?!//)\S.*)$")
_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)*")
_CJK_SENTENCE = re.compile(r"[^。！？!?]+[。！？!?]*")
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
# Words that tie a sentence to the one before ("It was ...", "But ..."): such a
# sentence stays in the same fact.
_LINKING = frozenset(
    "he she it they this that these those his her their its there but and so also then because which"
    " which too still yet".split()
)

# A sentence of English without any of these is a fragment ("Hey Mel!", "Wow, so cool.").
_AUXILIARIES = frozenset(
    """
    am is are was were be been being have has had having do does did done will would shall should can could
    may might must 's 're 've 'm 'll 'd n't ain't gonna wanna gotta let's
    """.split()
)
_VERBS = frozenset(
    """
    accept add admire agree allow answer appear apply arrive ask attend avoid bake be bear beat become begin
    deploy hire launch merge migrate release review ship sign test
    believe belong bet bike bite blow book borrow bother break breathe bring build burn buy call camp care carry
    catch celebrate change chat check choose clean climb close coach collect come compete cook cost count cover
    create cry cut dance date deal decide design die dig dine discover do donate draw dream dress drink drive
    drop earn eat educate enjoy enter escape excite exercise expect experience explain explore face fall feel
    fight figure fill find finish fish fit fix fly focus follow forget forgive freeze garden get give go grab
    graduate grow guess hang happen hate have head hear help hide hike hit hold hope host hug hurt imagine
    improve include inspire intend invite join jog joke jump keep kick kill kiss knit know land last laugh lead
    learn leave lend let lie like listen live look lose love make manage marry mean meet mind miss move need
    note notice offer open order organize own paint park pass pay perform pick plan plant play practice prefer
    prepare present pretend print promise protect prove publish pull push put quit rain raise reach read
    realize receive recommend record recover relax remember remind rent repair reply report rescue rest return
    ride ring rise run save say see seem sell send serve set settle shake share shine shoot shop show shut sing
    sink sit ski skate sleep smell smile snow solve speak spend stand start stay steal stick stop study succeed
    suggest support suppose surf surprise swim take talk taste teach tell tend think throw tour train
    travel treat try turn understand use visit volunteer vote wait wake walk want warn wash watch wear welcome
    win wish wonder work worry write
    """.split()
)
_IRREGULAR_PAST = frozenset(
    """
    ate became began bit blew bought brought built burnt came caught chose could did drank drew drove fed felt
    fought found flew forgot froze gave got went grew had heard held hid kept knew laid led left lent
    lost made meant met paid ran rang rode rose said sang sat saw sent shook shot showed
    slept sold spent spoke stood stole stuck swam taught thought threw told took tore understood was were
    woke won wore wrote
    """.split()
)
_NOT_VERBS_ING = frozenset(
    "thing something nothing anything everything morning evening ceiling during wedding building king ring"
    " spring sibling darling pudding painting meeting feeling".split()
)
_ONE_YEAR = timedelta(days=365)
_NOT_PAST_ED = frozenset("need feed red bed seed speed indeed hundred breed shed weed".split())


@dataclass
class Fact:
    """One extracted fact: the text stored as a memory unit and what it is about.

    ``chunk_index`` names the item's chunk it came from; ``occurred_start`` /
    ``occurred_end`` (aware, UTC) are set for an event fact with a time expression;
    ``caused_by`` holds indexes of the item's other facts that caused this one; ``context``: the Markdown
    headings it was written under ("Trip › Flights"), None outside any.
    """

    text: str
    chunk_index: int
    fact_type: str = "world"
    entities: list[str] = field(default_factory=list)
    occurred_start: datetime | None = None
    occurred_end: datetime | None = None
    caused_by: list[int] = field(default_factory=list)
    context: str | None = None


class Extractor(Protocol):
    """Turns one item's chunks into facts. Implementations: OfflineExtractor, LLMExtractor."""

    def extract(
        self,
        chunks: Sequence[str],
        *,
        timestamp: datetime,
        entities: Sequence[str] = (),
        speaker: str | None = None,
    ) -> list[Fact]:
        """The facts of ``chunks`` (in order), said at ``timestamp`` (aware) by ``speaker`` if known."""
        ...


def is_fact(candidate: str) -> bool:
    """Whether ``candidate`` may be stored as a fact: it has a letter or digit (not empty, not punctuation only)."""
    return text.is_meaningful(candidate.strip())


def normalise(candidate: str) -> str:
    """Text for duplicate detection: case-folded letters and digits, single spaces."""
    folded = unicodedata.normalize("NFKC", candidate).casefold()
    return " ".join(re.findall(r"[^\W_]+", folded))


def has_verb(sentence: str) -> bool:
    """Whether a sentence reads as a clause rather than a fragment.

    A clause has an auxiliary, a common English verb in any inflection, an
    irregular past, a word in -ed/-ing, more than four words (a verb the
    lists lack, or another language) or a verb the dating rules know in another
    language (``temporal.facts.has_tense``: "On part lundi."); Chinese and Japanese need four characters
    or more (no rule here can tell their verbs apart).
    """
    if chinese.has_cjk(sentence):
        return sum(1 for ch in sentence if chinese.has_cjk(ch)) >= 4
    words = [w.lower().replace("’", "'") for w in _WORD.findall(sentence)]
    for word in words:
        if word in _AUXILIARIES or word in _IRREGULAR_PAST or _base_verb(word):
            return True
        if "'" in word and word.split("'", 1)[1] in {"s", "re", "ve", "m", "ll", "d", "t"}:
            return True
        if len(word) > 4 and word not in _NOT_VERBS_ING and (word.endswith("ed") or word.endswith("ing")):
            return True
    # no verb this list knows: a short line is a fragment ("Happy new year everyone!"); a
    # longer one has a verb the list lacks ("Atlas ships the new API in May."); a short one in
    # another language may have one the dating rules know ("On part lundi.")
    return len(words) > 4 or facts.has_tense(sentence)


@lru_cache(maxsize=4096)
def _base_verb(word: str) -> bool:
    if word in _VERBS:
        return True
    for suffix, repl in (("ies", "y"), ("es", ""), ("s", ""), ("ied", "y"), ("ed", ""), ("ed", "e"), ("ing", ""),
                         ("ing", "e")):  # fmt: skip
        if word.endswith(suffix) and word[: -len(suffix)] + repl in _VERBS:
            return True
    return False


def split_sentences(passage: str) -> list[str]:
    """Sentences of a passage: pysbd for alphabetic text (a day number stays with the month after it: "am
    4. Januar"), 。！？ for Chinese and Japanese."""
    if chinese.has_cjk(passage):
        return [s.strip() for s in _CJK_SENTENCE.findall(passage) if s.strip()]
    sentences: list[str] = []
    for s in _segmenter().segment(passage):
        if sentences and _ORDINAL_END.search(sentences[-1]) and _MONTH_START.match(s.strip()):
            sentences[-1] = f"{sentences[-1]} {s.strip()}"  # "am 4. Januar": a German date, not two sentences
        elif s.strip():
            sentences.append(s.strip())
    return sentences


_ORDINAL_END = re.compile(r"(?<![\d.])\d{1,2}\.$")
_MONTH_START = re.compile(rf"(?:{'|'.join(sorted(words.MONTH_NAMES, key=len, reverse=True))})\b", re.IGNORECASE)


_PER_THREAD = threading.local()


def _segmenter() -> Any:
    """This thread's pysbd segmenter: a Segmenter keeps the text it is splitting on itself, so two
    threads sharing one get each other's sentences (or none: facts silently lost)."""
    segmenter = getattr(_PER_THREAD, "segmenter", None)
    if segmenter is None:
        import pysbd  # about 0.1 s to import

        segmenter = _PER_THREAD.segmenter = pysbd.Segmenter(language="en", clean=False)
    return segmenter


def group_sentences(sentences: Sequence[str], whole: bool = False) -> list[str]:
    """Sentences grouped into facts of one to three.

    A fragment without a verb joins the next sentence (the last one joins the one
    before); a sentence that opens with a linking word ("It", "But", "They") stays
    with the one before. With ``whole`` (a conversational turn: a chat message), three
    clauses or fewer are one fact ("got the offer!! start date jan 12" keeps its subject
    beside its date). A passage of fragments only is one fact as written ("vienna!!
    6-7 aug"): nothing said is dropped.
    """
    clauses: list[str] = []
    pending = ""
    for sentence in sentences:
        joined = f"{pending} {sentence}".strip() if pending else sentence
        if has_verb(sentence):
            clauses.append(joined)
            pending = ""
        else:
            pending = joined
    if pending:
        if not clauses:
            return [pending]
        clauses[-1] = f"{clauses[-1]} {pending}"
    if whole and len(clauses) <= 3:
        return [" ".join(clauses)] if clauses else []
    groups: list[list[str]] = []
    for clause in clauses:
        first = _WORD.findall(clause)[:1]
        linked = bool(first) and first[0].lower() in _LINKING
        if groups and linked and len(groups[-1]) < 3:
            groups[-1].append(clause)
        else:
            groups.append([clause])
    return [" ".join(g) for g in groups]


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
            if _base_verb(lower) or lower in _IRREGULAR_PAST or _written_lower(name, passage):
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
                and (_base_verb(first) or first in _IRREGULAR_PAST or first.endswith(_ADJECTIVE_ENDINGS))
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
        if match.group(0).lower().count(" and ") and following in _AUXILIARIES | _IRREGULAR_PAST:
            return True  # "Biscuit and I will": a plural verb after two subjects
        if following in _SINGULAR_FINITE or (following in _IRREGULAR_PAST and following != "were"):
            return True
        if following.endswith("ed") and len(following) > 4 and following not in _NOT_PAST_ED:
            return True
        # a verb in -s is as often a plural noun ("Critical fixes", "Row counts", "Forecast says"): not enough
    for match in re.finditer(rf"{opening},\s+([^\W\d_]+(?:['’][a-z]+)?)", passage):
        if match.group(1).lower().replace("’", "'") in _AFTER_ADDRESS:
            return True
    return False


def _capitalised_spans(sentence: str) -> list[tuple[str, bool, bool]]:
    """(name, opens the sentence, names an owner: "Tom's") of each capitalised span of ``sentence``."""
    tokens: list[tuple[str, int]] = []
    for m in _WORD.finditer(sentence):  # "Counter-Strike", "Coca-Cola", "al-Farsi": one word
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
    if lower in _TIME_ZONES or _plain(lower) in _NOT_NAMES or lower in _AUXILIARIES or lower in _IRREGULAR_PAST:
        return True
    return _base_verb(lower) or lower in _LINKING or (len(lower) > 4 and lower.endswith(_ADJECTIVE_ENDINGS))


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


class OfflineExtractor:
    """Rule-based extraction: deterministic, offline, a few milliseconds per item.

    ``agent_name``: a speaker (or item ``speaker``) of that name (case-insensitive)
    is the agent itself, so its facts are ``experience``; others are ``world``.
    ``time_zone`` and ``hemisphere`` give relative dates their days (as in
    ``hindsight.parse_temporal``).
    """

    def __init__(self, *, agent_name: str = "assistant", time_zone: str = "UTC", hemisphere: str = "north") -> None:
        self.agent_name = agent_name.strip().lower()
        self.time_zone = time_zone
        self.hemisphere = hemisphere

    def extract(
        self,
        chunks: Sequence[str],
        *,
        timestamp: datetime,
        entities: Sequence[str] = (),
        speaker: str | None = None,
        known: Iterable[str] = (),
        headings: Sequence[Headings] | None = None,
    ) -> list[Fact]:
        """The facts of ``chunks``; ``known``: names the bank already holds (:func:`find_names`), to which each
        fact adds its own for the facts after it. Markdown headings are no facts: each fact's ``context`` is the
        headings it is under (:func:`sections`; ``headings``: those open where each chunk starts, when the chunks
        are not the whole text, else carried from chunk to chunk)."""
        facts: list[Fact] = []
        seen = {k.lower() for k in known}
        carried: Headings = ()
        for index, chunk in enumerate(chunks):
            limits.checkpoint()  # a cancel takes effect between chunks (docs/reliability.md)
            parts, carried = sections(chunk, headings[index] if headings is not None else carried)
            for under, part in parts:
                for who, passage, is_turn in _blocks(part, speaker):
                    names = [*entities, *([who] if who else [])]
                    for group in group_sentences(split_sentences(passage), whole=is_turn):
                        if is_fact(group):
                            facts.append(self._fact(group, index, who, is_turn, names, timestamp, seen))
                            facts[-1].context = HEADING_JOIN.join(title for _, title in under) or None
                            seen.update(e.lower() for e in facts[-1].entities)
        return facts

    def read(self, said: str, timestamp: datetime, known: Iterable[str] = ()) -> Fact:
        """``said`` read as one fact of chunk 0 (a memory's new text: ``hindsight.update_memory``): the names
        it holds of ``known`` (case-insensitive, as written in ``known``) and the ones it names itself
        (:func:`find_names`), and the dates it gives as of ``timestamp`` (aware), as :meth:`extract` reads a
        fact's. Never raises for a text :func:`is_fact` refuses."""
        known = [k for k in known if k and k.strip()]
        blocks = _blocks(said)  # a turn ("Name: ...") is read as extract reads one: the speaker, then what was said
        who, passage, is_turn = blocks[0] if len(blocks) == 1 else (None, said, False)
        fact = self._fact(passage, 0, who, is_turn, [who] if who else [], timestamp, known)
        fact.text = said
        held = [k for k in known if k.strip().lower() in said.lower()]
        names: dict[str, str] = {}
        for name in [*held, *fact.entities]:
            names.setdefault(name.strip().lower(), name.strip())
        fact.entities = list(names.values())
        return fact

    def _fact(
        self,
        said: str,
        index: int,
        who: str | None,
        is_turn: bool,
        names: list[str],
        timestamp: datetime,
        known: Iterable[str] = (),
    ) -> Fact:
        found = find_names(said, known=[*names, *known])
        entities: dict[str, str] = {}
        for name in [*names, *found]:
            entities.setdefault(name.lower(), name)
        fact = Fact(
            text=f"{who}: {said}" if is_turn else said,
            chunk_index=index,
            fact_type="experience" if who and who.strip().lower() == self.agent_name else "world",
            entities=list(entities.values()),
        )
        # each date read from its own clause: "Starts April 1st" said in February is the coming one
        # (hindsight_pl.temporal.facts, docs/retain.md "Dates")
        window = facts.statement_window(said, timestamp, self.time_zone, self.hemisphere)
        if window is not None and _open_ended(*window):
            window = None  # "wireframes by Friday": a deadline, not the decade before it a question would search
        if window is not None:
            fact.occurred_start, fact.occurred_end = (w.astimezone(UTC) for w in window)
        return fact


class VerbatimExtractor:
    """One fact per chunk, its text as given: no splitting and no dates (only ``mentioned_at``).

    Entities are the caller's, the speaker (``speaker`` or a leading ``Name:``) and the
    names :func:`find_names` finds; the fact is ``experience`` when the speaker is
    ``agent_name`` (case-insensitive). Chunks with no letter or digit give no fact.
    """

    def __init__(self, *, agent_name: str = "assistant") -> None:
        self.agent_name = agent_name.strip().lower()

    def extract(
        self,
        chunks: Sequence[str],
        *,
        timestamp: datetime,
        entities: Sequence[str] = (),
        speaker: str | None = None,
        known: Iterable[str] = (),
    ) -> list[Fact]:
        """One fact per chunk; ``known``: names the bank already holds (:func:`find_names`), to which each
        fact adds its own for the chunks after it."""
        facts = []
        seen = {k.lower() for k in known}
        for index, chunk in enumerate(chunks):
            limits.checkpoint()  # a cancel takes effect between chunks (docs/reliability.md)
            said = chunk.strip()
            if not is_fact(said):
                continue
            turn = None if speaker else _TURN.match(said)  # the item's speaker said all of it, "Updated: ..." too
            is_turn = bool(turn and len(turn.group("speaker").split()) <= 4)
            who = turn.group("speaker").strip() if turn and is_turn else speaker
            body = turn.group("said") if turn and is_turn else said
            names: dict[str, str] = {}
            said_by = [who] if who else []
            for name in [*entities, *said_by, *find_names(body, known=[*entities, *said_by, *seen])]:
                names.setdefault(name.lower(), name)
            seen.update(names)
            fact_type = "experience" if who and who.lower() == self.agent_name else "world"
            facts.append(Fact(text=said, chunk_index=index, fact_type=fact_type, entities=list(names.values())))
        return facts


# An ATX heading of Markdown (CommonMark 4.2): up to three spaces, one to six #, a space, the title, optional
# closing #s.
_HEADING = re.compile(r"^ {0,3}(#{1,6})[ \t]+(.+?)(?:[ \t]+#+)?[ \t]*$")
HEADING_JOIN = " › "

Headings = tuple[tuple[int, str], ...]  # the headings open at a point of a text: (level, title), outermost first


def sections(chunk: str, open_headings: Headings = ()) -> tuple[list[tuple[Headings, str]], Headings]:
    """``chunk`` cut at its Markdown headings: the text under each heading (blank parts dropped) with the
    headings it is under (``open_headings``: those open where the chunk starts; a heading closes the ones of its
    level and deeper), and the headings open at its end. A text without headings is one part."""
    parts: list[tuple[Headings, str]] = []
    current, lines = open_headings, []
    for line in chunk.splitlines():
        heading = _HEADING.match(line)
        if heading is None:
            lines.append(line)
            continue
        if "\n".join(lines).strip():
            parts.append((current, "\n".join(lines)))
        level = len(heading.group(1))
        current, lines = (*(h for h in current if h[0] < level), (level, heading.group(2).strip())), []
    if "\n".join(lines).strip():
        parts.append((current, "\n".join(lines)))
    return parts, current


def opening_headings(chunks: Sequence[str]) -> list[Headings]:
    """The Markdown headings open where each chunk starts (:func:`sections`), so that a chunk read alone (one a
    document retained again changed) is under the headings the chunks before it opened."""
    opening: list[Headings] = []
    current: Headings = ()
    for chunk in chunks:
        opening.append(current)
        current = sections(chunk, current)[1]
    return opening


def _open_ended(start: datetime, end: datetime) -> bool:
    """Whether a window is an open end ("by Friday", "before 2020", "since 2019" said of the future): more
    than five years long and not a decade ("in the 1990s" starts on 1 January of a year ending in 0)."""
    named_decade = start.month == 1 and start.day == 1 and start.year % 10 == 0
    return end - start > 5 * _ONE_YEAR and not named_decade


def _blocks(chunk: str, speaker: str | None = None) -> list[tuple[str | None, str, bool]]:
    """(speaker, passage, is_turn) per block of a chunk: a line "Name: ..." opens a turn; other
    lines continue the block before, until a blank line; prose blocks have no speaker. With the item's
    ``speaker``, every paragraph is a turn of theirs, a leading "Word:" included ("Updated: the trip is
    in May" said by the assistant is the assistant's)."""
    if speaker:
        paragraphs = re.split(r"\n\s*\n", chunk)
        return [(speaker, " ".join(line.strip() for line in p.splitlines() if line.strip()), True)
                for p in paragraphs if p.strip()]  # fmt: skip
    blocks: list[tuple[str | None, list[str], bool]] = []
    closed = True
    for line in chunk.splitlines():
        if not line.strip():
            closed = True
            continue
        match = _TURN.match(line)
        if match and len(match.group("speaker").split()) <= 4:
            blocks.append((match.group("speaker").strip(), [match.group("said").strip()], True))
        elif blocks and not closed:
            blocks[-1][1].append(line.strip())
        else:
            blocks.append((None, [line.strip()], False))
        closed = False
    return [(who, " ".join(lines), is_turn) for who, lines, is_turn in blocks]
