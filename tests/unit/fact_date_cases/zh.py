"""Chinese fact dating cases (see the package docstring for the conventions).

上周X / 下周X name that weekday of the previous / next calendar week (Monday to Sunday); 这周X / 这个周末 that of the
said week.
"""

from __future__ import annotations

from . import FactCase

CASES = [
    # --- yearless future
    FactCase("yearless future", "2026-11-23", "婚礼在12月12日，欢迎大家来！", "2026-12-12", "2026-12-12"),
    # 招了 is past; the start is to come, in the next January.
    FactCase("yearless future", "2026-11-26", "我们招了Emma做后端，她1月4日入职。", "2027-01-04", "2027-01-04"),
    FactCase("yearless future", "2025-03-25", "外部审计安排在十月。", "2025-10-01", "2025-10-31"),
    FactCase("yearless future", "2024-12-16", "新办公室二月开张。", "2025-02-01", "2025-02-28"),
    # --- yearless past
    FactCase("yearless past", "2025-10-07", "我们三月搬家了。", "2025-03-01", "2025-03-31"),
    FactCase("yearless past", "2026-01-12", "12月20日我签了合同。", "2025-12-20", "2025-12-20"),
    FactCase("yearless past", "2027-02-01", "小王十一月离职了。", "2026-11-01", "2026-11-30"),
    # --- weekday future
    # said Tuesday 2025-05-13.
    FactCase("weekday future", "2025-05-13", "周四开评审会。", "2025-05-15", "2025-05-15"),
    # said Friday 2026-10-16.
    FactCase("weekday future", "2026-10-16", "我们周一飞北京。", "2026-10-19", "2026-10-19"),
    # said Wednesday 2024-06-12: this week's Saturday.
    FactCase("weekday future", "2024-06-12", "这周六去看房。", "2024-06-15", "2024-06-15"),
    # --- weekday past
    # said Wednesday 2024-04-17.
    FactCase("weekday past", "2024-04-17", "周日我跑了十公里。", "2024-04-14", "2024-04-14"),
    # said Thursday 2025-12-04: the Monday before is in December too.
    FactCase("weekday past", "2025-12-04", "星期一我终于把bug修好了。", "2025-12-01", "2025-12-01"),
    # --- weekday and date
    # 2025-05-06 is a Tuesday.
    FactCase("weekday and date", "2025-04-23", "5月6日（周二）迁移上线。", "2025-05-06", "2025-05-06"),
    # 2026-03-14 is a Saturday, not a Friday: the date wins.
    FactCase("weekday and date", "2026-03-02", "3月14日周五聚餐。", "2026-03-14", "2026-03-14"),
    # --- weekend
    # said Thursday 2025-06-12: the coming weekend.
    FactCase("weekend", "2025-06-12", "这个周末我们去爬山。", "2025-06-14", "2025-06-15"),
    # said Wednesday 2026-12-09: last week's weekend.
    FactCase("weekend", "2026-12-09", "上周末我们把厨房刷了。", "2026-12-05", "2026-12-06"),
    # said Saturday 2024-03-09: next week is 03-11..17, its weekend 03-16..17.
    FactCase("weekend", "2024-03-09", "下周末我爸妈过来。", "2024-03-16", "2024-03-17"),
    # --- habitual
    FactCase("habitual", "2025-09-15", "每周一我们开例会。", None, None),
    FactCase("habitual", "2026-03-08", "我周末一般睡懒觉。", None, None),
    FactCase("habitual", "2027-06-11", "我通常周日去游泳。", None, None),
    # --- relative
    FactCase("relative", "2025-01-01", "昨天我接受了录用通知。", "2024-12-31", "2024-12-31"),
    FactCase("relative", "2026-12-30", "后天师傅来修空调。", "2027-01-01", "2027-01-01"),
    # 2025 is not a leap year: two days before 03-02 is 02-28.
    FactCase("relative", "2025-03-02", "前天老李辞职了。", "2025-02-28", "2025-02-28"),
    # said Wednesday 2027-12-29: next week is Monday 2028-01-03 to Sunday 01-09.
    FactCase("relative", "2027-12-29", "下周我在上海出差。", "2028-01-03", "2028-01-09"),
    FactCase("relative", "2026-01-15", "上个月我们签了两个新客户。", "2025-12-01", "2025-12-31"),
    FactCase("relative", "2024-06-05", "两周后开始装修。", "2024-06-19", "2024-06-19"),
    FactCase("relative", "2025-09-02", "三天前我摔断了胳膊。", "2025-08-30", "2025-08-30"),
    # said Friday 2025-11-14: next week is 11-17..23, its Wednesday 11-19.
    FactCase("relative", "2025-11-14", "下周三开会。", "2025-11-19", "2025-11-19"),
    # said Friday 2027-01-01: last week is 2026-12-21..27, its Tuesday 12-22.
    FactCase("relative", "2027-01-01", "上周二服务器宕机了。", "2026-12-22", "2026-12-22"),
    # 00:30 on New Year's Day in Beijing (16:30 UTC on 12-31): yesterday is the local 12-31.
    FactCase("relative", "2025-01-01T00:30:00+08:00", "昨天我把报告交了。", "2024-12-31", "2024-12-31"),
    # --- explicit
    FactCase("explicit", "2025-02-01", "我2024年3月12日毕业。", "2024-03-12", "2024-03-12"),
    FactCase("explicit", "2025-06-06", "2023年我们住在杭州。", "2023-01-01", "2023-12-31"),
    FactCase("explicit", "2026-10-01", "合同2027年1月到期。", "2027-01-01", "2027-01-31"),
    # --- no date
    FactCase("no date", "2025-10-15", "我们的用户突破了一万。", None, None),
    # 周一鹏 is a person (surname 周), not a Monday.
    FactCase("no date", "2026-03-02", "周一鹏提到了新的方案。", None, None),
    # 月饼 is a mooncake, not this month.
    FactCase("no date", "2024-09-18", "这个月饼很好吃。", None, None),
    # --- day of month
    FactCase("day of month", "2026-07-09", "包裹3号到了。", "2026-07-03", "2026-07-03"),
    FactCase("day of month", "2025-04-10", "房租15号上涨。", "2025-04-15", "2025-04-15"),
    # the 20th of December has passed: the next 20th is in January.
    FactCase("day of month", "2024-12-22", "尾款要在20号付清。", "2025-01-20", "2025-01-20"),
    # --- season and holiday
    FactCase("season and holiday", "2025-02-20", "今年夏天我们去云南。", "2025-06-01", "2025-08-31"),
    # 春节 2027 is 02-06.
    FactCase("season and holiday", "2027-01-10", "今年春节我们回老家。", "2027-02-06", "2027-02-06"),
    # 除夕 2026 is 02-16, the day before 春节 (02-17).
    FactCase("season and holiday", "2026-02-25", "除夕我们在外婆家吃的年夜饭。", "2026-02-16", "2026-02-16"),
    # 中秋 2026 is 09-25.
    FactCase("season and holiday", "2027-03-01", "去年中秋我们在杭州。", "2026-09-25", "2026-09-25"),
    # --- future dates in past sentences, moved dates, start dates
    FactCase("future in a past sentence", "2025-02-18", "订好了3月3日的牙医。", "2025-03-03", "2025-03-03"),
    # said in December about January, the flight to come: next year's.
    FactCase("future in a past sentence", "2026-12-09", "机票买好了，1月20日回国。", "2027-01-20", "2027-01-20"),
    FactCase("future in a past sentence", "2024-01-16", "报名了11月3日的杭州马拉松。", "2024-11-03", "2024-11-03"),
    # the event is past; said in January about December: the previous year's.
    FactCase("future in a past sentence", "2025-01-07", "快递12月29日就到了。", "2024-12-29", "2024-12-29"),
    FactCase("moved dates", "2025-05-12", "评审会从5月20日推迟到5月27日了。", "2025-05-27", "2025-05-27"),
    # said in December, the new date in January: next year's.
    FactCase("moved dates", "2026-12-21", "年会从12月30日改到1月8日。", "2027-01-08", "2027-01-08"),
    # said Tuesday 2024-10-08: the Friday of that week.
    FactCase("moved dates", "2024-10-08", "面试改到周五了。", "2024-10-11", "2024-10-11"),
    FactCase("start date", "2026-02-10", "入职日期是3月2日", "2026-03-02", "2026-03-02"),
    # said in December: January is next year's.
    FactCase("start date", "2025-12-15", "我的入职时间定在1月5日。", "2026-01-05", "2026-01-05"),
    # 23:30 in Beijing (15:30 UTC): the local day is 06-30.
    FactCase("start date", "2027-06-30T23:30:00+08:00", "第一天上班是7月1日", "2027-07-01", "2027-07-01"),
]
