"""English fact dating cases (see the package docstring for the conventions)."""

from __future__ import annotations

from . import FactCase

CASES = [
    # --- yearless future: the next such date or month after said
    FactCase("yearless future", "2025-02-26", "Starts April 1st.", "2025-04-01", "2025-04-01"),
    FactCase("yearless future", "2025-03-25", "External GDPR audit in October.", "2025-10-01", "2025-10-31"),
    FactCase(
        "yearless future",
        "2026-11-23",
        "My wedding is on December 12 in Pune, you are all invited!",
        "2026-12-12",
        "2026-12-12",
    ),
    # "Hired" is past, but the start date is the event to come: January after November is next year's.
    FactCase(
        "yearless future",
        "2026-11-26",
        "Hired Emma as backend engineer, she starts January 4.",
        "2027-01-04",
        "2027-01-04",
    ),
    FactCase(
        "yearless future", "2025-12-09", "The lease on the new office begins February 1.", "2026-02-01", "2026-02-01"
    ),
    FactCase(
        "yearless future",
        "2024-11-18",
        "Our kickoff with the Lisbon team will be in January.",
        "2025-01-01",
        "2025-01-31",
    ),
    FactCase(
        "yearless future",
        "2026-12-15",
        "I'm flying to Toronto on January 8 for the conference.",
        "2027-01-08",
        "2027-01-08",
    ),
    FactCase("yearless future", "2027-10-04", "The new pricing takes effect November 15.", "2027-11-15", "2027-11-15"),
    FactCase(
        "yearless future", "2024-05-20", "We're launching the Android app in September.", "2024-09-01", "2024-09-30"
    ),
    FactCase("yearless future", "2025-12-28", "My sister is due in March!", "2026-03-01", "2026-03-31"),
    # "Signed" is past; the work to come begins in September.
    FactCase(
        "yearless future",
        "2026-08-11",
        "Signed the contract, work begins on September 14.",
        "2026-09-14",
        "2026-09-14",
    ),
    FactCase("yearless future", "2024-11-29", "The annual report is due February 28.", "2025-02-28", "2025-02-28"),
    FactCase(
        "yearless future",
        "2027-01-12",
        "Marta's visa interview is scheduled for March 3rd.",
        "2027-03-03",
        "2027-03-03",
    ),
    FactCase("yearless future", "2025-07-01", "We'll repaint the office in August.", "2025-08-01", "2025-08-31"),
    FactCase(
        "yearless future", "2026-12-30", "The Berlin office opens on the 2nd of February.", "2027-02-02", "2027-02-02"
    ),
    FactCase(
        "yearless future", "2024-02-14", "Tax filing deadline is April 15, don't forget.", "2024-04-15", "2024-04-15"
    ),
    FactCase(
        "yearless future",
        "2025-10-20",
        "Booked the flights to Chile, we leave December 27.",
        "2025-12-27",
        "2025-12-27",
    ),
    FactCase(
        "yearless future", "2026-11-02", "Kindergarten registration opens in January.", "2027-01-01", "2027-01-31"
    ),
    # --- yearless past: the most recent such date or month before said
    FactCase("yearless past", "2025-10-14", "We moved here in March.", "2025-03-01", "2025-03-31"),
    FactCase("yearless past", "2025-06-10", "I got back from Lisbon on June 3.", "2025-06-03", "2025-06-03"),
    # said in January about December, past tense: the previous year's.
    FactCase("yearless past", "2026-01-07", "We adopted the puppy on December 20.", "2025-12-20", "2025-12-20"),
    FactCase(
        "yearless past",
        "2027-01-15",
        "The server outage was on December 29, it took four hours to restore.",
        "2026-12-29",
        "2026-12-29",
    ),
    FactCase(
        "yearless past", "2024-01-09", "I finished the marathon training plan in November.", "2023-11-01", "2023-11-30"
    ),
    FactCase("yearless past", "2025-09-03", "Alex joined the team in May.", "2025-05-01", "2025-05-31"),
    FactCase("yearless past", "2026-02-02", "My grandmother turned 90 on January 17.", "2026-01-17", "2026-01-17"),
    FactCase("yearless past", "2024-12-03", "We closed the Series A in October.", "2024-10-01", "2024-10-31"),
    FactCase("yearless past", "2026-01-20", "I quit sugar back in October and feel great.", "2025-10-01", "2025-10-31"),
    FactCase("yearless past", "2025-01-04", "Our daughter was born on December 30.", "2024-12-30", "2024-12-30"),
    FactCase(
        "yearless past", "2027-02-11", "The kitchen renovation was finished in December.", "2026-12-01", "2026-12-31"
    ),
    FactCase(
        "yearless past", "2024-08-22", "Tom broke his wrist on July 4th skateboarding.", "2024-07-04", "2024-07-04"
    ),
    FactCase("yearless past", "2025-11-12", "We signed the lease on September 30.", "2025-09-30", "2025-09-30"),
    FactCase("yearless past", "2026-03-16", "I started learning Portuguese in January.", "2026-01-01", "2026-01-31"),
    FactCase("yearless past", "2024-01-02", "Sold my old car on December 18.", "2023-12-18", "2023-12-18"),
    FactCase("yearless past", "2027-06-29", "The cat went missing on May 28.", "2027-05-28", "2027-05-28"),
    FactCase("yearless past", "2025-02-05", "Priya left the company in November.", "2024-11-01", "2024-11-30"),
    # --- weekday future: the first such day after said
    # said Wednesday 2026-12-02: Thursday is the next day.
    FactCase("weekday future", "2026-12-02", "The design review is on Thursday.", "2026-12-03", "2026-12-03"),
    # said Tuesday 2025-03-11.
    FactCase("weekday future", "2025-03-11", "See you Friday!", "2025-03-14", "2025-03-14"),
    # said Thursday 2024-06-13.
    FactCase("weekday future", "2024-06-13", "We fly out Monday.", "2024-06-17", "2024-06-17"),
    # said Friday 2025-09-19.
    FactCase("weekday future", "2025-09-19", "The demo will be on Tuesday.", "2025-09-23", "2025-09-23"),
    # said Monday 2026-01-05.
    FactCase("weekday future", "2026-01-05", "Dentist appointment on Wednesday at 10.", "2026-01-07", "2026-01-07"),
    # said Wednesday 2027-01-27.
    FactCase("weekday future", "2027-01-27", "I'll send the invoice on Friday.", "2027-01-29", "2027-01-29"),
    # said Monday 2024-12-23.
    FactCase("weekday future", "2024-12-23", "Payroll runs Thursday this time.", "2024-12-26", "2024-12-26"),
    # said Wednesday 2025-11-26.
    FactCase("weekday future", "2025-11-26", "The plumber is coming Saturday morning.", "2025-11-29", "2025-11-29"),
    # said Friday 2025-12-26.
    FactCase("weekday future", "2025-12-26", "Let's do the retro on Monday.", "2025-12-29", "2025-12-29"),
    # said Thursday 2026-12-31: the Sunday after is in the new year.
    FactCase("weekday future", "2026-12-31", "Our flight home is on Sunday.", "2027-01-03", "2027-01-03"),
    # said Saturday 2024-11-30.
    FactCase("weekday future", "2024-11-30", "The board will vote on Tuesday.", "2024-12-03", "2024-12-03"),
    # said Monday 2027-11-01.
    FactCase("weekday future", "2027-11-01", "Mom is arriving Thursday evening.", "2027-11-04", "2027-11-04"),
    # said Tuesday 2026-04-07.
    FactCase("weekday future", "2026-04-07", "I'm going to take Friday off.", "2026-04-10", "2026-04-10"),
    # said Thursday 2025-08-14.
    FactCase("weekday future", "2025-08-14", "Can you cover my shift on Saturday?", "2025-08-16", "2025-08-16"),
    # said Sunday 2024-03-03.
    FactCase("weekday future", "2024-03-03", "The vet appointment is Wednesday.", "2024-03-06", "2024-03-06"),
    # said Wednesday 2025-01-29: the Monday after is in February.
    FactCase("weekday future", "2025-01-29", "Final exam is on Monday, wish me luck.", "2025-02-03", "2025-02-03"),
    # said Sunday 2026-02-22.
    FactCase("weekday future", "2026-02-22", "We're hosting the book club on Thursday.", "2026-02-26", "2026-02-26"),
    # --- weekday past: the most recent such day before said
    # said Wednesday 2025-10-15: the Sunday just past.
    FactCase("weekday past", "2025-10-15", "I ran a 10k on Sunday.", "2025-10-12", "2025-10-12"),
    # said Thursday 2026-03-19.
    FactCase("weekday past", "2026-03-19", "On Monday I finally fixed the bug.", "2026-03-16", "2026-03-16"),
    # said Friday 2024-01-12.
    FactCase("weekday past", "2024-01-12", "The heating broke down on Tuesday.", "2024-01-09", "2024-01-09"),
    # said Monday 2025-02-17.
    FactCase("weekday past", "2025-02-17", "We had our first date on Friday.", "2025-02-14", "2025-02-14"),
    # said Friday 2026-06-05.
    FactCase("weekday past", "2026-06-05", "I submitted the grant application Wednesday.", "2026-06-03", "2026-06-03"),
    # said Monday 2027-01-04: the Thursday before is in the old year.
    FactCase("weekday past", "2027-01-04", "Jake called in sick on Thursday.", "2026-12-31", "2026-12-31"),
    # said Tuesday 2025-12-30.
    FactCase("weekday past", "2025-12-30", "The shipment arrived Saturday.", "2025-12-27", "2025-12-27"),
    # said Tuesday 2024-10-29.
    FactCase("weekday past", "2024-10-29", "On Friday we celebrated Leo's promotion.", "2024-10-25", "2024-10-25"),
    # said Thursday 2027-03-11.
    FactCase("weekday past", "2027-03-11", "I passed my driving test on Tuesday!", "2027-03-09", "2027-03-09"),
    # said Wednesday 2024-09-04.
    FactCase("weekday past", "2024-09-04", "Monday's deploy went smoothly.", "2024-09-02", "2024-09-02"),
    # said Tuesday 2026-01-13.
    FactCase("weekday past", "2026-01-13", "We lost power on Sunday night.", "2026-01-11", "2026-01-11"),
    # said Saturday 2025-05-17.
    FactCase("weekday past", "2025-05-17", "Sara presented the roadmap on Wednesday.", "2025-05-14", "2025-05-14"),
    # said Monday 2024-12-02: the Saturday before is in November.
    FactCase("weekday past", "2024-12-02", "I bought the bike on Saturday.", "2024-11-30", "2024-11-30"),
    # said Saturday 2026-10-24.
    FactCase("weekday past", "2026-10-24", "The interview on Thursday went really well.", "2026-10-22", "2026-10-22"),
    # said Friday 2025-01-03: the Monday before is in the old year.
    FactCase("weekday past", "2025-01-03", "My flight got cancelled on Monday.", "2024-12-30", "2024-12-30"),
    # said Friday 2027-07-09.
    FactCase(
        "weekday past", "2027-07-09", "Had a great chat with the investors on Tuesday.", "2027-07-06", "2027-07-06"
    ),
    # --- weekday and date: the month and day win over the weekday
    # 2025-05-06 is a Tuesday.
    FactCase(
        "weekday and date",
        "2025-04-23",
        "new date for the billing migration cutover: Tuesday May 6",
        "2025-05-06",
        "2025-05-06",
    ),
    # 2026-03-14 is a Saturday, not a Friday: the date wins.
    FactCase("weekday and date", "2026-03-02", "The launch party is on Friday, March 14.", "2026-03-14", "2026-03-14"),
    # 2026-01-12 is a Monday; said in December, so next year's.
    FactCase("weekday and date", "2025-12-15", "The offsite starts Monday, January 12.", "2026-01-12", "2026-01-12"),
    # 2024-06-08 is a Saturday.
    FactCase("weekday and date", "2024-06-20", "We met on Saturday, 8 June.", "2024-06-08", "2024-06-08"),
    # 2026-06-18 is a Thursday.
    FactCase(
        "weekday and date", "2026-06-09", "The review got moved to Thursday the 18th.", "2026-06-18", "2026-06-18"
    ),
    # 2025-10-03 is a Friday, not a Wednesday: the date wins.
    FactCase(
        "weekday and date",
        "2025-10-10",
        "I signed the papers on Wednesday, October 3.",
        "2025-10-03",
        "2025-10-03",
    ),
    # 2026-02-04 is a Wednesday.
    FactCase("weekday and date", "2026-01-26", "Interview confirmed for Wed 4 Feb.", "2026-02-04", "2026-02-04"),
    # 2027-12-10 is a Friday.
    FactCase("weekday and date", "2027-11-20", "The concert is on Friday, December 10.", "2027-12-10", "2027-12-10"),
    # 2025-01-02 is a Thursday, not a Tuesday: the date wins, and it is the coming January.
    FactCase(
        "weekday and date",
        "2024-12-18",
        "Closing on the house is Tuesday, January 2.",
        "2025-01-02",
        "2025-01-02",
    ),
    # 2026-04-19 is a Sunday.
    FactCase("weekday and date", "2026-03-30", "The half marathon is Sunday, April 19.", "2026-04-19", "2026-04-19"),
    # 2025-11-03 is a Monday; said Thursday 2025-11-06.
    FactCase("weekday and date", "2025-11-06", "We shipped v2 on Monday the 3rd.", "2025-11-03", "2025-11-03"),
    # 2026-09-07 is a Monday.
    FactCase("weekday and date", "2026-08-20", "Training resumes Monday 7 September.", "2026-09-07", "2026-09-07"),
    # 2025-02-06 is a Thursday.
    FactCase(
        "weekday and date",
        "2025-01-22",
        "Grandpa's surgery is on Thursday, February 6.",
        "2025-02-06",
        "2025-02-06",
    ),
    # 2027-11-28 is a Sunday, not a Friday: the date wins.
    FactCase("weekday and date", "2027-11-15", "Team dinner Friday 28 November", "2027-11-28", "2027-11-28"),
    # 2024-07-16 is a Tuesday.
    FactCase(
        "weekday and date",
        "2024-07-22",
        "The landlord came by on Tuesday, July 16.",
        "2024-07-16",
        "2024-07-16",
    ),
    # 2025-12-31 is a Wednesday.
    FactCase("weekday and date", "2025-12-10", "Deadline moved to Wednesday, 31 December.", "2025-12-31", "2025-12-31"),
    # 2025-01-10 is a Friday.
    FactCase(
        "weekday and date",
        "2025-01-15",
        "My last day at the bank was Friday, January 10.",
        "2025-01-10",
        "2025-01-10",
    ),
    # --- weekend: Saturday..Sunday
    # said Monday 2026-11-30, past tense: the weekend just past.
    FactCase(
        "weekend",
        "2026-11-30",
        "Newsletter subscribers passed 10,000 this weekend.",
        "2026-11-28",
        "2026-11-29",
    ),
    # said Thursday 2025-07-17, plans: the coming weekend.
    FactCase("weekend", "2025-07-17", "This weekend we're driving up to the lake.", "2025-07-19", "2025-07-20"),
    # said Wednesday 2024-05-15.
    FactCase("weekend", "2024-05-15", "Last weekend I repainted the fence.", "2024-05-11", "2024-05-12"),
    # said Saturday 2025-03-08: this weekend is 03-08..09, next weekend the one after.
    FactCase("weekend", "2025-03-08", "Next weekend we're hosting my parents.", "2025-03-15", "2025-03-16"),
    # said Monday 2026-01-05, past tense.
    FactCase("weekend", "2026-01-05", "Over the weekend we migrated the database.", "2026-01-03", "2026-01-04"),
    # said Friday 2027-04-16, plans: the coming weekend.
    FactCase("weekend", "2027-04-16", "I'm spending the weekend painting the nursery.", "2027-04-17", "2027-04-18"),
    # said Sunday 2025-02-09: the weekend under way.
    FactCase("weekend", "2025-02-09", "We went skiing this weekend.", "2025-02-08", "2025-02-09"),
    # said Tuesday 2026-12-01, future: the coming weekend.
    FactCase("weekend", "2026-12-01", "Maya's birthday party is this weekend.", "2026-12-05", "2026-12-06"),
    # said Saturday 2024-09-14: the weekend under way.
    FactCase("weekend", "2024-09-14", "This weekend I'm in Paris.", "2024-09-14", "2024-09-15"),
    # said Tuesday 2025-12-30.
    FactCase("weekend", "2025-12-30", "Last weekend was the company hackathon.", "2025-12-27", "2025-12-28"),
    # said Sunday 2026-06-14: this weekend is 06-13..14, next weekend the one after.
    FactCase("weekend", "2026-06-14", "Next weekend is our tenth anniversary trip.", "2026-06-20", "2026-06-21"),
    # said Wednesday 2027-12-29: the coming weekend is in the new year.
    FactCase("weekend", "2027-12-29", "The storage unit move happens this weekend.", "2028-01-01", "2028-01-02"),
    # said Tuesday 2024-10-08, past tense.
    FactCase(
        "weekend",
        "2024-10-08",
        "We finally unpacked the last boxes over the weekend.",
        "2024-10-05",
        "2024-10-06",
    ),
    # said Thursday 2026-08-27.
    FactCase("weekend", "2026-08-27", "Our team won the tournament last weekend.", "2026-08-22", "2026-08-23"),
    # said Thursday 2025-11-13, plans: the coming weekend.
    FactCase("weekend", "2025-11-13", "We have guests staying the weekend.", "2025-11-15", "2025-11-16"),
    # said Monday 2024-02-26, past tense.
    FactCase("weekend", "2024-02-26", "The website was down all weekend.", "2024-02-24", "2024-02-25"),
    # said Friday 2025-08-29, plans.
    FactCase(
        "weekend",
        "2025-08-29",
        "I'm hiking a stretch of the Pacific Crest Trail this weekend.",
        "2025-08-30",
        "2025-08-31",
    ),
    # --- habitual: no date
    FactCase("habitual", "2025-10-15", "Most Saturdays I'm bouldering.", None, None),
    FactCase("habitual", "2026-01-05", "Every Monday we have standup at 9.", None, None),
    FactCase("habitual", "2024-04-02", "I usually run on Sundays.", None, None),
    FactCase("habitual", "2027-03-12", "On weekends I sleep in.", None, None),
    FactCase("habitual", "2025-06-06", "Never deploy on a Friday.", None, None),
    FactCase("habitual", "2026-09-09", "We order pizza every Friday night.", None, None),
    FactCase("habitual", "2024-12-30", "The gym is closed on Mondays.", None, None),
    FactCase("habitual", "2025-01-02", "I call my mother every Sunday.", None, None),
    FactCase("habitual", "2026-11-25", "Payroll goes out on the 25th of every month.", None, None),
    FactCase("habitual", "2025-11-28", "Each December we donate to the food bank.", None, None),
    FactCase("habitual", "2027-05-20", "We go to the coast every summer.", None, None),
    FactCase("habitual", "2024-07-08", "Team lunch is on Thursdays.", None, None),
    FactCase("habitual", "2026-02-16", "I work from home on Tuesdays and Wednesdays.", None, None),
    FactCase("habitual", "2025-12-01", "In winter I always catch a cold.", None, None),
    FactCase("habitual", "2027-08-31", "Rent is due on the first of each month.", None, None),
    FactCase("habitual", "2024-05-23", "The farmers' market runs every Saturday morning.", None, None),
    FactCase("habitual", "2026-04-20", "Mondays are always hectic here.", None, None),
    FactCase("habitual", "2025-12-15", "We usually visit my in-laws at Christmas.", None, None),
    FactCase("habitual", "2027-01-18", "I take the kids swimming on weekends.", None, None),
    # --- relative: counted from the said day
    FactCase("relative", "2025-03-04", "I met the new CTO yesterday.", "2025-03-03", "2025-03-03"),
    FactCase("relative", "2026-12-31", "The contractor comes tomorrow.", "2027-01-01", "2027-01-01"),
    FactCase("relative", "2025-01-01", "I sent the offer letter two days ago.", "2024-12-30", "2024-12-30"),
    # said Wednesday 2024-11-13: next week is Monday 11-18 to Sunday 11-24.
    FactCase("relative", "2024-11-13", "We're moving offices next week.", "2024-11-18", "2024-11-24"),
    FactCase("relative", "2026-01-14", "Sales dropped last month.", "2025-12-01", "2025-12-31"),
    FactCase("relative", "2025-06-04", "The renovation starts in three weeks.", "2025-06-25", "2025-06-25"),
    # 2024 is a leap year: tomorrow is 02-29, the day after it 03-01.
    FactCase("relative", "2024-02-28", "The parts arrive the day after tomorrow.", "2024-03-01", "2024-03-01"),
    # said Saturday 2025-05-10: the coming Friday is in next week either way.
    FactCase("relative", "2025-05-10", "Next Friday is my last day.", "2025-05-16", "2025-05-16"),
    # said Monday 2026-09-14: the most recent Tuesday is in last week either way.
    FactCase("relative", "2026-09-14", "Last Tuesday I had a job interview.", "2026-09-08", "2026-09-08"),
    # 2027 is not a leap year: 02-17 plus 14 days is 03-03.
    FactCase("relative", "2027-02-17", "The new hire starts in two weeks.", "2027-03-03", "2027-03-03"),
    FactCase("relative", "2025-01-05", "I saw the specialist a week ago.", "2024-12-29", "2024-12-29"),
    # 2026 is not a leap year: two days before 03-01 is 02-27.
    FactCase("relative", "2026-03-01", "I had surgery the day before yesterday.", "2026-02-27", "2026-02-27"),
    FactCase("relative", "2024-12-05", "The team offsite is next month.", "2025-01-01", "2025-01-31"),
    FactCase("relative", "2026-02-10", "We bought the house last year.", "2025-01-01", "2025-12-31"),
    FactCase("relative", "2025-09-30", "We're getting married next year.", "2026-01-01", "2026-12-31"),
    # said Wednesday 2027-06-02: this week is Monday 05-31 to Sunday 06-06.
    FactCase("relative", "2027-06-02", "The auditors are here this week.", "2027-05-31", "2027-06-06"),
    FactCase("relative", "2025-12-26", "I'll have the results in ten days.", "2026-01-05", "2026-01-05"),
    # 2024 is a leap year: three days before 03-02 is 02-28.
    FactCase("relative", "2024-03-02", "We spoke to the landlord three days ago.", "2024-02-28", "2024-02-28"),
    # 00:40 on New Year's Day in Tokyo (15:40 UTC on 12-31): yesterday is the local 12-31.
    FactCase("relative", "2026-01-01T00:40:00+09:00", "I finished the slides yesterday.", "2025-12-31", "2025-12-31"),
    # 22:15 on 11-30 in California (06:15 UTC on 12-01): tomorrow is the local 12-01.
    FactCase("relative", "2024-11-30T22:15:00-08:00", "The movers come tomorrow.", "2024-12-01", "2024-12-01"),
    FactCase("relative", "2025-07-06", "Last night the basement flooded.", "2025-07-05", "2025-07-05"),
    FactCase("relative", "2026-05-18", "This morning I signed the lease.", "2026-05-18", "2026-05-18"),
    FactCase("relative", "2027-09-01", "Today is my first day at the new job.", "2027-09-01", "2027-09-01"),
    # said Tuesday 2026-01-13: fourteen days before is 2025-12-30.
    FactCase("relative", "2026-01-13", "Two weeks ago I started physiotherapy.", "2025-12-30", "2025-12-30"),
    # said Monday 2025-01-06: last week is Monday 2024-12-30 to Sunday 2025-01-05.
    FactCase("relative", "2025-01-06", "Last week we signed two new clients.", "2024-12-30", "2025-01-05"),
    # --- explicit: the date, month or year as written
    FactCase("explicit", "2025-05-02", "I graduated on 12 March 2024.", "2024-03-12", "2024-03-12"),
    FactCase("explicit", "2025-08-08", "We lived in Osaka in 2023.", "2023-01-01", "2023-12-31"),
    FactCase("explicit", "2025-06-20", "Release 4.0 shipped on 2025-06-03.", "2025-06-03", "2025-06-03"),
    FactCase("explicit", "2024-11-20", "The merger closes in March 2025.", "2025-03-01", "2025-03-31"),
    FactCase("explicit", "2026-11-10", "Our contract ends on January 31, 2027.", "2027-01-31", "2027-01-31"),
    FactCase("explicit", "2024-03-15", "She was born on 29 February 2024.", "2024-02-29", "2024-02-29"),
    FactCase("explicit", "2026-04-01", "The building was finished in 2019.", "2019-01-01", "2019-12-31"),
    FactCase("explicit", "2026-12-21", "Kickoff is set for 2027-01-11.", "2027-01-11", "2027-01-11"),
    FactCase("explicit", "2024-06-05", "I started at Google in September 2022.", "2022-09-01", "2022-09-30"),
    FactCase("explicit", "2024-01-03", "We got married on December 31, 2023.", "2023-12-31", "2023-12-31"),
    FactCase("explicit", "2025-12-01", "We plan to expand to Brazil in 2027.", "2027-01-01", "2027-12-31"),
    FactCase("explicit", "2025-12-29", "The old system was retired in January 2025.", "2025-01-01", "2025-01-31"),
    FactCase("explicit", "2027-03-08", "Our first store opened on 1 April 2024.", "2024-04-01", "2024-04-01"),
    FactCase("explicit", "2026-01-20", "The trial period ends on Feb 14, 2026.", "2026-02-14", "2026-02-14"),
    FactCase("explicit", "2024-10-10", "I ran my first marathon in 2021.", "2021-01-01", "2021-12-31"),
    FactCase("explicit", "2025-12-18", "The visa appointment is on 2026-02-03.", "2026-02-03", "2026-02-03"),
    FactCase("explicit", "2026-06-10", "Our offices closed in December 2024.", "2024-12-01", "2024-12-31"),
    FactCase("explicit", "2025-04-14", "My passport expires in May 2027.", "2027-05-01", "2027-05-31"),
    # --- no date: no time expression, or numbers and names that are not dates
    FactCase("no date", "2025-10-15", "We hit 10,000 users.", None, None),
    FactCase("no date", "2026-03-03", "We upgraded everything to Python 3.12.", None, None),
    FactCase("no date", "2024-09-18", "The meeting room is Room 101.", None, None),
    FactCase("no date", "2025-12-20", "Add 2 cups of flour and a pinch of salt.", None, None),
    FactCase("no date", "2027-04-09", "April Ludgate is my favourite character in Parks and Recreation.", None, None),
    # Easter Island is a place, not the holiday.
    FactCase("no date", "2026-04-05", "Easter Island has almost 900 moai statues.", None, None),
    FactCase("no date", "2024-01-15", "I love pizza.", None, None),
    FactCase("no date", "2025-05-01", "May I borrow your charger?", None, None),
    FactCase("no date", "2026-06-22", "June from accounting says hi.", None, None),
    FactCase("no date", "2024-11-11", "The score was 3-1 for the home team.", None, None),
    FactCase("no date", "2027-02-02", "Our budget is 2,500 euros.", None, None),
    FactCase("no date", "2025-10-05", "Version 10.5 fixes the login bug.", None, None),
    FactCase("no date", "2026-08-08", "My apartment is on the 3rd floor.", None, None),
    FactCase("no date", "2025-03-19", "The march downtown was peaceful.", None, None),
    FactCase("no date", "2024-06-30", "Call me at 555-0142.", None, None),
    FactCase("no date", "2027-11-05", "Her flat is at 24 Friday Street.", None, None),
    FactCase("no date", "2025-07-21", "I finished reading One Hundred Years of Solitude.", None, None),
    FactCase("no date", "2026-10-12", "He scored 2024 points in his career.", None, None),
    FactCase("no date", "2024-08-14", "The 24/7 support line is great.", None, None),
    FactCase("no date", "2025-09-09", "Augusta National is my dream golf course.", None, None),
    # --- day of month: the said month's day if it fits the tense, else the next or previous month's
    FactCase("day of month", "2025-04-10", "The rent increase kicks in on the 15th.", "2025-04-15", "2025-04-15"),
    FactCase("day of month", "2026-07-09", "The package arrived on the 3rd.", "2026-07-03", "2026-07-03"),
    # the 20th of December has passed: the next 20th is in January.
    FactCase("day of month", "2024-12-22", "Final payment is due on the 20th.", "2025-01-20", "2025-01-20"),
    # the 28th of January is still ahead, past tense: December's 28th.
    FactCase("day of month", "2027-01-04", "I got my stitches out on the 28th.", "2026-12-28", "2026-12-28"),
    FactCase("day of month", "2025-09-02", "The electrician is booked for the 9th.", "2025-09-09", "2025-09-09"),
    FactCase("day of month", "2026-12-27", "Our flight is on the 2nd.", "2027-01-02", "2027-01-02"),
    FactCase("day of month", "2024-04-16", "We had the team photo taken on the 11th.", "2024-04-11", "2024-04-11"),
    FactCase("day of month", "2025-10-17", "The new menu launches on the 1st.", "2025-11-01", "2025-11-01"),
    FactCase("day of month", "2026-02-03", "I paid the deposit on the 30th.", "2026-01-30", "2026-01-30"),
    FactCase("day of month", "2027-06-14", "Auditors arrive on the 21st.", "2027-06-21", "2027-06-21"),
    FactCase("day of month", "2025-03-25", "She moved out on the 5th.", "2025-03-05", "2025-03-05"),
    FactCase("day of month", "2024-10-28", "The vote is on the 4th.", "2024-11-04", "2024-11-04"),
    FactCase("day of month", "2026-05-21", "My cousin landed on the 18th.", "2026-05-18", "2026-05-18"),
    FactCase("day of month", "2025-12-15", "Contract renewal is due on the 12th.", "2026-01-12", "2026-01-12"),
    FactCase("day of month", "2024-01-05", "We celebrated her promotion on the 27th.", "2023-12-27", "2023-12-27"),
    FactCase("day of month", "2025-02-03", "The server migration happened on the 31st.", "2025-01-31", "2025-01-31"),
    FactCase("day of month", "2026-09-03", "Parent-teacher conference is on the 16th.", "2026-09-16", "2026-09-16"),
    # --- season and holiday
    FactCase("season and holiday", "2025-03-10", "We're going to Iceland this summer.", "2025-06-01", "2025-08-31"),
    FactCase("season and holiday", "2026-11-18", "I'll give her the ring at Christmas.", "2026-12-25", "2026-12-25"),
    FactCase(
        "season and holiday",
        "2027-01-06",
        "On Christmas Eve my brother proposed to his girlfriend.",
        "2026-12-24",
        "2026-12-24",
    ),
    FactCase("season and holiday", "2025-01-08", "We spent New Year's Eve in Edinburgh.", "2024-12-31", "2024-12-31"),
    FactCase("season and holiday", "2025-12-10", "Our new café opens on New Year's Day.", "2026-01-01", "2026-01-01"),
    FactCase("season and holiday", "2026-02-12", "Last summer we hiked the Dolomites.", "2025-06-01", "2025-08-31"),
    # said in November: this winter is December 2026 to February 2027.
    FactCase(
        "season and holiday",
        "2026-11-09",
        "This winter we're finally insulating the attic.",
        "2026-12-01",
        "2027-02-28",
    ),
    FactCase("season and holiday", "2024-10-01", "We painted the house in the spring.", "2024-03-01", "2024-05-31"),
    FactCase("season and holiday", "2025-11-25", "Next spring we plant the orchard.", "2026-03-01", "2026-05-31"),
    # US Thanksgiving 2026 is Thursday 11-26.
    FactCase("season and holiday", "2026-10-05", "We're hosting Thanksgiving this year.", "2026-11-26", "2026-11-26"),
    FactCase(
        "season and holiday",
        "2025-11-03",
        "On Halloween the kids dressed as dinosaurs.",
        "2025-10-31",
        "2025-10-31",
    ),
    # Easter 2027 is Sunday 03-28, Easter Monday 03-29.
    FactCase(
        "season and holiday",
        "2027-03-10",
        "We're driving to the coast on Easter Monday.",
        "2027-03-29",
        "2027-03-29",
    ),
    FactCase("season and holiday", "2024-03-01", "We got engaged on Valentine's Day.", "2024-02-14", "2024-02-14"),
    FactCase("season and holiday", "2024-07-15", "This autumn I'm starting my master's.", "2024-09-01", "2024-11-30"),
    # said in June: last winter is December 2024 to February 2025.
    FactCase(
        "season and holiday",
        "2025-06-20",
        "Our daughter took her first steps last winter.",
        "2024-12-01",
        "2025-02-28",
    ),
    FactCase(
        "season and holiday",
        "2027-06-21",
        "We'll watch the fireworks on the Fourth of July.",
        "2027-07-04",
        "2027-07-04",
    ),
    # said in June, past tense: this spring is the one just ended.
    FactCase("season and holiday", "2026-06-15", "We visited Kyoto this spring.", "2026-03-01", "2026-05-31"),
    # said in July: this summer is the one under way.
    FactCase(
        "season and holiday",
        "2025-07-08",
        "This summer the office is moving to Hamburg.",
        "2025-06-01",
        "2025-08-31",
    ),
    # Easter 2026 is Sunday 04-05; said after it, past tense.
    FactCase(
        "season and holiday",
        "2026-04-14",
        "We had lunch with the whole family on Easter Sunday.",
        "2026-04-05",
        "2026-04-05",
    ),
    # --- future dates in past sentences, moved dates, start dates
    # future in a past sentence: the past verb is the sale, booking or signing; the dated event is to come.
    FactCase(
        "future in a past sentence",
        "2026-01-20",
        "sold the yaris, buyer's bank transfer arrives feb 24 🙏",
        "2026-02-24",
        "2026-02-24",
    ),
    FactCase(
        "future in a past sentence", "2025-02-18", "booked the dentist for march 3, finally", "2025-03-03", "2025-03-03"
    ),
    FactCase(
        "future in a past sentence",
        "2024-03-12",
        "we've signed!! keys get handed over on the 1st of april",
        "2024-04-01",
        "2024-04-01",
    ),
    FactCase(
        "future in a past sentence",
        "2027-05-02",
        "got tickets for june 12 😍 front row",
        "2027-06-12",
        "2027-06-12",
    ),
    # said in December about January, the event to come: next year's.
    FactCase(
        "future in a past sentence",
        "2025-12-14",
        "Booked the flights, we land in Osaka on January 9.",
        "2026-01-09",
        "2026-01-09",
    ),
    # said in January about December, the race to come: this year's December.
    FactCase(
        "future in a past sentence",
        "2026-01-08",
        "Registered for the Valencia marathon, race day is December 6.",
        "2026-12-06",
        "2026-12-06",
    ),
    FactCase(
        "future in a past sentence",
        "2024-08-05",
        "reserved a table at noma for october 18, cant believe we got in",
        "2024-10-18",
        "2024-10-18",
    ),
    FactCase(
        "future in a past sentence",
        "2025-11-20",
        "Paid the deposit. The sofa gets delivered December 2.",
        "2025-12-02",
        "2025-12-02",
    ),
    # 21:30 in California (04:30 UTC on 04-28): the local day is 04-27.
    FactCase(
        "future in a past sentence",
        "2026-04-27T21:30:00-07:00",
        "scheduled the vet for may 4, thx for the rec",
        "2026-05-04",
        "2026-05-04",
    ),
    FactCase(
        "future in a past sentence", "2024-12-28", "Ordered the new laptop, it ships jan 6", "2025-01-06", "2025-01-06"
    ),
    FactCase(
        "future in a past sentence",
        "2027-09-14",
        "Bought the concert tickets, the show's on November 21.",
        "2027-11-21",
        "2027-11-21",
    ),
    FactCase(
        "future in a past sentence",
        "2025-06-03",
        "handed in my notice. last day is july 31",
        "2025-07-31",
        "2025-07-31",
    ),
    FactCase(
        "future in a past sentence",
        "2026-07-15",
        "Confirmed with the caterer, the party is set for September 5.",
        "2026-09-05",
        "2026-09-05",
    ),
    # the event is past: the most recent such day before said.
    FactCase(
        "future in a past sentence",
        "2026-01-10",
        "the parcel arrived on January 3, finally",
        "2026-01-03",
        "2026-01-03",
    ),
    # said in January about December, the event past: the previous year's.
    FactCase(
        "future in a past sentence",
        "2025-01-06",
        "the parcel finally arrived on december 30, three weeks late 🙄",
        "2024-12-30",
        "2024-12-30",
    ),
    FactCase(
        "future in a past sentence",
        "2027-04-11",
        "called a plumber, he came on march 28 and fixed it in an hour",
        "2027-03-28",
        "2027-03-28",
    ),
    # moved dates: the event is now on the new date.
    FactCase("moved dates", "2026-01-22", "the review moved from January 30 to February 4", "2026-02-04", "2026-02-04"),
    FactCase("moved dates", "2025-04-14", "pushed the launch from May 26 to July 14 😬", "2025-07-14", "2025-07-14"),
    # said in December, the new date in January: next year's.
    FactCase(
        "moved dates",
        "2024-12-09",
        "heads up: the offsite moved from december 18 to january 15",
        "2025-01-15",
        "2025-01-15",
    ),
    # brought forward: B before A.
    FactCase(
        "moved dates",
        "2027-03-02",
        "brought the deadline forward from march 20 to march 13, sorry all",
        "2027-03-13",
        "2027-03-13",
    ),
    # said Tuesday 2025-10-07: the Friday of that week.
    FactCase("moved dates", "2025-10-07", "the 1:1 got moved to friday", "2025-10-10", "2025-10-10"),
    FactCase("moved dates", "2026-06-03", "the team dinner is now on the 14th", "2026-06-14", "2026-06-14"),
    FactCase("moved dates", "2024-02-05", "interview rescheduled for march 9", "2024-03-09", "2024-03-09"),
    FactCase(
        "moved dates",
        "2025-09-02",
        "movers called. instead of the 12th it's the 19th now",
        "2025-09-19",
        "2025-09-19",
    ),
    FactCase("moved dates", "2026-11-18", "dentist moved my cleaning to december 3", "2026-12-03", "2026-12-03"),
    # past: the moved event has happened, on B.
    FactCase(
        "moved dates",
        "2025-02-12",
        "the review was moved from jan 30 to feb 4 and it went fine",
        "2025-02-04",
        "2025-02-04",
    ),
    FactCase(
        "moved dates",
        "2026-07-20",
        "the wedding got postponed from june 6 to july 11, was gorgeous tho",
        "2026-07-11",
        "2026-07-11",
    ),
    # 23:10 in Berlin (21:10 UTC): the local day is 05-28 either way.
    FactCase(
        "moved dates",
        "2024-05-28T23:10:00+02:00",
        "kickoff got pushed from june 3 to june 10",
        "2024-06-10",
        "2024-06-10",
    ),
    FactCase(
        "moved dates",
        "2027-12-20",
        "our flight got rescheduled for jan 2, airline cancelled the old one",
        "2028-01-02",
        "2028-01-02",
    ),
    # 18:00 in New York (23:00 UTC on 12-29): January is next year's.
    FactCase(
        "moved dates",
        "2025-12-29T18:00:00-05:00",
        "board meeting moved from jan 8 to jan 15",
        "2026-01-15",
        "2026-01-15",
    ),
    # start dates: a single day, the next one after said.
    FactCase("start date", "2026-02-10", "start date march 2 🎉", "2026-03-02", "2026-03-02"),
    FactCase("start date", "2025-02-20", "my start date is 2 March", "2025-03-02", "2025-03-02"),
    FactCase("start date", "2024-03-15", "first day is april 1, not a joke lol", "2024-04-01", "2024-04-01"),
    # said in December: January is next year's.
    FactCase("start date", "2025-12-03", "got the offer!! start date jan 12", "2026-01-12", "2026-01-12"),
    FactCase("start date", "2027-01-06", "Start date confirmed: February 15.", "2027-02-15", "2027-02-15"),
    # 23:30 in Chicago (05:30 UTC on 03-02): the local day is 03-01, so March 2 is the next day, not next year's.
    FactCase("start date", "2026-03-01T23:30:00-06:00", "hr says my start date is march 2", "2026-03-02", "2026-03-02"),
    FactCase("start date", "2024-08-12", "my first day at the clinic is september 9", "2024-09-09", "2024-09-09"),
    FactCase("start date", "2025-06-30", "start date for the new job: aug 4, cant wait", "2025-08-04", "2025-08-04"),
    FactCase("start date", "2026-10-19", "official start date is the 2nd of november", "2026-11-02", "2026-11-02"),
    FactCase("start date", "2027-04-30", "my start date got confirmed, it's may 17", "2027-05-17", "2027-05-17"),
    FactCase("start date", "2024-11-25", "thx for the referral! start date is december 9", "2024-12-09", "2024-12-09"),
]
