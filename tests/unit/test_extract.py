"""The offline extractor's rules and the within-call deduplication."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import numpy as np
import pytest

from hindsight_pl.llm.extraction import _date, _halves, fact_text
from hindsight_pl.retain.dedupe import Deduplicator
from hindsight_pl.retain.extract import Fact, OfflineExtractor, VerbatimExtractor, opening_headings, sections
from hindsight_pl.retain.names import find_names
from hindsight_pl.retain.sentences import group_sentences, has_verb, normalise, split_sentences

SAID = datetime(2024, 6, 10, 12, tzinfo=UTC)


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        ("Hey Mel!", False),
        ("Wow, so cool.", False),
        ("Happy new year everyone!", False),
        ("I went home.", True),
        ("She's here.", True),
        ("We bought a boat.", True),
        ("Ada flies tomorrow.", True),
        ("It was raining.", True),
        ("Project Atlas ships the new search API in the autumn.", True),  # unknown verb, long enough
        ("我上个月搬到了柏林。", True),
        ("好的", False),
    ],
)
def test_has_verb(sentence, expected):
    assert has_verb(sentence) is expected


def test_fragments_join_a_clause_and_linked_sentences_stay_together():
    sentences = ["Hey Mel!", "I went to the support group.", "It was powerful.", "Dogs run.", "Cats sleep.",
                 "Birds sing.", "Fish swim."]  # fmt: skip
    assert group_sentences(sentences) == [
        "Hey Mel! I went to the support group. It was powerful.", "Dogs run.", "Cats sleep.", "Birds sing.",
        "Fish swim."]  # fmt: skip
    # a turn of up to three clauses is one fact; a passage of fragments is one fact as written
    assert group_sentences(["Hi!", "I left.", "We won.", "They lost."], whole=True) == [
        "Hi! I left. We won. They lost."]  # fmt: skip
    assert group_sentences(["Paid the deposit.", "The sofa comes December 2."], whole=True) == [
        "Paid the deposit. The sofa comes December 2."]  # fmt: skip
    assert group_sentences(["Paid the deposit.", "The sofa comes December 2."]) == [
        "Paid the deposit.", "The sofa comes December 2."]  # fmt: skip
    assert group_sentences(["vienna!!", "6-7 aug"]) == group_sentences(["vienna!!", "6-7 aug"], whole=True) == [
        "vienna!! 6-7 aug"]  # fmt: skip
    assert group_sentences([]) == []


def test_a_message_without_a_verb_is_kept_and_an_items_speaker_makes_a_turn():
    said = datetime(2026, 6, 1, 12, tzinfo=UTC)
    (fact,) = OfflineExtractor().extract(["april cloud: $4,920. under budget 👍"], timestamp=said)
    assert fact.text == "april cloud: $4,920. under budget 👍"
    given = OfflineExtractor().extract(["climbing moved to tuesdays. mornings aren't working."], timestamp=said,
                                       speaker="Maya")  # fmt: skip
    written = OfflineExtractor().extract(["Maya: climbing moved to tuesdays. mornings aren't working."],
                                         timestamp=said)  # fmt: skip
    assert [f.text for f in given] == [f.text for f in written] == [
        "Maya: climbing moved to tuesdays. mornings aren't working."]  # fmt: skip
    assert given[0].entities == written[0].entities == ["Maya"]


def test_sentences_split_with_abbreviations_and_in_chinese():
    assert split_sentences("Dr. Smith came at 5 p.m. and left. We stayed.") == [
        "Dr. Smith came at 5 p.m. and left.", "We stayed."]  # fmt: skip
    assert split_sentences("我去了北京。天气很好！") == ["我去了北京。", "天气很好！"]


@pytest.mark.parametrize(
    ("passage", "known", "names"),
    [
        ("I moved to Berlin last March.", (), ["Berlin"]),
        ("Yesterday Caroline went to the Pride parade.", (), ["Caroline", "Pride"]),
        ("Ada flew to Rome on Monday.", (), ["Ada", "Rome"]),
        ("Roadmap draft is up.", (), []),  # a sentence's first word alone is not a name
        ("Melanie said hi. Melanie left.", (), ["Melanie"]),
        ("Great news from Tom.", (), ["Tom"]),
        ("Tom's Apple Pay integration is done.", (), ["Tom", "Apple Pay"]),
        ("Clickable Falcon prototype is done.", (), ["Falcon"]),
        ("Project Atlas ships soon.", (), ["Project Atlas"]),
        ("She works at the Bank of America in New York.", (), ["Bank of America", "New York"]),
        ('She loves "The Hobbit" and 《三体》.', (), ["The Hobbit", "三体"]),
        ("Mel came by.", ("Mel",), ["Mel"]),
        ("I saw Anna on Saturdays in January.", (), ["Anna"]),
        # names keep their numbers
        ("The meeting moved from Room 101 to Room 102.", (), ["Room 101", "Room 102"]),
        ("Ana took flight UA123 to Oslo.", (), ["Ana", "UA123", "Oslo"]),
        ("I filed the 2024 Tax Return.", (), ["2024 Tax Return"]),
        ("Ana bought an iPhone 15 yesterday.", (), ["Ana", "iPhone 15"]),
        ("We upgraded to Python 3.12 last week.", (), ["Python 3.12"]),
        ("Room 101 is booked.", (), ["Room 101"]),
        ("Gate 4B closes at 9.", (), ["Gate 4B"]),
        # ... but a number that counts or pays is not part of a name
        ("In 2024 Ana moved to Oslo.", (), ["Ana", "Oslo"]),
        ("I paid Ana 50 dollars.", (), ["Ana"]),
        ("I gave Bo 3 apples.", (), ["Bo"]),
        ("Call 911 now.", (), []),
        # a contracted pronoun or question word opening a sentence is no name
        ("Lena joined Brightwater Health. She's working on Juniper.", (), ["Lena", "Brightwater Health", "Juniper"]),
        ("What's everyone up to? That's Tom's bike.", (), ["Tom"]),
        ("We'll see. Don't wait for Ana. They're late.", (), ["Ana"]),
        # dates, holidays, time zones and shouting are no names
        ("Replication tests in Feb, cutover on Tue Mar 25.", (), []),
        ("Jan 5 is fine, ask Jan.", (), ["Jan"]),  # a given name that is also a month: a date beside a number
        ("I'm off through Easter Monday, family in Leicester.", (), ["Leicester"]),
        ("We held 3x last year's Black Friday peak. Happy Halloween!", (), []),
        ("Also happy Valentine's day to Ana.", (), ["Ana"]),
        ("The window is 21:00-22:00 UTC, or 2pm PST.", (), []),
        ("We're doing LIKE queries. OMG it is AMAZING. Ask NASA's press office.", (), ["NASA"]),
        ("On-call is probably Q2. Adding PKs this week, the log is 30 GB.", (), []),
        ("Went to that new Georgian place with Ana.", (), ["Ana"]),
        # a coordination is two names; a hyphen joins one
        ("Beta on iOS and Android for Tom and Sofia.", (), ["iOS", "Android", "Tom", "Sofia"]),
        ("He played Counter-Strike with Ana.", (), ["Counter-Strike", "Ana"]),
        # a product keeps its version
        ("The old PostgreSQL 11 box runs billing, on PostgreSQL 16.11 now.", (), ["PostgreSQL 11", "PostgreSQL 16.11"]),
        # a sentence's first word: a singular subject or a name addressed, not a plural, a verb or a common word
        ("Got paged at 2am. Comments welcome. Dashboards are green.", (), []),
        ("Rachel, can you mock that? Biscuit and I will be on a hill.", (), ["Rachel", "Biscuit"]),
        ("Thanks Melanie - love the blue vase! Blue's my fave.", (), ["Melanie"]),
        ("Plus, I can add more items.", (), []),
    ],
)
def test_find_names(passage, known, names):
    assert find_names(passage, known) == names


def test_offline_extractor_turns_dates_entities_and_types():
    extractor = OfflineExtractor(agent_name="Assistant")
    facts = extractor.extract(
        ["Caroline: I moved to Berlin last March.\nassistant: I noted it.\nCaroline: Thanks!"],
        timestamp=SAID,
        entities=["Trip"],
    )
    assert [(f.text, f.fact_type, f.entities) for f in facts] == [
        ("Caroline: I moved to Berlin last March.", "world", ["Trip", "Caroline", "Berlin"]),
        ("assistant: I noted it.", "experience", ["Trip", "assistant"]),
        ("Caroline: Thanks!", "world", ["Trip", "Caroline"]),  # a turn of fragments is kept as written
    ]
    assert (facts[0].occurred_start, facts[0].occurred_end) == (
        datetime(2024, 3, 1, tzinfo=UTC), datetime(2024, 3, 31, 23, 59, 59, 999999, tzinfo=UTC))  # fmt: skip
    assert facts[1].occurred_start is None and facts[1].chunk_index == 0


@pytest.mark.parametrize(
    ("said", "day"),
    [
        ("Two days ago we signed the lease.", "2024-06-08"),
        ("The launch is on December 7th.", "2024-12-07"),  # the nearer December 7th is the coming one
        ("We launched on December 7th.", "2023-12-07"),  # past tense: the past one
        ("General availability is set for July 1st.", "2024-07-01"),  # "set" is present here: the coming one
        ("The cutover is scheduled for Thursday night, June 13th.", "2024-06-13"),  # the date, not last Thursday
        ("我昨天去了北京。", "2024-06-09"),
        ("The review is next Monday.", "2024-06-17"),
    ],
)
def test_relative_dates_resolve_against_the_item_time(said, day):
    (fact,) = OfflineExtractor().extract([said], timestamp=SAID)
    assert fact.occurred_start is not None and fact.occurred_start.date().isoformat() == day


@pytest.mark.parametrize(
    "said",
    [
        "First checkout wireframes by Friday.",  # a deadline: not the ten years before Friday
        "We need the prototype before mid-February.",
        "Nothing has changed since 2019, honestly.",
    ],
)
def test_an_open_end_dates_no_fact(said):
    (fact,) = OfflineExtractor().extract([said], timestamp=SAID)
    assert (fact.occurred_start, fact.occurred_end) == (None, None)


def test_a_named_decade_dates_a_fact():
    (fact,) = OfflineExtractor().extract(["My parents met in the 1990s."], timestamp=SAID)
    start, end = fact.occurred_start.date().isoformat(), fact.occurred_end.date().isoformat()
    assert (start, end) == ("1990-01-01", "1999-12-31")


def test_time_zone_of_the_bank_sets_the_day():
    (fact,) = OfflineExtractor(time_zone="Asia/Tokyo").extract(["I arrived today."], timestamp=SAID)
    assert fact.occurred_start == datetime(2024, 6, 10, tzinfo=UTC).replace(hour=0) - (
        datetime(2024, 6, 10, 9, tzinfo=UTC) - datetime(2024, 6, 10, tzinfo=UTC)
    )  # 00:00 in Tokyo = 15:00 UTC before


def test_normalise_and_dedupe_by_text_then_embedding():
    assert normalise("  Ana ADOPTED a cat!! ") == normalise("ana adopted a cat") == "ana adopted a cat"
    dedupe = Deduplicator(0.95)
    a, b, c = (
        Fact("Ana adopted a cat.", 0, entities=["Ana"]),
        Fact("ana adopted a CAT", 0, entities=["Cat"]),
        Fact("Ana took in a cat.", 0),
    )
    assert dedupe.by_text([a, b, c]) == [a, c] and a.entities == ["Ana", "Cat"]
    near = np.array([1.0, 0.0]), np.array([0.96, 0.28])  # cosine 0.96
    assert dedupe.by_embedding([a, c], near) == [a]
    far = Fact("Bo sold the boat.", 0)
    assert dedupe.by_embedding([far], [np.array([0.0, 1.0])]) == [far]
    with pytest.raises(ValueError, match="cosine similarity in"):
        Deduplicator(1.5)


def test_llm_fact_text_dates_and_halves():
    assert fact_text(
        {"what": "Ana moved to Lyon", "when": "last spring", "who": "Ana, Bo", "why": "for a new job"}
    ) == ("Ana moved to Lyon | When: last spring | Involving: Ana, Bo | for a new job")
    assert fact_text({"what": "Ana moved", "when": None, "who": "", "why": None}) == "Ana moved"
    assert _date("2024-03-05", end=False) == datetime(2024, 3, 5, tzinfo=UTC)
    assert _date("2024-03-05", end=True) == datetime(2024, 3, 5, 23, 59, 59, 999999, tzinfo=UTC)
    assert _date("2024-03-05T10:00:00+02:00", end=False) == datetime(2024, 3, 5, 8, tzinfo=UTC)
    assert _date("soon", end=False) is None
    text = " ".join(f"Sentence {i} is here." for i in range(40))
    first, second = _halves(text)
    assert f"{first} {second}" == text and abs(len(first) - len(second)) < len(text) // 3


def test_verbatim_extractor_keeps_each_chunk_whole():
    extractor = VerbatimExtractor(agent_name="Assistant")
    facts = extractor.extract(
        ["Caroline: I moved to Berlin last March. It was cold.", "...", "assistant: Noted, Caroline."],
        timestamp=SAID,
        entities=["Trip"],
    )
    assert [(f.text, f.chunk_index, f.fact_type, f.entities) for f in facts] == [
        ("Caroline: I moved to Berlin last March. It was cold.", 0, "world", ["Trip", "Caroline", "Berlin"]),
        ("assistant: Noted, Caroline.", 2, "experience", ["Trip", "assistant", "Caroline"]),
    ]
    assert all(f.occurred_start is None and f.occurred_end is None for f in facts)
    (fact,) = extractor.extract(["We met Dana in Oslo."], timestamp=SAID, speaker="Assistant")
    assert (fact.fact_type, fact.entities) == ("experience", ["Assistant", "Dana", "Oslo"])


def test_dedupe_keeps_the_same_fact_on_two_days():
    dedupe = Deduplicator(0.95)
    monday, friday = datetime(2024, 6, 10, 7, tzinfo=UTC), datetime(2024, 6, 14, 7, tzinfo=UTC)
    runs = [Fact("Ana ran 5 km.", 0), Fact("Ana ran 5 km.", 0), Fact("Ana ran 5 km.", 0)]
    kept = dedupe.by_text(runs[:2], monday) + dedupe.by_text(runs[2:], friday)
    assert kept == [runs[0], runs[2]]  # the second is Monday's again
    same = np.array([1.0, 0.0])
    assert dedupe.by_embedding(kept, [same, same], monday) == [runs[0]]  # both said on Monday: one day
    dated = Fact("Ana ran 5 km on Friday.", 0)
    dated.occurred_start = friday
    assert dedupe.by_embedding([dated], [same], monday) == [dated]  # about Friday, though said on Monday
    ended, again = Fact("Ana ran 5 km by Friday.", 0), Fact("Ana ran 5 km by Friday.", 0)
    ended.occurred_end = again.occurred_end = friday  # only the end known: that end is the day, as a unit's date
    assert dedupe.by_embedding([ended], [same], monday) == [ended]
    assert dedupe.by_embedding([again], [same], monday + timedelta(days=1)) == []  # said on Tuesday, about Friday


NOTES = """# Notes

Priya is the tech lead of Falcon.

## Travel ##

The offsite is in Valencia in May.
Ana booked the hotel.

# Home
Tom fixed the sink on Monday.
#1 priority is the roof, said Tom."""


def test_markdown_headings_are_no_facts_and_give_each_fact_its_context():
    facts = OfflineExtractor().extract([NOTES], timestamp=datetime(2025, 3, 3, tzinfo=UTC))
    assert [(f.text, f.context) for f in facts] == [
        ("Priya is the tech lead of Falcon.", "Notes"),
        ("The offsite is in Valencia in May.", "Notes › Travel"),
        ("Ana booked the hotel.", "Notes › Travel"),
        ("Tom fixed the sink on Monday.", "Home"),
        ("#1 priority is the roof, said Tom.", "Home"),  # no space after the #: no heading
    ]
    # a text without headings: no context, as before
    (plain,) = OfflineExtractor().extract(["Tom fixed the sink."], timestamp=datetime(2025, 3, 3, tzinfo=UTC))
    assert plain.context is None


def test_a_chunk_read_alone_is_under_the_headings_the_chunks_before_it_opened():
    chunks = ["# Trip\n\n## Flights\n\nAna booked the flight.", "Ben rented a car.\n\n# Home\n\nTom fixed the sink."]
    assert opening_headings(chunks) == [(), ((1, "Trip"), (2, "Flights"))]
    # the second chunk alone (a document retained again whose first chunk did not change)
    facts = OfflineExtractor().extract(chunks[1:], timestamp=datetime(2025, 3, 3, tzinfo=UTC),
                                       headings=opening_headings(chunks)[1:])  # fmt: skip
    assert [(f.text, f.context) for f in facts] == [
        ("Ben rented a car.", "Trip › Flights"),
        ("Tom fixed the sink.", "Home"),
    ]
    assert sections("no heading here") == ([((), "no heading here")], ())


def test_a_memorys_new_text_is_read_as_retain_reads_a_fact():
    from hindsight_pl.retain.units import reread

    said = datetime(2025, 6, 9, tzinfo=UTC)  # a Monday
    # a turn: its speaker, then the names of what was said ("Noted" opens it, no name); a name it still holds stays
    text = "assistant: Noted: Tom looks after Biscuit on Friday."
    turn = reread({}, text, said, ["assistant", "Biscuit", "Marta"])
    assert turn.entities == ["assistant", "Biscuit", "Tom"]
    assert (turn.occurred_start, turn.text) == (datetime(2025, 6, 13, tzinfo=UTC), text)
    prose = reread({"time_zone": "UTC"}, "The offsite moved to Porto.", said, [])
    assert (prose.entities, prose.occurred_start) == (["Porto"], None)
