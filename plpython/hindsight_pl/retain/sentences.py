"""Sentences: a passage split into sentences (pysbd; 。！？ for Chinese and Japanese), a fragment told from a clause
(``has_verb``), sentences grouped into facts of one to three (``group_sentences``), and the text a fact is compared by
(``normalise``). The offline extractor's first step (:mod:`hindsight_pl.retain.extract`)."""

from __future__ import annotations

import re
import threading
import unicodedata
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from .. import text
from ..temporal import chinese, facts, words

WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)*")


_CJK_SENTENCE = re.compile(r"[^。！？!?]+[。！？!?]*")


# Words that tie a sentence to the one before ("It was ...", "But ..."): such a
# sentence stays in the same fact.
LINKING = frozenset(
    "he she it they this that these those his her their its there but and so also then because which"
    " which too still yet".split()
)


# A sentence of English without any of these is a fragment ("Hey Mel!", "Wow, so cool.").
AUXILIARIES = frozenset(
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


IRREGULAR_PAST = frozenset(
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


NOT_PAST_ED = frozenset("need feed red bed seed speed indeed hundred breed shed weed".split())


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
    words = [w.lower().replace("’", "'") for w in WORD.findall(sentence)]
    for word in words:
        if word in AUXILIARIES or word in IRREGULAR_PAST or base_verb(word):
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
def base_verb(word: str) -> bool:
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
        first = WORD.findall(clause)[:1]
        linked = bool(first) and first[0].lower() in LINKING
        if groups and linked and len(groups[-1]) < 3:
            groups[-1].append(clause)
        else:
            groups.append([clause])
    return [" ".join(g) for g in groups]
