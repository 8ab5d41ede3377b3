"""Chinese time expressions: their own rule set, tried first for queries with CJK characters.

Dates are returned as ``(start, end)`` pairs of ``datetime.date`` (both included);
weeks are Monday-based. Traditional forms are folded to simplified ones, and
Chinese numerals (两, 十, 二〇二四) are read. A time word inside a longer word or a
name is not a date (上周杰伦, 今日头条, 周一鸣提到的方案), and recurring forms (每周一)
give no window.
"""

from __future__ import annotations

import calendar
import re
from datetime import date, timedelta

DAY = timedelta(days=1)

_TRADITIONAL = str.maketrans({
    "週": "周", "個": "个", "這": "这", "來": "来", "後": "后", "兩": "两", "幾": "几", "過": "过", "禮": "礼",
    "號": "号", "至": "至", "從": "从", "開": "开", "於": "于", "裡": "里", "間": "间", "時": "时", "內": "内",
    "牠": "它", "曆": "历", "舊": "旧", "舉": "举", "頭": "头", "條": "条", "鳴": "鸣", "倫": "伦", "傑": "杰",
})  # fmt: skip

# Words that contain a time word but are names or products: masked before matching.
NOT_DATES = ["今日头条", "今日说法", "明日方舟", "明日之后", "昨日重现", "明天会更好", "周杰伦", "周星驰", "周润发",
             "周冬雨", "周笔畅", "周华健", "周恩来", "周迅", "周深", "周末愉快"]  # fmt: skip
# Common two-character given names that start with a numeral: after the surname 周 they make
# 周一鸣 a person, not "Monday".
NUMERAL_GIVEN_NAMES = ["一鸣", "一凡", "一帆", "一博", "一诺", "一航", "一涵", "一菲", "一宁", "一然", "一丹",
                       "一民", "一平", "一兵", "一峰", "一飞", "一龙", "一辰", "一心", "一新", "一舟", "一川",
                       "一笑", "一梅", "一林", "三石", "五一", "六一"]  # fmt: skip

_DIGITS = {"零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}
NUM = r"[0-9零〇一二两三四五六七八九十百]+"
WEEKDAY = {"一": 0, "二": 1, "三": 2, "四": 3, "五": 4, "六": 5, "日": 6, "天": 6}  # 末 (weekend) apart
WEEK_WORD = r"(?:周|星期|礼拜)"


def has_cjk(text: str) -> bool:
    return bool(re.search(r"[\u3400-\u9fff]", text))


def number(text: str) -> int:
    """12, 十二, 两, 二十三, 一百, 二〇二四 (digit by digit when there is no 十/百)."""
    if text.isdigit():
        return int(text)
    if "十" not in text and "百" not in text:
        return int("".join(str(_DIGITS[c]) for c in text))
    total, current = 0, 0
    for c in text:
        if c == "百":
            total += (current or 1) * 100
            current = 0
        elif c == "十":
            total += (current or 1) * 10
            current = 0
        else:
            current = _DIGITS[c]
    return total + current


def _month(year: int, month: int) -> tuple[date, date]:
    return date(year, month, 1), date(year, month, calendar.monthrange(year, month)[1])


def _add_months(d: date, months: int) -> date:
    index = d.year * 12 + d.month - 1 + months
    year, month = divmod(index, 12)
    return date(year, month + 1, min(d.day, calendar.monthrange(year, month + 1)[1]))


def _week(today: date, shift: int) -> tuple[date, date]:
    monday = today - timedelta(days=today.weekday()) + timedelta(weeks=shift)
    return monday, monday + 6 * DAY


def _prepare(query: str) -> str:
    text = query.translate(_TRADITIONAL)
    for word in NOT_DATES:
        text = text.replace(word, "□" * len(word))
    for name in NUMERAL_GIVEN_NAMES:
        text = text.replace("周" + name, "□" * (len(name) + 1))
    return text


def blocks_fallback(query: str) -> bool:
    """True when the query's only time-looking words are recurring forms or names, so no other
    analysis should look for a date in it."""
    text = query.translate(_TRADITIONAL)
    return (
        bool(re.search(r"每(?:天|日|周|星期|礼拜|个?月|年|季度)", text))
        or any(w in text for w in NOT_DATES)
        or any("周" + n in text for n in NUMERAL_GIVEN_NAMES)
    )


def _matches(text: str, today: date) -> list[tuple[int, int, tuple[date, date], str]]:
    """Every time expression: (start, end, days, kind); kind 'weekday:<shift>' lets a range's second end
    inherit the first's week."""
    found: list[tuple[int, int, tuple[date, date], str]] = []

    def add(match: re.Match[str], span: tuple[date, date], kind: str = "") -> None:
        found.append((match.start(), match.end(), span, kind))

    year_prefix = rf"(?:({NUM})年|(今年|去年|前年|明年|后年))?"

    def year_of(digits: str | None, word: str | None) -> int:
        if digits:
            return number(digits)
        return today.year + {"今年": 0, "去年": -1, "前年": -2, "明年": 1, "后年": 2}.get(word or "今年", 0)

    # since-forms ending today: 今年以来, 去年至今, 本月以来
    for m in re.finditer(r"(今年|去年|前年|本月|这个月|本周|这周)(?:以来|至今|到现在|到今天)", text):
        start = {
            "今年": date(today.year, 1, 1), "去年": date(today.year - 1, 1, 1), "前年": date(today.year - 2, 1, 1),
            "本月": today.replace(day=1), "这个月": today.replace(day=1),
        }.get(m.group(1), _week(today, 0)[0])  # fmt: skip
        add(m, (start, today))
    # rolling windows ending today: 过去N天, 最近N周, 近半年, 过去一个月
    for m in re.finditer(rf"(?:过去|最近|近)({NUM}|半)(?:个)?(天|日|周|星期|礼拜|月|年)", text):
        amount, unit = m.group(1), m.group(2)
        if unit in ("天", "日"):
            start = today - timedelta(days=number(amount))
        elif unit in ("周", "星期", "礼拜"):
            start = today - timedelta(weeks=number(amount))
        elif unit == "月":
            start = today - timedelta(days=15) if amount == "半" else _add_months(today, -number(amount))
        else:
            start = _add_months(today, -6) if amount == "半" else _add_months(today, -12 * number(amount))
        add(m, (start, today))
    # full dates
    for m in re.finditer(rf"({NUM})年({NUM})月({NUM})[日号]", text):
        d = date(number(m.group(1)), number(m.group(2)), number(m.group(3)))
        add(m, (d, d))
    for m in re.finditer(rf"(?<![0-9零〇一二两三四五六七八九十年])({NUM})月({NUM})[日号]", text):
        month, dom = number(m.group(1)), number(m.group(2))
        d = date(today.year, month, dom)
        add(m, (d, d) if d <= today else (d.replace(year=today.year - 1),) * 2)
    # halves, quarters
    for m in re.finditer(rf"{year_prefix}(上半年|下半年)", text):
        year = year_of(m.group(1), m.group(2))
        add(
            m,
            (date(year, 1, 1), date(year, 6, 30)) if m.group(3) == "上半年" else (date(year, 7, 1), date(year, 12, 31)),
        )
    for m in re.finditer(rf"{year_prefix}第({NUM})季度", text):
        year, q = year_of(m.group(1), m.group(2)), number(m.group(3))
        add(m, (date(year, 3 * q - 2, 1), _month(year, 3 * q)[1]))
    for m in re.finditer(r"(本|这个?|上个?|下个?)季度", text):
        shift = {"本": 0, "这": 0, "这个": 0, "上": -1, "上个": -1, "下": 1, "下个": 1}[m.group(1)]
        index = today.year * 4 + (today.month - 1) // 3 + shift
        year, q = index // 4, index % 4 + 1
        add(m, (date(year, 3 * q - 2, 1), _month(year, 3 * q)[1]))
    # year-month
    for m in re.finditer(rf"({NUM})年({NUM})月(?![0-9零〇一二两三四五六七八九十]+[日号])", text):
        add(m, _month(number(m.group(1)), number(m.group(2))))
    # relative months, with 月初 / 中旬 / 月底
    part = r"(月初|初|上旬|月中|中旬|月底|月末|底|下旬)?"
    for m in re.finditer(rf"(上上个?月|上个?月|本月|这个?月|下个?月)(?:的)?{part}", text):
        word = m.group(1)
        shift = -2 if word.startswith("上上") else -1 if word.startswith("上") else 1 if word.startswith("下") else 0
        first = _add_months(today.replace(day=1), shift)
        add(m, _month_part(first, m.group(2)))
    for m in re.finditer(r"(?<![个上下本这])(月初|月中|月底|月末|上旬|中旬|下旬)", text):
        add(m, _month_part(today.replace(day=1), m.group(1)))
    for m in re.finditer(
        rf"(?<![0-9零〇一二两三四五六七八九十年个上下本这])({NUM})月(?:份)?(?![0-9零〇一二两三四五六七八九十]+[日号])",
        text,
    ):
        month = number(m.group(1))
        if 1 <= month <= 12:
            year = today.year if month <= today.month else today.year - 1
            add(m, _month(year, month))
    # years
    for m in re.finditer(r"(大前年|前年|去年|今年|明年|后年)(?!以来|至今|到现在|到今天|上半年|下半年|第)", text):
        year = today.year + {"大前年": -3, "前年": -2, "去年": -1, "今年": 0, "明年": 1, "后年": 2}[m.group(1)]
        add(m, (date(year, 1, 1), date(year, 12, 31)))
    for m in re.finditer(rf"({NUM})年(?!{NUM}月|上半年|下半年|第|前|以来)", text):
        year = number(m.group(1))
        if today.year - 120 <= year <= today.year + 20 and len(m.group(1)) == 4:
            add(m, (date(year, 1, 1), date(year, 12, 31)))
    # weeks and weekdays
    week_prefix = r"(上上个?|上个?|下下个?|下个?|本|这个?)"
    for m in re.finditer(rf"{week_prefix}{WEEK_WORD}([一二三四五六日天末])?", text):
        prefix = m.group(1)
        shift = (-2 if prefix.startswith("上上") else -1 if prefix.startswith("上")
                 else 2 if prefix.startswith("下下") else 1 if prefix.startswith("下") else 0)  # fmt: skip
        monday, sunday = _week(today, shift)
        which = m.group(2)
        if which is None:
            add(m, (monday, sunday))
        elif which == "末":
            add(m, (monday + 5 * DAY, sunday))
        else:
            d = monday + timedelta(days=WEEKDAY[which])
            add(m, (d, d), f"weekday:{shift}")
    for m in re.finditer(rf"(?<![上下本这个每□])(?:{WEEK_WORD})([一二三四五六日天末])", text):
        which = m.group(1)
        monday, sunday = _week(today, 0)
        if which == "末":  # 周末: this week's weekend
            add(m, (monday + 5 * DAY, sunday), "weekday:0")
            continue
        d = today - timedelta(days=(today.weekday() - WEEKDAY[which]) % 7)  # the most recent, today included
        add(m, (d, d), f"bare:{WEEKDAY[which]}")
    # days
    for m in re.finditer(r"(大前天|前天|昨天|昨日|今天|今日|明天|明日|大后天|后天)", text):
        offset = {"大前天": -3, "前天": -2, "昨天": -1, "昨日": -1, "今天": 0, "今日": 0, "明天": 1, "明日": 1,
                  "后天": 2, "大后天": 3}[m.group(1)]  # fmt: skip
        d = today + timedelta(days=offset)
        add(m, (d, d))
    # fuzzy: 前两天, 几天前 / 前几天
    for m in re.finditer(r"前(两|二|2)天|(?:这)?(?<!\d)几天前|前几天", text):
        if m.group(0).startswith("前") and m.group(1):
            add(m, (today - 3 * DAY, today - DAY))
        else:
            add(m, (today - 5 * DAY, today - 2 * DAY))
    # N units ago: a single day
    for m in re.finditer(rf"(?<![前几])({NUM}|半)(?:个)?(天|日|周|星期|礼拜|月|年)(?:以)?前", text):
        amount, unit = m.group(1), m.group(2)
        if unit in ("天", "日"):
            d = today - timedelta(days=number(amount))
        elif unit in ("周", "星期", "礼拜"):
            d = today - timedelta(weeks=number(amount))
        elif unit == "月":
            d = today - timedelta(days=15) if amount == "半" else _add_months(today, -number(amount))
        else:
            d = _add_months(today, -6) if amount == "半" else _add_months(today, -12 * number(amount))
        add(m, (d, d))
    return found


def _month_part(first: date, part: str | None) -> tuple[date, date]:
    start, end = _month(first.year, first.month)
    if part in ("月初", "初", "上旬"):
        return start, start.replace(day=10)
    if part in ("月中", "中旬"):
        return start.replace(day=11), start.replace(day=20)
    if part in ("月底", "月末", "底", "下旬"):
        return start.replace(day=21), end
    return start, end


def analyze(query: str, today: date) -> tuple[date, date] | None:
    """The days a Chinese query talks about, or None (including for recurring forms)."""
    text = _prepare(query)
    if re.search(r"每(?:天|日|周|星期|礼拜|个?月|年|季度)", text):
        return None
    found = _matches(text, today)
    if not found:
        return None
    # the longest match at each position wins; overlapping shorter ones are dropped
    found.sort(key=lambda f: (f[0], -(f[1] - f[0])))
    kept: list[tuple[int, int, tuple[date, date], str]] = []
    for f in found:
        if kept and f[0] < kept[-1][1]:
            continue
        kept.append(f)
    first = kept[0]
    # a range: X到Y, X至Y, X-Y; a bare weekday after a week-anchored one stays in that week
    if len(kept) > 1 and re.fullmatch(r"\s*(?:到|至|~|～|-|—)\s*", text[first[1] : kept[1][0]]):
        second = kept[1]
        end = second[2][1]
        if first[3].startswith("weekday:") and second[3].startswith("bare:"):
            monday = first[2][0] - timedelta(days=first[2][0].weekday())
            end = monday + timedelta(days=int(second[3].split(":")[1]))
        return first[2][0], max(end, first[2][1])
    return first[2]
