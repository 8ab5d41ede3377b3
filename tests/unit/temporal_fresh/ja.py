"""Japanese: fresh hand-written cases (see the package docstring). R = Saturday 2025-11-01 12:00 UTC."""

from temporal_cases import Case

NEW_YEAR = "2026-01-03"  # a Saturday; this week 2025-12-29..2026-01-04

CASES = [
    # basics
    Case("basics", "昨日何をした？", "2025-10-31", "2025-10-31"),
    Case("basics", "先週の会議で何を決めた？", "2025-10-20", "2025-10-26"),
    Case("basics", "5月に何があった？", "2025-05-01", "2025-05-31"),
    Case("basics", "3日前に誰と会った？", "2025-10-29", "2025-10-29"),
    Case("basics", "来週の金曜日は何がある？", "2025-11-07", "2025-11-07"),
    Case("basics", "一昨日の夕食は何だった？", "2025-10-30", "2025-10-30"),
    Case("basics", "明後日の予定は？", "2025-11-03", "2025-11-03"),
    Case("basics", "今週終わらせた仕事は？", "2025-10-27", "2025-11-02"),
    # ranges
    Case("ranges", "3月から5月まで何をしていた？", "2025-03-01", "2025-05-31"),
    Case("ranges", "1月から今までにいくら使った？", "2025-01-01", "now"),
    # durations
    Case("durations", "過去2週間の売上は？", "2025-10-18", "now"),
    # parts of periods
    Case("parts of periods", "9月の終わりに何があった？", "2025-09-21", "2025-09-30"),
    Case("parts of periods", "先月の初めに誰が来た？", "2025-10-01", "2025-10-10"),
    # relative chains
    Case("relative chains", "先々週の会議の議事録", "2025-10-13", "2025-10-19"),
    Case("relative chains", "再来週の出張の予定", "2025-11-10", "2025-11-16"),
    # seasons and quarters
    Case("seasons and quarters", "一昨年の夏はどこに行った？", "2023-06-01", "2023-08-31"),
    # times of day
    Case("times of day", "今朝何を食べた？", "2025-11-01", "2025-11-01"),
    Case("times of day", "昨夜誰と話した？", "2025-10-31", "2025-10-31"),
    # holidays
    Case("holidays", "クリスマスに何をした？", "2024-12-25", "2024-12-25"),
    Case("holidays", "大晦日はどこにいた？", "2024-12-31", "2024-12-31"),
    Case("holidays", "元日に誰と会った？", "2025-01-01", "2025-01-01"),
    # names and non-dates
    Case("names and non-dates", "明日香は何と言った？", None, None),
    Case("names and non-dates", "今日子さんの意見は？", None, None),
    # turn of year
    Case("turn of year", "先週何があった？", "2025-12-22", "2025-12-28", NEW_YEAR),
    Case("turn of year", "先月の電気代はいくら？", "2025-12-01", "2025-12-31", NEW_YEAR),
    # future weekday
    Case("future weekday", "金曜日は何をする予定？", "2025-11-07", "2025-11-07"),
    Case("future weekday", "月曜日の予定は？", "2025-11-03", "2025-11-03"),
    # same date last year
    Case("same date last year", "去年の今日は何をしていた？", "2024-11-01", "2024-11-01"),
    Case("same date last year", "一年前の今日の写真", "2024-11-01", "2024-11-01"),
    Case("same date last year", "2年前の今日はどこにいた？", "2023-11-01", "2023-11-01"),
    # relative year quarter
    Case("relative year quarter", "去年の第2四半期の売上は？", "2024-04-01", "2024-06-30"),
    Case("relative year quarter", "来年の第1四半期の計画は？", "2026-01-01", "2026-03-31"),
    # fractional durations
    Case("fractional durations", "1年半前はどこに住んでいた？", "2024-05-01", "2024-05-01"),
    Case("fractional durations", "半年前の健康診断の結果", "2025-05-01", "2025-05-01"),
    Case("fractional durations", "2年半前に何があった？", "2023-05-01", "2023-05-01"),
]
