"""What tells one fact from another: the features two facts must share to be one fact said twice.

Every place that merges or drops a fact as a repeat asks :func:`difference` first (within-call
deduplication in ``hindsight_pl.retain.dedupe``; consolidation's merge of observations through
``hindsight._facts_compatible``). Text or embedding similarity cannot see that "Mara planted 2
tulips" and "Mara planted 3 tulips" are two facts: their embeddings are within cosine 0.99. So
two facts are repeats only when, besides being similar, they have equal

* **numbers**: tokens with digits (``101``, ``1,000`` = ``1000``, ``3.12``, ``v2``, ``UA123``,
  ``#4512``, ``1st`` = ``1``), number words (English, Spanish, Italian, French, German, Russian;
  Chinese numerals), as a multiset; and currency amounts (``$5`` = ``5 dollars`` = ``USD 5``,
  but not ``€5``) with the currencies named;
* **dates**: the fact's occurred dates (start and end day) and the month, weekday, season and
  yesterday / today / tomorrow words of its text;
* **negation**: how many negation words it has (``not``, ``n't``, ``never``, ``no``, ``nicht``,
  ``pas``, ``nunca``, ``не``, ``不``, ...);
* **entities**: case-folded; a name only one fact lists still agrees when the other's text has
  it as whole words (``Ana`` / ``ana adopted a cat``: the extractor finds no name in lower case).

Comparing more than the facts say errs one way only: two paraphrases stay two memory units,
never one fact lost. Pure: no database, no model.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from . import temporal
from .temporal import chinese

# Number words by value; articles that also mean "one" (a, un, ein, ...) and words that are
# mostly something else (English "once", "due", "elf"; Italian "sei", "otto") are left out.
_NUMBER_WORDS: dict[str, int] = {}
for _value, _words in enumerate([
    "zero cero zéro null ноль",
    "one uno один одна одно",
    "two dos deux zwei два две",
    "three tres trois drei три",
    "four cuatro quattro quatre vier четыре",
    "five cinco cinque cinq fünf пять",
    "six seis sechs шесть",
    "seven siete sette sieben семь",
    "eight ocho huit acht восемь",
    "nine nueve nove neuf neun девять",
    "ten diez dieci dix zehn десять",
    "eleven undici onze одиннадцать",
    "twelve doce dodici douze zwölf двенадцать",
    "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty",
]):  # fmt: skip
    for _word in _words.split():
        _NUMBER_WORDS[_word] = _value
_NUMBER_WORDS |= {"thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90,
                  "hundred": 100, "thousand": 1000, "million": 10**6, "billion": 10**9, "dozen": 12,
                  "first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7,
                  "eighth": 8, "ninth": 9, "tenth": 10, "twice": 2, "thrice": 3}  # fmt: skip

_NEGATIONS = frozenset(
    """
    not no never none nobody nothing nowhere neither nor cannot without
    nunca jamás jamas nada nadie ningún ningun ninguno ninguna tampoco sin
    non mai niente nulla nessuno nessuna senza
    ne pas jamais rien aucun aucune sans ni
    nicht kein keine keinen keinem keiner keines nie niemals nichts niemand ohne weder
    не нет никогда ничего никто ни без
    """.split()
)
_CJK_NEGATIONS = "不没沒未别別无無非莫勿"

_CURRENCIES = {
    **dict.fromkeys("$ usd dollar dollars us$ 美元".split(), "USD"),
    **dict.fromkeys("€ eur euro euros 欧元".split(), "EUR"),
    **dict.fromkeys("£ gbp pound pounds quid".split(), "GBP"),
    **dict.fromkeys("¥ jpy yen 円".split(), "JPY"),
    **dict.fromkeys("cny rmb yuan 元 块".split(), "CNY"),
    **dict.fromkeys("₹ inr rupee rupees".split(), "INR"),
    **dict.fromkeys("chf franc francs".split(), "CHF"),
    **dict.fromkeys("nok sek dkk kr krone kroner kronor".split(), "KR"),
    **dict.fromkeys("₽ rub ruble rubles рубль рубля рублей".split(), "RUB"),
    **dict.fromkeys("aud cad nzd hkd sgd mxn brl krw ₩".split(), "OTHER"),
}
_CURRENCY = "|".join(re.escape(c) for c in sorted(_CURRENCIES, key=len, reverse=True))
_AMOUNT = re.compile(
    rf"(?:(?<![^\W\d_])(?P<before>{_CURRENCY})\s?(?P<n1>\d[\d,.]*\d|\d))"
    rf"|(?:(?P<n2>\d[\d,.]*\d|\d)\s?(?P<after>{_CURRENCY})(?![^\W\d_]))"
)
_CURRENCY_WORD = re.compile(rf"(?<![^\W\d_])(?:{_CURRENCY})(?![^\W\d_])")

_DATE_WORDS = frozenset(
    {*temporal.MONTH_NAMES, *temporal.WEEKDAY_NAMES, *temporal.SEASON_NAMES, "tonight"}
    | temporal.YESTERDAY
    | temporal.TODAY
    | temporal.TOMORROW
)
_CJK_DATE_WORDS = ("昨天", "今天", "明天", "前天", "后天", "昨日", "今日", "明日", "周末", "星期", "礼拜", "月", "年")

_CJK = re.compile(r"([\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff])")
_CJK_NUMERAL = re.compile(r"[零〇一二两三四五六七八九十百千万亿]+")
# a token with a digit, with the separators that keep a number or an id whole (1,000  3.12  jira-42)
_DIGIT_TOKEN = re.compile(r"(?:[^\W\d_]+-)?[^\W_]*\d[^\W_]*(?:[.,:/\-][^\W_]*\d[^\W_]*)*")
_THOUSANDS = re.compile(r"^\d{1,3}(?:,\d{3})+(?:\.\d+)?$")
_ORDINAL = re.compile(r"^(\d+)(?:st|nd|rd|th|er|e|º|ª|\.)$")
_WORDS = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)*")


@dataclass(frozen=True)
class Signature:
    """The features of one fact that :func:`difference` compares (see the module docstring)."""

    numbers: tuple[str, ...]
    currencies: frozenset[str]
    dates: tuple[str, ...]
    negations: int
    entities: frozenset[str]
    words: str  # the normalised text, padded with spaces: where a name is looked for


def signature(
    text: str,
    entities: Iterable[str] = (),
    occurred_start: datetime | None = None,
    occurred_end: datetime | None = None,
) -> Signature:
    """The features of a fact: its text, its entities' names, and the dates it happened (if known)."""
    folded = unicodedata.normalize("NFKC", text).casefold().replace("’", "'")
    spaced = _CJK.sub(r" \1 ", folded)
    numbers: list[str] = [_number(t) for t in _DIGIT_TOKEN.findall(spaced)]
    for match in _AMOUNT.finditer(spaced):
        currency = _CURRENCIES[match.group("before") or match.group("after")]
        numbers.append(f"{currency} {_number(match.group('n1') or match.group('n2'))}")
    words = _WORDS.findall(spaced)
    numbers.extend(str(_NUMBER_WORDS[w]) for w in words if w in _NUMBER_WORDS)
    cjk = "".join(_CJK.findall(folded))
    for run in _CJK_NUMERAL.findall(cjk):
        try:
            numbers.append(str(chinese.number(run)))
        except KeyError:  # 千, 万, 亿: not read by the date rules; the run itself then
            numbers.append(run)
    dates = [w for w in words if w in _DATE_WORDS]
    dates.extend(w for w in _CJK_DATE_WORDS if w in cjk for _ in range(cjk.count(w)))
    dates.extend(f"{k}:{d.date().isoformat()}" for k, d in (("from", occurred_start), ("to", occurred_end)) if d)
    negations = sum(1 for w in words if w in _NEGATIONS) + len(re.findall(r"n't\b", folded))
    negations += sum(cjk.count(c) for c in _CJK_NEGATIONS)
    return Signature(
        numbers=tuple(sorted(numbers)),
        currencies=frozenset(_CURRENCIES[c] for c in _CURRENCY_WORD.findall(spaced)),
        dates=tuple(sorted(dates)),
        negations=negations,
        entities=frozenset(_plain(e) for e in entities if _plain(e)),
        words=f" {_plain(text)} ",
    )


def difference(a: Signature, b: Signature) -> str | None:
    """The first feature that tells two facts apart (``numbers``, ``dates``, ``negation``, ``entities``), or
    None when they may be one fact said twice."""
    if a.numbers != b.numbers or a.currencies != b.currencies:
        return "numbers"
    if a.dates != b.dates:
        return "dates"
    if a.negations != b.negations:
        return "negation"
    if not all(_mentions(b.words, e) for e in a.entities - b.entities) or not all(
        _mentions(a.words, e) for e in b.entities - a.entities
    ):
        return "entities"
    return None


def compatible(a: str, a_entities: Iterable[str], b: str, b_entities: Iterable[str]) -> bool:
    """Whether two texts with their entities may be merged: nothing but their wording differs. Without
    dates: what ``hindsight._facts_compatible`` asks of two observations, whose dates are the span of
    their facts (a merged observation keeps them all)."""
    return difference(signature(a, a_entities), signature(b, b_entities)) is None


def _number(token: str) -> str:
    """A number or id as compared: thousands separators and ordinal suffixes dropped."""
    token = token.strip(".,:/-")
    if _THOUSANDS.match(token):
        token = token.replace(",", "")
    ordinal = _ORDINAL.match(token)
    return ordinal.group(1) if ordinal else token


def _mentions(words: str, name: str) -> bool:
    """Whether a normalised text has a name: as whole words, or anywhere for a Chinese or Japanese name."""
    return f" {name} " in words or (chinese.has_cjk(name) and name in words)


def _plain(name: str) -> str:
    """Case-folded letters and digits, single spaces (as ``sentences.normalise``)."""
    folded = unicodedata.normalize("NFKC", name).casefold()
    return " ".join(re.findall(r"[^\W_]+", folded))
