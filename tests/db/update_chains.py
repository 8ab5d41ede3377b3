"""Knowledge-update chains written for this project ("Updates win"): a value said, then revised.

Each chain is a few chat messages about one subject, the earlier ones stating values that a later one
replaces (a changed number, a reversal, a cancellation, a move, a correction), in several phrasings and
languages, and a question about the subject now. ``current`` is a phrase only the unit holding today's value
contains; ``replaced`` are phrases of the units whose values it replaced. tests/db/test_updates.py retains
every chain into one bank (a team's chat: the chains are each other's distractors) and asks each question
after the last message.
"""

from __future__ import annotations

from typing import NamedTuple


class Chain(NamedTuple):
    messages: list[tuple[str, str, str]]  # (ISO day said, speaker, text), oldest first
    question: str
    current: str
    replaced: list[str]


CHAINS = [
    Chain(
        [
            ("2025-11-18", "Lena", "A switch from Stripe to Adyen is planned for the checkout."),
            ("2025-11-25", "Lena", "We agreed to keep Stripe after all, the Adyen contract was too rigid."),
        ],
        "Which payment provider are we using?",
        "keep Stripe",
        ["switch from Stripe"],
    ),
    Chain(
        [
            ("2025-09-02", "Omar", "The team offsite is booked in Porto for the first week of October."),
            ("2025-09-20", "Omar", "Porto is cancelled, the team offsite moved to Valencia."),
        ],
        "Where is the team offsite?",
        "Valencia",
        ["booked in Porto"],
    ),
    Chain(
        [
            ("2025-03-04", "Priya", "The design review is scheduled for Thursday at 10."),
            ("2025-03-05", "Priya", "The design review got postponed to Friday at 2 instead."),
        ],
        "When is the design review?",
        "postponed",
        ["scheduled for Thursday"],
    ),
    Chain(
        [
            ("2025-01-10", "Jonas", "Our Postgres cluster runs on three nodes."),
            ("2025-06-10", "Jonas", "We scaled the Postgres cluster to five nodes now."),
        ],
        "How many nodes does the Postgres cluster have?",
        "five nodes",
        ["three nodes"],
    ),
    Chain(
        [
            ("2025-02-01", "Mia", "My new address is 12 Elm Street, Leeds."),
            ("2025-08-15", "Mia", "I moved to 48 Harbour Road in Bristol, that's my address now."),
        ],
        "What is Mia's address?",
        "Harbour Road",
        ["Elm Street"],
    ),
    Chain(
        [
            ("2025-04-01", "Sam", "The mobile release is planned for May 20."),
            ("2025-05-02", "Sam", "New date for the mobile release: June 3, QA needs more time."),
        ],
        "When is the mobile release?",
        "June 3",
        ["May 20"],
    ),
    Chain(
        [
            ("2025-02-10", "Ines", "Carlos leads the data platform team."),
            ("2025-07-01", "Ines", "Carlos is no longer leading the data platform team, Aisha took over."),
        ],
        "Who leads the data platform team?",
        "Aisha took over",
        ["Carlos leads"],
    ),
    Chain(
        [
            ("2025-01-15", "Ben", "The cloud bill is about 40,000 euros a month."),
            ("2025-04-15", "Ben", "After the reserved instances the cloud bill dropped to 31,000 euros a month."),
        ],
        "How much is the monthly cloud bill?",
        "31,000",
        ["40,000"],
    ),
    Chain(
        [
            ("2025-03-10", "Kai", "We use Jenkins for all CI pipelines."),
            ("2025-09-10", "Kai", "We switched from Jenkins to GitHub Actions for CI last month."),
        ],
        "Which CI system do we use?",
        "GitHub Actions",
        ["use Jenkins"],
    ),
    Chain(
        [
            ("2025-05-05", "Noor", "The quarterly all-hands is in the big auditorium on floor 2."),
            (
                "2025-05-20",
                "Noor",
                "The quarterly all-hands moved to the cafeteria, the auditorium is being renovated.",
            ),
        ],
        "Where is the quarterly all-hands?",
        "cafeteria",
        ["auditorium on floor 2"],
    ),
    Chain(
        [
            ("2025-06-01", "Tara", "I'm training for the Berlin marathon in September."),
            ("2025-07-12", "Tara", "Not running Berlin anymore, my knee needs rest: the Lisbon half marathon instead."),
        ],
        "Which race is Tara training for?",
        "Lisbon",
        ["Berlin marathon in September"],
    ),
    Chain(
        [
            ("2025-02-20", "Leo", "The API rate limit is 100 requests per minute."),
            ("2025-03-20", "Leo", "We raised the API rate limit to 250 requests per minute."),
        ],
        "What is the API rate limit?",
        "250 requests",
        ["100 requests"],
    ),
    Chain(
        [
            ("2025-01-08", "Eva", "Our on-call rotation is weekly, handover on Mondays."),
            ("2025-04-08", "Eva", "The on-call rotation changed to two weeks, handover on Wednesdays now."),
        ],
        "How does the on-call rotation work?",
        "two weeks",
        ["weekly, handover on Mondays"],
    ),
    Chain(
        [
            ("2025-03-03", "Raj", "The hackathon is in Amsterdam this year."),
            ("2025-03-30", "Raj", "The Amsterdam hackathon was called off, we'll do a remote one in June."),
        ],
        "Where is the hackathon?",
        "called off",
        ["in Amsterdam this year"],
    ),
    Chain(
        [
            ("2025-05-12", "Zoe", "I drive a blue Golf to the office."),
            ("2025-10-01", "Zoe", "Sold the Golf, I cycle to the office these days."),
        ],
        "How does Zoe get to the office?",
        "cycle",
        ["blue Golf"],
    ),
    Chain(
        [
            ("2025-02-14", "Hugo", "The support team has 6 people."),
            ("2025-06-14", "Hugo", "We hired two more, the support team has 8 people now."),
        ],
        "How big is the support team?",
        "8 people",
        ["6 people"],
    ),
    Chain(
        [
            ("2025-01-20", "Ada", "The search service is written in Python."),
            ("2025-08-20", "Ada", "We rewrote the search service in Rust, the Python version is retired."),
        ],
        "What language is the search service written in?",
        "Rust",
        ["written in Python"],
    ),
    Chain(
        [
            ("2025-04-04", "Finn", "Team lunch is on Fridays at Luigi's."),
            ("2025-04-25", "Finn", "Team lunch is moving to Thursdays, Luigi's closes on Fridays now."),
        ],
        "When is team lunch?",
        "Thursdays",
        ["Fridays at Luigi's"],
    ),
    Chain(
        [
            ("2025-03-15", "Maya", "My sister Rosa lives in Madrid."),
            ("2025-09-15", "Maya", "Rosa moved to Seville for her new job."),
        ],
        "Where does Maya's sister Rosa live?",
        "Seville",
        ["lives in Madrid"],
    ),
    Chain(
        [
            ("2025-02-02", "Ivo", "The staging database is 200 GB."),
            ("2025-05-02", "Ivo", "Staging database is 350 GB now after the backfill."),
        ],
        "How large is the staging database?",
        "350 GB",
        ["200 GB"],
    ),
    Chain(
        [
            ("2025-06-06", "Lena", "The analytics dashboard uses Metabase."),
            ("2025-06-30", "Lena", "We decided to replace Metabase with Superset for the analytics dashboard."),
        ],
        "Which tool does the analytics dashboard use?",
        "Superset",
        ["uses Metabase"],
    ),
    Chain(
        [
            ("2025-01-03", "Omar", "The office wifi password is Falcon2024."),
            ("2025-02-03", "Omar", "Office wifi password changed to Heron2025."),
        ],
        "What is the office wifi password?",
        "Heron2025",
        ["Falcon2024"],
    ),
    Chain(
        [
            ("2025-07-07", "Priya", "I'm reading Dune at the moment."),
            ("2025-08-07", "Priya", "Finished Dune, now I'm reading The Left Hand of Darkness."),
        ],
        "What book is Priya reading?",
        "Left Hand",
        ["reading Dune at the moment"],
    ),
    Chain(
        [
            ("2025-03-21", "Jonas", "The release train ships every two weeks."),
            ("2025-09-21", "Jonas", "The release train ships every week now."),
        ],
        "How often does the release train ship?",
        "every week now",
        ["every two weeks"],
    ),
    Chain(
        [
            ("2025-02-11", "Mia", "Our biggest customer is Northwind with 900 seats."),
            ("2025-08-11", "Mia", "Northwind grew to 1,400 seats, still our biggest customer."),
        ],
        "How many seats does Northwind have?",
        "1,400",
        ["900 seats"],
    ),
    Chain(
        [
            ("2025-04-18", "Sam", "The conference talk is 45 minutes long."),
            ("2025-05-18", "Sam", "Correction: the conference talk slot is 30 minutes, not 45."),
        ],
        "How long is the conference talk?",
        "30 minutes",
        ["45 minutes long"],
    ),
    Chain(
        [
            ("2025-01-25", "Ines", "Our logo is dark green."),
            ("2025-06-25", "Ines", "The rebrand is done, the logo is orange now."),
        ],
        "What colour is the logo?",
        "orange",
        ["dark green"],
    ),
    Chain(
        [
            ("2025-05-01", "Ben", "The sprint planning meeting is on Monday mornings."),
            ("2025-05-29", "Ben", "Sprint planning moved to Tuesday afternoons from next sprint."),
        ],
        "When is sprint planning?",
        "Tuesday afternoons",
        ["Monday mornings"],
    ),
    Chain(
        [
            ("2025-02-27", "Kai", "My laptop is a ThinkPad X1."),
            ("2025-11-01", "Kai", "I replaced my ThinkPad X1 with a MacBook Air."),
        ],
        "What laptop does Kai use?",
        "MacBook Air",
        ["is a ThinkPad"],
    ),
    Chain(
        [("2025-03-09", "Noor", "The customer NPS is 31."), ("2025-09-09", "Noor", "NPS went up to 44 this quarter.")],
        "What is our NPS?",
        "44",
        ["NPS is 31"],
    ),
    Chain(
        [
            ("2025-06-16", "Tara", "Our vendor for badges is PrintCo."),
            ("2025-07-16", "Tara", "We dropped PrintCo as the badge vendor, badges come from BadgeHub now."),
        ],
        "Who prints our badges?",
        "BadgeHub",
        ["vendor for badges is PrintCo"],
    ),
    Chain(
        [
            ("2025-08-01", "Leo", "The onboarding buddy for new hires is Greta."),
            ("2025-10-01", "Leo", "Greta is on parental leave, Paul is the onboarding buddy for new hires instead."),
        ],
        "Who is the onboarding buddy for new hires?",
        "Paul",
        ["buddy for new hires is Greta"],
    ),
    Chain(
        [
            ("2025-01-30", "Eva", "The error budget for the checkout API is 0.5 percent."),
            ("2025-07-30", "Eva", "We tightened the checkout API error budget to 0.1 percent."),
        ],
        "What is the checkout API's error budget?",
        "0.1 percent",
        ["0.5 percent"],
    ),
    Chain(
        [
            ("2025-02-05", "Raj", "Die Weihnachtsfeier findet im Ratskeller statt."),
            ("2025-10-05", "Raj", "Die Weihnachtsfeier wurde in die Markthalle verlegt."),
        ],
        "Wo findet die Weihnachtsfeier statt?",
        "Markthalle",
        ["Ratskeller"],
    ),
    Chain(
        [
            ("2025-03-12", "Zoe", "La réunion d'équipe a lieu le lundi à 9 heures."),
            ("2025-04-12", "Zoe", "La réunion d'équipe est déplacée au mardi à 10 heures."),
        ],
        "Quand a lieu la réunion d'équipe ?",
        "mardi",
        ["lundi à 9 heures"],
    ),
    Chain(
        [
            ("2025-05-22", "Hugo", "El equipo de ventas tiene 12 personas."),
            ("2025-10-22", "Hugo", "Ahora el equipo de ventas tiene 15 personas."),
        ],
        "¿Cuántas personas tiene el equipo de ventas?",
        "15 personas",
        ["12 personas"],
    ),
    Chain(
        [
            ("2025-04-09", "Ada", "Il fornitore del catering è Sapori."),
            ("2025-06-09", "Ada", "Non usiamo più Sapori, il catering lo fa Gusto invece."),
        ],
        "Chi fa il catering?",
        "Gusto",
        ["catering è Sapori"],
    ),
    Chain(
        [
            ("2025-03-01", "Finn", "The monorepo build takes 25 minutes."),
            ("2025-08-01", "Finn", "With remote caching the monorepo build takes 9 minutes now."),
        ],
        "How long does the monorepo build take?",
        "9 minutes",
        ["25 minutes"],
    ),
    Chain(
        [
            ("2025-02-18", "Maya", "Our main competitor is Acme Analytics."),
            ("2025-09-18", "Maya", "Acme Analytics got acquired, our main competitor is DataForge now."),
        ],
        "Who is our main competitor?",
        "DataForge",
        ["competitor is Acme"],
    ),
    Chain(
        [
            ("2025-01-12", "Ivo", "The incident review happens within 5 days of an outage."),
            ("2025-06-12", "Ivo", "The incident review now happens within 2 days of an outage."),
        ],
        "How soon after an outage is the incident review?",
        "2 days",
        ["5 days"],
    ),
    Chain(
        [
            ("2025-03-17", "Lena", "I'm vegetarian."),
            ("2025-10-17", "Lena", "I'm fully vegan now, no more cheese for me."),
        ],
        "What is Lena's diet?",
        "vegan",
        ["I'm vegetarian"],
    ),
    Chain(
        [
            ("2025-04-21", "Omar", "The tech talk series runs monthly on the first Wednesday."),
            ("2025-04-28", "Omar", "Change of plan: the tech talk series runs every second Thursday."),
        ],
        "When does the tech talk series run?",
        "second Thursday",
        ["first Wednesday"],
    ),
    Chain(
        [
            ("2025-01-06", "Priya", "We're targeting 2 million in revenue this year."),
            ("2025-07-06", "Priya", "We revised the revenue target to 2.6 million this year."),
        ],
        "What is this year's revenue target?",
        "2.6 million",
        ["2 million in revenue"],
    ),
    Chain(
        [
            ("2025-02-24", "Jonas", "The shared drive lives in Google Drive."),
            ("2025-08-24", "Jonas", "We migrated the shared drive from Google Drive to SharePoint."),
        ],
        "Where does the shared drive live?",
        "SharePoint",
        ["lives in Google Drive"],
    ),
]
