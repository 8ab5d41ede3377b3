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
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from functools import lru_cache
from typing import Protocol

from . import temporal, temporal_zh, text

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
    definitely absolutely totally really honestly lol haha omg btw yay aww ah um uh hmm
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
# Nouns that open a name ("Project Atlas", "Lake Tahoe") even at the start of a sentence.
_NAME_HEADS = frozenset(
    "project team operation mount mt lake river saint st university college school hotel club museum park"
    " camp studio cafe bank".split()
)
_ADJECTIVE_ENDINGS = ("able", "ible", "ful", "ous", "ive", "ly", "ing", "ed", "less", "est")
_CONNECT = frozenset({"of", "and", "&", "de", "van", "von", "der", "da", "la", "le", "du", "del"})
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
_HALF_YEAR = timedelta(days=182)
_ONE_YEAR = timedelta(days=365)
# A year, or words that put the time in the past on purpose ("two years ago", "last
# March", "yesterday"), or a verb in the past tense.
_EXPLICIT_PAST = re.compile(
    r"\b(?:1[0-9]{3}|2[0-9]{3})\b|\b(?:ago|yesterday|previous|earlier|since)\b"
    r"|\blast (?:night|week|weekend|month|year|time|spring|summer|fall|autumn|winter|[a-z]+day"
    r"|january|february|march|april|may|june|july|august|september|october|november|december)\b"
    r"|前|上个|去年|昨",
    re.IGNORECASE,
)
_NOT_PAST_ED = frozenset("need feed red bed seed speed indeed hundred breed shed weed".split())


@dataclass
class Fact:
    """One extracted fact: the text stored as a memory unit and what it is about.

    ``chunk_index`` names the item's chunk it came from; ``occurred_start`` /
    ``occurred_end`` (aware, UTC) are set for an event fact with a time expression;
    ``caused_by`` holds indexes of the item's other facts that caused this one.
    """

    text: str
    chunk_index: int
    fact_type: str = "world"
    entities: list[str] = field(default_factory=list)
    occurred_start: datetime | None = None
    occurred_end: datetime | None = None
    caused_by: list[int] = field(default_factory=list)


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
    irregular past, a word in -ed/-ing, or more than four words (a verb the
    lists lack, or another language); Chinese and Japanese need four characters
    or more (no rule here can tell their verbs apart).
    """
    if temporal_zh.has_cjk(sentence):
        return sum(1 for ch in sentence if temporal_zh.has_cjk(ch)) >= 4
    words = [w.lower().replace("’", "'") for w in _WORD.findall(sentence)]
    for word in words:
        if word in _AUXILIARIES or word in _IRREGULAR_PAST or _base_verb(word):
            return True
        if "'" in word and word.split("'", 1)[1] in {"s", "re", "ve", "m", "ll", "d", "t"}:
            return True
        if len(word) > 4 and word not in _NOT_VERBS_ING and (word.endswith("ed") or word.endswith("ing")):
            return True
    # no verb this list knows: a short line is a fragment ("Happy new year everyone!"); a
    # longer one has a verb the list lacks ("Atlas ships the new API in May.")
    return len(words) > 4


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
    """Sentences of a passage: pysbd for alphabetic text, 。！？ for Chinese and Japanese."""
    if temporal_zh.has_cjk(passage):
        return [s.strip() for s in _CJK_SENTENCE.findall(passage) if s.strip()]
    return [s.strip() for s in _segmenter().segment(passage) if s.strip()]


@lru_cache(maxsize=1)
def _segmenter():  # type: ignore[no-untyped-def]
    import pysbd  # about 0.1 s to import

    return pysbd.Segmenter(language="en", clean=False)


def group_sentences(sentences: Sequence[str], whole: bool = False) -> list[str]:
    """Sentences grouped into facts of one to three.

    A fragment without a verb joins the next sentence (the last one joins the one
    before); a sentence that opens with a linking word ("It", "But", "They") stays
    with the one before. With ``whole`` (a conversational turn), three sentences or
    fewer are one fact. A passage of fragments only gives no fact.
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
            return []
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

    A span is a run of capitalised words (``of``, ``de``, ``&`` ... may join them,
    a possessive 's is dropped). Words that only open a sentence, common
    capitalised words (pronouns, greetings, days, months) and single letters are
    not names; a sentence-initial word counts only when it is ``known`` (the
    speaker, the caller's entities) or capitalised elsewhere in the passage.
    """
    known_lower = {k.lower() for k in known}
    sentences = split_sentences(passage) if passage.strip() else []
    spans: list[tuple[str, bool]] = []  # (name, starts its sentence)
    for sentence in sentences:
        spans.extend(_capitalised_spans(sentence))
    inner = {name.lower() for name, initial in spans if not initial}
    inner_words = {w for name in inner for w in name.split()}
    found: list[str] = []
    for name, initial in spans:
        words = name.split()
        if initial and name.lower() not in known_lower and name.lower() not in inner:
            # a sentence's first word is capitalised anyway: a verb or an adjective there
            # ("Clickable Falcon") is not part of the name that follows
            first = words[0].lower()
            if len(words) == 1 and not _subject_of_verb(name, passage):
                continue
            if (
                first not in inner_words
                and first not in _NAME_HEADS
                and first not in known_lower
                and (_base_verb(first) or first.endswith(_ADJECTIVE_ENDINGS))
            ):
                name = " ".join(words[1:])
        found.append(name)
    quoted: list[str] = []
    for match in _QUOTED.finditer(passage):
        name = (match.group(1) or match.group(2) or "").strip(" ,.!?;:")
        if name and len(name.split()) <= 5 and (temporal_zh.has_cjk(name) or name[:1].isupper()):
            quoted.append(name)
    quoted_lower = [f" {q.lower()} " for q in quoted]
    unique: dict[str, str] = {}
    for name in [*found, *quoted]:
        padded = f" {name.lower()} "
        if any(padded != q and padded in q for q in quoted_lower):
            continue  # "Hobbit" inside the quoted "The Hobbit"
        unique.setdefault(name.lower(), name)
    return list(unique.values())


def _subject_of_verb(word: str, passage: str) -> bool:
    """Whether ``word`` opens a sentence of ``passage`` as the subject of a verb ("Ada flew to Rome")."""
    for match in re.finditer(rf"(?:^|[.!?]\s+){re.escape(word)}\s+([^\W\d_]+(?:['’][a-z]+)?)", passage):
        following = match.group(1).lower().replace("’", "'")
        if following in _AUXILIARIES or following in _IRREGULAR_PAST or _base_verb(following):
            return True
        if following.endswith("ed") and len(following) > 4 and following not in _NOT_PAST_ED:
            return True
    return False


def _capitalised_spans(sentence: str) -> list[tuple[str, bool]]:
    tokens = [(m.group(0), m.start()) for m in _WORD.finditer(sentence)]
    spans: list[tuple[str, bool]] = []
    i = 0
    while i < len(tokens):
        if not _capitalised(tokens[i][0]):
            i += 1
            continue
        start = i
        j = i + 1
        while j < len(tokens) and not _POSSESSIVE.search(tokens[j - 1][0]):  # "Tom's Apple Pay": two names
            if _capitalised(tokens[j][0]) and not _punctuation_between(sentence, tokens[j - 1], tokens[j]):
                j += 1
            elif (tokens[j][0].lower() in _CONNECT and j + 1 < len(tokens) and _capitalised(tokens[j + 1][0])
                  and not _punctuation_between(sentence, tokens[j - 1], tokens[j])):  # fmt: skip
                j += 2
            else:
                break
        words = [t[0] for t in tokens[start:j]]
        initial = start == 0 and not _POSSESSIVE.search(words[-1])  # "Tom's ..." names its owner
        while words and _plain(words[0]) in _NOT_NAMES:
            words.pop(0)
            initial = False if words else initial
            start += 1
        while words and (_plain(words[-1]) in _NOT_NAMES or words[-1].lower() in _CONNECT):
            words.pop()
        if words:
            name = _POSSESSIVE.sub("", " ".join(words))
            if len(name) > 1 and not name.isdigit():
                spans.append((name, initial and start == 0))
        i = j
    return spans


def _plain(word: str) -> str:
    """A word for the stop list: lower case, straight apostrophe, no plural -s ("Saturdays")."""
    lower = word.lower().replace("’", "'")
    return lower[:-1] if lower.endswith("s") and lower[:-1] in _NOT_NAMES and len(lower) > 3 else lower


def _capitalised(word: str) -> bool:
    return word[:1].isupper() and word.lower().replace("’", "'") not in {"i", "i'm", "i'll", "i've", "i'd"}


def _punctuation_between(sentence: str, left: tuple[str, int], right: tuple[str, int]) -> bool:
    gap = sentence[left[1] + len(left[0]) : right[1]]
    return bool(gap.strip())


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
    ) -> list[Fact]:
        facts: list[Fact] = []
        for index, chunk in enumerate(chunks):
            for who, passage, is_turn in _blocks(chunk):
                who = who if is_turn else speaker
                names = [*entities, *([who] if who else [])]
                for group in group_sentences(split_sentences(passage), whole=is_turn):
                    if is_fact(group):
                        facts.append(self._fact(group, index, who, is_turn, names, timestamp))
        return facts

    def _fact(
        self, said: str, index: int, who: str | None, is_turn: bool, names: list[str], timestamp: datetime
    ) -> Fact:
        found = find_names(said, known=names)
        entities: dict[str, str] = {}
        for name in [*names, *found]:
            entities.setdefault(name.lower(), name)
        fact = Fact(
            text=f"{who}: {said}" if is_turn else said,
            chunk_index=index,
            fact_type="experience" if who and who.strip().lower() == self.agent_name else "world",
            entities=list(entities.values()),
        )
        window = temporal.parse_temporal(said, timestamp, self.time_zone, self.hemisphere)
        if window is not None:
            start, end = (w.astimezone(UTC) for w in window)
            if (end < timestamp - _HALF_YEAR and not _in_the_past(said)
                    and end + _ONE_YEAR - timestamp < timestamp - end):  # fmt: skip
                # "on April 7th" said in March: a date without a year is the nearest one,
                # not the past one a question would mean
                start, end = _add_year(start), _add_year(end)
            fact.occurred_start, fact.occurred_end = start, end
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
    ) -> list[Fact]:
        facts = []
        for index, chunk in enumerate(chunks):
            said = chunk.strip()
            if not is_fact(said):
                continue
            turn = _TURN.match(said)
            is_turn = bool(turn and len(turn.group("speaker").split()) <= 4)
            who = turn.group("speaker").strip() if turn and is_turn else speaker
            body = turn.group("said") if turn and is_turn else said
            names: dict[str, str] = {}
            for name in [*entities, *([who] if who else []), *find_names(body, known=entities)]:
                names.setdefault(name.lower(), name)
            fact_type = "experience" if who and who.lower() == self.agent_name else "world"
            facts.append(Fact(text=said, chunk_index=index, fact_type=fact_type, entities=list(names.values())))
        return facts


def _in_the_past(said: str) -> bool:
    """Whether a fact places its time in the past: an explicit cue, or a verb in the past tense."""
    if _EXPLICIT_PAST.search(said):
        return True
    words = _WORD.findall(said.lower())
    for i, word in enumerate(words):
        if word in ("was", "were", "did", "had"):
            return True
        if i and (words[i - 1] in ("is", "are", "am", "be") or words[i - 1].endswith(("'s", "'re", "’s", "’re"))):
            continue  # a passive in the present ("is scheduled for", "are set for")
        if word in _IRREGULAR_PAST or (word.endswith("ed") and len(word) > 4 and word not in _NOT_PAST_ED):
            return True
    return False


def _add_year(moment: datetime) -> datetime:
    try:
        return moment.replace(year=moment.year + 1)
    except ValueError:  # February 29th
        return moment.replace(year=moment.year + 1, day=28)


def _blocks(chunk: str) -> list[tuple[str | None, str, bool]]:
    """(speaker, passage, is_turn) per block of a chunk: a line "Name: ..." opens a turn; other
    lines continue the block before, until a blank line; prose blocks have no speaker."""
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
