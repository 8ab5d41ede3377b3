"""Time expressions in Chinese (simplified and traditional) and Japanese's common forms: the atoms.

Chinese has no spaces, so a time word can sit inside a name or a longer word. Before matching,
three rules mask what is not a date (docs/temporal.md, "Names and non-dates"):

- a weekday word 周一…周日 / 周末 read after the surname 周 is a name when a given-name character
  follows it and nothing before 周 makes it a date (上 / 下 / 本 / 这 / 每): 周一鹏, 周二虎;
- a time word whose last character starts a common word with the next character is not a time
  word: 今年糕点 (年糕), 这个月饼 (月饼), 周末端 (末端);
- a few fixed titles and brands that hold time words (今日头条, 明日方舟) are a lexicon.

Numerals: digits (full-width ones are folded by NFKC), Chinese numerals with 十 / 百, digit by digit
(二〇二四), and 廿 (20) / 卅 (30). cn2an 0.5.24 reads most of these but rejects 卅, so the few lines
of :func:`number` stay.
"""

from __future__ import annotations

import re
import unicodedata
from datetime import date, timedelta
from functools import partial

from . import named_days
from .dates import (
    DAY,
    Span,
    add_months,
    add_years,
    apply_part,
    between,
    day,
    day_of_month_recent,
    make_date,
    month_relative,
    month_span,
    quarter_span,
    relative_period,
    season_relative,
    season_span,
    shift,
    shift_month,
    shift_quarter,
    week_span,
    weekday_relative,
    year_span,
)
from .european import MAX_CHARACTERS
from .grammar import (
    RANK_AGO,
    RANK_DATE,
    RANK_DAY,
    RANK_MONTH,
    RANK_MONTH_DAY,
    RANK_PERIOD,
    RANK_RELATIVE,
    RANK_SEASON,
    RANK_WEEKDAY,
    RANK_YEAR,
    Combinators,
    Found,
    Rules,
)

# traditional characters read like simplified ones (only those time words and names use)
_TRADITIONAL = str.maketrans({
    "週": "周", "個": "个", "這": "这", "來": "来", "後": "后", "兩": "两", "幾": "几", "過": "过", "禮": "礼",
    "號": "号", "從": "从", "開": "开", "於": "于", "裡": "里", "間": "间", "時": "时", "內": "内", "當": "当",
    "曆": "历", "頭": "头", "條": "条", "鳴": "鸣", "倫": "伦", "傑": "杰", "節": "节", "聖": "圣", "誕": "诞",
    "慶": "庆", "國": "国", "勞": "劳", "動": "动", "輕": "轻", "點": "点", "鐘": "钟", "則": "则", "為": "为",
    "現": "现", "將": "将", "計": "计", "劃": "划", "準": "准", "備": "备", "餅": "饼", "級": "级", "億": "亿",
    "萬": "万", "筆": "笔", "華": "华", "鵬": "鹏", "龍": "龙", "飛": "飞", "鳳": "凤", "濤": "涛", "強": "强",
    "偉": "伟", "軍": "军", "劉": "刘", "陳": "陈", "張": "张", "楊": "杨", "趙": "赵", "黃": "黄", "吳": "吴",
    "鄭": "郑", "馬": "马", "孫": "孙", "東": "东", "區": "区", "們": "们", "麼": "么", "誰": "谁", "甚": "什",
    "嗎": "吗", "會": "会", "議": "议", "論": "论", "討": "讨", "報": "报", "歲": "岁", "屆": "届", "長": "长",
    "陰": "阴", "歷": "历", "說": "说",
})  # fmt: skip

_DIGITS = {"零": 0, "〇": 0, "○": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7,
           "八": 8, "九": 9}  # fmt: skip
# colloquial counts that hold their measure word: 俩 = 两个, 仨 = 三个 (俩月前 = 两个月前, 仨星期 = 三个星期)
_COLLOQUIAL = {"俩": "两", "仨": "三"}
NUM = r"[0-9零〇○一二两三四五六七八九十百廿卅]+"
SMALL = r"(?:[0-9]{1,3}|[一二两三四五六七八九十百廿卅]+)"  # a count, not a year
WEEKDAY = {"一": 0, "二": 1, "三": 2, "四": 3, "五": 4, "六": 5, "日": 6, "天": 6}
JA_WEEKDAY = {"月": 0, "火": 1, "水": 2, "木": 3, "金": 4, "土": 5, "日": 6}
WEEK = r"(?:周|星期|礼拜)"

# Given-name characters: common in names, rare right after a weekday word. After 周 + a weekday
# numeral they make a person (周一鹏), not a Monday.
GIVEN_NAME = set("鹏鸣凡帆博诺航涵菲宁然丹民兵峰飞龙辰舟川梅林虎伟芳娜敏静丽强磊军洋勇艳杰娟涛超秀霞刚桂华斌波"
                 "亮鑫宇浩凯健俊帅瑶婷雪琳欣怡佳琪萱轩泽睿哲铭翔鹤鹰彬彤嘉颖倩蕾薇璐瑞昊昕晗晖楠毅坤勋豪锋婕珊"
                 "蓉玲萍燕莉艺翠露霖鸿岩松柏桐榕桦源渊澜淼沛旭曦煜炜烨焱熙琦瑾璇珂琛瑜璟彪虹凤茜婉妍媛娇蕊"
                 "骏驰腾龙麟琳璋瑛丰志永玉英兰芬珍红云辉德福洁慧巧美荣宏")  # fmt: skip
# The most common Chinese surnames (a well-known list, not the names of the tests). A surname right
# before a month written in Chinese numerals is a person: 李五月, 王五月.
# (于 / 向 / 万 / 方 / 高 / 白, also common words, are left out: 于五月 is "in May".)
SURNAMES = set("王李张刘陈杨黄赵吴周徐孙马朱胡郭何林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘蒋蔡余杜叶程苏魏吕丁"
               "任沈姚卢姜崔钟谭陆汪范金石廖贾夏韦付邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵钱严覃武"
               "戴莫孔汤")  # fmt: skip
# A time word's last character and the next one that make a common word: not a time word then.
COMPOUNDS = {"年糕", "年货", "年画", "月饼", "月亮", "月光", "月球", "月嫂", "月季", "末端", "末尾", "日记", "日志",
             "日元", "日语", "周期", "周岁"}  # fmt: skip
# Titles and brands that hold a time word (the one list; people's names follow the rule above).
TITLES = ["今日头条", "今日说法", "明日方舟", "明日之后", "昨日重现", "明天会更好", "周末愉快", "今天不上班",
          # words that hold a day word: 后天 is also "acquired" (后天免疫, 后天性), 先天 its opposite
          "后天免疫", "后天性", "后天形成", "后天培养", "后天习得", "后天获得", "后天因素", "后天的努力",
          # Japanese given names that hold a day word (明日香, 今日子)
          "明日香", "明日美", "明日奈", "明日菜", "今日子"]  # fmt: skip
RECURRING = re.compile(r"每(?:天|日|周|星期|礼拜|个?月|年|季度|逢)|週[一-日]ごと|毎(?:日|週|月|年)")

RULES = Rules(
    Combinators(
        part_after=[
            (r"[的の]?(?:年初|开年)", "early"),
            (r"[的の]?年中", "mid"),
            (r"[的の]?(?:年底|年尾|年末|岁末)", "late"),
            (r"[的の]?(?:月初|上旬|初)", "early"),
            (r"[的の]?(?:月中|中旬)", "mid"),
            (r"[的の]?(?:月底|月末|下旬|底|末|终わり|終わり|終り)", "late"),
            (r"[的の]?(?:初め|始め)", "early"),
            (r"[的の]?(?:半ば)", "mid"),
            (r"[的の]?上半年", "first half"),
            (r"[的の]?下半年", "second half"),
            (r"[的の]?(?:上半月)", "first half"),
            (r"[的の]?(?:下半月)", "second half"),
            (r"[的の]?第一[周个星期]+", "week 1"),
            (r"[的の]?第二[周个星期]+", "week 2"),
            (r"[的の]?第三[周个星期]+", "week 3"),
            (r"[的の]?第四[周个星期]+", "week 4"),
            (r"[的の]?最后一[周个星期]+", "week last"),
            (r"[的の]?(?:第一天|头一天)", "first day"),
            (r"[的の]?最后一天", "last day"),
        ],
        around_after=[(r"前后|左右|附近|ごろ|頃", "day")],
        open_before=[(r"(?:直到|截至|截止到|截止|一直到|到)", "until")],
        open_after=[
            (r"(?:以来|来|起|开始|迄今|至今|到现在|到今天|到目前为止|以降|から)", "since"),
            (r"(?:以后|之后|过后|后)(?![0-9一二两三四五六七八九十几半])", "after"),
            (r"(?:以前|之前|前)(?![0-9一二两三四五六七八九十几半])", "before"),
            (r"(?:まで)", "until"),
        ],
        range_pairs=[(r"从|自|由", r"到|至|~|～|-|—|－|–|一直到"), (r"", r"到|至|~|～|-|—|－|–|から|から〜")],
        range_after=[r"为止", r"まで"],
        join_days=r"和|与|跟|及|、|或",
        word="",
    )
)


def has_cjk(text: str) -> bool:
    return bool(re.search(r"[\u3040-\u30ff\u3400-\u9fff]", text))


def number(text: str) -> int:
    """12, 十二, 两, 二十三, 一百, 二〇二四 (digit by digit without 十 / 百), 廿一 (21), 卅一 (31)."""
    if text.isdigit():
        return int(text)
    text = text.replace("廿", "二十").replace("卅", "三十")
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


def prepare(query: str) -> str:
    """NFKC (full-width digits), traditional characters folded, and what is not a date masked with □
    (same length, so positions stay)."""
    text = unicodedata.normalize("NFKC", query).translate(_TRADITIONAL)
    text = re.sub(r"\s+", " ", text[: 8 * MAX_CHARACTERS]).strip()[:MAX_CHARACTERS]
    if "俩" in text or "仨" in text:
        # 俩月 -> 两个月, 仨星期 -> 三个星期; 俩天 -> 两天, 仨年 -> 三年 (no measure word before those)
        text = re.sub(r"([俩仨])个?([天年周日])?", lambda m: _COLLOQUIAL[m[1]] + (m[2] or "个"), text)
    for title in TITLES:
        text = text.replace(title, "□" * len(title))
    # the surname 周 + a weekday numeral + a given-name character: a person (周一鹏)
    text = re.sub(
        r"(?<![上下本这每个])周([一二三四五六日天])([\u4e00-\u9fff])",
        lambda m: "□□□" if m.group(2) in GIVEN_NAME else m.group(0),
        text,
    )
    # a surname that starts a word + a holiday's name: a person (李国庆说了什么, 王春节)
    text = re.sub(
        r"(?:^|(?<=[^\u4e00-\u9fff])|(?<=[和跟与对给向问找请让被把是]))([\u4e00-\u9fff])(国庆|中秋|元旦|春节|端午|清明)(?!节)",
        lambda m: "□" * len(m.group(0)) if m.group(1) in SURNAMES else m.group(0),
        text,
    )
    # a surname that starts a word + a month in Chinese numerals: a person (李五月来了吗)
    return re.sub(
        r"(?:^|(?<=[^\u4e00-\u9fff])|(?<=[和跟与对给向问找请让被把是]))([\u4e00-\u9fff])([一二三四五六七八九十]+月)(?!份|[0-9零〇一二两三四五六七八九十]+[日号])",
        lambda m: "□" * len(m.group(0)) if m.group(1) in SURNAMES else m.group(0),
        text,
    )


def blocks_fallback(query: str) -> bool:
    """True when the query's time-looking words are recurring forms or masked names: no other analysis
    should look for a date in it."""
    text = unicodedata.normalize("NFKC", query).translate(_TRADITIONAL)
    return bool(RECURRING.search(text)) or "□" in prepare(query)


def _compound_follows(text: str, end: int) -> bool:
    """The time word ending at ``end`` and the next character make a common word (年糕, 月饼)."""
    return end < len(text) and text[end - 1 : end + 1] in COMPOUNDS


def _year(digits: str | None, word: str | None, today: date) -> int | None:
    if digits:
        year = number(digits)
        return year if today.year - 120 <= year <= today.year + 20 and len(digits) >= 4 else None
    return today.year + YEAR_WORDS.get(word or "今年", 0)


YEAR_WORDS = {"大前年": -3, "前年": -2, "去年": -1, "上一年": -1, "上年": -1, "今年": 0, "本年": 0, "当年": 0,
              "明年": 1, "下一年": 1, "后年": 2, "大后年": 3, "一昨年": -2, "昨年": -1, "来年": 1,
              "再来年": 2}  # fmt: skip
_YEAR_WORD = "|".join(sorted(YEAR_WORDS, key=len, reverse=True))
YEAR_PREFIX = rf"(?:(?P<yd>{NUM})年度?|(?P<yw>{_YEAR_WORD})度?)?[的の]?"  # 上一年度第二季度: 年度, the (fiscal) year
DAY_WORDS = {"大前天": -3, "前天": -2, "昨天": -1, "昨日": -1, "今天": 0, "今日": 0, "本日": 0, "当天": 0,
             "当日": 0, "明天": 1, "明日": 1, "后天": 2, "大后天": 3, "一昨日": -2, "明后日": 2, "今晚": 0,
             "今早": 0, "今晨": 0, "今夜": 0, "今朝": 0, "昨晚": -1, "昨夜": -1, "昨晨": -1, "明早": 1, "明晚": 1,
             "明晨": 1, "今晩": 0, "昨晩": -1}  # fmt: skip
_DAY_WORD = "|".join(sorted(DAY_WORDS, key=len, reverse=True))
_DAY_PART = r"(?:的)?(?:上午|下午|中午|早上|早晨|晚上|傍晚|凌晨|夜里|夜间|白天|午后|深夜)"


def _day_in(year: int, month: int, dom: int) -> Span | None:
    found = make_date(year, month, dom)
    return day(found) if found else None


def _days_in(month: int, first: int, last: int, year: int) -> Span | None:
    return between(make_date(year, month, first), make_date(year, month, last))


def atoms(query: str, today: date, hour: int, hemisphere: str) -> tuple[str, list[Found]]:
    """The prepared text of ``query`` and every time expression in it."""
    text = prepare(query)
    if RECURRING.search(text):
        return text, []
    future = bool(re.search(r"打算|计划|准备|将要|将会|予定", text))
    found: list[Found] = []
    for finder in (_dates, _months, _years, _weeks, _days, _quarters, _seasons, _amounts, _holidays):
        found.extend(finder(text, today, hour, hemisphere, future))
    return text, [f for f in found if not _compound_follows(text, f.end)]


def _dates(text: str, today: date, hour: int, hemisphere: str, future: bool) -> list[Found]:
    """(2024年)3月5日至8日, 2024年3月5日, 3月5日 (the most recent), 21日 / 廿一日 / 15号 (the most recent such
    day of a month), 去年今天."""
    out: list[Found] = []
    day_range = rf"(?:(?P<y>{NUM})年)?(?P<m>{NUM})月(?P<d1>{NUM})[日号]?(?:到|至|~|～|-|—)(?P<d2>{NUM})[日号]"
    for m in re.finditer(day_range, text):
        month, d1, d2 = number(m["m"]), number(m["d1"]), number(m["d2"])
        in_year = partial(_days_in, month, d1, d2)
        year = _year(m["y"], None, today) if m["y"] else None
        recent = day_of_month_recent(month, d1, today) if 1 <= month <= 12 else None
        span = in_year(year or (recent.year if recent else today.year))
        if span:
            out.append(Found(m.start(), m.end(), span, "period", RANK_DATE, year_given=bool(year), in_year=in_year,
                             repeats=None if year else "year"))  # fmt: skip
    for m in re.finditer(rf"(?:(?P<y>{NUM})年)?(?P<m>{NUM})月(?P<d>{NUM})[日号]", text):
        month, dom = number(m["m"]), number(m["d"])
        if m["y"]:
            year = _year(m["y"], None, today)
            span = _day_in(year, month, dom) if year and 1 <= month <= 12 else None
            if span:
                out.append(Found(m.start(), m.end(), span, "day", RANK_DATE, year_given=True))
            continue
        recent = day_of_month_recent(month, dom, today) if 1 <= month <= 12 else None
        if recent:
            out.append(Found(m.start(), m.end(), day(recent), "day", RANK_MONTH_DAY,
                             in_year=partial(_day_in, month=month, dom=dom), repeats="year"))  # fmt: skip
    # 号 only where a date reads on (15号的会议), not 3号楼, 2号线
    date_follows = r"(?:$|[的开上下晚早中前后之以到至那这我你他她谁去来见有是和跟，。？！、,.?! ])"
    for m in re.finditer(rf"(?<![0-9零〇一二两三四五六七八九十百廿卅月第周期礼拜])(?P<d>{NUM})(?P<k>[日号])", text):
        if m["k"] == "号" and not re.match(date_follows, text[m.end() : m.end() + 1]):
            continue
        dom = number(m["d"])
        for back in range(3):  # the most recent month that has that day, today included
            first = add_months(today.replace(day=1), -back)
            candidate = make_date(first.year, first.month, dom)
            if candidate and candidate <= today:
                out.append(Found(m.start(), m.end(), day(candidate), "day", RANK_MONTH_DAY))
                break
    # 去年今天, 明年今日, 前年的今天, 两年前的今天, 去年这个时候, 去年の今日, 2年前の今日: the same date that year
    for m in re.finditer(rf"(?:(?P<yw>{_YEAR_WORD})|(?P<n>{SMALL})年前)[的の]?(?:今天|今日|本日|当天|同一天|"
                         rf"这一天|这天|这个时候|这时候|此时|同期|同一时间)", text):  # fmt: skip
        years = YEAR_WORDS[m["yw"]] if m["yw"] else -number(m["n"])
        out.append(Found(m.start(), m.end(), day(add_years(today, years)), "day", RANK_DATE))
    # 上个月3号, 下个月15日, 本月1日, 上个月的12号: that day of that month
    for m in re.finditer(rf"(?P<r>{_RELATIVE_MONTH})的?(?P<d>{NUM})[日号]", text):
        first_day = shift_month(today, RELATIVE_MONTHS[m["r"]]).start
        span = _day_in(first_day.year, first_day.month, number(m["d"]))
        if span:
            out.append(Found(m.start(), m.end(), span, "day", RANK_DATE))
    return out


def _months(text: str, today: date, hour: int, hemisphere: str, future: bool) -> list[Found]:
    """2024年3月, 去年12月, 3月 / 十二月(份) (the most recent that has started), 上个月 / 下下个月 / 先月, and a
    month's part alone (月初, 中旬, 月底: this month's)."""
    out = []
    for m in re.finditer(rf"(?:(?P<y>{NUM})年|(?P<yw>{_YEAR_WORD})[的の]?)(?P<m>{NUM})月份?(?!{NUM}[日号])", text):
        year, month = _year(m["y"], m["yw"], today), number(m["m"])
        if year and 1 <= month <= 12:
            out.append(Found(m.start(), m.end(), month_span(year, month), "month", RANK_PERIOD, year_given=True))
    bare = rf"(?<![0-9零〇一二两三四五六七八九十年个上下本这第])(?P<m>{NUM})月份?(?!{NUM}[日号]|曜)"
    for m in re.finditer(bare, text):
        month = number(m["m"])
        if 1 <= month <= 12:
            out.append(Found(m.start(), m.end(), month_relative(month, today, "bare"), "month", RANK_MONTH,
                             in_year=partial(month_span, month=month), repeats="year"))  # fmt: skip
    for m in re.finditer(_RELATIVE_MONTH, text):
        shift = RELATIVE_MONTHS[m.group(0)]
        out.append(Found(m.start(), m.end(), shift_month(today, shift), "month", RANK_RELATIVE, current=shift == 0))
    for m in re.finditer(
        r"(?<![0-9零〇一二两三四五六七八九十个上下本这年])(?:月初|月中|月底|月末|上旬|中旬|下旬)", text
    ):
        part = {"月初": "early", "上旬": "early", "月中": "mid", "中旬": "mid"}.get(m.group(0), "late")
        piece = apply_part(month_span(today.year, today.month), "month", part)
        if piece:
            out.append(Found(m.start(), m.end(), piece, "period", RANK_PERIOD))
    return out


RELATIVE_MONTHS = {"大上个月": -2, "大下个月": 2,
                   "上上个月": -2, "上上月": -2, "上个月": -1, "上一个月": -1, "上一月": -1, "上月": -1, "本月": 0,
                   "这个月": 0, "这月": 0, "当月": 0, "下个月": 1, "下一个月": 1, "下一月": 1, "下月": 1, "下下个月": 2,
                   "下下月": 2, "先月": -1, "先々月": -2, "先先月": -2, "今月": 0, "来月": 1, "再来月": 2}  # fmt: skip
_RELATIVE_MONTH = "|".join(sorted(RELATIVE_MONTHS, key=len, reverse=True))


def _years(text: str, today: date, hour: int, hemisphere: str, future: bool) -> list[Found]:
    """去年 / 大后年 / 一昨年, 2024年 / 二〇二四年 (four digits; 2024款 and 三年级 are not years), and a year's
    part alone (年初, 年底, 上半年: this year's)."""
    out = []
    for m in re.finditer(_YEAR_WORD, text):
        shift = YEAR_WORDS[m.group(0)]
        out.append(Found(m.start(), m.end(), year_span(today.year + shift), "year", RANK_RELATIVE, current=shift == 0))
    for m in re.finditer(rf"(?P<y>{NUM})年(?!级|代|龄|纪|薪|货|糕)", text):
        year = _year(m["y"], None, today)
        if year:
            out.append(Found(m.start(), m.end(), year_span(year), "year", RANK_YEAR, year_given=True))
    alone = r"(?<![0-9零〇一二两三四五六七八九十去今明前后年])(?:年初|年中|年底|年尾|年末|上半年|下半年)"
    for m in re.finditer(alone, text):
        part = {"年初": "early", "年中": "mid", "上半年": "first half", "下半年": "second half"}.get(m.group(0), "late")
        piece = apply_part(year_span(today.year), "year", part)
        if piece:
            out.append(Found(m.start(), m.end(), piece, "period", RANK_PERIOD))
    return out


WEEK_SHIFTS = {"大上": -2, "大下": 2,
               "上上": -2, "上": -1, "下下": 2, "下": 1, "本": 0, "这": 0, "先々": -2, "先先": -2, "先": -1, "今": 0,
               "来": 1, "再来": 2}  # fmt: skip


# after 周六: 日 / 和周日, the Sunday too (周六日, 周六和周日), not 周六日记
_SUNDAY_TOO = rf"(?P<sun>(?<=六)(?:和|与|跟|及|、)?{WEEK}?[日天](?!子|常|记|志|元|语|程|期))"


def _weeks(text: str, today: date, hour: int, hemisphere: str, future: bool) -> list[Found]:
    """上周 / 上上个星期 / 下一周 / 先週 / 再来週, with a weekday (that day of that week) or 末 (its weekend);
    a bare weekday 周一 / 星期三 / 金曜日 (the most recent, today included) and 周末 (this week's weekend)."""
    out = []
    for m in re.finditer(rf"(?P<p>大上|大下|上上|下下|上|下|本|这)(?:一)?个?{WEEK}"
                         rf"(?:的?{WEEK}?(?P<d>[一二三四五六日天末]){_SUNDAY_TOO}?)?", text):  # fmt: skip
        out.append(_week_found(m, WEEK_SHIFTS[m["p"]], today, WEEKDAY))
    for m in re.finditer(r"(?P<p>先々|先先|先|今|再来|来)周(?:の)?(?:(?P<d>[月火水木金土日末])(?:曜日?)?)?", text):
        out.append(_week_found(m, WEEK_SHIFTS[m["p"]], today, JA_WEEKDAY))
    for m in re.finditer(rf"(?<![上下本这个每□])(?:{WEEK})(?P<d>[一二三四五六日天末]){_SUNDAY_TOO}?", text):
        if m["d"] == "末":
            out.append(Found(m.start(), m.end(), relative_period("weekend", today, 0), "weekend", RANK_RELATIVE))
            continue
        d = weekday_relative(WEEKDAY[m["d"]], today, "bare")
        if future:  # 周五打算做什么: the coming Friday, today included
            d = today + timedelta(days=(WEEKDAY[m["d"]] - today.weekday()) % 7)
        if m["sun"]:  # 周六日: that Saturday and the Sunday after
            out.append(Found(m.start(), m.end(), Span(d, d + DAY), "weekend", RANK_WEEKDAY, repeats="week"))
            continue
        end = m.end() + (len(p.group(0)) if (p := re.match(_DAY_PART, text[m.end() :])) else 0)
        out.append(Found(m.start(), end, day(d), "day", RANK_WEEKDAY, repeats="week"))
    for m in re.finditer(r"(?<![周□の])(?P<d>[月火水木金土日])曜日?", text):
        d = weekday_relative(JA_WEEKDAY[m["d"]], today, "bare")
        if future:  # 金曜日は何をする予定: the coming Friday
            d = today + timedelta(days=(JA_WEEKDAY[m["d"]] - today.weekday()) % 7)
        out.append(Found(m.start(), m.end(), day(d), "day", RANK_WEEKDAY, repeats="week"))
    return out


def _week_found(m: re.Match[str], shift: int, today: date, names: dict[str, int]) -> Found:
    week = week_span(today, shift)
    which = m["d"]
    if which is None:
        return Found(m.start(), m.end(), week, "week", RANK_RELATIVE, current=shift == 0)
    if which == "末" or m.groupdict().get("sun"):  # 上周末, 本周六和周日, 这个周六日: its weekend
        return Found(m.start(), m.end(), Span(week.start + 5 * DAY, week.end), "weekend", RANK_RELATIVE)
    return Found(m.start(), m.end(), day(week.start + timedelta(days=names[which])), "day", RANK_WEEKDAY, in_week=True)


def _days(text: str, today: date, hour: int, hemisphere: str, future: bool) -> list[Found]:
    """今天 / 昨晚 / 明早 / 一昨日 (with 上午 / 晚上 after them: the same day); 现在 (a range's end)."""
    out = []
    for m in re.finditer(rf"(?:{_DAY_WORD})(?:{_DAY_PART})?", text):
        word = re.match(_DAY_WORD, m.group(0))
        assert word is not None
        offset = DAY_WORDS[word.group(0)]
        out.append(Found(m.start(), m.end(), day(today + offset * DAY), "day", RANK_DAY, current=offset == 0))
    for m in re.finditer(r"现在|目前|当前|いま", text):
        out.append(Found(m.start(), m.end(), Span(today, today, True), "day", RANK_DAY, weak=True, now=True))
    return out


def _quarters(text: str, today: date, hour: int, hemisphere: str, future: bool) -> list[Found]:
    """(2024年 / 去年)第三季度, 一季度, 今年第一季, Q1; 上季度 / 本季度 / 下下个季度."""
    out = []
    pattern = rf"{YEAR_PREFIX}(?:第(?P<q1>[一二三四1-4])(?:季度?|四半期)|(?P<q2>[一二三四1-4])季度|[qQ](?P<q3>[1-4]))"
    for m in re.finditer(pattern, text):
        year = _year(m["yd"], m["yw"], today)
        quarter = number(m["q1"] or m["q2"] or m["q3"])
        if year:
            out.append(Found(m.start(), m.end(), quarter_span(year, quarter), "quarter", RANK_PERIOD,
                             year_given=bool(m["yd"] or m["yw"]), in_year=partial(quarter_span, quarter=quarter),
                             repeats="year"))  # fmt: skip
    for m in re.finditer(r"(?P<p>上上|上|本|这|下下|下)(?:一)?个?季度", text):
        shift = WEEK_SHIFTS[m["p"]]
        out.append(Found(m.start(), m.end(), shift_quarter(today, shift), "quarter", RANK_RELATIVE))
    return out


SEASONS = {"春": "spring", "夏": "summer", "秋": "autumn", "冬": "winter"}


def _seasons(text: str, today: date, hour: int, hemisphere: str, future: bool) -> list[Found]:
    """今年夏天, 去年冬天 (the season that starts in that year: how 去年冬天 is said), 2023年夏天, 春天 (the
    most recent that has started)."""
    out = []
    for m in re.finditer(rf"{YEAR_PREFIX}(?P<s>[春夏秋冬])(?:天|季)|(?P<jw>{_YEAR_WORD})の(?P<js>[春夏秋冬])", text):
        if m["js"]:  # 去年の夏
            season = SEASONS[m["js"]]
            out.append(Found(m.start(), m.end(), season_span(season, today.year + YEAR_WORDS[m["jw"]], hemisphere),
                             "season", RANK_SEASON,
                             year_given=True, in_year=partial(season_span, season, hemisphere=hemisphere)))  # fmt: skip
            continue
        season = SEASONS[m["s"]]
        in_year = partial(season_span, season, hemisphere=hemisphere)
        if m["yd"] or m["yw"]:
            year = _year(m["yd"], m["yw"], today)
            if year:
                out.append(Found(m.start(), m.end(), in_year(year), "season", RANK_SEASON, year_given=True,
                                 in_year=in_year))  # fmt: skip
        else:
            span = season_relative(season, today, hemisphere, "bare")
            out.append(Found(m.start(), m.end(), span, "season", RANK_SEASON, in_year=in_year, repeats="year"))
    return out


_UNIT = r"(?P<u>个小时|小时|钟头|时间|天|日|周间|周|个星期|星期|个礼拜|礼拜|个月|年|ヶ月|か月|カ月|箇月)"
_COUNT = r"(?P<n>[0-9]{1,3}|[一二两三四五六七八九十百廿卅]+|半|几|两三|三四|一两|二三|四五|五六)"
_PAIRS = {"两三": (2, 3), "二三": (2, 3), "三四": (3, 4), "一两": (1, 2), "四五": (4, 5), "五六": (5, 6)}
_FEW = {"day": (5, 2), "week": (35, 14), "month": (150, 60)}  # 几天前 / 几周前 / 几个月前: days back, as in English


def _unit(word: str) -> str:
    if "时" in word or "钟头" in word:
        return "hour"
    if word in ("天", "日"):
        return "day"
    if "周" in word or "星期" in word or "礼拜" in word:
        return "week"
    if "月" in word:
        return "month"
    return "year"


def _count(word: str) -> float:
    if word == "半":
        return 0.5
    if word == "几":
        return 5
    if word in _PAIRS:
        return _PAIRS[word][1]
    return number(word)


def _amounts(text: str, today: date, hour: int, hemisphere: str, future: bool) -> list[Found]:
    """Counts of units: N天前 / N天后 (that day), 两三天前 / 几周前 (ranges), 过去三个月 / 最近几天 / 三天内 (up to
    now), 未来一周 (ahead), 前两天 / 前几天."""
    out = []
    span: Span | None
    for m in re.finditer(r"(?<![0-9一二两三四五六七八九十年月日])前(?P<n>两|二|2|几)天", text):
        span = Span(today - 3 * DAY, today - DAY) if m["n"] != "几" else Span(today - 5 * DAY, today - 2 * DAY)
        out.append(Found(m.start(), m.end(), span, "period", RANK_AGO))
    # 前三天, 前五天: the last N days (N of three or more; 前两天 and 前几天 are "a couple / a few days ago" above)
    last_n = rf"(?<![0-9一二两三四五六七八九十年月日])前(?P<n>{SMALL})(?P<u>天|周|个星期|个礼拜|个月|年)"
    for m in re.finditer(last_n, text):
        n = number(m["n"])
        if n >= 3:
            span = between(shift(today, _unit(m["u"]), -n, hour), today, until_now=True)
            if span:
                out.append(Found(m.start(), m.end(), span, "period", RANK_AGO))
    # 一年半前, 一个半月前, 两年半后, 两个半月后, 1年半前: N and a half units ago / later, that day
    for m in re.finditer(rf"(?P<n>{SMALL})(?:(?P<y>年)半|个半(?P<u>月|星期|礼拜|小时|钟头)|(?P<j>ヶ月|か月|カ月)半"
                         rf"|(?P<d>天)半|(?P<w>周|个?星期|个?礼拜)半)"
                         rf"(?P<dir>(?:以|之)?前|(?:以|之)?后|後)", text):  # fmt: skip
        unit = "year" if m["y"] else "day" if m["d"] else "week" if m["w"] else "month" if m["j"] else _unit(m["u"])
        moved = shift(today, unit, (number(m["n"]) + 0.5) * (-1 if "前" in m["dir"] else 1), hour)
        if moved:
            out.append(Found(m.start(), m.end(), day(moved), "day", RANK_AGO))
    # 明后天, 今明两天, 昨今两天, 明后两天: two days joined
    for m in re.finditer(r"(?P<a>[前昨今明])(?P<b>[昨今明后])两?天(?!气)", text):
        a, b = _JOINED[m["a"]], _JOINED[m["b"]]
        if b == a + 1:
            out.append(Found(m.start(), m.end(), Span(today + a * DAY, today + b * DAY), "period", RANK_DAY))
    ahead = ("未来", "接下来", "接下来的", "今后", "往后")
    for m in re.finditer(
        rf"(?P<dir>过去|最近|近|这|未来|接下来的?|今后|往后)的?{_COUNT}{_UNIT}(?:内|里|以内|之内|来)?", text
    ):
        unit, count = _unit(m["u"]), _count(m["n"])
        if m["dir"] in ahead:
            span = between(today, shift(today, unit, count, hour))
        else:
            span = between(shift(today, unit, -count, hour), today, until_now=True)
        if span:
            out.append(Found(m.start(), m.end(), span, "period", RANK_AGO))
    for m in re.finditer(rf"(?<![过去最近未来这])(?<!接下来){_COUNT}{_UNIT}(?:内|以内|之内)", text):
        span = between(shift(today, _unit(m["u"]), -_count(m["n"]), hour), today, until_now=True)
        if span:
            out.append(Found(m.start(), m.end(), span, "period", RANK_AGO))
    ago = rf"(?<![前这过近0-9零〇一二两三四五六七八九十]){_COUNT}{_UNIT}(?P<w>(?:以|之)?前|(?:以|之)?后|後)"
    for m in re.finditer(ago, text):
        unit = _unit(m["u"])
        if unit == "month" and not re.search(r"个|ヶ|か|カ|箇", m["u"]):
            continue  # 3月前 is "before March"
        span = _ago(m["n"], unit, -1 if "前" in m["w"] else 1, today, hour)
        if span:
            out.append(Found(m.start(), m.end(), span, "day" if span.days == 1 else "period", RANK_AGO))
    return out


_JOINED = {"前": -2, "昨": -1, "今": 0, "明": 1, "后": 2}


def _ago(word: str, unit: str, sign: int, today: date, hour: int) -> Span | None:
    """N units ago / later: that day; 几 (a few) and 两三 (two or three) units ago: a range."""
    if word == "几":
        if sign > 0:
            return None
        if unit in _FEW:
            far, near = _FEW[unit]
            return Span(today - far * DAY, today - near * DAY)
        return between(shift(today, "year", -5, hour), shift(today, "year", -2, hour)) if unit == "year" else None
    if word in _PAIRS:
        low, high = _PAIRS[word]
        a, b = shift(today, unit, sign * high, hour), shift(today, unit, sign * low, hour)
        return between(min(a, b), max(a, b)) if a and b else None
    moved = shift(today, unit, sign * _count(word), hour)
    return day(moved) if moved else None


_HOLIDAY_NAMES = "|".join(sorted((n for n in named_days.NAMES if has_cjk(n)), key=len, reverse=True))


def _holidays(text: str, today: date, hour: int, hemisphere: str, future: bool) -> list[Found]:
    """春节, 国庆, 中秋, 元旦, クリスマス ... (named_days), with a year before them (去年春节, 2024年春节)."""
    out = []
    for m in re.finditer(rf"{YEAR_PREFIX}(?P<h>{_HOLIDAY_NAMES})", text):
        name = m["h"]
        if name == "五一" and (re.match(r"[周期拜]", text[m.start("h") - 1 : m.start("h")] or " ")
                             or re.match(r"[起下个点号路街道巷桥村]", text[m.end() : m.end() + 1] or " ")):  # fmt: skip
            continue  # 周五一起, 五一点: not May Day
        if re.match(r"快乐|愉快|節日快樂", text[m.end() : m.end() + 2]):
            continue  # 春节快乐, 中秋快乐: a greeting, not a date
        key = named_days.NAMES[name]
        if m["yd"] or m["yw"]:
            year = _year(m["yd"], m["yw"], today)
            span = named_days.occurrence(key, year) if year else None
        else:
            span = named_days.resolve(key, today, "future" if future else "bare")
        if span:
            out.append(Found(m.start(), m.end(), span, "holiday", RANK_PERIOD, year_given=bool(m["yd"] or m["yw"]),
                             in_year=partial(named_days.occurrence, key), repeats="year"))  # fmt: skip
    return out
