"""Knowledge updates: how likely a newer fact revises an older one about the same subject.

Retain links each new memory unit to the older units it revises (``supersedes`` links,
``hindsight._link_updates``), and recall ranks a superseded unit right below the unit that supersedes
it when both are candidates (docs/recall.md, "Updates win"). This module decides, for one (newer,
older) pair the database has already found near each other (the newer unit's nearest earlier units):

* **same subject**: some clause of the newer fact (with the clause before it) and some clause of the older
  one share content words: two or more, two fifths of the shorter clause's ("close"), or fewer where an entity
  both were linked to is named in both clauses;
* **a change** in that clause of the newer fact: a strong revision cue ("after all", "instead", "no longer",
  "cancelled", "moved to", "switched to", "replaced", "correction", ... in English, German, French, Spanish,
  Italian and Chinese: one shared word is then enough, if the cue's own clause shares it); or other numbers in the
  two clauses
  (``signature.signature``: digits, number words, amounts), with a close subject, a weak cue ("now",
  "currently", "actually") or a shared entity and one more word; or a weak cue with a close subject and a
  number only one clause states or a shared entity.

Both must hold. A pair without a change is two facts about one subject ("Ana likes tea" / "Ana drinks
tea at 5"), not an update. Clauses are the text split at sentence ends, semicolons and dashes, since a
conversational turn often mentions the update in passing ("... By the way, I now lead five engineers").

That rule (:func:`revises`) proposes; the **update judge** (:func:`probability`) weighs what it proposes: a
logistic model over the pair's features (:func:`features`: the cosine of the two units' vectors, the rule, the
cues of each side, their numbers, a question, a confirmation, a progress report or a cancellation in the newer
one, who said each, the days between them, their lengths). Its weights are ``update_judge.json`` beside this
module, written by bench/update_pairs.py from labelled message pairs (docs/benchmarks.md, "Update links"). Retain
links a pair at a probability of at least the bank's ``update_min_confidence``, the link's weight; recall moves a
unit only for a link of at least ``update_move_confidence`` (docs/recall.md, "Updates win").
Pure: no database; the features of a pair take a few hundred microseconds.
"""

from __future__ import annotations

import json
import math
import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from . import signature
from .temporal import chinese
from .temporal import words as time_words

JUDGE_FILE = Path(__file__).with_name("update_judge.json")

# A leading "Name: " of a conversational turn (the extractor writes turns so): the speaker is no subject.
_SPEAKER = re.compile(r"^\s*[^\W\d_][^\n:：.!?\"]{0,39}?\s*[:：]\s*")
# a sentence end (not after a title or a one-letter initial: "Dr. Smith", "J. Doe"), a semicolon, a dash
_CLAUSE = re.compile(
    r"(?<!\bDr\.)(?<!\bMr\.)(?<!\bMs\.)(?<!\bSt\.)(?<!\bMrs\.)(?<!\b[A-Z]\.)(?<=[.!?;])\s+(?=\S)|(?<=[。！？；])"
    r"|\s+[-–—]\s+|\n+"
)
_WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)*")
_CJK_RUN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff]+")

# Revision cues, whole words, case-folded. Strong ones say a value was replaced, reversed or called off;
# weak ones ("now", "currently", "actually") only say the clause gives today's value.
_STRONG_CUES = re.compile(
    r"\b(?:after all|instead|no longer|any ?more|anymore|cancell?ed|cancell?ing|calls? off|called off"
    r"|moved (?:to|from|it|the)|moving (?:to|it|the)|switch(?:ed|ing)? (?:to|from|back|over)|changed|changing"
    r"|postponed|rescheduled|pushed (?:back|to|out)|brought forward|replaced|replacing|correction|to correct"
    r"|new (?:date|time|plan|place|venue|location|address|number|price|deadline|owner|lead|role|job)"
    r"|decided (?:to|against|on)|going with|dropped|scrapped|migrat(?:ed|ing) (?:to|from|the|our)|rewr(?:ote|itten)"
    r"|retired|rebrand(?:ed|ing)?|(?:went (?:up|down)|rose|fell|grew|increased|decreased|dropped|raised|lowered"
    r"|cut|tightened|revised) (?:it |them )?to"
    r"|stattdessen|nicht mehr|kein(?:e|en)? mehr|abgesagt|verschoben|verlegt"
    r"|finalement|plutôt|annulée?s?|reportée?s?|déplacée?s?|ne plus|n'est plus"
    r"|en su lugar|al final|cancelad[oa]s?|cancel[éeó]|cancelamos|pospuest[oa]s?|ya no"
    r"|invece|alla fine|annullat[oa]|rimandat[oa]|spostat[oa]|non più)\b",
    re.IGNORECASE,
)
_WEAK_CUES = re.compile(
    r"\b(?:now|currently|these days|actually|at the moment|so far|jetzt|inzwischen|mittlerweile|doch"
    r"|en fait|désormais|maintenant|ahora|actualmente|en realidad|ora|adesso|attualmente)\b",
    re.IGNORECASE,
)
_CJK_STRONG = ("改成", "改为", "改到", "换成", "取消", "不再", "推迟", "延期", "搬到", "改用", "最终")
_CJK_WEAK = ("现在", "目前", "其实")

# Words that say nothing about a subject: function words and the commonest verbs of chat, in the
# languages the cues cover (English first: the bulk of what is said).
_STOP = frozenset(
    """
    the a an and or but so of to in on at for with from by about as into over than then that this these those
    there here it its it's is are was were be been being am do does did done have has had having will would shall
    should can could may might must not no yes i me my mine we us our you your he him his she her they them their
    who what when where which why how all any some each every more most much many very just also too still only
    really well like get got getting go going went gone make made know think thought want wanted need needed
    way thing things something anything everything one ones lot bit time times day days week weeks month months
    year years today yesterday tomorrow now currently actually already again ever never always by way speaking
    wondering could help tips recommend recommendations ideas suggest suggestions thanks thank great good nice
    new old first last next since ago i'm i've i'd i'll we're we've you're it's that's let let's
    der die das ein eine und oder aber ich wir sie er es ist sind war mit von zu auf für nicht
    le la les un une et ou mais je nous vous il elle est sont avec de du des pour pas
    el los las uno una y o pero yo nosotros es son con del para por
    il lo gli uno una e o ma io noi è sono con di per non
    """.split()
)


# words of values rather than subjects: months, weekdays, currencies, units (English, German, French, Spanish,
# Italian), from the query analyzer's vocabulary where it has one
_VALUES = frozenset(
    [
        *time_words.MONTH_NAMES,
        *time_words.WEEKDAY_NAMES,
        *time_words.MONTH_ABBREVIATIONS,
        *"""euro euros eur dollar dollars usd pound pounds gbp franc francs cent cents pence per hour hours minute
        minutes percent km kg kilo kilos uhr heure heures hora horas ora ore""".split(),
    ]
)


def body(text: str) -> str:
    """A fact's text without the leading "Name: " of a conversational turn."""
    return _SPEAKER.sub("", text, count=1)


def clauses(text: str) -> list[str]:
    """The clauses of a fact's text: split at sentence ends, semicolons, dashes and line breaks."""
    return [c.strip() for c in _CLAUSE.split(body(text)) if c and c.strip()]


def content_words(clause: str) -> set[str]:
    """Case-folded content words of a clause, a plural or past -s/-ed/-ing cut off; Chinese as character pairs.
    Values and cues name no subject: month and weekday names, currencies and units, and the revision cues'
    own words ("cancelled", "moved") are left out ("Ana's dinner is cancelled" and "cancelled the dentist on March
    3" share no subject)."""
    folded = unicodedata.normalize("NFKC", clause).casefold().replace("’", "'")
    words = set()
    for word in _WORD.findall(folded):
        if chinese.has_cjk(word):
            continue
        if word in _STOP or word in _VALUES or len(word) < 3 or _STRONG_CUES.fullmatch(word):
            continue
        words.add(_stem(word))
    for run in _CJK_RUN.findall(folded):
        words.update(run[i : i + 2] for i in range(len(run) - 1))
    return words


def _stem(word: str) -> str:
    """A crude English stem, the same for a word's plural and its -ed / -ing forms ("plans", "planned" ->
    "plan"/"plann": only equality matters)."""
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    for suffix in ("sses", "xes", "ches", "shes", "zes"):
        if word.endswith(suffix):
            return word[:-2]
    if word.endswith("s") and not word.endswith("ss") and len(word) > 3:
        return word[:-1]
    for suffix in ("ing", "ed"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)]
    return word


def cue(clause: str) -> str | None:
    """ "strong" when a clause says a value was replaced, reversed or called off ("instead", "cancelled",
    "after all"), "weak" when it says it gives today's value ("now", "currently"), else None."""
    if _STRONG_CUES.search(clause) or any(c in clause for c in _CJK_STRONG):
        return "strong"
    if _WEAK_CUES.search(clause) or any(c in clause for c in _CJK_WEAK):
        return "weak"
    return None


def revises(newer: str, older: str, shared_entities: Iterable[str] = ()) -> bool:
    """Whether ``newer`` revises ``older``: a clause of each about the same subject, and the newer one's
    clause states a change (a cue, or other numbers). ``shared_entities``: names both facts were linked
    to (the speaker of a turn counts only where a clause names it). See the module docstring."""
    names = [n.casefold() for n in shared_entities if n and n.strip()]
    split = clauses(newer)
    # a clause with the one before it: "I've been meaning to check my follower count. I'm close to 1300 now."
    new_clauses = [(c, content_words(c), content_words(c) | (content_words(split[i - 1]) if i else set()), _numbers(c))
                   for i, c in enumerate(split)]  # fmt: skip
    old_clauses = [(c, content_words(c), _numbers(c)) for c in clauses(older)]
    for new_text, own_words, new_words, new_numbers in new_clauses:
        said = cue(new_text)
        if not said and not new_numbers:
            continue  # no cue and no number: nothing says the value changed
        for old_text, old_words, old_numbers in old_clauses:
            shared = len(new_words & old_words)
            if not shared:
                continue
            # other numbers: both clauses state one and they differ; or only one states one ("every week now" /
            # "every two weeks")
            other_numbers = bool(new_numbers) and bool(old_numbers) and new_numbers != old_numbers
            one_number = new_numbers != old_numbers and not other_numbers
            # the subject: two content words in common (two fifths of the shorter clause), or an entity named in
            # both clauses
            close = shared >= 2 and shared >= 0.4 * min(len(new_words), len(old_words))
            named = any(_names(new_text, n) and _names(old_text, n) for n in names)
            # with a strong cue one word in common is enough when the cue's own clause shares it ("Porto is
            # cancelled" / "booked in Porto"); a word only the clause before shares is not ("Falcon wireframes v1 are
            # in Figma. Three steps instead of five." revises nothing about Falcon's tech lead)
            if said == "strong" and (own_words & old_words or shared >= 2):
                return True
            if other_numbers and (close or said == "weak" or (named and shared >= 2)):
                return True
            if said == "weak" and close and (one_number or named):
                return True
    return False


def _numbers(clause: str) -> tuple[str, ...]:
    return signature.signature(clause).numbers


def _names(clause: str, name: str) -> bool:
    folded = unicodedata.normalize("NFKC", clause).casefold()
    if chinese.has_cjk(name):
        return name in folded
    return re.search(rf"(?<!\w){re.escape(name)}(?!\w)", folded) is not None


def order(ids: list[str], pairs: Iterable[tuple[str, str]]) -> list[str]:
    """``ids`` (best first) with each superseded id moved right below the id that supersedes it, where it
    ranked above it: the newer takes the older's place, the older follows it, the rest keep their order.

    ``pairs``: (newer, older) ids; ids not in ``ids`` are ignored. Supersession runs from a newer unit to an
    older one, so the pairs hold no cycle; a chain (A by B, B by C) ends with C, B, A in the place of the
    best of them. Never raises for an unknown id or an empty list.
    """
    result = list(ids)
    known = set(result)
    chain = [(new, old) for new, old in pairs if new in known and old in known and new != old]
    for _ in range(len(chain) + 1):  # each pass settles one link at least; an acyclic set settles
        moved = False
        for new, old in chain:
            at_new, at_old = result.index(new), result.index(old)
            if at_old < at_new:
                result.pop(at_new)
                result.insert(at_old, new)
                moved = True
        if not moved:
            break
    return result


# -- the update judge ------------------------------------------------------------------------------------------

# the newer side confirms the value, reports progress on it, or calls it off (several languages; cues, not rules)
_CONFIRMATION = re.compile(
    r"\b(?:still|same|as planned|as usual|confirmed|confirm|stays|unchanged|holds|noch|immer noch|bleibt|wie geplant"
    r"|toujours|reste|comme prévu|sigue|sigue siendo|como siempre|ancora|resta|come previsto)\b|不变|照旧|还是",
    re.IGNORECASE,
)
_PROGRESS = re.compile(
    r"\b(?:done|paid|finished|landed|sent|arrived|went|merged|shipped|submitted|started|first|so far|today|tonight"
    r"|erledigt|bezahlt|fertig|angekommen|fait|payé|fini|arrivé|hecho|pagado|terminado|llegó|fatto|pagato|finito"
    r"|arrivato)\b|完成|到了|已经",
    re.IGNORECASE,
)
_CANCELLATION = re.compile(
    r"\b(?:cancell?ed|cancell?ing|called off|calls? off|is off|are off|no longer|scrapped|dropped|abgesagt|storniert"
    r"|fällt aus|annulée?s?|cancelad[oa]s?|anulad[oa]s?|annullat[oa]|disdett[oa])\b|取消",
    re.IGNORECASE,
)
SCALAR_FEATURES = (
    "cosine", "strong_cue", "weak_cue", "older_strong_cue", "rule", "other_numbers", "new_number", "same_numbers",
    "question", "shared_words", "shared_share", "newer_agent", "older_agent", "log_days", "log_newer_chars",
    "log_older_chars", "confirmation", "progress", "cancellation",
)  # fmt: skip


@dataclass(frozen=True)
class Pair:
    """A (newer, older) pair of memory units as the judge reads it: their texts (a turn's "Name: " is read off),
    the cosine of their vectors, the days between their mentions, whether the agent said each (fact type
    experience), and the entity names both were linked to."""

    newer: str
    older: str
    cosine: float
    days: float = 0.0
    newer_agent: bool = False
    older_agent: bool = False
    shared_entities: Sequence[str] = ()


def features(pair: Pair) -> list[float]:
    """The scalar features of ``pair``, in :data:`SCALAR_FEATURES` order."""
    newer, older = body(pair.newer), body(pair.older)
    new_numbers, old_numbers = _numbers(newer), _numbers(older)
    new_words, old_words = content_words(newer), content_words(older)
    shared = len(new_words & old_words)
    said = cue(newer)
    return [
        float(pair.cosine), float(said == "strong"), float(said == "weak"), float(cue(older) == "strong"),
        float(revises(pair.newer, pair.older, pair.shared_entities)),
        float(bool(new_numbers) and bool(old_numbers) and new_numbers != old_numbers),
        float(bool(new_numbers) and not old_numbers), float(bool(new_numbers) and new_numbers == old_numbers),
        float("?" in newer or "？" in newer), min(shared, 6) / 6, shared / max(1, min(len(new_words), len(old_words))),
        float(pair.newer_agent), float(pair.older_agent), math.log1p(max(pair.days, 0.0)),
        math.log1p(len(newer)), math.log1p(len(older)), float(bool(_CONFIRMATION.search(newer))),
        float(bool(_PROGRESS.search(newer))), float(bool(_CANCELLATION.search(newer))),
    ]  # fmt: skip


@lru_cache(maxsize=1)
def judge_weights() -> dict[str, Any]:
    """The shipped judge (``update_judge.json``): the features' means and scales, their weights and the bias."""
    weights: dict[str, Any] = json.loads(JUDGE_FILE.read_text(encoding="utf-8"))
    return weights


def probability(pairs: Sequence[Pair]) -> list[float]:
    """The judge's probability, per pair, that the newer unit revises the older (a logistic model over
    :func:`features`, its weights from :func:`judge_weights`)."""
    model = judge_weights()
    out = []
    for pair in pairs:
        z = model["bias"] + sum(w * (v - m) / s for w, v, m, s in zip(model["weights"], features(pair), model["mean"],
                                                                         model["scale"], strict=True))  # fmt: skip
        out.append(1 / (1 + math.exp(-max(min(z, 40.0), -40.0))))
    return out


def link_confidence(pairs: Sequence[Pair]) -> list[float]:
    """Per pair, the confidence of a supersedes link from the newer unit to the older: 0 where :func:`revises`
    finds no clause of one subject with a change, else the judge's :func:`probability` (precision first: the rule
    proposes, the judge confirms; docs/benchmarks.md, "Update links", gives each one's precision and recall)."""
    proposed = [revises(p.newer, p.older, p.shared_entities) for p in pairs]
    judged = probability([p for p, ok in zip(pairs, proposed, strict=True) if ok])
    scores = iter(judged)
    return [next(scores) if ok else 0.0 for ok in proposed]
